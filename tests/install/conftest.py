"""Shared fixtures of the installer tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def exe(tmp_path: Path) -> list[str]:
    """argv of a stand-in ``memhooks`` program that exists and runs (``tmp_path/bin``)."""
    program = tmp_path / "bin" / "memhooks"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    return [str(program)]
