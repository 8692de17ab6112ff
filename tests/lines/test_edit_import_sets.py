"""The modules a pre-tool edit's hook process loads, held like the other kinds of call
(``tests/hook/test_import_sets.py``; a fresh interpreter per edit: its imports are most
of its time, issue 20 item 7), on the retry story with its history imported, the cache
warm from a read of another session and the store's marks kept: an edit of the
decision's line, told now (``edit_tells``); an edit of the lines the "perf: simplify"
commit reshaped, whose previous owners it looks up for the lines it changes
(``edit_walks``: the read looked them up for all the owner's lines); that edit again (``edit_settled``: the shortcut). Record on
purpose when a change adds or drops one:

    MEMHOOKS_RECORD_IMPORT_SETS=1 .venv/bin/python -m pytest tests/lines/test_edit_import_sets.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from import_set_support import STEADY, assert_recorded, loaded
from storyrepo import blamed_ahead

from memhooks.install import command

DATA = Path(__file__).parent / "data" / "edit_import_sets.json"
PAYLOADS = json.loads((Path(__file__).parent / "data" / "hook_payloads.json").read_text("utf-8"))
#: Modules outside memhooks whose presence is part of the record (the costly ones).
#: Read at collection: the tests' sandbox drops every MEMHOOKS_ variable.
RECORD = bool(os.environ.get("MEMHOOKS_RECORD_IMPORT_SETS"))
WATCHED = ("_sqlite3", "difflib", "enum", "fcntl", "hashlib", "json.decoder", "re", "sqlite3",
           "subprocess", "typing")  # fmt: skip


@pytest.fixture(scope="module")
def import_sets(
    built: tuple[Path, dict[str, str]], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[str]]:
    import shutil

    base = tmp_path_factory.mktemp("edit-imports")
    root = base / "repo"
    shutil.copytree(built[0], root, symlinks=True)
    root = root.resolve()
    hookfile = root / "MEMHOOKS.md"
    hookfile.write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    os.utime(
        hookfile, (os.stat(hookfile).st_mtime - 60,) * 2
    )  # old enough for the parsed-hook cache
    store = base / "store.sqlite3"
    env = {
        "HOME": str(base), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "XDG_CACHE_HOME": str(base / "cache"), "MEMHOOKS_STATE_DIR": str(base / "state"),
        "MEMHOOKS_STORE": str(store), "MEMHOOKS_HOOK_TIMEOUT_MS": "30000",
    }  # fmt: skip
    subprocess.run([sys.executable, "-m", "memhooks", "history", "import"], cwd=root, env=env,
                   check=True, capture_output=True)  # fmt: skip
    past = os.stat(store).st_mtime - 60  # imported minutes ago: its state is trusted
    os.utime(store, (past, past))

    def call(name: str | dict[str, object], session: str) -> tuple[list[str], str]:
        payload = PAYLOADS[name] if isinstance(name, str) else name
        raw = json.dumps(payload).replace("{root}", str(root))
        done = subprocess.run(command.argv("claude-code"), input=raw.replace("{session}", session),
                              text=True, capture_output=True, cwd=root, timeout=60, check=False,
                              env={**env, **STEADY})  # fmt: skip
        assert done.returncode == 0, done.stderr
        notes = [line for line in done.stderr.splitlines() if not line.startswith("import time:")]
        assert notes == [], notes
        return loaded(done.stderr, WATCHED), done.stdout

    call("claude-read", "reader")  # blames the lines, keeps the store's marks
    blamed_ahead(base / "state")  # the rest of the file, blamed in the background
    out: dict[str, list[str]] = {}
    decided = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"
    edit = {**PAYLOADS["claude-pre-edit"], "tool_input": {"file_path": "{root}/retryx/retry.py",
            "old_string": decided, "new_string": decided.replace("4", "5", 1)}}  # fmt: skip
    out["edit_tells"], told = call(edit, "decider")
    assert "fix: cap Retrier" in told
    out["edit_walks"], told = call("claude-pre-edit", "editor")
    assert "perf: simplify" in told
    out["edit_settled"], told = call("claude-pre-edit", "editor")
    assert told.strip() in ("", "{}")
    # a session whose read left the ledger's mirror (memhooks.session.claims): its edit
    # claims in the session's journal, without the state file
    first = {**PAYLOADS["claude-read"], "tool_input": {"file_path": "{root}/retryx/retry.py",
             "offset": 1, "limit": 1}}  # fmt: skip
    call(first, "journal")
    out["edit_journal"], told = call(edit, "journal")
    assert "fix: cap Retrier" in told
    if RECORD:
        DATA.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return out




@pytest.mark.parametrize("kind", ["edit_journal", "edit_settled", "edit_tells", "edit_walks"])
def test_a_pre_tool_edit_loads_its_recorded_modules(
    kind: str, import_sets: dict[str, list[str]]
) -> None:
    assert_recorded(DATA, kind, import_sets[kind])


def test_a_warm_edit_that_tells_loads_no_store_no_difflib_no_re(
    import_sets: dict[str, list[str]],
) -> None:
    # difflib with re, enum, heapq: ~4 ms; the store's modules and file: ~3 ms; the
    # history's message rules compile their patterns on import: ~1.4 ms; the error tree,
    # nine classes, on a call that raises nothing: ~1.3 M instructions (callgrind)
    avoided = {"difflib", "re", "enum", "hashlib", "subprocess", "memhooks.store.store",
               "memhooks.backends.embedded", "memhooks.history.message",
               "memhooks.errors"}  # fmt: skip
    assert not avoided & set(import_sets["edit_tells"])
    assert not {"sqlite3", "memhooks.recall.why"} & set(import_sets["edit_settled"])


def test_an_edit_after_a_read_tells_without_the_state_file(
    import_sets: dict[str, list[str]],
) -> None:
    # the state file's extension, its modules and ~20 statements: ~9 M instructions of
    # a ~72 M telling edit (callgrind, docs/performance.md "Nineteenth session")
    state = {"_sqlite3", "sqlite3", "memhooks.session.state", "memhooks.session.record",
             "memhooks.store.connection"}  # fmt: skip
    assert not state & set(import_sets["edit_journal"])
    assert state & set(import_sets["edit_tells"])  # a session's first edit: the state file
