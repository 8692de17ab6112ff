"""What a session's snapshot (:mod:`.snapshot`) says to a pre-tool edit: whether it needs
nothing (:func:`edit_settled`, asked by :func:`memhooks.hook.told.settled`), and the
memory store that rests on — which store the session's calls select
(:func:`store_choice`) and whether the code's names could find anything to tell there
(``quiet``: :func:`.storestate.store_state`, :func:`.storestate.still`), kept by :func:`store_fields` when a
call closes.

A note is told before an edit when the symbol cue finds it
(:mod:`memhooks.recall.symbol_recall`); a commit's memory never is. So an edit settles
without SQLite only while its store holds nothing but commits' memories and has not
changed since it was found to (one ``lstat`` of the store and its write-ahead log), and
only for the store the call selects (review F2, F3: one store's state says nothing of
another's, nor of a store made since).

Only ``os`` is imported here (and :mod:`memhooks.filestate` to compare a file's state).
"""

from __future__ import annotations

import os

from ..fast import caught
from .storestate import current, keep, still, store_state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, Protocol

    from ..agents.base import NormalizedEvent
    from ..backends.base import Backend

    class Call(Protocol):
        """What this reads of a hook call (:class:`memhooks.hook.call.HookCall`)."""

        event: NormalizedEvent
        host: str
        env: Mapping[str, str]

        @property
        def store_env(self) -> Mapping[str, str]: ...
        @property
        def state_dir(self) -> str: ...
        @property
        def root(self) -> str | None: ...
        @property
        def project(self) -> str: ...
        @property
        def store_choice(self) -> tuple[str, str | None] | None: ...
        def snapshot(self) -> dict[str, Any] | None: ...


def _load(call: Call) -> dict[str, Any] | None:
    """The snapshot of ``call``'s session (:func:`.snapshot.load`; None: no session id),
    read once a call (:meth:`memhooks.hook.call.HookCall.snapshot`)."""
    return call.snapshot()


def edit_settled(call: Call, sure: Callable[[str, frozenset[str], str | None], bool]) -> bool:
    """True when a pre-tool edit needs nothing: line-level recall is on for a host with a
    pre-tool channel, the call selects the store the snapshot's call did
    (:func:`store_choice`: the same variables, the same configuration file), the code's
    names could find nothing there (:func:`nothing_named`), and ``sure(root, told,
    prompt)`` (:func:`memhooks.hook.told.all_told`) finds every owner of the lines it
    replaces among the commits told. False: the whole way. Raises what ``sure`` raises."""
    data = _load(call)
    if data is None:
        return False
    try:
        root = data["root"]
        if not isinstance(root, str) or not data["reads"] or data["edits"]:
            return False
        if not _nothing_named(data, call.store_env):
            return False
        told = frozenset(data["told"])
        prompt = data["prompt"]
        if prompt is not None and not isinstance(prompt, str):
            return False
    except (ValueError, KeyError, TypeError):
        return False
    return sure(root, told, prompt)  # nothing told yet: owners that need none settle too


def nothing_named(call: Call) -> bool:
    """True when the store ``call`` selects holds nothing the code's names (the symbol
    cue, :mod:`memhooks.recall.symbol_recall`) or a file's anchors could tell beyond
    commits' memories: none (and still none), or one found to hold only commits'
    memories and unchanged since — as the session's snapshot knows it, or, in a session
    with none yet, as another session of the project found the store
    :func:`chosen_store` names (:func:`store_fields`). An edit that goes the whole way
    then opens no store to search by names (:mod:`memhooks.hook.lines`) or for notes
    (:mod:`memhooks.hook.tool_time`). False without a session id or a root; never raises."""
    root = call.root if call.event.session_id else None
    if root is None:
        return False
    data = _load(call)
    try:
        if data is not None and data.get("store") is not None:
            return _nothing_named(data, call.store_env)
    except (ValueError, KeyError, TypeError):
        return False
    chosen = call.store_choice
    if chosen is None or chosen[1] is None:
        return False
    from ..paths import resolved  # loaded by then on the way that gets here

    path = resolved(chosen[1])
    if not os.path.lexists(path):
        return True  # no store
    row = current(call.state_dir, "quiet", f"{root}\n{path}")  # [quiet]
    return row is not None and _of_store(row[0], path)


def _nothing_named(data: dict[str, object], env: Mapping[str, str]) -> bool:
    """:func:`nothing_named` of a loaded snapshot ``data``. Raises KeyError, TypeError."""
    path = _chosen(data["store"], env)
    if path is False:
        return False  # another store, or a configuration that may choose one
    if data["names"]:
        quiet = data["quiet"]
        return (
            isinstance(path, str) and still(quiet) and isinstance(quiet, list) and quiet[0] == path
        )
    return isinstance(path, str) and not os.path.lexists(path)  # else one made since


#: The variables that choose the memory store and its file
#: (:func:`memhooks.backends.registry.selected_store`, :mod:`memhooks.backends.config`,
#: :mod:`memhooks.dirs`): a call where one differs may select another store.
STORE_VARS = ("MEMHOOKS_BACKEND", "MEMHOOKS_STORE", "MEMHOOKS_EMBEDDED_PATH", "MEMHOOKS_CONFIG",
              "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")  # fmt: skip


