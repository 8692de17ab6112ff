"""The typed result of one recall, and its ``memhooks/recall-v1`` dict."""

from __future__ import annotations

from . import RECALL_VERSION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection
    from typing import Any

    from .stages import Resolved


class Recall:
    """What one recall found and kept.

    ``status``: ``ok``, ``nothing_found``, ``over_budget`` (found, but no memory fits),
    ``empty_store``, ``no_cues``, ``no_backend``, ``failed``; ``backend`` (name or None),
    ``project``, ``root``, ``targets``; ``queries`` (recall-v1 query reports);
    ``memories`` (recall-v1 memory dicts, in delivery order); ``guidance``; ``exclude``;
    ``dropped`` counts (``budget``, ``excluded``, ``duplicates``, ``delivered`` — already
    in the session's ledger —, ``refused`` — failed the caller's ``keep`` test — and
    ``budget_ids``); ``budget`` and ``used`` (characters); ``notes``; ``skipped`` (the
    first error of each invalid hook left out of a chain, as Diagnostics).
    """

    __slots__ = (
        "backend",
        "budget",
        "dropped",
        "exclude",
        "guidance",
        "memories",
        "notes",
        "project",
        "queries",
        "root",
        "skipped",
        "status",
        "targets",
        "used",
    )

    def __init__(self, resolved: Resolved, budget: int) -> None:
        self.status = "ok"
        self.backend: str | None = None
        self.project = resolved.project
        self.root = resolved.root
        self.targets = [p["target"] for p in resolved.plans]
        self.queries: list[dict[str, Any]] = []
        self.memories: list[dict[str, Any]] = []
        self.guidance: list[dict[str, Any]] = []
        self.exclude = list(resolved.exclude)
        self.dropped: dict[str, Any] = {
            "budget": 0,
            "excluded": 0,
            "duplicates": 0,
            "delivered": 0,
            "refused": 0,
            "budget_ids": [],
        }
        self.budget = budget
        self.used = 0
        self.notes = list(resolved.notes)
        self.skipped = list(resolved.skipped)

    @property
    def failed(self) -> bool:
        """Whether memory was unavailable (no backend, or every query failed)."""
        return self.status in ("no_backend", "failed")

    def unavailable(self) -> str | None:
        """One short line when memory could not be (fully) searched, else None: every
        query failed or no backend opened, or some sources failed while others answered."""
        if self.failed:
            from .result import headline

            return f"memory unavailable: {headline(self.to_dict())[0]}"
        errors = [q for q in self.queries if q["status"] in ("error", "timeout", "partial")]
        if errors:
            why = next((q["error"] for q in errors if q["error"]), "no answer")
            return f"some memory sources did not answer ({why}); what they hold is missing here"
        return None

    def partial(self) -> str | None:
        """One short line when the deadline left recall queries unsearched (the answer
        is what the searched ones found, highest priority first), else None."""
        from .runtime import SKIPPED

        skipped = sum(1 for q in self.queries if q["status"] == SKIPPED)
        if not skipped:
            return None
        total = len(self.queries)
        return (
            f"a partial answer: {total - skipped} of {total} recall queries were searched"
            " before the deadline (highest priority first); the rest were not"
        )

    def context(
        self,
        unavailable: str | None = None,
        skipped: list[str] | None = None,
        partial: str | None = None,
        *,
        claimed: Collection[str] | None = None,
    ) -> str | None:
        """The labelled text an agent receives, or None when there is nothing to give;
        ``unavailable`` is added as one line (:meth:`unavailable`), ``skipped`` as one
        line per invalid hook (:meth:`skipped_lines`), ``partial`` as one line
        (:meth:`partial`). ``claimed``: only the memories and guidance whose ledger keys
        (:mod:`memhooks.session.keys`) it holds — what a session claimed of this result;
        the result itself is left as it is."""
        from ..session import keys
        from .result import context

        memories, given = self.memories, self.guidance
        if claimed is not None:
            memories = [m for m in memories if m["id"] in claimed]
            given = [g for g in given if keys.guidance(g.get("source")) in claimed]
        return context({"memories": memories, "guidance": given}, unavailable, skipped, partial)

    def skipped_lines(self) -> dict[str, str]:
        """``{ledger key: line}`` for each invalid hook left out of a chain
        (:func:`memhooks.recall.result.skipped_line`; paths relative to the root)."""
        import os

        from ..session import keys
        from .result import skipped_line

        out = {}
        for d in self.skipped:
            rel = os.path.relpath(d.path, self.root) if os.path.isabs(d.path) else d.path
            rel = rel.replace(os.sep, "/")
            out[keys.skipped(rel)] = skipped_line(rel, d.line, d.column, d.code, d.title)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The ``memhooks/recall-v1`` dict (``src/memhooks/schemas/recall-v1.schema.json``)."""
        return {
            "recall_version": RECALL_VERSION,
            "status": self.status,
            "backend": self.backend,
            "project": self.project,
            "root": self.root,
            "targets": self.targets,
            "queries": self.queries,
            "memories": self.memories,
            "guidance": self.guidance,
            "exclude": self.exclude,
            "dropped": self.dropped,
            "budget": {"chars": self.budget, "used": self.used},
            "notes": self.notes,
        }
