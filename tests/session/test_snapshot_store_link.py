"""A store reached through a symlink (``MEMHOOKS_STORE`` in a dotfiles folder) must be
seen to change: the pre-tool shortcut settles an edit only while the store is as it was,
and the link's own state never moves (review of speed20: a note remembered through a
linked store was never told at an edit)."""

import os
import time
from pathlib import Path

from memhooks.session.storestate import still, store_state


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
