"""One host session's working set and delivery ledger, read from and written to the state
file (:mod:`.state`).

A session is the host's own session id (``session_id``, Cursor ``conversation_id``,
Cline ``taskId``, Windsurf ``trajectory_id``, OpenCode ``sessionID`` …, normalized into
``NormalizedEvent.session_id``; ids are UUID-like, so the id alone is the key: the same
session seen through two hosts' hook entries — Copilot CLI runs Claude Code's — shares
one ledger). A host that sends none
(Kiro CLI v2, a bare ``memhooks hook`` call) gets one *anonymous* session per host and
project root, which ends after :data:`ANONYMOUS_IDLE_S` without a hook call.

The ledger is per *epoch*: a compaction (the host dropped earlier context) starts a new
epoch, so what the model no longer has can be delivered again.

A hook call's ledger rows are *held* until its reply is sure to go out
(:attr:`Session.hold_until`): claimed targets, deliveries and delivered items are written
at once, so a parallel hook call of the session does not serve them again, but they
stand only once :meth:`Session.confirm` runs — after the call won the output from its
deadline (:func:`memhooks.hook.handler.handle`). A call whose reply was dropped (the
deadline answered with a no-op, the process was killed) leaves rows that lapse at
``hold_until``: what it would have delivered comes again, never recorded as given.

Over 300 lines on purpose: :class:`Session` is one noun — its row, working set, ledger
and capture's record — whose writes share the hold-and-confirm bookkeeping above, and
:func:`open_session` is how every hook call gets one: moving it to a module of its own
would add a module to every hook call's import set (``tests/hook/test_import_sets.py``).
"""

from __future__ import annotations

from . import keys
from .rows import log_delivery, stand

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Iterable
    from typing import TypeVar

    from .capture_record import CaptureRecord
    from .state import State

    T = TypeVar("T")

#: Seconds without a hook call after which an anonymous session ends: 30 minutes.
ANONYMOUS_IDLE_S = 1800.0
#: Characters of the latest prompt kept (it becomes the query of tool-time recall).
MAX_PROMPT = 4000
#: Most times :meth:`Session.record_made` makes an answer parallel hook calls overtake.
MAKES = 3
#: The rows of the ledger tables that count: standing, or held by a call that may still
#: confirm them (parameter: now, :attr:`State.clock`).
_LIVE = "(until IS NULL OR until > ?)"
FILE = "file"
FOLDER = "folder"


