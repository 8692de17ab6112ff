"""The candidates' child walk as a module of its own (``memhooks.listing.walker``): run
as a file by an isolated interpreter (``python -I -S``, when threads forbid a fork) it
needs nothing of its package and imports nothing a bare interpreter does not, and it
writes the records :mod:`memhooks.listing.candidates` reads."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from memhooks import child
from memhooks.listing import candidates, walker

OLD = "---\nschema: memhooks/v1\n---\n"


def _tree(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _check_ignore(root: Path) -> list[str]:
    # git by its path, as candidates.git_list passes it (no search of PATH in the child)
    return [shutil.which("git") or "git", "-C", str(root), "check-ignore", "--stdin", "-z", "--verbose",
            "--non-matching"]  # fmt: skip


def test_a_copy_of_the_file_alone_walks_in_an_isolated_interpreter(tmp_path) -> None:
    root = _tree(
        tmp_path / "p",
        {".gitignore": "b/\n", "MEMHOOKS.md": OLD, "a/MEMHOOKS.md": OLD, "b/MEMHOOKS.md": OLD},
    )
    installed = tmp_path / "site" / "walker.py"  # no package, no memhooks beside it
    installed.parent.mkdir()
    shutil.copy(walker.__file__, installed)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "nothing")}  # -I ignores it anyway
    out = subprocess.run(
        [sys.executable, "-I", "-S", str(installed), str(root), "100", "MEMHOOKS.md", "10", "0",
         *_check_ignore(root)],
        capture_output=True, check=True, env=env, cwd=tmp_path,
    ).stdout  # fmt: skip
    records = out.split(b"\0")
    at = records.index(b"G")
    assert sorted(records[:at]) == [b"RMEMHOOKS.md", b"Ra/MEMHOOKS.md", b"Rb/MEMHOOKS.md"]
    verdicts = records[at + 1 : -1]  # git's: source, line, pattern, path for each
    rules = {verdicts[n + 3]: verdicts[n + 2] for n in range(0, len(verdicts), 4)}
    assert rules == {b"MEMHOOKS.md": b"", b"a/MEMHOOKS.md": b"", b"b/MEMHOOKS.md": b"b/"}


def test_the_spawned_walker_imports_nothing_but_os(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"a/MEMHOOKS.md": OLD})

    def imported(*argv: str) -> set[str]:
        err = subprocess.run(
            [sys.executable, "-X", "importtime", "-I", "-S", *argv],
            capture_output=True,
            check=False,  # check-ignore exits 1: nothing is ignored
        ).stderr.decode()  # fmt: skip
        return {line.rpartition("|")[2].strip() for line in err.splitlines() if "|" in line}

    bare = imported("-c", "import os")
    walk = imported(
        walker.__file__, str(root), "100", "MEMHOOKS.md", "10", "1", *_check_ignore(root)
    )
    assert "os" in walk and "memhooks" not in walk
    assert walk - bare <= {"fcntl"}  # for a large pipe


def test_the_walk_ends_with_its_verdict_when_it_does_not_exec(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the walk makes the top its working folder
    empty = _tree(tmp_path / "e", {"a/x.py": ""})
    special = _tree(tmp_path / "s", {"MEMHOOKS.md": OLD})
    (special / "sub").mkdir()
    os.mkfifo(special / "sub" / "MEMHOOKS.md")
    for root, verdict in ((empty, b"E\0"), (special, b"S\0")):
        read, write = os.pipe()
        try:
            walker.walk(
                str(root), 100, "MEMHOOKS.md", 10, False, ["false"], write
            )  # the fork's call
            os.close(write)
            out = os.read(read, 1 << 16)
        finally:
            os.close(read)
        assert out.endswith(verdict)


def test_without_the_walker_file_a_threaded_process_lists_as_before(tmp_path, monkeypatch) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD})
    monkeypatch.setattr(walker, "__file__", str(tmp_path / "walker.zip" / "walker.pyc"))
    calls: list[int] = []
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)  # no fork: the file would be spawned
    other.start()
    try:
        assert candidates.git_list(str(root), lambda: calls.append(1), lambda _: None) is None
    finally:
        stop.set()
        other.join()
    assert calls == [1]  # the caller's work still done, once


def test_git_is_found_on_path_once_as_execvp_finds_it(tmp_path, monkeypatch) -> None:
    assert child.program("git") == shutil.which("git")
    tool = tmp_path / "bin" / "tool"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\n")
    (tmp_path / "first").mkdir()
    (tmp_path / "first" / "tool").mkdir()  # a folder of that name is not it
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "first:bin")  # relative entries: from this folder
    with pytest.raises(FileNotFoundError):
        child.program("tool")  # not executable
    tool.chmod(0o755)
    assert child.program("tool") == str(tool)  # absolute: the walker moves away
    tool.unlink()
    with pytest.raises(FileNotFoundError):
        child.program("tool")  # what was found is checked again
