"""Cache files are written whole or not at all, and a refusal is not an error; they are
read whole, and what is not a file in their place is a miss, never a wait."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from memhooks import cachefile


def test_a_cache_file_is_replaced_whole_and_its_folder_made(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c.json"
    assert cachefile.write(str(path), "one")
    assert cachefile.write(str(path), "two")
    assert path.read_text() == "two"
    assert sorted(os.listdir(path.parent)) == ["c.json"]  # no temporary file left


def test_a_refused_write_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    # the target is a folder with a file in it: the rename is refused (as root too), the
    # temporary file goes, the folder and its file stay
    (tmp_path / "c.json").mkdir()
    (tmp_path / "c.json" / "kept").write_text("mine")
    assert cachefile.write(str(tmp_path / "c.json"), "x") is False
    assert os.listdir(tmp_path) == ["c.json"] and os.listdir(tmp_path / "c.json") == ["kept"]


def test_an_empty_folder_in_a_cache_files_place_is_replaced(tmp_path: Path) -> None:
    """newcomer20: a folder made in a blame entry's place made every Read of its file blame
    again, for good and without a word; the write that follows the miss now takes its
    place."""
    (tmp_path / "c.json").mkdir()
    assert cachefile.write(str(tmp_path / "c.json"), "fresh")
    assert cachefile.read(str(tmp_path / "c.json")) == b"fresh"


def test_a_path_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert cachefile.write(str(tmp_path / "file" / "c.json"), "x") is False
    assert (tmp_path / "file").read_text() == ""


def test_key_names_are_fnv_1a_64() -> None:
    # published FNV-1a 64-bit test vectors (http://www.isthe.com/chongo/tech/comp/fnv/)
    assert cachefile.key_name("") == "cbf29ce484222325"
    assert cachefile.key_name("a") == "af63dc4c8601ec8c"
    assert cachefile.key_name("foobar") == "85944171f73967e8"


def test_a_cache_file_is_read_whole_with_its_status(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(b"x" * 70_000)
    data, st = cachefile.read_stat(str(path))
    assert data == b"x" * 70_000 and st.st_size == 70_000
    assert cachefile.read(str(path)) == data


def test_a_fifo_in_a_cache_files_place_is_refused_at_once_and_replaced(tmp_path: Path) -> None:
    """newcomer17: ``open`` waited for a writer that never came — a hook call hung."""
    path = tmp_path / "c.json"
    os.mkfifo(path)
    done: list[BaseException] = []
    reader = threading.Thread(target=_read_into, args=(str(path), done), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "the read waited for a writer"
    assert len(done) == 1 and isinstance(done[0], OSError)
    assert cachefile.write(str(path), "fresh")
    assert cachefile.read(str(path)) == b"fresh"


def _read_into(path: str, done: list[BaseException]) -> None:
    try:
        cachefile.read(path)
    except OSError as exc:
        done.append(exc)
