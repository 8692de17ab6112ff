"""Whether the session was already told everything an edit's lines would tell: the
pre-tool edit's shortcut (issue 20 item 7), decided from the blame cache and the
session's snapshot (:mod:`memhooks.session.snapshot`) with no SQLite and no git process.

An edit settles here only when it is sure: every file it changes is inside the root and
in a git work tree, its blame cache entry is for HEAD and the file as it is now
(:func:`memhooks.lines.cache.unchanged`), every line it replaces (±3) is known, and every
commit owning one was told in this session (its ``commit:<hash>`` row stands in the
ledger) and is not low-signal (a low-signal owner brings its previous owners, which the
cache alone cannot vouch for) — or is the project's first commit, which an edit tells
only when it answers the session's prompt (:func:`memhooks.recall.line_rank.says`), and
this one does not; lines owned by a shallow clone's edge tell nothing (its history is not
in the clone). Anything else goes the whole way: the ledger stays the
truth; this only says "nothing new here". Only ``os`` and the cache's own modules load.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence

    from ..backends.base import Backend
    from .tools import Change


def all_told(
    found: Sequence[Change],
    absolute: Callable[[str], str],
    root: str,
    state_dir: str,
    told: Collection[str],
    prompt: str | None = None,
) -> bool:
    """True when the changes ``found`` (an edit tool call's:
    :func:`memhooks.lines.tools.changes`) replace only lines whose owners were all told (``told``: full hashes; see the module docstring). ``absolute``
    makes the call's paths absolute; ``root``: the session's root; ``prompt``: the
    session's latest. Never raises."""
    if not found:
        return False
    try:
        return all(_told(change, absolute, root, state_dir, told, prompt) for change in found)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return False


def _told(
    change: Change,
    absolute: Callable[[str], str],
    root: str,
    state_dir: str,
    told: Collection[str],
    prompt: str | None,
) -> bool:
    from ..paths import inside
    from . import cache
    from .head import head_commit
    from .worktree import place

    full = absolute(change.path)
    found = place(full) if inside(full, root) else None
    if found is None:
        return False
    top, rel = found
    real = os.path.join(top, *rel.split("/"))
    st = os.stat(real)
    entry = cache.load(cache.path_of(state_dir, top, rel), hand_on=True)  # the whole way's, if
    if entry is None or entry.stat != cache.stat_key(st) or entry.head != head_commit(top):
        return False
    with open(real, "rb") as fp:
        raw = fp.read()
    text = raw.decode("utf-8", "replace")
    if not cache.unchanged(entry, st):  # changed too recently for its stat to say: its lines
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        if lines != entry.text:
            return False
    ranges = change.ranges(text)
    if not ranges:
        return False
    notes = entry.notes.get("commits")
    if not isinstance(notes, dict):
        return False
    size = len(entry.lines)
    settled: set[str | None] = set()  # owners found to add nothing
    for first, last in ranges:
        for n in range(max(1, first), min(last, size) + 1):
            known = entry.lines[n - 1]
            if known is None:
                return False  # not blamed yet
            if known < 0:
                continue  # uncommitted: owned by no commit
            hash_, _path, previous, *_rest = entry.origins[cache.origin_of(known)[0]]
            if hash_ in settled:
                continue
            if entry.commits.get(str(hash_), ("", 0, False))[2]:  # a shallow clone's edge
                quiet.add(str(hash_))  # never told: its history is not in the clone
                continue
            note = notes.get(hash_)
            if not isinstance(note, list) or note[4]:
                return False  # not read yet, or low-signal: its previous owners may be new
            if hash_ not in told:
                if previous is not None or len(note) < 6 or not note[5]:
                    return False
                from ..recall.line_rank import says  # the project's first commit

                if says(str(note[3]), prompt):
                    return False
            settled.add(hash_)
    return True


def quiet_store(backend: Backend, root: str) -> list[object] | None:
    """What a session's snapshot keeps so that a pre-tool edit need not search the store
    by the code's names (``quiet``: :func:`memhooks.session.snapshot.store_state`): for
    the embedded store ``backend`` (open), its state when the memories of the project at
    ``root`` there are all commits' — the symbol cue never tells those
    (:mod:`memhooks.recall.symbol_recall`, rule 4), so a search would find nothing to
    tell. None otherwise (another backend, a note or a conversation among the
    memories): the edit goes the whole way. The snapshot keeps it while the store does not
    change (:func:`memhooks.session.snapshot.still`): asked once per change."""
    from ..backends.embedded import EmbeddedBackend

    if not isinstance(backend, EmbeddedBackend) or backend.store.path == ":memory:":
        return None
    from ..errors import MemhooksError
    from ..session.snapshot import store_state
    from ..store import identify

    state = store_state(os.path.abspath(backend.store.path))  # before the store is asked
    try:
        if state is None or backend.store.beyond_history(identify(root).id):
            return None
    except MemhooksError:
        return None  # unreadable now: the edit goes the whole way (and says why)
    return state
