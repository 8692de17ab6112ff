"""Recall: resolve the plan for a folder, run it against a memory backend, fit a budget.

Four stages (:mod:`memhooks.recall.stages`): resolve → search → merge → pack.
:func:`recall_result` returns the typed :class:`~memhooks.recall.outcome.Recall`;
:func:`recall` its ``memhooks/recall-v1`` dict (the CLI's and the MCP tool's shape).
See :mod:`memhooks.recall.runtime` for the order of work.
"""

from __future__ import annotations

from ..settings import default

#: Characters of context when the caller names no budget (``MEMHOOKS_MAX_CHARS``'s default).
DEFAULT_BUDGET = default("MEMHOOKS_MAX_CHARS")
#: Hits taken from each query.
PER_QUERY = 5

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable
    from typing import Any

    from ..backends.base import Backend
    from ..errors import MemhooksError
    from ..store.project import Identity
    from .outcome import RECALL_VERSION, Recall, Recalled
    from .result import context
    from .runtime import Task
    from .summary import text

#: Public names loaded on first use: the hook's line-level recall imports modules of this
#: package (``recall.line_recall``, ``recall.why``) and runs no recall.
_LAZY = {
    "RECALL_VERSION": "outcome",
    "Recall": "outcome",
    "Recalled": "outcome",
    "context": "result",
    "text": "summary",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:  # e.g. a submodule being imported (``from . import wording``)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ..lazy import attribute  # loaded with the first name asked for

    return attribute(__name__, _LAZY, name, globals())


__all__ = [
    "DEFAULT_BUDGET",
    "RECALL_VERSION",
    "Recall",
    "Recalled",
    "context",
    "recall",
    "recall_result",
    "text",
]

#: Default seconds for one backend call, and for the whole recall.
QUERY_TIMEOUT_S = 2.0
DEADLINE_S = 5.0


def recall(target: str = ".", **options: Any) -> dict[str, Any]:
    """Recall what matters for ``target`` (a folder or file): :func:`recall_result` as a
    JSON-able ``memhooks/recall-v1`` dict (see :meth:`Recall.to_dict` for its keys)."""
    return recall_result(target, **options).to_dict()


def recall_result(
    target: str = ".",
    *,
    targets: Iterable[str] = (),
    prompt: str | None = None,
    files: Iterable[str] = (),
    roles: Iterable[str] = (),
    budget: int = DEFAULT_BUDGET,
    backend: Backend | MemhooksError | str | None = None,
    store_path: str | None = None,
    per_query: int = PER_QUERY,
    routing: bool = True,
    strict: bool = True,
    query_timeout_s: float = QUERY_TIMEOUT_S,
    deadline_s: float = DEADLINE_S,
    delivered: Collection[str] = (),
    keep: Callable[[Recalled], str | None] | None = None,
    anchored: bool = False,
    commits: bool = True,
    skip_invalid: bool = False,
    identity: Identity | None = None,
    floor: bool | None = None,
) -> Recall:
    """Recall what matters for ``target`` (a folder or file) and ``targets`` (more
    folders of the same project, e.g. the ones a session worked in).

    ``prompt``: the user's request, searched alongside every query (at most its first
    :data:`~memhooks.protocol.text.MAX_PROMPT_CHARS` characters:
    :func:`~memhooks.protocol.text.bound_prompt`); ``files``: active
    files (their folders join the plan, their paths become file cues); ``roles``: active
    roles; ``budget``: characters the injected context may use (label included);
    ``backend``: an open :class:`~memhooks.backends.base.Backend` (left open), the
    MemhooksError that kept the caller's from opening (memory is then unavailable), a
    backend name, or ``None`` for the configured one (default: the embedded store at
    ``store_path``);
    ``per_query``: hits taken from each query; ``routing=False`` ignores the hooks and
    searches the prompt alone (for comparisons); ``query_timeout_s``: seconds one backend
    search may take (default 2); ``deadline_s``: seconds all searches together may take
    (default 5; opening the backend is not counted — hosts bound the whole call);
    ``delivered``: memory ids and ``guidance:<source>`` keys the agent already has (a
    session's ledger), left out; ``keep``: a test each memory must pass to be recalled
    (None refuses it; a non-empty reason is its ``anchored_by``);
    ``anchored``: tool time — ask the backend for memories anchored to the target folder
    and the active files only (:attr:`~memhooks.backends.base.SearchRequest.anchored`),
    and, unless ``keep`` says otherwise, keep only those
    (:meth:`memhooks.recall.anchoring.Anchor.for_target`); ``commits=False`` (with
    ``anchored``): no history memories are wanted — the backend is asked for the others
    only (:attr:`~memhooks.backends.base.SearchRequest.commits`), so the commits a
    ``keep`` refuses do not crowd them out. With a ``prompt`` and not
    anchored, a lexical backend's memories pass the relevance floor
    (:mod:`memhooks.recall.floor`; ``dropped["below_floor"]`` counts those it left out;
    ``MEMHOOKS_RELEVANCE_FLOOR=off`` turns it off; ``floor``: the caller's reading of
    that switch — the hook reads it as it reads every setting, its invalid value a
    note on the hook's stderr line (:meth:`memhooks.hook.call.HookCall.switch`) —, None:
    read here, an invalid value DiagnosticError MH028). ``identity``: the project's
    (:func:`memhooks.store.identify`), when the caller identified the root already (the
    hook call); None: identified here.

    Raises DiagnosticError when a target or a hook in its chain is invalid (with
    ``strict``; otherwise the failing scope is dropped with a note) — but with
    ``skip_invalid`` (the agent hook) an invalid hook is left out of its chain and
    recall runs on the rest (:attr:`Recall.skipped`, and a note).
    """
    from ..protocol.text import bound_prompt
    from ..session import keys
    from .merging import merge
    from .outcome import Recall
    from .result import for_agent, pack
    from .stages import query_report, resolve, search

    # What recall reads of a prompt (the hook cuts it on arrival; the CLI and MCP here).
    prompt = bound_prompt(prompt) if prompt else prompt

    resolved = resolve(
        [target, *targets],
        prompt=prompt,
        files=files,
        roles=roles,
        routing=routing,
        strict=strict,
        anchored=anchored,
        skip_invalid=skip_invalid,
        identity=identity,
    )
    if anchored and keep is None:
        from .anchoring import Anchor

        keep = Anchor.for_target(resolved.root, target, resolved.active)
    out = Recall(resolved, budget)
    guidance = [g for g in resolved.guidance if keys.guidance(g.get("source")) not in delivered]
    out.dropped["delivered"] = len(resolved.guidance) - len(guidance)
    if not resolved.tasks:
        out.status = "no_cues"
        if backend is None or isinstance(backend, str):
            _configured(out, backend)
        return out
    # Prompt time: only what really matches the prompt or a hook's question, unless the
    # floor is off. Asked once, before the search: counting the prompt's frequent words
    # in the store (the floor's, ~2 ms a prompt) is for the floor alone.
    if not prompt or anchored:
        floor = False
    elif floor is None:
        from ..settings import switch

        floor = switch("MEMHOOKS_RELEVANCE_FLOOR")
    searched = search(
        resolved,
        backend,
        store_path=store_path,
        prompt=prompt,
        per_query=per_query,
        query_timeout_s=query_timeout_s,
        deadline_s=deadline_s,
        anchored=anchored,
        commits=commits,
        frequent=floor,
    )
    out.backend = searched.backend
    out.unavailable = searched.unavailable
    if not searched.opened:
        # why no backend opened first: the status line quotes the first note
        # (status.headline), which was a hook the chain skipped (newcomer12)
        out.notes[:0] = searched.notes
        out.status = str(searched.status)
        return out
    out.notes += searched.notes
    out.queries = [query_report(t) for t in resolved.tasks]
    out.dropped["excluded"] = searched.excluded
    merged = merge(resolved.tasks, per_query, delivered=delivered, keep=keep)
    if prompt and not anchored and merged.memories:
        if floor:  # imported only then: it reads words and names (recall.floor,
            from .floor import judge  # symbols.mentions), which no other call needs

            merged.memories = judge(merged.memories, resolved, prompt, out, shares=searched.shares)
    elif not prompt and not anchored and merged.memories:
        found = len(merged.memories)
        merged.memories = _prompt_less(merged.memories, resolved.tasks)
        if len(merged.memories) < found:  # the floor's count: no floor ran otherwise
            out.dropped["below_floor"] = found - len(merged.memories)
    kept, kept_guidance, over = pack(merged.memories, guidance, budget)
    out.memories, out.guidance = kept, kept_guidance
    out.dropped["duplicates"] = merged.duplicates
    out.dropped["delivered"] += merged.delivered
    out.dropped["refused"] = merged.refused
    out.dropped["budget"] = len(over)
    out.dropped["budget_ids"] = [m.id for m in over]
    partial = out.partial()
    if partial:
        out.notes.append(partial)
    injected = for_agent(out)
    out.used = len(injected) if injected else 0
    if searched.status is not None:
        out.status = searched.status
    elif not kept:
        if all(t.status not in ("ok", "partial") for t in resolved.tasks):
            out.status = "failed"
        else:
            out.status = "over_budget" if over else "nothing_found"
    return out


def _configured(out: Recall, name: str | None) -> None:
    """With nothing to search no backend is opened, but the configuration that would
    choose it is read: an invalid one (MH028 at its file, line and column), or an
    unknown backend, makes the status ``no_backend`` with the error as
    :attr:`Recall.unavailable`, as a recall with a prompt says it (store22: ``memhooks
    recall .`` said "nothing to recall" and nothing of a broken configuration file)."""
    from ..backends.registry import read_config, selection
    from ..errors import MemhooksError, said

    try:
        selection(name, config=read_config())
    except MemhooksError as exc:
        out.status, out.unavailable = "no_backend", exc
        out.notes.insert(0, said(exc))  # first: the status line quotes it


def _prompt_less(memories: list[Recalled], tasks: Iterable[Task]) -> list[Recalled]:
    """A recall without a prompt (a session start, after a compaction): ``memories``
    without the commits' memories that only a generated folder cue found. That cue names
    no topic; it lists the folder's files, so it matches the commits touching most of
    them — a move to ``src/``, a formatting run, "Add inline types" — and they filled
    the whole delivery (newcomer trial #6: 2,077 chars of bulk and low-signal commits;
    issue 20 item 1: low-signal commits never fill a tool-time delivery). A folder's
    commits reach the agent at its Reads, by the lines read (line-level recall)."""
    from .runtime import AUTO_TAG  # loaded already: the recall ran the runtime

    auto = {(t.source, t.query["query"]) for t in tasks if AUTO_TAG in t.query.get("tags", ())}
    return [
        m
        for m in memories
        if not m.commit
        or any((b.get("source"), b.get("query", "")) not in auto for b in m.recalled_by)
    ]
