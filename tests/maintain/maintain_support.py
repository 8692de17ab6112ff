"""Helpers for the maintenance tests: sample hooks, line-ending variants, child workers.

(A uniquely named module, so test files can import it; several ``conftest`` modules exist.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import memhooks

DATA = Path(__file__).parent / "data"
HOOKS = sorted(p.name for p in (DATA / "hooks").glob("*.md"))
WORKER = Path(__file__).parent / "worker.py"

#: Same hook, other encodings of line ends / BOM: name -> transform of the LF text.
VARIANTS: dict[str, Callable[[str], str]] = {
    "lf": lambda text: text,
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "cr": lambda text: text.replace("\n", "\r"),
    "bom": lambda text: "\ufeff" + text,
    "bom-crlf": lambda text: "\ufeff" + text.replace("\n", "\r\n"),
}


def sample(name: str, variant: str = "lf") -> str:
    """The text of ``data/hooks/<name>`` in the given variant (files are stored LF)."""
    return VARIANTS[variant]((DATA / "hooks" / name).read_bytes().decode("utf-8"))


def worker(*args: str, **kw: object) -> subprocess.Popen[str]:
    """Start ``worker.py`` with ``args``; stdout is a pipe of text lines."""
    env = dict(os.environ)
    src = str(Path(memhooks.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        **kw,  # type: ignore[arg-type]
    )
