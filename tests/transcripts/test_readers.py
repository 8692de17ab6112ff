"""Each host's reader on files the real CLI wrote (recorded offline against the fake model:
Claude Code 2.1.197, Codex 0.171.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102). The recorded
session is the same two-turn conversation in every host: a prompt whose turn reads then
edits ``incidents.py``, then a resumed turn that runs pytest."""

from __future__ import annotations

from pathlib import Path

import pytest
from transcript_support import lay_out

from memhooks.transcripts import READERS
from memhooks.transcripts.lines import Damage

FIRST = "Downtime is double counted when incident windows overlap. Merge overlapping windows first."
SECOND = "Also ignore blips under 60 s."
REPLY = "Merged overlapping windows before summing; downtime_minutes now calls merge()."
HOSTS = ["claude-code", "codex", "gemini-cli", "copilot-cli"]


@pytest.mark.parametrize("host", HOSTS)
def test_reader_finds_the_session_and_its_folder(host: str, tmp_path: Path, project: Path) -> None:
    home = tmp_path / "home"
    lay_out(host, home, project)
    reader = READERS[host]
    found = list(reader.sessions({"HOME": str(home)}))
    assert len(found) == 1
    assert reader.cwd(found[0]) == str(project)


@pytest.mark.parametrize("host", HOSTS)
def test_reader_keeps_what_was_said_and_the_tools_used(
    host: str, tmp_path: Path, project: Path
) -> None:
    home = tmp_path / "home"
    lay_out(host, home, project)
    reader = READERS[host]
    damage = Damage()
    transcript = reader.read(next(iter(reader.sessions({"HOME": str(home)}))), damage)
    assert transcript is not None and damage.lines == 0
    assert transcript.host == host and len(transcript.session) >= 8
    users = [m.text for m in transcript.messages if m.role == "user"]
    # The user's two prompts only: no environment preamble, hook context or tool output.
    assert users[0] == FIRST and users[1].startswith(SECOND) and len(users) == 2
    replies = [m.text for m in transcript.messages if m.role == "assistant" and m.text]
    assert replies[0] == REPLY
    uses = [(u.kind, u.paths, u.command) for m in transcript.messages for u in m.tools]
    edits = [paths for kind, paths, _ in uses if kind == "edit"]
    assert edits and edits[0][0].endswith("incidents.py")
    commands = [c for kind, _, c in uses if kind == "command"]
    assert any("pytest" in c for c in commands if c)
    if host == "codex":  # its reads are shell commands: the path is found later, in the text
        assert any(c and "sed -n" in c and "incidents.py" in c for c in commands)
    else:
        reads = [paths for kind, paths, _ in uses if kind == "read"]
        assert reads and reads[0][0] == str(project / "incidents.py")
    assert all(m.at and m.at.startswith("2026-") for m in transcript.messages)


@pytest.mark.parametrize("host", HOSTS)
def test_a_damaged_line_is_skipped_and_counted(host: str, tmp_path: Path, project: Path) -> None:
    home = tmp_path / "home"
    files = lay_out(host, home, project)
    session = next(p for p in files if p.name != ".project_root")
    with session.open("a", encoding="utf-8") as fp:
        fp.write('{"type": "user", "message": {"content": "cut sh')  # a write cut short
    damage = Damage()
    transcript = READERS[host].read(str(session), damage)
    assert transcript is not None and damage.lines == 1


def test_claude_code_leaves_out_side_chains_and_its_own_notes(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = [
        '{"type": "user", "sessionId": "s1", "cwd": "/p", "timestamp": "2026-01-01T00:00:00Z", "message": {"role": "user", "content": "<command-name>/clear</command-name>"}}',
        '{"type": "user", "isSidechain": true, "sessionId": "s1", "message": {"role": "user", "content": "a sub-agent prompt"}}',
        '{"type": "user", "isCompactSummary": true, "sessionId": "s1", "message": {"role": "user", "content": "This session is being continued"}}',
        '{"type": "user", "sessionId": "s1", "cwd": "/p", "timestamp": "2026-01-01T00:00:01Z", "message": {"role": "user", "content": [{"type": "text", "text": "Use tabs."}]}}',
        '{"type": "assistant", "sessionId": "s1", "timestamp": "2026-01-01T00:00:02Z", "message": {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "Done."}]}}',
    ]
    path.write_text("\n".join(lines) + "\n")
    transcript = READERS["claude-code"].read(str(path), Damage())
    assert transcript is not None
    assert [(m.role, m.text) for m in transcript.messages] == [
        ("user", "Use tabs."),
        ("assistant", "Done."),
    ]
    assert transcript.cwd == "/p" and transcript.session == "s1"


def test_older_gemini_sessions_are_one_json_document(tmp_path: Path) -> None:
    chats = tmp_path / ".gemini" / "tmp" / "abc" / "chats"
    chats.mkdir(parents=True)
    (chats / "session-1.json").write_text(
        '{"sessionId": "g1", "projectHash": "abc", "messages": ['
        '{"id": "1", "type": "user", "timestamp": "2026-01-01T00:00:00Z", "content": "Pin numpy below 2."},'
        '{"id": "2", "type": "gemini", "timestamp": "2026-01-01T00:00:01Z", "content": "Pinned.",'
        ' "toolCalls": [{"name": "replace", "args": {"file_path": "/p/requirements.txt"}}]}]}'
    )
    reader = READERS["gemini-cli"]
    transcript = reader.read(str(chats / "session-1.json"), Damage())
    assert transcript is not None and transcript.session == "g1"
    assert transcript.messages[1].tools[0].paths == ["/p/requirements.txt"]
    assert list(reader.sessions({"HOME": str(tmp_path)})) == [str(chats / "session-1.json")]
