"""Reading a repository's history with ``git log``: a few processes for the whole history
(never one per commit), their output streamed and parsed as it arrives.

Three reads, each one ``git`` process:

* :func:`walk` — every commit of the range, newest first (:class:`Walked`: hash, how
  many parents, and for a non-merge commit the paths it changed with git's rename
  detection, ``-M --name-status``); no message is read;
* :func:`read` — the commits an import reads, by hash, in the order given, with author,
  times, subject and raw message (:class:`Commit`);
* :func:`resolve` — the headers of commits named by (possibly abbreviated) hashes, those
  git does not know left out (the commits a revert names).

Output is NUL-separated (``-z``), so any message or path parses; text is decoded as UTF-8
(``i18n.logOutputEncoding``), undecodable bytes replaced. Running git: :mod:`.process`.
"""

from __future__ import annotations

import os

from ..paths import is_within, relative
from .process import output, run, tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

#: Header of :func:`resolve`: hash, author e-mail, author time, subject.
_HEADER = "%H%x1f%ae%x1f%at%x1f%s"
#: :func:`walk`: a record mark, the hash and the parents; ``--name-status -z`` then adds
#: each change as its status and its path(s), NUL-terminated.
_WALKED = "%x1e%H%x1f%P"
#: :func:`read`: a record mark, hash, author name, e-mail and time, commit time, subject,
#: then the raw message.
_RECORD = "%x1e%H%x1f%an%x1f%ae%x1f%at%x1f%ct%x1f%s%x1f%B"


class Checkout:
    """A git work tree as seen from a memhooks project root.

    ``top``: the work tree's top folder; ``root``: the project root; ``below``: the root
    relative to ``top`` when the root is a folder inside the work tree (only history that
    touches it is read, paths made relative to it), else ``""``; ``above``: ``top``
    relative to the root when the work tree is inside the project root (paths get this
    prefix), else ``""``; ``shallow``: hashes of the commits at a shallow clone's boundary
    (git shows each as adding its whole tree); ``empty``: the branch has no commit yet.
    """

    __slots__ = ("above", "below", "empty", "root", "shallow", "top")

    def __init__(
        self,
        top: str,
        root: str,
        *,
        below: str = "",
        above: str = "",
        shallow: frozenset[str] = frozenset(),
        empty: bool = False,
    ) -> None:
        self.top = top
        self.root = root
        self.below = below
        self.above = above
        self.shallow = shallow
        self.empty = empty


class Header:
    """What identifies one commit's change: ``hash`` (hex), ``author_email``,
    ``author_time`` (seconds since the epoch, as git prints it) and ``subject`` (git's
    ``%s``: the first paragraph of the message on one line)."""

    __slots__ = ("author_email", "author_time", "hash", "subject")

    def __init__(self, hash: str, author_email: str, author_time: str, subject: str) -> None:
        self.hash = hash
        self.author_email = author_email
        self.author_time = author_time
        self.subject = subject


class Commit(Header):
    """A :class:`Header` plus ``author`` (the author's name), ``commit_time`` (seconds
    since the epoch) and ``message`` (the raw message, ``%B``)."""

    __slots__ = ("author", "commit_time", "message")

    def __init__(self, header: Sequence[str], author: str, commit_time: int, message: str) -> None:
        super().__init__(*header)
        self.author = author
        self.commit_time = commit_time
        self.message = message


class Walked:
    """One commit as :func:`walk` sees it: ``hash``, ``parents`` (how many) and
    ``changes`` (``(status letter, path, old path or None)``, root-relative; empty for a
    merge, whose changes are its parents')."""

    __slots__ = ("changes", "hash", "parents")

    def __init__(self, hash: str, parents: int, changes: list[tuple[str, str, str | None]]) -> None:
        self.hash = hash
        self.parents = parents
        self.changes = changes


