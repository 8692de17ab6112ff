"""A hook call without its usual places: no usable home folder, or a state file that
cannot be used — the session is kept elsewhere and the user is told once, in one short
line (issue 22 items 2 and 4; newcomer trial 4).

Loaded only when something is missing: a call whose home and state file are fine never
imports this module (issue 21, the hook's import set). It returns what it found;
:class:`~memhooks.hook.call.HookCall` keeps it (this module imports nothing of hook/).
"""

from __future__ import annotations

import os

from .. import dirs
from ..errors import StoreError
from ..session.location import FILENAME
from ..session.state import State

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

#: What a missing home folder leaves unfound, and the setting that moves it.
MOVES = {"memory store": "MEMHOOKS_STORE", "session file": "MEMHOOKS_STATE_DIR"}


def state(
    why: str, env: Mapping[str, str], state_dir: str, *, homeless: bool
) -> tuple[State | None, str | None]:
    """(the state when the state file in ``state_dir`` cannot be used (``why``), what to
    tell of it). The state is one in the user's private runtime folder
    (:func:`memhooks.dirs.runtime_dir`), so the session's ledger still keeps a memory
    from coming twice and the model is told once; None when there is none usable (the
    call then fails open with less rather than not at all: a state in memory that ends
    with it, ``HookCall.ledgerless``). The note is None when the home folder is missing
    (``homeless``: :func:`home_note` tells it, with the folder kept in)."""
    folder = dirs.runtime_dir(env)
    if folder is not None and folder != state_dir:
        try:
            kept = State(os.path.join(folder, FILENAME))
        except StoreError:
            pass
        else:
            return kept, None if homeless else (
                f"{why}; this session is kept in {folder} until then (edits' cue updates"
                " are applied at once, not journaled; once the file is usable again, what"
                " this session was given meanwhile may come once more)"
            )
    return None, None if homeless else (
        f"{why}; this call went on without the session's ledger"
        " (and tool-time recall is off until the state file can be used)"
    )


def home_error(env: Mapping[str, str], why: str) -> str | None:
    """The home folder's error (:func:`memhooks.dirs.home`) when it is what ``why`` a
    folder of memhooks cannot be found begins with, else None."""
    try:
        dirs.home(env)
    except OSError as exc:
        if why.startswith(str(exc)):
            return str(exc)
    return None


def home_note(homeless: Sequence[str], why: str, kept: str | None) -> str | None:
    """One short stderr line when the home folder (unusable: ``why``) kept memhooks' own
    folders from being found (``homeless``: ``HookCall.homeless``), else None (newcomer
    trial 4: two long notes said "HOME is not set" twice): what is missing,
    the settings that move it, and where the session is kept meanwhile (``kept``)."""
    if not homeless:
        return None
    missing = [what for what in MOVES if what in homeless]
    line = (
        f"{why}: no {' or '.join(missing)} (set HOME, or "
        f"{' and '.join(MOVES[what] for what in missing)})"
    )
    if "session file" in homeless:
        line += f"; this session is kept in {kept}" if kept else "; no session ledger"
    return line
