"""Untrusted text reaches a terminal with its control characters shown, not obeyed."""

from __future__ import annotations

from memhooks.recall import text
from memhooks.terminal import visible


def test_control_characters_are_shown_as_escapes() -> None:
    assert visible("clear\x1b[2J and \x07bell\x9b") == "clear\\x1b[2J and \\x07bell\\x9b"
    assert visible("tab\tand ünïcode ✓") == "tab\tand ünïcode ✓"


def test_recall_text_cannot_clear_the_screen_or_overprint_a_line() -> None:
    memory = {
        "id": "m1", "text": "real\x1b]0;pwned\x07\rfake line", "scope": "", "kind": None,
        "created_at": None, "recalled_by": [],
    }  # fmt: skip
    result = {
        "status": "ok", "backend": "embedded", "project": "p", "memories": [memory],
        "queries": [], "notes": [], "dropped": {"budget": 0, "excluded": 0, "duplicates": 0},
        "budget": {"used": 10, "chars": 100},
    }  # fmt: skip
    shown = text(result)
    assert "\x1b" not in shown and "\x07" not in shown and "\r" not in shown
    assert "    real\\x1b]0;pwned\\x07" in shown and "    fake line" in shown
