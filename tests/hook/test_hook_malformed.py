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
#: Every recorded payload: real/, docs/ and memorix-derived/ (their README).
RECORDED = sorted(PAYLOADS.parent.glob("*/*.json"))


def call(payload: object, host: str, tmp_path: Path) -> Reply:
    return handle(json.dumps(payload), agent=host, env={"HOME": str(tmp_path)})


def recorded(name: str, tmp_path: Path) -> dict[str, object]:
    """The recorded payload ``name`` (``real/`` unless the name says its folder), its
    ``cwd`` (where it has one) ``tmp_path``."""
    path = PAYLOADS.parent / name if "/" in name else PAYLOADS / name
    payload: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    if "cwd" in payload:
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


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_recorded_payload_is_malformed(path: Path) -> None:
    """The rule (newcomer13 F1/F2) holds no field any host really sends for wrong: every
    recorded event is served as before (its reply byte-identical, no note)."""
    from memhooks.agents.registry import normalize

    if "model-request" in path.name or path.name == "opencode-plugin_init.json":
        pytest.skip("not a hook event")
    payload = json.loads(path.read_text(encoding="utf-8"))
    hosts = sorted(_MODULES, key=len, reverse=True)
    named = next((h for h in hosts if path.name.startswith(h + "-")), None)
    for agent in {None, named}:
        assert normalize(payload, agent, None).malformed is None, agent


#: (host, a recorded payload, a field of it, a value of the wrong type, what MH041 says)
WRONG_FIELDS = [
    ("claude-code", "claude-code-UserPromptSubmit.json", "cwd", 7, "its cwd is not text (int)"),
    ("claude-code", "claude-code-UserPromptSubmit.json", "session_id", 7, "its session_id is not text (int)"),
    ("claude-code", "claude-code-PostToolUse.json", "transcript_path", ["t"], "its transcript_path is not text (list)"),
    ("claude-code", "claude-code-PostToolUse.json", "tool_name", {"n": 1}, "its tool_name is not text (dict)"),
    ("gemini-cli", "gemini-cli-BeforeAgent.json", "session_id", 7, "its session_id is not text (int)"),
    ("codex", "codex-UserPromptSubmit.json", "cwd", False, "its cwd is not text (bool)"),
    # a blank id is no id: it was filed under anonymous-… with nothing said (newcomer15)
    ("claude-code", "claude-code-UserPromptSubmit.json", "session_id", "", "its session_id is blank"),
    ("claude-code", "claude-code-PostToolUse.json", "session_id", "  ", "its session_id is blank"),
    ("gemini-cli", "gemini-cli-BeforeAgent.json", "session_id", "", "its session_id is blank"),
]  # fmt: skip


@pytest.mark.parametrize(("host", "name", "key", "value", "what"), WRONG_FIELDS)
def test_a_payload_field_of_the_wrong_type_is_said_not_taken_as_absent(
    host: str, name: str, key: str, value: object, what: str, tmp_path: Path
) -> None:
    """``"cwd": 7`` was served from the process's folder, ``"session_id": 7`` filed under
    ``anonymous-…`` (newcomer13 F1)."""
    payload = {**recorded(name, tmp_path), key: value}
    native = str(payload["hook_event_name"])
    reply = call(payload, host, tmp_path)
    assert reply.stdout == noop(host, native)
    assert f"`{native}` payload is malformed: {what};" in said(reply)


