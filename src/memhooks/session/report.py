"""What reached the agent, per session: the delivery log of the state file as plain data,
for ``memhooks sessions`` (issue 12 item 10). Bounded and expiring with the sessions
themselves (:data:`memhooks.session.state.MAX_DELIVERIES`, :data:`~.state.IDLE_S`).
Reading never creates the state file."""

from __future__ import annotations

import os
import time

from ..fast.jsonfast import loads
from .claims import peek
from .record import ANONYMOUS_IDLE_S
from .snapshot import claims_paths
from .state import IDLE_S, State

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


_SESSION_COLUMNS = "key, host, session, anonymous, root, started, updated, epoch, ended"
#: Seconds without a hook call after which a session that the host did not end is shown
#: as ``idle`` rather than ``open`` (issue 22 item 4: sessions stayed "open" forever). The
#: anonymous sessions' rule (:data:`memhooks.session.record.ANONYMOUS_IDLE_S`): a host that
#: names no session starts a new one then. A named session that calls again (``claude
#: --resume``) is open again; one idle for :data:`memhooks.session.state.IDLE_S` is forgotten.
IDLE_AFTER_S = ANONYMOUS_IDLE_S


def open_existing(path: str) -> State | None:
    """The state file at ``path``, or None when there is none yet."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return None
    return State(path)


def sessions(
    state: State, *, root: str | None = None, limit: int = 50, now: float | None = None
) -> list[dict[str, Any]]:
    """Sessions, most recently active first (``root``: only that project's), each with
    ``host``, ``session``, ``anonymous``, ``root``, ``started``/``updated``/``ended``
    (seconds since the epoch; ``ended`` None unless the host ended it), ``status``
    (:func:`status` at ``now``, default the clock), ``expires`` (when it is forgotten),
    ``epoch`` (compactions), ``deliveries`` and ``chars`` (characters delivered in all)."""
    where, params = ("WHERE s.root = ?", (root,)) if root else ("", ())
    rows = state.read(
        f"SELECT {', '.join('s.' + c.strip() for c in _SESSION_COLUMNS.split(','))},"
        " count(d.id), coalesce(sum(d.chars), 0) FROM sessions s"
        f" LEFT JOIN deliveries d ON d.key = s.key AND d.until IS NULL {where}"
        " GROUP BY s.key ORDER BY s.updated DESC LIMIT ?",
        (*params, limit),
    )
    found = []
    for row in rows:
        counted = {"deliveries": row[9], "chars": row[10]}
        if _journal(state, row[0]):  # a pre-tool edit's deliveries may not be folded in yet
            every = deliveries(state, str(row[0]))
            counted = {"deliveries": len(every), "chars": sum(d["chars"] for d in every)}
        found.append(_session(row[:9], now) | counted)
    return found


def find(
    state: State, ident: str, host: str | None = None, now: float | None = None
) -> list[dict[str, Any]]:
    """Sessions whose id is ``ident`` or starts with it (of ``host`` only, when given),
    shaped as :func:`sessions` gives them (without the delivery totals)."""
    like = ident.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    sql = f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE session LIKE ? ESCAPE '\\'"
    params: tuple[object, ...] = (like,)
    if host:
        sql += " AND host = ?"
        params += (host,)
    rows = state.read(sql + " ORDER BY updated DESC LIMIT 20", params)
    exact = [r for r in rows if r[2] == ident]
    return [_session(r, now) for r in (exact or rows)]


def deliveries(state: State, key: str) -> list[dict[str, Any]]:
    """Each delivery of the session ``key``, oldest first: ``at`` (seconds since the
    epoch), ``epoch``, ``event`` (the host's event), ``target`` (root-relative folder,
    or file), ``chars`` and ``items`` (``{"item", "words", "cue"}``: a memory id, a
    ``guidance:<hook>`` key or the unavailability notice, its first words, the query
    that recalled it). Only deliveries that stand: one a hook call still holds may yet be
    dropped at its deadline (:mod:`memhooks.session.record`) — those a pre-tool edit
    confirmed in the session's claim journal included (:func:`unfolded`)."""
    more, confirmed = unfolded(state, key)
    held = ", ".join("?" * len(confirmed))
    rows = state.read(
        "SELECT at, epoch, native_event, target, chars, items FROM deliveries"
        f" WHERE key = ? AND (until IS NULL OR until IN ({held})) ORDER BY id",
        (key, *confirmed),
    )
    return [
        {
            "at": at,
            "epoch": epoch,
            "event": event,
            "target": target,
            "chars": chars,
            "items": loads(str(items)),
        }
        for at, epoch, event, target, chars, items in rows
    ] + more


def unfolded(state: State, key: str) -> tuple[list[dict[str, Any]], list[float]]:
    """What session ``key``'s claim journal (:mod:`.claims`) holds that no write of the
    state file folded in yet: the deliveries pre-tool edits claimed and confirmed there
    (shaped as :func:`deliveries` gives them, oldest first), and the holds confirmed
    there of claims already folded (their rows still held in the state file)."""
    if state.path == ":memory:" or "\x1f" in key:  # an anonymous session has no journal
        return [], []
    journal = claims_paths(os.path.dirname(state.path), key)[0]
    if not os.path.exists(journal):
        return [], []
    row = state.read("SELECT value FROM meta WHERE key = ?", ("claims:" + key,))
    found = peek(journal, str(row[0][0]) if row else None)
    if found is None:
        return [], []
    records = found[1]
    confirmed = [float(r["ok"]) for r in records if "ok" in r]
    claims = [r for r in records if "ok" not in r]
    return [
        {"at": r["at"], "epoch": r["e"], "event": r["n"], "target": r["t"], "chars": r["c"],
         "items": r["i"]}
        for r in claims
        if r.get("u") in confirmed
    ], [u for u in confirmed if u not in {r.get("u") for r in claims}]  # fmt: skip


def _journal(state: State, key: object) -> bool:
    """Whether session ``key`` has a claim journal (:func:`unfolded` may add to it)."""
    if state.path == ":memory:" or "\x1f" in str(key):
        return False
    return os.path.exists(claims_paths(os.path.dirname(state.path), str(key))[0])


def status(ended: object, updated: object, now: float) -> str:
    """``ended`` (the host said so), ``idle`` (no hook call for :data:`IDLE_AFTER_S`) or
    ``open``."""
    if ended is not None:
        return "ended"
    if isinstance(updated, (int, float)) and now - updated >= IDLE_AFTER_S:
        return "idle"
    return "open"


def _session(row: tuple[object, ...], now: float | None) -> dict[str, Any]:
    key, host, session, anonymous, root, started, updated, epoch, ended = row
    now = time.time() if now is None else now
    return {
        "key": key,
        "host": host,
        "session": session,
        "anonymous": bool(anonymous),
        "root": root,
        "started": started,
        "updated": updated,
        "ended": ended,
        "status": status(ended, updated, now),
        "expires": updated + IDLE_S if isinstance(updated, (int, float)) else None,
        "epoch": epoch,
    }
