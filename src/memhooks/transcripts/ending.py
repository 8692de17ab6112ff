"""A session's transcript into pieces when it ends or compacts, with capture on (seed 004's
``session_end``: "summarizes the session and records decisions and findings";
``pre_compact``: a checkpoint before the host drops context).

:func:`import_ended` is called by capture (:func:`memhooks.capture.observer.record`) after
its own work, only when capture is on for the project, and only for ``pre_compact`` and
``session_end``. It imports that one session file the way ``memhooks transcripts import``
does (:func:`.importer.import_session`): once — a second event of the same session reads
the file again only when it grew, and then adds or updates only what changed — and only
when the session belongs to the project.

The file is the one the host names in the payload (``transcript_path``; Copilot CLI's
``transcriptPath``), accepted only inside that host's own session folder (a payload cannot
make capture read another file), else found by the session id among the host's files.
A file larger than :data:`MAX_BYTES` is left to ``memhooks transcripts import``: the hook
must answer within its deadline. Hosts that never send a session end (Codex) are imported
at compaction, or by the command.
"""

from __future__ import annotations

import os

from ..paths import is_within
from .hosts import READERS
from .importer import ImportReport, import_session

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..agents.base import NormalizedEvent
    from ..store import MemoryStore
    from ..workspace import Workspace

#: Normalized events that import the session's transcript.
EVENTS = frozenset({"pre_compact", "session_end"})
#: Largest transcript imported inside a hook call (bytes).
MAX_BYTES = 8 << 20
#: Least time (seconds) an import needs to start inside a hook call.
MIN_S = 0.3


def import_ended(
    event: NormalizedEvent,
    store: MemoryStore,
    where: Workspace,
    env: Mapping[str, str],
    left_s: float | None = None,
) -> ImportReport | None:
    """Import the transcript of ``event``'s session (see the module docstring); None when
    there is nothing to import: another event, a host without a reader, no file found, a
    file too large, or less than :data:`MIN_S` seconds left."""
    if event.event not in EVENTS or event.host not in READERS:
        return None
    if left_s is not None and left_s < MIN_S:
        return None
    path = transcript(event.host, event.transcript_path, event.session_id, env)
    if path is None or os.path.getsize(path) > MAX_BYTES:
        return None
    return import_session(store, where, event.host, path)


def transcript(
    host: str, named: str | None, session: str | None, env: Mapping[str, str]
) -> str | None:
    """The session file of ``host``: ``named`` when it lies in the host's own session
    folder, else the one whose name carries ``session``; None when there is none."""
    reader = READERS[host]
    top = os.path.realpath(reader.folder(env))
    if named:
        real = os.path.realpath(os.path.expanduser(named))
        if is_within(real, top) and os.path.isfile(real):
            return real
    if not session or len(session) < 8:
        return None
    key = session if host != "gemini-cli" else session[:8]
    return next((p for p in reader.sessions(env) if key in os.path.relpath(p, top)), None)
