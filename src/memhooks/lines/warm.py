"""Blame ahead of the edit: a bounded background process that blames a whole file so the
edit that follows a Read finds its lines' owners ready (issue 20 item 7).

Not a daemon (seed 000's boundary): one process per file that is not cached yet, started
by the hook of the Read and ending by itself — when the file is blamed, or after
``limit_s`` seconds, whichever comes first. Once the file is blamed it reads what each of
its owners said (one ``git log`` per 200 commits, at most :data:`AHEAD`) and keeps it
beside the cache entry (:func:`memhooks.lines.said.keep_aside`), then judges what each
owner did to the file (:func:`memhooks.lines.delta.verdicts`, and for an owner whose
subject names a layout change :func:`memhooks.lines.surface.surface_owners`;
:data:`JUDGE_BATCH` owners a ``git cat-file``, most lines first), so that an edit of lines the read did not cover
starts no git process, and loads no :mod:`difflib`, to say what their owners said and
whether they only re-laid them out. Last it walks back ahead (:func:`walk_ahead`): the
previous owners of the owners an edit walks back from, for all their lines, what those
said and did — so that the edit of a reformatted line finds what stood behind it ready.
Single-flight per file, started detached by the hook's read (:mod:`.warm_start`);
nothing else starts it.
"""

from __future__ import annotations

import contextlib
import sys
import time

from ..history.layout import names_layout
from . import cache, delta, said, surface
from .ownership import Ownership, owners
from .previous import previous_owners
from .ranges import extend, numbers
from .said import NOTES, RESHAPES, SPACE, aside, keep_aside, read, walked
from .warm_start import drop, lock_of, sign

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


#: Most commits whose messages one background blame reads ahead (a file's owners: a few
#: hundred in iproute2's largest files).
AHEAD = 2000
#: Commits one ``git log`` of the read-ahead names.
BATCH = 200
#: Steps back the walk ahead takes from an owner (:func:`walk_ahead`; an edit's walk
#: names at most :data:`memhooks.recall.why.MAX_WALK` commits past the first step).
STEPS = 3
#: Owners one ``git cat-file`` of the judging ahead shows both versions of (each judged
#: batch is kept at once: a process the limit ends keeps what it judged).
JUDGE_BATCH = 16


def main(argv: list[str]) -> int:
    """The background process: ``TOP PATH STATE_DIR LIMIT_S``: the whole file blamed,
    then what its owners said read ahead (at
    most :data:`AHEAD` commits: :func:`read_ahead`), both within ``LIMIT_S``."""

    top, path, state_dir, limit = argv
    lock = lock_of(state_dir, top, path)
    deadline = time.monotonic() + float(limit)
    sign(lock)
    try:
        # Nobody to tell of a failure here: the next hook call blames what is missing
        # (or reads what a commit said) and says what went wrong.
        with contextlib.suppress(Exception):
            own = owners(top, path, state_dir=state_dir, deadline=deadline)
            file = cache.path_of(state_dir, top, path)
            read_ahead(top, file, own, deadline)
            judge_ahead(top, own, deadline)
            walk_ahead(top, file, own, deadline)
    finally:
        drop(lock)
    return 0


def read_ahead(top: str, file: str, own: Ownership, deadline: float, limit: int = AHEAD) -> int:
    """Read what the owners ``own`` names said that neither the notes of its file version
    (cache entry ``file``) nor what is kept aside hold — at most ``limit`` commits, most
    lines first, :data:`BATCH` to a ``git log``, while ``deadline`` (monotonic) has not
    passed — and keep it aside (:func:`memhooks.lines.said.keep_aside`); how many were
    read. Raises what :func:`memhooks.lines.said.read` raises."""

    entry = own.entry
    if entry is None:
        return 0
    known = set(_commits(aside(file, entry.head, cache.FORMAT))) | set(_commits(entry.notes))
    wanted = [o.hash for o in own.owners if not o.boundary and o.hash not in known][:limit]
    done = 0
    for start in range(0, len(wanted), BATCH):
        if time.monotonic() >= deadline:
            break
        found = read(top, wanted[start : start + BATCH])
        if found and keep_aside(file, entry.head, cache.FORMAT, found):
            done += len(found)
    return done