class Session:
    """One session's row; the working set and ledger are read when first asked for."""

    __slots__ = (
        "_held",
        "_holds",
        "_ledger",
        "_mine",
        "_served",
        "anonymous",
        "epoch",
        "hold_until",
        "host",
        "id",
        "key",
        "mirror",
        "pending_chars",
        "prompt",
        "root",
        "started",
        "state",
        "tool_chars",
    )

    def __init__(self, state: State, key: str, host: str, session_id: str, root: str) -> None:
        self.state = state
        self.key = key
        self.host = host
        self.id = session_id
        self.root = root
        self.anonymous = False
        self.epoch = 0
        self.prompt: str | None = None
        self.tool_chars = 0
        #: When the session was first seen (:attr:`State.clock`, seconds).
        self.started = 0.0
        #: Wall-clock second (:attr:`State.clock`) until which this call's ledger rows are
        #: held for :meth:`confirm`; None: they stand as written (callers outside the hook).
        self.hold_until: float | None = None
        #: Tool-time characters of held deliveries, added to the row by :meth:`confirm`.
        self.pending_chars = 0
        self._ledger: set[str] | None = None
        self._served: set[str] | None = None
        self._held: set[str] = set()  # served targets other calls hold (not standing yet)
        self._mine: set[str] = set()  # served targets this call holds until it confirms
        self._holds = False  # this call wrote held rows that confirm() has not confirmed
        #: ``(journal, mirror)`` when the ledger has a claim journal (:mod:`.claims`): its
        #: writes fold the journal in first and leave the mirror (:meth:`_write`).
        self.mirror: tuple[str, str] | None = None

    # -- the working set -------------------------------------------------------------

    def touch(self, entries: Iterable[tuple[str, str, str]]) -> None:
        """Record ``(root-relative path, kind, how)`` entries (``kind``: :data:`FILE` or
        :data:`FOLDER`; ``how``: read, edit, search, command, prompt) as touched now; the
        oldest beyond :data:`~.state.MAX_TOUCHES` are dropped."""
        rows = list(dict.fromkeys(entries))
        if not rows:
            return
        now = self.state.clock()
        self.state.write(lambda conn: self._touch(conn, rows, now))

    def _touch(
        self, conn: sqlite3.Connection, rows: list[tuple[str, str, str]], now: float
    ) -> None:
        from .state import MAX_TOUCHES

        # Later entries of one event count as more recent (a read order is kept).
        conn.executemany(
            "INSERT OR REPLACE INTO touches (key, path, kind, how, at) VALUES (?, ?, ?, ?, ?)",
            [(self.key, p, k, h, now + i * 1e-6) for i, (p, k, h) in enumerate(rows)],
        )
        conn.execute(
            "DELETE FROM touches WHERE key = ? AND path NOT IN (SELECT path FROM touches"
            " WHERE key = ? ORDER BY at DESC LIMIT ?)",
            (self.key, self.key, MAX_TOUCHES),
        )

    def recent(self, limit: int = 16) -> list[tuple[str, str]]:
        """``(path, kind)`` of the working set, most recent first."""
        rows = self.state.read(
            "SELECT path, kind FROM touches WHERE key = ? ORDER BY at DESC LIMIT ?",
            (self.key, limit),
        )
        return [(str(p), str(k)) for p, k in rows]

    def recent_folders(self, limit: int = 4) -> list[str]:
        """Root-relative folders the session touched (a file counts for its folder), most
        recent first, at most ``limit``."""
        out: list[str] = []
        for path, kind in self.recent(limit=64):
            folder = path if kind == FOLDER else path.rpartition("/")[0]
            if folder not in out:
                out.append(folder)
            if len(out) >= limit:
                break
        return out

    # -- the ledger --------------------------------------------------------------------

    def delivered(self) -> set[str]:
        """Items (memory ids, ``guidance:<source>`` keys) delivered in this epoch."""
        if self._ledger is None:
            rows = self.state.read(
                f"SELECT item FROM delivered WHERE key = ? AND epoch = ? AND {_LIVE}",
                (self.key, self.epoch, self.state.clock()),
            )
            self._ledger = {str(item) for (item,) in rows}
        return self._ledger

    def told(self) -> set[str]:
        """Full hashes of the commits line-level recall told in this epoch whose rows
        stand (no hook call holds them): what a snapshot may settle a pre-tool edit by
        (:mod:`memhooks.hook.told`)."""
        rows = self.state.read(
            "SELECT item FROM delivered WHERE key = ? AND epoch = ? AND until IS NULL"
            " AND item LIKE ?",
            (self.key, self.epoch, keys.COMMIT + "%"),
        )
        return keys.of(keys.COMMIT, {str(item) for (item,) in rows})

    def served(self) -> set[str]:
        """Targets (root-relative folders, ``file:<path>`` for files) given tool-time
        recall in this epoch, or being given it by a parallel hook call (held)."""
        if self._served is None:
            rows = self.state.read(
                f"SELECT target, until FROM served WHERE key = ? AND epoch = ? AND {_LIVE}",
                (self.key, self.epoch, self.state.clock()),
            )
            self._served = {str(t) for t, _ in rows}
            self._held = {str(t) for t, until in rows if until is not None}
        return self._served

    def settled(self) -> set[str]:
        """The :meth:`served` targets that stand: none another call still holds, and this
        call's own only once confirmed (what a snapshot may settle later calls by)."""
        return self.served() - self._held - self._mine

    def settled_in(self, epoch: int) -> set[str]:
        """The served targets of ``epoch`` (any, not only :attr:`epoch`) that stand: no
        hook call holds them — :meth:`settled` read from the state file, for an epoch
        this call did not serve in (:mod:`memhooks.hook.compaction` reads the one a
        compaction ended)."""
        rows = self.state.read(
            "SELECT target FROM served WHERE key = ? AND epoch = ? AND until IS NULL",
            (self.key, epoch),
        )
        return {str(target) for (target,) in rows}

    def marked_epochs(self, target: str) -> set[int]:
        """The epochs in which ``target`` stands served (a mark such as
        :data:`memhooks.session.keys.COMPACTED`: which epochs a compaction event began)."""
        rows = self.state.read(
            "SELECT epoch FROM served WHERE key = ? AND target = ? AND until IS NULL",
            (self.key, target),
        )
        return {int(str(epoch)) for (epoch,) in rows}

    def claim(
        self, targets: Iterable[str], *, touches: Iterable[tuple[str, str, str]] = ()
    ) -> list[str]:
        """Mark ``targets`` served in this epoch; returns those no other hook call of the
        session claimed first (hosts run hooks for parallel tool calls at once: only one
        of two parallel reads in a new folder gives its recall). ``touches`` are recorded
        in the same write (:meth:`touch`)."""
        now = self.state.clock()
        wanted = list(dict.fromkeys(targets))
        rows = list(dict.fromkeys(touches))

        def work(conn: sqlite3.Connection) -> list[str]:
            if rows:
                self._touch(conn, rows, now)
            return [target for target in wanted if self._serve(conn, target, now)]

        won = self.state.write(work) if wanted or rows else []
        self.served().update(wanted)
        self._held.update(set(wanted) - set(won))  # another call's: it may not stand yet
        if self.hold_until is not None and won:
            self._mine.update(won)
            self._holds = True
        return won

    def _serve(self, conn: sqlite3.Connection, target: str, now: float) -> bool:
        """Mark ``target`` served (held while :attr:`hold_until` is set); True unless
        another call's row for it stands or is still held."""
        cursor = conn.execute(
            "INSERT INTO served (key, epoch, target, at, until) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (key, epoch, target) DO UPDATE SET at = excluded.at,"
            " until = excluded.until WHERE served.until IS NOT NULL AND served.until <= ?",
            (self.key, self.epoch, target, now, self.hold_until, now),
        )
        return bool(cursor.rowcount)

    def release(self, targets: Iterable[str]) -> None:
        """Give back ``targets`` claimed by :meth:`claim` when their recall could not run
        (an error, an unavailable backend): a later tool event there tries again."""
        gone = list(dict.fromkeys(targets))
        if not gone:
            return
        self.state.write(
            lambda conn: conn.executemany(
                "DELETE FROM served WHERE key = ? AND epoch = ? AND target = ?",
                [(self.key, self.epoch, t) for t in gone],
            )
        )
        self.served().difference_update(gone)
        self._mine.difference_update(gone)

    def record(
        self,
        native_event: str,
        target: str,
        items: list[dict[str, object]],
        size: Callable[[set[str]], int],
        *,
        tool_time: bool = False,
        serve: Iterable[str] = (),
        ceiling: int | None = None,
    ) -> set[str]:
        """Claim ``items`` (``{"item": memory id or guidance key, "words": first words,
        "cue": the recall query}``) in the ledger and log one delivery for ``target``
        through ``native_event``. Returns the items claimed: those no other hook call of
        the session delivered first. ``size(claimed)`` gives the characters of what is
        then delivered (counted against the tool-time ceiling when ``tool_time``);
        ``serve``: targets to mark served in the same write (:meth:`claim`). While
        :attr:`hold_until` is set, all of it is held until :meth:`confirm`.
        ``ceiling``: characters the session's tool-time deliveries may reach with this
        one (:meth:`_spent`, checked in the same write): the last items are left out,
        unclaimed, until it fits (an item and those ``"of"`` it go together)."""

        def told(taken: set[str], room: int | None) -> tuple[int, list[dict[str, object]]]:
            claimed = {str(i["item"]) for i in items} - taken
            chars = size(claimed) if claimed else 0
            if room is not None and chars > room:
                claimed, chars = _fitted(items, claimed, size, room)
            return chars, [i for i in items if i["item"] in claimed]

        if not items and not serve:
            return set()
        limit = ceiling if tool_time else None
        return self._log(native_event, target, told, tool_time, serve, limit) or set()

    def record_made(
        self,
        native_event: str,
        target: str,
        answer: Callable[[set[str], int | None], tuple[int, list[dict[str, object]]]],
        *,
        tool_time: bool = False,
        ceiling: int | None = None,
    ) -> set[str]:
        """Log one delivery of an answer that may have to be made again: ``answer(taken,
        room)`` gets the items the session holds — delivered, or held by a parallel hook
        call — and returns (characters, the items it tells, shaped as :meth:`record`'s),
        none of ``taken``, in at most ``room`` characters (None: the caller's own
        budget). It is made outside the write (it may run git: the state file's write
        lock is held for SQL alone), first with the ledger this call read; the write then
        claims every item it tells only when none was taken since and, with
        ``ceiling`` (tool time), when it fits what the session's tool-time deliveries
        may still use (:meth:`_spent`, read in the same write) — else nothing is written
        and it is made again from what stands then, at most :data:`MAKES` times — so a
        parallel call tells what it would have told after the other (the room freed
        brings the next owners; the room taken, fewer), what is claimed is told, and what
        is not told stays unclaimed. Returns the items claimed (none when every try was
        overtaken)."""
        taken = set(self.delivered())
        room: int | None = None
        limit = ceiling if tool_time else None
        for _ in range(MAKES):
            made = answer(taken, room)
            if not made[1]:
                return set()
            seen: set[str] = set()
            left: list[int] = []
            check = _unless_taken(made, seen, left)
            claimed = self._log(native_event, target, check, tool_time, (), limit)
            if claimed is not None:
                return claimed
            taken = seen  # what stood at the write: made again from it
            room = left[0] if left else None
        return set()

    def _log(
        self,
        native_event: str,
        target: str,
        answer: Callable[[set[str], int | None], tuple[int, list[dict[str, object]]] | None],
        tool_time: bool,
        serve: Iterable[str],
        ceiling: int | None = None,
    ) -> set[str] | None:
        """The write of :meth:`record` and :meth:`record_made`: ``answer(taken, room)``,
        asked inside it, must be SQL-free and quick; None leaves the write without a row.
        ``room``: what ``ceiling`` leaves the session's tool-time deliveries, read in
        this write (None without one): charged and checked in one step, so parallel hook
        calls of the session cannot each spend the same room."""
        from .state import MAX_DELIVERIES

        now = self.state.clock()
        serving = list(dict.fromkeys(serve))
        hold = self.hold_until
        spent: list[int] = []

        def work(conn: sqlite3.Connection) -> tuple[set[str] | None, set[str], int, list[str]]:
            marked = [t for t in serving if self._serve(conn, t, now)]
            taken = {
                str(i)
                for (i,) in conn.execute(
                    f"SELECT item FROM delivered WHERE key = ? AND epoch = ? AND {_LIVE}",
                    (self.key, self.epoch, now),
                )
            }
            room = None
            if ceiling is not None:
                spent[:] = [self._spent(conn, now)]
                room = ceiling - spent[0]
            told = answer(taken, room)
            if told is None:
                return None, taken, 0, marked
            chars, logged = told
            claimed = {str(i["item"]) for i in logged} - taken
            if not claimed:
                return claimed, taken, 0, marked
            logged = [i for i in logged if str(i["item"]) in claimed]
            log_delivery(conn, self.key, self.epoch, now, native_event, target, chars, logged,
                         hold, tool_time, now)  # fmt: skip
            conn.execute(
                "DELETE FROM deliveries WHERE key = ? AND id NOT IN (SELECT id FROM deliveries"
                " WHERE key = ? ORDER BY id DESC LIMIT ?)",
                (self.key, self.key, MAX_DELIVERIES),
            )
            if tool_time and hold is None:
                conn.execute(
                    "UPDATE sessions SET tool_chars = tool_chars + ?, updated = ? WHERE key = ?",
                    (chars, now, self.key),
                )
            return claimed, taken, chars, marked

        claimed, taken, chars, marked = self._write(work, now)
        self.served().update(serving)
        self._held.update(set(serving) - set(marked))
        # what stands now: what other calls hold, and what this one claimed (an item it
        # did not tell stays unclaimed, for a later call to tell)
        self.delivered().update(taken | (claimed or set()))
        if claimed is None:
            return None
        if hold is not None and (claimed or marked):
            self._mine.update(marked)
            self._holds = True
        if tool_time:
            # what the session spent as this write read it (parallel calls' held
            # deliveries, this call's own included), and this delivery
            self.tool_chars = (spent[0] if spent else self.tool_chars) + chars
            if hold is not None:
                self.pending_chars += chars
        return claimed

    def _write(self, work: Callable[[sqlite3.Connection], T], now: float) -> T:
        """``work(conn)`` in one write of the state file that changes the ledger; with a
        claim journal (:attr:`mirror`), what pre-tool edits claimed there is folded in
        first and the mirror left after, the journal locked between (:class:`.claims.Fold`)."""
        paths = self.mirror
        if paths is None:
            return self.state.write(work)
        from .mirror import Fold

        def folded(conn: sqlite3.Connection) -> T:
            with Fold(conn, self.key, paths, self.state.path, now):
                return work(conn)

        return self.state.write(folded)

    def _spent(self, conn: sqlite3.Connection, now: float) -> int:
        """Characters of this epoch's tool-time deliveries: those that stand and those a
        hook call holds (a parallel call's, this call's own), as the write on ``conn``
        reads them — what a ceiling is checked against (:meth:`record`,
        :meth:`record_made`)."""
        row = conn.execute(
            "SELECT tool_chars + (SELECT COALESCE(SUM(chars), 0) FROM deliveries WHERE key = ?"
            " AND epoch = ? AND tool = 1 AND until > ?) FROM sessions WHERE key = ?",
            (self.key, self.epoch, now, self.key),
        ).fetchone()
        return int(row[0]) if row is not None else 0

    @property
    def pending(self) -> bool:
        """Whether this call holds ledger rows not confirmed yet."""
        return self.hold_until is not None and self._holds

    def confirm(self) -> None:
        """Make every row this call holds stand, in one write: its reply goes out
        (module docstring). Nothing to do when it holds none."""
        hold = self.hold_until
        if hold is None or not self._holds:
            return
        chars, now = self.pending_chars, self.state.clock()

        def work(conn: sqlite3.Connection) -> None:
            stand(conn, self.key, hold, ("served", "deliveries", "delivered"))
            if chars:
                conn.execute(
                    "UPDATE sessions SET tool_chars = tool_chars + ?, updated = ? WHERE key = ?",
                    (chars, now, self.key),
                )

        self._write(work, now)
        self._mine.clear()
        self.pending_chars = 0
        self._holds = False

    def compacted(self) -> None:
        """The host compacted its context: a new epoch, an empty ledger."""
        now = self.state.clock()
        self._write(
            lambda conn: conn.execute(
                "UPDATE sessions SET epoch = epoch + 1, tool_chars = 0, updated = ? WHERE key = ?",
                (now, self.key),
            ),
            now,
        )
        self.epoch += 1
        self.tool_chars = 0
        self._ledger, self._served = set(), set()
        self._held, self._mine = set(), set()

    # -- capture's record --------------------------------------------------------------

    def captured(
        self, conn: sqlite3.Connection, project: str, scope: str, now: float
    ) -> CaptureRecord:
        """Capture's record of this session in ``project``
        (:mod:`memhooks.session.capture_record`), new (first event in folder ``scope`` at
        ``now``, capture's clock) when there is none; ``conn``: a write of :attr:`state`.
        The host's own id is kept with it (``""`` for an anonymous session)."""
        from .capture_record import CaptureRecord, load

        found = load(conn, self.key, project)
        if found is not None:
            return found
        own = "" if self.anonymous else self.id
        return CaptureRecord(self.key, project, own, self.host, scope, now, now)

    def ended(self) -> None:
        """The host ended the session (its rows stay for ``memhooks sessions`` until they
        expire)."""
        now = self.state.clock()
        self.state.write(
            lambda conn: conn.execute(
                "UPDATE sessions SET ended = ?, updated = ? WHERE key = ?", (now, now, self.key)
            )
        )


