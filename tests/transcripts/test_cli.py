"""``memhooks transcripts import|superseded|confirm|undo`` and ``memories forget --session``,
as a user runs them (the sandboxed HOME holds the hosts' files)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from transcript_support import copy_devset, git_project

from memhooks.cli import main
from memhooks.store import MemoryStore, project_id


@pytest.fixture
def planted(devset: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project, home = copy_devset(devset, tmp_path)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "store.sqlite3"))
    return project


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_says_what_it_did_and_a_rerun_adds_nothing(
    planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "transcripts", "import", str(planted))
    assert code == 0
    assert "sessions read: 14 (4 claude-code, 4 codex, 3 copilot-cli, 3 gemini-cli)" in out
    assert "pieces: 15 added, 0 updated, 0 already imported" in out
    assert "3 piece(s) superseded by a later one" in out
    code, out, _ = _run(capsys, "transcripts", "import", str(planted), "--format", "json")
    assert (code, json.loads(out)["added"], json.loads(out)["unchanged_files"]) == (0, 0, 14)


def test_the_first_import_reads_each_session_once(
    planted: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The store is made by the first piece written, not by a dry run first (which
    # segmented every transcript twice on a first import)
    from memhooks.transcripts import importer

    cut: list[str] = []

    def segment(transcript: object, place: object) -> object:
        cut.append(transcript.session)  # type: ignore[attr-defined]
        return real(transcript, place)

    real = importer.segment
    monkeypatch.setattr(importer, "segment", segment)
    assert not Path(os.environ["MEMHOOKS_STORE"]).exists()
    code, out, _ = _run(capsys, "transcripts", "import", str(planted))
    assert code == 0 and "pieces: 15 added" in out
    assert len(cut) == len(set(cut)) == 14


def test_import_needs_an_enabled_project_but_a_dry_run_does_not(
    planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (planted / "MEMHOOKS.md").unlink()
    code, _, err = _run(capsys, "transcripts", "import", str(planted))
    assert code == 1 and "MH013" in err
    code, out, _ = _run(
        capsys, "transcripts", "import", str(planted), "--dry-run", "--agent", "codex"
    )
    assert code == 0 and "15 to add" not in out and "4 codex" in out
    assert not Path(os.environ["MEMHOOKS_STORE"]).exists()


def test_a_supersession_can_be_confirmed_or_undone(
    planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(capsys, "transcripts", "import", str(planted))
    code, out, _ = _run(
        capsys, "transcripts", "superseded", "--cwd", str(planted), "--format", "json"
    )
    rows = json.loads(out)
    assert code == 0 and len(rows) == 3 and not any(r["confirmed"] for r in rows)
    first, second, _ = rows
    code, out, err = _run(capsys, "transcripts", "confirm", first["id"], "--cwd", str(planted))
    assert code == 0, err
    code, out, _ = _run(capsys, "transcripts", "undo", second["id"], "--cwd", str(planted))
    assert code == 0 and "live again" in out
    with MemoryStore(os.environ["MEMHOOKS_STORE"]) as store:
        project = project_id(str(planted))
        kept = store.get(second["id"], project=project)
        confirmed = store.get(first["id"], project=project)
    assert kept is not None and not kept.obsolete and "kept" in kept.tags
    assert confirmed is not None and confirmed.obsolete and "confirmed" in confirmed.tags
    # Once undone, it is not superseded again; and it is no longer among the superseded.
    assert _run(capsys, "transcripts", "undo", second["id"], "--cwd", str(planted))[0] == 2
    out = _run(capsys, "transcripts", "superseded", "--cwd", str(planted))[1]
    assert first["id"] in out and "(confirmed)" in out and second["id"] not in out


def test_forget_by_session_removes_every_piece_of_it(
    planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(capsys, "transcripts", "import", str(planted))
    with MemoryStore(os.environ["MEMHOOKS_STORE"]) as store:
        pieces = store.list(project_id(str(planted)), limit=None, include_obsolete=True)
    session = next(
        m.source for m in pieces if m.source.startswith("transcript:claude-code:")
    ).split(":")[2]
    of_it = [m for m in pieces if m.source.endswith(session)]
    code, out, _ = _run(
        capsys, "memories", "forget", "--cwd", str(planted), "--session", session[:8]
    )
    assert code == 0 and f"Forgot {len(of_it)} memor" in out
    code, _, err = _run(
        capsys, "memories", "forget", "--cwd", str(planted), "--session", session[:8]
    )
    assert code == 2 and "error[MH044]: no memory of session" in err
    assert _run(capsys, "memories", "forget", "--cwd", str(planted))[0] == 2


def test_nothing_to_import_says_where_it_looked_and_makes_no_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Newcomer trial #1: a first run in a project no host has a session of printed
    # "0 added" and left an empty store behind.
    project = git_project(tmp_path / "fresh")
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    store = tmp_path / "store.sqlite3"
    monkeypatch.setenv("MEMHOOKS_STORE", str(store))
    code, out, _ = _run(capsys, "transcripts", "import", str(project))
    assert code == 0
    assert out.splitlines()[:5] == [
        f"Nothing to import for {project}: no session of this project found in",
        f"  claude-code  {home}/.claude/projects",
        f"  codex        {home}/.codex",
        f"  copilot-cli  {home}/.copilot/session-state",
        f"  gemini-cli   {home}/.gemini/tmp",
    ]
    assert not store.exists()
    code, out, _ = _run(capsys, "transcripts", "import", str(project), "--format", "json")
    assert json.loads(out)["looked_in"]["codex"] == f"{home}/.codex" and not store.exists()
    # A chat named on the command line is something to import: the store is made then.
    chat = tmp_path / "chat.jsonl"
    chat.write_text('{"role": "user", "text": "We decided: never log the refresh token."}\n')
    code, out, _ = _run(capsys, "transcripts", "import", str(project), "--chat", str(chat))
    assert code == 0 and "pieces: 1 added" in out and store.exists()


def test_a_chat_with_nothing_said_stores_nothing(
    planted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chat = tmp_path / "hollow.jsonl"
    chat.write_text(
        '{"role": "user", "text": "Fix it."}\n'
        '{"role": "assistant", "text": "FAKE-LLM-OK: done.", "files": ["uptime/incidents.py"]}\n'
    )
    code, out, _ = _run(
        capsys, "transcripts", "import", str(planted), "--agent", "codex", "--chat", str(chat)
    )
    assert code == 0 and "1 piece(s) left out: nothing said" in out
    with MemoryStore(os.environ["MEMHOOKS_STORE"]) as store:
        texts = [m.text for m in store.list(project_id(str(planted)), limit=None)]
    assert texts and not any("FAKE-LLM-OK" in t for t in texts)


def test_an_empty_chat_file_is_named_when_nothing_is_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer trial: `--chat empty.jsonl` said only where host sessions were looked for,
    # and to "name another tool's chat with --chat FILE" — which they had done
    project = git_project(tmp_path / "fresh")
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "store.sqlite3"))
    chat = tmp_path / "empty.jsonl"
    chat.write_text("\n")
    code, out, _ = _run(capsys, "transcripts", "import", str(project), "--chat", str(chat))
    assert code == 0
    assert out.splitlines()[:3] == [
        f"Nothing to import for {project}:",
        f"  {chat}: the file is empty: no chat lines in it",
        "and no session of this project found in",
    ]
    assert out.splitlines()[-1] == "Sessions belong to a project by the folder they ran in."
    code, out, _ = _run(capsys, "transcripts", "import", str(project), "--chat", str(chat),
                        "--format", "json")  # fmt: skip
    assert json.loads(out)["chats"] == {str(chat): "the file is empty: no chat lines in it"}


@pytest.mark.parametrize(
    ("name", "code", "said"),
    [
        ("gone.jsonl", "MH024", "no chat file here"),
        ("folder", "MH034", "cannot read the chat file: Is a directory"),
    ],
)
def test_a_chat_file_that_cannot_be_read_is_an_error_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    code: str,
    said: str,
) -> None:
    # never "nothing to keep" (nor a bare OS error): the file, an MH code and what to do
    project = git_project(tmp_path / "fresh")
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "store.sqlite3"))
    (tmp_path / "folder").mkdir()
    chat = tmp_path / name
    status, out, err = _run(capsys, "transcripts", "import", str(project), "--chat", str(chat))
    assert (status, out) == (1, "")
    assert err == (
        f"error[{code}]: {said}\n  --> {chat}\n"
        "  help: name a readable chat file (JSON Lines) with --chat\n"
    )
    assert not (tmp_path / "store.sqlite3").exists()
