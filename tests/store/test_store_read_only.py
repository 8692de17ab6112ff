"""A store that cannot be written is still read, and a write names the file really at
fault (issue 22 item 2): a read-only file system or folder, a read-only database file, or
SQLite's side files left read-only by a read-only open or by another user."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from permissions import read_only_folder, unprivileged

from memhooks.store import MemoryStore

ROOT_HOOK = '---\nschema: memhooks/v2\nrecall_queries: ["How long do tokens live?"]\n---\n'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    return root


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memhooks", *args], capture_output=True,
                          text=True, env=env, timeout=60, check=False)  # fmt: skip


def test_a_store_on_a_read_only_folder_is_read_and_a_write_says_why(
    project: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "stores"
    store = folder / "m.sqlite3"
    base = ["--cwd", str(project), "--store", str(store)]
    assert _cli("remember", "Access tokens live 15 min", *base).returncode == 0
    assert sorted(p.name for p in folder.iterdir()) == ["m.sqlite3"]  # closed: no side files
    with read_only_folder(folder):
        with MemoryStore(str(store), create=False) as opened:
            assert opened.read_only is not None
            assert len(opened.list(_project(project))) == 1
        listed = _cli("memories", "list", *base)
        assert listed.returncode == 0 and "Access tokens live 15 min" in listed.stdout
        recalled = _cli("recall", str(project), "--store", str(store), "--format", "json",
                        "--prompt", "how long do tokens live")  # fmt: skip
        assert recalled.returncode == 0, recalled.stderr
        assert [m["text"] for m in json.loads(recalled.stdout)["memories"]] == [
            "Access tokens live 15 min"
        ]
        wrote = _cli("remember", "Refresh tokens live 30 days", *base)
        assert wrote.returncode == 1
        assert wrote.stderr.startswith(f"error[MH037]: cannot write the memory store {store}: ")
        said = wrote.stderr.splitlines()[0].split(": ", 2)[2]
        assert f"{folder}" in said and "read-only" in said and "MEMHOOKS_STORE" not in said


def test_a_read_only_shm_left_by_a_read_only_open_no_longer_blocks_writes(
    tmp_path: Path,
) -> None:
    """chmod 444, a reader (SQLite gives the -shm it makes the file's 0444), chmod 644:
    the leftover -shm is given the store's mode back and writes work again."""
    store = tmp_path / "m.sqlite3"
    with MemoryStore(str(store)) as opened:
        opened.add("p", "one")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    keep_open = (  # a reader that dies holding the file: its side files stay
        "import os; from memhooks.store import MemoryStore;"
        f" s = MemoryStore({str(store)!r}, create=False); s.list('p'); os._exit(0)"
    )
    store.chmod(0o444)
    assert unprivileged(keep_open, env).returncode == 0
    assert oct((tmp_path / "m.sqlite3-shm").stat().st_mode & 0o777) == "0o444"
    store.chmod(0o644)
    add = f"from memhooks.store import MemoryStore; MemoryStore({str(store)!r}).add('p', 'two')"
    done = unprivileged(add, env)
    assert done.returncode == 0, done.stderr
    with MemoryStore(str(store)) as opened:
        assert sorted(m.text for m in opened.list("p")) == ["one", "two"]


def test_side_files_another_user_left_are_named_not_the_store(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to give the side files to another user")
    store = tmp_path / "m.sqlite3"
    with MemoryStore(str(store)) as opened:
        opened.add("p", "one")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    die_holding = (  # a process that dies with the store open: its side files stay
        f"import os, sqlite3; c = sqlite3.connect({str(store)!r});"
        " c.execute('select 1 from memories').fetchall(); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", die_holding], check=True)
    shm = tmp_path / "m.sqlite3-shm"
    os.chown(shm, 4242, 4242)
    shm.chmod(0o444)
    os.chown(tmp_path / "m.sqlite3-wal", 4242, 4242)
    read = f"from memhooks.store import MemoryStore; print(len(MemoryStore({str(store)!r}, create=False).list('p')))"
    assert unprivileged(read, env).stdout == "1\n"  # reading still works
    add = (
        "from memhooks.store import MemoryStore\nfrom memhooks.errors import StoreError\n"
        f"try:\n    MemoryStore({str(store)!r}).add('p', 'two')\n"
        "except StoreError as exc:\n    print(exc)"
    )
    said = unprivileged(add, env).stdout
    assert said.startswith(
        f"cannot write the memory store {store}: SQLite's side files are read-only for you: "
    )
    assert f"{shm} (mode 0444, owned by uid 4242)" in said
    assert f"remove {tmp_path / 'm.sqlite3-wal'} and {shm} while no memhooks process runs" in said


def _project(root: Path) -> str:
    from memhooks.store import project_id

    return project_id(str(root))
