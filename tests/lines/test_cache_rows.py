"""A blame cache entry keeps its origins, commits, previous owners and notes one row a
line, read a row at a time (issue 20 item 7: parsing a 6,300-line file's entry whole was
~4.5 M instructions of a telling pre-tool edit): every row reads back as it was saved —
one at a time, or whole after a change — keys that JSON must escape included, a section
no one asked for is written back as it was read, and a damaged file is a miss or a row
not known, never a misread."""

from __future__ import annotations

from pathlib import Path

from memhooks.lines import cache

ODD = 'src/we"ird\\path\n\tnamé—٣.c'  # a path git may name: quotes, escapes, non-ASCII


def saved(tmp_path: Path) -> tuple[str, cache.Entry]:
    file = str(tmp_path / "blame" / "entry.json")
    entry = cache.Entry("head", [0, 0, 0, 0, 0, 0], ["int x;", "y();", "}"])
    entry.lines = [cache.known(0, 3), cache.known(1, 9), cache.UNCOMMITTED]
    entry.origins.extend([["a" * 40, "f.c", None, None], ["b" * 40, ODD, "c" * 40, "old.c"]])
    entry.commits.update({"a" * 40: ["first", 1, False], "b" * 40: [ODD, 2, True]})
    entry.before[f"{'b' * 40} {ODD} 9-9"] = [["c" * 40, 1, "old.c", None, None, [], 1, [[4, 4]]]]
    entry.notes.update({"delta": {"a" * 40: None, "b" * 40: [[1, 2, "space"]]},
                        "empty": {}, "plain": "v", ODD: {ODD: ODD}})  # fmt: skip
    assert cache.save(file, entry)
    return file, entry


def test_each_row_reads_back_alone_as_saved(tmp_path: Path) -> None:
    file, entry = saved(tmp_path)
    loaded = cache.load(file)
    assert loaded is not None
    assert loaded.origin(1) == ["b" * 40, ODD, "c" * 40, "old.c"]
    assert loaded.commit("b" * 40) == [ODD, 2, True] and loaded.commit("d" * 40) is None
    assert loaded.previous(f"{'b' * 40} {ODD} 9-9") == entry.before[f"{'b' * 40} {ODD} 9-9"]
    assert loaded.note("delta", "a" * 40) is None  # judged: no verdict
    assert loaded.note("delta", "b" * 40) == [[1, 2, "space"]]
    assert loaded.note("delta", "d" * 40) is cache.ABSENT  # not judged
    assert loaded.note("empty", "x") is cache.ABSENT and loaded.note("plain", "x") is cache.ABSENT
    assert loaded.note(ODD, ODD) == ODD
    said = loaded.said("a" * 40)  # no message kept: nor read ahead (no file beside it)
    assert said is None


def test_every_section_reads_back_whole_as_saved(tmp_path: Path) -> None:
    file, entry = saved(tmp_path)
    loaded = cache.load(file)
    assert loaded is not None
    assert loaded.origins == entry.origins and loaded.commits == entry.commits
    assert loaded.before == entry.before and loaded.notes == entry.notes
    assert loaded.origin(0) == entry.origins[0]  # alone, after the whole was read


def test_a_section_not_asked_for_is_written_back_as_read(tmp_path: Path) -> None:
    file, _ = saved(tmp_path)
    loaded = cache.load(file)
    assert loaded is not None and loaded.commit("a" * 40) == ["first", 1, False]
    before = Path(file).read_text(encoding="utf-8").split("\n", 1)[1]
    assert cache.save(file, loaded)
    assert Path(file).read_text(encoding="utf-8").split("\n", 1)[1] == before


def test_a_note_added_after_rows_were_read_alone_keeps_the_others(tmp_path: Path) -> None:
    file, _ = saved(tmp_path)
    loaded = cache.load(file)
    assert loaded is not None and loaded.note("delta", "d" * 40) is cache.ABSENT
    delta = loaded.notes["delta"]
    assert isinstance(delta, dict)
    delta["d" * 40] = [[3, 3, "gain"]]  # a verdict found later, as lines.delta keeps it
    loaded.commits["d" * 40] = ["later", 3, False]
    assert cache.save(file, loaded)
    again = cache.load(file)
    assert again is not None
    assert again.note("delta", "d" * 40) == [[3, 3, "gain"]]
    assert again.note("delta", "b" * 40) == [[1, 2, "space"]]
    assert again.commit("d" * 40) == ["later", 3, False] and again.commit("a" * 40) is not None


def test_a_damaged_file_is_a_miss_and_a_damaged_row_is_not_known(tmp_path: Path) -> None:
    file, _ = saved(tmp_path)
    text = Path(file).read_text(encoding="utf-8")
    Path(file).write_text(text[:-1], encoding="utf-8")  # a section cut short
    assert cache.load(file) is None
    header, packed, worded, rest = text.split("\n", 3)
    damaged = rest.replace('["' + "b" * 40 + '",', '["' + "b" * 40 + '" ', 1)
    assert len(damaged) == len(rest)
    Path(file).write_text(f"{header}\n{packed}\n{worded}\n{damaged}", encoding="utf-8")
    loaded = cache.load(file)
    assert loaded is not None
    assert loaded.origin(1) is None  # its lines are not known: never another commit's
    assert loaded.origins[1] == [None, None, None, None]


def test_a_kept_text_that_is_not_utf8_reads_as_none_never_an_error(tmp_path: Path) -> None:
    # newcomer11: bytes that are not UTF-8 in the text beside the entry raised
    # UnicodeDecodeError from `memhooks why` (exit 1) and the hook (MH042), every time
    file, _ = saved(tmp_path)
    Path(file[: -len(".json")] + ".text").write_bytes(b"\xff\xfe\n")
    loaded = cache.load(file)
    assert loaded is not None and loaded.text == []
