"""Text shown on a terminal: memories and hooks are untrusted data, so the control
characters in them (an escape sequence that clears the screen or retitles the window, a
carriage return that overprints a line) are shown as escapes, not sent to the terminal."""

from __future__ import annotations


def visible(text: str) -> str:
    """``text`` with every C0/C1 control character but tab shown as ``\\xNN``
    (``"\\x1b[2J"`` -> ``"\\\\x1b[2J"``). Newlines are escaped too: callers split lines
    first."""
    if text.isprintable():
        return text
    return "".join(
        ch if ch == "\t" or not (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0) else f"\\x{ord(ch):02x}"
        for ch in text
    )
