"""One hook call: the host, the normalized event, and every per-call fact — folder, root,
files, settings, capture switch, session, backend, deadline — worked out once and passed
to every reaction.

Everything here is computed on first use and then kept, so a reaction that needs the
project root pays for finding it once and a reaction that needs nothing pays nothing
(the tool-event shortcut, :mod:`memhooks.session.fastpath`, reads a few attributes and
no more). Nothing here prints; a problem worth telling the user is added to
:attr:`HookCall.notes` (one stderr line in the end). :meth:`HookCall.close` closes what
the call opened: the backend, the state file.

Over 300 lines on purpose: every hook call, the tool shortcut's included, loads this
module, and every fact here is one lazy attribute of the one call object. What only a
failing call needs (no home folder, an unusable state file) is in
:mod:`memhooks.hook.fallback`, loaded then; the project root's rule is
:func:`memhooks.protocol.root.enabled_root`. Splitting the rest into modules every call
loads would cost each call ~30-60 us of CPU per module for no less work — a small
module's import even from its bytecode (:mod:`memhooks.fast.bytecode`), as
docs/performance.md measures it ("What is left": ``limits`` ~45 us at load 4).
:mod:`memhooks.errors` is imported where an error is raised or caught, not before: its
nine classes cost ~1 M instructions of a call that raises none.
"""

from __future__ import annotations

import os
import time

from ..fast import caught
from .reply import coded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ..agents.base import NormalizedEvent
    from ..agents.delivery import Delivery
    from ..backends.base import Backend
    from ..errors import MemhooksError
    from ..session import Session, State
    from ..session.edit_session import EditSession
    from ..store.project import Identity

#: Time kept back from the work for rendering and writing the response.
MARGIN_S = 0.25
#: Seconds past the deadline a call's held ledger rows wait for :meth:`HookCall.confirm`
#: (the margin, the state file's write wait, one more for a loaded machine).
HOLD_S = MARGIN_S + 2.0 + 1.0
#: The state of a call whose state file cannot be used (:attr:`HookCall.state`).
EPHEMERAL = ":memory:"
#: The folder of this call's state when there is no home to find it in: no file or
#: folder can ever be made below it (every path there fails with ENOTDIR).
NO_FOLDER = os.devnull
#: The code of a note about the memory store or the state file (docs/diagnostics.md).
STORE = "MH037"
#: State files left open for the process exit (:meth:`HookCall.close` with ``exiting``).
_LEFT_OPEN: list[State] = []
#: The share of ``MEMHOOKS_SESSION_MAX_CHARS`` kept for the owners of an edit's lines
#: (:func:`edit_reserve`): a quarter.
RESERVE_SHARE = 4


