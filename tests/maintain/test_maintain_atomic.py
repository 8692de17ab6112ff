"""Atomic replace: permissions kept, unsafe paths refused, failures leave the old file."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from memhooks.atomicfile import temp_name
from memhooks.errors import DiagnosticError
from memhooks.maintain import atomic
from memhooks.maintain.atomic import is_temp_name, sweep_stale_temps, write_atomic

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits and symlinks")

UNSAFE = "hook and lock paths must be regular files, not symlinks or special files"


def listing(directory: Path) -> list[str]:
    return sorted(os.listdir(directory))


def test_replaces_content_and_keeps_mode(hook: Path) -> None:
    hook.chmod(0o640)
    write_atomic(hook, "---\nschema: memhooks/v2\n---\n")
    assert hook.read_text(encoding="utf-8") == "---\nschema: memhooks/v2\n---\n"
    assert stat.S_IMODE(hook.stat().st_mode) == 0o640
    assert listing(hook.parent) == ["MEMHOOKS.md"]


def test_keeps_unusual_modes_too(hook: Path) -> None:
    hook.chmod(0o604)
    write_atomic(hook, b"x")
    assert stat.S_IMODE(hook.stat().st_mode) == 0o604


def test_new_file_honours_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "MEMHOOKS.md", "new")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "MEMHOOKS.md").stat().st_mode) == 0o640


def test_explicit_mode_wins(hook: Path) -> None:
    write_atomic(hook, "x", mode=0o600)
    assert stat.S_IMODE(hook.stat().st_mode) == 0o600


def test_bytes_are_written_verbatim(hook: Path) -> None:
    data = "\ufeff---\r\nschema: memhooks/v2\r\n---\r\n".encode()
    write_atomic(hook, data)
    assert hook.read_bytes() == data


@pytest.mark.parametrize("target", ["inside", "outside", "dangling"])
def test_symlinked_hook_is_refused(tmp_path: Path, target: str) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    real = {
        "inside": project / "real.md",
        "outside": tmp_path / "elsewhere.md",
        "dangling": project / "missing.md",
    }[target]
    if target != "dangling":
        real.write_text("original", encoding="utf-8")
    link = project / "MEMHOOKS.md"
    link.symlink_to(real)
    with pytest.raises(DiagnosticError) as caught:
        write_atomic(link, "new")
    assert caught.value.diagnostic.to_json() == {
        "code": "MH029",
        "severity": "error",
        "message": UNSAFE,
        "path": str(link),
        "help": "replace the symlink or special file with a regular file",
    }
    assert link.is_symlink()
    if target != "dangling":
        assert real.read_text(encoding="utf-8") == "original"
    assert not any(is_temp_name(n) for n in os.listdir(project))


def test_fifo_hook_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "MEMHOOKS.md"
    os.mkfifo(fifo)
    with pytest.raises(DiagnosticError) as caught:
        write_atomic(fifo, "new")
    assert caught.value.diagnostic.code == "MH029"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_directory_at_the_hook_path_is_refused(tmp_path: Path) -> None:
    (tmp_path / "MEMHOOKS.md").mkdir()
    with pytest.raises(DiagnosticError) as caught:
        write_atomic(tmp_path / "MEMHOOKS.md", "new")
    assert caught.value.diagnostic.code == "MH029"


@contextmanager
def unprivileged() -> Iterator[None]:
    """Drop the effective uid to `nobody` while inside (root ignores directory modes)."""
    if os.geteuid() != 0:
        yield
        return
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)


def _traversable(folder: str) -> bool:
    """Whether every folder from / down to ``folder`` lets any uid through (o+x)."""
    path = Path(folder).resolve()
    return all(p.stat().st_mode & stat.S_IXOTH for p in (path, *path.parents))


@pytest.fixture
def reachable_dir() -> Iterator[Path]:
    """A 0755 directory an unprivileged uid can reach: pytest's tmp dirs are 0700 for
    root, and so may be TMPDIR itself (``mktemp -d``), so the first of TMPDIR, /tmp,
    /var/tmp that `nobody` can traverse down to holds it."""
    usable = [d for d in (tempfile.gettempdir(), "/tmp", "/var/tmp") if _traversable(d)]
    if not usable:
        pytest.skip("no temporary folder that user nobody can traverse (TMPDIR, /tmp, /var/tmp)")
    base = Path(tempfile.mkdtemp(prefix="memhooks-ro-", dir=usable[0]))
    base.chmod(0o755)
    try:
        yield base
    finally:
        for path in (base, *base.rglob("*")):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(base)


def test_read_only_directory_gives_a_clear_error(reachable_dir: Path) -> None:
    hook = reachable_dir / "proj" / "MEMHOOKS.md"
    hook.parent.mkdir()
    hook.write_text("original", encoding="utf-8")
    hook.chmod(0o644)
    hook.parent.chmod(0o555)
    with unprivileged(), pytest.raises(DiagnosticError) as caught:
        write_atomic(hook, "new")
    assert caught.value.diagnostic.render() == (
        "error[MH031]: could not create a temporary file next to the hook: Permission denied\n"
        f"  --> {hook}:1:1\n"
        "  help: check that you may write to the hook's directory"
    )
    assert hook.read_text(encoding="utf-8") == "original"
    assert listing(hook.parent) == ["MEMHOOKS.md"]


def fail_with(code: int) -> Any:
    def raiser(*args: Any, **kwargs: Any) -> Any:
        raise OSError(code, os.strerror(code))

    return raiser


@pytest.mark.parametrize(
    ("function", "code", "action", "help"),
    [
        ("write", errno.ENOSPC, "write the hook", "free some disk space and run the command again"),
        ("fsync", errno.ENOSPC, "write the hook", "free some disk space and run the command again"),
        (
            "fchmod",
            errno.EPERM,
            "write the hook",
            "check that you may write to the hook's directory",
        ),
        (
            "replace",
            errno.EROFS,
            "write the hook",
            "the file system is read-only; remount it read-write or work in a writable copy",
        ),
        (
            "open",
            errno.EROFS,
            "create a temporary file next to the hook",
            "the file system is read-only; remount it read-write or work in a writable copy",
        ),
    ],
)
def test_injected_failures_leave_the_original_and_no_temp(
    hook: Path, monkeypatch: pytest.MonkeyPatch, function: str, code: int, action: str, help: str
) -> None:
    before = hook.read_bytes()
    monkeypatch.setattr(atomic.os, function, fail_with(code))
    with pytest.raises(DiagnosticError) as caught:
        write_atomic(hook, "---\nschema: memhooks/v2\n---\n" * 1000)
    monkeypatch.undo()
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.message, diagnostic.help) == (
        "MH031",
        f"could not {action}: {os.strerror(code)}",
        help,
    )
    assert hook.read_bytes() == before
    assert listing(hook.parent) == ["MEMHOOKS.md"]


def test_a_short_write_is_completed(hook: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write
    monkeypatch.setattr(atomic.os, "write", lambda fd, data: real_write(fd, bytes(data[:7])))
    write_atomic(hook, "0123456789" * 10)
    assert hook.read_text(encoding="utf-8") == "0123456789" * 10


def test_temp_names_are_hidden_and_ours() -> None:
    name = temp_name("MEMHOOKS.md")
    assert name.startswith(".MEMHOOKS.md.") and name.endswith(".tmp") and name != "MEMHOOKS.md"
    assert is_temp_name(name)
    assert temp_name("MEMHOOKS.md") != name
    for other in (
        ".MEMHOOKS.md.lock",
        ".MEMHOOKS.md.0123.tmp",
        "MEMHOOKS.md.0123456789abcdef.tmp",
        ".MEMHOOKS.md.0123456789ABCDEF.tmp",
    ):
        assert not is_temp_name(other)


def test_sweep_removes_only_stale_temp_files_of_ours(tmp_path: Path) -> None:
    stale, fresh = temp_name("MEMHOOKS.md"), temp_name("MEMHOOKS.md")
    for name in (stale, fresh, ".MEMHOOKS.md.lock", "notes.tmp", "MEMHOOKS.md"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    link_name, dir_name = temp_name("MEMHOOKS.md"), temp_name("MEMHOOKS.md")
    (tmp_path / "target").write_text("keep", encoding="utf-8")
    (tmp_path / link_name).symlink_to(tmp_path / "target")
    (tmp_path / dir_name).mkdir()
    old = time.time() - 3600
    for name in (stale, link_name, dir_name, ".MEMHOOKS.md.lock", "notes.tmp"):
        os.utime(tmp_path / name, (old, old), follow_symlinks=False)

    assert sweep_stale_temps(tmp_path, older_than_s=60) == [stale]
    assert listing(tmp_path) == sorted(
        [fresh, link_name, dir_name, ".MEMHOOKS.md.lock", "notes.tmp", "MEMHOOKS.md", "target"]
    )
    assert (tmp_path / "target").read_text(encoding="utf-8") == "keep"
    assert sweep_stale_temps(tmp_path, older_than_s=0) == [fresh]


def test_sweep_of_a_missing_directory_is_empty(tmp_path: Path) -> None:
    assert sweep_stale_temps(tmp_path / "missing") == []
