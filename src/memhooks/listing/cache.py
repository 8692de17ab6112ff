"""The hook listing cache: what :func:`~memhooks.listing.discover.list_hooks` found below
a directory, reused while nothing it depends on can have changed (issue 14 item 3).

Listing a tree costs a walk of every folder (git's ``ls-files`` or the walker, ~45 ms
for 5,000 folders: most of ``validate --all``). Checking that a listing still holds costs
one ``lstat`` per folder (~13 ms for 5,000). The rule is git's own untracked cache
(git-update-index(1), "UNTRACKED FILES AND PERFORMANCE"): adding, removing or renaming
an entry changes the modification time of the folder that holds it, so a folder whose
inode, mtime and ctime are unchanged still holds the same names. A listing is reused
when, since it was made,

* every folder the walk visited is the same (inode, mtime, ctime);
* every file the listing's rules come from is the same or still absent (inode, size,
  mtime, ctime): each ``.gitignore`` in those folders and in the folders from the git
  top level down to the listed directory, the index, ``info/exclude``, the global
  excludes file, every git configuration file git reads (as ``git config
  --show-origin`` names them, includes too, and the standard places where one could
  appear), and each nested repository's ``.git`` and ``.git/HEAD``;
* the environment git reads (``GIT_*``, ``HOME``, ``XDG_CONFIG_HOME``) and the memhooks
  version are the same.

Otherwise the tree is listed afresh (git or the walker decide, exactly as without the
cache) and the folders are recorded. In git the child that walks the tree for the hook
candidates (:mod:`.candidates`, :mod:`.walker`) also sends each folder's stats, taken
just before it read the folder, and the files watched in it, so the tree is walked once
(the first ``validate --all`` with empty caches costs what one with the caches disabled
does, plus ~10 ms of ``lstat`` in the child); when its walk does not complete, the
folders are walked again to record them (:mod:`.folders`), and a folder unchanged since
the last listing is then not read again (its names are known), only ``lstat``-ed. Both
walks skip ``.git`` and descend into everything else, nested repositories and ignored
folders included (more folders checked, never fewer); in git, past 20,000 folders the
second starts again skipping what git ignores as a whole (``node_modules``). A listing
in which any recorded entry changed within :data:`memhooks.filestate.RACY_NS` of the
walk is not saved (coarse timestamps: git's "racy" problem), nor one made when git could
not answer. A cache file that is unreadable, damaged (its CRC-32 does not match) or made for
another key is ignored, never trusted; nor one naming a hook outside the listed
directory.

One file per (directory, git or walker) under ``listings/`` of :func:`memhooks.dirs.cache_dir`;
``MEMHOOKS_CACHE=0`` turns it off with the parsed-hook cache.

The imports inside functions here (and in :mod:`.discover`, :mod:`.candidates`,
:mod:`.walker`, :mod:`memhooks.child`) are the second measured hot path's, after the
hook's: a ``validate --all`` whose listing holds loads neither the walker, nor git's
runner, nor ``subprocess`` (``bench/bench_engine.py`` validate_warm, beside the Rust
reference).
"""

from __future__ import annotations

import time

from .. import filestate
from ..settings import switch
from . import record
from .record import Listing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from typing_extensions import Unpack  # typing.Unpack from 3.11

    from .discover import Overlap

_TOO_MANY = "too many"
_HOLDS, _RECENT, _CHANGED = "holds", "recent", "changed"