@pytest.mark.parametrize(
    ("tool", "tool_input", "what"),
    [
        ("Read", None, "the tool's input is missing"),
        ("Read", "", "the tool's input is missing"),
        ("Bash", None, "the tool's input is missing"),
        ("Edit", {"file_path": "a.py", "old_string": 7, "new_string": "x"}, "the tool's old_string is not text (int)"),
        ("Edit", {"file_path": "a.py", "old_string": "x", "new_string": ["y"]}, "the tool's new_string is not text (list)"),
        ("MultiEdit", {"file_path": "a.py", "edits": 7}, "the tool's edits is not a list (int)"),
        ("MultiEdit", {"file_path": "a.py", "edits": [7]}, "the tool's edits[0] is not an object (int)"),
        ("MultiEdit", {"file_path": "a.py", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": 7, "new_string": "x"}]},
         "the tool's edits[1].old_string is not text (int)"),
        ("Read", {"file_path": "a.py", "offset": "x", "limit": [1]}, "the tool's offset is not a whole number (str)"),
        ("Read", {"file_path": "a.py", "offset": 2, "limit": [1]}, "the tool's limit is not a whole number (list)"),
        ("Read", {"file_path": "a.py", "offset": True}, "the tool's offset is not a whole number (bool)"),
        ("Write", {"file_path": "a.py", "content": 7}, "the tool's content is not text (int)"),
        ("Edit", {"file_path": "a.py", "old_string": "a", "new_string": "c", "replace_all": "yes"},
         "the tool's replace_all is not true or false (str)"),
        ("Edit", {"file_path": "a.py", "old_string": "a", "new_string": "c", "replace_all": 1},
         "the tool's replace_all is not true or false (int)"),
        ("Grep", {"pattern": "a", "path": 7}, "the tool's path is not text (int)"),
        ("Glob", {"pattern": "*.py", "path": ["."]}, "the tool's path is not text (list)"),
    ],
)  # fmt: skip
def test_a_tool_input_missing_or_a_field_of_it_of_the_wrong_type_is_said(
    tool: str, tool_input: object, what: str, tmp_path: Path
) -> None:
    """A Read with ``tool_input`` null, an Edit with ``old_string`` 7 were silent
    (newcomer13 F2); so were MultiEdit ``"edits": 7`` or ``[{"old_string": 7}]``, and a
    Read with ``"offset": "x", "limit": [1]`` was served as a whole-file read
    (newcomer14); a Write's ``"content": 7``, an Edit's ``"replace_all": "yes"`` (read as
    one occurrence), a Grep's or Glob's ``"path": 7`` (newcomer15)."""
    (tmp_path / "a.py").write_text("a\nb\n", encoding="utf-8")
    for native in ("PreToolUse", "PostToolUse"):
        payload = {**recorded("claude-code-PostToolUse.json", tmp_path), "hook_event_name": native,
                   "tool_name": tool, "tool_input": tool_input}  # fmt: skip
        reply = call(payload, "claude-code", tmp_path)
        assert reply.stdout == noop("claude-code", native)
        assert f"`{native}` payload is malformed: {what};" in said(reply)


def test_a_tool_that_takes_no_input_may_have_none(tmp_path: Path) -> None:
    payload = {**recorded("claude-code-PostToolUse.json", tmp_path), "tool_name": "TodoWrite", "tool_input": None}  # fmt: skip
    assert call(payload, "claude-code", tmp_path).note is None


#: Every host's prompt event, recorded: (host, payload, the keys down to its prompt, a
#: value of the wrong type, what MH041 calls the prompt, the event the command names)
PROMPTS = [
    ("claude-code", "real/claude-code-UserPromptSubmit.json", ("prompt",), ["a"], "its prompt is not text (list)", None),
    ("codex", "real/codex-UserPromptSubmit.json", ("prompt",), 7, "its prompt is not text (int)", None),
    ("gemini-cli", "real/gemini-cli-BeforeAgent.json", ("prompt",), {}, "its prompt is not text (dict)", None),
    ("copilot-vscode", "docs/copilot-vscode-UserPromptSubmit.json", ("prompt",), 7, "its prompt is not text (int)", None),
    ("kiro", "docs/kiro-cli-userPromptSubmit.json", ("prompt",), 7, "its prompt is not text (int)", None),
    ("generic", "real/claude-code-UserPromptSubmit.json", ("prompt",), 7, "its prompt is not text (int)", None),
    ("copilot-cli", "real/copilot-cli-userPromptSubmitted.json", ("prompt",), ["a"], "its prompt is not text (list)", "userPromptSubmitted"),
    ("cline", "docs/cline-UserPromptSubmit.json", ("userPromptSubmit", "prompt"), 7, "its userPromptSubmit.prompt is not text (int)", None),
    ("cursor", "docs/cursor-beforeSubmitPrompt.json", ("prompt",), ["a"], "its prompt is not text (list)", None),
    ("windsurf", "docs/windsurf-pre_user_prompt.json", ("tool_info", "user_prompt"), 7, "its tool_info.user_prompt is not text (int)", None),
    ("opencode", "real/opencode-chat.message.json", ("output", "parts"), "hi", "its output.parts is not a list (str)", "chat.message"),
    ("hermes", "real/hermes-pre_llm_call.json", ("extra", "user_message"), ["a"], "its extra.user_message is not text (list)", None),
]  # fmt: skip


def _with(payload: dict[str, object], keys: tuple[str, ...], value: object) -> dict[str, object]:
    """A copy of ``payload`` with ``keys`` (a path down its objects) holding ``value``, or
    without the last key when ``value`` is ``...``."""
    copy = json.loads(json.dumps(payload))
    inner = copy
    for key in keys[:-1]:
        inner = inner[key]
    if value is ...:
        del inner[keys[-1]]
    else:
        inner[keys[-1]] = value
    return copy


@pytest.mark.parametrize(("host", "name", "keys", "value", "what", "event"), PROMPTS,
                         ids=[row[0] for row in PROMPTS])  # fmt: skip
def test_every_host_s_prompt_event_with_a_prompt_that_is_no_text_is_said(
    host: str, name: str, keys: tuple[str, ...], value: object, what: str, event: str | None,
    tmp_path: Path,
) -> None:  # fmt: skip
    """Only the Claude-shaped hosts' prompt events were checked (issue 21 item 2)."""
    payload = recorded(name, tmp_path)
    good = handle(json.dumps(payload), agent=host, native_event=event, env={"HOME": str(tmp_path)})
    assert good.note is None or not good.note.startswith("MH041"), good.note
    missing = what.split(" is not ")[0] + " is missing"
    for bad, says in ((value, what), (..., missing)):
        reply = handle(json.dumps(_with(payload, keys, bad)), agent=host, native_event=event,
                       env={"HOME": str(tmp_path)})  # fmt: skip
        assert reply.stdout == good.stdout == noop(host, _native(host, payload, event))
        assert f"payload is malformed: {says};" in said(reply)


def _native(host: str, payload: dict[str, object], event: str | None) -> str | None:
    from memhooks.agents.registry import normalize

    return normalize(payload, host, event).native_event


def test_the_installed_command_says_a_wrong_cwd_on_stderr_once(tmp_path: Path) -> None:
    """Through the command ``agents install`` writes (the launcher sourced by ``sh``)."""
    from memhooks.install import command

    payload = {**recorded("claude-code-UserPromptSubmit.json", tmp_path), "cwd": 7}
    done = subprocess.run(
        command.argv("claude-code"), input=json.dumps(payload), capture_output=True, text=True,
        check=False, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}, cwd=tmp_path,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "")
    told = (
        "MH041 the claude-code `UserPromptSubmit` payload is malformed: its cwd is not text (int);"
    )
    assert [line.split(": ", 1)[1][: len(told)] for line in done.stderr.splitlines()] == [told]