def edit_reserve(ceiling: int, per_delivery: int) -> int:
    """Characters of the session's tool-time ceiling (``MEMHOOKS_SESSION_MAX_CHARS``)
    that only the owners of the lines an edit replaces may spend — reads, and folders'
    and names' recall, stop short of it: a quarter of it, and never more than one
    delivery (``MEMHOOKS_TOOL_MAX_CHARS``). By default 2,000 of 8,000: one whole edit's
    answer (:data:`memhooks.recall.line_recall.EDIT_OWNERS` owners, each message cut at
    :data:`~memhooks.recall.line_recall.MESSAGE_CHARS`). Without it, five whole-file
    Reads of iproute2 spent 7,911 of the 8,000 and the Edit of ``ip/ipaddress.c`` 1408
    that followed was told nothing of be1bea843234, the commit owning its lines (issue
    20 item 3: an edit's owners are what line-level recall is for)."""
    return min(per_delivery, ceiling // RESERVE_SHARE)


class HookCall:
    """The state of one hook call (see the module docstring).

    ``event`` (:class:`~memhooks.agents.base.NormalizedEvent`), ``host``, ``native``
    (the host's event name), ``delivery`` (the host's reply row for it), ``env``,
    ``deadline`` (monotonic seconds), ``notes``; ``exiting``: the process ends right
    after this call (the hook command), so :meth:`close` leaves the state file open for
    the exit. The rest are worked out on first use.
    """

    __slots__ = (
        "_backend",
        "_backend_opened",
        "_capture",
        "_cli_roles",
        "_edit",
        "_folder",
        "_identity",
        "_root",
        "_session",
        "_snapshot",
        "_state",
        "_state_dir",
        "_store_choice",
        "_store_env",
        "_store_note",
        "_store_ready",
        "deadline",
        "delivery",
        "env",
        "event",
        "exiting",
        "home",
        "homeless",
        "host",
        "native",
        "notes",
        "state_problem",
    )

    def __init__(
        self,
        event: NormalizedEvent,
        env: Mapping[str, str],
        *,
        roles: Iterable[str] = (),
        time_s: float = 3.0,
        exiting: bool = False,
    ) -> None:
        from ..agents.registry import delivery_of

        self.event = event
        self.host = event.host
        self.native = event.native_event
        self.delivery: Delivery = delivery_of(event.host).for_event(event.native_event)
        self.env = env
        self.deadline = time.monotonic() + time_s
        self.notes: list[str] = []
        self.exiting = exiting
        self._cli_roles = tuple(roles)
        self._folder: str | None = None
        self._root: str | None | bool = False  # False: not looked for yet
        self._identity: Identity | None = None
        self._state: State | None = None
        #: Why the state file could not be used (its session is then kept elsewhere:
        #: :meth:`_elsewhere`), or None.
        self.state_problem: str | None = None
        #: What a missing home folder left unfound ("memory store", "session file"):
        #: told in one short line (:meth:`home_note`), not one long note each.
        self.homeless: list[str] = []
        #: (why the home folder is unusable, where the session is kept then): home_note().
        self.home: tuple[str, str | None] = ("", None)
        self._state_dir: str | None = None
        self._session: Session | EditSession | None = None
        self._edit: EditSession | None | bool = None  # None: not asked yet; False: none
        self._snapshot: dict[str, Any] | None | bool = False  # False: not read yet
        self._capture: tuple[str, bool] | None = None
        self._store_ready: bool | None = None
        self._store_choice: tuple[tuple[str, str | None] | None] | None = None
        self._store_note: str | None = None
        self._backend: Backend | MemhooksError | None = None
        self._backend_opened = False
        self._store_env: Mapping[str, str] | None = None

    def remaining(self) -> float:
        """Seconds left for work, the margin for the response kept back."""
        return self.deadline - MARGIN_S - time.monotonic()

    # -- where ----------------------------------------------------------------------

    @property
    def folder(self) -> str:
        """The working folder (:func:`memhooks.agents.folder.working_folder`). Raises
        UsageError when the host named a folder that does not exist."""
        if self._folder is None:
            from ..agents.folder import working_folder

            self._folder = working_folder(self.event, self.env)
        return self._folder

    @property
    def root(self) -> str | None:
        """The canonical root of the enabled project the folder is in, or None when the
        folder is in no project with a root ``MEMHOOKS.md`` (then the hook does nothing:
        a user-level install fires in every folder)."""
        if self._root is False:
            from ..protocol.root import enabled_root

            self._root = enabled_root(self.folder, self.env)
        return self._root  # type: ignore[return-value]

    @property
    def identity(self) -> Identity:
        """The identity of the project at :attr:`root` — the id its memories are stored
        under and the ids it had before (:func:`memhooks.store.identify`: a walk up to
        ``.git``, file reads, once per repository a ``git rev-list``), worked out once a
        call and handed to its recall. Only called once :attr:`root` was found."""
        if self._identity is None:
            from ..store import identify

            assert self.root is not None
            self._identity = identify(self.root)
        return self._identity

    @property
    def project(self) -> str:
        """The id memories of the project at :attr:`root` are stored under
        (:attr:`identity`)."""
        return self.identity.id

    def absolute(self, path: str) -> str:
        """``path`` as the event gave it, made absolute: a host that named no folder in
        its payload gave paths relative to the call's :attr:`folder`."""
        return path if os.path.isabs(path) else os.path.join(self.folder, path)

    def root_path(self, rel: str) -> str:
        """The absolute path of the root-relative ``rel`` (``""``: the root itself; the
        inverse of :meth:`inside`). Only called once :attr:`root` was found."""
        assert self.root is not None
        return os.path.join(self.root, *rel.split("/")) if rel else self.root

    def inside(self, path: str) -> str | None:
        """``path`` relative to the root (``/`` separators, ``""`` for the root) when it
        is inside the canonical root, else None."""
        from ..paths import inside

        root = self.root
        return None if root is None else inside(path, root)

    def files(self, *, reads_only: bool) -> list[str]:
        """Root-relative paths of the event's existing files (and searched folders)
        inside the root: its reads only, or all."""
        from ..agents.base import READ

        out: list[str] = []
        for change in self.event.files:
            if reads_only and change.action != READ:
                continue
            path = self.absolute(change.path)
            rel = self.inside(path)
            if rel is not None and rel not in out and os.path.exists(path):
                out.append(rel)
        return out

    # -- settings -------------------------------------------------------------------

    @property
    def roles(self) -> list[str]:
        """The explicit roles (:func:`memhooks.hook.roles.roles`)."""
        from .roles import roles

        return roles(self._cli_roles, self.event.raw, self.env, self.notes)

    def setting(self, name: str) -> int:
        """Integer setting ``name`` (:mod:`memhooks.settings`): an invalid value is noted
        and the default used (a hook never fails on a setting)."""
        from ..settings import integer

        return integer(name, self.env, self.notes)

    def switch(self, name: str) -> bool:
        """On/off setting ``name`` (:mod:`memhooks.settings`): an invalid value is noted
        and the default used, as :meth:`setting`."""
        from ..settings import switch

        return switch(name, self.env, self.notes)

    def prompt_budget(self) -> int:
        """Characters of prompt-time context: ``MEMHOOKS_MAX_CHARS``, within the host's
        cap."""
        chars = self.setting("MEMHOOKS_MAX_CHARS")
        cap = self.delivery.cap
        return min(chars, cap) if cap else chars

    def tool_ceiling(self, *, edit: bool = False) -> int:
        """Characters the session's tool-time deliveries may reach with the next one:
        ``MEMHOOKS_SESSION_MAX_CHARS``, less the reserve of the owners of an edit's
        lines (:func:`edit_reserve`) unless ``edit`` (the call tells them). Checked in
        the write that records it (:meth:`memhooks.session.record.Session.record`), so
        parallel hook calls of the session cannot each spend the same room."""
        ceiling = self.setting("MEMHOOKS_SESSION_MAX_CHARS")
        if edit:
            return ceiling
        return ceiling - edit_reserve(ceiling, self.setting("MEMHOOKS_TOOL_MAX_CHARS"))

    def tool_budget(self, *, edit: bool = False) -> int:
        """Characters one tool-time delivery may use now: ``MEMHOOKS_TOOL_MAX_CHARS``
        within what :meth:`tool_ceiling` leaves this session (its tool-time deliveries
        so far, as this call last read them) and the host's cap; ``<= 0``: nothing more
        at tool time. Opens the session (:attr:`session`)."""
        left = self.tool_ceiling(edit=edit) - self.session.tool_chars
        budget = min(self.setting("MEMHOOKS_TOOL_MAX_CHARS"), left)
        cap = self.delivery.cap
        return min(budget, cap) if cap else budget

    @property
    def line_recall(self) -> bool:
        """``MEMHOOKS_LINE_RECALL`` (:mod:`memhooks.settings`; default on). Off without a
        usable state file (no ledger to keep a commit from coming again)."""
        # the switch first: turned off, the call opens no state file
        return self.switch("MEMHOOKS_LINE_RECALL") and not self.ledgerless

    @property
    def tool_recall(self) -> bool:
        """``MEMHOOKS_TOOL_RECALL`` (:mod:`memhooks.settings`; an invalid value is noted,
        and on). Off without a usable state file: no ledger would keep each tool event
        from recalling the same memories again (:attr:`ledgerless`)."""
        return not self.ledgerless and self.switch("MEMHOOKS_TOOL_RECALL")

    @property
    def maintain_settings(self) -> dict[str, str]:
        """The environment hook maintenance reads
        (:data:`memhooks.maintain.events.SETTINGS`), as a journal entry keeps it."""
        from ..maintain.events import SETTINGS

        return {k: self.env[k] for k in SETTINGS if k in self.env}

    @property
    def capture_path(self) -> str:
        """The capture switch's file (:func:`memhooks.capture.config_path`)."""
        return self._capture_switch()[0]

    @property
    def capture_on(self) -> bool:
        """Whether the user turned capture on anywhere (the switch file, read once)."""
        return self._capture_switch()[1]

    def _capture_switch(self) -> tuple[str, bool]:
        if self._capture is None:
            from ..capture import config_path

            try:
                path = config_path(self.env)
            except OSError:  # HomeError: no home, no switch file: capture is off (the default)
                self._capture = (NO_FOLDER, False)
                return self._capture
            if not os.path.exists(path):  # never turned on: off, without the switch's reader
                self._capture = (path, False)
                return self._capture
            from ..capture import settings

            self._capture = (path, settings.anything_on(settings.load(path)))
        return self._capture

    # -- session --------------------------------------------------------------------

    @property
    def state_dir(self) -> str:
        """The state folder (:func:`memhooks.session.location.state_dir`); with no usable
        home to find it in (:class:`~memhooks.errors.HomeError`: :attr:`state_problem`),
        :data:`NO_FOLDER`: nothing can be created below it, and :attr:`state` is kept
        elsewhere (:meth:`_elsewhere`)."""
        if self._state_dir is None:
            from ..session.location import state_dir

            try:
                self._state_dir = state_dir(self.env, self.notes)
            except OSError as exc:  # HomeError (memhooks.errors is loaded only to raise it)
                self._state_dir = NO_FOLDER
                self.state_problem = str(exc)
                self._no_home("session file", str(exc))
        return self._state_dir

    @property
    def state(self) -> State:
        """The open state file (:mod:`memhooks.session.state`)."""
        if self._state is None:
            from ..session.location import FILENAME
            from ..session.state import State

            try:
                if self.state_dir == NO_FOLDER:
                    from ..errors import StoreError

                    raise StoreError(str(self.state_problem))  # why: no home (state_dir)
                self._state = State(os.path.join(self.state_dir, FILENAME))
            except caught("StoreError") as exc:  # memhooks.errors only on a failure
                self._state = self._elsewhere(str(exc))
            if self._state.replaced:
                self.notes.append(coded(STORE, self._state.replaced))
        return self._state

    def _elsewhere(self, why: str) -> State:
        """The state when the state file cannot be used (``why``): kept elsewhere, or in
        memory (:func:`memhooks.hook.fallback.state`); :attr:`state_problem` says why."""
        from ..session.state import State
        from . import fallback  # only when something is missing

        self.state_problem = why
        homeless = "session file" in self.homeless  # said by home_note()
        kept, note = fallback.state(why, self.env, self.state_dir, homeless=homeless)
        if note is not None:
            self.notes.append(coded(STORE, note))
        if kept is None:
            return State(EPHEMERAL)
        if homeless:
            self.home = (self.home[0], os.path.dirname(kept.path))
        return kept

    @property
    def ledgerless(self) -> bool:
        """The state file could not be used: this call's session lives in memory only
        (:attr:`state`), so nothing it delivers is remembered for the next call."""
        if self._session is None and self._edit_session() is not None:
            return False  # a pre-tool edit's session needs no state file
        return self.state.path == EPHEMERAL

    def _edit_session(self) -> EditSession | None:
        """The session of a pre-tool edit without the state file
        (:mod:`memhooks.session.edit_session`) when one can serve this call: line-level
        recall on, capture off, a root, and the code's names could find nothing in the
        store (:func:`memhooks.session.edits.nothing_named`); None: the state file's."""
        if self._edit is None:
            self._edit = False
            from ..agents.base import PRE_TOOL

            sid = self.event.session_id
            if (
                self.event.event == PRE_TOOL
                and sid
                and not self.capture_on
                and self.switch("MEMHOOKS_LINE_RECALL")
                and self.state_dir != NO_FOLDER
                and self.root is not None
            ):
                from ..session.edits import nothing_named
                from ..session.snapshot import claims_paths

                # no mirror yet (the session's first pre-tool edit): the state file writes one
                if os.path.exists(claims_paths(self.state_dir, sid)[1]) and nothing_named(self):
                    from ..session.edit_session import open_edit
                    from ..session.location import FILENAME

                    state_path = os.path.join(self.state_dir, FILENAME)
                    snapshot = self.snapshot()
                    self._edit = (
                        open_edit(self.state_dir, state_path, sid, self.host, self.root, snapshot)
                        or False
                    )
        found = self._edit
        return None if isinstance(found, bool) else found

    @property
    def session(self) -> Session:
        """This call's session (opened, and its ``updated`` time refreshed, on first use).
        Call only when :attr:`root` is not None."""
        if self._session is None and (edit := self._edit_session()) is not None:
            # held as the state file's rows are (below), claimed in the session's journal
            edit.hold_until = time.time() + self.remaining() + HOLD_S
            edit.deadline = self.deadline
            self._session = edit
        if self._session is None:
            from ..session.record import open_session

            assert self.root is not None
            prompt = self.event.prompt if self.event.event == "user_prompt" else None
            try:
                self._session = open_session(
                    self.state, self.host, self.event.session_id, self.root, prompt=prompt,
                    mirror=self._mirror_paths(),
                )  # fmt: skip
            except caught("StoreError") as exc:  # memhooks.errors only on a failure
                # The state file opened but takes no write (its disk is full, say): the
                # session is kept elsewhere, as when it cannot be opened at all.
                if self.ledgerless or self.state_problem is not None:
                    raise
                assert self._state is not None
                self._state.close()
                self._state = self._elsewhere(str(exc))
                self._session = open_session(
                    self._state, self.host, self.event.session_id, self.root, prompt=prompt
                )
            # What this call records is held until its reply is sure to go out (confirm):
            # past the deadline, plus the time the confirming write may wait for the file.
            self._session.hold_until = self.state.clock() + self.remaining() + HOLD_S
            if self.event.session_id:
                from ..session.snapshot import take_touches

                logged = take_touches(self.state_dir, self.host, self.event.session_id)
                self._session.touch([(path, kind, "read") for path, kind in logged])
        # a pre-tool edit's EditSession answers what such a call asks of a Session
        return self._session  # type: ignore[return-value]

    def snapshot(self) -> dict[str, Any] | None:
        """The session's snapshot (:func:`memhooks.session.snapshot.load`; None: none, or
        no session id) as this call found it: read once, however many of its steps ask
        (the pre-tool shortcut, the journal's session, the names' check, the close)."""
        if self._snapshot is False:
            from ..session.snapshot import load

            sid = self.event.session_id
            self._snapshot = load(self.state_dir, self.host, sid, self.env) if sid else None
        return self._snapshot  # type: ignore[return-value]

    def _mirror_paths(self) -> tuple[str, str] | None:
        """The session's claim journal and mirror (:mod:`memhooks.session.claims`) when
        it has a journal, or when this call is a read (a post-tool event, a shell
        command: Codex reads with ``sed``/``cat``) of a host whose edits are told
        before they are made: the pre-tool edits that follow claim without the state
        file (an agent reads a file before it edits it: Claude Code's Edit refuses a
        file not read in the session). None otherwise — a session's calls
        before its first read pay nothing for it — for a state file kept elsewhere, and
        without ``fcntl``."""
        from ..agents.base import POST_COMMAND, POST_TOOL
        from ..session.location import FILENAME
        from ..session.snapshot import claims_paths

        sid = self.event.session_id
        if not sid or os.name != "posix":
            return None
        if self.state.path != os.path.join(self.state_dir, FILENAME):
            return None
        paths = claims_paths(self.state_dir, sid)
        if os.path.exists(paths[0]) or (
            self.event.event in (POST_TOOL, POST_COMMAND)
            and self.delivery.has_pre_tool
            and self.switch("MEMHOOKS_LINE_RECALL")
        ):
            return paths
        return None

    # -- memory ---------------------------------------------------------------------

    @property
    def store_env(self) -> Mapping[str, str]:
        """:attr:`env` as the memory store is chosen from it: a relative
        ``MEMHOOKS_STORE``, ``MEMHOOKS_EMBEDDED_PATH``, ``MEMHOOKS_CONFIG`` or ``MEMHOOKS_MEM0_PATH``
        (:func:`memhooks.settings.relative_paths`) made absolute against the project
        root found from the call's :attr:`folder` (:func:`memhooks.store.location.rooted`:
        the CLI's rule too, not the hook process's folder); :attr:`env` itself when none
        is relative. Worked out once, and only where the store is chosen
        (:attr:`store_ready`, :attr:`store_choice`, :attr:`backend`, the session's
        snapshot, capture), each after the folder was found: a call that chooses none
        (a settled tool call, a pre-tool read) neither walks for the root nor loads the
        rule (review6: 7-9 modules, ~3 M instructions a call). Raises as :attr:`folder`."""
        if self._store_env is None:
            from ..settings import relative_paths

            self._store_env = self.env
            if relative_paths(self.env):
                from ..store.location import rooted

                self._store_env = {**self.env, **rooted(self.env, self.folder)}
        return self._store_env

    @property
    def store_ready(self) -> bool:
        """False when the embedded store is selected and its file does not exist yet
        (:func:`memhooks.backends.registry.store_ready`): nothing to recall, and a hook
        never creates a store. Why a store path cannot be one is kept for
        :attr:`backend`."""
        if self._store_ready is None:
            from ..backends.registry import store_ready
            from ..settings import store_variable

            env = self.store_env
            self._store_ready, self._store_note = store_ready(env)
            if self._store_note is not None:
                self._no_home("memory store", self._store_note)
            elif not self._store_ready and (var := store_variable(env)) is not None:
                self._missing_store(var, env[var])
        return self._store_ready

    @property
    def store_choice(self) -> tuple[str, str | None] | None:
        """(the configuration file, the embedded store's file or None: another backend)
        the call's environment selects, or None when that cannot be said, worked out
        once: a pre-tool edit asks it for the store's marks, for what the code's names
        could find and for the session's snapshot. As the session's snapshot kept it
        while the same variables and configuration file choose
        (:func:`memhooks.session.edits.kept_choice`), else
        :func:`memhooks.session.edits.chosen_store` (it loads the backends' registry and
        configuration: ~0.5 ms)."""
        if self._store_choice is None:
            from ..session.edits import chosen_store, kept_choice

            kept = kept_choice(self) if self.event.session_id else None
            self._store_choice = (kept if kept is not None else chosen_store(self.store_env),)
        return self._store_choice[0]

    def _missing_store(self, var: str, named: str) -> None:
        """One stderr line per session when the file ``named`` that the variable ``var``
        (``MEMHOOKS_STORE``, ``MEMHOOKS_EMBEDDED_PATH``) names does not exist (newcomer
        #6: the hook said nothing, the CLI's recall says it). Not the model's to hear: a
        store not made yet is no outage."""
        from ..session import keys

        self.once(
            keys.STORE_MISSING,
            coded(
                STORE,
                f"{var} {named!r} does not exist: nothing to recall until"
                " 'memhooks remember' or 'memhooks history import' makes it (or unset it)",
            ),
        )

    def once(self, key: str, note: str) -> None:
        """Add ``note`` to :attr:`notes` the first time this session meets ``key`` (a
        served key, :mod:`memhooks.session.keys`); with no ledger, on every call rather
        than never. Call only when :attr:`root` is not None. A key the session has is
        not claimed again (a read, not a write: a broken hook's note is asked on every edit
        that tells)."""
        try:
            first = [] if key in self.session.served() else self.session.claim([key])
        except Exception:  # noqa: BLE001 - no ledger: say it on every call rather than never
            first = [key]
        if first:
            self.notes.append(note)

    def setting_notes(self) -> None:
        """Say, once per session, each ``MEMHOOKS_*`` variable that is no setting
        (:func:`memhooks.settings.unknown`, with the setting it resembles), a
        ``MEMHOOKS_ROOT`` that cannot be a root (:func:`memhooks.protocol.root.usable_root`;
        one for another project, a folder that does not contain this one, is no mistake
        and is not said) and a ``MEMHOOKS_CONFIG`` that names no file (MH028). Only in a call that looked for the root (a prompt, a session
        start, a tool event not served before): a settled tool call (the shortcut) pays
        nothing, not even the scan, and opens no state file for it — the session's first
        calls say it. Outside an enabled project nothing is said (the hook does nothing
        there)."""
        if not self._root:  # False: not looked for (a settled tool call); None: no project
            return
        from ..settings import unknown  # the table's first cut: loaded, and cheap

        odd = unknown(self.env)
        named = self.env.get("MEMHOOKS_ROOT")
        if self.env.get("MEMHOOKS_CONFIG"):
            self._config_note(self.store_env["MEMHOOKS_CONFIG"])  # relative: from the root
        if not odd and not named:
            return
        if odd:
            from ..backends.registry import unknown_settings  # the backends' own names

            odd = unknown_settings(self.env)
        from ..protocol.root import usable_root  # loaded: the root was looked for

        why = usable_root(named)[1] if named else None
        if not odd and why is None:
            return
        from ..session import keys
        from ..settings import unknown_note

        if odd:
            from ..backends.registry import variables  # loaded: it found them

            meant = variables()
            for name in odd:
                self.once(keys.setting(name), coded("MH038", unknown_note(name, meant)))
        if why is not None:
            self.once(
                keys.setting("MEMHOOKS_ROOT"),
                coded(
                    "MH028",
                    f"MEMHOOKS_ROOT ignored: {named!r} {why}; the project root is"
                    f" {self.root!r} (set it to an existing folder, or unset it)",
                ),
            )

    def _config_note(self, named: str) -> None:
        """Once a session, MH028 when ``MEMHOOKS_CONFIG`` names no file (newcomer6: it
        was silent; the CLI's commands refuse it), as the CLI says it; not in a call whose
        backend it kept from opening (that call's "memory unavailable" note says it)."""
        from ..backends import NO_CONFIG, config_path  # only when the variable is set
        from ..errors import MemhooksError
        from ..session import keys

        if isinstance(self._backend, MemhooksError):
            return

        path = config_path({"MEMHOOKS_CONFIG": named})
        if not os.path.isfile(path):
            what, todo = NO_CONFIG
            self.once(keys.setting("MEMHOOKS_CONFIG"), coded("MH028", f"{what} ({path}); {todo}"))

    def _no_home(self, what: str, why: str) -> None:
        """Count ``what`` in :attr:`homeless` when ``why`` it cannot be found is the home
        folder (:func:`memhooks.hook.fallback.home_error`)."""
        from . import fallback  # only when something is missing

        error = fallback.home_error(self.env, why)
        if error is not None:
            self.home = (error, self.home[1])
            self.homeless.append(what)

    def home_note(self) -> str | None:
        """One short stderr line when the home folder kept memhooks' own folders from
        being found, else None (:func:`memhooks.hook.fallback.home_note`)."""
        if not self.homeless:
            return None
        from . import fallback

        said = fallback.home_note(self.homeless, *self.home)
        return coded(STORE, said) if said else None

    @property
    def backend(self) -> Backend | MemhooksError | None:
        """The configured backend, opened on first use without creating a store and
        closed with the call: None when there is no store yet (:attr:`store_ready`);
        the MemhooksError that kept it from opening — a store path that cannot be one
        included (issue 22 item 2: unlike a store not made yet, that is memory
        unavailable, and the model is told) — so recall reports memory as unavailable,
        and why."""
        if not self._backend_opened:
            self._backend_opened = True
            if not self.store_ready and self._store_note is not None:
                from ..errors import StoreError

                self._backend = StoreError(self._store_note)
            elif self.store_ready:
                from ..backends.registry import open_backend
                from ..errors import MemhooksError

                try:
                    self._backend = open_backend(None, env=self.store_env)
                except MemhooksError as exc:
                    self._backend = exc
        return self._backend

    def confirm(self) -> bool:
        """This call's reply goes out: what it recorded in the session's ledger stands
        (:meth:`memhooks.session.record.Session.confirm`). Not called, the rows lapse.
        False, confirming nothing, when they lapsed already: the process was stopped past
        its hold (a suspended laptop, SIGSTOP), and another call may have told them since
        — its reply must not go out (helper-138: told twice, and logged twice)."""
        session = self._session
        if session is None:
            return True
        hold = session.hold_until
        if session.pending and hold is not None and time.time() >= hold:
            return False
        session.confirm()
        return True

    def close(self) -> None:
        """Close what the call opened: the backend; the session's snapshot is left for
        the next tool event's shortcut (:mod:`memhooks.session.snapshot`) and the state
        file closed — or, when :attr:`exiting`, left open: closing the last connection
        to a WAL database checkpoints it (writes and syncs the database file, ~1 ms a
        call here), while what was committed is durable either way and the next
        writer's automatic checkpoint folds the log in
        (https://sqlite.org/wal.html#ckpt)."""
        backend, self._backend = self._backend, None
        session, self._session = self._session, None
        # A snapshot settles later calls: not from a call whose ledger rows do not stand
        if session is not None and self.event.session_id and not session.pending:
            from ..session.snapshot import save

            # "full": no read of this session can add anything now (what reads may
            # spend of its ceiling is spent, or the host has no tool channel): the
            # snapshot settles every read without SQLite; else unserved folders
            # (tool-time recall on) and files read and not told (line-level recall on)
            # go the whole way. For a host told of an edit only after it, edits go the
            # whole way, full or not: their owners keep a reserve, and past it the
            # reply says they were left out (memhooks.hook.owners)
            ceiling = self.tool_ceiling()
            full = session.tool_chars >= ceiling or not self.delivery.tool_events
            lines = self.line_recall
            edits = lines and self.delivery.has_pre_tool  # told before they are made
            # a host without a pre-tool channel is told after an edit: its owners (line
            # recall) and a note remembered since (tool recall, line recall on or off)
            told_after = (
                not self.delivery.has_pre_tool
                and bool(self.delivery.tool_events)  # (none: nothing is told at all)
                and (lines or self.tool_recall)
            )
            # what the pre-tool edit's shortcut needs: only where it can settle edits
            store, names, quiet = self._store(backend) if edits else (None, True, None)
            save(self.state_dir, self.host, self.event.session_id, root=session.root,
                 epoch=session.epoch, served=session.settled(), full=full,
                 folders=self.tool_recall, reads=lines, edits=told_after,
                 told=session.told() if edits else (), names=names, quiet=quiet,
                 store=store, prompt=session.prompt)  # fmt: skip
        if backend is not None and not isinstance(backend, Exception):
            backend.close()
        if self._state is not None:
            if self.exiting:
                _LEFT_OPEN.append(self._state)  # a reference: deleting it would close it
            else:
                self._state.close()
            self._state = None

    def _store(
        self, backend: Backend | MemhooksError | None
    ) -> tuple[list[object] | None, bool, list[object] | None]:
        """What the session's snapshot keeps of the store the call selects, and whether
        the code's names can find anything to tell there
        (:func:`memhooks.session.edits.store_fields`), so a pre-tool edit need not
        search it. Only a tool call looks (a prompt's or a lifecycle event's carries what
        the last one found: the edit checks it anyway); the store is asked only by one
        that opened it (a read's search by names, an edit's), the backend's registry
        read only when what chose the store changed."""
        from ..agents.base import TOOL_TIME_EVENTS

        assert self.event.session_id is not None
        tool = self.event.event in TOOL_TIME_EVENTS
        opened = backend if tool and not isinstance(backend, Exception) else None

        if not tool:
            from ..session.snapshot import carried

            return carried(self.state_dir, self.host, self.event.session_id, self.env)
        from ..session.edits import store_fields

        return store_fields(self, opened)
