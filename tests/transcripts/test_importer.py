"""Importing a project's sessions: the development set end to end, then each rule on its own."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from transcript_support import copy_devset, git_project, lay_out

from memhooks.store import MemoryStore
from memhooks.transcripts import import_transcripts
from memhooks.workspace import locate


def _import(store_path: str, project: Path, home: Path, **options: object):  # type: ignore[no-untyped-def]
    where = locate(str(project))
    with MemoryStore(store_path) as store:
        return where, import_transcripts(store, where, env={"HOME": str(home)}, **options)  # type: ignore[arg-type]


def _pieces(store_path: str, project: str) -> list:  # type: ignore[type-arg]
    with MemoryStore(store_path) as store:
        return store.list(project, limit=None, include_obsolete=True)


def test_the_development_set_becomes_anchored_pieces_with_later_rules_winning(
    devset: tuple[Path, Path], tmp_path: Path, store_path: str
) -> None:
    project, home = copy_devset(devset, tmp_path)
    where, report = _import(store_path, project, home)
    assert report.by_host == {"claude-code": 4, "codex": 4, "gemini-cli": 3, "copilot-cli": 3}
    assert (report.sessions, report.added, report.damaged, report.elsewhere) == (14, 15, 0, 0)
    pieces = {m.id: m for m in _pieces(store_path, where.project)}
    by_rule = {m.text.split("Where it ended:\nuser: ")[1][:40]: m for m in pieces.values()}
    blips60 = by_rule["No, keep the checker as it is. From now "]
    blips90 = by_rule["Change of rule: from now on ignore blips"]
    notice24 = by_rule["Maintenance counts as excused only if it"]
    notice48 = by_rule["We decided with legal: maintenance is ex"]
    # Later decisions win, across hosts (Codex -> Gemini CLI, Gemini CLI -> Copilot CLI).
    assert (blips60.obsolete, blips60.superseded_by) == (True, blips90.id)
    assert (notice24.obsolete, notice24.superseded_by) == (True, notice48.id)
    # An amendment (issue 23, rule 5): "from now on merge windows that overlap or are less
    # than 5 minutes apart" changes "merge overlapping windows", both about merge_windows.
    merge = by_rule["OK. We decided: merge overlapping incide"]
    merge5 = by_rule["From now on merge incident windows that "]
    assert (merge.obsolete, merge.superseded_by) == (True, merge5.id)
    assert sorted(m.id for m in pieces.values() if m.obsolete) == sorted(
        [blips60.id, notice24.id, merge.id]
    )
    # Anchored to the files read and edited, and to the names said that the code defines.
    assert blips90.files == ["uptime/incidents.py", "tests/test_incidents.py"]
    assert "MIN_BLIP_S" in blips90.entities
    assert blips90.source.startswith("transcript:gemini-cli:") and blips90.kind == "conversation"
    # One unit, conclusion first, with its session, date and files.
    assert blips90.text.startswith("Conversation (gemini-cli session ")
    assert "uptime/incidents.py (edited)" in blips90.text.splitlines()[0]
    assert all(len(m.text) <= 1600 for m in pieces.values())
    # A chat that decided nothing (an explanation, a question) is no decision.
    question = by_rule["Unrelated: why is Window a dataclass in "]
    assert "decision" not in question.tags and not question.obsolete


def test_a_rerun_adds_nothing_and_a_grown_session_updates_its_last_piece(
    tmp_path: Path, project: Path, store_path: str
) -> None:
    home = tmp_path / "home"
    (session,) = [p for p in lay_out("claude-code", home, project) if p.suffix == ".jsonl"]
    where, first = _import(store_path, project, home)
    _, again = _import(store_path, project, home)
    # One piece: the second prompt ("Also ignore blips…") continues on the same code.
    assert first.added == 1 and (again.added, again.updated, again.unchanged_files) == (0, 0, 1)
    before = {m.id: m.text for m in _pieces(store_path, where.project)}
    line = {"type": "assistant", "sessionId": session.stem, "timestamp": "2026-12-01T22:00:00Z",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Also MIN_BLIP_S is documented now."}]}}  # fmt: skip
    with session.open("a") as fp:
        fp.write(json.dumps(line) + "\n")
    _, grown = _import(store_path, project, home)
    after = {m.id: m.text for m in _pieces(store_path, where.project)}
    assert (grown.added, grown.updated, grown.unchanged) == (0, 1, 0)
    assert list(after) == list(before) and "MIN_BLIP_S is documented now" in next(
        iter(after.values())
    )


def test_secrets_said_in_a_session_are_never_stored(
    tmp_path: Path, project: Path, store_path: str
) -> None:
    home = tmp_path / "home"
    lay_out("codex", home, project)
    where, _ = _import(store_path, project, home)
    texts = "\n".join(m.text for m in _pieces(store_path, where.project))
    assert "sk-ant-api03" not in texts and "[REDACTED:anthropic-key]" in texts


def test_other_projects_sessions_are_left_alone(
    tmp_path: Path, project: Path, store_path: str
) -> None:
    other = git_project(tmp_path / "other")
    home = tmp_path / "home"
    lay_out("copilot-cli", home, other)
    lay_out("gemini-cli", home, project)
    _where, report = _import(store_path, project, home)
    assert (report.elsewhere, report.by_host) == (1, {"gemini-cli": 1})


def test_a_session_of_another_checkout_of_the_project_counts(
    tmp_path: Path, project: Path, store_path: str
) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(project), str(clone)], check=True)
    home = tmp_path / "home"
    lay_out("claude-code", home, clone.resolve())
    where, report = _import(store_path, project, home)
    assert report.by_host == {"claude-code": 1}
    (piece,) = _pieces(store_path, where.project)
    assert piece.files[0] == "incidents.py"  # relative to the clone: the same file here


def test_a_forgotten_piece_is_not_brought_back(
    tmp_path: Path, project: Path, store_path: str
) -> None:
    home = tmp_path / "home"
    (session,) = [p for p in lay_out("claude-code", home, project) if p.suffix == ".jsonl"]
    where, _ = _import(store_path, project, home)
    gone = _pieces(store_path, where.project)[-1].id
    with MemoryStore(store_path) as store:
        assert store.forget(gone, project=where.project)
    with session.open("a") as fp:
        fp.write("\n")  # the file changed: it is read again
    _, report = _import(store_path, project, home)
    assert (report.added, report.forgotten) == (0, 1)
    assert gone not in {m.id for m in _pieces(store_path, where.project)}


def test_a_dry_run_writes_nothing(tmp_path: Path, project: Path, store_path: str) -> None:
    home = tmp_path / "home"
    lay_out("gemini-cli", home, project)
    where = locate(str(project))
    with MemoryStore(":memory:") as store:
        report = import_transcripts(store, where, env={"HOME": str(home)}, dry_run=True)
    assert (report.added, report.dry_run) == (1, True)


def test_plain_chat_files_are_imported_for_the_project(
    tmp_path: Path, project: Path, store_path: str
) -> None:
    chat = tmp_path / "pairing.jsonl"
    chat.write_text(
        '{"role": "user", "text": "Never log the refresh token in incidents.py.", "time": "2026-11-30T12:00:00Z"}\n'
        '{"role": "assistant", "text": "Removed the log line.", "files": ["incidents.py"]}\n'
    )
    where, report = _import(store_path, project, tmp_path / "nohome", chats=[str(chat)])
    (piece,) = _pieces(store_path, where.project)
    assert report.by_host == {"chat": 1} and piece.files == ["incidents.py"]
    assert piece.source == "transcript:chat:pairing" and "decision" in piece.tags
    shutil.rmtree(tmp_path / "nohome", ignore_errors=True)
