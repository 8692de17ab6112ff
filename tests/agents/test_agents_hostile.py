"""No JSON value makes the normalization layer raise: wrong types, junk, deep nesting."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memhooks.agents import ACTIONS, EVENTS, HOSTS, FileChange, NormalizedEvent, normalize

# Every key some adapter reads, so generated objects reach the adapters' code paths.
KEYS = sorted(
    {
        "hook_event_name",
        "hookEventName",
        "agent_action_name",
        "hookName",
        "event",
        "type",
        "agent",
        "session_id",
        "sessionId",
        "conversation_id",
        "trajectory_id",
        "taskId",
        "turn_id",
        "model",
        "permission_mode",
        "timestamp",
        "cwd",
        "directory",
        "worktree",
        "project",
        "workspace_roots",
        "workspaceRoots",
        "workspacePath",
        "transcript_path",
        "transcriptPath",
        "prompt",
        "initialPrompt",
        "source",
        "reason",
        "trigger",
        "stopReason",
        "tool_name",
        "toolName",
        "tool",
        "tool_input",
        "toolArgs",
        "args",
        "parameters",
        "tool_response",
        "toolResult",
        "tool_output",
        "result_json",
        "tool_result",
        "result",
        "tool_info",
        "input",
        "output",
        "properties",
        "info",
        "parts",
        "payload",
        "kwargs",
        "extra",
        "status",
        "error",
        "files",
        "paths",
        "file_path",
        "filePath",
        "path",
        "file",
        "notebook_path",
        "edits",
        "patchText",
        "patch",
        "command",
        "cmd",
        "command_line",
        "attachments",
        "success",
        "exit_code",
        "postToolUse",
        "userPromptSubmit",
        "taskStart",
        "taskMetadata",
        "compact_summary",
        "last_assistant_message",
        "old_path",
        "new_path",
        "destination",
        "user_message",
        "mcp_tool_arguments",
        "mcp_result",
        "system_len",
    }
)
NAMES = sorted(
    {name for host in HOSTS.values() for name in host.EVENTS}
    | {name for host in HOSTS.values() for name in getattr(host, "TOOLS", {})}
    | set(EVENTS)
    | {
        "*** Begin Patch\n*** Add File: x\n*** Move to: y",
        "C:\\x",
        "file:///x",
        "true",
        '{"path": 1}',
    }
)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(NAMES)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=6)
    ),
    max_leaves=40,
)
PAYLOADS = st.dictionaries(st.sampled_from(KEYS), JSON, max_size=12)


def _check(event: NormalizedEvent) -> None:
    assert isinstance(event, NormalizedEvent)
    assert event.event is None or event.event in EVENTS
    for change in event.files:
        assert isinstance(change, FileChange) and change.action in ACTIONS
        assert isinstance(change.path, str) and change.path
    json.dumps(event.to_dict())  # the CLI may print it


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(PAYLOADS | JSON)
def test_detection_never_raises(payload: object) -> None:
    _check(normalize(payload))


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(PAYLOADS, st.sampled_from(sorted(HOSTS)), st.none() | st.sampled_from(NAMES))
def test_every_host_accepts_any_object(payload: object, host: str, hint: str | None) -> None:
    _check(normalize(payload, host=host, native_event=hint))


def _deep(depth: int) -> object:
    value: object = "x"
    for i in range(depth):
        value = [value] if i % 2 else {"path": value, "files": value}
    return value


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_deep_nesting_everywhere(host: str) -> None:
    deep = _deep(50_000)
    nested_text = "[" * 100_000 + "]" * 100_000  # json.loads would overflow the stack
    payload = {key: deep for key in KEYS}
    payload.update({"toolArgs": "{" + nested_text, "tool_input": '{"a":' + nested_text + "}"})
    _check(normalize(payload, host=host))
    _check(normalize(payload))


@pytest.mark.parametrize("value", [None, True, 0, 1.5, "", "text", [], [{}], {}, {"": None}])
@pytest.mark.parametrize("host", [None, *sorted(HOSTS)])
def test_trivial_values(value: object, host: str | None) -> None:
    _check(normalize(value, host=host))


def test_huge_strings_are_cheap() -> None:
    blob = "a" * 5_000_000
    event = normalize(
        {
            "hook_event_name": "PostToolUse",
            "cwd": "/p",
            "tool_name": "Write",
            "tool_input": {"file_path": blob[:300] + "/x", "content": blob},
        }
    )
    assert event.files[0].path.endswith("/x")


def test_unknown_host_name_is_a_usage_error() -> None:
    from memhooks.errors import UsageError

    with pytest.raises(UsageError, match="unknown agent 'claude'"):
        normalize({}, host="claude")
