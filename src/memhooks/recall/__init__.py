"""Recall: resolve the plan for a folder, run it against a memory backend, fit a budget.

See :mod:`memhooks.recall.runtime` for the order of work and :func:`recall` for the
result shape.
"""

from __future__ import annotations

import os
import time

from .exclusion import Exclusions
from .result import context, pack, text
from .runtime import (
    DEFAULT_BUDGET,
    PER_QUERY,
    RECALL_VERSION,
    build_tasks,
    named_in_folder,
    rank,
    request_for,
    run_tasks,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ..backends.base import Backend

__all__ = ["DEFAULT_BUDGET", "RECALL_VERSION", "context", "recall", "text"]

#: Default seconds for one backend call, and for the whole recall.
QUERY_TIMEOUT_S = 2.0
DEADLINE_S = 5.0


def recall(
    target: str = ".",
    *,
    prompt: str | None = None,
    files: Iterable[str] = (),
    roles: Iterable[str] = (),
    budget: int = DEFAULT_BUDGET,
    backend: Backend | str | None = None,
    store_path: str | None = None,
    per_query: int = PER_QUERY,
    routing: bool = True,
    strict: bool = True,
    query_timeout_s: float = QUERY_TIMEOUT_S,
    deadline_s: float = DEADLINE_S,
) -> dict[str, Any]:
    """Recall what matters for ``target`` (a folder or file).

    ``prompt``: the user's request, searched alongside every query; ``files``: active
    files (their folders join the plan, their paths become file cues); ``roles``: active
    roles; ``budget``: characters the injected context may use (label included);
    ``backend``: a :class:`~memhooks.backends.base.Backend`, a backend name, or ``None``
    for the configured one (default: the embedded store at ``store_path``);
    ``per_query``: hits taken from each query; ``routing=False`` ignores the hooks and
    searches the prompt alone (for comparisons); ``query_timeout_s``: seconds one backend
    search may take (default 2); ``deadline_s``: seconds all searches together may take
    (default 5; opening the backend is not counted — hosts bound the whole call).

    Returns a JSON-able dict ``memhooks/recall-v1``: ``status`` (``ok``,
    ``nothing_found``, ``over_budget`` (found, but no memory fits), ``empty_store``, ``no_cues``, ``no_backend``, ``failed``),
    ``backend``, ``project``, ``root``, ``targets``, ``queries`` (each with status, hit
    count, milliseconds, error), ``memories`` (id, text, scope, files, kind, tags,
    entities, created_at and ``recalled_by``: query, source, priority, context, backend
    score), ``guidance``, ``exclude``, ``dropped`` (``budget``, ``excluded``,
    ``duplicates`` counts; ``budget_ids``), ``budget`` (``chars``, ``used``), ``notes``.
    Raises DiagnosticError when the target or a hook in its chain is invalid (with
    ``strict``; otherwise the failing scope is dropped with a note).
    """
    from ..errors import MemhooksError, MissingStoreError
    from ..protocol.resolve import resolve_scopes
    from ..store import project_id
    from .dedup import Seen

    scopes = resolve_scopes([target], roles, files, strict=strict)
    plans = [p.data for p in scopes.plans]
    root = plans[0]["root"] if plans else os.path.realpath(target)
    project = project_id(root)
    file_notes: list[str] = []
    active = _active_files(files, root, file_notes)
    exclude: list[str] = []
    for plan in plans:
        exclude += [e for e in plan["exclude"] if e not in exclude]
    guidance: list[dict[str, Any]] = []
    for plan in plans if routing else []:
        guidance += [g for g in plan["guidance"] if g not in guidance]
    result: dict[str, Any] = {
        "recall_version": RECALL_VERSION,
        "status": "ok",
        "backend": None,
        "project": project,
        "root": root,
        "targets": [p["target"] for p in plans],
        "queries": [],
        "memories": [],
        "guidance": [],
        "exclude": exclude,
        "dropped": {"budget": 0, "excluded": 0, "duplicates": 0, "budget_ids": []},
        "budget": {"chars": budget, "used": 0},
        "notes": [*scopes.notes, *(n for n in file_notes if n not in scopes.notes)],
    }
    tasks = build_tasks(plans, prompt, routing)
    if not tasks:
        result["status"] = "no_cues"
        return result
    owned = not hasattr(backend, "search")
    try:
        if owned:
            from ..backends.registry import open_backend

            # A reader never creates the store: a mistyped --store must not look empty.
            backend = open_backend(
                backend if isinstance(backend, str) else None, store_path=store_path, create=False
            )
    except MissingStoreError as exc:
        result["status"] = "empty_store"
        result["backend"] = "embedded"
        result["notes"].append(str(exc))
        return result
    except MemhooksError as exc:
        result["status"] = "no_backend"
        result["notes"].append(str(exc))
        return result
    assert backend is not None and not isinstance(backend, str)
    try:
        result["backend"] = backend.name
        plan_of = {str(i): p for i, p in enumerate(plans)} if routing else {}
        named_of = {cid: named_in_folder(plan, root, prompt) for cid, plan in plan_of.items()}
        for task in tasks:
            task.request = request_for(task, plan_of.get(task.context), root, prompt=prompt, active=active, backend=backend,
                                       limit=per_query * 3 + len(exclude), project=project, timeout_s=query_timeout_s,
                                       named=named_of.get(task.context))  # fmt: skip
        # The deadline covers the searches, not opening the backend (an in-process Mem0
        # loads a model for seconds once); hosts bound the whole call themselves.
        counters = run_tasks(tasks, backend, Exclusions(exclude), time.monotonic() + deadline_s)
        count = getattr(backend, "count", None)
        if count is not None and not any(t.hits for t in tasks):
            try:
                if count(project) == 0:
                    result["status"] = "empty_store"
            except MemhooksError as exc:  # the queries' own errors already say what failed
                result["notes"].append(f"could not count the memories: {exc}")
    finally:
        if owned:
            backend.close()
    result["queries"] = [_query_report(t) for t in tasks]
    result["dropped"]["excluded"] = counters["excluded"]
    seen = Seen()
    memories: list[dict[str, Any]] = []
    kept_by_id: dict[str, dict[str, Any]] = {}
    duplicates: set[str] = set()  # counted once per memory, as exclusions are
    for hit, by in rank(tasks, per_query):
        if hit.id in kept_by_id:  # recalled again by a lower-priority query: provenance only
            kept_by_id[hit.id]["recalled_by"] += _memory(hit, by)["recalled_by"]
            continue
        if hit.id in duplicates or seen.duplicate_of(hit.id, hit.text):
            duplicates.add(hit.id)
            continue
        seen.add(hit.id, hit.text)
        kept_by_id[hit.id] = _memory(hit, by)
        memories.append(kept_by_id[hit.id])
    kept, kept_guidance, dropped = pack(memories, guidance, budget)
    result["memories"], result["guidance"] = kept, kept_guidance
    result["dropped"]["duplicates"] = len(duplicates)
    result["dropped"]["budget"] = len(dropped)
    result["dropped"]["budget_ids"] = [m["id"] for m in dropped]
    injected = context(result)
    result["budget"]["used"] = len(injected) if injected else 0
    if result["status"] == "ok" and not kept:
        failed = all(t.status != "ok" for t in tasks)
        if failed:
            result["status"] = "failed"
        else:
            result["status"] = "over_budget" if dropped else "nothing_found"
    return result


def _active_files(files: Iterable[str], root: str, notes: list[str]) -> list[str]:
    """Root-relative paths of the ``files`` that are regular files inside ``root``; a
    note in ``notes`` for each one that is not (it is not used as a cue)."""
    out = []
    for name in files:
        real = os.path.realpath(name)
        if real.startswith(root.rstrip(os.sep) + os.sep) and os.path.isfile(real):
            out.append(os.path.relpath(real, root).replace(os.sep, "/"))
        else:
            notes.append(f"active file {name!r} ignored: not a file inside the project root {root}")
    return out


def _query_report(task: Any) -> dict[str, Any]:
    return {
        "query": task.query["query"],
        "source": task.source,
        "priority": task.priority,
        "context": task.context,
        "status": task.status,
        "hits": len(task.hits),
        "ms": round(task.ms, 3),
        "error": task.error,
    }


def _memory(hit: Any, by: list[Any]) -> dict[str, Any]:
    return {
        "id": hit.id,
        "text": hit.text,
        "scope": hit.scope,
        "files": hit.files,
        "kind": hit.kind,
        "tags": hit.tags,
        "entities": hit.entities,
        "created_at": hit.created_at,
        "recalled_by": [
            {
                "query": t.query["query"],
                "source": t.source,
                "priority": t.priority,
                "context": t.context,
                "score": next((h.score for h in t.hits if h.id == hit.id), hit.score),
            }
            for t in by
        ],
    }
