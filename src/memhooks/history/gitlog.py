"""Reading a repository's history with ``git log``: a few processes for the whole history
(never one per commit), their output streamed and parsed as it arrives.

Three reads, each one ``git`` process:

* :func:`scan` — every non-merge commit of the range, oldest first, with just what
  identifies the change (:class:`Header`: hash, author e-mail, author time, subject);
  cheap, because no tree is compared;
* :func:`read` — the commits an import still needs, by hash, with their messages and the
  paths they touched (:class:`Commit`; ``--name-only``: trees compared, no blob diffed);
* :func:`resolve` — the headers of commits named by (possibly abbreviated) hashes, those
  git does not know left out (the commits a revert names).

Output is NUL-separated (``-z``), so any message or path parses; text is decoded as UTF-8
(``i18n.logOutputEncoding``), undecodable bytes replaced. Running git: :mod:`.process`.
"""

from __future__ import annotations

import os

from .process import output, run, tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

#: Header of :func:`scan` and :func:`resolve`: hash, author e-mail, author time, subject.
_HEADER = "%H%x1f%ae%x1f%at%x1f%s"
#: :func:`read`: a record mark, the header plus commit time, NUL, the raw message; then
#: ``--name-only -z`` adds the paths, each NUL-terminated.
_RECORD = "%x1e%H%x1f%ae%x1f%at%x1f%ct%x1f%s%x00%B"


class Repository:
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

    def pathspec(self) -> list[str]:
        """``git log`` arguments that keep the history to the project root."""
        if not self.below:
            return []
        return [f"--relative={self.below}", "--", f":(literal){self.below}"]


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
    """A :class:`Header` plus ``commit_time`` (seconds since the epoch), ``message`` (the
    raw message, ``%B``) and ``files`` (root-relative paths it touched, in git's order)."""

    __slots__ = ("commit_time", "files", "message")

    def __init__(
        self,
        header: Sequence[str],
        commit_time: int,
        message: str,
        files: list[str],
    ) -> None:
        super().__init__(*header)
        self.commit_time = commit_time
        self.message = message
        self.files = files


def open_repository(directory: str, root: str) -> Repository:
    """The work tree holding ``directory``, seen from the project ``root`` (canonical
    paths). Raises DiagnosticError MH032 when git is missing or ``directory`` is not in
    a git work tree."""
    lines = output(directory, ["rev-parse", "--show-toplevel", "--git-path", "shallow"])
    top, shallow_file = os.path.realpath(lines[0]), os.path.join(directory, lines[1])
    below = above = ""
    if root != top:
        if root.startswith(top.rstrip(os.sep) + os.sep):
            below = os.path.relpath(root, top).replace(os.sep, "/")
        else:
            above = os.path.relpath(top, root).replace(os.sep, "/")
    try:
        with open(shallow_file, encoding="ascii", errors="replace") as fp:
            shallow = frozenset(line.strip() for line in fp if line.strip())
    except OSError:
        shallow = frozenset()
    head = run(top, ["rev-parse", "-q", "--verify", "HEAD^{commit}"], check=False)
    return Repository(
        top, root, below=below, above=above, shallow=shallow, empty=head.returncode != 0
    )


def scan(
    repo: Repository,
    revisions: Sequence[str] = (),
    *,
    since: str | None = None,
    max_count: int | None = None,
) -> Iterator[Header]:
    """Every non-merge commit of ``revisions`` (default ``HEAD``), oldest first: the
    newest ``max_count`` of those committed at or after ``since`` (ISO 8601). Raises
    DiagnosticError MH032 naming what git said for a revision it does not know."""
    if repo.empty and not revisions:
        return
    args = ["log", "--no-merges", "--reverse", "-z", f"--format={_HEADER}"]
    if since is not None:
        args.append(f"--since={since}")
    if max_count is not None:
        args.append(f"--max-count={max_count}")
    args += ["--end-of-options", *(revisions or ["HEAD"]), *_only(repo)]
    for token in tokens(repo.top, args):
        yield Header(*token.decode("utf-8", "replace").split("\x1f", 3))


def read(repo: Repository, hashes: Sequence[str]) -> Iterator[Commit]:
    """The commits named by full ``hashes``, in that order, with message and files."""
    if not hashes:
        return  # git log --stdin with no input would read HEAD
    args = ["log", "--no-walk=unsorted", "--stdin", "-z", "--no-renames", "--name-only"]
    args += [f"--format={_RECORD}", *repo.pathspec()]
    header: list[str] | None = None
    message = ""
    files: list[str] = []
    expect_message = False
    for token in tokens(repo.top, args, stdin=hashes):
        if expect_message:
            message, expect_message = token.decode("utf-8", "replace"), False
        elif token[:1] == b"\x1e":
            if header is not None:
                yield _commit(header, message, files)
            header, files, expect_message = _header(token), [], True
        elif header is not None:
            path = token.decode("utf-8", "replace").lstrip("\n")
            if path:
                files.append(f"{repo.above}/{path}" if repo.above else path)
    if header is not None:
        yield _commit(header, message, files)


def resolve(repo: Repository, names: Iterable[str]) -> Iterator[Header]:
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


def _only(repo: Repository) -> list[str]:
    return ["--", f":(literal){repo.below}"] if repo.below else []


def _header(token: bytes) -> list[str]:
    return token[1:].decode("utf-8", "replace").split("\x1f", 4)


def _commit(header: list[str], message: str, files: list[str]) -> Commit:
    hash_, email, author_time, commit_time, subject = header
    return Commit((hash_, email, author_time, subject), int(commit_time), message, files)
