"""The hook listing cache: what :func:`~memhooks.protocol.discover.find_hooks` found below
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
  excludes file, and every git configuration file git reads (as ``git config
  --show-origin`` names them, includes too, and the standard places where one could
  appear);
* the environment git reads (``GIT_*``, ``HOME``, ``XDG_CONFIG_HOME``) and the memhooks
  version are the same.

The walk that records folders skips ``.git`` and, in git, the folders git reports as
ignored (their contents cannot change what git lists while the rules stay the same);
it descends into everything else, nested repositories included (more folders checked,
never fewer). A listing in which any recorded entry changed within
:data:`~memhooks.protocol.cache.RACY_NS` of the walk is not saved (coarse timestamps:
git's "racy" problem), nor one made when git could not answer, nor one whose git
configuration came from somewhere other than files. Anything unreadable or unexpected in
the cache file is a miss: the listing is made afresh, never trusted.

One JSON file per (directory, git or walker) under ``$XDG_CACHE_HOME/memhooks/listings/``;
``MEMHOOKS_CACHE=0`` turns it off with the parsed-hook cache.
"""

from __future__ import annotations

import os
import stat
import time

from .. import jsonfast
from . import cache
from .hookfile import HOOK_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

FORMAT = 1
#: A walk of more folders than this, in git, is done again without what git ignores
#: (one more git call): checking 20,000 folders costs about what git's own walk of a
#: tree does.
UNPRUNED_FOLDERS = 20_000
#: More folders than this and no listing is saved.
MAX_FOLDERS = 200_000
_ABSENT = (-1, -1, -1, -1)
_MANY = "many"


def find_hooks(
    directory: str, *, use_git: bool, meanwhile: Callable[[], None] | None = None
) -> list[str]:
    """:func:`memhooks.protocol.discover.find_hooks` through the listing cache: the same
    sorted absolute paths, from the cache file when it still holds (``meanwhile`` is not
    called then: nothing is waited for). Raises DiagnosticError MH030 as the walk does."""
    if not cache.disk_enabled():
        from .discover import find_hooks as listed

        return listed(directory, use_git=use_git, meanwhile=meanwhile)
    file = _file(directory, use_git)
    key = _key(directory, use_git)
    hooks = _cached(file, key)
    if hooks is not None:
        return hooks
    hooks, record = _list(directory, use_git, meanwhile)
    if record is not None:
        record["base"] = directory
        record["hooks"] = "\0".join(hooks)
        texts = [record["base"], record["hooks"], record["folders"], record["files"]]
        record["digest"] = _digest(texts, record.pop("folder_stats"), record.pop("file_stats"))
        _save(file, {"format": FORMAT, "key": key, **record})
    return hooks


def _file(directory: str, use_git: bool) -> str:
    try:  # the builtin module, as cache.for_root: hashlib loads OpenSSL
        from _sha1 import sha1  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        from hashlib import sha1

    name = sha1(f"{directory}\0{use_git}".encode("utf-8", "surrogateescape")).hexdigest()[:20]
    return os.path.join(cache.cache_dir(), "listings", f"{name}.json")


def _key(directory: str, use_git: bool) -> list[Any]:
    from .. import __version__

    env = sorted(
        [name, value]
        for name, value in os.environ.items()
        if name.startswith("GIT_") or name in ("HOME", "XDG_CONFIG_HOME")
    )
    return [directory, use_git, __version__, env]


def _cached(file: str, key: list[Any]) -> list[str] | None:
    """The listing in ``file`` when it was made for ``key`` and every recorded stat still
    holds; None otherwise (a missing, corrupt or stale file is a miss)."""
    try:
        with open(file, "rb") as fp:
            blob = jsonfast.loads(fp.read())
        if not (isinstance(blob, dict) and blob.get("format") == FORMAT and blob.get("key") == key):
            return None
        base, hooks, folders, files = blob["base"], blob["hooks"], blob["folders"], blob["files"]
        stats = _folder_stats(base, folders.split("\0"))
        if _digest([base, hooks, folders, files], stats, _files_stats(files.split("\0"))) != blob["digest"]:
            return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return hooks.split("\0") if hooks else []


def _folder_stats(base: str, folders: list[str]) -> list[int]:
    """(inode, mtime, ctime) of each folder (``lstat``), flattened; raises OSError."""
    prefix = base.rstrip("/") + "/"
    stats: list[int] = []
    add = stats.extend
    for st in map(os.lstat, [prefix + rel if rel else base for rel in folders]):
        add((st.st_ino, st.st_mtime_ns, st.st_ctime_ns))
    return stats