def open_checkout(directory: str, root: str) -> Checkout:
    """The work tree holding ``directory``, seen from the project ``root`` (canonical
    paths). Raises DiagnosticError MH032 when git is missing or ``directory`` is not in
    a git work tree."""
    lines = output(directory, ["rev-parse", "--show-toplevel", "--git-path", "shallow"])
    top, shallow_file = os.path.realpath(lines[0]), os.path.join(directory, lines[1])
    below = above = ""
    if root != top:
        if is_within(root, top):
            below = relative(root, top)
        else:
            above = relative(top, root)
    try:
        with open(shallow_file, encoding="ascii", errors="replace") as fp:
            shallow = frozenset(line.strip() for line in fp if line.strip())
    except OSError:
        shallow = frozenset()
    head = run(top, ["rev-parse", "-q", "--verify", "HEAD^{commit}"], check=False)
    return Checkout(
        top, root, below=below, above=above, shallow=shallow, empty=head.returncode != 0
    )


def walk(
    repo: Checkout,
    revisions: Sequence[str] = (),
    *,
    since: str | None = None,
    changes: bool = True,
) -> Iterator[Walked]:
    """Every commit of ``revisions`` (default ``HEAD``) committed at or after ``since``
    (ISO 8601), merges included, newest first; without ``changes``, none of them has its
    changes read (no tree is compared: many times faster). Raises DiagnosticError MH032
    naming what git said for a revision it does not know. Stopping early stops git."""
    if repo.empty and not revisions:
        return
    args = ["log", "-z", f"--format={_WALKED}"]
    if changes:
        args[2:2] = ["-M", "--name-status"]
    if since is not None:
        args.append(f"--since={since}")
    if repo.below:  # paths relative to the root, and only the history under it
        args.append(f"--relative={repo.below}")
    args += ["--end-of-options", *(revisions or ["HEAD"])]
    if repo.below:
        args += ["--", f":(literal){repo.below}"]
    current: Walked | None = None
    status = ""
    old: str | None = None
    for token in tokens(repo.top, args):
        if token[:1] == b"\x1e":
            if current is not None:
                yield current
            hash_, _, parents = token[1:].decode("ascii", "replace").partition("\x1f")
            current, status = Walked(hash_, len(parents.split()), []), ""
        elif current is None:
            continue
        elif not status:
            status = token.lstrip(b"\n").decode("ascii", "replace")[:1]
            old = None
        else:
            path = token.decode("utf-8", "replace")
            if repo.above:
                path = f"{repo.above}/{path}"
            if status in ("R", "C") and old is None:
                old = path  # the new path comes next
                continue
            if current.parents < 2:
                current.changes.append((status, path, old))
            status = ""
    if current is not None:
        yield current


def read(repo: Checkout, hashes: Sequence[str]) -> Iterator[Commit]:
    """The commits named by full ``hashes``, in that order, with their messages."""
    if not hashes:
        return  # git log --stdin with no input would read HEAD
    args = ["log", "--no-walk=unsorted", "--stdin", "-z", f"--format={_RECORD}"]
    record: list[str] | None = None
    for token in tokens(repo.top, args, stdin=hashes):
        if token[:1] == b"\x1e":
            if record is not None:
                yield _commit(record)
            record = token[1:].decode("utf-8", "replace").split("\x1f", 6)
        elif record is not None:  # a NUL inside a message: the rest of it
            record[-1] += "\n" + token.decode("utf-8", "replace")
    if record is not None:
        yield _commit(record)


def resolve(repo: Checkout, names: Iterable[str]) -> Iterator[Header]:
    """Headers of the commits that ``names`` (hex hashes, abbreviated or full) name;
    names git does not know, or that name no commit, are left out."""
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return
    found = run(
        repo.top,
        ["cat-file", "--batch-check=%(objectname) %(objecttype)"],
        stdin="".join(f"{name}\n" for name in wanted),
    )
    commits = [line.split()[0] for line in found.stdout.splitlines() if line.endswith(" commit")]
    if not commits:
        return
    args = ["log", "--no-walk=unsorted", "--stdin", "-z", f"--format={_HEADER}"]
    for token in tokens(repo.top, args, stdin=commits):
        yield Header(*token.decode("utf-8", "replace").split("\x1f", 3))


def _commit(record: list[str]) -> Commit:
    hash_, author, email, author_time, commit_time, subject, message = record
    return Commit((hash_, email, author_time, subject), author, int(commit_time), message)
