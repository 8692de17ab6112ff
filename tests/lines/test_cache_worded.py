"""Which lines hold a word is kept with a blame cache entry (issue 20 item 7): a warm
edit asks it of the lines it replaces (an owner of blank and brace lines alone explains
nothing) without reading the file's text — and the answer is the character rule's,
``str.isalnum`` of any character, for every kind of line."""

from __future__ import annotations

import os
import random
from pathlib import Path

from memhooks.lines import cache
from memhooks.lines.worded import worded

LINES = ["", "  ", "}", "  );", "\t*/", "x", "  return 0;", "# 1", "\r", "—", "  — é",
         "٣", "²", "中文", "\xa0", "½", "a—", "--", "\x00", "\ud800"]  # fmt: skip


def by_character(text: list[str]) -> str:
    return "".join("1" if any(c.isalnum() for c in line) else "0" for line in text)


def test_which_lines_hold_a_word_follows_the_character_rule() -> None:
    assert worded([]) == ""
    assert worded(LINES) == by_character(LINES)
    rng = random.Random(7)
    for _ in range(500):
        text = ["".join(rng.choice(LINES) for _ in range(rng.randrange(3))) for _ in range(9)]
        assert worded(text) == by_character(text), text


def test_a_loaded_entry_says_which_lines_are_wordless_without_its_text(tmp_path: Path) -> None:
    file = str(tmp_path / "blame" / "entry.json")
    entry = cache.Entry("head", [0, 0, 0, 0, 0, 0], ["int x;", "", "}", "  /* é */", "—"])
    assert cache.save(file, entry)
    os.remove(file[: -len(".json")] + ".text")  # a read of the text would find none
    loaded = cache.load(file)
    assert loaded is not None
    assert loaded.wordless([2, 3, 5]) and not loaded.wordless([2, 4]) and not loaded.wordless([1])
    loaded.text = ["", "x"]  # the text followed after an edit: its lines decide again
    assert loaded.wordless([1]) and not loaded.wordless([1, 2])


def test_flags_that_do_not_cover_the_entrys_lines_are_not_trusted(tmp_path: Path) -> None:
    # review: an entry whose kept flags are shorter than its lines made every line past
    # them wordless, and the pre-tool edit silently told nothing of their owners
    file = str(tmp_path / "blame" / "entry.json")
    assert cache.save(file, cache.Entry("head", [0, 0, 0, 0, 0, 0], ["int x;", "", "y = 1;"]))
    header, packed, worded, rest = Path(file).read_text(encoding="utf-8").split("\n", 3)
    assert worded == "101"
    Path(file).write_text(f"{header}\n{packed}\n1\n{rest}", encoding="utf-8")
    assert cache.load(file) is None  # a miss: blamed again, never "wordless"
