"""Where memhooks keeps its own files: one rule for the data, state, configuration and
cache folders (the XDG Base Directory rule, as ``platformdirs`` applies it).

``<kind>_dir()`` is ``$XDG_<KIND>_HOME/memhooks`` when that variable is an absolute path
(a relative one is ignored, as the XDG spec says), else ``~/.local/share``,
``~/.local/state``, ``~/.config`` or ``~/.cache`` + ``/memhooks`` on Linux and other
Unixes — and on macOS when the variable is set; on Windows and plain macOS,
``platformdirs``' ``user_<kind>_dir("memhooks")``. ``HOME`` is read from the given
environment. Nothing is created here. What each folder holds: the memory store
(:mod:`memhooks.store.location`, data), the session state file
(:mod:`memhooks.session.location`, state), the backend configuration and the capture
switch (config), the parsed-hook, listing and search caches (cache).

Only ``os`` and ``sys`` are imported: the hook path finds its files here
(``platformdirs`` only off Linux).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

APP = "memhooks"
#: kind -> (the XDG variable, the default below the home folder)
KINDS = {
    "data": ("XDG_DATA_HOME", (".local", "share")),
    "state": ("XDG_STATE_HOME", (".local", "state")),
    "config": ("XDG_CONFIG_HOME", (".config",)),
    "cache": ("XDG_CACHE_HOME", (".cache",)),
}


def user_dir(kind: str, env: Mapping[str, str] | None = None) -> str:
    """The absolute folder of ``kind`` (``data``, ``state``, ``config``, ``cache``)."""
    env = os.environ if env is None else env
    var, default = KINDS[kind]
    xdg = env.get(var, "")
    xdg = xdg if os.path.isabs(xdg) else ""
    if sys.platform == "win32" or (sys.platform == "darwin" and not xdg):
        import platformdirs  # only off Linux: the hook path must not pay for it

        found: str = getattr(platformdirs, f"user_{kind}_dir")(APP, appauthor=False)
        return found
    base = xdg or os.path.join(env.get("HOME") or os.path.expanduser("~"), *default)
    return os.path.join(base, APP)


def data_dir(env: Mapping[str, str] | None = None) -> str:
    """Where the memory store lives by default."""
    return user_dir("data", env)


def state_dir(env: Mapping[str, str] | None = None) -> str:
    """Where the session state lives by default."""
    return user_dir("state", env)


def config_dir(env: Mapping[str, str] | None = None) -> str:
    """Where the user's configuration lives."""
    return user_dir("config", env)


def cache_dir(env: Mapping[str, str] | None = None) -> str:
    """Where caches live (anything there may be deleted at any time)."""
    return user_dir("cache", env)
