"""``memhooks note`` parses the hook it edits once (issue 14: five times, 0.25 s at 10
queries and 0.85 s at 400): the hook as read once, the text about to be written once
(the read-back check and the validation share that parse), nothing else."""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest

from memhooks.maintain.notes import add_note
from memhooks.protocol import cache, yamlfast, yamlio
from memhooks.protocol.frontmatter import split


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each frontmatter text was given to either YAML reader."""
    seen: Counter[str] = Counter()
    fast, full = yamlfast.load, yamlio.load

    def counting_fast(text: str) -> object:
        seen[text] += 1
        return fast(text)

    def counting_full(text: str, path: str, first_line: int) -> object:
        seen[text] += 1
        return full(text, path, first_line)

    monkeypatch.setattr(yamlfast, "load", counting_fast)
    monkeypatch.setattr(yamlio, "load", counting_full)
    cache.clear_memory()
    yield seen
    cache.clear_memory()


def _hook(path, queries: int) -> str:
    lines = ["---", "schema: memhooks/v2", "recall_queries:"]
    lines += [f"  - query: what about topic {n}?  # note {n}" for n in range(queries)]
    text = "\n".join([*lines, "---", "Body.", ""])
    path.write_text(text, encoding="utf-8")
    past = time.time() - 60
    os.utime(path, (past, past))
    return split(text, str(path)).yaml


@pytest.mark.parametrize("queries", [10, 400])
def test_note_in_the_root_hook_parses_it_once(tmp_path, parsed, queries) -> None:
    (tmp_path / ".git").mkdir()
    yaml = _hook(tmp_path / "MEMHOOKS.md", queries)
    add_note(str(tmp_path), "why is the schema versioned?", priority=0.5)
    written = split((tmp_path / "MEMHOOKS.md").read_text(encoding="utf-8"), "x").yaml
    assert "why is the schema versioned?" in written
    assert parsed[yaml] == 1
    assert parsed[written] == 1
    assert sum(parsed.values()) == 2


def test_note_in_a_folder_hook_reads_the_root_hook_through_the_cache(tmp_path, parsed) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "a").mkdir()
    root_yaml = _hook(tmp_path / "MEMHOOKS.md", 3)
    yaml = _hook(tmp_path / "a" / "MEMHOOKS.md", 10)
    add_note(str(tmp_path / "a"), "first", priority=0.5)
    assert parsed[root_yaml] == 1 and parsed[yaml] == 1
    cache.clear_memory()  # the next note is a fresh process
    add_note(str(tmp_path / "a"), "second")
    assert parsed[root_yaml] == 1  # cached: not parsed again
