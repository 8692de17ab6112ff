"""Where the state file lives (see :mod:`memhooks.session.state`); no SQLite here, so
the hot path can find the session snapshot without importing it."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

FILENAME = "state.sqlite3"
ENV_VAR = "MEMHOOKS_STATE_DIR"


def state_dir(env: Mapping[str, str] | None = None) -> str:
    """The directory of the state file (see the module docstring); nothing is created.
    A relative ``MEMHOOKS_STATE_DIR`` or ``XDG_STATE_HOME`` is ignored (the XDG rule)."""
    env = os.environ if env is None else env
    override = os.path.expanduser(env.get(ENV_VAR, ""))
    if override and os.path.isabs(override):
        return override
    xdg = env.get("XDG_STATE_HOME", "")
    if sys.platform == "win32" or (sys.platform == "darwin" and not os.path.isabs(xdg)):
        import platformdirs  # only off Linux: the hook path must not pay for it

        return platformdirs.user_state_dir("memhooks", appauthor=False)
    home = env.get("HOME") or os.path.expanduser("~")
    base = xdg if os.path.isabs(xdg) else os.path.join(home, ".local", "state")
    return os.path.join(base, "memhooks")


def state_path(env: Mapping[str, str] | None = None) -> str:
    """Absolute path of the state file."""
    return os.path.join(state_dir(env), FILENAME)