def find_hooks(
    directory: str, *, use_git: bool, local: str | None = None, **overlap: Unpack[Overlap]
) -> list[str]:
    """:func:`memhooks.listing.discover.list_hooks` through the listing cache, the same
    sorted absolute paths: from the cache file when it holds (``meanwhile`` not called),
    else with ``overlap``'s ``speculate`` reading hooks while git lists them
    (:func:`memhooks.listing.candidates.git_list`). With ``local`` (a project root, in
    git), the hook files memhooks keeps out of git in that root's repository, below
    ``directory``, are taken in (:mod:`memhooks.local_hooks`): a listing made afresh
    records them and what they depend on, so one that holds reads none of it. MH030 as
    the walk raises it."""
    if not use_git:
        local = None
    meanwhile = overlap.get("meanwhile")
    try:
        file = record.file_for(directory, use_git) if switch("MEMHOOKS_CACHE") else None
    except OSError:  # no home folder to keep the cache in (HomeError): as without a cache
        file = None
    speculate = overlap.get("speculate")
    if file is None:
        if use_git and speculate is not None:  # hooks read while git lists them
            from .candidates import read_while_listed

            hooks = read_while_listed(directory, meanwhile, speculate, overlap.get("settle"))
            return _taken_in(hooks, local, directory)
        from .discover import list_hooks as listed

        return _taken_in(listed(directory, use_git=use_git, meanwhile=meanwhile), local, directory)
    key = record.key(directory, use_git)
    previous = record.load(file, key, directory)
    if isinstance(previous, tuple):  # too many folders to list, and the top is unchanged
        if previous == record.top_stat(directory):
            from .discover import list_hooks as listed

            hooks = listed(directory, use_git=use_git, meanwhile=meanwhile)
            return _taken_in(hooks, local, directory)
        previous = None
    state = _CHANGED if previous is None else _check(previous)
    if state == _HOLDS and previous is not None:
        return previous.hooks
    if state == _RECENT:  # a listing made now could not be saved: list as without a cache
        from .discover import list_hooks as listed

        return _taken_in(listed(directory, use_git=use_git, meanwhile=meanwhile), local, directory)
    settle = overlap.get("settle")
    hooks, made = _list(directory, use_git, meanwhile, previous, speculate, settle, local)
    if not isinstance(made, Listing):  # not recorded: maybe not taken in
        hooks = _taken_in(hooks, local, directory)
    if made == _TOO_MANY:  # do not try again while the top folder stays the same
        top = record.top_stat(directory)
        if top is not None:
            record.write(file, {"format": record.FORMAT, "key": key, "too_many": list(top)})
    elif isinstance(made, Listing):
        record.save(file, key, made)
    return hooks


def _taken_in(hooks: list[str], local: str | None, directory: str) -> list[str]:
    """``hooks`` with the hook files memhooks keeps local in ``local``'s repository below
    ``directory`` (none without ``local``), sorted."""
    if local is None:
        return hooks
    from ..local_hooks import with_local

    return with_local(local, directory, hooks)


def _check(listing: Listing) -> str:
    """:data:`_HOLDS` when no recorded folder or file changed (one ``lstat``/``stat``
    each), :data:`_RECENT` when one changed within the racy window (so recently that a
    new listing could not be saved either: the caller skips making one), else
    :data:`_CHANGED`."""
    try:
        now = record.folder_stats(listing.base, listing.folders)
    except OSError:
        return _CHANGED
    count = len(now)
    listing.current = now[:]
    now.extend(record.files_stats(listing.watched + listing.files))
    was = listing.stats
    if now == was:
        return _HOLDS
    recent = time.time_ns() - filestate.RACY_NS
    for at in range(0, count, 3):
        if now[at : at + 3] != was[at : at + 3] and max(now[at + 1], now[at + 2]) > recent:
            return _RECENT
    for at in range(count, len(now), 4):
        if now[at : at + 4] != was[at : at + 4] and max(now[at + 2], now[at + 3]) > recent:
            return _RECENT
    return _CHANGED


