"""Properties of resolution (spec (d)) and of the bounded runtime context (spec (e)).

Every example is derandomized (the same examples on every run) and no example database
is written, so the suite is deterministic.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import ANY, ROLES, bodies, hooks, yaml_text

from memhooks.protocol.budget import REMOVAL_ORDER, WRAPPER, bound_context, dumps, shorten_guidance
from memhooks.protocol.hookfile import parse_text
from memhooks.protocol.merge import query_text, resolve_chain
from memhooks.protocol.plan import build_plan, multi_view, runtime_view

#: Applied per test (a loaded profile would change other modules' tests too).
deterministic = settings(derandomize=True, database=None, deadline=None, max_examples=150)

ROOT = "/project"


def source(depth: int) -> str:
    return ROOT + "/d" * depth + "/MEMHOOKS.md"


def plan_of(
    chain: list[tuple[str, dict[str, Any], str]], roles: list[str] | None = None
) -> dict[str, Any]:
    return build_plan(resolve_chain(chain), ROOT, ROOT, roles or [])


# -- root-only chain = identity ------------------------------------------------------------


@deterministic
@given(hooks(), bodies())
def test_root_only_chain_is_the_hook_itself(data: dict[str, Any], body: str) -> None:
    """Through the real parser: one hook's plan holds exactly its fields, in order."""
    hook = parse_text(yaml_text(data, body), source(0))
    assert [d for d in hook.diagnostics if d.is_error] == []
    plan = plan_of([(source(0), hook.data, hook.guidance)])
    src = source(0)
    assert plan["sources"] == [src]
    assert plan["scope"] == data.get("scope")
    assert plan["sensitivity"] == data.get("sensitivity")
    assert plan["recall_queries"] == [
        {"source": src, "value": q} for q in data.get("recall_queries", [])
    ]
    assert plan["entities"] == [{"source": src, "value": e} for e in data.get("entities", [])]
    assert plan["resources"] == [{"source": src, "value": r} for r in data.get("resources", [])]
    assert plan["tags"] == data.get("tags", [])
    assert plan["exclude"] == data.get("exclude", [])
    assert plan["backends"] == data.get("backends", {})
    assert list(plan["backends"]) == sorted(data.get("backends", {}))
    assert plan["guidance"] == ([{"source": src, "value": body.strip()}] if body.strip() else [])
    assert plan["omitted_queries"] == []
    assert [q["query"] for q in plan["effective_queries"]] == [
        query_text(q) for q in data.get("recall_queries", [])
    ]


# -- de-duplication is idempotent ------------------------------------------------------------

DEDUPED = ("tags", "exclude", "entities", "resources", "scope", "sensitivity", "backends")


@deterministic
@given(hooks(ANY))
def test_merging_a_hook_with_itself_changes_no_list(data: dict[str, Any]) -> None:
    once = plan_of([(source(0), data, "")])
    twice = plan_of([(source(0), data, ""), (source(1), data, "")])
    for field in DEDUPED:
        assert twice[field] == once[field], field
    # the same queries, in the same places, now attributed to the later hook
    assert [q["value"] for q in twice["recall_queries"]] == [
        q["value"] for q in once["recall_queries"]
    ]
    assert {q["source"] for q in twice["recall_queries"]} <= {source(1)}
    assert twice["omitted_queries"] == [
        {"source": source(0), "query": query_text(q), "reason": "overridden"}
        for q in data.get("recall_queries", [])
    ]


@deterministic
@given(hooks(ANY))
def test_repeated_list_entries_collapse_to_one(data: dict[str, Any]) -> None:
    doubled = {
        key: value + value if isinstance(value, list) else value for key, value in data.items()
    }
    once = plan_of([(source(0), data, "")])
    again = plan_of([(source(0), doubled, "")])
    for field in (*DEDUPED, "recall_queries", "effective_queries"):
        assert again[field] == once[field], field


# -- inherits: false truncates the chain ------------------------------------------------------


