"""Patch parsing: the Codex/OpenCode envelope and unified diffs (cases in data/patches.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memhooks.agents import FileChange, parse_patch

CASES = json.loads((Path(__file__).parent / "data" / "patches.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_patch_case(case: dict[str, object]) -> None:
    changes = parse_patch(case["text"], cwd=case.get("cwd"))
    assert [c.as_list() for c in changes] == case["expected"]


@pytest.mark.parametrize("value", [None, 3, b"*** Add File: x", ["*** Add File: x"], {"a": 1}])
def test_non_text_gives_nothing(value: object) -> None:
    assert parse_patch(value) == []


def test_output_is_capped() -> None:
    text = "".join(f"*** Add File: f{i}.txt\n+x\n" for i in range(5000))
    assert len(parse_patch(text)) == 1024


_PIECES = st.sampled_from(
    [
        "*** ",
        "Add File: ",
        "Update File: ",
        "Move to: ",
        "Delete File: ",
        "--- ",
        "+++ ",
        "@@ -1,2 +1 @@",
        "diff --git a/x b/x",
        "rename from a",
        "rename to b",
        "a/",
        "b/",
        "/dev/null",
        "\n",
        "\r\n",
        "-",
        "+",
        " ",
        "x",
        "\\",
        '"',
        "\t",
    ]
)


@given(st.lists(_PIECES | st.text(max_size=5)).map("".join))
def test_never_raises_and_yields_only_valid_changes(text: str) -> None:
    for change in parse_patch(text, cwd="/r"):
        assert isinstance(change, FileChange)
        assert change.action in ("written", "deleted", "renamed")
        assert (change.old_path is not None) == (change.action == "renamed")
        assert change.path and "\n" not in change.path
