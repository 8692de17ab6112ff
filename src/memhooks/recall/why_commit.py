"""The commits an answer of :mod:`.why` names: what each said — from the notes of the
file version (:class:`memhooks.lines.said.Said`) or, once, from ``git log`` (scrubbed as
``history import`` scrubs it, with its low-signal reason and how many files it touched)
— and what leaves one out: the hook chain's ``exclude`` phrases and the embedded
store's reverted/obsolete marks. Commit text is untrusted data.
"""

from __future__ import annotations

from ..lines.said import Said, read, says_little

# On the hook's import set with recall.why: git's log, the history's scrubbing and
# low-signal rule load only for a commit not read before; the exclusion rules only when
# the chain has phrases.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..lines.ownership import Ownership
    from ..lines.previous import Before
    from ..store import MemoryStore
    from .exclusion import Exclusions


class Commit:
    """What a commit said: ``hash``, ``subject``, ``time`` (author time, seconds),
    ``message`` (its text as ``history import`` keeps it: trailers naming people
    dropped, e-mails and secrets scrubbed, bounded), ``low_signal`` (the reason from
    :func:`memhooks.history.signal.low_signal`, ``"reshapes"`` for a refactor-like
    subject, else None), ``root`` (it has no parent: the project's first commit),
    ``files`` (how many files it touched; 0: not known)."""

    __slots__ = ("email", "files", "hash", "low_signal", "message", "root", "subject", "time")

    def __init__(self, hash: str, subject: str, time: int, message: str) -> None:
        self.hash = hash
        self.email = ""  # what the change id is made of; never shown
        self.subject = subject
        self.time = time
        self.message = message
        self.low_signal: str | None = None
        self.root = False
        self.files = 0


def rules(exclude: Sequence[str]) -> Exclusions | None:
    if not exclude:
        return None
    from .exclusion import Exclusions

    return Exclusions(list(exclude))


class LeftOut:
    """What leaves a commit out: the store's mark on its memory (obsolete: ``reverted``
    when a revert superseded it), or an exclusion phrase of the chain. ``excluded``: the
    commits :meth:`leaves_out` left out, in the order met, once each: ``[(hash, reason,
    behind)]`` — ``behind``, for a previous owner, the commit that replaced its lines
    (None for an owner) — so an answer shows what it left out (issue 20 item 5)."""

    def __init__(self, rules: Exclusions | None, store: MemoryStore | None, project: str | None):
        self.rules = rules
        self.store = store
        self.project = project
        self.marks: dict[str, str] = {}
        self.excluded: list[tuple[str, str, str | None]] = []

    def leaves_out(self, commit: Commit, path: str, behind: str | None = None) -> bool:
        """Whether ``commit`` is left out (:meth:`reason`), kept in :attr:`excluded`."""
        reason = self.reason(commit, path)
        if reason and all(h != commit.hash for h, _, _ in self.excluded):
            self.excluded.append((commit.hash, reason, behind))
        return reason is not None

    def look_up(self, commits: dict[str, Commit]) -> None:
        """Read the store's marks of ``commits`` (one query)."""
        if self.store is None or self.project is None or not commits:
            return
        from ..history.gitlog import Header
        from ..history.mapping import change_id

        found = self.store.by_commit(self.project, list(commits))
        for hash_, commit in commits.items():
            memory = found.get(hash_)
            if memory is None:  # imported before commits were indexed: by its change
                header = Header(hash_, commit.email, str(commit.time), commit.subject)
                memory = self.store.get(change_id(header), project=self.project)
            if memory is not None and memory.obsolete:
                self.marks[hash_] = "reverted" if memory.superseded_by else "obsolete"

    def reason(self, commit: Commit, path: str) -> str | None:
        if commit.hash in self.marks:
            return self.marks[commit.hash]
        if not self.rules:
            return None
        from ..backends.base import Hit

        hit = Hit(commit.hash, commit.message, 0.0, files=[path] if path else [])
        return self.rules.matches(hit)


def texts(top: str, hashes: list[str], own: Ownership) -> dict[str, Commit]:
    """The commits named by ``hashes``: from the notes of the file version when they
    were read before (no process), or from what the background blame read ahead of the
    file's owners — both as :meth:`memhooks.lines.cache.Entry.said` reads them, the
    pre-tool shortcut's one reading too (:mod:`memhooks.hook.told`) — else from git — what git
    said kept in those notes (:class:`memhooks.lines.said.Said`) and the entry saved.
    What came from the read-ahead alone stays there: it is kept already, and saving a
    big file's entry (~130 kB of JSON for a 6,000-line file) was ~7 % of a warm edit's
    instructions (bench_lines_hook ``edit_far``, callgrind: 155.8 M → 144.7 M)."""
    found: dict[str, Commit] = {}
    missing = []
    for hash_ in dict.fromkeys(hashes):
        said = own.entry.said(hash_) if own.entry is not None else None
        if said is None:
            missing.append(hash_)
            continue
        found[hash_] = _commit(hash_, said)
    if missing:
        notes = own.notes
        for hash_, said in read(top, missing).items():
            found[hash_] = _commit(hash_, said)
            said.keep(notes, hash_)
        own.keep()
    return {h: found[h] for h in hashes if h in found}


def said_before(
    top: str,
    found: list[Before],
    own: Ownership,
    left_out: LeftOut,
    limit: int | None,
    behind: str,
) -> list[tuple[Before, Commit]]:
    """The first ``limit`` (None: all) previous owners of ``found`` that are not a boundary, each
    with what its commit said, less those left out (kept in ``left_out.excluded``, as
    previous owners of ``behind``); in order."""
    kept = [b for b in found if not b.boundary][:limit]
    commits = texts(top, [b.hash for b in kept], own)
    left_out.look_up(commits)
    out: list[tuple[Before, Commit]] = []
    for before in kept:
        commit = commits.get(before.hash)
        if commit is not None and not left_out.leaves_out(commit, "", behind):
            out.append((before, commit))
    return out


def read_commits(top: str, hashes: list[str]) -> dict[str, Commit]:
    """The commits named by full ``hashes``, with their messages and low-signal reason
    (:func:`memhooks.lines.said.read`: one ``git log``)."""
    return {h: _commit(h, said) for h, said in read(top, hashes).items()}


def _commit(hash_: str, said: Said) -> Commit:
    commit = Commit(hash_, said.subject, said.time, said.message)
    commit.email, commit.low_signal, commit.root = said.email, said.low_signal, said.root
    commit.files = said.files
    return commit


def with_news(
    before: list[tuple[Commit, int]], earlier: list[tuple[Commit, int, str]]
) -> tuple[list[tuple[Commit, int]], list[tuple[Commit, int, str]]]:
    """``before`` and ``earlier`` less each commit that says little
    (:func:`memhooks.lines.said.says_little`: "Import patch ipxfrm-20040707_2.diff") with
    nothing that says more behind it: "before it" such a commit tells nothing (newcomer21:
    ``ip/ipxfrm.c:36`` — 166 characters of it at an edit)."""
    kept = list(earlier)
    while True:  # from the far end: a link stays while something behind it stays
        behind = {after for _, _, after in kept}
        fewer = [e for e in kept if not says_little(e[0].low_signal) or e[0].hash in behind]
        if len(fewer) == len(kept):
            break
        kept = fewer
    behind = {after for _, _, after in kept}
    return [b for b in before if not says_little(b[0].low_signal) or b[0].hash in behind], kept