@deterministic
@given(
    st.lists(hooks(ANY, inherits=True), min_size=1, max_size=5),
    st.lists(st.sampled_from(ROLES), max_size=2),
)
def test_a_cut_equals_the_chain_starting_at_the_cutting_hook(
    datas: list[dict[str, Any]], roles: list[str]
) -> None:
    chain = [(source(depth), data, f"guidance {depth}") for depth, data in enumerate(datas)]
    cut = max((i for i, data in enumerate(datas) if data.get("inherits") is False), default=0)
    full = plan_of(chain, roles)
    tail = plan_of(chain[cut:], roles)
    for field in full:
        if field != "omitted_queries":
            assert full[field] == tail[field], field
    # omissions: the history before the cut, then every query the cut dropped, then the tail's
    before = resolve_chain(chain[:cut])
    dropped = [
        {"source": q["source"], "query": query_text(q["value"]), "reason": "inheritance_cut"}
        for q in before.queries
    ]
    assert full["omitted_queries"] == before.omitted + dropped + tail["omitted_queries"]


# -- the bounded context ----------------------------------------------------------------------


@st.composite
def views(draw: st.DrawFn) -> dict[str, Any]:
    """A runtime view from a random chain (one target) or random sibling chains."""
    roles = draw(st.lists(st.sampled_from(ROLES), max_size=2))
    plans = []
    for sibling in range(draw(st.integers(1, 3))):
        datas = draw(st.lists(hooks(ANY, inherits=True), min_size=1, max_size=3))
        chain = [
            (
                source(depth)
                if depth == 0
                else f"{ROOT}/s{sibling}" + "/d" * depth + "/MEMHOOKS.md",
                data,
                draw(bodies(ANY)).strip(),
            )
            for depth, data in enumerate(datas)
        ]
        plans.append(build_plan(resolve_chain(chain), ROOT, f"{ROOT}/s{sibling}", roles))
    return runtime_view(plans[0]) if len(plans) == 1 else multi_view(plans)


def budgets(view: dict[str, Any]) -> list[int]:
    """Tiny budgets, and a sweep from 10% to 110% of what the whole view needs, so every
    removal stage is reached (bounding is cheap; generating views is not)."""
    whole = len(WRAPPER) + len(dumps(view))
    return [
        1,
        len(WRAPPER) + 1,
        len(WRAPPER) + 2,
        200,
        350,
        *(whole * percent // 100 for percent in range(10, 111, 5)),
    ]


@settings(deterministic, max_examples=80)
@given(views(), st.integers(1, 200))
def test_bounded_context_fits_parses_and_keeps_constraints(
    view: dict[str, Any], guidance_cap: int
) -> None:
    for budget in budgets(view):
        check_bounded(view, budget, guidance_cap)


def check_bounded(view: dict[str, Any], budget: int, guidance_cap: int) -> None:
    context = bound_context(view, budget, guidance_cap)
    if budget < len(WRAPPER) + 2:
        assert context is None  # not even `{}` fits after the wrapper
    if context is None:
        return
    assert len(context) <= budget  # code points, wrapper included
    assert context.startswith(WRAPPER)
    value = json.loads(context[len(WRAPPER) :])
    assert value["plan_version"] == "memhooks/plan-v1"
    for item in value.get("guidance", []):
        assert len(item["value"]) <= guidance_cap
    if value.get("recall_queries"):
        # never a query without its scope's constraints
        keys = (
            ("contexts",) if "contexts" in view else ("exclude", "scope", "sensitivity", "backends")
        )
        for key in keys:
            assert value[key] == view[key], key
    shortened = shorten_guidance(view, guidance_cap)
    if len(WRAPPER) + len(dumps(shortened)) <= budget:
        assert value == shortened  # nothing is removed from a view that fits
    else:
        assert value["truncated"] is True
    for field in ("recall_queries", "guidance", "sources", "omitted_queries"):
        if field in value and field in shortened:
            kept = value[field]
            assert all(item in shortened[field] for item in kept), field  # whole items only
    if "message" in value:
        return  # the placeholder
    # fields are given up in order: a later field loses items only once earlier ones are empty
    order = [f for f in REMOVAL_ORDER if isinstance(shortened.get(f), list)]
    for index, field in enumerate(order):
        if len(value[field]) < len(shortened[field]):
            assert all(value[earlier] == [] for earlier in order[:index]), (field, order[:index])
    # queries go lowest priority first (no priority counts as lowest)
    kept = value.get("recall_queries", [])
    removed = [q for q in shortened.get("recall_queries", []) if q not in kept]
    if kept and removed:
        assert min(weight(q) for q in kept) >= max(weight(q) for q in removed)


def weight(query: dict[str, Any]) -> float:
    return -1.0 if query["priority"] is None else float(query["priority"])
