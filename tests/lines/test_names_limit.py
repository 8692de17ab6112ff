"""The symbol cue reads no names from a file too large to parse within a hook's deadline
(a newcomer's 10 MB generated Python file made a Read's hook run 6.8 s against 3 s:
``ast.parse`` on the main thread, where the watchdog cannot cut it short)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks import symbols
from memhooks.limits import MAX_NAMES_CHARS
from memhooks.lines import names


def test_a_generated_file_past_the_limit_is_not_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def parse(path: str, text: str) -> list[symbols.Definition]:
        raise AssertionError("a file past MAX_NAMES_CHARS was parsed")

    monkeypatch.setattr(symbols, "definitions", parse)
    line = "TABLE_%06d = {'k': 1}\n"
    big = "".join(line % n for n in range(MAX_NAMES_CHARS // len(line % 0) + 1))
    assert len(big) > MAX_NAMES_CHARS
    assert names.definitions(str(tmp_path), "gen.py", big, state_dir=str(tmp_path / "state")) == []


def test_a_source_file_under_the_limit_keeps_its_names(tmp_path: Path) -> None:
    text = "MAX_ATTEMPTS = 3\n\ndef retry(n):\n    return n < MAX_ATTEMPTS\n"
    found = names.definitions(str(tmp_path), "retry.py", text, state_dir=str(tmp_path / "state"))
    assert [d.name for d in found] == ["MAX_ATTEMPTS", "retry"]
