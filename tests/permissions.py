"""Permissions and full disks that bite, whoever runs the tests.

Root ignores file modes, so a test of "a read-only file" as root proves nothing. These
helpers use the real mechanisms instead: :func:`read_only_folder` makes a folder read-only
with a read-only bind mount as root (``mount``; skipped where the container forbids it)
and with ``chmod`` otherwise; :func:`unprivileged` runs a command as root without the
capabilities that bypass file modes (``capsh --drop``), or as it is when not root;
:func:`small_disk` mounts a tiny tmpfs (root only).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

#: The capabilities that let root read, write and chmod whatever the mode says.
BYPASS = "cap_dac_override,cap_dac_read_search,cap_fowner,cap_chown"


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """``folder`` read-only for this process while the block runs."""
    if os.geteuid() != 0:
        mode = stat.S_IMODE(folder.stat().st_mode)
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(mode)
        return
    bind = subprocess.run(
        ["mount", "--bind", str(folder), str(folder)], capture_output=True, check=False
    )
    if bind.returncode != 0:
        pytest.skip(f"cannot bind-mount as root here: {bind.stderr.decode().strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def unprivileged(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``python -c code`` so that file modes apply (see the module docstring)."""
    argv = [sys.executable, "-c", code]
    if os.geteuid() == 0:
        capsh = shutil.which("capsh")
        if capsh is None:
            pytest.skip("running as root without capsh: file modes cannot be made to apply")
        argv = [capsh, f"--drop={BYPASS}", "--", "-c", " ".join(_quote(a) for a in argv)]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=False)


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "256k") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on ``folder`` while the block runs (root only; the
    test is skipped otherwise). Fill it with :func:`fill`."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: Path) -> None:
    """Write a file into ``folder`` until its disk is full."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
