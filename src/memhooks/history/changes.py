"""Which change each commit of an import carries, and which changes its reverts undo.

:class:`Changes` is fed the commits of the range oldest first. For each it says the
memory id of its change (:meth:`Changes.identify`): the change id
(:func:`.mapping.change_id`), unless an earlier commit of the range carried the same
change — then the same id (a cherry-pick to another branch), or, when a revert met since
undid that change, a new id for the re-land. Then it reads what the commit says it
reverts (:meth:`Changes.note`):

* the commits git's ``This reverts commit <hash>`` lines name, or a Conventional
  Commits ``revert:`` subject's ``Refs:`` footer (:func:`.message.reverted`), found among
  the range's commits by full or abbreviated hash;
* when none of those is a commit of the range, a ``Revert "<subject>"`` subject names the
  newest earlier commit of the range with that subject (the reverted commit was rebased
  before it landed, so git does not know the hash the message names — it happens).

Names not found in the range are looked up in git at the end (:meth:`Changes.marks`,
the commit may have been imported by an earlier, wider run). The result is a pure
function of the history: a re-run after an interrupted import decides exactly what the
uninterrupted import decided.
"""

from __future__ import annotations

import bisect

from .mapping import change_id
from .message import reverted, reverted_subject

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from .gitlog import Commit, Header


class Revert:
    """A revert met: its memory ``id``, the memory ids of the commits of the range it
    names (``found``), the names it gives that the range does not hold (``outside``),
    and the memory id its ``Revert "<subject>"`` subject names (``by_subject``)."""

    __slots__ = ("by_subject", "found", "id", "outside")

    def __init__(
        self, id: str, found: list[str], outside: list[str], by_subject: str | None
    ) -> None:
        self.id = id
        self.found = found
        self.outside = outside
        self.by_subject = by_subject


class Changes:
    """The bookkeeping of one import's walk over its commits, oldest first."""

    __slots__ = (
        "_by_hash",
        "_by_key",
        "_landings",
        "_reverted",
        "_sorted",
        "_subjects",
        "reverts",
    )

    def __init__(self, hashes: Iterable[str] = ()) -> None:
        """``hashes``: the range's commits (to find abbreviated hashes in)."""
        self._by_key: dict[str, str] = {}  # change id -> memory id of its latest landing
        self._landings: dict[str, int] = {}  # change id -> landings after reverts
        self._by_hash: dict[str, str] = {}  # commit hash -> memory id
        # The range's hashes sorted, to find an abbreviation by bisection (an index of
        # 7-digit prefixes cost 9 MB for 50,000 commits).
        self._sorted = sorted(hashes)
        # hash(subject) -> memory id of the newest commit so far with that subject. The str
        # hash stays in the process; a collision (about 2**-64 a pair) would only point a
        # hashless revert at the wrong commit.
        self._subjects: dict[int, str] = {}
        self._reverted: set[str] = set()  # memory ids a revert of the range undid
        #: Every revert met, in the order met.
        self.reverts: list[Revert] = []

    def identify(self, commit: Header) -> tuple[str, bool]:
        """``(memory id, first)`` for ``commit``: ``first`` is False when an earlier
        commit of the range carried its change (the memory is that commit's)."""
        base = change_id(commit)
        known = self._by_key.get(base)
        first = known is None or known in self._reverted
        if known is None:
            memory_id = base
        elif known in self._reverted:  # a re-land
            landing = self._landings[base] = self._landings.get(base, 0) + 1
            memory_id = change_id(commit, landing)
        else:
            memory_id = known
        self._by_key[base] = memory_id
        self._by_hash[commit.hash] = memory_id
        return memory_id, first

    def note(self, commit: Commit, memory_id: str) -> None:
        """Record what ``commit`` (whose memory is ``memory_id``) says it reverts, then
        its subject (for later ``Revert "<subject>"`` commits)."""
        names = reverted(commit.subject, commit.message)
        named = reverted_subject(commit.subject)
        if names or named is not None:
            found: list[str] = []
            outside: list[str] = []
            for name in names:
                target = self._find(name)
                if target is None:
                    outside.append(name)
                elif target not in found:
                    found.append(target)
            by_subject = None if named is None else self._subjects.get(hash(named))
            revert = Revert(memory_id, found, outside, by_subject)
            self.reverts.append(revert)
            self._reverted.update(found or ([by_subject] if by_subject else []))
        self._subjects[hash(commit.subject)] = memory_id

    def _find(self, name: str) -> str | None:
        """The memory id of the commit met so far that ``name`` (a full or abbreviated
        hash) names, when exactly one commit of the range has that prefix."""
        if len(name) == 40 or len(name) == 64:
            return self._by_hash.get(name)
        at = bisect.bisect_left(self._sorted, name)
        near = [h for h in self._sorted[at : at + 2] if h.startswith(name)]
        return self._by_hash.get(near[0]) if len(near) == 1 else None

    def marks(self, resolve: Callable[[Iterable[str]], Iterable[Header]]) -> list[tuple[str, str]]:
        """``(reverted memory id, revert memory id)`` for every revert, in the order met.
        ``resolve`` gives the headers of the commits git knows among names the range
        does not hold (those commits' change ids are what an earlier import stored)."""
        outside = [name for revert in self.reverts for name in revert.outside]
        known = {header.hash: change_id(header) for header in resolve(outside)} if outside else {}
        out: list[tuple[str, str]] = []
        for revert in self.reverts:
            targets = list(revert.found)
            for name in revert.outside:
                full = [h for h in known if h.startswith(name)]
                if len(full) == 1 and known[full[0]] not in targets:
                    targets.append(known[full[0]])
            if not targets and revert.by_subject is not None:
                targets = [revert.by_subject]
            out += [(target, revert.id) for target in targets if target != revert.id]
        return out
