"""Every memory backend memhooks can open, in one place, and which one is active.

Adding a backend: one new module with a class satisfying
:class:`~memhooks.backends.base.Backend` and a classmethod ``open(settings: dict)``, and
one line in :data:`BACKENDS`. Nothing else: the user's settings for it — the
``[backends.<name>]`` table of the configuration file, overlaid by
``MEMHOOKS_<NAME>_<KEY>`` variables (:mod:`memhooks.backends.config`) — reach ``open`` as
a dict. Optional class attributes, read when present:

* ``ENV`` — ``{setting key: (vendor variable, ...)}``, e.g. ``{"api_key": ("MEM0_API_KEY",)}``;
* ``EXTRA`` — the ``memhooks[...]`` extra that installs its SDK;
* ``REQUIRES`` — modules that extra provides (``backends list`` tells whether they import).
* ``EXTRA_FOR`` — what the extra is needed for when it is not everything (``"remember"``).

Modules are imported only when their backend is opened or listed.
"""

from __future__ import annotations

import os

from .. import dirs
from ..errors import BackendError
from . import BACKEND_VAR, DEFAULT, STORE_ENV, plain_store
from . import config as configuration

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .base import Backend

#: backend name -> "module:Class"
BACKENDS = {
    "embedded": "memhooks.backends.embedded:EmbeddedBackend",
    "generic": "memhooks.backends.generic:GenericBackend",
    "hindsight": "memhooks.backends.hindsight:HindsightBackend",
    "honcho": "memhooks.backends.honcho:HonchoBackend",
    "mem0": "memhooks.backends.mem0:Mem0Backend",
    "openviking": "memhooks.backends.openviking:OpenVikingBackend",
}
#: backend name -> the keys of its settings, beside its entry above: its
#: ``[backends.<name>]`` table keys and its ``MEMHOOKS_<NAME>_<KEY>`` variables
#: (docs/backends.md's table of each). Data, so the check of a variable
#: (:func:`unknown_settings`; the agent hook makes it) loads no adapter; the adapters
#: that refuse an unknown key when they open (generic, mem0) read their table here.
KEYS: dict[str, tuple[str, ...]] = {
    "embedded": ("path",),
    "generic": ("url", "write_url", "health_url", "token", "headers", "command",
                "write_command", "timeout_s"),
    "hindsight": ("url", "api_key", "bank", "banks", "required_tags", "budget", "max_tokens",
                  "reflect", "mental_models", "timeout"),
    "honcho": ("url", "api_key", "workspace", "peer", "session", "strategy", "remember",
               "dialectic", "timeout"),
    "mem0": ("mode", "user_id", "agent_id", "run_id", "app_id", "allow_ids", "filters",
             "project_filter", "timeout_s", "path", "config", "api_key", "host"),
    "openviking": ("url", "api_key", "account", "user", "actor_peer_id", "memory_uri",
                   "root_uri", "strategy", "timeout"),
}  # fmt: skip


def variables() -> list[str]:
    """Every backend setting's variable, ``MEMHOOKS_<NAME>_<KEY>`` of :data:`KEYS`: the
    names :func:`memhooks.settings.unknown_note` may say were meant."""
    return [configuration.env_prefix(name) + key.upper() for name in KEYS for key in KEYS[name]]


def unknown_settings(env: Mapping[str, str] | None = None) -> list[str]:
    """The ``MEMHOOKS_*`` variables of ``env`` that are no setting, sorted: those
    :func:`memhooks.settings.unknown` finds that are no backend's
    ``MEMHOOKS_<BACKEND>_<KEY>`` for a key of its table (:data:`KEYS`;
    a misspelt key is unknown, as a misspelt backend name is)."""
    from ..settings import unknown

    known = set(variables())
    return [name for name in unknown(env) if name not in known]


def read_config(env: Mapping[str, str] | None = None) -> configuration.Config:
    """The user's configuration file, checked against :data:`BACKENDS` (MH028 when
    invalid; empty when there is none)."""
    return configuration.load(BACKENDS, env)


def selection(
    name: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    config: configuration.Config | None = None,
) -> tuple[str, str]:
    """``(backend, why)``: ``name`` (``"--backend"``), else ``MEMHOOKS_BACKEND``, else the
    configuration file's ``backend`` (``"<file>:<line>"``), else ``embedded``
    (``"default"``). Never from the namespaces a hook contains. Raises BackendError for
    an unknown name, DiagnosticError MH028 for an invalid file."""
    env = os.environ if env is None else env
    if name:
        chosen, why = name, "--backend"
    elif env.get(BACKEND_VAR):
        chosen, why = env[BACKEND_VAR].strip(), BACKEND_VAR
    else:
        config = config or read_config(env)
        if config.backend:
            line = config.line(None, "backend")  # a scan of the file: only when it chose
            chosen, why = config.backend, f"{config.path}:{line}" if line else config.path
        else:
            chosen, why = DEFAULT, "default"
    if chosen not in BACKENDS:
        raise BackendError(
            f"unknown backend {chosen!r} (from {why}); known: {', '.join(sorted(BACKENDS))}"
        )
    return chosen, why


def selected(name: str | None = None, *, env: Mapping[str, str] | None = None) -> str:
    """The active backend's name (see :func:`selection`)."""
    return selection(name, env=env)[0]


