"""Symbols as cues (issue 20 item 4): the names of the code an edit replaces (or a ranged
read shows) find the memories that name them — a ``remember``ed note, an imported
conversation (:mod:`memhooks.transcripts`: its pieces list the names they discuss as
entities), an issue summary — anchored to the file or not. Decisions name
``downtime_minutes`` or ``MAX_ATTEMPTS`` far more often than they name a path.

**The cue** (:class:`Cue`): the names of the code at those lines
(:func:`memhooks.symbols.symbols_at`), each with a weight (:data:`WEIGHTS`) — the
innermost definition enclosing them and those starting in them 3, the file's own names
the lines use (the constant a condition compares with, the helper it calls) 2, the
outer definitions enclosing them (a method's class) 1 — at most :data:`MAX_NAMES`,
heaviest first, none shorter than :data:`MIN_NAME`; and the file's stem
(``uptime/incidents.py`` → ``incidents``).

**The search**: one search of the backend (:class:`~memhooks.backends.base.SearchRequest`,
so every backend answers it) for the names and the stem, the names as entities: no
prompt, no folder — the prompt had its turn at prompt time, the folder at the read —
and no commits (``commits=False``: the embedded store leaves them out of the search, so
the ten commits that name ``super_len`` neither fill the candidates nor make the name
common; a note naming it was never told, newcomer25).

**The floor** — nothing is better than noise. A memory found is told only when:

1. it *names* a name of the cue: lists it among its entities, or says it as a whole
   identifier (:func:`memhooks.symbols.mentions`: ``MAX_ATTEMPTS`` is not named by
   ``MAX_ATTEMPTS_V2``; a name that is an everyday word — ``merge``, ``report``,
   ``usage`` — counts only written as code: in backticks, called, or as a member); a
   name the file keeps to itself (C ``static``, a Python ``_name``:
   :attr:`memhooks.symbols.Definition.local`) counts only in a memory about this file
   (it touched the file or says its stem) — another file's ``usage()`` or
   ``print_usage()`` is another function;
2. that name is not *common in the store*: a name that :data:`COMMON` or more of the
   :data:`CANDIDATES` memories found name (``main``, ``usage()``, ``parse_args``)
   says too little to pick one, and does not count;
3. it is live (not obsolete) and the chain's ``exclude`` phrases spare it;
4. it is not a commit's (a history memory): what a commit says about these lines comes
   by the lines it owns or owned (:mod:`.line_recall`). On iproute2's real-clone
   benchmark (bench/repo_replay.py, 87 tasks) commits found by name added 0.5 commits
   and 6 % more characters a session for no cited commit more (precision .097 → .092).

**The order**: the weights of the names a memory names, summed, first; then those that
also name the file's stem or touched the file; then the backend's own order. The best
:data:`LIMIT` are told, less those the session has — an edit of the same lines again
brings nothing rather than reaching further down — whole memories within the
budget (:func:`memhooks.recall.result.pack`). Each is labelled
with the names that found it (``recalled_by``: ``names merge_windows in
uptime/incidents.py``) and injected like every recalled memory: untrusted data.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence

    from ..backends.base import Backend, Hit
    from ..symbols.model import Symbols
    from .outcome import Recalled

#: Most names in one cue (the heaviest first).
MAX_NAMES = 8
#: Weight of a name by where it is: the innermost enclosing definition, a definition
#: starting in the lines, a name of the file the lines use, an outer enclosing one.
WEIGHTS = {"innermost": 3, "defined": 3, "used": 2, "outer": 1}
#: Shortest name that is a cue (``fn``, ``i`` name nothing).
MIN_NAME = 3
#: Memories asked of the backend for one cue.
CANDIDATES = 30
#: A name that this many of the candidates name is too common to count.
COMMON = 5
#: Most memories told for one edit or read.
LIMIT = 2


class Cue:
    """What finds memories by the code: ``names`` (name -> weight, heaviest first),
    ``stem`` (the file name without its extension) and ``path`` (root-relative, as the
    memories' files name it)."""

    __slots__ = ("local", "names", "path", "stem")

    def __init__(self, path: str, names: dict[str, int], local: Collection[str] = ()) -> None:
        self.path = path
        self.names = names
        self.local = frozenset(local)
        base = path.rpartition("/")[2]
        self.stem = base.rpartition(".")[0] or base

    @classmethod
    def of(cls, path: str, symbols: Symbols) -> Cue | None:
        """The cue of ``symbols`` found in the file ``path``; None without a name."""
        weighed: dict[str, int] = {}
        local: set[str] = set()
        places = [
            ("innermost", symbols.enclosing[:1]),
            ("defined", symbols.defined),
            ("used", symbols.used),
            ("outer", symbols.enclosing[1:]),
        ]
        for place, found in places:
            for definition in found:
                name = definition.name
                if len(name.strip("_")) >= MIN_NAME and not name[:2] == name[-2:] == "__":
                    weighed.setdefault(name, WEIGHTS[place])
                    if definition.local:
                        local.add(name)
        ordered = sorted(weighed.items(), key=lambda item: -item[1])[:MAX_NAMES]
        return cls(path, dict(ordered), local & {n for n, _ in ordered}) if ordered else None

    def label(self, named: Sequence[str]) -> str:
        return f"names {', '.join(named)} in {self.path}"


def find(
    backend: Backend,
    project: str,
    cue: Cue,
    *,
    delivered: Collection[str] = (),
    exclude: Sequence[str] | Callable[[], Sequence[str]] = (),
    timeout_s: float = 2.0,
) -> list[Recalled]:
    """The memories ``cue`` finds above the floor (module docstring), best first, at
    most :data:`LIMIT` (``anchored_by``: the names that found each). ``delivered``: the session's ledger; ``exclude``: the chain's exclusion
    phrases, or a function giving them (called only once a memory passes the floor:
    resolving the chain may parse its hooks); ``timeout_s``: the search's cap. Raises
    what the backend's search raises (:class:`~memhooks.errors.BackendError`)."""
    from ..backends.base import SearchRequest

    request = SearchRequest(
        " ".join([*cue.names, cue.stem]),
        entities=list(cue.names),
        limit=CANDIDATES,
        project=project,
        timeout_s=timeout_s,
        commits=False,  # never told here (floor 4): they must not fill the candidates
    )
    hits = backend.search(request)
    named = [(hit, _named(hit, cue)) for hit in hits]
    counts: dict[str, int] = {}
    for _hit, names in named:
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    rare = {name for name, count in counts.items() if count < COMMON}
    scored: list[tuple[int, int, int, Hit, list[str]]] = []
    for position, (hit, names) in enumerate(named):
        kept = [n for n in names if n in rare]
        if not kept or hit.obsolete or hit.commit:
            continue
        weight = sum(cue.names[n] for n in kept)
        scored.append((-weight, -_about_the_file(hit, cue), position, hit, kept))
    scored.sort(key=lambda item: item[:3])
    rules = None
    out: list[tuple[Hit, list[str]]] = []
    for *_rank, hit, kept in scored:
        if rules is None:
            from .exclusion import Exclusions

            rules = Exclusions(list(exclude() if callable(exclude) else exclude))
        if rules and rules.matches(hit):
            continue
        out.append((hit, kept))
        if len(out) == LIMIT:
            break
    # The best LIMIT, less what the session has: an edit of the same lines again brings
    # nothing new rather than reaching further down the list.
    return [_memory(hit, cue.label(kept)) for hit, kept in out if hit.id not in delivered]


def ledger_items(memories: Sequence[Recalled]) -> list[dict[str, object]]:
    """The session ledger's items for ``memories``."""
    from .result import short

    return [
        {"item": m.id, "words": short(" ".join(m.text.split())), "cue": m.anchored_by}
        for m in memories
    ]


def render(memories: list[Recalled], budget: int) -> tuple[str, list[Recalled]]:
    """The injected text of ``memories`` within ``budget`` characters (whole memories, a
    long commit message cut: :func:`memhooks.recall.result.pack`), and those it holds."""
    from .result import inject, pack

    kept, _guidance, _over = pack(memories, [], budget)
    text = inject(kept, []) if kept else None
    return text or "", kept


def _named(hit: Hit, cue: Cue) -> list[str]:
    """The names of ``cue`` that ``hit`` lists as entities or says in its text (a local
    one only when ``hit`` is about the cue's file)."""
    from ..symbols.mentions import mentions

    entities = set(hit.entities)
    found = [n for n in cue.names if n in entities or mentions(hit.text, n)]
    if cue.local.intersection(found) and not _about_the_file(hit, cue):
        found = [n for n in found if n not in cue.local]
    return found


def _about_the_file(hit: Hit, cue: Cue) -> int:
    """1 when ``hit`` touched the cue's file or says its stem (as a whole word)."""
    if cue.path in hit.files:
        return 1
    from ..symbols.mentions import says

    return int(says(hit.text.lower(), cue.stem.lower()))


def _memory(hit: Hit, by: str) -> Recalled:
    from .outcome import Recalled

    return Recalled.of(hit, anchored_by=by)
