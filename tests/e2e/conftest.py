"""Real-agent end-to-end tests: opt-in, never part of the default test run.

    bash tests/e2e/install_agents.sh            # once: the agent programs (npm + PyPI)
    MEMHOOKS_E2E=1 python -m pytest tests/e2e    # the tests (one to two minutes)

``MEMHOOKS_E2E_AGENTS`` names the folder the agents were installed in (default
``/tmp/memhooks-e2e-agents``). An agent that is not installed is skipped, saying so.
Every agent runs offline against ``fake_llm.py`` on 127.0.0.1, with its own HOME.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("MEMHOOKS_E2E") == "1":
        return
    skip = pytest.mark.skip(reason="real-agent tests are opt-in: MEMHOOKS_E2E=1 (see tests/e2e/conftest.py)")
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(skip)
