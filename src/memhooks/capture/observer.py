"""``observe(event)``: the one entry point from a hook event to captured memories.

Order of work, cheapest first, so that an agent pays for capture only when it is on:

1. events that never capture (``pre_tool``, ``post_tool``, unknown) return at once;
2. the settings file (:mod:`.settings`); when nothing is on anywhere, return — no
   project lookup, no database;
3. the project of the event's folder; capture off there → return;
4. one write transaction on the capture marks in the store, inside one on the state file
   (the session's capture record: :mod:`memhooks.session.capture_record`): the event's
   detector (:mod:`.detectors`) updates the session's record and proposes candidates,
   the filters (:mod:`.filters`) drop the short, cooled-down and duplicate ones, and a
   mark is written for each kept one;
5. each kept memory is added to the store (one small insert). Nothing heavier ever
   runs here: stale sessions, pruning and the duplicate sweep wait for
   ``memhooks capture process``;
6. at ``pre_compact`` and ``session_end``, the session's own transcript is imported
   into anchored pieces, once (:mod:`memhooks.transcripts.ending`).
"""

from __future__ import annotations

import time
from os import environ

from ..agents.folder import named_folder
from ..errors import DiagnosticError
from ..session import State, open_session
from ..session.location import state_path
from ..store import MemoryStore
from ..store.connection import BUSY_TIMEOUT, connect, write
from ..workspace import locate
from . import settings
from .admission import admit, upgrade, write_memory
from .detectors import detector
from .filters import DEFAULT
from .observation import Observation

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from typing_extensions import TypedDict, Unpack

    from ..agents.base import NormalizedEvent
    from ..session import Session
    from ..workspace import Workspace
    from .candidate import Candidate
    from .filters import Policy

    class Options(TypedDict, total=False):
        """What a caller of :func:`observe` may decide (see there)."""

        store_path: str | None
        now: float | None
        cwd: str | None
        timeout_s: float | None
        policy: Policy | None
        settings_path: str | None
        session: Session | None


#: Normalized events that may capture (the keys of ``detectors.BY_EVENT``, checked by a
#: test), spelled out here so that the hook checks them before importing anything.
EVENTS = frozenset(
    (
        "session_start",
        "user_prompt",
        "post_edit",
        "post_command",
        "pre_compact",
        "post_compact",
        "stop",
        "session_end",
    )
)


class Captured:
    """What one observation did: ``ids`` written, ``dropped`` as ``(kind, reason, text)``
    (reason: ``short``, ``cooldown``, ``duplicate``), ``project`` (None when capture
    was off or the event had no folder), ``pieces`` (conversation pieces of the session's
    transcript added or updated at its end or compaction)."""

    __slots__ = ("dropped", "ids", "pieces", "project", "written")

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.pieces = 0
        self.dropped: list[tuple[str, str, str]] = []
        self.written: list[Candidate] = []
        self.project: str | None = None


def observe(event: NormalizedEvent, **options: Unpack[Options]) -> list[str]:
    """Capture what ``event`` teaches, if capture is on for its project; return the ids
    of the memories written (``[]`` when capture is off, or everything was filtered).

    ``options`` (:class:`Options`, each optional): ``store_path``: the embedded store
    (default: ``MEMHOOKS_STORE``, else the user data directory); ``now``: seconds since
    the epoch (default: the clock); ``cwd``: the working folder the caller decided (the
    hook: its call's folder; default: the folder the event names,
    :func:`memhooks.agents.folder.named_folder`); ``timeout_s``: longest wait for the
    store's write lock; ``policy``: filter values (default :data:`.filters.DEFAULT`);
    ``settings_path``: the on/off file (default :func:`memhooks.capture.config_path`);
    ``session``: the event's session (the hook's call has it open; default: opened in
    the state file, :func:`memhooks.session.open_session`), whose capture record the
    event updates.

    Raises :class:`~memhooks.errors.StoreError` when the store cannot be written; an
    event whose folder is missing or outside any project captures nothing.
    """
    return record(event, **options).ids


