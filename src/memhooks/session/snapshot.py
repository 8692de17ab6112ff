"""The hot path of tool events: answer "nothing new here" without SQLite.

A hook process runs on every tool call. Most tool events land in a folder the session
was already given recall for; for those the answer is the host's no-op, and the only
work is to note the touch in the working set. Opening the state file for that costs more
than the whole rest of the call (``import sqlite3`` alone is about a third of a bare
interpreter's start, measured in ``bench/bench_hook.py``), so every hook call that did
open the session leaves a *snapshot* next to the state file — the session's root, epoch
and served targets, a few hundred bytes of JSON written atomically — and a tool event
first asks it (:func:`settled`). When the snapshot says everything the event touched
was served, the touches are appended to the session's *touch log* (one line each,
``O_APPEND``) and the call ends; the next call that opens the session folds the log into
the working set (:func:`take_touches`). Anything the snapshot cannot vouch for — no
snapshot, another root, a file with memories of its own not yet served, a path outside
the root — goes the whole way.

Line-level recall (:mod:`memhooks.hook.lines`) tells the owners of each file the agent
reads, once per file: while it is on (``reads``), a read of a file the session has not
been told about (no ``lines:<path>`` among the served targets, :mod:`.keys`) goes the
whole way, even in a served folder; a read of one it was told about settles here. For a
host that hears about an edit only after it (no pre-tool channel, ``edits``), every edit
goes the whole way: the owners of the lines it replaced are told then.

A pre-tool edit (a host with a pre-tool channel) settles here when the owners of the
lines it replaces were all told (:func:`edit_settled`, :mod:`memhooks.hook.told`) and
the code's names could find nothing: no store, or a store found to hold only commits'
memories and unchanged since (``quiet``: :func:`store_state`, :func:`still`).

Only ``os`` is imported here (and :mod:`memhooks.fast.jsonfast` to read the snapshot,
:mod:`.keys` for the ledger's spelling).
"""

from __future__ import annotations

import os

from ..fast.jsonfast import dumps
from ..paths import inside
from . import keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

VERSION = 5  # 3: told (commits told), names (a store the symbol cue searches); 4: quiet;
# 5: store (what chose the memory store, and its file: store_choice)
#: Most touch-log lines folded at once (a runaway log is cut, oldest first).
MAX_LOG_LINES = 4096


def _paths(state_dir: str, host: str, session_id: str) -> tuple[str, str]:
    del host  # sessions are keyed by their id alone (memhooks.session.record)
    # The file name is the id itself where it is plain (hosts send UUIDs), else its
    # characters' code points: never a path separator, never a dot file. (No hashlib:
    # it costs a quarter of a bare interpreter's start on this path.)
    if session_id.replace("-", "").isalnum() and session_id.isascii() and len(session_id) <= 80:
        name = session_id
    else:
        name = "x" + "".join(f"{ord(c):x}." for c in session_id[:40])
        if len(session_id) > 40:  # a file name has room for so much; the rest, hashed
            from ..cachefile import key_name

            name += key_name(session_id)
    base = os.path.join(state_dir, "sessions", name)
    return base + ".json", base + ".log"


def cues_path(state_dir: str, host: str, session_id: str) -> str:
    """Where the session keeps what its settled writes rest on
    (:mod:`memhooks.maintain.settled`): next to its snapshot, ``<session>.cues``."""
    snapshot, _log = _paths(state_dir, host, session_id)
    return snapshot[: -len(".json")] + ".cues"


def save(
    state_dir: str,
    host: str,
    session_id: str,
    *,
    root: str,
    epoch: int,
    served: Iterable[str],
    full: bool,
    folders: bool = True,
    reads: bool = False,
    edits: bool = False,
    told: Iterable[str] = (),
    names: bool = False,
    quiet: list[object] | None = None,
    store: list[object] | None = None,
    prompt: str | None = None,
) -> None:
    """Write the snapshot of a session. ``full``: no tool event can add anything (its
    tool-time ceiling is spent, or the host has no tool-time channel); ``folders``:
    tool-time recall is on (a folder not served goes the whole way); ``reads``:
    line-level recall tells the files read (:func:`.keys.lines`); ``edits``: it tells edits
    after they are made (every edit goes the whole way); ``told``: full hashes of the
    commits told whose ledger rows stand (:func:`edit_settled`); ``names``: a store the
    symbol cue could search (a pre-tool edit then goes the whole way, unless ``quiet``:
    that store as it was when found to hold nothing the cue tells, :func:`store_state`);
    ``store``: the memory store the call selected (:func:`store_choice`; None: not known,
    a pre-tool edit goes the whole way); ``prompt``: the session's latest (the project's first commit is told when it answers
    it)."""
    snapshot, _log = _paths(state_dir, host, session_id)

    body = dumps(
        {"v": VERSION, "root": root, "epoch": epoch, "full": full, "folders": folders,
         "reads": reads, "edits": edits, "served": sorted(served), "told": sorted(told),
         "names": names, "quiet": quiet, "store": store, "prompt": prompt}
    )  # fmt: skip
    try:
        with open(snapshot, encoding="utf-8") as fp:
            if fp.read() == body:
                return  # unchanged (most prompts): no write
    except OSError:
        pass
    from .. import cachefile

    if not cachefile.write(snapshot, body, mode=0o700):
        # An old snapshot must not outlive this one (it may hold another epoch's served
        # folders): without one the next tool event takes the whole way, slower, never wrong.
        try:
            os.unlink(snapshot)
        except OSError:
            pass


