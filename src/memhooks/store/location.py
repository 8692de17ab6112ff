"""Where the store file lives when nobody says otherwise."""

from __future__ import annotations

import os

from .. import dirs

FILENAME = "memories.sqlite3"
ENV_VAR = "MEMHOOKS_STORE"


def default_path() -> str:
    """Absolute path of the store file: ``$MEMHOOKS_STORE`` if set and non-empty, else
    ``memories.sqlite3`` in :func:`memhooks.dirs.data_dir`. Nothing is created here;
    :class:`~memhooks.store.MemoryStore` makes the directory."""
    override = os.environ.get(ENV_VAR)
    if override:
        return os.path.abspath(os.path.expanduser(override))
    return os.path.join(dirs.data_dir(), FILENAME)
