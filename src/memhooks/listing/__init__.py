"""Which hook files a tree holds: the machinery ``validate --all`` and ``prune --all`` list
hooks with, kept apart from the pure protocol core (:mod:`memhooks.protocol`).

One entry: :func:`find_hooks` (:mod:`.cache`) — the sorted hook paths below a folder, as
git lists them in a work tree (what it ignores left out) and as a walk finds them
elsewhere, answered from the listing cache while nothing it rests on changed.
Underneath: :mod:`.discover` (the uncached listing), :mod:`.candidates` (hooks read while
git lists), :mod:`.walker` (the child that walks the tree), :mod:`.folders` (the walk
the cache records), and :mod:`.gitstate` (the git files a listing depends on).
Validating what it finds is :mod:`memhooks.validation`'s.
"""

from __future__ import annotations

from .cache import find_hooks

__all__ = ["find_hooks"]
