"""Where the state file lives (see :mod:`memhooks.session.state`); no SQLite here, so
the hot path can find the session snapshot without importing it."""

from __future__ import annotations

import os

from .. import dirs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

FILENAME = "state.sqlite3"
ENV_VAR = "MEMHOOKS_STATE_DIR"


def state_dir(env: Mapping[str, str] | None = None, notes: list[str] | None = None) -> str:
    """The directory of the state file: an absolute ``MEMHOOKS_STATE_DIR``, else
    :func:`memhooks.dirs.state_dir`; nothing is created. A relative
    ``MEMHOOKS_STATE_DIR`` (it would name another folder in every working folder) is
    an invalid value (:func:`memhooks.settings.invalid`): with ``notes`` (the hook) it is
    noted and the default folder used, else DiagnosticError MH028 is raised."""
    env = os.environ if env is None else env
    override = os.path.expanduser(env.get(ENV_VAR, ""))
    if override and os.path.isabs(override):
        return override
    if override.strip():
        from ..settings import invalid

        invalid(ENV_VAR, "an absolute folder", env[ENV_VAR], "the default folder", notes,
                "set it to an absolute path")  # fmt: skip
    return dirs.state_dir(env)


def state_path(env: Mapping[str, str] | None = None) -> str:
    """Absolute path of the state file."""
    return os.path.join(state_dir(env), FILENAME)
