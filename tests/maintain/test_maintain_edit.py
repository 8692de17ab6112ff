"""Edit operations: golden diffs (data/edits.yaml) plus the rules they must keep."""

from __future__ import annotations

import difflib
from typing import Any

import pytest
from maintain_support import DATA, VARIANTS, sample
from ruamel.yaml import YAML

from memhooks.errors import DiagnosticError, UsageError
from memhooks.maintain import cues, edit, roundtrip
from memhooks.protocol import yamlio

CASES = YAML(typ="safe").load((DATA / "edits.yaml").read_text(encoding="utf-8"))


def apply(case: dict[str, Any], text: str) -> tuple[Any, str]:
    document, tree = roundtrip.load_hook(text, case["hook"])
    args = dict(case["args"])
    op = case["op"]
    if op == "upsert_query":
        result: Any = edit.upsert_query(tree, args.pop("text"), **args)
    elif op == "remove_queries":
        result = edit.remove_queries(tree, args["text"])
    elif op == "prune_auto":
        result = list(cues.prune_auto(tree, set(args["existing"]).__contains__))
    else:
        result = cues.upsert_auto_cue(
            tree, args["directory"], args["files"], max_paths=args["max_paths"]
        )
    return result, roundtrip.render(document, tree)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_edit(case: dict[str, Any]) -> None:
    before = sample(case["hook"])
    result, after = apply(case, before)
    assert result == case["returns"]
    diff = list(difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0))[2:]
    assert "".join(line if line.endswith("\n") else line + "\n" for line in diff) == (
        case["diff"] or ""
    )


@pytest.mark.parametrize("variant", ["crlf", "cr", "bom-crlf"])
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_edit_keeps_line_endings_and_bom(case: dict[str, Any], variant: str) -> None:
    _, lf_result = apply(case, sample(case["hook"]))
    _, result = apply(case, sample(case["hook"], variant))
    assert result == VARIANTS[variant](lf_result)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_result_validates(case: dict[str, Any]) -> None:
    hookfile = pytest.importorskip("memhooks.protocol.hookfile")
    _, after = apply(case, sample(case["hook"]))
    errors = [d for d in hookfile.validate_text(after, "MEMHOOKS.md") if d.is_error]
    assert errors == []


def tree_of(name: str) -> Any:
    return roundtrip.load_hook(sample(name), name)[1]


def test_identity_is_whitespace_normalised_text() -> None:
    tree = tree_of("commented.md")
    assert (
        edit.upsert_query(
            tree, "  Why did\tauthentication change\n after the outage? ", priority=0.1
        )
        is False
    )
    assert yamlio.to_plain(tree["recall_queries"][0]) == {
        "query": "Why did authentication change after the outage?",
        "priority": 0.1,
    }


def test_upsert_twice_adds_nothing_new() -> None:
    tree = tree_of("commented.md")
    args: dict[str, Any] = {
        "roles": ["r"],
        "tags": ["t"],
        "entities": [{"name": "E"}],
        "resources": ["x"],
        "backends": {"p": {"a": [1]}},
    }
    edit.upsert_query(tree, "q", **args)
    once = yamlio.to_plain(tree)
    assert edit.upsert_query(tree, "q", **args) is False
    assert yamlio.to_plain(tree) == once


def test_backends_deep_merge_replaces_non_mappings() -> None:
    tree = tree_of("commented.md")
    edit.upsert_query(tree, "q", backends={"mem0": {"filters": {"a": 1}, "top_k": 8}})
    edit.upsert_query(
        tree, "q", backends={"mem0": {"filters": {"b": 2}, "top_k": [1, 2]}, "hs": {"bank": "x"}}
    )
    assert yamlio.to_plain(tree["recall_queries"][-1]["backends"]) == {
        "mem0": {"filters": {"a": 1, "b": 2}, "top_k": [1, 2]},
        "hs": {"bank": "x"},
    }


def test_blank_query_is_refused() -> None:
    with pytest.raises(DiagnosticError) as caught:
        edit.upsert_query(tree_of("minimal.md"), " \t")
    assert (caught.value.diagnostic.code, caught.value.diagnostic.message) == (
        "MH003",
        "recall query must not be empty",
    )


def test_a_field_of_the_wrong_shape_is_not_overwritten() -> None:
    _document, tree = roundtrip.load_hook(
        "---\nschema: memhooks/v2\nrecall_queries:\n  - query: q\n    tags: oops\n---\n", "h"
    )
    with pytest.raises(DiagnosticError) as caught:
        edit.upsert_query(tree, "q", tags=["t"])
    assert caught.value.diagnostic.code == "MH025"
    assert caught.value.diagnostic.key == "recall_queries[0].tags"
    assert (
        caught.value.diagnostic.message == "cannot edit `recall_queries[0].tags`: it is not a list"
    )


def test_prune_never_touches_manual_queries_or_other_resources() -> None:
    tree = tree_of("auto_cues.md")
    assert cues.prune_auto(tree, lambda name: False) == (3, 1)
    plain = yamlio.to_plain(tree["recall_queries"])
    assert plain[1]["resources"] == [{"name": "design-notes", "kind": "doc"}]
    assert plain[2]["resources"] == [{"name": "src/gone.py", "kind": "file"}]  # hand-written cue


def test_prune_passes_resource_names_to_the_callback() -> None:
    seen: list[str] = []
    cues.prune_auto(tree_of("auto_cues.md"), lambda name: seen.append(name) or True)
    assert seen == ["src/gone.py", "src/app.py", "lib/old.py"]


def test_auto_cue_prefers_the_scoped_cue_over_a_legacy_one() -> None:
    tree = tree_of("auto_cues.md")
    assert cues.upsert_auto_cue(tree, "src", ["src/z.py"], max_paths=12) is True
    texts = [q["query"] if not isinstance(q, str) else q for q in tree["recall_queries"]]
    assert texts.count(cues.AUTO_CUE) == 1  # the legacy cue was left alone
    assert tree["recall_queries"][1]["resources"][-1] == {"name": "src/z.py", "kind": "file"}


def test_auto_cue_cap_counts_only_file_resources() -> None:
    tree = tree_of("auto_cues.md")
    cues.upsert_auto_cue(tree, "src", ["src/n1.py", "src/n2.py"], max_paths=1)
    assert yamlio.to_plain(tree["recall_queries"][1]["resources"]) == [
        {"name": "design-notes", "kind": "doc"},
        {"name": "src/n2.py", "kind": "file"},
    ]


def test_auto_cue_text() -> None:
    assert cues.auto_cue_text(".") == (
        "What prior decisions, constraints, failures, fixes, rejected approaches, and unresolved "
        "issues involve files in this directory? [scope: .]"
    )


def test_auto_cue_needs_a_positive_cap() -> None:
    with pytest.raises(UsageError):
        cues.upsert_auto_cue(tree_of("minimal.md"), ".", ["a"], max_paths=0)
