"""Run every golden conformance case (see ``casekit.py`` for the case format)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from casekit import (
    FIXED_ROOT_LENGTH,
    build_tree,
    load_cases,
    ordered,
    run_in_process,
    run_subprocess,
    substitute,
)

from memhooks.catalogue import CATALOGUE

CASES = load_cases()


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_case(case: dict[str, Any], tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if case.get("needs_non_root") and os.geteuid() == 0:
        pytest.skip("permission bits do not stop root")
    if case.get("fixed_root"):
        base = Path(tempfile.mkdtemp(prefix="mhconf-", dir="/tmp"))
        request.addfinalizer(lambda: shutil.rmtree(base, ignore_errors=True))
        if len(os.path.realpath(base)) != FIXED_ROOT_LENGTH:
            pytest.skip("/tmp is not a plain directory here")
    else:
        base = tmp_path / "w"
        base.mkdir()
    root = os.path.realpath(base)
    _assert_no_outside_project(Path(root))
    placeholders = {"{root}": root, **build_tree(base, case)}
    env = {"MEMHOOKS_CACHE": "0", **substitute(case.get("env") or {}, placeholders)}
    argv = list(case["argv"])
    assert argv.pop(0) == "memhooks"
    run = run_subprocess if case.get("subprocess") else run_in_process
    stdin = substitute(case.get("stdin", ""), placeholders)
    code, out, err = run(argv, base / case.get("cwd", "."), env, stdin)
    expect = case["expect"]
    _compare("stdout", out, expect, placeholders)
    _compare("stderr", err, expect, placeholders)
    assert code == expect["exit"], f"exit {code}; stdout:\n{out}\nstderr:\n{err}"
    for rel, text in (expect.get("files") or {}).items():
        assert (base / rel).read_text(encoding="utf-8") == substitute(text, placeholders), rel
    for rel in expect.get("absent") or ():
        assert not os.path.lexists(base / rel), f"{rel} must not exist"


def _compare(
    stream: str, actual: str, expect: dict[str, Any], placeholders: dict[str, str]
) -> None:
    if f"{stream}_contains" in expect:
        assert substitute(expect[f"{stream}_contains"], placeholders) in actual
    elif f"{stream}_json" in expect:
        wanted = substitute(expect[f"{stream}_json"], placeholders)
        got = json.loads(actual)
        assert got == wanted
        assert ordered(got) == ordered(wanted), f"{stream}: same content, different key order"
    else:
        assert actual == substitute(expect.get(stream, ""), placeholders)


def _assert_no_outside_project(root: Path) -> None:
    """Root discovery climbs above the tree: a stray hook or repository above the
    temporary directory would change every answer, so refuse to run rather than lie."""
    for parent in root.parents:
        for name in (".git", "MEMHOOKS.md"):
            if os.path.lexists(parent / name):
                pytest.skip(f"{parent / name} exists above the test tree")


def test_every_emittable_code_has_its_full_human_text_asserted() -> None:
    """Each MH code the engine can emit appears in some case's exact human output,
    as the complete three-line rendering (severity[code]: message / --> / help; the
    place is ``path:line:col``, or the path alone for a folder or a missing path)."""
    rendered = re.compile(
        r"^(error|warning)\[(MH\d{3})\]: .+\n  --> .+\n  help: .+$", re.MULTILINE
    )
    seen = set()
    for _, case in CASES:
        for stream in ("stdout", "stderr"):
            text = case["expect"].get(stream)
            if isinstance(text, str):
                seen.update(m.group(2) for m in rendered.finditer(text))
    # MH039-MH043 name only the agent hook's stderr line, never a command's output:
    # tests/hook/test_hook_codes.py holds each of them, word for word
    assert sorted(set(CATALOGUE) - seen) == ["MH039", "MH040", "MH041", "MH042", "MH043"]


def test_some_cases_run_through_the_real_entry_point() -> None:
    assert sum(bool(case.get("subprocess")) for _, case in CASES) >= 4
