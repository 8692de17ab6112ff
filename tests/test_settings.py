"""One table of MEMHOOKS_* settings: one default each, and one policy for an invalid
value — a command fails with MH028, the hook notes it and goes on with the default."""

from __future__ import annotations

import pytest

from memhooks import settings
from memhooks.agents import NormalizedEvent
from memhooks.backends.registry import BACKENDS
from memhooks.errors import DiagnosticError
from memhooks.hook.call import HookCall
from memhooks.protocol.budget import bound_context
from memhooks.recall import DEFAULT_BUDGET


def test_the_prompt_budget_has_one_default_for_the_hook_recall_and_the_library() -> None:
    call = HookCall(NormalizedEvent("hermes", "user_prompt", native_event="pre_llm_call"), {})
    assert call.prompt_budget() == DEFAULT_BUDGET == settings.default("MEMHOOKS_MAX_CHARS") == 8000


def test_an_invalid_value_fails_a_command_and_is_a_note_in_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMHOOKS_MAX_CHARS", "lots")
    with pytest.raises(DiagnosticError) as caught:
        bound_context({"sources": ["x"]})
    assert caught.value.diagnostic.code == "MH028"
    call = HookCall(NormalizedEvent("hermes", "user_prompt", native_event="pre_llm_call"), {"MEMHOOKS_MAX_CHARS": "lots"})
    assert call.prompt_budget() == 8000
    assert call.notes == ["MEMHOOKS_MAX_CHARS must be an integer from 1 to 1000000 (got 'lots'); using 8000"]


@pytest.mark.parametrize(("raw", "on"), [("", True), ("off", False), ("0", False), ("yes", True), ("maybe", True)])
def test_switches(raw: str, on: bool) -> None:
    notes: list[str] = []
    assert settings.switch("MEMHOOKS_TOOL_RECALL", {"MEMHOOKS_TOOL_RECALL": raw}, notes) is on
    assert notes == (["MEMHOOKS_TOOL_RECALL must be `on` or `off` (got 'maybe'); using on"] if raw == "maybe" else [])
    assert settings.switch("MEMHOOKS_CACHE", {"MEMHOOKS_CACHE": raw}) is on  # no invalid value: never raises


def test_every_setting_the_package_reads_is_in_the_table() -> None:
    import pathlib
    import re

    source = pathlib.Path(settings.__file__).parent
    named = {m for p in source.rglob("*.py") for m in re.findall(r"\bMEMHOOKS_[A-Z_]*[A-Z]\b", p.read_text(encoding="utf-8"))}
    table = {*settings.INTEGERS, *settings.SWITCHES, *settings.CHOICES, *settings.PATHS, *settings.TEXTS, *settings.INTERNAL, "MEMHOOKS_SEARCH"}
    # backend settings are a pattern (MEMHOOKS_<BACKEND>_<KEY>), documented in backends/config.py
    prefixes = "|".join([*(name.upper() for name in BACKENDS), "TEST"])
    backend = {n for n in named if re.match(rf"MEMHOOKS_({prefixes})_", n)}
    assert named - backend - {"MEMHOOKS_MEM", "MEMHOOKS_GENERIC", "MEMHOOKS_TEST"} <= table
