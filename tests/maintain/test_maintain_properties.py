"""Property checks over random edit sequences (deterministic: derandomized, no database)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from maintain_support import HOOKS, VARIANTS, sample

from memhooks.maintain import cues, edit, roundtrip
from memhooks.protocol import yamlio

WORDS = st.sampled_from(["why", "retry", "cache", "auth", "tenant", "  spaced  ", "a: b", "#not"])
TEXT = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)
NAMES = st.lists(st.sampled_from(["r1", "r2", "ops", "x y"]), max_size=2)

UPSERT = st.tuples(
    st.just("upsert"),
    TEXT,
    st.fixed_dictionaries(
        {},
        optional={
            "priority": st.sampled_from([0.0, 0.5, 1]),
            "roles": NAMES,
            "tags": NAMES,
            "entities": st.lists(st.sampled_from(["E", {"name": "F", "type": "T"}]), max_size=2),
            "backends": st.sampled_from([{"mem0": {"top_k": 3}}, {"mem0": {"filters": {"a": 1}}}]),
        },
    ),
)
CUE = st.tuples(
    st.just("cue"),
    st.sampled_from([".", "src", "lib"]),
    st.fixed_dictionaries(
        {"files": st.lists(st.sampled_from(["a.py", "b.py", "c.py"]), max_size=3)}
    ),
)
REMOVE = st.tuples(st.just("remove"), TEXT, st.just({}))
PRUNE = st.tuples(st.just("prune"), st.just(""), st.just({}))

SETTINGS = settings(max_examples=60, derandomize=True, database=None, deadline=None)


def run(tree: Any, ops: list[tuple[str, str, dict[str, Any]]]) -> None:
    for op, text, kw in ops:
        if op == "upsert":
            edit.upsert_query(tree, text, **kw)
        elif op == "cue":
            files = [f"{text}/{name}" for name in kw["files"]]
            cues.upsert_auto_cue(tree, text, files, max_paths=2)
        elif op == "remove":
            edit.remove_queries(tree, text)
        else:
            cues.prune_auto(tree, lambda name: not name.endswith("b.py"))


def comment_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("#")]


@SETTINGS
@given(
    name=st.sampled_from(HOOKS),
    variant=st.sampled_from(sorted(VARIANTS)),
    ops=st.lists(st.one_of(UPSERT, CUE, REMOVE, PRUNE), max_size=6),
)
def test_any_edit_sequence_renders_what_the_tree_holds(
    name: str, variant: str, ops: list[tuple[str, str, dict[str, Any]]]
) -> None:
    text = sample(name, variant)
    document, tree = roundtrip.load_hook(text, name)
    run(tree, ops)
    out = roundtrip.render(document, tree)
    again, reloaded = roundtrip.load_hook(out, name)
    assert yamlio.to_plain(reloaded) == yamlio.to_plain(tree)
    assert (again.bom, again.newline, again.head, again.body) == (
        document.bom,
        document.newline,
        document.head,
        document.body,
    )
    assert roundtrip.render(again, reloaded) == out  # stable once written


@SETTINGS
@given(name=st.sampled_from(HOOKS), ops=st.lists(st.one_of(UPSERT, CUE), max_size=6))
def test_adding_never_loses_a_comment(
    name: str, ops: list[tuple[str, str, dict[str, Any]]]
) -> None:
    text = sample(name)
    document, tree = roundtrip.load_hook(text, name)
    run(tree, ops)
    assert comment_lines(roundtrip.render(document, tree)) == comment_lines(text)