def _unless_taken(
    made: tuple[int, list[dict[str, object]]], seen: set[str], left: list[int]
) -> Callable[[set[str], int | None], tuple[int, list[dict[str, object]]] | None]:
    """The check :meth:`Session.record_made` runs in its write: ``made`` (characters,
    items) when none of its items is taken and it fits the room the session has left
    (None: unchecked), else None, what stands kept in ``seen`` and the room in ``left``."""
    wanted = {str(i["item"]) for i in made[1]}

    def check(taken: set[str], room: int | None) -> tuple[int, list[dict[str, object]]] | None:
        if wanted & taken or (room is not None and made[0] > room):
            seen.update(taken)
            left[:] = [] if room is None else [max(0, room)]
            return None  # overtaken since it was made: taken, or the room spent
        return made

    return check


def _fitted(
    items: list[dict[str, object]], claimed: set[str], size: Callable[[set[str]], int], room: int
) -> tuple[set[str], int]:
    """The first of ``claimed`` (in ``items``' order) whose ``size`` fits ``room``, and
    that size: the last item is left out, with the items ``"of"`` it, until it fits."""
    order = [str(i["item"]) for i in items if str(i["item"]) in claimed]
    of = {str(i["item"]): str(i.get("of") or i["item"]) for i in items}
    kept = set(claimed)
    while order:
        last = of[order[-1]]
        gone = {item for item in order if item == last or of[item] == last}
        order = [item for item in order if item not in gone]
        kept -= gone
        chars = size(kept) if kept else 0
        if chars <= room:
            return kept, chars
    return set(), 0


