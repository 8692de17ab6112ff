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
from ..settings import STORE_VARS, store_variable  # loaded by every hook call already

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
#: The embedded backend's ``ENV`` (:mod:`.registry`): ``MEMHOOKS_STORE`` names its
#: ``path`` below its own ``MEMHOOKS_EMBEDDED_PATH`` — :data:`memhooks.settings.STORE_VARS`'
#: order, here so the store's choice reads it without loading the adapter.
STORE_ENV: dict[str, tuple[str, ...]] = {"path": STORE_VARS[1:]}
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
    another backend or another file: :func:`memhooks.dirs.store_file` of the first of
    :data:`memhooks.settings.STORE_VARS` that ``env`` sets. None when
    ``MEMHOOKS_BACKEND`` names another backend; False when there is a configuration
    file and ``env`` leaves it the backend (no ``MEMHOOKS_BACKEND``) or the file (no
    store variable) to choose — then :func:`memhooks.backends.registry.configured_store`
    reads it. Raises HomeError when the default path needs a home folder there is none
    of."""
    if env.get(BACKEND_VAR, DEFAULT) not in ("", DEFAULT):
        return None
    var = store_variable(env)
    if not env.get(BACKEND_VAR) or var is None:  # the file may choose either
        try:
            if os.path.isfile(config_path(env)):
                return False
        except OSError:  # HomeError (memhooks.errors is loaded only to raise it)
            pass  # no home folder: no configuration file in it
    return dirs.store_file(env[var] if var else None, env)
