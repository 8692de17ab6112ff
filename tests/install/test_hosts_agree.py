"""Everything memhooks knows about one host lives in ``memhooks.agents.<host>``: how its
payload normalizes, how it replies (``DELIVERY``), how it is wired (``INSTALL``). These
tests hold the pieces together, so a row cannot drift from the code that reads it."""

from __future__ import annotations

import pytest

from memhooks.agents.registry import HOSTS
from memhooks.agents.wiring import GIT_ROOT, START_FOLDER, WALK_UP, WORKSPACE
from memhooks.install import INSTALLERS
from memhooks.install.opencode import HANDLERS

NAMES = sorted(INSTALLERS)


def test_every_host_but_the_generic_one_can_be_installed() -> None:
    assert set(INSTALLERS) == set(HOSTS) - {"generic"}


@pytest.mark.parametrize("name", NAMES)
def test_each_host_module_normalizes_replies_and_is_wired(name: str) -> None:
    module = HOSTS[name]
    assert callable(module.normalize) and callable(module.detect)
    assert isinstance(module.EVENTS, dict) and module.EVENTS
    row = module.INSTALL
    assert {"title", "project", "user", "events", "source"} <= set(row)
    assert row.get("programs") or row.get("dirs"), "autodetection needs something to look for"
    levels = row.get("levels", ("user", "project"))
    assert levels[0] == "user", "the default install must fire wherever the host starts"
    assert ("project" in levels) == bool(row["project"])
    if "project" in levels:  # status must be able to say where a project install fires
        assert row["launch"] in (START_FOLDER, GIT_ROOT, WALK_UP, WORKSPACE)


@pytest.mark.parametrize("name", NAMES)
def test_every_wired_event_is_one_the_hook_understands(name: str) -> None:
    host = INSTALLERS[name]
    for event, _ in (*host.events, *host.capture):
        assert host.adapter.EVENTS.get(event) is not None, f"{name}: {event} normalizes to nothing"
    from memhooks.hook.reactions import REACTIONS

    for event, _ in host.events:  # capture events feed the capture observer instead
        normalized = host.adapter.EVENTS[event]
        assert normalized in REACTIONS, f"{name}: the hook does nothing on {event} ({normalized})"


@pytest.mark.parametrize("name", NAMES)
def test_the_default_install_wires_every_channel_that_reaches_the_model(name: str) -> None:
    host = INSTALLERS[name]
    delivery = host.delivery
    assert delivery is not None, f"{name}: no DELIVERY row in memhooks.agents.{name}"
    wired = set(host.EVENTS)
    assert set(delivery.tool_events) <= wired, f"{name}: a tool-time channel is not wired"
    if delivery.prompt_events:
        assert set(delivery.prompt_events) & wired, f"{name}: no prompt-time channel is wired"
    assert (delivery.tool_channel is None) == (not delivery.tool_events)
    if delivery.tool_channel is None:  # status says what its tool events do instead
        assert host.wiring.get("without_tool_channel"), name


def test_each_opencode_event_has_a_plugin_handler() -> None:
    assert set(INSTALLERS["opencode"].EVENTS) <= set(HANDLERS)


@pytest.mark.parametrize("name", NAMES)
def test_hook_templates_carry_the_command(name: str) -> None:
    row = INSTALLERS[name].wiring
    if row.get("installer") in ("kiro", "cline", "opencode", "hermes"):
        return  # their behaviour module writes the command
    assert "$COMMAND" in row["hook"].values()
    if name == "gemini-cli":
        assert row["hook"]["timeout"] >= 1000, "Gemini CLI timeouts are milliseconds"


def test_gemini_cli_precompress_is_never_wired() -> None:
    # Gemini CLI 0.61.0 fires PreCompress (trigger auto) before every model call: wired by
    # default it emptied the session ledger each turn and one memory arrived three times
    # (tests/e2e/test_session_recall.py, gemini-cli). It normalizes to nothing, so neither
    # the hook nor capture gets a process per model call for it.
    from memhooks.agents import normalize

    host = INSTALLERS["gemini-cli"]
    assert "PreCompress" not in host.EVENTS
    assert all(event != "PreCompress" for event, _ in host.capture)
    assert normalize({"hook_event_name": "PreCompress", "trigger": "auto"}, "gemini-cli").event is None
