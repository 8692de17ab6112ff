"""``git blame --incremental`` output, parsed as it streams (pure: no process here).

The format (git-blame(1), "THE PORCELAIN FORMAT" and "INCREMENTAL OUTPUT"): each group
starts with ``<hash> <orig line> <final line> <count>``; the first time a commit appears,
its ``author``/``committer`` headers and ``summary`` follow (``boundary`` when it is at
the edge of the range blamed); every group then names its origin with an optional
``previous <hash> <path>`` (the commit before it and the path there) and ends with
``filename <path>``. Groups come in the order git settles them, not in line order, so a
blame cut short has settled some lines and not others. Paths with unusual bytes are
C-quoted, as git quotes them everywhere.
"""

from __future__ import annotations

#: The hash git gives lines that are not committed (git-blame(1): "Not Committed Yet").
UNCOMMITTED = "0" * 40


class Commit:
    """What blame says of one commit: ``hash`` (hex), ``summary`` (the first line of
    its message), ``author_time`` (seconds since the epoch) and ``boundary`` (it is at
    the edge of the history blamed: the lines it holds are older than the window)."""

    __slots__ = ("author_time", "boundary", "hash", "summary")

    def __init__(self, hash: str, summary: str = "", author_time: int = 0) -> None:
        self.hash = hash
        self.summary = summary
        self.author_time = author_time
        self.boundary = False


class Group:
    """One group of lines: ``count`` lines from ``final`` (1-based, in the file blamed)
    came from line ``orig`` of ``filename`` in ``commit``; ``previous`` is ``(hash,
    path)`` of the version before that commit, or None (the lines were added by the
    root commit, or the commit is a boundary)."""

    __slots__ = ("commit", "count", "filename", "final", "orig", "previous")

    def __init__(self, commit: Commit, orig: int, final: int, count: int) -> None:
        self.commit = commit
        self.orig = orig
        self.final = final
        self.count = count
        self.filename = ""
        self.previous: tuple[str, str] | None = None


class Parser:
    """Feed it lines of ``git blame --incremental`` (:meth:`feed`, str without the
    newline); it yields each :class:`Group` once its ``filename`` line has arrived.
    ``commits`` holds every commit seen, by hash."""

    def __init__(self) -> None:
        self.commits: dict[str, Commit] = {}
        self._group: Group | None = None

    def feed(self, line: str) -> Group | None:
        """The group this line completes, or None. Raises ValueError on a line that is
        not blame's incremental format (git was asked for something else)."""
        group = self._group
        if group is None:
            hash_, orig, final, count = line.split(" ")
            commit = self.commits.get(hash_)
            if commit is None:
                commit = self.commits[hash_] = Commit(hash_)
            self._group = Group(commit, int(orig), int(final), int(count))
            return None
        key, _, value = line.partition(" ")
        if key == "filename":
            group.filename = unquote(value)
            self._group = None
            return group
        if key == "previous":
            hash_, _, path = value.partition(" ")
            group.previous = (hash_, unquote(path))
        elif key == "summary":
            group.commit.summary = value
        elif key == "author-time":
            group.commit.author_time = int(value)
        elif key == "boundary":
            group.commit.boundary = True
        return None


_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def unquote(path: str) -> str:
    """A path as git printed it, C-quoting undone (``"a\\tb\\303\\251"`` -> ``a\tbé``);
    a path that is not quoted is returned as it is."""
    if len(path) < 2 or path[0] != '"' or path[-1] != '"':
        return path
    out = bytearray()
    body, i = path[1:-1], 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 == len(body):
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
        elif body[i + 1] in "01234567":
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out.append(_ESCAPES.get(body[i + 1], ord(body[i + 1])))
            i += 2
    return out.decode("utf-8", "surrogateescape")
