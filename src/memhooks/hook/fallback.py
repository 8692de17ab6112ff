"""A hook call without its usual places: no usable home folder, or a state file that
cannot be used — the session is kept elsewhere and the user is told once, in one short
line (issue 22 items 2 and 4; newcomer trial 4).

Loaded only when something is missing: a call whose home and state file are fine never
imports this module (issue 21, the hook's import set).
"""

from __future__ import annotations

import os

from .. import dirs
from ..errors import StoreError
from ..session.location import FILENAME
from ..session.state import State
from .call import EPHEMERAL

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .call import HookCall

#: What a missing home folder leaves unfound, and the setting that moves it.
MOVES = {"memory store": "MEMHOOKS_STORE", "session file": "MEMHOOKS_STATE_DIR"}


def state(call: HookCall, why: str) -> State:
    """The state when the state file cannot be used (``why``): one in the user's
    private runtime folder (:func:`memhooks.dirs.runtime_dir`), so the session's
    ledger still keeps a memory from coming twice and the model is told once
    (:attr:`HookCall.state_problem`); else, failing open with less rather than not at
    all, one in memory that ends with this call (:attr:`HookCall.ledgerless`)."""
    call.state_problem = why
    folder = dirs.runtime_dir(call.env)
    homeless = "session file" in call.homeless  # said by home_note()
    if folder is not None and folder != call.state_dir:
        try:
            kept = State(os.path.join(folder, FILENAME))
        except StoreError:
            pass
        else:
            if homeless:
                call.home = (call.home[0], folder)
                return kept
            call.notes.append(
                f"{why}; this session is kept in {folder} until then (edits' cue updates"
                " are applied at once, not journaled)"
            )
            return kept
    if homeless:
        return State(EPHEMERAL)
    call.notes.append(
        f"{why}; this call went on without the session's ledger"
        " (and tool-time recall is off until the state file can be used)"
    )
    return State(EPHEMERAL)


def no_home(call: HookCall, what: str, why: str) -> None:
    """Count ``what`` in :attr:`HookCall.homeless` when ``why`` it cannot be found is
    the home folder (:func:`memhooks.dirs.home`'s error leads the message)."""
    try:
        dirs.home(call.env)
    except OSError as exc:
        if why.startswith(str(exc)):
            call.home = (str(exc), call.home[1])
            call.homeless.append(what)


def home_note(call: HookCall) -> str | None:
    """One short stderr line when the home folder kept memhooks' own folders from being
    found, else None (newcomer trial 4: two long notes said "HOME is not set" twice):
    what is missing, the settings that move it, and where the session is kept
    meanwhile."""
    if not call.homeless:
        return None
    why, kept = call.home
    missing = [what for what in MOVES if what in call.homeless]
    line = (
        f"{why}: no {' or '.join(missing)} (set HOME, or "
        f"{' and '.join(MOVES[what] for what in missing)})"
    )
    if "session file" in call.homeless:
        line += f"; this session is kept in {kept}" if kept else "; no session ledger"
    return line
