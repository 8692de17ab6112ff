"""What the pre-tool edit's shortcut rests on (:func:`memhooks.session.edits.quiet_store`):
the code's names never tell a commit's memory, so only another memory makes an edit
search the store. Which memories are commits' is what ``history import`` recorded in
the store (its ``commits`` table), not how a memory's source is spelt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memhooks.store import MemoryStore, identify
from memhooks.store.memory import Draft


def test_only_a_memory_history_import_did_not_make_is_beyond_history(
    repo: Path, tmp_path: Path
) -> None:
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    path = str(tmp_path / "store.sqlite3")
    env = {**os.environ, "MEMHOOKS_STORE": path, "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run([sys.executable, "-m", "memhooks", "history", "import"],
                          cwd=repo, env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    project = identify(str(repo)).id
    with MemoryStore(path) as store:
        assert not store.beyond_history(project)
        # a memory spelt like a commit's, that no import made (a JSONL from elsewhere)
        spelt, _ = store.remember(
            Draft("cap retries at four", project=project, source="git:" + "a" * 40)
        )
        assert store.beyond_history(project) and not store.beyond_history("elsewhere")
        store.mark_obsolete(spelt.id, project=project)
        assert not store.beyond_history(project)
