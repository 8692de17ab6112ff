"""Where the store file lives: the default, and the one rule for a relative one.

**A relative store path in the environment** (``MEMHOOKS_STORE=rel.sqlite3``, or the
embedded backend's ``MEMHOOKS_EMBEDDED_PATH``) — and so a relative backend
configuration file, ``MEMHOOKS_CONFIG``, and Mem0's local folder, ``MEMHOOKS_MEM0_PATH``
(:data:`memhooks.settings.ROOTED`; newcomer6: it was read from the process folder, so a
value that worked at the root named no file in ``src/pkg``) — **is relative to the project root
memhooks finds from the working folder** — the folder the command runs in, the folder
the agent's hook payload names (the launch folder agents use) — by the root rule of
:func:`memhooks.protocol.root.find_root` (``MEMHOOKS_ROOT`` when it contains that
folder, else the git work tree, else the highest ``MEMHOOKS.md``); outside any project
(none of those), to the working folder itself. So one relative value names one file
whichever folder of the project a command or an agent's tool call runs from (newcomer
trial: ``memhooks remember`` at the root and in ``src/pkg`` made two stores). The CLI
applies it once, where it starts (:func:`memhooks.cli.main`); the agent hook once a
call, where the call chooses its store (:attr:`memhooks.hook.call.HookCall.store_env`:
a call that chooses none pays nothing); both through :func:`rooted`. ``--store FILE``
is a command-line argument and stays relative to the shell's folder, as every path
argument. A relative ``[backends.embedded] path`` in a configuration file is relative
to that file's folder, what its author saw (:meth:`memhooks.backends.config.Config.resolve`):
a variable has no file to be relative to; for a file at the root both rules agree.
"""

from __future__ import annotations

import os

from .. import dirs
from ..settings import store_variable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def default_path() -> str:
    """Absolute path of the store file the process environment names
    (:func:`memhooks.settings.store_variable`: ``$MEMHOOKS_EMBEDDED_PATH``, else
    ``$MEMHOOKS_STORE``), else ``memories.sqlite3`` in :func:`memhooks.dirs.data_dir`
    (:func:`memhooks.dirs.store_file`). Nothing is created here;
    :class:`~memhooks.store.MemoryStore` makes the directory. A relative value is taken
    from the process folder here: the CLI and the hook made it absolute by the module's
    rule before (:func:`rooted`)."""
    var = store_variable(os.environ)
    return dirs.store_file(os.environ[var] if var else None)


def rooted(env: Mapping[str, str], folder: str) -> dict[str, str]:
    """The variables of ``env`` that name a relative store or configuration file
    (:func:`memhooks.settings.relative_paths`), each made absolute against the project
    root found from the working folder ``folder`` (absolute), or ``folder`` itself
    outside any project (the module's rule): ``{name: absolute path}``, empty when none
    is relative. Never raises: a folder that cannot be walked is its own root. Says
    nothing: an unusable ``MEMHOOKS_ROOT`` is the caller's own root search's to warn of
    (once: the command's, review6)."""
    import warnings

    from ..errors import MemhooksWarning
    from ..protocol.root import find_root
    from ..settings import relative_paths

    names = relative_paths(env)
    if not names:
        return {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MemhooksWarning)
            root = find_root(folder, env)[0]
    except (OSError, ValueError):
        root = folder
    return {name: os.path.normpath(os.path.join(root, env[name])) for name in names}