def record(
    event: NormalizedEvent,
    *,
    store_path: str | None = None,
    now: float | None = None,
    cwd: str | None = None,
    timeout_s: float | None = None,
    policy: Policy | None = None,
    settings_path: str | None = None,
    session: Session | None = None,
) -> Captured:
    """:func:`observe` with the full :class:`Captured` (used by tests and the benchmark)."""
    outcome = Captured()
    if event.event not in EVENTS:
        return outcome

    config = settings.load(settings_path)
    if not settings.anything_on(config):
        return outcome
    where = _workspace(event, cwd)
    if where is None or not settings.effective(config, where.project, where.aliases)[0]:
        return outcome
    outcome.project = where.project
    started = time.monotonic()
    now = time.time() if now is None else now
    if session is not None:
        _capture(event, where, outcome, store_path, now, timeout_s, policy, session)
    else:
        state = State(state_path())
        try:
            own = open_session(state, event.host, event.session_id, where.root)
            _capture(event, where, outcome, store_path, now, timeout_s, policy, own)
        finally:
            state.close()
    if event.event in ("pre_compact", "session_end"):
        left = None if timeout_s is None else timeout_s - (time.monotonic() - started)
        outcome.pieces = _transcript(event, where, store_path, left)
    if outcome.ids or outcome.pieces:
        from ..backends.embedded import REFRESH_S, refresh

        left = REFRESH_S if timeout_s is None else timeout_s - (time.monotonic() - started)
        if left > 0:
            refresh(store_path, budget_s=min(REFRESH_S, left))
    return outcome


def _transcript(
    event: NormalizedEvent, where: Workspace, store_path: str | None, left_s: float | None
) -> int:
    """Import the session's transcript (:func:`memhooks.transcripts.ending.import_ended`);
    return how many pieces were added or updated."""
    from ..transcripts.ending import import_ended

    timeout = BUSY_TIMEOUT if left_s is None else max(0.01, left_s)
    with MemoryStore(store_path, timeout=timeout) as store:
        report = import_ended(event, store, where, environ, left_s)
    return 0 if report is None else report.added + report.updated


def _workspace(event: NormalizedEvent, cwd: str | None) -> Workspace | None:

    try:
        return locate(cwd if cwd else named_folder(event))
    except (DiagnosticError, OSError):
        return None


def _capture(
    event: NormalizedEvent,
    where: Workspace,
    outcome: Captured,
    store_path: str | None,
    now: float,
    timeout_s: float | None,
    policy: Policy | None,
    session: Session,
) -> None:

    timeout = BUSY_TIMEOUT if timeout_s is None else max(0.01, timeout_s)
    with MemoryStore(store_path, timeout=timeout, clock=lambda: now) as store:
        conn = connect(store.path, create=False, timeout=timeout)
        try:
            # The store's write inside the state file's: the marks and the session's
            # record change together (a busy store rolls both back and retries).
            kept = session.state.write(
                lambda ledger: write(
                    conn,
                    store.path,
                    timeout,
                    lambda c: _decide(
                        c, ledger, session, event, where, now, policy or DEFAULT, outcome
                    ),
                )
            )
        finally:
            conn.close()
        for memory_id, candidate, older in kept:
            write_memory(
                store, where.project, memory_id, candidate, older, event.host, event.session_id, now
            )
            outcome.ids.append(memory_id)
            outcome.written.append(candidate)


def _decide(
    conn: sqlite3.Connection,
    ledger: sqlite3.Connection,
    session: Session,
    event: NormalizedEvent,
    where: Workspace,
    now: float,
    policy: Policy,
    outcome: Captured,
) -> list[tuple[str, Candidate, list[str]]]:
    # Runs inside the write transactions, maybe more than once (after a busy rollback):
    # everything it changes is in the databases or rebuilt from them on each run.

    outcome.dropped = []
    upgrade(conn, ledger)
    record = session.captured(ledger, where.project, where.scope, now)
    record.updated = now
    obs = Observation(event, where, conn, ledger, record, now)
    kept: list[tuple[str, Candidate, list[str]]] = []
    for candidate in detector(str(event.event))(obs):
        reason, memory_id, older = admit(conn, ledger, where.project, candidate, now, policy)
        if reason is not None:
            outcome.dropped.append((candidate.kind, reason, candidate.text))
            continue
        kept.append((memory_id, candidate, older))
    record.save(ledger)
    return kept
