"""Cache files are written whole or not at all, and a refusal is not an error."""

from __future__ import annotations

import os
from pathlib import Path

from memhooks import cachefile


def test_a_cache_file_is_replaced_whole_and_its_folder_made(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c.json"
    assert cachefile.write(str(path), "one")
    assert cachefile.write(str(path), "two")
    assert path.read_text() == "two"
    assert sorted(os.listdir(path.parent)) == ["c.json"]  # no temporary file left


def test_a_refused_write_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    # the target is a folder: the rename is refused (as root too), the temporary file goes
    (tmp_path / "c.json").mkdir()
    assert cachefile.write(str(tmp_path / "c.json"), "x") is False
    assert os.listdir(tmp_path) == ["c.json"]


def test_a_path_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert cachefile.write(str(tmp_path / "file" / "c.json"), "x") is False
    assert (tmp_path / "file").read_text() == ""


def test_key_names_are_fnv_1a_64() -> None:
    # published FNV-1a 64-bit test vectors (http://www.isthe.com/chongo/tech/comp/fnv/)
    assert cachefile.key_name("") == "cbf29ce484222325"
    assert cachefile.key_name("a") == "af63dc4c8601ec8c"
    assert cachefile.key_name("foobar") == "85944171f73967e8"
