"""The per-hook lock: no lost updates, released by a killed holder, no lock files."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from maintain_support import worker

from memhooks.atomicfile import temp_name
from memhooks.errors import DiagnosticError
from memhooks.maintain import roundtrip
from memhooks.maintain.lock import hook_lock

pytestmark = pytest.mark.skipif(
    os.name != "posix", reason="flock on directories is the POSIX design"
)

WRITERS = 32


def test_parallel_writers_lose_no_update(hook: Path) -> None:
    before = os.listdir(hook.parent)
    procs = [worker("note", str(hook), f"parallel note {i}") for i in range(WRITERS)]
    for proc in procs:
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    text = hook.read_text(encoding="utf-8")
    _document, tree = roundtrip.load_hook(text, str(hook))
    queries = [q["query"] for q in tree["recall_queries"] if not isinstance(q, str)]
    assert sorted(q for q in queries if q.startswith("parallel note")) == sorted(
        f"parallel note {i}" for i in range(WRITERS)
    )
    assert (
        "# What we ask memory before touching this code." in text
    )  # comments survived 32 rewrites
    assert sorted(os.listdir(hook.parent)) == sorted(before)  # no lock or temp files


def hold(hook: Path) -> subprocess.Popen[str]:
    proc = worker("hold", str(hook))
    assert proc.stdout is not None
    assert proc.stdout.readline() == "locked\n"
    return proc


def test_lock_is_exclusive_and_times_out_with_a_clear_error(hook: Path) -> None:
    holder = hold(hook)
    try:
        started = time.monotonic()
        with pytest.raises(DiagnosticError) as caught, hook_lock(hook, timeout=0.3):
            pass
        assert 0.3 <= time.monotonic() - started < 2
    finally:
        holder.kill()
        holder.communicate()
    assert caught.value.diagnostic.render() == (
        "error[MH031]: timed out after 0.3 s waiting for the maintenance lock; another memhooks process is updating this hook\n"
        f"  --> {hook}:1:1\n"
        "  help: run the command again; if this persists, look for a stuck memhooks process (e.g. `fuser -v` on the hook's directory)"
    )


def test_a_killed_holder_releases_the_lock(hook: Path) -> None:
    holder = hold(hook)
    os.kill(holder.pid, signal.SIGKILL)
    holder.communicate()
    started = time.monotonic()
    with hook_lock(hook, timeout=5):
        waited = time.monotonic() - started
    assert waited < 0.5


def test_lock_works_before_the_hook_exists_and_creates_nothing(tmp_path: Path) -> None:
    with hook_lock(tmp_path / "MEMHOOKS.md", timeout=0):
        assert os.listdir(tmp_path) == []
    assert os.listdir(tmp_path) == []


def test_taking_the_lock_sweeps_every_temp_file_a_killed_writer_left(hook: Path) -> None:
    """Every writer holds the lock, so a temporary file found once it is taken belongs to
    no live writer: it goes at the start of the next writer, whatever its age (issue 22
    item 1: one younger than 30 s was left in `git status`)."""
    stale = hook.parent / temp_name("MEMHOOKS.md")
    fresh = hook.parent / temp_name("MEMHOOKS.md")
    for path in (stale, fresh):
        path.write_text("half a hook", encoding="utf-8")
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    with hook_lock(hook, timeout=0):
        assert sorted(os.listdir(hook.parent)) == ["MEMHOOKS.md"]


def test_the_lock_is_free_again_after_the_block(hook: Path) -> None:
    with hook_lock(hook, timeout=0):
        pass
    with hook_lock(hook, timeout=0):
        pass


@pytest.mark.parametrize("kind", ["symlink-inside", "dangling-symlink", "fifo", "directory"])
def test_planted_legacy_lock_is_refused(hook: Path, kind: str) -> None:
    lock = hook.parent / ".MEMHOOKS.md.lock"
    if kind == "symlink-inside":
        lock.symlink_to(hook)
    elif kind == "dangling-symlink":
        lock.symlink_to(hook.parent / "nowhere")
    elif kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.mkdir()
    before = hook.read_bytes()
    with pytest.raises(DiagnosticError) as caught, hook_lock(hook, timeout=0):
        pytest.fail("the lock must not be taken")
    assert caught.value.diagnostic.to_json() == {
        "code": "MH029",
        "severity": "error",
        "message": "hook and lock paths must be regular files, not symlinks or special files",
        "path": str(lock),
        "help": "replace the symlink or special file with a regular file",
    }
    assert hook.read_bytes() == before


def test_a_regular_legacy_lock_file_is_tolerated_and_left_alone(hook: Path) -> None:
    lock = hook.parent / ".MEMHOOKS.md.lock"
    lock.write_text("", encoding="utf-8")
    with hook_lock(hook, timeout=0):
        pass
    assert lock.read_text(encoding="utf-8") == ""


def test_symlinked_hook_directory_is_refused(hook: Path, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(hook.parent)
    with pytest.raises(DiagnosticError) as caught, hook_lock(alias / "MEMHOOKS.md", timeout=0):
        pass
    assert (caught.value.diagnostic.code, caught.value.diagnostic.path) == ("MH029", str(alias))


def test_missing_directory_is_an_io_error(tmp_path: Path) -> None:
    with (
        pytest.raises(DiagnosticError) as caught,
        hook_lock(tmp_path / "nope" / "MEMHOOKS.md", timeout=0),
    ):
        pass
    assert caught.value.diagnostic.code == "MH031"
    assert (
        caught.value.diagnostic.message
        == "could not open the hook's directory for locking: No such file or directory"
    )
