"""``memhooks explain [PATH ...] [--role R]... [--file F]... [--budget CHARS] [--format human|json]``.

* one PATH, no ``--file``: the ``memhooks/plan-v1`` plan (reference keys and order);
* several PATHs or ``--file``: one runtime view over all their scopes, resolved in one
  process (sibling constraints kept apart in ``contexts``);
* ``--budget CHARS``: the bounded context exactly as injected (wrapper included in the
  cap); ``--format json`` prints ``{"context": …}`` or ``{}``.

Errors go to stderr, as JSON diagnostics with ``--format json``; exit 1.
"""

from __future__ import annotations

import sys

from ..errors import DiagnosticError
from ..protocol.resolve import resolve, resolve_scopes, to_json
from ..terminal import visible

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    import argparse
    from typing import Any


def run(args: argparse.Namespace) -> int:

    targets = args.paths or ["."]
    try:
        if len(targets) == 1 and not args.file and args.budget is None:
            plan = resolve(targets[0], args.role)
            print(plan.to_json() if args.format == "json" else human(plan.data, plan.reason))
            return 0
        scopes = resolve_scopes(targets, args.role, args.file)

        for note in scopes.notes:
            print(f"memhooks: {visible(note)}", file=sys.stderr)
        if args.budget is not None:
            from ..protocol.budget import bound_context

            view = scopes.view()
            context = bound_context(view, args.budget)
            if context is None and view.get("sources"):
                print(
                    f"memhooks: nothing fits in {args.budget} characters; raise --budget",
                    file=sys.stderr,
                )
            if args.format == "json":
                print(to_json({"context": context} if context else {}, None, targets[0]))
            elif context:
                print(context)
            return 0
        if args.format == "json":
            print(to_json(scopes.view(), 2, targets[0]))
        else:
            print("\n\n".join(human(p.data, p.reason) for p in scopes.plans))
        return 0
    except DiagnosticError as exc:
        from .. import report  # only failures are reported: ~1 ms off every explain

        report.print_errors(exc.diagnostics, args.format)
        return 1


def _priority(value: Any) -> str:
    return "default" if value is None else f"{value:.2f}"


#: Names of a query's own entities or resources listed at most (then "and N more").
SHOWN = 5


def _name(item: Any) -> str:
    """An entity's or resource's name (a plain string is its own name)."""
    return str(item.get("name", item.get("value", item))) if isinstance(item, dict) else str(item)


def _folder_wide(items: list[Any]) -> set[str]:
    """The names of a plan's folder-wide entities or resources (``{source, value}``)."""
    return {_name(item["value"] if isinstance(item, dict) and "value" in item else item)
            for item in items}  # fmt: skip


def _own(query: dict[str, Any], field: str, folder_wide: list[Any]) -> list[str]:
    """The line naming the entities or resources a query carries beyond the folder-wide
    ones (a generated cue's files: ``resources: src/a.py``); none when it has none."""
    shared = _folder_wide(folder_wide)
    own = [n for n in dict.fromkeys(_name(item) for item in query[field]) if n not in shared]
    if not own:
        return []
    more = f" and {len(own) - SHOWN} more" if len(own) > SHOWN else ""
    return [f"      {field}: {', '.join(own[:SHOWN])}{more}"]


def _count(plan: dict[str, Any], field: str) -> str:
    """``resources: N`` — the folder-wide ones, as the reference renders them — and, when
    recall queries carry their own (a generated cue lists the folder's files), how many:
    ``resources: 0 (1 on recall queries)``, never a bare 0 beside a query's resource."""
    line = f"{field}: {len(plan[field])}"
    own = {_name(item) for q in plan["effective_queries"] for item in q[field]}
    own -= _folder_wide(plan[field])
    return f"{line} ({len(own)} on recall queries)" if own else line


def human(plan: dict[str, Any], reason: str) -> str:
    """The reference's human rendering, plus the reason the root was chosen. Control
    characters in paths, queries and guidance are shown as escapes, one line each."""

    lines = [
        "MemHooks effective context",
        f"root:   {plan['root']} ({reason})",
        f"target: {plan['target']}",
        "sources:",
    ]
    lines += [f"  - {source}" for source in plan["sources"]]
    if plan["active_roles"]:
        lines.append("active roles: " + ", ".join(plan["active_roles"]))
    if plan["backends"]:
        lines.append("backend namespaces: " + ", ".join(plan["backends"]))
    queries = plan["effective_queries"]
    lines.append(f"recall queries ({len(queries)}):")
    for query in queries:
        roles = ", ".join(query["roles"]) if query["roles"] else "all"
        lines.append(f"  - [{_priority(query['priority'])} | roles:{roles}] {query['query']}")
        lines.append(f"      source: {query['source']}")
        if query["backends"]:
            lines.append("      backends: " + ", ".join(query["backends"]))
        lines += _own(query, "entities", plan["entities"])
        lines += _own(query, "resources", plan["resources"])
    lines += [
        _count(plan, "entities"),
        _count(plan, "resources"),
        f"exclusions: {len(plan['exclude'])}",
    ]
    lines.append(f"guidance blocks ({len(plan['guidance'])}):")
    for block in plan["guidance"]:
        lines.append(f"  - source: {block['source']}")
        lines += [f"      {line}" for line in block["value"].splitlines()]
    return "\n".join(visible(line) for line in lines)
