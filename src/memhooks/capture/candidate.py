"""A memory capture would write, before the filters have had their say."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..session.capture_record import CaptureRecord

#: Kinds capture writes (``Memory.kind``), in the order a prompt's statements rank.
DECISION = "decision"
CONSTRAINT = "constraint"
LEARNING = "learning"
PROBLEM_SOLUTION = "problem-solution"
WHAT_CHANGED = "what-changed"
CHECKPOINT = "checkpoint"
SESSION = "session"
KINDS = (CONSTRAINT, DECISION, LEARNING, PROBLEM_SOLUTION, WHAT_CHANGED, CHECKPOINT, SESSION)


class Candidate:
    """``kind`` (one of :data:`KINDS`), ``text`` (scrubbed), ``scope`` (root-relative
    folder), ``files`` (root-relative), ``signal`` (characters of it the host actually
    sent — the minimum-length filter's measure, so our own labels never count), ``key``
    (the part compared for duplicates: ``text`` without a record's heading line),
    ``host`` / ``session`` when it belongs to another session than the event's, and
    ``of``: the session state a checkpoint or session record summarises (a newer record
    of a session supersedes its older ones).
    """

    __slots__ = ("files", "host", "key", "kind", "of", "scope", "session", "signal", "text")

    def __init__(
        self,
        kind: str,
        text: str,
        *,
        scope: str,
        files: list[str] | None = None,
        signal: int | None = None,
        host: str | None = None,
        session: str | None = None,
        key: str | None = None,
        of: CaptureRecord | None = None,
    ) -> None:
        self.kind = kind
        self.text = text
        self.scope = scope
        self.files = files or []
        self.signal = len(text) if signal is None else signal
        self.host = host
        self.session = session
        self.key = text if key is None else key
        self.of = of

    def __repr__(self) -> str:
        return f"Candidate({self.kind!r}, {self.text[:50]!r}, scope={self.scope!r})"
