"""Hook candidates read while git lists (issue 14 item 3: ``validate --all`` with the
caches disabled).

git's listing of a tree (:func:`memhooks.listing.discover.list_hooks`) costs a walk of
every folder (~50 ms for 5,000 folders; git prints nothing until its walk ends), and
reading the hooks it names costs about as much again (~0.1 ms each for 300 hooks, plus
importing the YAML reader). Here the two overlap without walking the tree twice:

1. A child — this process forked (no other thread runs: nothing to start), else a
   fresh ``python -I -S`` running the file — walks the tree with ``os.scandir``
   (:mod:`memhooks.listing.walker`) (four system calls a
   folder against git's seven) and streams every entry named like a hook as it finds
   it. It never follows a symlink and skips ``.git``, as the walker does; it stops at
   :data:`LIMIT` folders. git reads the index meanwhile (``ls-files --cached``: no walk).
2. This process reads each regular file the child names (the caller's ``speculate``)
   while the child walks on; when the walk ends, the child becomes git (exec) saying
   which of those paths its ignore rules exclude (``check-ignore --stdin
   --verbose --non-matching``: every ``.gitignore`` from the top down, ``info/exclude``,
   ``core.excludesFile``; a folder that is excluded excludes what is below it, as in
   git's own walk). It reads the ignore files on the way to them, no folder: ~2 ms for
   300 paths, where listing them (``ls-files --others -- …``) reads every folder on the
   way, ~14 ms.
3. A candidate is a hook git lists when it is tracked, or untracked and not excluded
   outside a nested repository or submodule (git's walk enters neither). Everything
   else git's listing could give as far as hooks go comes from the index, through
   :func:`memhooks.listing.discover.hooks_in`: every entry named like a hook that git
   could list without the index is among the child's (git never lists through a
   symlink either). Folders git would show only as a whole (``--directory``) matter only
   for hooks git does not list, and there are none on this path.

A candidate git ignores is left out where git's listing provably does (:func:`_left_out`).

Whenever that reasoning does not hold, None is returned and the caller lists the tree
as before (what was read meanwhile is reused, nothing else): an ignored candidate this
path cannot decide (the old listing decides whether a walk finds it), one in a folder
holding ``.git`` (a nested repository, or not: git looks closer) or in a folder the
index holds as a file or submodule, an entry named like a hook that is not a regular
file (a symlink, a directory, a FIFO), a folder the child cannot read, more than
:data:`LIMIT` folders (git skips what it ignores, e.g. ``node_modules``; the child
cannot), more than :data:`MAX_CANDIDATES` candidates (one command line), no
``posix_spawn``, or git or the child failing or exceeding :data:`memhooks.child.TIMEOUT_S`.
"""

from __future__ import annotations

import os
import sys

from .. import git
from ..child import Child, alone, program
from ..protocol import HOOK_NAME
from . import walker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from collections.abc import Callable

    #: (folders, their stats, watched files, the folder of each): see :func:`git_list`
    Walked = tuple[list[str], array[int], list[str], list[int]]

#: Folders the child walks before it gives up (~60 ms at ~6 µs a folder here).
LIMIT = 10_000
#: Candidates passed to git on one command line at most.
MAX_CANDIDATES = 5_000


