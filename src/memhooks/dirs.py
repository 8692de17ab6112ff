"""Where memhooks keeps its own files: one rule for the data, state, configuration and
cache folders (the XDG Base Directory rule, as ``platformdirs`` applies it).

``<kind>_dir()`` is ``$XDG_<KIND>_HOME/memhooks`` when that variable is an absolute path
(a relative one is ignored, as the XDG spec says), else ``~/.local/share``,
``~/.local/state``, ``~/.config`` or ``~/.cache`` + ``/memhooks`` on Linux and other
Unixes — and on macOS when the variable is set; on Windows and plain macOS,
``platformdirs``' ``user_<kind>_dir("memhooks")``. ``HOME`` is read from the given
environment; it must name an existing folder: an unset, empty, missing or unusable home is
:class:`~memhooks.errors.HomeError`, naming the variable and the setting that moves the
folder elsewhere, never a folder made where the user did not say (issue 22 item 4: as root
with ``HOME=/nonexistent``, ``/nonexistent/.local`` was created; with HOME unset, the
account's home from the password database was written). Nothing is created here. What each folder holds: the memory store
(:func:`store_file`, data), the session state file
(:mod:`memhooks.session.location`, state), the backend configuration and the capture
switch (config), the parsed-hook, listing and search caches (cache).

Only ``os`` and ``sys`` are imported: the hook path finds its files here
(``platformdirs`` only off Linux, :mod:`memhooks.errors` only to raise: a hook call that
finds its home loads neither).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .errors import HomeError

APP = "memhooks"
#: kind -> (the XDG variable, the default below the home folder)
KINDS = {
    "data": ("XDG_DATA_HOME", (".local", "share")),
    "state": ("XDG_STATE_HOME", (".local", "state")),
    "config": ("XDG_CONFIG_HOME", (".config",)),
    "cache": ("XDG_CACHE_HOME", (".cache",)),
}
#: kind -> (what memhooks keeps there, the settings that put it elsewhere)
HOLDS = {
    "data": ("its memory store", "XDG_DATA_HOME to a folder, or MEMHOOKS_STORE to a file"),
    "state": ("the hook's state file", "XDG_STATE_HOME or MEMHOOKS_STATE_DIR to a folder"),
    "config": ("its configuration", "XDG_CONFIG_HOME to a folder"),
    "cache": ("its caches", "XDG_CACHE_HOME to a folder"),
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
    if not xdg:
        try:
            xdg = os.path.join(home(env), *default)
        except OSError as exc:  # HomeError, the only error home() raises
            what, elsewhere = HOLDS[kind]
            where = "~/" + "/".join((*default, APP))
            raise _home_error(
                f"{exc}, and memhooks keeps {what} under it ({where}); set HOME to your home "
                f"folder, or set {elsewhere}"
            ) from None
    return os.path.join(xdg, APP)


def home(env: Mapping[str, str] | None = None) -> str:
    """The user's home folder: ``HOME``. Raises HomeError (the message names the
    variable) when it is unset, empty, or not an absolute path to an existing folder.
    An unset HOME is not replaced by the account's home from the password database (as
    :func:`os.path.expanduser` would): a process started without one (a service, ``env
    -i``) did not choose that folder, and files memhooks made there would surprise."""
    env = os.environ if env is None else env
    value = env.get("HOME") or ""
    if not value:
        raise _home_error("HOME is not set")
    named = f"HOME `{value}`"
    if not os.path.isabs(value):
        raise _home_error(f"{named} is not an absolute path")
    if not os.path.isdir(value):
        raise _home_error(
            f"{named} does not exist" if not os.path.lexists(value) else f"{named} is not a folder"
        )
    return value


def _home_error(message: str) -> HomeError:
    from .errors import HomeError  # only to raise (module docstring)

    return HomeError(message)


def data_dir(env: Mapping[str, str] | None = None) -> str:
    """Where the memory store lives by default."""
    return user_dir("data", env)


#: The embedded memory store's file name in :func:`data_dir`.
STORE = "memories.sqlite3"


def store_file(path: object = None, env: Mapping[str, str] | None = None) -> str:
    """The embedded memory store's file (it may not exist), the one rule for every
    reader and writer: ``path`` — the value of the setting that names it (a variable of
    :data:`memhooks.settings.STORE_VARS`, the configuration file's
    ``[backends.embedded] path``, ``--store``) — with ``~`` expanded, made absolute from
    the process folder (a relative variable was taken from the project root before:
    :func:`memhooks.store.location.rooted`; the file's path from the file's folder:
    :meth:`memhooks.backends.config.Config.resolve`); else :data:`STORE` in :func:`data_dir`.
    Raises HomeError when that needs a home folder there is none of."""
    if path:
        return os.path.abspath(os.path.expanduser(str(path)))
    return os.path.join(data_dir(env), STORE)


def state_dir(env: Mapping[str, str] | None = None) -> str:
    """Where the session state lives by default."""
    return user_dir("state", env)


def config_dir(env: Mapping[str, str] | None = None) -> str:
    """Where the user's configuration lives."""
    return user_dir("config", env)


def cache_dir(env: Mapping[str, str] | None = None) -> str:
    """Where caches live (anything there may be deleted at any time)."""
    return user_dir("cache", env)


def runtime_dir(env: Mapping[str, str] | None = None) -> str | None:
    """A private folder for this user's runtime files, made when missing, or None:
    ``$XDG_RUNTIME_DIR/memhooks`` when that variable names an absolute folder, else
    ``memhooks-<uid>`` in the temporary folder (``TMPDIR``, ``TEMP`` or ``TMP`` when one
    names an absolute folder, else ``/tmp``; read from ``env``, as
    :func:`tempfile.gettempdir` would, without caching it). Used only when the state folder
    cannot be (the agent hook keeps its session there meanwhile: issue 22 item 2). Either
    must be a real folder of ours that nobody else may enter — a shared temporary folder
    lets anyone make that name first (a symlink elsewhere, a folder they can read) — else
    None. Never raises."""
    import stat

    env = os.environ if env is None else env
    xdg = env.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(xdg) and os.path.isdir(xdg):
        folder = os.path.join(xdg, APP)
    else:
        temps = [env.get(name, "") for name in ("TMPDIR", "TEMP", "TMP")] + ["/tmp"]
        base = next((t for t in temps if os.path.isabs(t) and os.path.isdir(t)), None)
        if base is None:
            return None
        folder = os.path.join(base, f"{APP}-{os.getuid()}")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        found = os.lstat(folder)
    except OSError:
        return None
    private = stat.S_ISDIR(found.st_mode) and not stat.S_IMODE(found.st_mode) & 0o077
    return folder if private and found.st_uid == os.getuid() else None
