"""The MCP tools as plain functions over the library — no SDK here, so they are tested
without the ``mcp`` extra; :mod:`.server` only describes and registers them.

Paths are relative to the server's working directory (where the host started it —
normally the project) or absolute. Every function returns a JSON-ready dict and raises
:class:`~memhooks.errors.MemhooksError` (or a subclass) for anything the caller should
hear about; the server turns those into tool errors with the same message.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from ..backends.embedded import refresh
from ..errors import Diagnostic, DiagnosticError, MemhooksError, UsageError
from ..maintain.targets import root_hook
from ..protocol.resolve import resolve
from ..recall import DEFAULT_BUDGET, context
from ..recall import recall as run_recall
from ..recall.why_json import to_json
from ..recall.why_path import RANGE_CODE, LineRangeError, checked, line_count, range_error
from ..recall.why_path import why as why_of
from ..recall.why_target import parse_target
from ..recall.why_text import render
from ..scrubber import scrub
from ..store import MemoryStore
from ..store.memory import Draft
from ..workspace import locate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Seconds the ``note`` subprocess may take (it waits for the hook's lock).
NOTE_TIMEOUT_S = 30.0


def explain(path: str = ".", roles: list[str] | None = None) -> dict[str, Any]:
    """The ``memhooks/plan-v1`` plan for ``path`` plus ``reason`` (why that root)."""
    try:
        plan = resolve(path, list(roles or ()))
    except DiagnosticError as exc:
        raise MemhooksError(_diagnostics(exc)) from None
    return {**plan.data, "reason": plan.reason}


def recall(
    path: str = ".",
    prompt: str | None = None,
    files: list[str] | None = None,
    roles: list[str] | None = None,
    budget: int = DEFAULT_BUDGET,
    store_path: str | None = None,
) -> dict[str, Any]:
    """Bounded recall for ``path``: ``status``, ``context`` (the text an agent is given,
    ``""`` when nothing was recalled), ``memories`` and ``notes``."""
    try:
        result = run_recall(
            path,
            prompt=prompt,
            files=list(files or ()),
            roles=list(roles or ()),
            budget=budget,
            store_path=store_path,
        )
    except DiagnosticError as exc:
        raise MemhooksError(_diagnostics(exc)) from None
    keep = ("id", "text", "scope", "files", "kind", "tags", "created_at")
    return {
        "status": result["status"],
        "project": result["project"],
        "root": result["root"],
        "context": context(result) or "",
        "memories": [{k: m[k] for k in keep} for m in result["memories"]],
        "notes": result["notes"],
    }


def why(
    path: str,
    first_line: int | None = None,
    last_line: int | None = None,
    store_path: str | None = None,
    timeout: float = 10.0,
) -> dict[str, Any]:
    """Why lines ``first_line``..``last_line`` of the file ``path`` (the whole file
    without them) are as they are: the owning commits, their previous owners where an
    owner only reshaped the code, exclusions applied (``memhooks why``'s JSON: ``notes``
    says what was skipped or missing on the way), plus ``context``: the labelled text.
    Blaming stops after ``timeout`` seconds. Only files of the server's project (its
    working directory's) are explained: any other, a symlink out of it included, is
    refused (MH029). Lines the file does not have raise UsageError naming MH035
    (:class:`~memhooks.recall.why_path.LineRangeError`). Without ``first_line`` and
    ``last_line``, ``path`` may carry the lines as the command reads them,
    ``PATH:LINE[-LINE]`` (:func:`~memhooks.recall.why_target.parse_target`: agents
    write ``auth.py:150`` as they read it)."""
    try:
        project = locate(os.getcwd()).root  # the server's project: its files only
        ranges: list[tuple[int, int]] = []
        if first_line is None and last_line is None:
            path, ranges = parse_target(path, project)
        else:
            named, lines = (path, []) if os.path.lexists(path) else parse_target(path, project)
            if lines:
                checked(named, project)  # a missing file is said missing first
                raise LineRangeError(Diagnostic(RANGE_CODE, (
                    f"`{path}` names lines, and first_line/last_line name lines too; give"
                    " them once: the path with its lines, or the path and first_line"
                ), "first_line" if first_line is not None else "last_line"))  # fmt: skip  (newcomer30)
            checked(path, project)  # the file's own mistakes before its lines'
            first = first_line if first_line is not None else last_line
            last = last_line if last_line is not None else first
            assert first is not None and last is not None
            if first < 1 or last < first:
                asked = f"{first}" if first_line is None or last_line is None else f"{first}-{last}"
                # the parameter at fault is the place: the file has no such line to point at
                wrong = "first_line" if first < 1 and first_line is not None else "last_line"
                size = line_count(path) if os.path.isfile(path) else None
                raise range_error(path, asked, size, argument=wrong)
            ranges = [(first, last)]
        answer = why_of(
            path,
            ranges,
            store_path=store_path,
            deadline=time.monotonic() + timeout,
            within=project,
        )
    except DiagnosticError as exc:  # code, message and file in the tool's error
        raise (UsageError if isinstance(exc, UsageError) else MemhooksError)(
            _diagnostics(exc)
        ) from None
    return {**to_json(answer), "context": render(answer)}


def remember(
    text: str,
    path: str = ".",
    kind: str | None = None,
    tags: list[str] | None = None,
    entities: list[str] | None = None,
    files: list[str] | None = None,
    store_path: str | None = None,
) -> dict[str, Any]:
    """Store a memory scoped to the folder of ``path``; secrets in ``text`` are scrubbed
    first (``redacted`` counts them). The same text said again in the same folder is the
    same memory (:meth:`memhooks.store.MemoryStore.remember`; ``added`` is false then).
    Returns ``id``, ``project``, ``scope``, ``redacted``, ``added``."""
    where = _locate(path)
    try:
        root_hook(where.root)  # one enablement rule for every write, as `memhooks remember`
    except DiagnosticError as exc:
        raise MemhooksError(_diagnostics(exc)) from None
    rel = [
        where.relative(f if os.path.isabs(f) else os.path.join(where.directory, f))
        for f in files or ()
    ]
    outside = [f for f in rel if os.path.isabs(f) or f.startswith("..")]
    if outside:
        raise UsageError(f"files must be inside the project root {where.root}: {outside[0]}")
    clean, redacted = scrub(text)
    with MemoryStore(store_path) as store:
        store.adopt(where.project, where.aliases)
        draft = Draft(clean, project=where.project, scope=where.scope, files=rel, kind=kind,
                      tags=list(tags or ()), entities=list(entities or ()), source="mcp")  # fmt: skip
        memory, added = store.remember(draft)
    refresh(store.path)
    return {
        "id": memory.id,
        "project": memory.project,
        "scope": memory.scope,
        "redacted": redacted,
        "added": added,
    }


def forget(id: str, path: str = ".", store_path: str | None = None) -> dict[str, Any]:
    """Delete memory ``id`` of the project at ``path``: ``{"id", "project", "forgotten"}``."""
    where = _locate(path)
    with MemoryStore(store_path) as store:
        store.adopt(where.project, where.aliases)
        gone = store.forget(id, project=where.project)
    if gone:
        refresh(store.path)
    return {"id": id, "project": where.project, "forgotten": gone}


def note(
    query: str,
    path: str = ".",
    priority: float | None = None,
    roles: list[str] | None = None,
    tags: list[str] | None = None,
    entities: list[str] | None = None,
    resources: list[str] | None = None,
) -> dict[str, Any]:
    """Add a recall cue to the nearest hook of ``path`` through ``memhooks note`` (same
    lock and round-trip rules as every maintenance write). Returns ``{"output"}``."""
    argv = note_argv(query, path, priority, roles, tags, entities, resources)
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=NOTE_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise MemhooksError(f"memhooks note did not finish: {exc}") from None
    if done.returncode == 2 and "invalid choice: 'note'" in done.stderr:
        raise MemhooksError("this memhooks has no `note` command yet; upgrade memhooks")
    if done.returncode != 0:
        detail = done.stderr.strip().splitlines()
        raise MemhooksError(detail[-1] if detail else f"memhooks note exited {done.returncode}")
    return {"output": done.stdout.strip()}


def note_argv(
    query: str,
    path: str,
    priority: float | None,
    roles: list[str] | None,
    tags: list[str] | None,
    entities: list[str] | None,
    resources: list[str] | None,
) -> list[str]:
    """The ``memhooks note`` command line (argv, never a shell string)."""
    argv = [
        sys.executable,
        "-m",
        "memhooks",
        "note",
        "--cwd",
        os.path.abspath(path),
        "--query",
        query,
    ]
    if priority is not None:
        argv += ["--priority", repr(float(priority))]
    for flag, values in (
        ("--role", roles),
        ("--tag", tags),
        ("--entity", entities),
        ("--resource", resources),
    ):
        for value in values or ():
            argv += [flag, value]
    return argv


def _locate(path: str) -> Any:
    try:
        return locate(path)
    except DiagnosticError as exc:
        raise MemhooksError(_diagnostics(exc)) from None


def _diagnostics(exc: DiagnosticError) -> str:
    return "; ".join(f"{d.code} {d.message} ({d.path})" for d in exc.diagnostics)
