"""Settled writes: a Write its folder's generated cue already lists, decided by a few
``lstat`` calls and a lookup instead of a maintenance run (issue 14).

The agent hook asks :func:`memhooks.maintain.events.maintain` (``dry``) whether a write
in a served folder changes a hook. When the answer is "no", that run also writes down
what the answer rested on (its ``learned`` record, filled by :func:`learn_root` and
:func:`learn_folder`), and the hook keeps it next to the session snapshot
(:func:`save`). A later write in that folder is settled by :func:`covers` alone while
all of it still holds:

* the settings maintenance reads (``MEMHOOKS_AUTO_PATHS``, ``MEMHOOKS_ANCHOR``, ``HOME``,
  an unset ``MEMHOOKS_ROOT``) are what they were, and the working folder is the same;
* the root is still that working folder's git root (:func:`memhooks.protocol.root.find_root`'s
  first rule: no ``.git`` entry from the working folder up to below the root, one at
  the root), and the root hook's ``lstat`` (mode, device, inode, size, mtime, ctime) is
  the one that was validated;
* the folder's hook has the ``lstat`` it had when its data was read, so its text is the
  text that was judged;
* every file its generated cues name is still a regular file in the folder, and the file
  written (canonicalized) is one the folder's cue lists.

Then pruning and upserting would leave the hook as it is (:func:`.generated.unchanged`),
so nothing is written, locked or journalled. Anything else — another folder, a hook or
root hook touched in any way (even ``touch``), a listed file gone or turned into a
symlink, a cue naming files elsewhere, the ``nearest`` anchor, a root found another way
than by git, a hook modified within the parsed-hook cache's racy window — gets no record
or fails the check, and the write takes the whole way. A record can only be stale in a
way these checks see, so it is never trusted past a change.

Only ``os``, ``stat`` and :mod:`memhooks.filestate` are imported here: this is the hook's
hot path.
"""

from __future__ import annotations

import os
import stat

from ..filestate import key, racy, unchanged

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ..protocol.root import Target

#: The record's format. Bump it with :data:`CACHE_FORMAT` whenever what a hook yields
#: (its validity, its generated cues) changes: a record outlives the process.
VERSION = 4
#: :data:`memhooks.protocol.cache.FORMAT` when :data:`VERSION` was last bumped (a test
#: holds them equal, so a parser change that re-reads hooks also drops every record).
CACHE_FORMAT = 7
#: Most folders kept per session (the oldest are dropped first).
MAX_FOLDERS = 256


def covers(record_path: str, paths: Iterable[str], cwd: str | None, env: Mapping[str, str]) -> bool:
    """True when the record at ``record_path`` vouches that writing ``paths`` (absolute,
    or relative to ``cwd``: the event's working folder, which must be the record's)
    changes no hook — see the module docstring. False means "ask maintenance", never
    "something is wrong". Never raises."""
    from .. import __version__, cachefile
    from ..fast.jsonfast import loads

    try:
        record = loads(cachefile.read(record_path))
        if not isinstance(record, dict):
            return False
        if record.get("v") != VERSION or record.get("memhooks") != __version__:
            return False
        work, root, folders = record["work"], record["root"], record["folders"]
        if cwd != work or any(env.get(k) != v for k, v in record["settings"].items()):
            return False
        if not _git_root(work, root) or not unchanged(record["root_hook"], record["root_key"]):
            return False
        checked: set[str] = set()
        count = 0
        for path in paths:
            count += 1
            real = os.path.realpath(os.path.join(work, path), strict=True)
            if not stat.S_ISREG(os.lstat(real).st_mode):
                return False
            folder, name = os.path.split(real)
            fact = folders.get(folder)
            if fact is None or name not in fact["listed"]:
                return False
            if folder in checked:
                continue
            if not unchanged(fact["hook"], fact["key"]):
                return False
            for named in fact["named"]:
                if not stat.S_ISREG(os.lstat(os.path.join(folder, named)).st_mode):
                    return False
            checked.add(folder)
        return count > 0
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def _git_root(work: str, root: str) -> bool:
    """``root`` is still the git root found from ``work`` (``find_root``'s first rule,
    for a ``work`` at or below ``root`` whose names were canonical when recorded)."""
    from ..git import is_top
    from ..paths import is_within

    return is_within(work, root) and is_top(root, work)


