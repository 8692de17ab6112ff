"""A malformed payload with ``--agent`` (as ``agents install`` writes the command): the
host's no-op on stdout and one MH041 line for stderr, exit 0 — it was the no-op and
nothing at all (newcomer12: ``{}``, no or an unknown ``hook_event_name``, a prompt that
is a list or missing, ``tool_input`` a string, ``file_path`` 7 or with a NUL). A known
event memhooks does nothing for stays silent, its no-op byte-identical."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.agents.registry import _MODULES, noop
from memhooks.hook.handler import Reply, handle

PAYLOADS = Path(__file__).parents[1] / "agents" / "data" / "payloads" / "real"


def call(payload: object, host: str, tmp_path: Path) -> Reply:
    return handle(json.dumps(payload), agent=host, env={"HOME": str(tmp_path)})


def recorded(name: str, tmp_path: Path) -> dict[str, object]:
    payload: dict[str, object] = json.loads((PAYLOADS / name).read_text(encoding="utf-8"))
    payload["cwd"] = str(tmp_path)
    return payload


def said(reply: Reply) -> str:
    assert reply.note is not None and reply.note.startswith("MH041 "), reply.note
    assert "\n" not in reply.note
    return reply.note


@pytest.mark.parametrize("host", sorted(_MODULES))
def test_an_empty_object_is_the_host_s_noop_and_one_coded_line(host: str, tmp_path: Path) -> None:
    reply = call({}, host, tmp_path)
    assert reply.stdout == noop(host, None)
    assert f"the {host} payload names no hook event" in said(reply)


#: (host, a recorded prompt event, a recorded tool event naming tool_input.file_path)
CLAUDE_SHAPED = [
    ("claude-code", "claude-code-UserPromptSubmit.json", "claude-code-PostToolUse.json"),
    ("gemini-cli", "gemini-cli-BeforeAgent.json", "gemini-cli-AfterTool.json"),
    ("codex", "codex-UserPromptSubmit.json", None),
]


@pytest.mark.parametrize(("host", "prompt", "tool"), CLAUDE_SHAPED)
def test_an_unknown_event_or_a_prompt_that_is_no_text_is_said(
    host: str, prompt: str, tool: str | None, tmp_path: Path
) -> None:
    payload = recorded(prompt, tmp_path)
    native = str(payload["hook_event_name"])
    unknown = call({**payload, "hook_event_name": native + "X"}, host, tmp_path)
    assert unknown.stdout == noop(host, native + "X")
    assert f"hook event `{native}X` is not one it sends" in said(unknown)
    for value, what in ((["a"], "its prompt is not text (list)"), (None, "its prompt is missing")):
        bad = {**payload, "prompt": value} if value is not None else {k: v for k, v in payload.items() if k != "prompt"}  # fmt: skip
        reply = call(bad, host, tmp_path)
        assert reply.stdout == noop(host, native)
        assert f"`{native}` payload is malformed: {what}" in said(reply)


@pytest.mark.parametrize(("host", "tool"), [(h, t) for h, _, t in CLAUDE_SHAPED if t])
@pytest.mark.parametrize(
    ("tool_input", "what"),
    [
        ("x", "the tool's input is not an object (str)"),
        ({"file_path": 7}, "the tool's file_path is not text (int)"),
        ({"file_path": "a\0b.c"}, "the tool's file_path holds a NUL character"),
    ],
)
def test_a_tool_input_or_file_path_of_the_wrong_shape_is_said(
    host: str, tool: str, tool_input: object, what: str, tmp_path: Path
) -> None:
    payload = {**recorded(tool, tmp_path), "tool_input": tool_input}
    native = str(payload["hook_event_name"])
    reply = call(payload, host, tmp_path)
    assert reply.stdout == noop(host, native)
    assert f"`{native}` payload is malformed: {what}" in said(reply)


def test_a_known_event_memhooks_ignores_stays_silent(tmp_path: Path) -> None:
    payload = {**recorded("claude-code-UserPromptSubmit.json", tmp_path), "hook_event_name": "Notification"}  # fmt: skip
    reply = call(payload, "claude-code", tmp_path)
    assert (reply.stdout, reply.note) == ("", None)
    # a blank prompt is a prompt with nothing to recall, not a malformed one
    blank = {**recorded("claude-code-UserPromptSubmit.json", tmp_path), "prompt": " "}
    assert call(blank, "claude-code", tmp_path).note is None


def test_the_hook_command_says_it_on_stderr_once(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input="{}", capture_output=True, text=True, check=False,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}, cwd=tmp_path,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.splitlines() == [
        (
            "memhooks hook: MH041 the claude-code payload names no hook event; nothing was"
            " served (check that the hook command's --agent names the host that runs it, and"
            " that memhooks knows its version)"
        )
    ]
