"""Per-session state shared by hook processes: the working set, the delivery ledger and
the maintenance journal, in one SQLite file of the state directory (:mod:`.state`).

* :mod:`.record` — one host session: what it touched and what it was given;
* :mod:`.snapshot` — the tool-event fast path: "nothing new" without SQLite;
* :mod:`.mentions` — paths a prompt or a shell command names;
* :mod:`.gate` — whether a prompt calls for recall at all;
* :mod:`.journal` — hook-file updates accepted and not yet applied; :mod:`.waiting` —
  those that wait for a broken hook file;
* :mod:`.report` — the delivery log, for ``memhooks sessions``.
* :mod:`.capture_record` — what capture keeps of a session (prompts, files, fixes);
* :mod:`.layout` — the state file's tables and migrations; :mod:`.rescue` — what a
  replaced state file hands over.

Capture (:mod:`memhooks.capture`) and the Hermes plugin use the same sessions. Names are
imported on first use: the hook's fast path must not load SQLite.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .location import state_dir, state_path
    from .record import Session, open_session
    from .state import State

__all__ = ["Session", "State", "open_session", "state_dir", "state_path"]

_WHERE = {
    "Session": "record",
    "open_session": "record",
    "State": "state",
    "state_dir": "location",
    "state_path": "location",
}


def __getattr__(name: str) -> object:
    if name not in _WHERE:  # e.g. a submodule being imported (``from . import snapshot``)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ..lazy import attribute  # loaded with the first name asked for

    return attribute(__name__, _WHERE, name, globals())
