"""What a history import did, in commits (``memhooks history import``'s report)."""

from __future__ import annotations


class ImportReport:
    """What an import did, in commits: ``commits`` (non-merge commits in the range),
    ``merges`` (merge commits skipped), ``added`` (new memories), ``updated`` (memories
    rewritten from an older import, or whose files, scope or commit moved: a rename, a
    rebase), ``present`` (stored already, unchanged), ``duplicates`` (the same change met
    twice in the range, e.g. cherry-picked: one memory), ``empty`` (no message once
    trailers are dropped: not stored) — ``added + updated + present + duplicates +
    empty == commits`` — then ``low_signal`` (memories of the range made of low-signal
    commits: stored and searchable, never delivered at tool time), ``obsoleted`` (earlier
    memories a revert marked obsolete), ``unresolved`` (reverted commits that are not in
    the store: merges, or outside what was imported), ``boundary`` (commits at a shallow
    clone's edge, imported without files), ``dry_run`` (nothing written: the counts say
    what an import would do)."""

    __slots__ = (
        "added",
        "boundary",
        "commits",
        "dry_run",
        "duplicates",
        "empty",
        "low_signal",
        "merges",
        "obsoleted",
        "present",
        "unresolved",
        "updated",
    )

    def __init__(self, *, dry_run: bool = False) -> None:
        self.commits = self.merges = self.added = self.updated = self.present = 0
        self.duplicates = self.empty = self.low_signal = 0
        self.obsoleted = self.unresolved = self.boundary = 0
        self.dry_run = dry_run

    def to_json(self) -> dict[str, int | bool]:
        return {name: getattr(self, name) for name in sorted(self.__slots__)}
