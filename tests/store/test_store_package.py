"""The package surface: default location, import cost, exported names, path spelling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import memhooks
import memhooks.store
from memhooks.store import ancestor_scopes, default_path, normalize_file, normalize_scope

linux_like = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="XDG layout applies to Linux and other Unixes"
)


def test_memhooks_store_overrides_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "mine.db"))
    assert default_path() == str(tmp_path / "mine.db")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMHOOKS_STORE", "rel/x.db")
    assert default_path() == str(tmp_path / "rel" / "x.db")


@linux_like
def test_xdg_data_home_then_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == str(tmp_path / "data" / "memhooks" / "memories.sqlite3")
    home = Path(os.environ["HOME"])
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/invalid")
    assert default_path() == str(home / ".local" / "share" / "memhooks" / "memories.sqlite3")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == str(home / ".local" / "share" / "memhooks" / "memories.sqlite3")


@linux_like
def test_the_default_store_is_created_in_the_sandboxed_data_dir(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with memhooks.store.MemoryStore() as store:
        store.add("proj", "x")
        path = store.path
    assert path == os.path.join(os.environ["XDG_DATA_HOME"], "memhooks", "memories.sqlite3")
    assert os.path.isfile(path)


def test_importing_the_store_stays_cheap() -> None:
    # The agent hook imports memhooks.store on every prompt.
    heavy = ["platformdirs", "dataclasses", "configparser", "subprocess", "random"]
    code = f"import sys, memhooks.store\nprint(sorted(m for m in {heavy!r} if m in sys.modules))"
    src = os.path.dirname(os.path.dirname(os.path.abspath(memhooks.__file__)))
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert (out.returncode, out.stdout.strip()) == (0, "[]"), out.stderr


def test_the_hook_s_sqlite_leaves_functools_alone_and_caches_statements() -> None:
    # memhooks.fast.sqlite imports the C module with a stand-in functools (2 ms of every hook
    # process): afterwards the real functools and the sqlite3 package import as usual,
    # and a connection runs many statements through its cache correctly.
    code = (
        "import sys, memhooks.fast.sqlite as s\n"
        "before = 'functools' in sys.modules\n"
        "conn = s.connect(':memory:')\n"
        "rows = [conn.execute('SELECT ?', (i % 200,)).fetchone()[0] for i in range(1000)]\n"
        "import functools, sqlite3\n"
        "print(before, sum(rows), functools.lru_cache.__module__, sqlite3.Connection is s.Connection)"
    )
    src = os.path.dirname(os.path.dirname(os.path.abspath(memhooks.__file__)))
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, "-S", "-c", code], env=env, capture_output=True, text=True, check=False
    )
    expected = f"False {sum(i % 200 for i in range(1000))} functools True"
    assert (out.returncode, out.stdout.strip()) == (0, expected), out.stderr


def test_public_api() -> None:
    assert all(hasattr(memhooks.store, name) for name in memhooks.store.__all__)
    assert set(memhooks.store.__all__) == {
        "SCHEMA_VERSION",
        "Identity",
        "Memory",
        "MemoryStore",
        "ancestor_scopes",
        "default_path",
        "identify",
        "normalize_file",
        "normalize_remote",
        "normalize_scope",
        "project_id",
    }


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("", ""),
        (".", ""),
        ("./", ""),
        ("src", "src"),
        ("./src//api/", "src/api"),
        ("src\\api", "src/api"),
        ("src/./x/../api", "src/api"),
        (" docs ", "docs"),
    ],
)
def test_one_spelling_per_folder(raw: str, canonical: str) -> None:
    assert normalize_scope(raw) == canonical


@pytest.mark.parametrize("bad", ["/etc", "C:/x", "..", "a/../../b", "a\x00b"])
def test_paths_outside_the_root_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        normalize_scope(bad)
    with pytest.raises(ValueError):
        normalize_file(bad)


def test_ancestor_scopes_run_from_the_folder_to_the_root() -> None:
    assert ancestor_scopes("a/b/c") == ["a/b/c", "a/b", "a", ""]
    assert ancestor_scopes("") == [""]
    with pytest.raises(ValueError, match="names the project root"):
        normalize_file("./")
