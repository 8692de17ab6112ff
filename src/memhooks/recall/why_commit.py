"""The commits an answer of :mod:`.why` names: what each said — from the notes of the
file version (:class:`memhooks.lines.said.Said`) or, once, from ``git log`` (scrubbed as
``history import`` scrubs it, with its low-signal reason and how many files it touched)
— and what leaves one out: the hook chain's ``exclude`` phrases and the embedded
store's reverted/obsolete marks. Commit text is untrusted data.
"""

from __future__ import annotations

from ..lines.said import RESHAPES, Said

# On the hook's import set with recall.why: git's log, the history's scrubbing and
# low-signal rule load only for a commit not read before; the exclusion rules only when
# the chain has phrases.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..lines.ownership import Ownership
    from ..store import MemoryStore
    from .exclusion import Exclusions

#: Longest commit message carried per commit (characters; the id says where the rest is).
MESSAGE_CHARS = 2000


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


#: ``git log`` format: hash, author name, e-mail, author time, parents, subject, message.
_FORMAT = "%H%x1f%an%x1f%ae%x1f%at%x1f%P%x1f%s%x1f%B"
#: Where a commit's token in that output has its first separator (after a SHA-1 or a
#: SHA-256 hash); a file's name follows as a token of its own.
_HEADER = (40, 64)


def texts(top: str, hashes: list[str], own: Ownership) -> dict[str, Commit]:
    """The commits named by ``hashes``: from the notes of the file version when they
    were read before (no process), else from git (kept in those notes:
    :class:`memhooks.lines.said.Said`)."""
    notes = own.notes
    found: dict[str, Commit] = {}
    missing = []
    for hash_ in dict.fromkeys(hashes):
        said = Said.of(notes, hash_)
        if said is None:
            missing.append(hash_)
            continue
        found[hash_] = commit = Commit(hash_, said.subject, said.time, said.message)
        commit.email, commit.low_signal, commit.root = said.email, said.low_signal, said.root
        commit.files = said.files
    if missing:
        for commit in read_commits(top, missing).values():
            found[commit.hash] = commit
            Said(commit.subject, commit.time, commit.email, commit.message, commit.low_signal,
                 commit.root, commit.files).keep(notes, commit.hash)  # fmt: skip
        own.keep()
    return {h: found[h] for h in hashes if h in found}


def read_commits(top: str, hashes: list[str]) -> dict[str, Commit]:
    """The commits named by full ``hashes``, with their messages and low-signal reason."""
    from ..history import blame_ignore, signal
    from ..history.message import bound, memory_text
    from ..history.process import tokens

    if not hashes:
        return {}
    # --name-only: each commit's header token is followed by one token per file it touched
    args = ["log", "--no-walk=unsorted", "-z", "--name-only", f"--format={_FORMAT}",
            *dict.fromkeys(hashes)]  # fmt: skip
    found: dict[str, Commit] = {}
    ignored = blame_ignore.revs(top)
    commit: Commit | None = None
    for token in tokens(top, args):
        if commit is not None and token.find(b"\x1f") not in _HEADER:
            commit.files += 1
            continue
        hash_, author, email, when, parents, subject, message = token.decode(
            "utf-8", "replace"
        ).split("\x1f", 6)
        body = message.partition("\n")[2].strip()
        commit = Commit(hash_, subject, int(when), bound(memory_text(message), MESSAGE_CHARS))
        commit.low_signal = signal.low_signal(
            subject,
            body,
            author=author,
            email=email,
            parents=len(parents.split()),
            blame_ignored=blame_ignore.listed(hash_, ignored),
        ) or (RESHAPES if signal.reshapes(subject) else None)
        commit.email = email
        commit.root = not parents.split()
        found[hash_] = commit
    return found
