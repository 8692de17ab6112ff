"""Which language a file's code is in, by its extension, for the rules that judge what
a commit did to its lines: :mod:`.surface` (what is surface there) and :mod:`.delta`
(whether a line's indentation is code). A file of any other extension is not judged.

Its own module, not :mod:`.surface`'s part: :mod:`.delta` asks it only when it judges an
owner (git shows the file's two versions), and :mod:`.surface` keeps its verdicts with
:func:`.delta.kept` — one arrow each way would be an import circle."""

from __future__ import annotations

import os

PYTHON = frozenset({".py", ".pyi"})
C_LIKE = frozenset(
    {".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".java", ".js", ".jsx", ".mjs",
     ".ts", ".tsx", ".go", ".rs", ".cs", ".swift", ".kt", ".scala", ".m", ".mm"}
)  # fmt: skip


def language(path: str) -> str | None:
    """``"python"``, ``"c"`` or None (not judged) for a file ``path``."""
    ext = os.path.splitext(path)[1].lower()
    return "python" if ext in PYTHON else "c" if ext in C_LIKE else None
