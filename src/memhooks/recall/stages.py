"""The four stages of a recall, each a function with a typed result:

1. :func:`resolve` — the plans of the targets (root → chain → merge), the project, the
   active files, exclusions, guidance and the search tasks in priority order;
2. :func:`search` — open the backend (unless given one) and run every task under its own
   cap and one deadline (:func:`memhooks.recall.runtime.run_tasks`);
3. :func:`memhooks.recall.merging.merge` — rank the tasks' hits (priority groups,
   reciprocal-rank fusion), drop duplicates, what the caller says was already delivered,
   and what its ``keep`` test refuses;
4. packing into the budget (:func:`memhooks.recall.result.pack`), done by
   :func:`memhooks.recall.recall_result`.

Nothing here prints; failures of single queries are recorded on their task.

Over 300 lines on purpose: the stages are one pipeline read top to bottom, each stage's
result type beside the function that makes it; splitting them would scatter one recall.
"""

from __future__ import annotations

import os
import time

from ..paths import inside, relative, resolved
from .runtime import RANK_S_PER_QUERY, build_tasks, request_for, run_tasks

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ..backends.base import Backend
    from ..errors import Diagnostic, MemhooksError
    from ..store.project import Identity
    from .runtime import Task


class Resolved:
    """Stage 1: ``plans`` (plan-v1 dicts), ``root``, ``project``, ``active`` (root-relative
    active files), ``exclude``, ``guidance``, ``notes``, ``tasks`` (in priority order),
    ``routing`` (False: the prompt alone, hooks ignored), ``skipped`` (the first error
    of each invalid hook left out of a chain), ``aliases`` (the project's
    earlier ids: :attr:`memhooks.store.Identity.aliases`)."""

    __slots__ = (
        "active",
        "aliases",
        "exclude",
        "guidance",
        "notes",
        "plans",
        "project",
        "root",
        "routing",
        "skipped",
        "tasks",
    )

    def __init__(
        self,
        plans: list[dict[str, Any]],
        root: str,
        project: str,
        active: list[str],
        exclude: list[str],
        guidance: list[dict[str, Any]],
        notes: list[str],
        tasks: list[Task],
        routing: bool,
        aliases: tuple[str, ...] = (),
        skipped: list[Diagnostic] | None = None,
    ) -> None:
        self.skipped = skipped or []
        self.aliases = aliases
        self.routing = routing
        self.plans = plans
        self.root = root
        self.project = project
        self.active = active
        self.exclude = exclude
        self.guidance = guidance
        self.notes = notes
        self.tasks = tasks


def resolve(
    targets: list[str],
    *,
    prompt: str | None,
    files: Iterable[str],
    roles: Iterable[str],
    routing: bool,
    strict: bool,
    anchored: bool = False,
    skip_invalid: bool = False,
    identity: Identity | None = None,
) -> Resolved:
    """Stage 1 for ``targets`` (folders or files of one project; the first is the base).
    ``anchored``: a tool-time recall, which searches its target even when no hook asks
    anything and there is no prompt. ``identity``: the project's (:func:`memhooks.store.identify`)
    if the caller has it (the hook call's :attr:`~memhooks.hook.call.HookCall.identity`).
    Raises DiagnosticError when a target or a hook in its chain is invalid (with
    ``strict``; otherwise the failing scope is dropped with a note). With ``skip_invalid``
    an invalid hook of a chain is left out of it (:attr:`Resolved.skipped`: its first)."""
    from ..protocol.resolve import resolve_scopes
    from ..store import identify

    files = list(files)
    scopes = resolve_scopes(targets, roles, files, strict=strict, skip_invalid=skip_invalid)
    plans = [p.data for p in scopes.plans]
    root = plans[0]["root"] if plans else os.path.realpath(targets[0])
    notes = list(scopes.notes)
    active = _active_files(files, root, notes)
    exclude: list[str] = []
    guidance: list[dict[str, Any]] = []
    for plan in plans:
        exclude += [e for e in plan["exclude"] if e not in exclude]
        if routing:
            guidance += [g for g in plan["guidance"] if g not in guidance]
    anchor = None
    if anchored:
        base = resolved(targets[0])
        anchor = relative(base, root) or "."
    tasks = build_tasks(plans, prompt, routing, anchor)
    identity = identify(root) if identity is None else identity
    notes += [f"skipped an invalid hook: {_where(d)} {d.code} {d.message}" for d in scopes.skipped]
    return Resolved(
        plans,
        root,
        identity.id,
        active,
        exclude,
        guidance,
        notes,
        tasks,
        routing,
        identity.aliases,
        scopes.skipped,
    )


def _where(diagnostic: Diagnostic) -> str:
    """``path:line:col`` of a diagnostic (the path alone when no line is known)."""
    if diagnostic.line is None:
        return diagnostic.path
    return f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column or 1}"


def _adopt(backend: Backend, resolved: Resolved, notes: list[str]) -> None:
    """The embedded store moves what it kept under the project's earlier ids (asked only
    when it has some: a remote added, the first commit made; ``MemoryStore.adopt``)."""
    from ..backends.capabilities import Adopts
    from ..errors import MemhooksError

    if isinstance(backend, Adopts):
        try:
            backend.adopt(resolved.project, resolved.aliases)
        except MemhooksError as exc:  # searching still works on what the id finds
            notes.append(f"could not move the memories kept under earlier project ids: {exc}")


