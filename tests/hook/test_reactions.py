"""The hook's reaction table asks the tool shortcut only about the events it can settle."""

from __future__ import annotations

from memhooks.agents.base import TOOL_TIME_EVENTS
from memhooks.hook.reactions import REACTIONS


def test_the_events_react_asks_the_shortcut_about_are_those_it_settles() -> None:
    # a prompt or lifecycle call skips the shortcut without loading it (import sets)
    assert TOOL_TIME_EVENTS <= set(REACTIONS)