def _files_stats(files: list[str]) -> list[int]:
    stats: list[int] = []
    for path in files:
        stats.extend(_file_stat(path))
    return stats


def _digest(texts: list[str], folder_stats: list[int], file_stats: list[int]) -> str:
    """SHA-1 of the listing's texts and of the stats as 64-bit integers: a listing whose
    text was altered is not trusted either, and a 5,000-folder tree's stats, ~300 KB as
    JSON numbers, are 20 bytes."""
    from array import array

    try:
        from _sha1 import sha1  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        from hashlib import sha1

    digest = sha1()
    for text in texts:
        digest.update(text.encode("utf-8", "surrogateescape") + b"\0\0")
    digest.update(array("q", [len(folder_stats), *folder_stats, *file_stats]).tobytes())
    return digest.hexdigest()


def _file_stat(path: str) -> tuple[int, int, int, int]:
    """(inode, size, mtime, ctime) of what ``path`` names (links followed, as git reads
    its files), or all -1 when nothing is there."""
    try:
        st = os.stat(path)
    except OSError:
        return _ABSENT
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _list(
    directory: str, use_git: bool, meanwhile: Callable[[], None] | None
) -> tuple[list[str], dict[str, Any] | None]:
    """(hooks, what to record about them) — the record is None when the listing must not
    be saved. In git the walk runs in a thread while git lists (it waits in system
    calls; git runs in its own process), so a miss costs little more than git alone."""
    from . import discover

    started = time.time_ns()
    if not use_git:
        if meanwhile is not None:
            meanwhile()
        walked = _walk(directory, set(), MAX_FOLDERS)
        if not isinstance(walked, tuple):  # the walker reports what it cannot read (MH030)
            return discover.find_hooks(directory, use_git=False), None
        folders, folder_stats, watched, hooks = walked
        return sorted(hooks), _record(started, folders, folder_stats, watched)
    import threading

    walks: list[Any] = []
    walker = threading.Thread(
        target=lambda: walks.append(_walk(directory, set(), UNPRUNED_FOLDERS)), daemon=True
    )
    walker.start()
    context = _GitContext(directory)
    seen: set[str] = set()
    try:
        listed = discover._git_list(directory, meanwhile, seen)
    finally:
        walker.join()
    if listed is None:
        return discover.find_hooks(directory, use_git=False), None
    files = context.files()
    walked = walks[0] if walks else None
    if files is not None and walked == _MANY:
        # many folders (or one unreadable): skip what git ignores, e.g. node_modules
        ignored = context.ignored()
        walked = None if ignored is None else _walk(directory, ignored, MAX_FOLDERS)
    if files is None or not isinstance(walked, tuple):
        return listed, None
    folders, folder_stats, watched, _ = walked
    # folders git shows a file in that the walk skipped (tracked files in ignored folders)
    visited = {os.path.join(directory, rel) if rel else directory for rel in folders}
    files += [folder for folder in sorted(seen) if folder not in visited]
    return listed, _record(started, folders, folder_stats, files + watched)


def _record(
    started: int, folders: list[str], folder_stats: list[int], files: list[str]
) -> dict[str, Any] | None:
    files = list(dict.fromkeys(files))
    file_stats = _files_stats(files)
    recent = started - cache.RACY_NS
    # folder stats are (inode, mtime, ctime); file stats (inode, size, mtime, ctime)
    changed = [*folder_stats[1::3], *folder_stats[2::3], *file_stats[2::4], *file_stats[3::4]]
    if any(value > recent for value in changed) or any("\0" in path for path in files):
        return None
    return {
        "folders": "\0".join(folders),
        "files": "\0".join(files),
        "folder_stats": folder_stats,
        "file_stats": file_stats,
    }


