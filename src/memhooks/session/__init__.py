"""Per-session state shared by hook processes: the working set, the delivery ledger and
the maintenance journal, in one SQLite file of the state directory (:mod:`.state`).

* :mod:`.record` — one host session: what it touched and what it was given;
* :mod:`.mentions` — paths a prompt or a shell command names;
* :mod:`.gate` — whether a prompt calls for recall at all;
* :mod:`.journal` — hook-file updates accepted and not yet applied.

Capture (:mod:`memhooks.capture`) and the Hermes plugin use the same sessions.
"""

from __future__ import annotations

from .record import Session, open_session
from .state import State, state_dir, state_path

__all__ = ["Session", "State", "open_session", "state_dir", "state_path"]