def settled(
    state_dir: str,
    host: str,
    session_id: str,
    cwd: str | None,
    touched: Iterable[tuple[str, str]],
    env: Mapping[str, str],
    *,
    reads: Iterable[str] = (),
    edit: bool = False,
) -> bool:
    """True when every ``(path, kind)`` touched (absolute, or relative to ``cwd``; kind
    ``file`` or ``folder``) lies inside the session's root and was served — and, while
    line-level recall is on, every file of ``reads`` (the files a read tool or a shell
    read named) was told about and ``edit`` (the call reports an edit) is not one a host
    without a pre-tool channel is told about — then the touches are logged and nothing
    else is to be done. False sends the call the whole way. Never raises."""
    data = _load(state_dir, host, session_id, env)
    if data is None:
        return False
    try:
        root = data["root"]
        served = set(data["served"])
        full = bool(data["full"])
        folders = not full and bool(data["folders"])
        told = not full and bool(data["reads"])
        if not isinstance(root, str) or (edit and not full and data["edits"]):
            return False
    except (ValueError, KeyError, TypeError):
        return False
    for path in reads if told else ():
        if not os.path.isabs(path):
            if not cwd or not os.path.isabs(cwd):
                return False
            path = os.path.join(cwd, path)
        rel = inside(path, root)
        if rel and keys.lines(rel) not in served:
            return False  # a file the session was not told about yet
    lines = []
    log = _paths(state_dir, host, session_id)[1]
    for path, kind in touched:
        if not os.path.isabs(path):
            if not cwd or not os.path.isabs(cwd):
                return False
            path = os.path.join(cwd, path)
        rel = inside(path, root)
        if not rel:
            return False  # outside the root, or the root itself: the whole way
        if kind == "folder":
            folder = rel
        else:
            folder = rel.rpartition("/")[0]
            if keys.unread_anchor(served, rel) and folders:
                return False
        if folder not in served and folders:
            return False
        lines.append(f"{rel}\t{kind}\n")
    if not lines:
        return True  # nothing touched (a shell command naming no path): nothing to do
    try:
        fd = os.open(
            log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600
        )
        try:
            os.write(fd, "".join(lines).encode("utf-8", "surrogateescape"))
        finally:
            os.close(fd)
    except OSError:
        return False
    return True


def edit_settled(
    state_dir: str,
    host: str,
    session_id: str,
    env: Mapping[str, str],
    sure: Callable[[str, frozenset[str], str | None], bool],
) -> bool:
    """True when a pre-tool edit needs nothing: line-level recall is on for a host with a
    pre-tool channel, the call selects the store the snapshot's call did
    (:func:`store_choice`: the same variables, the same configuration file), the code's
    names could find nothing there (no store, and still none; or a store that held
    nothing the symbol cue tells and has not changed since: :func:`still`), and
    ``sure(root, told, prompt)`` (:func:`memhooks.hook.told.all_told`) finds every owner
    of the lines it replaces among the commits told. False sends the call the whole way.
    Never raises."""
    data = _load(state_dir, host, session_id, env)
    if data is None:
        return False
    try:
        root = data["root"]
        if not isinstance(root, str) or not data["reads"] or data["edits"]:
            return False
        path = _chosen(data["store"], env)
        if path is False:
            return False  # another store, or a configuration that may choose one
        if data["names"]:
            quiet = data["quiet"]
            if path is None or not still(quiet) or quiet[0] != path:
                return False
        elif path is None or os.path.lexists(path):
            return False  # a store made since (the first 'memhooks remember')
        told = frozenset(data["told"])
        prompt = data["prompt"]
        if prompt is not None and not isinstance(prompt, str):
            return False
    except (ValueError, KeyError, TypeError):
        return False
    return bool(told) and sure(root, told, prompt)


