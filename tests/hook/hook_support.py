"""A small project with hooks and a memory store, and payloads rewritten to point at it."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

DATA = Path(__file__).parent / "data"
PAYLOADS = DATA / "payloads"
#: Project roots the recorded payloads name; rewritten to the test project.
RECORDED_ROOTS = ("/home/dev/projects/acme-api", "/home/dev/acme-api", "/home/user/proj")
MARKER = "GOLDEN-7731"

ROOT_HOOK = """---
schema: memhooks/v2
recall_queries:
  - "Which release constraints apply to every change?"
---
"""
SUB_HOOK = """---
schema: memhooks/v2
recall_queries:
  - "How does billing round invoice totals?"
---
"""


def make_project(base: Path) -> tuple[Path, Path]:
    """(project root, store file): a root hook, a ``src/acme`` hook, two memories."""
    from memhooks.store import MemoryStore, project_id

    root = base / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "acme").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK)
    (root / "src" / "acme" / "MEMHOOKS.md").write_text(SUB_HOOK)
    (root / "src" / "acme" / "billing.py").write_text("TOTAL = 0\n")
    for hook in (root / "MEMHOOKS.md", root / "src" / "acme" / "MEMHOOKS.md"):
        os.utime(hook, (time.time() - 60, time.time() - 60))  # old enough for the parsed-hook cache
    store_path = base / "store.sqlite3"
    store = MemoryStore(str(store_path))
    try:
        project = project_id(str(root.resolve()))
        store.add(project, f"{MARKER}: release constraints apply to every change: ship behind a flag.", id="m-root")
        store.add(project, f"{MARKER}: billing rounds invoice totals half-even.", scope="src/acme", id="m-billing")
    finally:
        store.close()
    return root.resolve(), store_path


def payload(name: str, root: Path) -> str:
    """The recorded payload ``name`` (``real/claude-code-UserPromptSubmit.json``) with
    its project paths moved under ``root``."""
    text = (PAYLOADS / name).read_text(encoding="utf-8")
    for recorded in RECORDED_ROOTS:
        text = text.replace(recorded, str(root))
    return text


def names() -> list[str]:
    return sorted(str(p.relative_to(PAYLOADS)) for p in PAYLOADS.rglob("*.json"))


def load_golden() -> dict[str, dict[str, object]]:
    return json.loads((DATA / "golden.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def installed_copy(top: Path) -> Path:
    """A copy of the memhooks package in ``top`` with its standard bytecode written, as
    after an install (a tree the bytecode finder's tests may change); ``top``."""
    import shutil
    import subprocess
    import sys

    import memhooks

    shutil.copytree(Path(memhooks.__file__).parent, top / "memhooks",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(top / "memhooks")],
                   env=env, check=True, capture_output=True)  # fmt: skip
    return top
