"""The ledger's rows in the state file that a delivery writes (:mod:`.state`'s
``deliveries`` and ``delivered``): one home for both doors that write them — a hook
call's :class:`memhooks.session.record.Session`, and a pre-tool edit's claim folded in
from the session's journal (:func:`memhooks.session.mirror.fold`)."""

from __future__ import annotations

from ..fast.jsonfast import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3


def log_delivery(
    conn: sqlite3.Connection,
    key: str,
    epoch: int,
    at: float,
    native_event: str,
    target: str,
    chars: int,
    items: list[dict[str, object]],
    until: float | None,
    tool: bool,
    now: float,
) -> None:
    """Log one delivery of session ``key`` and claim its ``items`` in the ledger, held
    ``until`` (None: standing), in the write on ``conn`` — :meth:`Session.record`'s and
    a pre-tool edit's claim folded in from the journal (:func:`memhooks.session.mirror.fold`).
    An item's row that stands, or that another call still holds, is never replaced (only
    a hold that lapsed is): the caller checked the ledger when it made the claim."""
    cursor = conn.execute(
        "INSERT INTO deliveries (key, epoch, at, native_event, target, chars, items, until,"
        " tool) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (key, epoch, at, native_event, target, chars, dumps(items), until, int(tool)),
    )
    conn.executemany(
        "INSERT INTO delivered (key, epoch, item, delivery, until) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (key, epoch, item) DO UPDATE SET delivery = excluded.delivery,"
        " until = excluded.until WHERE delivered.until IS NOT NULL AND delivered.until <= ?",
        [(key, epoch, str(i["item"]), cursor.lastrowid, until, now) for i in items],
    )


def stand(conn: sqlite3.Connection, key: str, hold: float, tables: tuple[str, ...]) -> int:
    """Make session ``key``'s rows of ``tables`` held until ``hold`` stand (their call's
    reply went out); returns how many rows of the last table changed."""
    changed = 0
    for table in tables:
        changed = conn.execute(
            f"UPDATE {table} SET until = NULL WHERE key = ? AND until = ?", (key, hold)
        ).rowcount
    return changed