#: The variables that choose the memory store and its file
#: (:func:`memhooks.backends.registry.selected_store`, :mod:`memhooks.backends.config`,
#: :mod:`memhooks.dirs`): a call where one differs may select another store.
STORE_VARS = (
    "MEMHOOKS_BACKEND",
    "MEMHOOKS_STORE",
    "MEMHOOKS_EMBEDDED_PATH",
    "MEMHOOKS_CONFIG",
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
)


def store_choice(env: Mapping[str, str], config: str, store: str | None) -> list[object]:
    """What a snapshot keeps of the memory store a call selects, so that a later call
    settles an edit only on the same one (review F2): ``[the values of STORE_VARS in
    env, the configuration file config, its key (None: there is none), the real path of
    the embedded store's file store (None: another backend)]``."""
    path = None if store is None else os.path.realpath(store)
    return [[env.get(name) for name in STORE_VARS], config, _key_of(config), path]


def _chosen(choice: object, env: Mapping[str, str]) -> str | None | bool:
    """The embedded store's real path :func:`store_choice` kept (None: another
    backend) while ``env`` and the configuration file choose as they did; else False."""
    if not isinstance(choice, list) or len(choice) != 4:
        return False
    names, config, known, path = choice
    if names != [env.get(name) for name in STORE_VARS] or not isinstance(config, str):
        return False
    if _key_of(config) != known or not (path is None or isinstance(path, str)):
        return False
    return path


def _key_of(path: str) -> list[int] | None:
    """The key of the file ``path`` names, links followed (a configuration file kept in
    a dotfiles folder): None when there is none."""
    from ..filestate import key

    try:
        return list(key(os.stat(path)))
    except (OSError, ValueError):
        return None


def store_state(store: str) -> list[object] | None:
    """The state of the embedded store at ``store`` (its file) a snapshot's ``quiet`` keeps
    once the store was found to hold nothing the symbol cue tells
    (:func:`memhooks.hook.told.quiet_store`): ``[store, its key]``
    (:func:`memhooks.filestate.key`). Take it *before* the store is asked. None when there
    is no store, its key is too recent to trust (a write in the same clock tick could keep
    it: :data:`memhooks.filestate.RACY_NS`), or its write-ahead log holds anything — a
    commit there has not reached the file yet (each connection makes and removes an empty
    log: only its size says something; https://sqlite.org/wal.html)."""
    from ..filestate import key, racy

    store = os.path.realpath(store)  # a store reached by a symlink: the database's own
    try:  # state, and its log beside it (lstat of the link never changes)
        st = os.lstat(store)
    except OSError:
        return None
    if racy(st) or _logged(store):
        return None
    return [store, list(key(st))]


def carried(
    state_dir: str, host: str, session_id: str, env: Mapping[str, str]
) -> tuple[list[object] | None, bool, list[object] | None]:
    """``(store, names, quiet)`` as the session's snapshot has them (:func:`store_fields`),
    unchecked — a pre-tool edit checks them; ``(None, True, None)`` when it has none."""
    data = _load(state_dir, host, session_id, env)
    if data is None:
        return None, True, None
    store, names, quiet = data.get("store"), data.get("names"), data.get("quiet")
    if not isinstance(store, list) or not isinstance(names, bool):
        return None, True, None
    return store, names, quiet if isinstance(quiet, list) else None


