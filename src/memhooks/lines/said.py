"""What a commit said, as a blame cache entry's notes keep it: the one layout of
``notes["commits"][hash]`` for every reader — :func:`memhooks.recall.why.explain_lines`
writes and reads it, the pre-tool shortcut :mod:`memhooks.hook.told` reads it — and
how it is read from git (:func:`read`: one ``git log``, scrubbed and judged as ``history
import`` does).

The background blame (:mod:`memhooks.lines.warm`) reads ahead what every owner of the
file said and keeps it *aside*, in a file beside the entry (``<key>.said``: the layout
of notes, with the entry's format and HEAD), never in the entry itself: an entry is
read whole by every edit of its file, and the owners of a 10,000-line file said a few
hundred kilobytes. An edit of lines the read did not cover finds its owners there
(:func:`aside`) instead of starting git; what it used stays there (the entry is not
saved again for it), and the pre-tool shortcut looks there too.

Over 300 lines on purpose: the pre-tool shortcut (:mod:`memhooks.hook.told`) reads what
a commit said, what was read ahead and what a commit did to lines from this one module;
each module more on that path costs ~140 k instructions before its first line runs
(docs/performance.md, fifteenth session).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: Low-signal reasons (:data:`memhooks.history.reasons.REASONS`) whose commits are not
#: walked back: the bump before a bump tells no more than the bump itself. Their names,
#: not that module: the settled edit reads this one and no more (a test holds the names).
BUMPS = frozenset({"version", "dependency", "bot"})
#: Longest commit message kept per commit (characters; the id says where the rest is).
MESSAGE_CHARS = 2000
#: ``git log`` format: hash, author name, e-mail, author time, parents, subject, message.
_FORMAT = "%H%x1f%an%x1f%ae%x1f%at%x1f%P%x1f%s%x1f%B"
#: Where a commit's token in that output has its first separator (after a SHA-1 or a
#: SHA-256 hash); a file's name follows as a token of its own.
_HEADER = (40, 64)
#: The reason ``why`` gives a commit the low-signal rule lets through but whose subject
#: says it reshapes code (:func:`memhooks.history.signal.reshapes`: "perf: simplify
#: retry"): walked back like a low-signal one, yet itself a change to tell.
RESHAPES = "reshapes"
#: The reason ``why`` gives a commit that reverts another (git's ``This reverts commit
#: <hash>``): the lines it put back are the reverted commit's parent's, whose owners say
#: why they are so (:func:`memhooks.lines.previous.previous_owners` blames that version);
#: walked back, yet itself told. Newcomer24: ``why ip/ipaddress.c:880`` named only
#: 2cd0578 "Revert …", whose message says nothing but the hash it reverts.
REVERTS = "reverts"


def walked(low_signal: str | None) -> bool:
    """Whether a commit whose low-signal reason is ``low_signal`` (None: it may say why)
    is walked back to its lines' previous owners — by ``why``, the hook's line-level
    recall and the pre-tool shortcut alike: low-signal and no bump (:data:`BUMPS`). A
    low-signal owner not walked back has nothing behind it, so it is never told at an
    edit (:func:`memhooks.recall.line_recall.line_recall`)."""
    return bool(low_signal) and low_signal not in BUMPS


def says_little(low_signal: str | None) -> bool:
    """Whether a commit with this reason tells nothing alone (issue 20 item 1: low-signal
    commits never fill a tool-time delivery): low-signal, not :data:`RESHAPES` or
    :data:`REVERTS`."""
    return bool(low_signal) and low_signal not in (RESHAPES, REVERTS)


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
        return cls.of_row(commits.get(hash_) if isinstance(commits, dict) else None)

    @classmethod
    def of_row(cls, row: object) -> Said | None:
        """A commit's row as notes keep it (:meth:`keep`); None when it is not one (or
        has fewer fields than :data:`FIELDS`: to be read again)."""
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


def read(top: str, hashes: list[str]) -> dict[str, Said]:
    """What the commits named by full ``hashes`` said, from one ``git log`` in the work
    tree ``top``: the message as ``history import`` keeps it (trailers naming people
    dropped, e-mails and secrets scrubbed, at most :data:`MESSAGE_CHARS`), its low-signal
    reason (:func:`memhooks.history.signal.low_signal`; :data:`REVERTS` for a revert,
    :data:`RESHAPES` for a subject that reshapes code), whether it has no parent, and how
    many files it touched. A hash git has no commit for is not in the answer. Raises
    :class:`~memhooks.errors.DiagnosticError` MH032 when git cannot run there."""
    from ..history import blame_ignore, signal
    from ..history.message import bound, memory_text, reverted
    from ..history.process import tokens

    if not hashes:
        return {}
    # --name-only: each commit's header token is followed by one token per file it touched;
    # --ignore-missing: a commit git no longer has (history rewritten, pruned) is left out
    # of the answer, not the failure of every other one
    args = ["log", "--no-walk=unsorted", "--ignore-missing", "-z", "--name-only",
            f"--format={_FORMAT}", *dict.fromkeys(hashes)]  # fmt: skip
    found: dict[str, Said] = {}
    ignored = blame_ignore.revs(top)
    said: Said | None = None
    for token in tokens(top, args):
        if said is not None and token.find(b"\x1f") not in _HEADER:
            said.files += 1
            continue
        hash_, author, email, when, parents, subject, message = token.decode(
            "utf-8", "replace"
        ).split("\x1f", 6)
        body = message.partition("\n")[2].strip()
        low = signal.low_signal(
            subject,
            body,
            author=author,
            email=email,
            parents=len(parents.split()),
            blame_ignored=blame_ignore.listed(hash_, ignored),
        ) or (REVERTS if reverted(subject, message) else None)
        low = low or (RESHAPES if signal.reshapes(subject, body) else None)
        text = bound(memory_text(message), MESSAGE_CHARS)
        said = Said(subject, int(when), email, text, low, not parents.split(), 0)
        found[hash_] = said
    return found


def aside_file(entry_file: str) -> str:
    """The file beside a blame cache entry (``<key>.json``) holding what was read ahead."""
    return entry_file[: -len(".json")] + ".said"


def aside(entry_file: str, head: str, version: int) -> dict[str, object]:
    """What was read ahead of the commits of the file version whose cache entry is
    ``entry_file`` (HEAD ``head``: :attr:`memhooks.lines.cache.Entry.head`; ``version``:
    the cache's :data:`~memhooks.lines.cache.FORMAT`, which follows the text rule), in
    the layout of notes (``{"commits": {hash: row}}``, for :meth:`Said.of`); ``{}`` when
    nothing was, or it was read for another HEAD or format. Never raises."""
    from .. import cachefile
    from ..fast.jsonfast import loads

    try:
        found = loads(cachefile.read(aside_file(entry_file)))
    except (OSError, ValueError):
        return {}
    if not isinstance(found, dict) or found.get("format") != version or found.get("head") != head:
        return {}
    return found


#: Commits :class:`Ahead` finds one by one before it parses them all: a search of
#: the ~120 kB of a 6,000-line file's owners costs ~20 µs, parsing it whole ~300 µs.
SEARCHED = 8


class Ahead:
    """What was read ahead of a file version's commits (:func:`aside`), each commit's
    row parsed when it is asked for (:meth:`said`): an edit asks for a few of the
    hundreds of commits kept aside, and the whole file (~120 kB of JSON for a
    6,000-line file's owners, iproute2 ``misc/ss.c``) took 0.3-0.8 ms to parse.

    The file is written whole or not at all, by :func:`keep_aside` only, compact
    (``{"format":N,"head":"…","commits":{"<hash>":[…],…}}``): a file that does not start
    with that head is parsed whole, as :func:`aside` reads it. Inside the commits, a
    hash followed by ``":`` is a key (a quote in a JSON string is escaped), so finding
    ``"<hash>":`` finds the row."""

    __slots__ = ("_rows", "_text")

    def __init__(self, text: str, rows: dict[str, object] | None = None) -> None:
        self._text = text  # the commits object's text ("": parsed whole, in _rows)
        self._rows: dict[str, object] = {} if rows is None else rows

    @classmethod
    def read(cls, entry_file: str, head: str, version: int) -> Ahead:
        """What :func:`aside` answers for ``entry_file`` (nothing: an empty one). Never
        raises."""
        from .. import cachefile

        try:
            text = cachefile.read(aside_file(entry_file)).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return cls("")
        from ..fast.jsonfast import dumps

        start = dumps({"format": version, "head": head, "commits": 0}, separators=(",", ":"))
        start = start[: -len("0}")]
        if text.startswith(start + "{") and text.endswith("}}"):
            return cls(text[len(start) :])
        found = aside(entry_file, head, version)  # another layout: parsed whole
        commits = found.get("commits")
        return cls("", dict(commits) if isinstance(commits, dict) else {})

    def said(self, hash_: str) -> Said | None:
        """What commit ``hash_`` said as the row kept aside holds it; None: not read
        ahead (or a row that cannot be read: to be read again)."""
        if hash_ in self._rows:
            return Said.of_row(self._rows[hash_])
        if self._text and len(self._rows) >= SEARCHED:  # asked for many: read them all
            from ..fast.jsonfast import value_at

            try:
                found = value_at(self._text, 0)
            except ValueError:
                found = None
            self._rows = dict(found) if isinstance(found, dict) else {}
            self._text = ""
            return Said.of_row(self._rows.get(hash_))
        row: object = None
        if self._text:
            key = f'"{hash_}":'
            at = self._text.find(key)
            if at >= 0:
                from ..fast.jsonfast import value_at

                try:
                    row = value_at(self._text, at + len(key))
                except ValueError:
                    row = None
        self._rows[hash_] = row
        return Said.of_row(row)


def keep_aside(entry_file: str, head: str, version: int, rows: dict[str, Said]) -> bool:
    """Add ``rows`` (hash -> what it said) to what is kept aside for the file version of
    ``entry_file`` at HEAD ``head`` (cache format ``version``), whole or not at all;
    False when it could not be."""
    from .. import cachefile
    from ..fast.jsonfast import dumps

    kept = aside(entry_file, head, version)
    commits: dict[str, Any] = dict(kept.get("commits") or {})  # type: ignore[call-overload]
    notes: dict[str, object] = {"commits": commits}
    for hash_, said in rows.items():
        said.keep(notes, hash_)
    data = {"format": version, "head": head, "commits": commits}
    return cachefile.write(aside_file(entry_file), dumps(data, separators=(",", ":")), mode=0o700)


#: What a commit did to lines (:func:`memhooks.lines.delta.verdicts`, kept in
#: ``notes[NOTES][hash]``), read here: the settled edit loads no judging (~0.5 M).
SPACE = "space"
GAIN = "gain"
NOTES = "delta"


def kind(verdict: object, lines: Sequence[tuple[int, int]]) -> str | None:
    """What the commit whose verdict is ``verdict`` (as :data:`NOTES` keeps it;
    else: not judged) did to ``lines`` (numbered in its version): :data:`SPACE`,
    :data:`GAIN` or None (anything else, or not judged)."""
    if not isinstance(verdict, list) or not verdict or not lines:
        return None
    seen: set[object] = set()
    for first, last in lines:
        for n in range(first, last + 1):
            seen.add(next((k for a, b, k in verdict if a <= n <= b), None))
    if seen == {SPACE}:
        return SPACE
    if seen <= {SPACE, GAIN} and GAIN in seen:
        return GAIN
    return None


def spaced(verdict: object, lines: Sequence[tuple[int, int]]) -> set[int]:
    """The numbers of ``lines`` (its version's) the commit with ``verdict`` (as :data:`NOTES`
    keeps it; else not judged) changed only in whitespace (:data:`SPACE`), each line by
    its own hunk (issue 20 items 3, 9: a range's answer is its lines' answers)."""
    if not isinstance(verdict, list) or not verdict:
        return set()
    return {
        n
        for first, last in lines
        for n in range(first, last + 1)
        if next((k for a, b, k in verdict if a <= n <= b), None) == SPACE
    }