def _walk(
    directory: str, ignored: set[str], limit: int
) -> tuple[list[str], list[int], list[str], list[str]] | str | None:
    """Every folder below ``directory`` (inclusive) except ``.git`` and ``ignored``
    (absolute paths), never through a symlink: (relative names, their stats flattened,
    files to watch in them, entries named like a hook). Files watched: ``.gitignore``, and
    a nested repository's ``.git`` and ``.git/HEAD`` (whether git descends there). None
    when something cannot be read, :data:`_MANY` when there are more than ``limit``
    folders."""
    folders: list[str] = []
    stats: list[int] = []
    watched: list[str] = []
    hooks: list[str] = []
    pending = [(directory, "")]
    scandir, lstat, isdir = os.scandir, os.lstat, stat.S_ISDIR
    try:
        while pending:
            path, rel = pending.pop()
            st = lstat(path)
            if not isdir(st.st_mode):
                return None
            if len(folders) >= limit:
                return _MANY
            folders.append(rel)
            stats += (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
            with scandir(path) as entries:
                for entry in entries:
                    name = entry.name
                    if name == ".git":
                        if rel:
                            watched += (entry.path, entry.path + "/HEAD")
                        continue
                    if name == ".gitignore":
                        watched.append(entry.path)
                    elif name == HOOK_NAME:
                        hooks.append(entry.path)
                    if entry.is_dir(follow_symlinks=False) and entry.path not in ignored:
                        pending.append((entry.path, f"{rel}/{name}" if rel else name))
    except OSError:
        return None
    return folders, stats, watched, hooks


class _GitContext:
    """The git facts a listing depends on besides the tree: two small git calls started
    next to the listing, read by :meth:`files`; :meth:`ignored` asks for one more."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.calls = [
            self._start(["rev-parse", "--path-format=absolute", "--show-toplevel",
                         "--git-dir", "--git-common-dir", "--git-path", "index",
                         "--git-path", "info/exclude"]),
            self._start(["config", "-z", "--list", "--show-origin"]),
        ]  # fmt: skip

    def _start(self, argv: list[str]) -> Any:
        import subprocess

        try:
            return subprocess.Popen(
                ["git", *argv], cwd=self.directory, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            return None

    @staticmethod
    def _output(process: Any) -> str | None:
        import subprocess

        if process is None:
            return None
        try:
            stdout, _ = process.communicate(timeout=30)
        except subprocess.SubprocessError:
            process.kill()
            process.communicate()
            return None
        return stdout.decode("utf-8", "surrogateescape") if process.returncode == 0 else None

    def ignored(self) -> set[str] | None:
        """Absolute paths of the folders git ignores as a whole, or None."""
        out = self._output(
            self._start(["-c", "core.quotepath=off", "ls-files", "-z", "--others",
                         "--ignored", "--exclude-standard", "--directory"])
        )  # fmt: skip
        if out is None:
            return None
        return {
            os.path.normpath(os.path.join(self.directory, name))
            for name in out.split("\0")
            if name.endswith("/")
        }

    def files(self) -> list[str] | None:
        """The files (and folders above the listed one) whose stats the listing depends
        on besides the walked folders, or None when that cannot be known."""
        paths_out, config_out = (self._output(process) for process in self.calls)
        if paths_out is None or config_out is None:
            return None
        paths = paths_out.split("\n")
        if len(paths) < 5:
            return None
        top, git_dir, common_dir, index, exclude = paths[:5]
        files = [index, exclude]
        excludes_file = None
        entries = config_out.split("\0")
        for origin, entry in zip(entries[0::2], entries[1::2]):
            if not origin.startswith("file:"):
                return None  # blobs, stdin, `git -c` in GIT_CONFIG_PARAMETERS: no file to check
            files.append(os.path.join(self.directory, origin[5:]))
            name, _, value = entry.partition("\n")
            if name.lower() == "core.excludesfile":
                excludes_file = os.path.expanduser(value)
        home = os.environ.get("HOME") or os.path.expanduser("~")
        config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        if excludes_file is None:
            excludes_file = os.path.join(config_home, "git", "ignore")
        files.append(os.path.join(self.directory, excludes_file))
        # where a configuration file could appear (absent ones are recorded as absent)
        files += [
            os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig",
            os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"),
            os.path.join(config_home, "git", "config"),
            os.path.join(common_dir, "config"),
            os.path.join(git_dir, "config.worktree"),
        ]
        # folders from the top level down to the listed one: their .gitignore files
        # apply too, and a new one there changes the folder
        here = os.path.normpath(self.directory)
        top = os.path.normpath(top)
        while here != top and here.startswith(top.rstrip("/") + "/"):
            here = os.path.dirname(here)
            files += [here, os.path.join(here, ".gitignore")]
        return files


def _save(file: str, blob: dict[str, Any]) -> None:
    """Write ``blob`` atomically; failures are ignored (a cache)."""
    tmp = f"{file}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(file), exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as fp:
            fp.write(jsonfast.dumps(blob, separators=(",", ":")))
        os.replace(tmp, file)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass

