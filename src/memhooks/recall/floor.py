"""Prompt-time precision: a memory reaches the model only when it really matches.

A lexical ranking (BM25) finds every memory that shares one word with the prompt or with
a hook's query, and on a small or quiet store the budget fills with them: the prompt
"tests/test_incidents.py::test_close_windows_merge fails. Fix it." brought seven imported
conversations about other code for "fails"; "make login sessions last longer" brought a
Safari cookie workaround for "session", ranked above the 15-minute token limit the hook
asks about. Nothing is better than noise (docs/recall.md, "The prompt-time floor").

Each memory found at prompt time is judged against its *cues*: the prompt, and the
hand-written queries that recalled it (a query's cue is its question: the folder-wide
entities and tags every query of a plan carries say where, not what). It is kept when one
of these holds:

1. **Anchor** — it touched a file the prompt names or the host marks active (the recall's
   ``files``: :attr:`memhooks.recall.stages.Resolved.active`), or a file a hand-written
   query that recalled it lists as a resource.
2. **Name** — one of its cues names one of its entities as a whole identifier
   (:func:`memhooks.symbols.mentions`), or it says an identifier of a cue
   (:func:`memhooks.words.code_word`: ``MERGE_GAP_S``, ``mergeWindows``; not ``API`` or
   ``10``).
3. **Words** — it shares with one of its cues distinctive words weighing at least
   :data:`MIN_WEIGHT` (or, for a cue of few distinctive words, :data:`COVER` of them:
   "staging database" and a memory about the staging DB), and at least :data:`RELATIVE`
   of what that cue's best match shares. Distinctive: a content word
   (:func:`memhooks.words.content_words`: lower-cased, plural and verb endings off,
   common words out) that is not an everyday word (:data:`EVERYDAY_WORDS`: "one more time",
   "last", "after", "fails") nor in more than a third of the store's memories
   (``frequent``: requests' "request", its package's folder, is in 56 %). Weight 1 each; 2 for a word that is one of the memory's
   tags or entities, its kind, or in its files' names (a label someone chose, or the code
   it is about), or an identifier. Two words are one when one begins the other in
   :data:`PREFIX` letters or more ("migrated", "migrations").
4. **Routed** — a hand-written query recalled it, and nothing that query found shares a
   distinctive word with it: the words cannot tell its matches apart, so the hook
   author's routing stands. "What constraints apply to every change in this project?"
   finds "every change needs a changelog line" through common words only (the real
   Claude Code e2e of issue 22 lost that rule to rule 3). Where the query's best match
   does share distinctive words, rule 3's :data:`RELATIVE` part still leaves out what
   shares one word by chance (the Safari cookie and "session outage" above).

Applied to a commit's memory (``memhooks history import``) only when the prompt says a
name of code (an identifier, as rule 2 reads it) that one of the memories found says:
then a commit must pass like any memory. "no_proxy is ignored when using sessions" found
the commits about ``no_proxy`` and, by the word "ignored" alone, one-line ``.gitignore``
chores ("ignore it", "ignore builds") and "Add .git-blame-ignore-revs", which a root
folder's files lifted above them. Otherwise a commit's memory is not judged: its
prompt-time ranking was tuned on the history benchmarks, and there the floor cost cited
commits. On iproute2's
real-clone sessions (bench/repo_replay.py, 87 tasks, one code with the floor on and off)
the prompt and the Reads delivered a cited commit in .532 of the sessions instead of
.601 (47 tasks instead of 53); the whole session, with the edits' line-level recall,
in .842 instead of .853 (74 instead of 75), for 12 % fewer characters (5,702 → 4,996)
and precision .112 instead of .099. A commit that shares one rare word with the prompt
is often the cited one; line-level recall and the low-signal rule are the commits'
precision. One rule still holds for them: a commit the prompt alone found, that shares
no distinctive word with it (only common and everyday ones), is left out — requests'
"tidy up the module docstrings" brought "give up", "lawyer up, v2" and "speed up
appveyor" for "up", "fix digest auth nonce counting again" "trying again" and "dammit,
i changed again" (newcomer 13:51, 13:53).

**A vague prompt** (:func:`vague`) brings a commit only when the commit tells itself
apart (:meth:`_Words.tells`). Vague: it says no name of code, names no file and no file
or folder directly in the project's root or the target folder, and the store counted its
words (:class:`~memhooks.backends.capabilities.FrequentWords`: a store of 200 memories or
more). Such a prompt keeps a commit the prompt alone found when they share a rare
distinctive word (in at most :data:`COMMON` of the store's memories) or two distinctive
words; a prompt of one distinctive word, when that word is rare and one of the commit's
labels (its files' names, entities, tags). On iproute2 "what does this tool do?" brought
"tipc: add new TIPC configuration tool" and "tidy up the table" "Make get_rates be table
based": "tool" is in 1.9 % of its 5,147 memories, "table" in 3.5 %, "output" in 8.9 %.
:data:`COMMON` is 1 % from the counts: the words of 25 vague prompts
(bench/prompts/vague.txt) over 1 % are "tool", "improve" (1.4 %), "consistent", "build",
"warnings", "table", "documentation", "formatting", "function", "output"; under it are
both "clean", "refactor", "simplify", "structure" (0.6–0.9 %) and the words real commit
subjects are about ("mpls" 0.97 %, "memory" 0.93 %, "leak" 0.82 %, "failure" 0.76 %), so
"clean up the table" still brings commits about cleaning. bench/vague_prompts.py: 90
commits (37,009 characters) in 20 of the 25 prompts before, 26 (11,404) in 6 after.
Notes and conversations keep the floor above.

The floor is not applied at tool time (anchored recall has its own rule,
:mod:`memhooks.recall.anchoring`), to a recall without a prompt (a hook's queries and the
folder cue then choose), and to memories a backend matched by meaning (Mem0, Hindsight,
Honcho, OpenViking, a generic backend, the embedded store with ``MEMHOOKS_SEARCH=hybrid``):
a paraphrase shares no word, and those backends' own score thresholds are their floor.
``MEMHOOKS_RELEVANCE_FLOOR=off`` turns it off (to compare, or to have every match).
A generated folder cue is no cue here: its text is a template that names no topic.

Over 300 lines on purpose: the floor's rules and the words they weigh are one judgement,
read in one place (the module docstring is a third of it).
"""

from __future__ import annotations

from ..symbols.mentions import mentions
from ..words import code_word, content_words, identifiers
from .runtime import AUTO_TAG

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping
    from typing import Any

    from .outcome import Recall, Recalled
    from .runtime import Task
    from .stages import Resolved

#: The setting that turns the floor off (:mod:`memhooks.settings`; default on).
FLOOR = "MEMHOOKS_RELEVANCE_FLOOR"
#: Weight of distinctive words a memory must share with one cue.
MIN_WEIGHT = 2
#: ... or this share of the cue's distinctive words, when that is less ...
COVER = 0.5
#: ... and at least this share of the weight the cue's best match shares.
RELATIVE = 0.6
#: Words too common in developers' prose to say what a memory is about (beyond the common
#: words :func:`content_words` leaves out), as people write them.
EVERYDAY_WORDS = """time times day days week weeks month year today yesterday tomorrow last first next
    previous new old still back after before again always never ever around already
    soon later early late long longer short small big large little number value values
    case cases part place point problem error errors bug bugs fail fails
    failing failed work works
    working worked broken break breaks wrong right correct better best worse same other
    different something anything nothing everything someone people user users thing
    show shows showing keep keeps kept give gives take takes put puts try tries call
    calls check checks look need needs help start stop happen happens happened seem
    seems report reported say says said tell told know think going come comes went
    ago since until while during within without across between among through"""
#: :data:`EVERYDAY_WORDS` as :func:`content_words` reads them (stemmed), written out:
#: reading them at import cost every prompt ~1.2 M instructions of stemming
#: (``tests/recall/test_floor.py`` holds the two equal).
EVERYDAY = frozenset(
    """acros ago already alway among anyth around back best better between big break broken
    bug bugs call case check come correct day days different during early error ever
    everyth fail first give going happen help keep kept know larg last late later littl
    long longer month need never new next noth number old other part peopl plac point
    previou problem put puts report right said same say says seem short show sinc small
    someon someth soon start stop take tell think through time today told tomorrow trie
    try until user valu week went within without work wors wrong year yesterday""".split()  # noqa: SIM905
)
#: Letters two words must share at the start to be one word (``migrat``, ``migration``).
PREFIX = 5
#: A word in more than this share of the store's memories is common: alone, it does not
#: tell a commit from the others (iproute2: "tool" 1.9 %, "improve" 1.4 %, "table" 3.5 %;
#: the words its real commit subjects are about: "mpls" 0.97 %, "failure" 0.76 %; the
#: module docstring, "A vague prompt").
COMMON = 0.01


def lexical(backend: str | None) -> bool:
    """Whether ``backend`` (a backend name) ranks by shared words only: the embedded store
    unless ``MEMHOOKS_SEARCH`` asks for hybrid search."""
    if backend != "embedded":
        return False
    from ..backends.embedded import hybrid_requested  # loaded: the backend that ranked

    return not hybrid_requested()


class Cue:
    """What one query asked, as the floor reads it: ``key`` (``(source, query)`` as
    ``recalled_by`` names it), its distinctive ``words`` (``heavy``: those that are
    identifiers; ``long``: those of :data:`PREFIX` letters or more), its code-shaped
    ``names`` and the ``files`` it lists."""

    __slots__ = ("files", "heavy", "key", "long", "names", "text", "words")

    def __init__(
        self, key: tuple[Any, str], text: str, files: Iterable[str] = (),
        frequent: frozenset[str] = frozenset(),
    ) -> None:  # fmt: skip
        self.key = key
        self.text = text
        self.words = content_words(text) - EVERYDAY - frequent
        # (content words are in small letters: an identifier among them is snake_case)
        self.heavy = frozenset(w for w in self.words if "_" in w.strip("_"))
        self.long = frozenset(w for w in self.words if len(w) >= PREFIX)
        self.names = frozenset(w for w in _tokens(text) if code_word(w))
        self.files = frozenset(files)


def cues(
    tasks: Iterable[Task], prompt: str, keys: Collection[tuple[Any, str]] = (),
    frequent: Iterable[str] = (),
) -> list[Cue]:  # fmt: skip
    """The prompt and the hand-written queries of ``tasks`` whose ``(source, query)`` is
    in ``keys`` (those that recalled something) as cues, the prompt first. A query's cue
    is its question: the folder-wide entities and tags every query of a plan carries
    (``auth``, ``security``) say where, not what. ``frequent``: the prompt's words the
    store holds in too many memories to tell any apart (rule 3)."""
    out = [Cue((None, prompt), prompt, frequent=content_words(" ".join(frequent)))]
    for task in tasks:
        query = task.query
        key = (task.source, query["query"])
        if AUTO_TAG in query.get("tags", ()) or task.source is None or key not in keys:
            continue
        files = [r["name"] for r in query.get("resources", ())
                 if isinstance(r, dict) and r.get("kind") == "file"]  # fmt: skip
        out.append(Cue(key, query["query"], files))
    return out


def judge(
    memories: list[Recalled],
    resolved: Resolved,
    prompt: str,
    out: Recall,
    *,
    shares: Mapping[str, float] | None = None,
) -> list[Recalled]:
    """The floor as :func:`memhooks.recall.recall_result` applies it at prompt time,
    when it is on (:data:`FLOOR`: its caller reads the switch, once): ``memories``
    kept — all of them when ``out.backend`` is not :func:`lexical` — and
    ``out.dropped["below_floor"]`` counting the others. ``shares``: the share of the
    store's memories holding each word of the prompt
    (:class:`~memhooks.backends.capabilities.FrequentWords`; none: every word is rare)."""
    if not lexical(out.backend):
        return memories
    from ..backends.embedded import FREQUENT_SHARE  # loaded: lexical() read the backend

    shares = shares or {}
    keys = {key for memory in memories for key in _keys(memory)}
    frequent = [word for word, share in shares.items() if share > FREQUENT_SHARE]
    cues_ = cues(resolved.tasks, prompt, keys, frequent)
    common = None
    if shares and any(m.commit for m in memories) and vague(cues_[0], resolved):
        common = content_words(" ".join(w for w, share in shares.items() if share > COMMON))
    kept, below = apply(memories, cues_, resolved.active, common)
    out.dropped["below_floor"] = len(below)
    return kept


def vague(prompt: Cue, resolved: Resolved) -> bool:
    """Whether the prompt (its cue) has no specific cue: it says no name of code, names
    no file (``resolved.active``: the files it names or the host marks active) and no
    file or folder directly in the project's root or a target's folder
    (:func:`memhooks.recall.filenames.names_entry`: "tc", "bridge", "Makefile" on iproute2).
    Its words alone then choose the commits (the module docstring, "A vague prompt")."""
    if prompt.names or resolved.active:
        return False
    from .filenames import names_entry  # loaded at prompt time: the search's named files
    from .runtime import folder_of

    folders = [resolved.root, *(folder_of(plan, resolved.root) for plan in resolved.plans)]
    return not names_entry(prompt.text, folders)


def apply(
    memories: list[Recalled],
    cues_: list[Cue],
    active: Iterable[str],
    common: frozenset[str] | None = None,
) -> tuple[list[Recalled], list[Recalled]]:
    """``(kept, below)``: ``memories`` (in order) split by the floor (see
    the module docstring). Each is judged against the prompt (``cues_[0]``) and the
    queries of ``cues_`` that recalled it; ``active`` are the root-relative files the
    prompt names or the host marks active. ``common``: the prompt's words in more than
    :data:`COMMON` of the store's memories when the prompt is :func:`vague` (a commit's
    memory then must tell: :meth:`_Words.tells`), else None."""
    wanted = frozenset(active)
    prompt, by_key = cues_[0], {c.key: c for c in cues_[1:]}
    # which memories say a name of code the prompt says: read once, for rule 2 and to
    # know whether commits' memories are judged (the module docstring)
    says_name = [any(mentions(m.text, name) for name in prompt.names) for m in memories]
    answered = any(says_name)
    judged: list[tuple[list[Cue], list[int]]] = []
    best: dict[tuple[Any, str], int] = {}
    for memory in memories:
        if memory.commit and not answered:
            # not judged — unless the prompt alone found it and it shares no distinctive
            # word with it (module docstring: "give up" for "tidy up the docstrings")
            # (or, for a vague prompt, unless it shares a rare word or two with it)
            routed = any(k in by_key for k in _keys(memory)) or _anchor(memory, wanted, [])
            if not routed:
                words = _Words(memory)
                routed = (
                    words.tells(prompt, common) if common is not None else words.weight(prompt) > 0
                )
            judged.append(([], []) if routed else ([prompt], [0]))
            continue
        words = _Words(memory)
        mine = [prompt, *(by_key[k] for k in _keys(memory) if k in by_key)]
        weights = [words.weight(c) for c in mine]
        for cue, weight in zip(mine, weights):
            best[cue.key] = max(best.get(cue.key, 0), weight)
        judged.append((mine, weights))
    kept: list[Recalled] = []
    below: list[Recalled] = []
    for memory, (mine, weights), named in zip(memories, judged, says_name):
        if not mine:  # a commit's memory, no name answered: not judged (module docstring)
            kept.append(memory)
            continue
        passes = (
            _anchor(memory, wanted, mine[1:])
            or named
            or _named(memory, mine)
            or any(
                weight >= max(1, min(MIN_WEIGHT, COVER * len(cue.words)))
                and weight >= RELATIVE * best[cue.key]
                for cue, weight in zip(mine, weights)
            )
            or any(best[cue.key] == 0 for cue in mine[1:])  # see the module docstring
        )
        (kept if passes else below).append(memory)
    return kept, below


