"""What capture kept of a session, replaced by the piece that holds it whole.

With capture on, a prompt that states a rule ("From now on ignore blips under 90 s") is
kept verbatim the moment it is said (:mod:`memhooks.capture.detectors.prompts`). Once the
session's transcript is imported, the piece holding that exchange says the same with its
context and conclusion; delivering both would be the chunk-by-chunk delivery pieces exist
to end. So a live ``decision``, ``constraint`` or ``learning`` that capture recorded from
the same session (``source`` ``capture:<host>:<session>``) and whose words are, verbatim,
in what the user said in a piece is marked superseded by that piece — the store's one
machinery (:meth:`memhooks.store.MemoryStore.mark_obsolete`). Checkpoints and session
records are left alone: they summarise the whole session, not one statement in it.
"""

from __future__ import annotations

from ..scrubber import clean

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from ..store import Memory, MemoryStore
    from .model import Transcript
    from .segment import Piece

#: Kinds of captured memory a piece replaces (the prompt detector's).
KINDS = ("decision", "constraint", "learning")


def replace(
    store: MemoryStore,
    conn: sqlite3.Connection,
    project: str,
    made: list[tuple[Memory, Piece, Transcript]],
) -> int:
    """Supersede the captured statements of these sessions that a piece of ``made`` holds;
    return how many were marked."""
    marked = 0
    for source, pieces in _by_session(made).items():
        rows = conn.execute(
            "SELECT id, text FROM memories WHERE project = ? AND source = ? AND obsolete = 0"
            f" AND kind IN ({', '.join('?' * len(KINDS))})",
            (project, source, *KINDS),
        ).fetchall()
        for memory_id, text in rows:
            said = _flat(text)
            holder = next((m for m, words in pieces if said and said in words), None)
            if holder is not None:
                store.mark_obsolete(memory_id, holder.id, project=project)
                marked += 1
    return marked


def _by_session(
    made: list[tuple[Memory, Piece, Transcript]],
) -> dict[str, list[tuple[Memory, str]]]:
    """``capture:<host>:<session>`` -> ``[(piece memory, what the user said in it)]``."""
    out: dict[str, list[tuple[Memory, str]]] = {}
    for memory, piece, transcript in made:
        said = " ".join(_flat(e.user.text) for e in piece.exchanges)
        out.setdefault(f"capture:{transcript.host}:{transcript.session}", []).append((memory, said))
    return out


def _flat(text: str) -> str:
    return " ".join(clean(text).split())
