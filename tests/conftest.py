"""Test sandbox: no test ever sees the real home directory or the caller's memhooks settings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# The suite is deterministic: property tests draw the same examples on every run (a
# failure a random draw finds once is added as an example in its test), and keep no
# example database in the checkout.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.load_profile("deterministic")


@pytest.fixture(autouse=True, scope="session")
def _sandbox_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The sandbox for module- and session-scoped fixtures, which pytest sets up before any
    function-scoped one: without it a module fixture that runs the hook wrote its sessions
    into the caller's ``~/.local/state/memhooks`` (newcomer trial #6)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield _sandbox(tmp_path_factory, monkeypatch)


@pytest.fixture(autouse=True)
def _sandbox_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own home, state and runtime folders, and no ``MEMHOOKS_*`` setting."""
    return _sandbox(tmp_path_factory, monkeypatch)


def _sandbox(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ):
        monkeypatch.setenv(var, str(home / sub))
    # what the hook falls back to when the state folder is unusable: private, not /tmp's
    runtime = tmp_path_factory.mktemp("run")
    runtime.chmod(0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    for var in list(os.environ):
        if var.startswith("MEMHOOKS_"):
            monkeypatch.delenv(var)
    # Keep git from reading the developer's global configuration.
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    return home
