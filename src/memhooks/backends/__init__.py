"""Memory backends: the embedded store and the servers memhooks can recall from
(:mod:`.registry` lists them and opens the active one; :mod:`.config` reads the user's
configuration file).

Here, in the package itself, what choosing the store needs when nothing but the
environment chooses it — the configuration file's place, the variable naming a backend,
and which embedded store file they select — so that a hook call choosing its store (a
new session's first pre-tool edit, ``memhooks.session.edits.chosen_store``) loads no
backend module unless a configuration file may name another backend (the registry and
the configuration reader: ~1.2 M instructions, callgrind).
"""

from __future__ import annotations

import os

from .. import dirs
from ..settings import store_variable  # loaded by every hook call already

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

#: The configuration file's name in :func:`memhooks.dirs.config_dir`.
FILENAME = "config.toml"
#: The variable that names another configuration file.
CONFIG_VAR = "MEMHOOKS_CONFIG"
#: The variable that names the active backend.
BACKEND_VAR = "MEMHOOKS_BACKEND"
#: The backend active when nothing names one.
DEFAULT = "embedded"
#: What MH028 says of a ``MEMHOOKS_CONFIG`` that names no file (a typo, most likely: a
#: missing default file is no configuration), and what to do: the CLI's error
#: (:func:`memhooks.backends.config.load`) and the hook's note once a session
#: (:meth:`memhooks.hook.call.HookCall.setting_notes`).
NO_CONFIG = (
    f"{CONFIG_VAR} names no file",
    (
        f"unset {CONFIG_VAR} (the default is {FILENAME} in the configuration folder),"
        " or create the file it names"
    ),
)


def config_path(env: Mapping[str, str] | None = None) -> str:
    """Absolute path of the configuration file (it may not exist): ``$MEMHOOKS_CONFIG``,
    else ``config.toml`` in :func:`memhooks.dirs.config_dir`. Raises
    :class:`~memhooks.errors.HomeError` when that needs a home there is none of."""
    env = os.environ if env is None else env
    if env.get(CONFIG_VAR):
        return os.path.abspath(os.path.expanduser(env[CONFIG_VAR]))
    return os.path.join(dirs.config_dir(env), FILENAME)


def plain_store(env: Mapping[str, str]) -> str | None | bool:
    """The embedded store file ``env`` selects when no configuration file may choose
    another backend (:func:`store_file`); None when ``MEMHOOKS_BACKEND`` names another
    backend; False when a configuration file may name one — then
    :func:`memhooks.backends.registry.selected_store` reads it. Raises HomeError when the
    default path needs a home folder there is none of."""
    from ..errors import HomeError

    if env.get(BACKEND_VAR, DEFAULT) not in ("", DEFAULT):
        return None
    if not env.get(BACKEND_VAR):
        try:
            if os.path.isfile(config_path(env)):
                return False
        except HomeError:
            pass  # no home folder: no configuration file in it
    return store_file(env)


def store_file(env: Mapping[str, str]) -> str:
    """The embedded store's file: the value of :func:`memhooks.settings.store_variable`
    (``~`` expanded; a relative one as written), else the default path
    (:func:`memhooks.store.location.default_path`, the same rule; it may not exist). A
    ``MEMHOOKS_EMBEDDED_PATH`` alone was not looked at: the hook found no store and
    recalled nothing, silently, where ``memhooks recall`` opened it."""
    var = store_variable(env)
    if var is None:
        from ..store.location import default_path

        return default_path()
    return os.path.expanduser(env[var])
