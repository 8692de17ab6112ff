"""Every host declares how its replies reach the model, in its own module."""

from __future__ import annotations

import pytest

from memhooks.agents.delivery import NONE, Delivery
from memhooks.agents.registry import _MODULES, delivery_of, host_module, noop


@pytest.mark.parametrize("host", sorted(_MODULES))
def test_every_host_declares_its_delivery_and_project_variables(host: str) -> None:
    module = host_module(host)
    assert isinstance(module.DELIVERY, Delivery)
    assert isinstance(module.PROJECT_VARS, tuple)
    # Every event a host can inject on is one of its own event names.
    row = module.DELIVERY
    for native in row.prompt_events | row.tool_events:
        assert native in module.EVENTS, (host, native)
        assert row.injects(native)
    # A host that injects at all tells `agents status` through which channel.
    assert (row.prompt_channel is not None) == bool(row.prompt_events)
    assert (row.tool_channel is not None) == bool(row.tool_events)


@pytest.mark.parametrize(
    ("host", "native", "prompt_time", "tool_time"),
    [
        ("claude-code", "UserPromptSubmit", True, False),
        ("claude-code", "PostToolUse", False, True),
        ("codex", "PostToolUse", False, True),
        ("gemini-cli", "AfterTool", False, True),
        ("copilot-cli", "postToolUse", False, True),
        ("copilot-vscode", "UserPromptSubmit", False, False),
        ("cursor", "beforeSubmitPrompt", False, False),
        ("cursor", "postToolUse", False, True),
        ("cline", "PostToolUse", False, True),
        ("hermes", "post_tool_call", False, False),
        ("kiro", "PostToolUse", False, False),
        ("windsurf", "post_read_code", False, False),
    ],
)
def test_which_events_reach_the_model(host: str, native: str, prompt_time: bool, tool_time: bool) -> None:
    row = delivery_of(host).for_event(native)
    assert (native in row.prompt_events) is prompt_time
    assert row.at_tool_time(native) is tool_time


def test_copilot_cli_with_pascal_case_events_speaks_claude() -> None:
    row = delivery_of("copilot-cli")
    assert row.render("UserPromptSubmit", "x") == (
        '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "x"}}'
    )
    assert row.render("postToolUse", "x") == '{"additionalContext": "x"}'
    assert noop("copilot-cli", "UserPromptSubmit") == ""
    assert noop("copilot-cli", "postToolUse") == "{}"


def test_an_unknown_host_delivers_nothing() -> None:
    assert delivery_of("unknown") is NONE
    assert delivery_of(None) is NONE
    assert noop("unknown", "UserPromptSubmit") == ""
