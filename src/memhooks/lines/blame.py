"""Running ``git blame --incremental`` under a deadline, and the old side of a commit's
diff (where the lines a commit changed came from).

A blame cut short by its deadline is not an error: the groups git settled by then are
kept (:attr:`Run.complete` is False), the process is killed. Git's own failures (a path
it does not track, no git) raise :class:`BlameError`; the caller decides what a user
sees. Options that would change what blame prints whatever the user configured are set
on the command line; the user's ``blame.ignoreRevsFile`` is honoured (it is their word
on which commits do not own lines). git runs as :mod:`memhooks.git` says (its command
line and environment; ``subprocess`` here because a blame is read as it streams and cut
at a deadline), without taking optional locks (``GIT_OPTIONAL_LOCKS=0``).
"""

from __future__ import annotations

import subprocess
import time

from .. import git
from ..errors import MemhooksError
from ..git import shallow_commits
from .porcelain import Group, Parser

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

#: Pinned whatever the user configured: paths printed as git's C-quoting, English.
_CONFIG = ("-c", "core.quotePath=true", "-c", "i18n.logOutputEncoding=UTF-8")


class BlameError(MemhooksError):
    """Git could not blame: ``str(error)`` is git's first error line, or why it could
    not run; ``ran`` is False when git could not be started at all (EAGAIN under parallel
    hooks). Never an answer to remember: asked again next time."""

    def __init__(self, message: str, *, ran: bool = True) -> None:
        super().__init__(message)
        self.ran = ran


class Run:
    """The groups one blame settled (``groups``, in the order git settled them) and
    whether it finished (``complete``; False when the deadline cut it short)."""

    __slots__ = ("complete", "groups")

    def __init__(self) -> None:
        self.groups: list[Group] = []
        self.complete = False


def blame(
    top: str,
    path: str,
    ranges: Sequence[tuple[int, int]] = (),
    *,
    rev: str | None = None,
    since: str | None = None,
    deadline: float | None = None,
    edge: frozenset[str] | None = None,
) -> Run:
    """Blame ``path`` (relative to the work tree ``top``, ``/`` separators) as it is in
    the working tree, or at ``rev``; only the 1-based inclusive line ``ranges`` when
    given (git merges overlapping ones). ``since``: a date git understands; older lines
    are owned by a boundary commit, as are lines at a shallow clone's edge
    (``edge``, when the caller knows it: :func:`memhooks.lines.head.blame_key`; else
    :func:`memhooks.git.shallow_commits`: the history before it is not in the clone).
    ``deadline``: a
    :func:`time.monotonic` instant after which git is stopped and what it settled is
    returned. Raises :class:`BlameError`."""
    args = ["blame", "--incremental", "--root"]  # a root commit owns its lines: no boundary
    args += [f"-L{start},{end}" for start, end in ranges]
    if since:
        args.append(f"--since={since}")
    args += [*([rev] if rev else []), "--", path]
    run = Run()
    if deadline is not None and deadline <= time.monotonic():
        return run  # no time left: nothing settled, nothing started
    parser = Parser()
    for line in _lines(top, args, deadline, run):
        group = parser.feed(line)
        if group is not None:
            run.groups.append(group)
    # A shallow clone's edge has no parent to git, so --root makes it own every older
    # line: it is a boundary (history cut there), as blame without --root would say.
    for hash_ in (shallow_commits(top) if edge is None else edge) & parser.commits.keys():
        parser.commits[hash_].boundary = True
    return run


class Hunk:
    """One hunk of a diff: ``old_start`` and ``old`` (the lines it removed, their text),
    ``new_start`` and ``new`` (the lines it wrote). A hunk that only adds has
    ``old_start`` the line before the addition, as git numbers it (and the other way
    round)."""

    __slots__ = ("new", "new_start", "old", "old_start")

    def __init__(self, old_start: int, new_start: int) -> None:
        self.old_start = old_start
        self.new_start = new_start
        self.old: list[str] = []
        self.new: list[str] = []

    @property
    def old_lines(self) -> range:
        """The line numbers of the lines it removed (empty: it only adds)."""
        return range(self.old_start, self.old_start + len(self.old))

    def replaces(self, first: int, last: int) -> bool:
        """Whether it removed lines in place of, or next to, lines ``first``..``last``
        (1-based, inclusive) of the new side: it removed some, and the lines it wrote
        overlap those — a removal (no new lines) sits between ``new_start`` and
        ``new_start + 1``, so it is next to line ``new_start``."""
        end = self.new_start + max(len(self.new), 1) - 1
        return bool(self.old) and self.new_start <= last and end >= first