def open_session(
    state: State,
    host: str,
    session_id: str | None,
    root: str,
    *,
    prompt: str | None = None,
    mirror: tuple[str, str] | None = None,
) -> Session:
    """The session ``session_id`` of ``host`` (created on first use, its ``updated``
    time refreshed); with no id, the anonymous session of ``host`` in ``root``.
    ``prompt``: the user's new prompt, kept as the session's latest in the same write.
    ``mirror``: the session's claim journal and mirror (:attr:`Session.mirror`), folded
    in by the same write: what pre-tool edits claimed is in the state file before the
    call reads it."""
    now = state.clock()
    latest = prompt[:MAX_PROMPT] if prompt and prompt.strip() else None

    def work(conn: sqlite3.Connection) -> tuple[object, ...]:
        state.sweep(conn)
        if session_id:
            # Keyed by the id alone: a host that also runs another host's entries (Copilot
            # reads .claude/settings.json) then shares one ledger, so nothing comes twice.
            key, anonymous, shown = session_id, 0, session_id
        else:
            found = conn.execute(
                "SELECT key, session FROM sessions WHERE host = ? AND root = ? AND anonymous = 1"
                " AND updated >= ? ORDER BY updated DESC LIMIT 1",
                (host, root, now - ANONYMOUS_IDLE_S),
            ).fetchone()
            if found is not None:
                key, shown = str(found[0]), str(found[1])
            else:
                shown = f"anonymous-{int(now)}"
                key = f"{host}\x1f{shown}\x1f{root}"
            anonymous = 1
        conn.execute(
            "INSERT INTO sessions (key, host, session, anonymous, root, started, updated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET updated = excluded.updated, root = excluded.root,"
            " ended = NULL",  # a resumed session (claude --resume keeps its id) is open again
            (key, host, shown, anonymous, root, now, now),
        )
        if latest is not None:
            conn.execute(
                "UPDATE sessions SET prompt = ?, prompt_at = ? WHERE key = ?", (latest, now, key)
            )
        row = conn.execute(
            "SELECT key, session, anonymous, epoch, prompt, tool_chars, started FROM sessions"
            " WHERE key = ?",
            (key,),
        ).fetchone()
        return tuple(row)

    if mirror is not None and session_id:
        from .mirror import Fold

        def folded(conn: sqlite3.Connection) -> tuple[object, ...]:
            with Fold(conn, session_id, mirror, state.path, now, refresh=False):
                return work(conn)

        row = state.write(folded)
    else:
        row = state.write(work)
    key, shown, anonymous, epoch, kept_prompt, tool_chars, started = row
    session = Session(state, str(key), host, str(shown), root)
    session.mirror = mirror if session_id else None
    session.anonymous = bool(anonymous)
    session.epoch = int(epoch)  # type: ignore[call-overload]
    session.prompt = kept_prompt if isinstance(kept_prompt, str) else None
    session.tool_chars = int(tool_chars)  # type: ignore[call-overload]
    session.started = float(started)  # type: ignore[arg-type]
    return session
