"""No test sees the caller's home: not even a module-scoped fixture, which pytest sets up
before the per-test sandbox (newcomer trial #6 found one writing its hook sessions into the
caller's ``~/.local/state/memhooks``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def module_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path]:
    return dict(os.environ), tmp_path_factory.getbasetemp()


def test_a_module_fixture_sees_a_sandboxed_home_and_no_memhooks_setting(
    module_env: tuple[dict[str, str], Path],
) -> None:
    env, pytest_temp = module_env
    home = Path(env["HOME"])
    assert home.is_dir() and home.is_relative_to(pytest_temp), home
    for var in ("XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        assert Path(env[var]).is_relative_to(home), var
    assert not [var for var in env if var.startswith("MEMHOOKS_")]