def backend_class(name: str) -> Any:
    """The adapter class of backend ``name``. Raises BackendError when its module cannot
    be imported."""
    module_name, class_name = BACKENDS[name].split(":")
    try:
        # __import__, not importlib.import_module: importlib (and warnings) would be one
        # more import on every hook call
        return getattr(__import__(module_name, fromlist=[class_name]), class_name)
    except ImportError as exc:
        raise BackendError(f"{name}: cannot load its adapter: {exc}") from exc


def settings(
    name: str,
    *,
    env: Mapping[str, str] | None = None,
    config: configuration.Config | None = None,
) -> configuration.Settings:
    """Backend ``name``'s settings: file table < vendor variables < ``MEMHOOKS_*``."""
    config = config or read_config(env)
    aliases = getattr(backend_class(name), "ENV", None)
    return configuration.settings_for(name, config, aliases, env)


def open_backend(
    name: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    store_path: str | None = None,
) -> Backend:
    """Open the active backend (:func:`selection`) with its settings (:func:`settings`):
    every adapter the same way, ``open(settings)``. ``store_path`` is ``--store``, the
    embedded store's file, above every other setting of it (``MEMHOOKS_EMBEDDED_PATH``).
    Raises BackendError when it is unknown or cannot be opened (the message says why),
    MissingStoreError when it is the embedded store and its file does not exist (recall
    never creates one), DiagnosticError MH028 for invalid configuration."""
    env = os.environ if env is None else env
    if store_path:
        env = {**env, configuration.env_prefix(DEFAULT) + "PATH": store_path}
    config = read_config(env)
    chosen, _ = selection(name, env=env, config=config)
    opened: Backend = backend_class(chosen).open(settings(chosen, env=env, config=config))
    return opened


def selected_store(env: Mapping[str, str]) -> str | None:
    """The embedded store file ``env`` selects (:func:`memhooks.dirs.store_file`; it may
    not exist), or None when another backend is active — or may be: a configuration
    file that cannot be read. The file is the one the embedded backend opens
    (:func:`open_backend`): a store variable, else the configuration file's
    ``[backends.embedded] path``, else the default. A configuration file is read only
    when it may choose (:func:`memhooks.backends.plain_store` answers the rest:
    :func:`configured_store`). Raises HomeError when the default path needs a home
    folder there is none of."""
    found = plain_store(env)
    if found is False:
        return configured_store(env)
    return found if isinstance(found, str) else None


def configured_store(env: Mapping[str, str]) -> str | None:
    """:func:`selected_store` when there is a configuration file
    (:func:`memhooks.backends.plain_store` is False): the embedded backend's ``path``
    setting as :func:`open_backend` reads it (:data:`memhooks.backends.STORE_ENV`: the
    file's table, below ``MEMHOOKS_STORE``, below ``MEMHOOKS_EMBEDDED_PATH``; no adapter
    loaded), or None when the file chooses another backend or cannot be read (recall
    reports it). Raises HomeError as :func:`selected_store`."""
    try:
        path = configured_path(env)
    except Exception:  # noqa: BLE001 - a broken config is reported by recall itself
        return None
    return None if path is False else dirs.store_file(path, env)


def configured_path(env: Mapping[str, str], name: str | None = None) -> str | None | bool:
    """The embedded backend's ``path`` setting as :func:`open_backend` reads it
    (:data:`memhooks.backends.STORE_ENV`: the configuration file's
    ``[backends.embedded] path``, below ``MEMHOOKS_STORE``, below
    ``MEMHOOKS_EMBEDDED_PATH``; no adapter loaded), None when nothing names the file (the
    default), False when the active backend (``name``: ``--backend``, else
    :func:`selection`'s) is another. Raises DiagnosticError MH028 for an invalid
    configuration file, BackendError for an unknown backend."""
    config = read_config(env)
    if selection(name, env=env, config=config)[0] != DEFAULT:
        return False
    path = configuration.settings_for(DEFAULT, config, STORE_ENV, env).get("path")
    return str(path) if path else None


def store_ready(env: Mapping[str, str]) -> tuple[bool, str | None]:
    """``(ready, note)``: ``ready`` is False when the embedded store is the active backend
    and its file does not exist yet — there is nothing to recall, and a hook must not
    create a store as a side effect; ``note`` says why a ``MEMHOOKS_STORE`` (or the
    default path) cannot be a store, or that a relative one is not found from the
    process folder, else None. A configuration file is read only when it may select
    another backend; a broken one counts as ready (recall reports it)."""
    from ..errors import HomeError
    from ..settings import store_variable

    try:
        given = selected_store(env)
    except HomeError as exc:
        return False, str(exc)
    if given is None:
        return True, None
    var = store_variable(env)
    named = env[var] if var else ""
    what = f"{var} {named!r}" if var else f"the memory store {given!r}"
    if os.path.isfile(given):
        return True, None
    if os.path.lexists(given):
        kind = "a directory" if os.path.isdir(given) else "not a regular file"
        return (
            False,
            f"{what} is {kind}; point {var or 'MEMHOOKS_STORE'} at a file, or move it away",
        )
    if named and not os.path.isabs(os.path.expanduser(named)):
        # The CLI and the hook make a relative one absolute from the project root they
        # work in (memhooks.store.location.rooted); one left relative was not found.
        return False, (
            f"{what} is relative and names no file from {os.getcwd()}"
            " (memhooks commands and the hook take it from the project root:"
            " memhooks.store.location.rooted)"
        )
    return False, None
