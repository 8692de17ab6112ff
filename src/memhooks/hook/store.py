"""Whether the hook has a memory store to read, decided without creating one."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .call import HookCall


def store_ready(call: HookCall) -> bool:
    """False when the embedded store is selected and its file does not exist yet: then
    there is nothing to recall, and a hook must not create a store as a side effect. A
    ``MEMHOOKS_STORE`` that cannot be a store, or a relative one that is not found from
    the hook's folder, is noted on the call (once)."""
    env = call.env
    if env.get("MEMHOOKS_BACKEND", "embedded") not in ("", "embedded"):
        return True
    from ..backends.config import config_path

    if not env.get("MEMHOOKS_BACKEND") and os.path.isfile(config_path(env)):
        # The config file may select another backend; only then pay for reading it.
        from ..backends.registry import selected

        try:
            if selected(env=env) != "embedded":
                return True
        except Exception:  # noqa: BLE001 - a broken config is reported by recall itself
            return True
    named = env.get("MEMHOOKS_STORE") or ""
    if not named:
        from ..store.location import default_path

        given = default_path()
        what = f"the memory store {given!r}"
    else:
        given = os.path.expanduser(named)
        what = f"MEMHOOKS_STORE {named!r}"
    if os.path.isfile(given):
        return True
    note = None
    if os.path.lexists(given):
        kind = "a directory" if os.path.isdir(given) else "not a regular file"
        note = f"{what} is {kind}; point MEMHOOKS_STORE at a file, or move it away"
    elif named and not os.path.isabs(given):
        # A relative MEMHOOKS_STORE is read from the agent's folder, not the user's shell.
        note = f"MEMHOOKS_STORE {named!r} is relative and not found from {os.getcwd()}; use an absolute path"
    if note and note not in call.notes:
        call.notes.append(note)
    return False


#: Most files of one folder remembered as having anchored memories.
MAX_ANCHORED_FILES = 500


def tool_backend(call: HookCall) -> Any:
    """The configured backend, opened once for a tool-time recall and what follows it
    (:func:`anchored_files`); None when there is no store yet or it cannot be opened
    (the recall then opens it itself and says why)."""
    from ..errors import MemhooksError

    if not store_ready(call):
        return None
    from ..backends.registry import open_backend

    try:
        return open_backend(None, store_path=call.env.get("MEMHOOKS_STORE") or None, create=False)
    except MemhooksError:
        return None


def anchored_files(backend: Any, project: str, folder: str, besides: set[str]) -> list[str]:
    """Root-relative files directly in ``folder`` that memories not in ``besides`` (ids
    the session has) touched, when ``backend`` can say (the embedded store; others
    cannot: then none, and tool-time recall works per folder only). Never raises."""
    from ..errors import MemhooksError

    files = getattr(backend, "anchored_files", None)
    if files is None:
        return []
    try:
        found: list[str] = files(project, folder, besides=besides, limit=MAX_ANCHORED_FILES)
    except MemhooksError:
        return []
    return found
