"""A state-file problem is reported as the state file's, with ``MEMHOOKS_STATE_DIR``, never
with the memory store's words and advice (issue 22 item 4: "or set MEMHOOKS_STORE", "move
the store away" sent users to their memories)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from permissions import fill, small_disk

from memhooks.errors import StoreError
from memhooks.session.state import State, role
from memhooks.store.failures import to_store_error


def test_a_full_disk_under_the_state_file_is_named_as_such(tmp_path: Path) -> None:
    with small_disk(tmp_path / "state", "256k") as folder:
        path = str(folder / "state.sqlite3")
        state = State(path)
        try:
            fill(folder)
            with pytest.raises(StoreError) as caught:
                state.write(
                    lambda conn: conn.executemany(
                        "INSERT INTO journal (root, at, work) VALUES (?, 0, ?)",
                        [("/r", "x" * 4000)] * 200,
                    )
                )
        finally:
            state.close()
    said = str(caught.value)
    assert said.startswith(
        f"the memhooks state file {path} cannot grow: the disk holding it is full"
    )
    assert said.endswith("free some space, or point MEMHOOKS_STATE_DIR at another folder")
    assert "memory store" not in said and "MEMHOOKS_STORE" not in said


def test_a_damaged_state_file_is_named_with_its_own_advice(tmp_path: Path) -> None:
    bad = tmp_path / "state.sqlite3"
    made = sqlite3.connect(bad)
    made.execute("CREATE TABLE t (x)")
    made.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 50)
    made.commit()
    made.close()
    with open(bad, "r+b") as fp:  # the table's pages, overwritten
        fp.seek(4096)
        fp.write(b"\xff" * 8192)
    with pytest.raises(sqlite3.DatabaseError) as raised:
        sqlite3.connect(bad).execute("SELECT count(*) FROM t").fetchall()
    said = str(to_store_error(str(bad), raised.value, role=role()))
    assert said.startswith(f"the memhooks state file {bad} is damaged")
    assert said.endswith("remove it (it holds no memories; the sessions' ledgers start afresh)")


def test_a_read_only_state_file_is_told_to_be_made_writable(tmp_path: Path) -> None:
    # newcomer25: "the file is read-only for you (mode 0400); make <folder> a writable
    # folder" — the folder was writable; the file was not
    import os

    from permissions import unprivileged

    path = tmp_path / "state.sqlite3"
    State(str(path)).close()
    path.chmod(0o400)
    code = (
        "from memhooks.session.state import State\n"
        "from memhooks.errors import StoreError\n"
        f"try:\n    State({str(path)!r})\nexcept StoreError as e:\n    print(e)\n"
    )
    said = unprivileged(code, dict(os.environ)).stdout.strip()
    assert "the file is read-only for you (mode 0400)" in said, said
    assert said.endswith(f"`chmod u+w {path}`, or point MEMHOOKS_STATE_DIR at a writable folder")