def _opencode_chat(tmp_path: Path, session: object, text: object) -> dict[str, object]:
    """The recorded ``chat.message`` in the envelope our plugin sends, its session id and
    its one text part's ``text`` replaced."""
    payload = recorded("opencode-chat.message.json", tmp_path)
    hook_input, out = payload["input"], payload["output"]
    assert isinstance(hook_input, dict) and isinstance(out, dict)
    (part,) = out["parts"]
    return {"hook_event_name": "chat.message", "directory": str(tmp_path),
            "input": {**hook_input, "sessionID": session},
            "output": {**out, "parts": [{**part, "text": text}]}}  # fmt: skip


@pytest.mark.parametrize(
    ("session", "text", "what"),
    [
        ("ses_1", 7, "its output.parts[0].text is not text (int)"),
        ("ses_1", None, "its output.parts[0].text is missing"),
        ("ses_1", ["a"], "its output.parts[0].text is not text (list)"),
        (7, "hello", "its input.sessionID is not text (int)"),
    ],
)  # fmt: skip
def test_an_opencode_prompt_field_of_the_wrong_type_is_said(
    session: object, text: object, what: str, tmp_path: Path
) -> None:
    """A text part's ``text`` 7 (or null, or a list) answered ``{}`` with nothing said;
    ``sessionID`` 7 was served under ``anonymous-…`` (newcomer14)."""
    reply = call(_opencode_chat(tmp_path, session, text), "opencode", tmp_path)
    assert reply.stdout == noop("opencode", "chat.message") == "{}"
    assert "the opencode `chat.message` payload is malformed: " + what + ";" in said(reply)


