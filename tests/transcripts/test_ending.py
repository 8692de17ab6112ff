"""With capture on, a session's end or compaction turns its own transcript into pieces,
once; with capture off, nothing (issue 23 item 4). Driven through capture's entry point
with the events the hook normalizes from Claude Code's real payloads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from transcript_support import lay_out

from memhooks.agents import normalize
from memhooks.capture import record, settings
from memhooks.store import MemoryStore, project_id

SESSION = "9503b25e-7c99-4ae2-a40b-b7d988504057"  # the recorded Claude Code sample


def _event(project: Path, native: str, transcript: Path | str | None, **fields: object):  # type: ignore[no-untyped-def]
    payload = {"hook_event_name": native, "session_id": SESSION, "cwd": str(project), **fields}
    if transcript is not None:
        payload["transcript_path"] = str(transcript)
    return normalize(json.loads(json.dumps(payload)), host="claude-code")


@pytest.fixture
def session(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    (path,) = [p for p in lay_out("claude-code", home, project) if p.suffix == ".jsonl"]
    return path


def _pieces(store: str, project: Path) -> list:  # type: ignore[type-arg]
    with MemoryStore(store) as opened:
        return opened.list(project_id(str(project)), limit=None, include_obsolete=True)


def test_session_end_imports_the_session_once(project: Path, session: Path, store_path: str) -> None:
    settings.switch(True, settings.PROJECT, str(project))
    first = record(_event(project, "SessionEnd", session, reason="other"), store_path=store_path)
    pieces = [m for m in _pieces(store_path, project) if m.kind == "conversation"]
    assert first.pieces == 1 and len(pieces) == 1
    assert pieces[0].source == f"transcript:claude-code:{SESSION}" and pieces[0].files[0] == "incidents.py"
    again = record(_event(project, "SessionEnd", session, reason="other"), store_path=store_path)
    assert again.pieces == 0 and len(_pieces(store_path, project)) == len(_pieces(store_path, project))


def test_compaction_then_end_adds_only_what_the_session_said_since(
    project: Path, session: Path, store_path: str
) -> None:
    settings.switch(True, settings.PROJECT, str(project))
    assert record(_event(project, "PreCompact", session, trigger="auto"), store_path=store_path).pieces == 1
    line = {"type": "user", "sessionId": SESSION, "cwd": str(project), "timestamp": "2026-12-01T22:00:00Z",
            "message": {"role": "user", "content": "Unrelated: rename the README title to Uptime."}}  # fmt: skip
    with session.open("a") as fp:
        fp.write(json.dumps(line) + "\n")
    end = record(_event(project, "SessionEnd", session, reason="other"), store_path=store_path)
    assert end.pieces == 1  # the new piece; the first is unchanged
    assert len([m for m in _pieces(store_path, project) if m.kind == "conversation"]) == 2


def test_capture_off_imports_nothing(project: Path, session: Path, store_path: str) -> None:
    outcome = record(_event(project, "SessionEnd", session, reason="other"), store_path=store_path)
    assert outcome.project is None and outcome.pieces == 0
    assert not Path(store_path).exists()


def test_a_transcript_path_outside_the_hosts_folder_is_not_read(
    project: Path, session: Path, store_path: str, tmp_path: Path
) -> None:
    settings.switch(True, settings.PROJECT, str(project))
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_bytes(session.read_bytes())
    # The payload names a file outside ~/.claude/projects: the session is found by its id.
    outcome = record(_event(project, "SessionEnd", elsewhere, reason="other"), store_path=store_path)
    assert outcome.pieces == 1
    session.unlink()
    other = record(_event(project, "SessionEnd", elsewhere, reason="other", session_id="0" * 36), store_path=store_path)
    assert other.pieces == 0


def test_what_capture_kept_of_the_session_is_replaced_by_its_piece(
    project: Path, session: Path, store_path: str
) -> None:
    settings.switch(True, settings.PROJECT, str(project))
    said = "Downtime is double counted when incident windows overlap. Merge overlapping windows first."
    with MemoryStore(store_path) as store:
        kept = store.add(project_id(str(project)), said, kind="decision", tags=["captured"],
                         source=f"capture:claude-code:{SESSION}")  # fmt: skip
        other = store.add(project_id(str(project)), "Never log tokens.", kind="constraint",
                          source=f"capture:claude-code:{SESSION}")  # fmt: skip
    record(_event(project, "SessionEnd", session, reason="other"), store_path=store_path)
    by_id = {m.id: m for m in _pieces(store_path, project)}
    piece = next(m for m in by_id.values() if m.kind == "conversation")
    assert (by_id[kept.id].obsolete, by_id[kept.id].superseded_by) == (True, piece.id)
    assert not by_id[other.id].obsolete  # not said in the session: stays
