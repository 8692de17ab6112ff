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
in which
any recorded entry changed within :data:`memhooks.filestate.RACY_NS` of the walk
is not saved (coarse timestamps: git's "racy" problem), nor one made when git could not
answer. A cache file that is unreadable, damaged (its CRC-32 does not match) or made for
another key is ignored, never trusted; nor one naming a hook outside the listed
directory.

One JSON file per (directory, git or walker) under ``listings/`` of :func:`memhooks.dirs.cache_dir`;
``MEMHOOKS_CACHE=0`` turns it off with the parsed-hook cache.
"""

from __future__ import annotations

import os
import time
from array import array

from .. import dirs, filestate
from ..fast import jsonfast
from ..settings import switch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: Bump whenever what :func:`memhooks.listing.discover.list_hooks` lists changes (its
#: rules, not just its speed), or listings made by the old rules outlive the change.
FORMAT = 3  # 3: names as base64, CRC-32 digest
_ABSENT = (-1, -1, -1, -1)
_TOO_MANY = "too many"
_HOLDS, _RECENT, _CHANGED = "holds", "recent", "changed"


class Listing:
    """One listing as recorded: the listed directory (``base``), the hooks, the walked
    folders (relative, ``/``-separated, ``""`` for ``base``), the files watched in them
    with the index of the folder each lies in (``owners``), the other files the listing
    depends on (``files``), whether ignored folders were skipped (``pruned``), and
    ``stats``: each folder's (inode, mtime, ctime) then each watched and other file's
    (inode, size, mtime, ctime), flattened."""

    __slots__ = (
        "base", "current", "files", "folders", "hooks", "owners", "pruned", "stats", "watched"
    )  # fmt: skip

    def __init__(
        self,
        base: str,
        hooks: list[str],
        folders: list[str],
        watched: list[str],
        owners: list[int],
        files: list[str],
        pruned: bool,
        stats: array[int],
    ) -> None:
        self.base, self.hooks, self.folders, self.watched = base, hooks, folders, watched
        self.owners, self.files, self.pruned, self.stats = owners, files, pruned, stats
        #: the folders' stats as :func:`_check` found them (taken before git lists, so a
        #: walk may record them: a later change still shows as a difference)
        self.current: array[int] | None = None

    def texts(self) -> list[str]:
        return ["\0".join(part) for part in (self.hooks, self.folders, self.watched, self.files)]


def find_hooks(
    directory: str,
    *,
    use_git: bool,
    meanwhile: Callable[[], None] | None = None,
    speculate: Callable[[str], None] | None = None,
    settle: Callable[[], None] | None = None,
) -> list[str]:
    """:func:`memhooks.listing.discover.list_hooks` through the listing cache: the same
    sorted absolute paths, from the cache file when it still holds (``meanwhile`` is not
    called then: nothing is waited for). ``speculate`` is passed on when the cache is
    off (see :mod:`memhooks.listing.candidates`). Raises DiagnosticError MH030 as the
    walk does."""
    try:
        file = _file(directory, use_git) if switch("MEMHOOKS_CACHE") else None
    except OSError:  # no home folder to keep the cache in (HomeError): as without a cache
        file = None
    if file is None:
        from .discover import list_hooks as listed

        return listed(
            directory, use_git=use_git, meanwhile=meanwhile, speculate=speculate, settle=settle
        )
    key = _key(directory, use_git)
    previous = _load(file, key, directory)
    if isinstance(previous, tuple):  # too many folders to list, and the top is unchanged
        if previous == _top_stat(directory):
            from .discover import list_hooks as listed

            return listed(directory, use_git=use_git, meanwhile=meanwhile)
        previous = None
    state = _CHANGED if previous is None else _check(previous)
    if state == _HOLDS and previous is not None:
        return previous.hooks
    if state == _RECENT:  # a listing made now could not be saved: list as without a cache
        from .discover import list_hooks as listed

        return listed(directory, use_git=use_git, meanwhile=meanwhile)
    hooks, made = _list(directory, use_git, meanwhile, previous, speculate, settle)
    if made == _TOO_MANY:  # do not try again while the top folder stays the same
        top = _top_stat(directory)
        if top is not None:
            _write(file, {"format": FORMAT, "key": key, "too_many": list(top)})
    elif isinstance(made, Listing):
        _save(file, key, made)
    return hooks


def _top_stat(directory: str) -> tuple[int, int, int] | None:
    try:
        st = os.lstat(directory)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)


def _file(directory: str, use_git: bool) -> str:
    from ..cachefile import key_name  # as cache.for_root: the file names what it lists

    name = key_name(f"{directory}\0{use_git}")
    return os.path.join(dirs.cache_dir(), "listings", f"{name}.json")


def _key(directory: str, use_git: bool) -> list[Any]:
    """What a listing depends on besides the files it checks: the directory, the mode,
    this memhooks, and the environment git reads (``GIT_*``, ``HOME``, ``XDG_CONFIG_HOME``)
    and finds git by (``PATH``) — as a digest: ``GIT_*`` variables can carry tokens
    (``GIT_ASKPASS``, ``GIT_CONFIG_VALUE_n``), which a cache file must not hold."""
    from .. import __version__

    try:
        from _sha1 import sha1  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        from hashlib import sha1

    env = sorted(
        f"{name}\0{value}"
        for name, value in os.environ.items()
        if name.startswith("GIT_") or name in ("HOME", "XDG_CONFIG_HOME", "PATH")
    )
    digest = sha1("\0\0".join(env).encode("utf-8", "surrogateescape")).hexdigest()
    return [directory, use_git, __version__, digest]


def _digest(texts: list[str], stats: bytes) -> str:
    """CRC-32 of ``texts`` and ``stats``: a check against a truncated or damaged file
    (~0.1 ms for 5,000 folders, against SHA-1's ~1.5 ms). No digest could keep out a file
    someone rewrote on purpose: whatever it says, :func:`_load` reads nothing outside
    the listed directory, and a stale listing only lists afresh."""
    from binascii import crc32

    value = 0
    for text in texts:
        value = crc32(text.encode("utf-8", "surrogateescape") + b"\0\0", value)
    return f"{crc32(stats, value):08x}"


def _pack(text: str) -> str:
    """``text`` as it is written: base64 of its bytes (NUL-separated names would
    otherwise be escaped one by one, ~1 ms to write and to read for 5,000 folders)."""
    from binascii import b2a_base64

    return b2a_base64(text.encode("utf-8", "surrogateescape"), newline=False).decode("ascii")


def _unpack(packed: str) -> str:
    from binascii import a2b_base64

    return a2b_base64(packed).decode("utf-8", "surrogateescape")


def _load(file: str, key: list[Any], directory: str) -> Listing | tuple[int, ...] | None:
    """The listing in ``file`` when it is intact and was made for ``key``, or the stats
    of the top folder when the tree had too many folders to record; else None."""
    from binascii import a2b_base64

    try:
        with open(file, "rb") as fp:
            blob = jsonfast.loads(fp.read())
        if not (isinstance(blob, dict) and blob.get("format") == FORMAT and blob.get("key") == key):
            return None
        if "too_many" in blob:
            top = blob["too_many"]
            if isinstance(top, list) and len(top) == 3 and all(type(v) is int for v in top):
                return tuple(top)
            return None
        packed = [blob["hooks"], blob["folders"], blob["watched"], blob["files"]]
        if not all(isinstance(text, str) for text in packed):
            return None
        raw = a2b_base64(blob["stats"])
        if (
            _digest([repr(key), *packed, repr(blob["owners"]), repr(blob["pruned"])], raw)
            != blob["digest"]
        ):
            return None
        texts = [_unpack(text) for text in packed]
        hooks, folders, watched, files = (text.split("\0") if text else [] for text in texts)
        stats = array("q")
        stats.frombytes(raw)
        owners = blob["owners"]
        inside = directory.rstrip("/") + "/"
        if not (
            len(stats) == 3 * len(folders) + 4 * (len(watched) + len(files))
            and len(owners) == len(watched)
            and all(isinstance(at, int) and 0 <= at < len(folders) for at in owners)
            # whatever the file says, nothing outside the listed directory is read
            and all(hook.startswith(inside) and "/../" not in hook for hook in hooks)
        ):
            return None
        return Listing(
            directory, hooks, folders, watched, owners, files, blob["pruned"] is True, stats
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _check(listing: Listing) -> str:
    """:data:`_HOLDS` when no recorded folder or file changed (one ``lstat``/``stat``
    each), :data:`_RECENT` when one changed within the racy window (so recently that a
    new listing could not be saved either: the caller skips making one), else
    :data:`_CHANGED`."""
    try:
        now = _folder_stats(listing.base, listing.folders)
    except OSError:
        return _CHANGED
    count = len(now)
    listing.current = now[:]
    now.extend(_files_stats(listing.watched + listing.files))
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


def _folder_stats(base: str, folders: list[str]) -> array[int]:
    """(inode, mtime, ctime) of each folder (``lstat``), flattened; raises OSError."""
    prefix = base.rstrip("/") + "/"
    stats = array("q")
    add = stats.extend
    for st in map(os.lstat, [prefix + rel if rel else base for rel in folders]):
        add((st.st_ino, st.st_mtime_ns, st.st_ctime_ns))
    return stats


def _file_stat(path: str) -> tuple[int, int, int, int]:
    """(inode, size, mtime, ctime) of what ``path`` names (links followed, as git reads
    its files), or all -1 when nothing is there."""
    try:
        st = os.stat(path)
    except OSError:
        return _ABSENT
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _files_stats(files: list[str]) -> array[int]:
    stats = array("q")
    for path in files:
        stats.extend(_file_stat(path))
    return stats


def _list(
    directory: str,
    use_git: bool,
    meanwhile: Callable[[], None] | None,
    previous: Listing | None,
    speculate: Callable[[str], None] | None = None,
    settle: Callable[[], None] | None = None,
) -> tuple[list[str], Listing | str | None]:
    """(hooks, the listing to save, :data:`_TOO_MANY`, or None when nothing is to be
    saved). In git the candidates' child walks the folders and records them while this
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
    files = list(dict.fromkeys(files))
    made = Listing(directory, listed, folders, watched, owners, files, pruned, folder_stats)
    return listed, _checked(made, started)


def _ignore(path: str) -> None:
    """A ``speculate`` that reads nothing."""


def _checked(made: Listing, started: int) -> Listing | None:
    """``made`` with its files' stats appended, or None when anything it records changed
    within the racy window before ``started`` (or since). Stats taken before ``started``
    are safe to record: a change after them differs from them."""
    files = _files_stats(made.watched + made.files)
    recent = started - filestate.RACY_NS
    folders = made.stats
    changed = [*folders[1::3], *folders[2::3], *files[2::4], *files[3::4]]
    if any(value > recent for value in changed):
        return None
    made.stats.extend(files)
    return made


def _save(file: str, key: list[Any], made: Listing) -> None:
    """Write ``made`` atomically; failures are ignored (a cache)."""
    from binascii import b2a_base64

    packed = [_pack(text) for text in made.texts()]
    raw = made.stats.tobytes()
    blob = {
        "format": FORMAT,
        "key": key,
        "hooks": packed[0],
        "folders": packed[1],
        "watched": packed[2],
        "files": packed[3],
        "owners": made.owners,
        "pruned": made.pruned,
        "stats": b2a_base64(raw, newline=False).decode("ascii"),
        "digest": _digest([repr(key), *packed, repr(made.owners), repr(made.pruned)], raw),
    }
    _write(file, blob)


def _write(file: str, blob: dict[str, Any]) -> None:
    """Write ``blob`` to ``file`` atomically; failures are ignored (a cache)."""
    from .. import cachefile

    cachefile.write(file, jsonfast.dumps(blob, separators=(",", ":")))