def hunks(top: str, before: tuple[str, str], after: tuple[str, str]) -> list[Hunk]:
    """The hunks of the diff from ``before`` to ``after`` (``(commit, path)``; ``after``'s
    commit ``""``: the file in the working tree, at ``before``'s path), no context, in
    order: one ``git diff``. Raises :class:`BlameError`."""
    args = ["diff", "--no-ext-diff", "--no-color", "--no-renames", "-U0"]
    if after[0]:
        args += [f"{before[0]}:{before[1]}", f"{after[0]}:{after[1]}"]
    else:
        args += [before[0], "--", before[1]]
    found: list[Hunk] = []
    for line in _lines(top, args, None, Run(), ok=(0, 1)):
        if line.startswith("@@ "):
            old, new = line.split(" ")[1:3]
            found.append(Hunk(_span(old[1:])[0], _span(new[1:])[0]))
        elif found and line[:1] == "-":
            found[-1].old.append(line[1:])
        elif found and line[:1] == "+":
            found[-1].new.append(line[1:])
    return found


def old_side(
    top: str,
    before: tuple[str, str],
    after: tuple[str, str],
    lines: Sequence[tuple[int, int]],
) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """For each range of ``lines`` (1-based, inclusive) of ``after`` (as
    :func:`hunks`): the line ranges of ``before`` that the diff to ``after`` replaced with,
    or removed next to, those lines — where they came from. Lines that were only added
    map to nothing. One ``git diff`` for all of them. Raises :class:`BlameError`."""
    diff = hunks(top, before, after)
    return {r: [(h.old_start, h.old_lines[-1]) for h in diff if h.replaces(*r)] for r in lines}


def show(
    top: str, specs: Sequence[tuple[str, str]], deadline: float | None, limit: int = 400_000
) -> dict[tuple[str, str], str | None]:
    """The text of each ``(commit, path)`` of ``specs``, from one ``git cat-file
    --batch``; None for one git does not have, with a NUL byte (not text) or of more
    than ``limit`` bytes. Raises :class:`BlameError` (git failed, or ``deadline``
    passed first)."""
    # a path with a line break cannot be asked for in a batch: not read
    wanted = [spec for spec in dict.fromkeys(specs) if "\n" not in spec[1]]
    found: dict[tuple[str, str], str | None] = dict.fromkeys(specs)
    if not wanted:
        return found
    asked = "".join(f"{commit}:{path}\n" for commit, path in wanted).encode(
        "utf-8", "surrogateescape"
    )
    proc = _popen(top, ["cat-file", "--batch"], stdin=subprocess.PIPE)
    timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
    try:
        out, _err = proc.communicate(asked, timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise BlameError("git did not answer in time") from None
    if proc.returncode != 0:
        raise BlameError(f"git cat-file exited {proc.returncode}")
    at = 0
    try:
        for spec in wanted:
            end = out.index(b"\n", at)
            header = out[at:end].split(b" ")
            at = end + 1
            if len(header) != 3:
                continue  # "<name> missing" (or ambiguous): no content follows
            size = int(header[2])
            body = out[at : at + size]
            at += size + 1  # every object's content, a blob's or not, and its newline
            if header[1] == b"blob" and size <= limit and b"\0" not in body:
                found[spec] = body.decode("utf-8", "replace")
    except ValueError:
        raise BlameError("git cat-file's answer was cut short") from None
    return found


def _span(text: str) -> tuple[int, int]:
    start, _, count = text.partition(",")
    return int(start), int(count) if count else 1


def _lines(
    top: str, args: list[str], deadline: float | None, run: Run, ok: tuple[int, ...] = (0,)
) -> list[str]:
    """The lines ``git ARGS`` prints in ``top`` until it exits (``run.complete``) or
    ``deadline`` passes (the process is killed)."""
    proc = _popen(top, args, stdin=subprocess.DEVNULL)
    out, err, finished = _collect(proc, deadline)
    if finished and proc.returncode < 0:
        raise BlameError(f"git was killed (signal {-proc.returncode})")
    if finished and proc.returncode not in ok:
        said = next((x.strip() for x in err.decode("utf-8", "replace").splitlines() if x), "")
        raise BlameError(said.removeprefix("fatal: ") or f"git exited {proc.returncode}")
    run.complete = finished
    text = out.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    if not finished:
        lines.pop()  # a line cut mid-way
    elif lines and lines[-1] == "":
        lines.pop()
    return lines


def _collect(proc: subprocess.Popen[bytes], deadline: float | None) -> tuple[bytes, bytes, bool]:
    """(stdout, stderr, finished) of ``proc``, killed at ``deadline``."""
    timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
    try:
        out, err = proc.communicate(timeout=timeout)
        return out, err, True
    except subprocess.TimeoutExpired:
        proc.kill()
        # communicate after a timeout loses nothing: it returns all git printed
        out, err = proc.communicate()
        return out or b"", err or b"", False


def _popen(top: str, args: list[str], *, stdin: int) -> subprocess.Popen[bytes]:
    """``git ARGS`` started in ``top`` with the blame's configuration, its output piped,
    no optional locks taken (a hook never blocks the user's git). Raises BlameError when
    git cannot be started."""
    try:
        return subprocess.Popen(
            git.command(top, *_CONFIG, *args),
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**git.environment(), "GIT_OPTIONAL_LOCKS": "0"},
        )
    except OSError as exc:
        raise BlameError(f"git could not be run ({exc.strerror or exc})", ran=False) from None