def git_list(
    directory: str,
    meanwhile: Callable[[], None] | None,
    speculate: Callable[[str], None],
    walked: list[Walked] | None = None,
    seen: set[str] | None = None,
    settle: Callable[[], None] | None = None,
) -> list[str] | None:
    """:func:`memhooks.listing.discover.list_hooks`'s git listing of ``directory``, with
    ``meanwhile`` called once and ``speculate`` with every candidate's absolute path
    while git and the child work; None when this path cannot decide (see the module
    docstring: the caller then lists as before, ``meanwhile`` already called).

    With ``walked`` given, the child also records what the listing cache needs of the
    folders it read (:mod:`memhooks.listing.cache`): when its walk completes, even if
    None is returned, ``walked`` receives (folders relative to ``directory``, their
    (inode, mtime, ctime) flattened, the files watched in them, the index of the folder
    each lies in), as :func:`memhooks.listing.folders.walk` gives them; ``seen``
    receives, with a listing, what :func:`memhooks.listing.discover._git_list`'s
    does. ``settle`` is called once every candidate has been read (the walk complete),
    while git checks them: the caller's work that needs the hooks read but not git's
    answer (saving the parsed-hook cache) is then off the path to the answer."""
    if not (sys.executable and hasattr(os, "posix_spawn")):
        if meanwhile is not None:
            meanwhile()
        return None
    children: list[Child] = []
    record = walked is not None
    try:
        # which of the candidates git's ignore rules exclude (with the rule, or empty
        # fields); the child runs git by its path (no search of PATH there)
        listing = git.command(directory, *git.QUOTEPATH, "check-ignore", "--stdin", "-z",
                              "--verbose", "--non-matching")  # fmt: skip
        listing[0] = program(listing[0])
        if alone() and hasattr(os, "fork"):
            limits = (LIMIT, HOOK_NAME, MAX_CANDIDATES)  # as they are now, in the child

            def run(fd: int) -> None:
                walker.walk(directory, *limits, record, listing, fd)

            children.append(Child(None, run))
        else:  # forking a process where other threads run is unsafe: a fresh interpreter
            script = walker.__file__
            if not (script and script.endswith(".py") and os.path.isfile(script)):
                raise OSError("no walker file")  # not run from a source file: as before
            children.append(
                Child([sys.executable, "-I", "-S", script, directory, str(LIMIT), HOOK_NAME,
                       str(MAX_CANDIDATES), "1" if record else "0", *listing])
            )  # fmt: skip
        children.append(git.spawn(directory, *git.QUOTEPATH, "ls-files", "-z", "--cached"))
    except OSError:
        _end(children)
        if meanwhile is not None:
            meanwhile()
        return None
    walking, index = children
    try:
        if meanwhile is not None:
            meanwhile()
        candidates = _candidates(walking, directory, speculate, walked)
        if candidates is None:
            return None
        if settle is not None:
            settle()
        verdicts = walking.fields((0, 1)) if candidates else []  # 1: nothing ignored
        tracked = index.fields((0,))
        if verdicts is None or tracked is None or len(verdicts) % 4:
            return None
        # the folders on the way to a candidate (the walker read them all)
        plain = {""}
        for rel in candidates:
            rel = rel.rpartition("/")[0]
            while rel not in plain:
                plain.add(rel)
                rel = rel.rpartition("/")[0]
        listed = set(tracked)
        tracked_set = frozenset(listed)
        if not listed.isdisjoint(plain):
            return None  # a folder that is a submodule in the index: git decides as before
        for at in range(0, len(verdicts), 4):
            rule = verdicts[at + 2]
            if not rule or rule.startswith("!"):  # no rule, or a negated one: not ignored
                listed.add(verdicts[at + 3])
        shown = [rel for rel in candidates if rel in listed]
        if len(shown) < len(candidates):  # git ignores some
            if not _left_out([rel for rel in candidates if rel not in listed], shown, tracked):
                return None  # the old listing decides (see the docstring)
            candidates = shown
        # A tracked hook spelt in another case (core.ignoreCase): check-ignore does not
        # check a path the index matches, and the listing shows the index's spelling.
        folded = HOOK_NAME.casefold()
        spelt = {n.casefold() for n in tracked if n[-len(HOOK_NAME) :].casefold() == folded}
        if any(rel not in tracked_set and rel.casefold() in spelt for rel in candidates):
            return None
        from .discover import hooks_in

        # Every candidate is a hook git lists: untracked outside a nested repository
        # (the walker said "N" for one inside) and not ignored, or tracked. What else
        # git's listing gives comes from the index (tracked hooks the walker did not
        # see, e.g. behind a symlink, and entries named like a hook that are not files in
        # folders on the way to tracked files); folders on the way to a candidate need no
        # check: the walker read them and found nothing named like a hook but regular
        # files (else it said "S").
        found = {os.path.normpath(os.path.join(directory, rel)) for rel in candidates}
        found.update(hooks_in(directory, tracked, [], seen, plain=plain))
        return sorted(found)
    except OSError:
        return None
    finally:
        _end(children)