def _keys(memory: Recalled) -> list[tuple[Any, str]]:
    """The ``(source, query)`` of each query that recalled ``memory``."""
    return [(b.get("source"), b.get("query", "")) for b in memory.recalled_by]


def _anchor(memory: Recalled, active: frozenset[str], mine: list[Cue]) -> bool:
    """Rule 1: it touched a file the prompt names, an active file, or a cue's file."""
    return any(f in active or any(f in c.files for c in mine) for f in memory.files)


def _named(memory: Recalled, cues_: list[Cue]) -> bool:
    """Rule 2, but for the identifiers of the prompt (``cues_[0]``), which
    :func:`apply` reads once: a cue names one of its entities, or it says an identifier
    of a query's cue."""
    return any(
        entity and mentions(cue.text, entity) for cue in cues_ for entity in memory.entities
    ) or any(mentions(memory.text, name) for cue in cues_[1:] for name in cue.names)


class _Words:
    """A memory's words as the floor reads them, made once per memory: ``said`` (content
    words of its text and labels), ``labels`` (of its tags, entities, kind and file
    names) and ``firsts`` (the first :data:`PREFIX` letters of each, or the whole word)."""

    __slots__ = ("firsts", "labels", "said")

    def __init__(self, memory: Recalled) -> None:
        named = [
            *memory.tags,
            *memory.entities,
            memory.kind or "",
            *(f.replace("/", " ").replace(".", " ") for f in memory.files),
        ]
        self.labels = content_words(" ".join(named))
        self.said = content_words(memory.text) | self.labels
        self.firsts = set(map(str.__getitem__, self.said, [_FIRST] * len(self.said)))

    def weight(self, cue: Cue) -> int:
        """The weight of the distinctive words shared with ``cue``: 1 each, 2 for one of
        its identifiers or of the memory's labels. Two words are one when one begins the
        other and the shorter has :data:`PREFIX` letters or more: the light stemmer
        leaves ``migrat`` (migrated) and ``migration`` apart. (Counted as sets, and a
        cue's word looked for by its first letters only where the memory has them: every
        prompt weighs each memory against each of its cues.)"""
        shared = cue.words & self.said
        total = len(shared) + len(shared & self.labels | shared & cue.heavy)
        for word in cue.long - shared:
            same = self._alike(word)
            if same:
                total += 2 if word in cue.heavy or any(w in self.labels for w in same) else 1
        return total

    def tells(self, cue: Cue, common: frozenset[str]) -> bool:
        """Whether a commit's memory tells itself apart for the vague prompt ``cue``
        (the module docstring, "A vague prompt"): it shares with it a distinctive word
        not in ``common``, or two; for a prompt of one distinctive word, that word is
        not in ``common`` and is one of the memory's labels (the code it is about, not a
        word of its prose: "faster", "project")."""
        if len(cue.words) == 1:  # (an identifier would have made the prompt not vague)
            return not cue.words <= common and self.weight(cue) >= 2
        shared = cue.words & self.said
        shared |= {word for word in cue.long - shared if self._alike(word)}
        return len(shared) >= 2 or not shared <= common

    def _alike(self, word: str) -> list[str]:
        """The memory's words that are ``word`` by their first :data:`PREFIX` letters
        (:meth:`weight`); looked for only where the memory has those letters."""
        first = word[:PREFIX]
        if first not in self.firsts:
            return []
        return [w for w in self.said if w.startswith(first) and len(w) >= PREFIX
                and (w.startswith(word) or word.startswith(w))]  # fmt: skip


#: The first :data:`PREFIX` letters of a word (:attr:`_Words.firsts`).
_FIRST = slice(0, PREFIX)


def _tokens(text: str) -> list[str]:
    """The identifier-like words of ``text`` (``tests/test_x.py::test_y`` gives
    ``tests``, ``test_x``, ``py``, ``test_y``: :func:`memhooks.words.identifiers`)."""
    return identifiers(text)
