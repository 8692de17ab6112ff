"""A store reached through a symlink (``MEMHOOKS_STORE`` in a dotfiles folder) must be
seen to change: the pre-tool shortcut settles an edit only while the store is as it was,
and the link's own state never moves (review of speed20: a note remembered through a
linked store was never told at an edit)."""

import json
import os
import time
from pathlib import Path

from memhooks.session.storestate import current, keep, still, store_state


def test_a_store_behind_a_symlink_is_seen_to_change(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "memories.sqlite3"
    real.parent.mkdir()
    real.write_bytes(b"x" * 4096)
    old = time.time() - 60  # out of the racy window
    os.utime(real, (old, old))
    link = tmp_path / "memories.sqlite3"
    link.symlink_to(real)

    quiet = store_state(str(link))
    assert quiet is not None and quiet[0] == str(real)
    assert still(quiet)
    with open(real, "ab") as fp:  # a write to the database, not to the link
        fp.write(b"y" * 4096)
    assert not still(quiet)


def test_a_kept_row_stands_while_its_store_is_as_it_was(tmp_path: Path) -> None:
    # rows of sessions/_quiet.json and _marks.json hold the state they were read at
    # first; one whose store changed is neither read nor kept, nor is a quiet row of the
    # form before (the state itself, not in a list): the edit asks the store again
    store = tmp_path / "store.sqlite3"
    store.write_bytes(b"x" * 4096)
    old = time.time() - 60
    os.utime(store, (old, old))
    state = store_state(str(store))
    assert state is not None
    state_dir = str(tmp_path / "state")
    (tmp_path / "state" / "sessions").mkdir(parents=True)
    (tmp_path / "state" / "sessions" / "_quiet.json").write_text(
        json.dumps({"/old\n" + str(store): state}), encoding="utf-8"
    )
    assert current(state_dir, "quiet", "/old\n" + str(store)) is None
    keep(state_dir, "quiet", "/p\n" + str(store), [state])
    assert current(state_dir, "quiet", "/p\n" + str(store)) == [state]
    kept = json.loads((tmp_path / "state" / "sessions" / "_quiet.json").read_text("utf-8"))
    assert list(kept) == ["/p\n" + str(store)]  # the row of the form before is dropped
    with open(store, "ab") as fp:
        fp.write(b"y" * 4096)
    assert current(state_dir, "quiet", "/p\n" + str(store)) is None
