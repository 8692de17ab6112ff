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

A pre-tool edit (a host with a pre-tool channel) is asked of the snapshot by
:mod:`.edits` (the owners of the lines it replaces all told, :mod:`memhooks.hook.told`,
and the code's names could find nothing in the store the call selects).

Only ``os`` is imported here (and :mod:`memhooks.fast.jsonfast` to read the snapshot,
:mod:`.keys` for the ledger's spelling).
"""

from __future__ import annotations

import os

from .. import cachefile
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
            name += cachefile.key_name(session_id)
    base = os.path.join(state_dir, "sessions", name)
    return base + ".json", base + ".log"


def claims_paths(state_dir: str, session_id: str) -> tuple[str, str]:
    """The session's claim journal and ledger mirror (:mod:`.claims`) by its snapshot."""
    base = _paths(state_dir, "", session_id)[0][: -len(".json")]
    return base + ".claims", base + ".ledger"


def cues_path(state_dir: str, host: str, session_id: str) -> str:
    """What the session's settled writes rest on (:mod:`memhooks.maintain.settled`)."""
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
    """Write the snapshot of a session. ``full``: no read can add anything (what reads
    may spend of its tool-time ceiling is spent, or the host has no tool-time channel;
    an edit of ``edits`` goes the whole way all the same); ``folders``:
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
        if cachefile.read(snapshot) == body.encode("utf-8"):
            return  # unchanged (most prompts): no write
    except OSError:
        pass

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
    reads: Callable[[], Iterable[tuple[str, list[tuple[int, int]] | None]]] | None = None,
    edit: bool = False,
) -> bool:
    """True when every ``(path, kind)`` touched (absolute, or relative to ``cwd``; kind
    ``file`` or ``folder``) lies inside the session's root and was served — and, while
    line-level recall is on, every read ``reads()`` gives (``(path, ranges)``: the lines a
    read tool or a shell read named; ``[]`` the whole file, ``None`` lines not known; asked
    only then, so a call with line-level recall off loads no reader of tool input) was
    handled before (the same lines) and ``edit`` (the call reports an edit) is not one a host
    without a pre-tool channel is told about — then the touches are logged and nothing
    else is to be done. False sends the call the whole way. Never raises."""
    data = load(state_dir, host, session_id, env)
    if data is None:
        return False
    try:
        root = data["root"]
        served = set(data["served"])
        full = bool(data["full"])
        folders = not full and bool(data["folders"])
        told = not full and bool(data["reads"])
        if not isinstance(root, str) or (edit and data["edits"]):
            return False
    except (ValueError, KeyError, TypeError):
        return False
    for path, ranges in reads() if told and reads is not None else ():
        if ranges is None:
            return False  # which lines: the whole way reads the command
        if not os.path.isabs(path):
            if not cwd or not os.path.isabs(cwd):
                return False
            path = os.path.join(cwd, path)
        rel = inside(path, root)
        spans = ranges or [(1, keys.WHOLE)]
        if rel and any(keys.lines(rel, a, b) not in served for a, b in spans):
            return False  # lines the session did not read yet
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


def load(
    state_dir: str, host: str, session_id: str, env: Mapping[str, str]
) -> dict[str, Any] | None:
    """The session's snapshot, or None (none, unreadable, another version, or an explicit
    root: then the real resolution decides)."""
    if env.get("MEMHOOKS_ROOT"):
        return None
    snapshot, _log = _paths(state_dir, host, session_id)
    try:
        from ..fast.jsonfast import loads

        data = loads(cachefile.read(snapshot))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        return None
    return data


def carried(
    state_dir: str, host: str, session_id: str, env: Mapping[str, str]
) -> tuple[list[object] | None, bool, list[object] | None]:
    """``(store, names, quiet)`` as the session's snapshot has them (:func:`memhooks.session.edits.store_fields`),
    unchecked — a pre-tool edit checks them; ``(None, True, None)`` when it has none."""
    data = load(state_dir, host, session_id, env)
    if data is None:
        return None, True, None
    store, names, quiet = data.get("store"), data.get("names"), data.get("quiet")
    if not isinstance(store, list) or not isinstance(names, bool):
        return None, True, None
    return store, names, quiet if isinstance(quiet, list) else None


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
        rows = cachefile.read(taken).decode("utf-8", "surrogateescape").splitlines()
        rows = rows[-MAX_LOG_LINES:]
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
