"""What one hook call answers: the exact stdout for the host and one line for stderr.

Every note of that line starts with its stable code, ``MHnnn <what>``
(docs/diagnostics.md): the producer of a note names it (:func:`coded`, or
:func:`memhooks.errors.one_line` for an exception); a note that reaches :class:`Reply`
without one gets :data:`HOOK_FAILED`'s, so no line is ever without a code.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from ..agents.delivery import Delivery

    class Call(Protocol):
        """What a reply reads of a hook call (:class:`memhooks.hook.call.HookCall`)."""

        delivery: Delivery
        native: str | None


#: The code of a note given none (:data:`memhooks.errors.HOOK_FAILED`: a note memhooks
#: did not foresee); the errors module is loaded only to raise, so it is repeated here.
HOOK_FAILED = "MH042"


def coded(code: str, text: str) -> str:
    """``text`` as one note of the hook's stderr line: ``MHnnn text`` — the twin of
    :func:`memhooks.errors.coded` (which :func:`memhooks.errors.one_line` says an
    exception with), for the notes of a call that loads no errors module."""
    return f"{code} {text}"


def is_coded(note: str) -> bool:
    """Whether ``note`` starts with a code (``MH`` and three digits, then a space)."""
    return len(note) > 6 and note.startswith("MH") and note[2:5].isdigit() and note[5] == " "


class Reply:
    """``stdout``: the exact response for the host (may be empty); ``note``: one line for
    stderr, or None, whose every note starts with its code (:func:`add_note`);
    ``changed``: hook files maintenance rewrote; ``context``: the text ``stdout``
    delivers (None: nothing), so a second part can join it in one reply."""

    __slots__ = ("changed", "context", "note", "stdout")

    def __init__(
        self, stdout: str, note: str | None = None, changed: list[str] | None = None
    ) -> None:
        self.stdout = stdout
        self.note: str | None = None
        self.add_note(note)
        self.changed = changed or []
        self.context: str | None = None

    def add_note(self, note: str | None) -> None:
        """Append ``note`` to the stderr line (``; `` between notes); one without a code
        gets :data:`HOOK_FAILED`'s."""
        if note:
            note = note if is_coded(note) else coded(HOOK_FAILED, note)
            self.note = f"{self.note}; {note}" if self.note else note

    def __repr__(self) -> str:
        return f"Reply(stdout={self.stdout!r}, note={self.note!r})"


def noop(call: Call) -> Reply:
    """The host's "nothing to add" for the call's event."""
    return Reply(call.delivery.noop)


def joined(call: Call, reply: Reply, text: str) -> Reply:
    """``reply`` with the line-level ``text`` (:mod:`memhooks.hook.lines`) added to what
    it delivers, in one reply."""
    if not text:
        return reply
    combined = f"{reply.context}\n\n{text}" if reply.context else text
    out = Reply(call.delivery.render(call.native or "", combined), reply.note, reply.changed)
    out.context = combined
    return out
