"""What a commit said, as a blame cache entry's notes keep it: the one layout of
``notes["commits"][hash]`` for every reader — :func:`memhooks.recall.why.explain_lines`
writes and reads it, the pre-tool shortcut :mod:`memhooks.hook.told` reads it.
"""

from __future__ import annotations


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