def learn_root(
    learned: dict[str, Any],
    where: Target,
    work: str,
    root_st: os.stat_result | None,
    settings: Mapping[str, str | None],
) -> bool:
    """Start a record for the working folder ``work`` whose root ``where`` maintenance
    resolved (``root_st``: the root hook's ``lstat`` before it was validated;
    ``settings``: the environment maintenance read). False, and nothing recorded, unless
    the root was found by git from a canonical ``work`` and its hook is there and not
    modified within the racy window: nothing else is re-checked by stat alone."""
    from ..protocol import HOOK_NAME
    from ..protocol.root import REASON_GIT

    if where.reason != REASON_GIT or work != where.directory:
        return False
    if root_st is None or racy(root_st):
        return False
    from .. import __version__

    learned.update(
        v=VERSION,
        memhooks=__version__,
        work=work,
        root=where.root,
        root_hook=os.path.join(where.root, HOOK_NAME),
        root_key=list(key(root_st)),  # as JSON gives it back (save compares them)
        settings=dict(settings),
        folders={},
    )
    return True


def learn_folder(
    learned: dict[str, Any],
    hook: str,
    st: os.stat_result,
    data: dict[str, Any],
    cues: list[tuple[str, list[str]]],
    max_paths: int,
) -> None:
    """Add the folder of ``hook`` to a record :func:`learn_root` started, once
    maintenance found that ``cues`` (its one folder as the cue names it, the files to
    add) would not change the hook (``st``: its ``lstat`` before ``data``, its plain
    data, was read). Nothing is added when the record was not started, the hook is
    racy, its generated cues name a file outside the folder (checking those would take
    more than a stat), or a write of some file its cue lists would still change it."""
    if "folders" not in learned or len(cues) != 1 or not cues[0][1] or racy(st):
        return
    from .generated import file_name, find_auto, is_auto, unchanged

    directory_rel = cues[0][0]
    prefix = "" if directory_rel == "." else directory_rel + "/"
    queries = data.get("recall_queries") or []
    autos = [query for query in queries if isinstance(query, dict) and is_auto(query)]
    named = set()
    for query in autos:
        for resource in query.get("resources") or []:
            name = file_name(resource)
            if name is None:
                continue
            if not name.startswith(prefix) or "/" in name[len(prefix) :]:
                return
            named.add(name[len(prefix) :])
    cue = find_auto(autos, directory_rel)
    if cue is None:
        return
    listed = sorted({name for name in map(file_name, cue.get("resources") or []) if name})
    # the caller's run saw every named file exist; what is left to hold for any listed file
    if not unchanged(data, [(directory_rel, listed)], lambda _name: True, max_paths):
        return
    learned["folders"][os.path.dirname(hook)] = {
        "hook": hook,
        "key": list(key(st)),
        "listed": [name[len(prefix) :] for name in listed],
        "named": sorted(named),
    }


def save(record_path: str, learned: Mapping[str, Any]) -> None:
    """Keep the folders of ``learned`` in the record at ``record_path``, with the ones
    already there that rest on the same working folder, root, root hook and settings
    (written whole: :mod:`memhooks.cachefile`). Never raises: a record that cannot be
    written only makes the next write slower."""
    if not learned.get("folders"):
        return
    from .. import cachefile
    from ..fast.jsonfast import dumps, loads

    folders: dict[str, Any] = {}
    try:
        old = loads(cachefile.read(record_path))
        header = ("v", "memhooks", "work", "root", "root_hook", "root_key", "settings")
        if isinstance(old, dict) and all(old.get(k) == learned.get(k) for k in header):
            folders.update(old["folders"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    for folder, fact in learned["folders"].items():
        folders.pop(folder, None)  # the newest last: the oldest are dropped first
        folders[folder] = fact
    kept = list(folders.items())[-MAX_FOLDERS:]
    cachefile.write(record_path, dumps({**learned, "folders": dict(kept)}), mode=0o700)
