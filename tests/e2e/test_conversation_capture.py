"""A decision made in one real Claude Code session comes back in the next (issue 23 item 4).

With capture on (``memhooks capture on``, ``memhooks agents install --capture``), Claude
Code, launched at the root, is told a rule and changes the code for it (``fake_llm.py
--script``: a Read, then an Edit, then the reply). When that session ends, its
``SessionEnd`` hook turns Claude Code's own transcript into anchored conversation pieces —
nothing else imports it (no ``memhooks transcripts import``). A second session, whose
prompt shares no word with the rule, reads the file: the piece reaches the model with that
Read's result, anchored to the file and naming the constant.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import transcript
from e2e_support import AGENT_ENV, binary, fake_llm, memhooks_cli, sandbox_env

PATH = "uptime/incidents.py"
CODE = '''"""Incident windows."""

MERGE_GAP_S = 0


def merge_windows(windows):
    """Windows closer than MERGE_GAP_S merged into one."""
    return windows
'''
OLD, NEW = "MERGE_GAP_S = 0\n", "MERGE_GAP_S = 300\n"
RULE = "less than 5 minutes apart"
DECIDE = (
    "From now on we merge incident windows that are less than 5 minutes apart: "
    f"set MERGE_GAP_S in {PATH} to 300 seconds."
)
REPLY = "MERGE_GAP_S is 300 now: merge_windows merges windows less than 5 minutes apart."
LATER = "Please proofread the docstrings."


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=240, check=False,
    )  # fmt: skip


def _claude(root: Path, env: dict[str, str], log: Path, prompt: str, script: list[dict], reply: str) -> dict[str, object]:  # type: ignore[type-arg]
    server = fake_llm(log, script=script, reply=reply)
    try:
        done = _run(
            [binary("claude"), "-p", prompt, "--permission-mode", "acceptEdits"],
            root, {**env, **AGENT_ENV["claude-code"](server.base_url), "PWD": str(root)},
        )  # fmt: skip
    finally:
        server.stop()
    requests = server.requests()
    body = requests[-1]["body"] if requests else {}
    return {"requests": requests, "transcript": transcript.read("claude-code", body, root),
            "output": f"exit {done.returncode}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"}  # fmt: skip


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    base = tmp_path_factory.mktemp("capture-conversation")
    root, home = base / "proj", base / "home"
    (root / "uptime").mkdir(parents=True)
    home.mkdir()
    (root / PATH).write_text(CODE)
    env = {**sandbox_env(home), "MEMHOOKS_STATE_DIR": str(base / "state"),
           "MEMHOOKS_STORE": str(base / "store.sqlite3")}  # fmt: skip
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for argv in ([*git, "init", "-q"], [*git, "add", "-A"], [*git, "commit", "-qm", "init"]):
        assert _run(argv, root, env).returncode == 0
    for args in (["init"], ["agents", "install", "--agent", "claude-code", "--capture"], ["capture", "on"]):
        done = _run([memhooks_cli(), *args], root, env)
        assert done.returncode == 0, done.stderr
    target = str(root / PATH)
    first = _claude(root, env, base / "first.jsonl", DECIDE,
                    [{"read": target}, {"edit": target, "old": OLD, "new": NEW}], REPLY)  # fmt: skip
    listed = _run([memhooks_cli(), "memories", "list", "--all", "--limit", "0", "--format", "json"], root, env)
    pieces = [m for m in json.loads(listed.stdout or "[]") if m.get("kind") == "conversation"]
    second = _claude(root, env, base / "second.jsonl", LATER, [{"read": target}], "Docstrings read.")
    return {"root": root, "first": first, "second": second, "pieces": pieces}


def report(s: dict[str, object]) -> str:
    out = []
    for name in ("first", "second"):
        run = s[name]
        assert isinstance(run, dict)
        t = run["transcript"]
        out.append(f"{name}: calls {t.calls}")
        out += [f"  after {c.after!r} via {c.channel}: {c.text[:300]!r}" for c in t.contexts]
        out.append(str(run["output"]))
    out.append(f"pieces: {json.dumps(s['pieces'])[:1500]}")
    return "\n".join(out)


def test_the_first_session_decided_and_edited(sessions: dict[str, object]) -> None:
    first = sessions["first"]
    assert isinstance(first, dict)
    assert first["transcript"].calls == [f"Read {PATH}", f"Edit {PATH}"], report(sessions)
    assert NEW in (Path(str(sessions["root"])) / PATH).read_text(), report(sessions)


def test_its_end_turned_the_transcript_into_an_anchored_piece(sessions: dict[str, object]) -> None:
    pieces = sessions["pieces"]
    assert isinstance(pieces, list) and len(pieces) == 1, report(sessions)
    piece = pieces[0]
    assert piece["source"].startswith("transcript:claude-code:"), report(sessions)
    assert piece["files"][:1] == [PATH] and "MERGE_GAP_S" in piece["entities"], report(sessions)
    assert "decision" in piece["tags"] and RULE in piece["text"], report(sessions)
    assert piece["text"].startswith("Conversation (claude-code session "), report(sessions)


def test_the_next_session_gets_it_with_the_read_of_the_file_once(sessions: dict[str, object]) -> None:
    second = sessions["second"]
    assert isinstance(second, dict)
    t = second["transcript"]
    assert t.calls == [f"Read {PATH}"], report(sessions)
    told = [c for c in t.contexts if RULE in c.text]
    assert len(told) == 1 and told[0].after == f"Read {PATH}", report(sessions)
    # The piece itself (capture's verbatim copy of the prompt is superseded by it).
    pieces = sessions["pieces"]
    assert isinstance(pieces, list) and pieces[0]["id"] in told[0].text, report(sessions)
    # The prompt shares no word with the rule: it was the Read that brought it.
    prompt_time = [c for c in t.contexts if c.after == transcript.PROMPT]
    assert not any(RULE in c.text for c in prompt_time), report(sessions)