def _list(
    directory: str,
    use_git: bool,
    meanwhile: Callable[[], None] | None,
    previous: Listing | None,
    speculate: Callable[[str], None] | None = None,
    settle: Callable[[], None] | None = None,
    local: str | None = None,
) -> tuple[list[str], Listing | str | None]:
    """(hooks, the listing to save, :data:`_TOO_MANY`, or None when nothing is to be
    saved). A listing made in git has taken in ``local``'s hook files, and watches the
    exclude file they were read from and the folders the block names (there or not:
    :func:`memhooks.local_hooks.kept`); :func:`find_hooks` takes them in for the rest
    (again when the listing was too recent to save: it changes nothing). In git the
    candidates' child walks the folders and records them while this
    process reads the hooks it finds (``speculate``: see
    :func:`memhooks.listing.candidates.git_list`); when that path cannot decide, git
    lists as before, and the walk runs in a thread meanwhile (it waits in system calls;
    git runs in its own process) unless the child's walk completed."""
    from . import discover
    from .folders import MANY, MAX_FOLDERS, UNPRUNED_FOLDERS, walk

    started = time.time_ns()
    if not use_git:
        if meanwhile is not None:
            meanwhile()
        walked = walk(directory, None, MAX_FOLDERS, previous)
        if not isinstance(walked, tuple):  # the walker reports what it cannot read (MH030)
            return discover.list_hooks(directory, use_git=False), (
                _TOO_MANY if walked == MANY else None
            )
        folders, folder_stats, watched, owners, hooks = walked
        hooks.sort()
        made = Listing(directory, hooks, folders, watched, owners, [], False, folder_stats)
        return hooks, _checked(made, started)
    from .candidates import git_list
    from .gitstate import GitState

    # The candidates' child walks the tree once for both: it streams the hooks (read
    # meanwhile) and then the folders with their stats, as the walk below records them.
    states: list[GitState] = []

    def start() -> None:  # git's own state, asked while the child walks
        states.append(GitState(directory))
        if meanwhile is not None:
            meanwhile()

    walks: list[Any] = []
    seen: set[str] = set()
    files: list[str] | None = None
    early: list[list[str] | None] = []

    def then() -> None:  # while git checks the candidates
        early.append(states[0].files() if states else None)
        if settle is not None:
            settle()

    try:
        listed = git_list(directory, start, speculate or _ignore, walks, seen, then)
    except BaseException:  # the caller's speculate failed: leave no git behind
        for state in states:
            state.close()
        raise
    if not states:
        states.append(GitState(directory))
    state = states[0]
    walker = None
    if listed is None:  # as before: git lists, and the walk runs meanwhile unless done
        seen = set()
        if not walks:
            import threading

            walker = threading.Thread(
                target=lambda: walks.append(walk(directory, None, UNPRUNED_FOLDERS, previous)),
                daemon=True,
            )
            walker.start()
        try:
            listed = discover._git_list(directory, None, seen)
        finally:
            if walker is not None:
                walker.join()
    walked = walks[0] if walks else None
    if isinstance(walked, tuple) and len(walked[0]) > UNPRUNED_FOLDERS:
        walked = MANY  # as the walk below would have said
    if listed is None:  # not a work tree after all (MEMHOOKS_ROOT), or git failed: what
        state.close()  # the uncached run gives (the walk's own list may reuse a git-filtered one)
        return discover.list_hooks(directory, use_git=False), None
    files = early[0] if early else state.files()
    pruned = False
    if files is not None and walked == MANY:
        ignored = state.ignored()  # many folders: skip what git ignores, e.g. node_modules
        walked = None if ignored is None else walk(directory, ignored, MAX_FOLDERS, None)
        pruned = True
    if files is None or not isinstance(walked, tuple):
        return listed, (_TOO_MANY if walked == MANY else None)
    folders, folder_stats, watched, owners = walked[:4]
    # folders git shows a file in that the walk skipped (tracked files in ignored folders)
    visited = set(folders)
    inside = directory.rstrip("/") + "/"
    for folder in sorted(seen):
        if folder != directory and not (
            folder.startswith(inside) and folder[len(inside) :] in visited
        ):
            files.append(folder)
    if local is not None:  # read after `started`: a later change to them is not saved
        from ..local_hooks import kept

        below, depends = kept(local, directory)
        listed = sorted(set(listed) | set(below)) if below else listed
        # their folders too: a walk past MAX_FOLDERS skips the folders git ignores
        files.extend(depends)
    files = list(dict.fromkeys(files))
    made = Listing(directory, listed, folders, watched, owners, files, pruned, folder_stats)
    return listed, _checked(made, started)


def _ignore(path: str) -> None:
    """A ``speculate`` that reads nothing."""


def _checked(made: Listing, started: int) -> Listing | None:
    """``made`` with its files' stats appended, or None when anything it records changed
    within the racy window before ``started`` (or since). Stats taken before ``started``
    are safe to record: a change after them differs from them."""
    files = record.files_stats(made.watched + made.files)
    recent = started - filestate.RACY_NS
    folders = made.stats
    changed = [*folders[1::3], *folders[2::3], *files[2::4], *files[3::4]]
    if any(value > recent for value in changed):
        return None
    made.stats.extend(files)
    return made
