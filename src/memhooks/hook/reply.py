"""What one hook call answers: the exact stdout for the host and one line for stderr."""

from __future__ import annotations


class Reply:
    """``stdout``: the exact response for the host (may be empty); ``note``: one line for
    stderr, or None; ``changed``: hook files maintenance rewrote; ``context``: the text
    ``stdout`` delivers (None: nothing), so a second part can join it in one reply."""

    __slots__ = ("changed", "context", "note", "stdout")

    def __init__(
        self, stdout: str, note: str | None = None, changed: list[str] | None = None
    ) -> None:
        self.stdout = stdout
        self.note = note
        self.changed = changed or []
        self.context: str | None = None

    def add_note(self, note: str | None) -> None:
        """Append ``note`` to the stderr line (``; `` between notes)."""
        if note:
            self.note = f"{self.note}; {note}" if self.note else note

    def __repr__(self) -> str:
        return f"Reply(stdout={self.stdout!r}, note={self.note!r})"
