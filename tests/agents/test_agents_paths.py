"""Path strings from payloads (cases in data/paths.json): never touching the filesystem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from memhooks.agents.paths import clean_dir, clean_path

CASES = json.loads((Path(__file__).parent / "data" / "paths.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_path_case(case: dict[str, object]) -> None:
    assert clean_path(case["value"], case["cwd"]) == case["expected"]


def test_clean_dir_never_joins() -> None:
    assert clean_dir("sub\\dir") == "sub/dir"
    assert clean_dir(None) is None


def test_no_filesystem_access(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the normalization layer must not touch the filesystem")

    for name in ("stat", "lstat", "listdir", "scandir", "readlink", "getcwd"):
        monkeypatch.setattr(os, name, refuse)
    assert clean_path("x/../y.txt", "/r") == "/r/x/../y.txt"


@example("0 \\", None)  # the separator at the end was all that kept the space there
@given(st.text(), st.one_of(st.none(), st.text()))
def test_result_is_clean_or_none(value: str, raw_cwd: str | None) -> None:
    cwd = clean_dir(raw_cwd)  # callers always pass a cleaned cwd
    path = clean_path(value, cwd)
    if path is not None:
        assert path == path.strip() or cwd is not None
        assert "\\" not in path
        assert not any(ord(ch) < 32 for ch in path)
        assert "//" not in path[2:]
