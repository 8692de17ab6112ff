"""What a commit said, as a blame cache entry's notes keep it: the one layout of
``notes["commits"][hash]`` for every reader — :func:`memhooks.recall.why.explain_lines`
writes and reads it, the pre-tool shortcut :mod:`memhooks.hook.told` reads it.
"""

from __future__ import annotations

#: Low-signal reasons (:data:`memhooks.history.signal.REASONS`) whose commits are not
#: walked back: the bump before a bump tells no more than the bump itself.
BUMPS = frozenset({"version", "dependency", "bot"})
#: The reason ``why`` gives a commit the low-signal rule lets through but whose subject
#: says it reshapes code (:func:`memhooks.history.signal.reshapes`: "perf: simplify
#: retry"): walked back like a low-signal one, yet itself a change to tell.
RESHAPES = "reshapes"


def walked(low_signal: str | None) -> bool:
    """Whether a commit whose low-signal reason is ``low_signal`` (None: it may say why)
    is walked back to its lines' previous owners — by ``why``, the hook's line-level
    recall and the pre-tool shortcut alike: low-signal and no bump (:data:`BUMPS`). A
    low-signal owner not walked back has nothing behind it, so it is never told at an
    edit (:func:`memhooks.recall.line_recall.line_recall`)."""
    return bool(low_signal) and low_signal not in BUMPS


def says_little(low_signal: str | None) -> bool:
    """Whether a commit with this reason tells nothing alone (issue 20 item 1: low-signal
    commits never fill a tool-time delivery): low-signal, not :data:`RESHAPES`."""
    return bool(low_signal) and low_signal != RESHAPES


class Said:
    """What a commit said, kept in a file version's notes (``notes["commits"][hash]``)
    when :func:`memhooks.recall.why.explain_lines` reads the commit: ``subject``,
    ``time`` (author time, seconds), ``email`` (the author's; never shown), ``message`` (as ``history import`` keeps it), ``low_signal`` (the reason, or None),
    ``root`` (it has no parent), ``files`` (how many files it touched)."""

    __slots__ = ("email", "files", "low_signal", "message", "root", "subject", "time")

    #: Fields of a kept row, in order (a row kept by an older version with fewer is read
    #: again from git).
    FIELDS = ("subject", "time", "email", "message", "low_signal", "root", "files")

    def __init__(
        self, subject: str, time: int, email: str, message: str,
        low_signal: str | None, root: bool, files: int,
    ) -> None:  # fmt: skip
        self.subject = subject
        self.time = time
        self.email = email
        self.message = message
        self.low_signal = low_signal
        self.root = root
        self.files = files

    @property
    def walked(self) -> bool:
        """:func:`walked` of this commit's low-signal reason."""
        return walked(self.low_signal)

    @classmethod
    def of(cls, notes: dict[str, object], hash_: str) -> Said | None:
        """The commit ``hash_`` as ``notes`` keep it; None when not kept (or kept with
        fewer fields than :data:`FIELDS`: to be read again)."""
        commits = notes.get("commits")
        row = commits.get(hash_) if isinstance(commits, dict) else None
        if not isinstance(row, list) or len(row) < len(cls.FIELDS):
            return None
        subject, when, email, message, low, root, files = row[: len(cls.FIELDS)]
        return cls(str(subject), int(when), str(email), str(message),
                   None if low is None else str(low), bool(root), int(files))  # fmt: skip

    def keep(self, notes: dict[str, object], hash_: str) -> None:
        """Keep this in ``notes`` under ``hash_`` (saved with the entry)."""
        commits = notes.setdefault("commits", {})
        assert isinstance(commits, dict)
        commits[hash_] = [self.subject, self.time, self.email, self.message,
                          self.low_signal, self.root, self.files]  # fmt: skip
