"""Bounded recall: run a resolved plan against a memory backend (seed 000 steps 4-7).

For each effective query, in priority order — explicit priorities first, highest first;
unweighted queries after, the most local hook's first (the nearer folder is the stronger
cue) — the backend is searched with the query, its cues, the prompt and the folder cues.
Then, backend-neutrally:

* exclusions (every context's ``exclude`` phrases, plus obsolete marks) are applied to
  every hit before anything enters the result, so an excluded memory cannot leak in
  through another query (the runtime over-fetches to make room);
* queries of equal priority are fused by reciprocal rank (k = 60), so a memory that
  several cues agree on ranks higher; groups are then taken highest priority first;
* duplicates (same id, or near-identical text) are kept once, with every query that
  recalled them in the provenance;
* whole memories are packed into the character budget in that order; what did not fit
  is reported as dropped.

A failing or timed-out query is reported and the others' results are kept; a query some
of whose sources failed (a search answering :class:`~memhooks.backends.base.PartialHits`)
keeps what the others found and is reported ``partial``, the failures in its ``error``.
No backend, an empty store, or no hooks and no prompt: the result says so (``status``)
and recalls nothing — no invented continuity.
"""

from __future__ import annotations

import os
import time

from ..errors import MemhooksError
from ..paths import relative
from ..session.keys import had
from .exclusion import Exclusions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable
    from typing import Any

    from ..backends.base import Backend, Hit

RRF_K = 60
#: The tag of a generated folder cue, as :data:`memhooks.maintain.generated.AUTO_TAG`
#: writes it: recall's own copy, held equal by a test, because importing the writer's
#: module costs the prompt ~1.6 ms (python -X importtime) for one string.
AUTO_TAG = "memhooks:auto"


class Task:
    """One effective query of one context, with its place in the priority order."""

    __slots__ = (
        "context",
        "depth",
        "error",
        "hits",
        "ms",
        "order",
        "priority",
        "query",
        "request",
        "source",
        "status",
    )

    def __init__(self, context: str, query: dict[str, Any], order: int) -> None:
        self.context = context
        self.query = query
        self.source = query.get("source")
        self.priority = query.get("priority")
        self.depth = (self.source or "").count("/")
        self.order = order
        self.request: Any = None
        self.hits: list[Hit] = []
        self.status = "pending"
        self.error: str | None = None
        self.ms = 0.0

    def sort_key(self) -> tuple[int, float, int, int]:
        if self.priority is None:
            return (1, 0.0, -self.depth, self.order)
        return (0, -float(self.priority), 0, self.order)


def _names(values: Iterable[Any]) -> list[str]:
    out = []
    for value in values:
        name = (
            value
            if isinstance(value, str)
            else value.get("name")
            if isinstance(value, dict)
            else None
        )
        if isinstance(name, str) and name.strip():
            out.append(name.strip())
    return out


def _file_cues(resources: Iterable[Any]) -> list[str]:
    return [
        value["name"]
        for value in resources
        if isinstance(value, dict)
        and value.get("kind") == "file"
        and isinstance(value.get("name"), str)
    ]


def _scopes(directory_rel: str) -> list[str]:
    out = [directory_rel]
    while out[-1]:
        out.append(out[-1].rsplit("/", 1)[0] if "/" in out[-1] else "")
    return out


def build_tasks(
    view_plans: list[dict[str, Any]], prompt: str | None, routing: bool, anchor: str | None = None
) -> list[Task]:
    """Tasks in execution order (see module docstring). With no routed query, one
    prompt-only task: the prompt as its text, else ``anchor`` (an anchored recall's
    target, root-relative: its memories are found by folder and files, not by words)."""
    tasks: list[Task] = []
    if routing:
        for cid, plan in enumerate(view_plans):
            for query in plan["effective_queries"]:
                tasks.append(Task(str(cid), query, len(tasks)))
    text = prompt if prompt and prompt.strip() else anchor
    if not tasks and text:
        tasks.append(
            Task(
                "0",
                {
                    "source": None,
                    "query": text,
                    "priority": None,
                    "roles": [],
                    "entities": [],
                    "resources": [],
                    "tags": [],
                    "backends": {},
                },
                0,
            )
        )
    tasks.sort(key=Task.sort_key)
    return tasks


def request_for(
    task: Task,
    plan: dict[str, Any] | None,
    root: str,
    *,
    prompt: str | None,
    active: list[str],
    backend: Backend,
    limit: int,
    project: str,
    timeout_s: float,
    named: dict[str, float] | None = None,
    anchored: bool = False,
) -> Any:
    """The :class:`~memhooks.backends.base.SearchRequest` for ``task``: ``plan`` is its
    context's plan (``None`` without routing), ``active`` the host's active files and
    ``named`` the target folder's files the prompt names (:func:`named_in_folder`), both
    root-relative."""
    from ..backends.base import SearchRequest

    query = task.query
    auto = AUTO_TAG in query.get("tags", [])
    # The prompt-only task (no hook asks anything) searches the prompt as its text; with a
    # plan it is routed by the folder like any query (its prompt is the same text).
    is_prompt_task = task.source is None
    return SearchRequest(
        query["query"],
        prompt=None if is_prompt_task and not plan else prompt,
        entities=_names(query.get("entities", [])),
        tags=[t for t in query.get("tags", []) if t != AUTO_TAG],
        files=_file_cues(query.get("resources", [])) + active,
        active_files=list(active),
        named_files=dict(named or {}) if plan else {},
        scopes=_scopes(relative(folder_of(plan, root), root)) if plan else [],
        auto=auto,
        limit=limit,
        options=(query.get("backends") or {}).get(backend.name) or {},
        project=project,
        timeout_s=timeout_s,
        priority=task.priority,
        resources=_names(query.get("resources", [])),
        anchored=anchored,
    )