def test_an_opencode_prompt_with_a_blank_text_part_is_not_malformed(tmp_path: Path) -> None:
    assert call(_opencode_chat(tmp_path, "ses_1", " "), "opencode", tmp_path).note is None


@pytest.mark.parametrize(
    "tool_input",
    [
        {"file_path": "a.py", "offset": 2, "limit": 1},
        {"file_path": "a.py", "offset": "2", "limit": "1"},  # digits, as lines.tools reads them
    ],
)
def test_a_read_s_lines_as_numbers_or_digits_are_not_malformed(
    tool_input: object, tmp_path: Path
) -> None:
    (tmp_path / "a.py").write_text("a\nb\n", encoding="utf-8")
    payload = {**recorded("claude-code-PostToolUse.json", tmp_path), "tool_name": "Read",
               "tool_input": tool_input}  # fmt: skip
    assert call(payload, "claude-code", tmp_path).note is None


@pytest.mark.parametrize("tool", ["Read", "Write", "Grep", "Bash"])
@pytest.mark.parametrize(("response", "kind"), [(7, "int"), ("done", "str"), ([{"type": "text"}], "list")])
def test_a_claude_code_tool_s_response_that_is_no_object_is_said(
    tool: str, response: object, kind: str, tmp_path: Path
) -> None:
    """Claude Code's own tools answer ``tool_response`` with an object (a Read's ``{"type":
    "text", "file": {...}}``); ``"tool_response": 7`` on a Read was served with nothing
    said (newcomer15)."""
    (tmp_path / "a.py").write_text("a\nb\n", encoding="utf-8")
    payload = {**recorded("claude-code-PostToolUse.json", tmp_path), "tool_name": tool,
               "tool_input": {"file_path": str(tmp_path / "a.py"), "pattern": "a", "command": "ls"},
               "tool_response": response}  # fmt: skip
    reply = call(payload, "claude-code", tmp_path)
    assert reply.stdout == noop("claude-code", "PostToolUse")
    assert f"its tool_response is not an object ({kind});" in said(reply)


def test_an_mcp_tool_s_response_may_be_anything_and_replace_all_a_bool(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a\nb\n", encoding="utf-8")
    base = recorded("claude-code-PostToolUse.json", tmp_path)
    mcp = {**base, "tool_name": "mcp__docs__search", "tool_input": {"q": "x"},
           "tool_response": [{"type": "text", "text": "found"}]}  # fmt: skip
    assert call(mcp, "claude-code", tmp_path).note is None
    for every in (True, False):
        edit = {**base, "tool_name": "Edit", "tool_input": {"file_path": str(tmp_path / "a.py"),
                "old_string": "a", "new_string": "c", "replace_all": every}}  # fmt: skip
        assert call(edit, "claude-code", tmp_path).note is None
