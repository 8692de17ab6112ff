"""The modules one hook process loads, read from ``python -X importtime`` output
(``PYTHONPROFILEIMPORTTIME=1``) and held to a recorded set per kind of call: the hook's
import set is its speed (a fresh interpreter per prompt and tool call). Shared by
``tests/hook/test_import_sets.py`` and ``tests/lines/test_edit_import_sets.py``."""

from __future__ import annotations

import json
from pathlib import Path


def loaded(stderr: str, watched: tuple[str, ...]) -> list[str]:
    """The memhooks modules, and those of ``watched`` (modules outside memhooks whose
    presence is part of the record: the costly ones), that the process whose importtime
    lines are in ``stderr`` loaded, sorted."""
    names = {
        line.rsplit("|", 1)[-1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "memhooks.fast.stripped" not in names, (
        "the call wrote docstring-free bytecode once it replied (a first call after an "
        "install: memhooks.fast.bytecode.keep_stripped), loading more than it needed: "
        "record with STEADY's environment"
    )
    ours = {n for n in names if n == "memhooks" or n.startswith("memhooks.")}
    return sorted(ours | {n for n in watched if n in names})


#: The environment a recorded call runs with: its importtime lines, and no bytecode
#: written — a hook's first calls in a fresh cache folder write their docstring-free
#: bytecode after replying, loading the writer; the modules a call needs are the same
#: with those files or without them.
STEADY = {"PYTHONPROFILEIMPORTTIME": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def assert_recorded(data: Path, kind: str, found: list[str]) -> None:
    """``found`` is the set recorded for ``kind`` in ``data``; else the modules added
    and gone are said."""
    recorded = json.loads(data.read_text(encoding="utf-8"))[kind]
    assert found == recorded, (
        f"{kind}: added {sorted(set(found) - set(recorded))}, "
        f"gone {sorted(set(recorded) - set(found))}"
    )
