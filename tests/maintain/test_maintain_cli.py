"""Golden CLI cases for init/note/remove/prune/event/migrate (``data/cli.yaml``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from clikit import build, check, load_cases, run

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_cli_case(case: dict[str, Any], tmp_path: Path) -> None:
    root = Path(os.path.realpath(tmp_path)) / "proj"
    root.mkdir()
    before = build(root, case)
    check(root, case, before, run(root, case))


def test_every_command_has_golden_cases() -> None:
    commands = {c["argv"][0] for c in CASES}
    assert commands >= {"init", "note", "remove", "prune", "event", "migrate"}
    assert sum(bool(c.get("subprocess")) for c in CASES) >= 2
