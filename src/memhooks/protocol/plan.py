"""The ``memhooks/plan-v1`` handoff (``shared/spec/reference-engine.md`` (e)).

:func:`build_plan` turns a :class:`~memhooks.protocol.merge.Resolution` plus the active
roles into the plan dict with the reference's keys in the reference's order.
:func:`runtime_view` and :func:`multi_view` give the adapter-facing runtime shapes for
one or several targets.

Effective queries (per request): role filtering first — with no active roles every
query is kept; otherwise a query with ``when.roles`` is kept when one of its roles equals
(case-sensitively) an active role, and dropped ones are omissions ``role_mismatch``. Each
kept query gets the scope's entities/resources/tags plus its own (de-duplicated), the
scope backends with its own merged on top, ``priority`` (or ``None``), ``roles`` and its
``source``. Scope ``exclude``/``scope``/``sensitivity``/guidance stay at plan level.
"""

from __future__ import annotations

from ..fast.jsonfast import dumps
from .merge import Resolution, merge_backends, query_text

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any

PLAN_VERSION = "memhooks/plan-v1"


def _sorted_keys(mapping: dict[str, Any]) -> dict[str, Any]:
    return {key: mapping[key] for key in sorted(mapping)}


def _roles(value: Any) -> list[str]:
    when = value.get("when") if isinstance(value, dict) else None
    roles = when.get("roles") if isinstance(when, dict) else None
    return list(roles) if isinstance(roles, list) else []


def effective_queries(
    state: Resolution, roles: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(effective queries, role-mismatch omissions) for the active ``roles``."""
    active = set(roles)
    scope_entities = [item["value"] for item in state.entities]
    scope_resources = [item["value"] for item in state.resources]
    out, dropped = [], []
    for item in state.queries:
        value, source = item["value"], item["source"]
        query_roles = _roles(value)
        if active and query_roles and active.isdisjoint(query_roles):
            dropped.append(
                {"source": source, "query": query_text(value), "reason": "role_mismatch"}
            )
            continue
        local = value if isinstance(value, dict) else {}
        priority = local.get("priority")
        out.append(
            {
                "source": source,
                "query": query_text(value),
                "priority": priority,
                "roles": query_roles,
                "entities": _union(scope_entities, local.get("entities")),
                "resources": _union(scope_resources, local.get("resources")),
                "tags": _union(state.tags, local.get("tags")),
                "backends": _sorted_keys(
                    merge_backends(state.backends, local.get("backends") or {})
                ),
            }
        )
    return out, dropped


def _union(base: list[Any], extra: Any) -> list[Any]:
    out = list(base)
    for value in extra or ():
        if value not in out:
            out.append(value)
    return out


def build_plan(state: Resolution, root: str, target: str, roles: list[str]) -> dict[str, Any]:
    """The plan-v1 dict, keys in the reference's order. Values are shared with the hook
    cache: treat the result as read-only."""
    queries, dropped = effective_queries(state, roles)
    return {
        "plan_version": PLAN_VERSION,
        "omitted_queries": state.omitted + dropped,
        "root": root,
        "target": target,
        "sources": list(state.sources),
        "scope": state.scope,
        "sensitivity": state.sensitivity,
        "recall_queries": list(state.queries),
        "entities": list(state.entities),
        "resources": list(state.resources),
        "tags": list(state.tags),
        "exclude": list(state.exclude),
        "backends": _sorted_keys(state.backends),
        "guidance": list(state.guidance),
        "active_roles": list(roles),
        "effective_queries": queries,
    }


def runtime_view(plan: dict[str, Any]) -> dict[str, Any]:
    """One plan's runtime view: raw ``recall_queries`` and ``active_roles`` dropped,
    ``recall_queries`` = the effective queries (spec (e) step 5)."""
    return {
        "plan_version": PLAN_VERSION,
        "root": plan["root"],
        "target": plan["target"],
        "sources": plan["sources"],
        "scope": plan["scope"],
        "sensitivity": plan["sensitivity"],
        "recall_queries": plan["effective_queries"],
        "entities": plan["entities"],
        "resources": plan["resources"],
        "tags": plan["tags"],
        "exclude": plan["exclude"],
        "backends": plan["backends"],
        "guidance": plan["guidance"],
        "omitted_queries": plan["omitted_queries"],
    }


def _constraints(plan: dict[str, Any]) -> str:
    return _dump([plan["scope"], plan["sensitivity"], plan["exclude"], plan["backends"]])


def _dump(value: Any) -> str:
    return dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def multi_view(plans: list[dict[str, Any]]) -> dict[str, Any]:
    """Several plans (same root) in one runtime view (spec (e) step 5).

    Each plan becomes a context ``{target, scope, sensitivity, exclude, entities,
    resources, tags, backends}`` keyed ``"0"``, ``"1"``, …; queries, guidance and
    omissions carry the list of context ids they apply to. An item is shared between
    contexts only when the item and the contexts' scope/sensitivity/exclude/backends are
    identical, so sibling constraints are never flattened together.
    """
    if len(plans) == 1:
        return runtime_view(plans[0])
    sources: list[str] = []
    contexts: dict[str, Any] = {}
    fields: dict[str, list[dict[str, Any]]] = {
        "recall_queries": [],
        "guidance": [],
        "omitted_queries": [],
    }
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for number, plan in enumerate(plans):
        cid = str(number)
        for source in plan["sources"]:
            if source not in sources:
                sources.append(source)
        contexts[cid] = {
            key: plan[key]
            for key in (
                "target",
                "scope",
                "sensitivity",
                "exclude",
                "entities",
                "resources",
                "tags",
                "backends",
            )
        }
        constraints = _constraints(plan)
        for field, items in (
            ("recall_queries", plan["effective_queries"]),
            ("guidance", plan["guidance"]),
            ("omitted_queries", plan["omitted_queries"]),
        ):
            for item in items:
                key = (field + _dump(item), constraints)
                shared = seen.get(key)
                if shared is None:
                    shared = seen[key] = {**item, "contexts": []}
                    fields[field].append(shared)
                shared["contexts"].append(cid)
    return {
        "plan_version": PLAN_VERSION,
        "root": plans[0]["root"],
        "sources": sources,
        "targets": [plan["target"] for plan in plans],
        "contexts": contexts,
        **fields,
    }
