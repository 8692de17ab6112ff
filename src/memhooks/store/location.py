"""Where the store file lives when nobody says otherwise."""

from __future__ import annotations

import os
import sys

FILENAME = "memories.sqlite3"
ENV_VAR = "MEMHOOKS_STORE"


def default_path() -> str:
    """Absolute path of the store file: ``$MEMHOOKS_STORE`` if set and non-empty, else
    ``$XDG_DATA_HOME/memhooks/memories.sqlite3`` (``~/.local/share/...`` when unset) on
    Linux and other Unixes and on macOS when ``XDG_DATA_HOME`` is set, else
    ``platformdirs.user_data_dir("memhooks")`` (Windows, plain macOS).

    Nothing is created here; :class:`~memhooks.store.MemoryStore` makes the directory.
    """
    override = os.environ.get(ENV_VAR)
    if override:
        return os.path.abspath(os.path.expanduser(override))
    xdg = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says a relative value is invalid and must be ignored.
    xdg = xdg if os.path.isabs(xdg) else ""
    if sys.platform == "win32" or (sys.platform == "darwin" and not xdg):
        # Imported here: the hook path on Linux must not pay for platformdirs.
        import platformdirs

        return os.path.join(platformdirs.user_data_dir("memhooks", appauthor=False), FILENAME)
    base = xdg or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "memhooks", FILENAME)