def folder_of(plan: dict[str, Any] | None, root: str) -> str:
    """The folder a plan targets (its target, or the target's folder for a file)."""
    directory = plan["target"] if plan else root
    if plan and os.path.isfile(directory):
        directory = os.path.dirname(directory)
    return str(directory)


#: Least time (seconds) a query is started with; with less left it is skipped.
MIN_QUERY_S = 0.02
#: Status of a query the deadline left unsearched.
SKIPPED = "skipped"
#: Seconds kept back from the searches, per query, for ranking what they found (~0.1 ms
#: per query measured for 1,800 queries; twice that, so a huge hook still answers in time).
RANK_S_PER_QUERY = 0.0002


def run_tasks(
    tasks: list[Task], backend: Backend, exclusions: Exclusions, deadline: float
) -> dict[str, int]:
    """Search every task (sequentially, under one deadline); filter exclusions. Returns
    counters ``{"excluded": n}`` (distinct memories). Failures are recorded on the task,
    never raised."""
    excluded: set[str] = set()
    # Queries of one recall return many of the same memories; match each one once.
    verdicts: dict[tuple[object, ...], bool] = {}
    for task in tasks:
        remaining = deadline - time.monotonic()
        if remaining < MIN_QUERY_S:
            # Not a failure of the backend: the recall answers with what the queries
            # searched so far found (highest priority first), and says so (issue 22 item
            # 7: a search given 0.002 s failed "took longer than 0.00 s").
            task.status, task.error = SKIPPED, "not searched: the deadline came first"
            continue
        task.request.timeout_s = min(task.request.timeout_s, remaining)
        started = time.perf_counter()
        try:
            hits = backend.search(task.request)
        except MemhooksError as exc:
            task.status, task.error = "error", str(exc)
            continue
        except Exception as exc:  # noqa: BLE001 - a broken adapter must not take the other queries down
            task.status, task.error = "error", f"{type(exc).__name__}: {exc}"
            continue
        finally:
            task.ms = (time.perf_counter() - started) * 1000
        # Sources of this search that failed while others answered (backends.base.PartialHits).
        failures = getattr(hits, "failures", None)
        if task.request.options:  # provider options: a synthesis may be asked for
            from .synthesis import with_synthesis

            hits, task.error = with_synthesis(task.request, backend, hits)  # error: None till now
        kept = []
        for hit in hits:
            key = (
                hit.id,
                hit.text,
                hit.obsolete,
                hit.scope,
                *hit.tags,
                "\x00",
                *hit.entities,
                "\x00",
                *(hit.files or ()),
            )
            if key not in verdicts:
                verdicts[key] = exclusions.matches(hit) is not None
            if verdicts[key]:
                excluded.add(hit.id)
            else:
                kept.append(hit)
        task.hits, task.status = kept, "ok"
        if failures:
            said = "; ".join(message for _, message in failures)
            task.status, task.error = "partial", f"{said}; {task.error}" if task.error else said
    return {"excluded": len(excluded)}


def rank(
    tasks: list[Task], per_query: int, skip: Collection[str] = ()
) -> list[tuple[Hit, list[Task]]]:
    """Priority groups in order; within a group, reciprocal-rank fusion of the tasks'
    top ``per_query`` hits, not counting those the session has (``skip``, its ledger:
    the next ones move up). Returns (hit, tasks that recalled it) best first."""
    groups: list[list[Task]] = []
    for task in tasks:
        if groups and groups[-1][0].sort_key()[:2] == task.sort_key()[:2]:
            groups[-1].append(task)
        else:
            groups.append([task])
    ordered: list[tuple[Hit, list[Task]]] = []
    for group in groups:
        scores: dict[str, float] = {}
        found: dict[str, tuple[Hit, list[Task], int]] = {}
        for task in group:
            fresh = [h for h in task.hits if not had(skip, h.id, h.commit)] if skip else task.hits
            for position, hit in enumerate(fresh[:per_query]):
                scores[hit.id] = scores.get(hit.id, 0.0) + 1.0 / (RRF_K + position + 1)
                if hit.id in found:
                    found[hit.id][1].append(task)
                else:
                    found[hit.id] = (hit, [task], len(found))
        for memory_id in sorted(found, key=lambda m: (-scores[m], found[m][2])):
            hit, by, _ = found[memory_id]
            ordered.append((hit, by))
    return ordered