def store_choice(env: Mapping[str, str], config: str, store: str | None) -> list[object]:
    """What a snapshot keeps of the memory store a call selects, so that a later call
    settles an edit only on the same one (review F2): ``[the values of STORE_VARS in
    env (:func:`_named`), the configuration file config, its key (None: there is none), the real path of
    the embedded store's file store (None: another backend)]``."""
    from ..paths import resolved

    path = None if store is None else resolved(store)
    return [_named(env), config, _key_of(config), path]


def _named(env: Mapping[str, str]) -> list[str | None]:
    """The values of :data:`STORE_VARS` in ``env`` as they name places: a path made
    absolute (``MEMHOOKS_STORE=store.sqlite3`` names another file from another working
    folder; docs/quickstart.md exports a relative one), the backend's name as it is."""
    named: list[str | None] = []
    for name in STORE_VARS:
        value = env.get(name)
        if value and name != "MEMHOOKS_BACKEND":
            value = os.path.abspath(os.path.expanduser(value))
        named.append(value)
    return named


def _chosen(choice: object, env: Mapping[str, str]) -> str | None | bool:
    """The embedded store's real path :func:`store_choice` kept (None: another
    backend) while ``env`` and the configuration file choose as they did; else False."""
    if not isinstance(choice, list) or len(choice) != 4:
        return False
    names, config, known, path = choice
    if names != _named(env) or not isinstance(config, str):
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


def kept_choice(call: Call) -> tuple[str, str | None] | None:
    """:func:`chosen_store` as the session's snapshot keeps it (:func:`store_choice`:
    the configuration file, the embedded store's real path or None), while the
    variables and the configuration file choose as they did (:func:`_chosen`); else
    None (no snapshot, or one that no longer says)."""
    data = _load(call)
    choice = data.get("store") if data is not None else None
    path = _chosen(choice, call.store_env)
    if path is False:
        return None
    assert isinstance(choice, list) and isinstance(path, (str, type(None)))
    return str(choice[1]), path


def chosen_store(env: Mapping[str, str]) -> tuple[str, str | None] | None:
    """(the configuration file, the embedded store's file or None: another backend)
    that ``env`` selects (:func:`memhooks.backends.registry.selected_store`), or None
    when that cannot be said (no home folder): ``choose()`` of :func:`store_fields`."""
    from ..backends import config_path, plain_store  # no backend module in the common case

    try:
        found = plain_store(env)
        if found is False:  # a configuration file may choose the backend or file: read it
            from ..backends.registry import configured_store

            found = configured_store(env)
        return config_path(env), found if isinstance(found, str) else None
    except caught("MemhooksError", OSError):
        return None


def quiet_store(backend: Backend, project: str) -> list[object] | None:
    """``quiet`` for the embedded store ``backend`` (open): its state
    (:func:`.storestate.store_state`) when the memories of ``project`` (its id,
    :func:`memhooks.store.identify`) there are all commits' — the symbol cue never tells
    those (:mod:`memhooks.recall.symbol_recall`, rule 4), so a search by the code's names
    would find nothing. None otherwise (another backend, a note or a conversation among
    the memories, a store unreadable now): the edit goes the whole way. Asked by
    :func:`store_fields` once per change of the store (:func:`.storestate.still`)."""
    from ..backends.embedded import EmbeddedBackend

    if not isinstance(backend, EmbeddedBackend) or backend.store.path == ":memory:":
        return None
    from ..errors import MemhooksError

    state = store_state(os.path.abspath(backend.store.path))  # before the store is asked
    try:
        if state is None or backend.store.beyond_history(project):
            return None
    except MemhooksError:
        return None
    return state


def store_fields(
    call: Call, opened: Backend | None
) -> tuple[list[object] | None, bool, list[object] | None]:
    """``(store, names, quiet)`` for the next snapshot (:func:`save`) of ``call``'s
    session (it has a session id and a root).

    ``store``: the memory store the call selects (:func:`store_choice`): the previous
    snapshot's while the variables and the configuration file choose as they did, else
    :func:`chosen_store`'s — ``(configuration file, embedded store file or None)``, None
    when it cannot say (no home folder: then an edit goes the whole way). ``names``: a
    store the symbol cue could search (another backend, or the embedded store's file
    exists). ``quiet`` (:func:`.storestate.store_state`), for that store only: the session's own,
    carried as it is (the edit asks :func:`.storestate.still`; a call that opened the store checks it
    first); else another session's of the project at the call's root on the same store
    (``sessions/_quiet.json``, so a new session need not ask the store again); else what
    :func:`quiet_store` finds in ``opened``, the backend the call opened (None: it opened
    none, the store is not asked), kept for the next sessions. None: the store may hold
    something the symbol cue tells."""
    env = call.store_env
    data = _load(call) or {}
    store = data.get("store")
    if _chosen(store, env) is False:
        chosen = call.store_choice
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
    if isinstance(found, list) and found[:1] == [path] and (opened is None or still(found)):
        return store, True, found
    where = f"{call.root}\n{path}"  # what one store holds says nothing of another's
    row = current(call.state_dir, "quiet", where)  # [quiet]
    if row is not None and _of_store(row[0], path):
        return store, True, row[0]
    found = quiet_store(opened, call.project) if opened is not None else None
    if found is None or found[0] != path:
        return store, True, None
    keep(call.state_dir, "quiet", where, [found])
    return store, True, found


def _of_store(quiet: object, path: str) -> bool:
    """Whether ``quiet`` (a kept :func:`.storestate.store_state`) is the state of the
    store file ``path``."""
    return isinstance(quiet, list) and quiet[0] == path
