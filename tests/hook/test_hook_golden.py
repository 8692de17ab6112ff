"""Every recorded payload (real, docs, another product's) through the handler, against
``data/golden.json``: what the host gets on stdout, the note for stderr, and whether
hook maintenance is called. Context responses are checked against the host's shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hook_support import MARKER, load_golden, payload

from memhooks.hook import handler, output

GOLDEN = load_golden()


def _context_of(host: str, native: str, stdout: str) -> str:
    """The context text a host would take from ``stdout`` (asserting its shape)."""
    kind = output.shape_for(host, native).kind
    if kind == output.PLAIN:
        return stdout
    body = json.loads(stdout)
    if kind == output.HOOK_SPECIFIC:
        assert list(body) == ["hookSpecificOutput"]
        assert body["hookSpecificOutput"]["hookEventName"] == native
        return str(body["hookSpecificOutput"]["additionalContext"])
    if kind == output.CLINE:
        assert body["cancel"] is False
        return str(body["contextModification"])
    assert list(body) == [kind]
    return str(body[kind])


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_recorded_payload(name: str, project: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    case = GOLDEN[name]
    maintained: list[object] = []
    monkeypatch.setattr(handler, "maintain", lambda event, env: (maintained.append(event), ([], None))[1])
    agent = case["agent"]
    raw = payload(name, project)
    reply = handler.handle(raw, agent=agent, native_event=case["event"], env=env)  # type: ignore[arg-type]
    assert reply.note == case["note"]
    assert bool(maintained) == case["maintain"]
    if case["response"] == "noop":
        assert reply.stdout == case["stdout"]
        return
    event = handler.parse(raw, agent, case["event"])  # type: ignore[arg-type]
    assert event.native_event is not None
    context = _context_of(event.host, event.native_event, reply.stdout)
    assert MARKER in context
    assert context.startswith("[MemHooks")
    cap = output.shape_for(event.host, event.native_event).cap
    assert len(context) <= (cap or handler.DEFAULT_BUDGET)


def test_every_payload_sample_has_a_golden_case() -> None:
    from hook_support import names

    assert sorted(GOLDEN) == names()


@pytest.mark.parametrize("name", sorted(n for n in GOLDEN if n.startswith("real/") and GOLDEN[n]["agent"] != "copilot-cli"))
def test_real_payloads_need_no_agent_flag(name: str, project: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Detection from the payload alone answers exactly as with ``--agent``."""
    monkeypatch.setattr(handler, "maintain", lambda event, env: ([], None))
    raw = payload(name, project)
    flagged = handler.handle(raw, agent=GOLDEN[name]["agent"], env=env)  # type: ignore[arg-type]
    assert handler.handle(raw, env=env).stdout == flagged.stdout