def store_fields(
    state_dir: str,
    host: str,
    session_id: str,
    env: Mapping[str, str],
    root: str,
    choose: Callable[[], tuple[str, str | None] | None],
    ask: Callable[[], list[object] | None] | None,
) -> tuple[list[object] | None, bool, list[object] | None]:
    """``(store, names, quiet)`` for the session's next snapshot (:func:`save`).

    ``store``: the memory store the call selects (:func:`store_choice`): the previous
    snapshot's while the variables and the configuration file choose as they did, else
    from ``choose()`` — ``(configuration file, embedded store file or None)``, None when
    it cannot say (then an edit goes the whole way). ``names``: a store the symbol cue
    could search (another backend, or the embedded store's file exists). ``quiet``
    (:func:`store_state`), for that store only: the session's own, carried as it is (the
    edit asks :func:`still`; a call that opened the store checks it first); else another
    session's of the project at ``root`` on the same store (``sessions/_quiet.json``, so
    a new session need not ask the store again); else ``ask()``
    (:func:`memhooks.hook.told.quiet_store`; None: the call did not open the store),
    kept for the next sessions. None: the store may hold something the symbol cue
    tells."""
    data = _load(state_dir, host, session_id, env) or {}
    store = data.get("store")
    if _chosen(store, env) is False:
        chosen = choose()
        if chosen is None:
            return None, True, None
        store = store_choice(env, *chosen)
    assert isinstance(store, list)
    path = store[3]
    if not isinstance(path, str):
        return store, True, None  # another backend: the whole way searches it
    if not os.path.lexists(path):
        return store, False, None  # no store (yet): nothing to search
    found = data.get("quiet")
    if isinstance(found, list) and found[:1] == [path] and (ask is None or still(found)):
        return store, True, found
    shared = os.path.join(state_dir, "sessions", "_quiet.json")  # no session's file name
    try:
        from ..fast.jsonfast import loads

        with open(shared, "rb") as fp:
            known = loads(fp.read())
    except (OSError, ValueError):
        known = None
    if not isinstance(known, dict):
        known = {}
    where = f"{root}\n{path}"  # what one store holds says nothing of another's
    found = known.get(where)
    if still(found) and isinstance(found, list) and found[0] == path:
        return store, True, found
    found = ask() if ask is not None else None
    if found is None or found[0] != path:
        return store, True, None
    from .. import cachefile

    known = {k: q for k, q in known.items() if still(q)}  # stores since changed: dropped
    known[where] = found
    cachefile.write(shared, dumps(known), mode=0o700)
    return store, True, found


def still(quiet: object) -> bool:
    """Whether the store a snapshot's ``quiet`` (:func:`store_state`) names is as it was."""
    if not isinstance(quiet, list) or len(quiet) != 2 or not isinstance(quiet[0], str):
        return False
    from ..filestate import unchanged

    return unchanged(quiet[0], quiet[1]) and not _logged(quiet[0])


def _logged(store: str) -> bool:
    """Whether the write-ahead log of ``store`` holds anything (or cannot be read)."""
    try:
        return os.lstat(store + "-wal").st_size > 0
    except FileNotFoundError:
        return False
    except OSError:
        return True


def _load(
    state_dir: str, host: str, session_id: str, env: Mapping[str, str]
) -> dict[str, Any] | None:
    """The session's snapshot, or None (none, unreadable, another version, or an explicit
    root: then the real resolution decides)."""
    if env.get("MEMHOOKS_ROOT"):
        return None
    snapshot, _log = _paths(state_dir, host, session_id)
    try:
        from ..fast.jsonfast import loads

        with open(snapshot, "rb") as fp:
            data = loads(fp.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        return None
    return data


#: Characters that make a shell command's words more than whitespace-separated paths.
_SHELL_SYNTAX = frozenset("'\"\\$`*?[]{}~<>()")


def command_paths(command: str, cwd: str | None) -> list[tuple[str, str]] | None:
    """The existing paths among ``command``'s plain words (``sed -n 1,80p a/b.py``), or
    None when the command needs a real shell-word reading (quotes, variables, globs,
    ``cd``: :func:`memhooks.session.mentions.in_command` then)."""
    if (
        not cwd
        or not os.path.isabs(cwd)
        or len(command) > 2000
        or _SHELL_SYNTAX.intersection(command)
    ):
        return None
    out: list[tuple[str, str]] = []
    for word in (
        command.replace("&&", " ")
        .replace("||", " ")
        .replace(";", " ")
        .replace("|", " ")
        .split()[:64]
    ):
        if word == "cd":
            return None
        if word.startswith("-"):
            continue
        path = os.path.join(cwd, word)
        if os.path.isdir(path):
            out.append((path, "folder"))
        elif os.path.isfile(path):
            out.append((path, "file"))
    return out


def take_touches(state_dir: str, host: str, session_id: str) -> list[tuple[str, str]]:
    """The ``(root-relative path, kind)`` lines logged since the last call, oldest first;
    the log is emptied. Never raises."""
    _snapshot, log = _paths(state_dir, host, session_id)
    taken = f"{log}.{os.getpid()}"
    try:
        os.replace(log, taken)  # appends racing with us land in a new log
    except OSError:
        return []
    try:
        with open(taken, encoding="utf-8", errors="surrogateescape") as fp:
            rows = fp.read().splitlines()[-MAX_LOG_LINES:]
    except OSError:
        rows = []
    finally:
        try:
            os.unlink(taken)
        except OSError:
            pass
    out = []
    for row in rows:
        path, _tab, kind = row.partition("\t")
        if kind in ("file", "folder"):
            out.append((path, kind))
    return out