def judge_ahead(top: str, own: Ownership, deadline: float, limit: int = AHEAD) -> int:
    """Judge what each owner ``own`` names did to its lines
    (:func:`memhooks.lines.delta.verdicts`, kept with the file version) that was not
    judged before — at most ``limit``, most lines first, :data:`JUDGE_BATCH` at a time,
    while ``deadline`` (monotonic) has not passed; how many were asked. An edit's owners
    are judged before they are told (:mod:`memhooks.recall.why_delta`): one not judged
    here costs that edit's hook ``git cat-file`` and a diff. Raises nothing."""

    judged = [o for o in own.owners if o.previous is not None and not o.boundary][:limit]
    asked = 0
    for rule, notes, wanted in (
        (delta.verdicts, said.NOTES, judged),
        # the layout rule's own verdicts, for an owner whose subject names a layout
        # change (:mod:`memhooks.recall.why_layout`)
        (surface.surface_owners, surface.NOTES, [o for o in judged if names_layout(o.summary)]),
    ):
        kept = own.notes.get(notes)
        known = kept if isinstance(kept, dict) else {}
        wanted = [o for o in wanted if o.hash not in known]
        for start in range(0, len(wanted), JUDGE_BATCH):
            if time.monotonic() >= deadline:
                return asked
            batch = wanted[start : start + JUDGE_BATCH]
            rule(top, batch, own, deadline=deadline)
            asked += len(batch)
    return asked


def walk_ahead(top: str, file: str, own: Ownership, deadline: float, limit: int = AHEAD) -> int:
    """Walk back ahead of the edit: the previous owners of every owner an edit may walk
    back from — low-signal or reshaping by what it said
    (:func:`memhooks.lines.said.walked`), or judged to have re-spaced or re-laid out some
    of its lines — looked up for all its lines (kept line by line:
    :class:`memhooks.lines.story.Story`), what they said read (kept aside, as
    :func:`read_ahead` keeps the owners'), what they did judged
    (:func:`memhooks.lines.delta.verdicts`, those an edit judges: not low-signal, or
    reshaping), then a step further from those that walk back too, each for all the
    lines any owner's lines came from — at most :data:`STEPS` steps and ``limit``
    previous owners, while ``deadline`` (monotonic) has not passed. So an edit of lines
    the read did not cover starts no git process to say what stood behind a reformatting
    owner (``bench_lines_hook`` ``edit_far``). How many owners were looked up; raises
    what :func:`memhooks.lines.said.read` raises."""

    entry = own.entry
    if entry is None:
        return 0
    said = entry.said  # as the edit reads it: the notes, then what read_ahead kept aside
    spacing, layout = own.notes.get(NOTES), own.notes.get(surface.NOTES)

    def reshaped(hash_: str) -> bool:
        """Judged to re-space some of its lines, or judged by the layout rule (a subject
        naming a layout change): an edit may walk back from a part of its lines."""
        verdict = spacing.get(hash_) if isinstance(spacing, dict) else None
        if isinstance(verdict, list) and any(v[-1:] == [SPACE] for v in verdict if v):
            return True
        return isinstance(layout, dict) and isinstance(layout.get(hash_), list)

    steps: list[Any] = []
    for owner in own.owners:
        note = said(owner.hash) if not owner.boundary else None
        if note is not None and (walked(note.low_signal) or reshaped(owner.hash)):
            steps.append(owner)
    asked = befores = 0
    for _ in range(STEPS):
        # each previous owner once, for every line of it that any owner's lines came from
        found: dict[tuple[str, str], Any] = {}
        for step in steps:
            if time.monotonic() >= deadline or befores >= limit:
                return asked
            asked += 1
            for before in previous_owners(top, step, own, deadline=deadline):
                if before.boundary:
                    continue
                kept = found.setdefault((before.hash, before.path), before)
                if kept is not before:
                    for n in numbers(before.origin_lines):
                        extend(kept.origin_lines, n)
        befores += len(found)
        said_of = {h: said(h) for h, _ in found}
        missing = [h for h, s in said_of.items() if s is None]
        for start in range(0, len(missing), BATCH):
            if time.monotonic() >= deadline:
                return asked
            batch = read(top, missing[start : start + BATCH])
            if batch:
                keep_aside(file, entry.head, cache.FORMAT, batch)
                said_of.update(batch)
        lows = {h: s.low_signal for h, s in said_of.items() if s is not None}
        judge = [b for (h, _), b in found.items() if h in lows and lows[h] in (None, RESHAPES)]
        for start in range(0, len(judge), JUDGE_BATCH):
            if time.monotonic() >= deadline:
                return asked
            delta.verdicts(top, judge[start : start + JUDGE_BATCH], own, deadline=deadline)
        steps = [b for (h, _), b in found.items() if h in lows and walked(lows[h])]
        if not steps:
            break
    return asked


def _commits(notes: dict[str, object]) -> dict[str, object]:
    """The commits a notes-like dict keeps (``notes["commits"]``; none: ``{}``)."""
    found = notes.get("commits")
    return found if isinstance(found, dict) else {}


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
