"""Fault-injection tests: opt-in, never part of the default test run.

    MEMHOOKS_FAULTS=1 python -m pytest tests/faults -s     # as root (mounts); under a minute

Sessions of the real hook command (a fresh ``python -m memhooks hook`` per event, as a host
runs it) are played on a git project while the state folder or the store is a read-only
bind mount or a full tmpfs, a state file is damaged between calls, a hook of the chain is
broken, hook processes are killed with SIGKILL at random moments, and hooks run out of
time waiting for a folder lock another writer holds (the watchdog ends them as a host's
timeout would). The run prints its
figures (faults tried, updates accepted, updates lost, tracebacks, ``git status`` lines
beyond the agent's own edits) and fails unless lost, tracebacks and extra lines are 0.
Root is needed for the mounts (``mount --bind``, ``-o remount,ro``, ``-t tmpfs``); the
suite is skipped otherwise. ``MEMHOOKS_FAULTS_SEED`` fixes the random kill points.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("MEMHOOKS_FAULTS") == "1" and os.geteuid() == 0:
        return
    why = "fault injection is opt-in: MEMHOOKS_FAULTS=1, as root (see tests/faults/conftest.py)"
    skip = pytest.mark.skip(reason=why)
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(skip)