def _active_files(files: Iterable[str], root: str, notes: list[str]) -> list[str]:
    """Root-relative paths of the ``files`` that are regular files inside ``root``; a
    note in ``notes`` for each one that is not (it is not used as a cue)."""
    out = []
    for name in files:
        rel = inside(name, root)
        if rel and os.path.isfile(os.path.join(root, rel)):
            out.append(rel)
        else:
            note = f"active file {name!r} ignored: not a file inside the project root {root}"
            if note not in notes:
                notes.append(note)
    return out


class Searched:
    """Stage 2: ``backend`` (its name, None when none opened), ``opened``, ``status`` (None,
    ``empty_store`` / ``no_backend``), ``excluded`` (distinct memories dropped by
    exclusions), ``notes``, ``unavailable`` (the MemhooksError the opening raised),
    ``shares`` (the share of the store's memories holding each of the prompt's words, for
    the floor: :class:`~memhooks.backends.capabilities.FrequentWords`)."""

    __slots__ = ("backend", "excluded", "notes", "opened", "shares", "status", "unavailable")

    def __init__(self, backend: str | None, status: str | None = None) -> None:
        self.backend = backend
        self.status = status
        self.opened = status is None
        self.excluded = 0
        self.notes: list[str] = []
        self.unavailable: MemhooksError | None = None
        self.shares: dict[str, float] = {}


def search(
    resolved: Resolved,
    backend: Backend | MemhooksError | str | None,
    *,
    store_path: str | None,
    prompt: str | None,
    per_query: int,
    query_timeout_s: float,
    deadline_s: float,
    anchored: bool = False,
    commits: bool = True,
    frequent: bool = False,
) -> Searched:
    """Stage 2: run ``resolved.tasks`` (their hits and statuses are set on them).

    ``backend``: an open :class:`~memhooks.backends.base.Backend` (left open), the
    MemhooksError that kept the caller's from opening, a name, or None for the
    configured one (opened here without creating a store, and closed). An open failure
    is the status: ``empty_store`` (MissingStoreError), else ``no_backend``.
    ``query_timeout_s`` caps each backend call, ``deadline_s`` all of them together
    (opening the backend is not counted: an in-process model loads once); ``anchored``
    asks the backend for tool-time anchored memories only (``SearchRequest.anchored``),
    ``commits=False`` for no history memories among them (``SearchRequest.commits``);
    ``frequent``: count in how many of the store's memories the prompt's words are, for
    the relevance floor (:attr:`Searched.shares`)."""
    from ..errors import MemhooksError, MissingStoreError, said
    from .exclusion import Exclusions

    owned = backend is None or isinstance(backend, str)
    if owned:
        from ..backends.registry import open_backend

        try:
            # A reader never creates the store: a mistyped --store must not look empty.
            backend = open_backend(
                backend if isinstance(backend, str) else None, store_path=store_path
            )
        except MemhooksError as exc:
            backend = exc
    if isinstance(backend, MemhooksError):
        missing = isinstance(backend, MissingStoreError)
        out = Searched("embedded", "empty_store") if missing else Searched(None, "no_backend")
        out.notes.append(said(backend))
        out.unavailable = backend
        return out
    assert backend is not None and not isinstance(backend, str)
    out = Searched(backend.name)
    root, exclude = resolved.root, resolved.exclude
    try:
        if resolved.aliases:
            _adopt(backend, resolved, out.notes)
        plan_of = {str(i): p for i, p in enumerate(resolved.plans)} if resolved.routing else {}
        # Tool time ranks anchored memories only: the prompt-named files play no part.
        named_of = {} if anchored else _named(plan_of, root, prompt)
        for task in resolved.tasks:
            task.request = request_for(
                task,
                plan_of.get(task.context),
                root,
                prompt=prompt,
                active=resolved.active,
                backend=backend,
                limit=per_query * 3 + len(exclude),
                project=resolved.project,
                timeout_s=query_timeout_s,
                named=named_of.get(task.context),
                anchored=anchored,
            )
            task.request.commits = commits
        # Time for ranking what was found is kept back from the searches: a hook with
        # thousands of queries then answers with what fit, in time.
        ranking = min(deadline_s / 2, RANK_S_PER_QUERY * len(resolved.tasks))
        counters = run_tasks(
            resolved.tasks, backend, Exclusions(exclude), time.monotonic() + deadline_s - ranking
        )
        out.excluded = counters["excluded"]
        if frequent and prompt and not anchored and any(t.hits for t in resolved.tasks):
            from ..backends.capabilities import FrequentWords  # the floor's: loaded with it

            if isinstance(backend, FrequentWords):
                try:
                    out.shares = backend.word_shares(resolved.project, prompt)
                except MemhooksError as exc:  # the floor judges with every word then
                    out.notes.append(f"could not count the prompt's words in the store: {exc}")
        if not any(t.hits for t in resolved.tasks):  # (only then: capabilities loaded)
            from ..backends.capabilities import Counts

            if isinstance(backend, Counts):
                try:
                    if backend.count(resolved.project) == 0:
                        out.status = "empty_store"
                except MemhooksError as exc:  # the queries' own errors say what failed
                    out.notes.append(f"could not count the memories: {exc}")
    finally:
        if owned:
            backend.close()
    return out


def _named(plan_of: dict[str, Any], root: str, prompt: str | None) -> dict[str, dict[str, float]]:
    """Per context id, the files of its plan's folder that ``prompt`` names
    (:func:`memhooks.recall.filenames.named_in_folder`), ``{}`` without a prompt: a
    session's start and tool time never load the file-name matcher."""
    if not prompt or not prompt.strip():
        return {}
    from .filenames import named_in_folder

    return {cid: named_in_folder(plan, root, prompt) for cid, plan in plan_of.items()}


def query_report(task: Task) -> dict[str, Any]:
    """The recall-v1 ``queries`` entry of ``task``."""
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
