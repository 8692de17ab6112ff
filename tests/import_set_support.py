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
    ours = {n for n in names if n == "memhooks" or n.startswith("memhooks.")} - AFTER_REPLY
    return sorted(ours | {n for n in watched if n in names})


#: Loaded once a call has replied, and only by the first calls after an install or an
#: upgrade (a fresh cache folder in each test): they write the docstring-free bytecode
#: of what they loaded (memhooks.fast.bytecode.keep_stripped).
AFTER_REPLY = {"memhooks.fast.stripped"}


def assert_recorded(data: Path, kind: str, found: list[str]) -> None:
    """``found`` is the set recorded for ``kind`` in ``data``; else the modules added
    and gone are said."""
    recorded = json.loads(data.read_text(encoding="utf-8"))[kind]
    assert found == recorded, (
        f"{kind}: added {sorted(set(found) - set(recorded))}, "
        f"gone {sorted(set(recorded) - set(found))}"
    )