def _left_out(ignored: list[str], shown: list[str], tracked: list[str]) -> bool:
    """Whether git's listing (:mod:`memhooks.listing.discover`) leaves out each of
    ``ignored`` (candidates git ignores) as it does unless a walk finds one: in the
    highest folder on its way holding no file of ``tracked`` (git shows it as a whole,
    even with only ignored files) when git shows nothing inside, which is then walked.
    Decided when that folder holds a hook of ``shown`` (git lists it) or there is none;
    else False. (A cue memhooks keeps out of git beside its project's hooks: the first.)"""
    holding: set[str] = set()  # folders on the way to a tracked file
    for name in tracked:
        rel = name.rpartition("/")[0]
        while rel and rel not in holding:
            holding.add(rel)
            rel = rel.rpartition("/")[0]
    for rel in ignored:
        parts = rel.split("/")[:-1]
        ways = ("/".join(parts[: n + 1]) for n in range(len(parts)))
        whole = next((folder for folder in ways if folder not in holding), None)
        if whole is not None and not any(s.startswith(whole + "/") for s in shown):
            return False
    return True


def read_while_listed(
    directory: str,
    meanwhile: Callable[[], None] | None,
    speculate: Callable[[str], None],
    settle: Callable[[], None] | None = None,
) -> list[str]:
    """What :func:`memhooks.listing.discover.list_hooks` lists in git, with ``speculate``
    called on each hook candidate while git lists (:func:`git_list`); where that cannot
    answer, ``list_hooks``' own listing (``meanwhile`` called once either way)."""
    from .discover import list_hooks

    listed = git_list(directory, meanwhile, speculate, settle=settle)
    if listed is not None:
        return listed
    return list_hooks(directory, use_git=True)


def _candidates(
    walker: Child,
    directory: str,
    speculate: Callable[[str], None],
    walked: list[Walked] | None,
) -> list[str] | None:
    """The candidates the walker names (relative paths), calling ``speculate`` for each
    as it arrives, and its folders into ``walked``; None when its walk cannot decide.
    After a non-empty list, what the walker prints is git's listing of them."""
    candidates: list[str] = []
    buffer = b""
    while True:
        data = walker.read()
        if not data:
            return None  # ended without a verdict
        buffer += data
        at = 0
        fresh = []
        verdict = None
        while (end := buffer.find(b"\0", at)) >= 0:
            kind = buffer[at : at + 1]
            if kind == b"R":
                fresh.append(os.fsdecode(buffer[at + 1 : end]))
                at = end + 1
            elif kind == b"F":  # the folders, then so many bytes (see memhooks.listing.walker)
                try:
                    count, size, raw = map(int, buffer[at + 1 : end].split(b" "))
                except ValueError:
                    return None
                stop = end + 1 + size + raw
                if stop > len(buffer):
                    break  # the rest is on its way
                if walked is not None:
                    folders = _folders(directory, count, buffer[end + 1 : stop - raw],
                                       buffer[stop - raw : stop])  # fmt: skip
                    if folders is None:
                        return None
                    walked.append(folders)
                at = stop
            elif kind in (b"E", b"G"):
                verdict = kind
                walker.rest = buffer[end + 1 :]  # git's names follow on the same pipe
                break
            else:  # S, M, X or garbage
                return None
        buffer = buffer[at:]
        candidates += fresh
        for rel in fresh:
            speculate(os.path.normpath(os.path.join(directory, *rel.split("/"))))
        if verdict is not None:
            return candidates if verdict == b"G" or not candidates else None


def _folders(directory: str, count: int, text: bytes, raw: bytes) -> Walked | None:
    """The walker's "F" record as :data:`Walked`, or None when it does not add up."""
    from array import array

    items = os.fsdecode(text).split("\0")
    stats = array("q")
    if len(items) < count or len(raw) != 24 * count:
        return None
    stats.frombytes(raw)
    if sys.byteorder != "little":
        stats.byteswap()
    watched: list[str] = []
    owners: list[int] = []
    for item in items[count:]:
        owner, _, rel = item.partition(":")
        if not (owner.isdigit() and int(owner) < count and rel):
            return None
        owners.append(int(owner))
        watched.append(os.path.join(directory, rel))
    return items[:count], stats, watched, owners


def _end(children: list[Child]) -> None:
    """Stop and reap every child still running (nothing is left behind)."""
    for child in children:
        try:
            child.end()
        except OSError:
            pass
