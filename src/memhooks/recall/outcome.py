"""The typed result of one recall (:class:`Recall`) and of each memory it recalled
(:class:`Recalled`), and their ``memhooks/recall-v1`` dicts."""

from __future__ import annotations

from ..backends.base import MEMORY_FIELDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from ..backends.base import Hit
    from ..errors import MemhooksError
    from .stages import Resolved

#: The version of the recall result (:meth:`Recall.to_dict`).
RECALL_VERSION = "memhooks/recall-v1"


class Recalled:
    """One recalled memory, as a backend found it (:class:`~memhooks.backends.base.Hit`:
    ``id``, ``text``, ``scope`` — root-relative folder or None —, ``files``, ``kind``,
    ``tags``, ``entities``, ``created_at`` — ISO 8601 or None —, ``commit`` — the full
    hash of the commit it was made of, or None) and what recalled it: ``recalled_by``
    (the queries that found it, recall-v1 provenance dicts, :mod:`.credit`) and
    ``anchored_by`` (what anchored it at tool time, ``"anchored to billing/invoice.py"``,
    or the names that found it, :mod:`.symbol_recall`; None otherwise).

    Immutable (assigning raises AttributeError): :meth:`replace` makes a changed copy.
    A plain slotted class, not a dataclass: it is made on the hook's path, whose
    imports are held (``tests/hook/test_import_sets.py``)."""

    #: The memory's own fields, in recall-v1 order (what :meth:`to_dict` writes first).
    FIELDS = ("id", "text", *MEMORY_FIELDS)
    __slots__ = (*FIELDS, "recalled_by", "anchored_by")
    id: str
    text: str
    scope: str | None
    files: list[str]
    kind: str | None
    tags: list[str]
    entities: list[str]
    created_at: str | None
    commit: str | None
    recalled_by: tuple[dict[str, Any], ...]
    anchored_by: str | None

    def __init__(
        self,
        id: str,
        text: str,
        *,
        scope: str | None = None,
        files: list[str] | None = None,
        kind: str | None = None,
        tags: list[str] | None = None,
        entities: list[str] | None = None,
        created_at: str | None = None,
        commit: str | None = None,
        recalled_by: Sequence[dict[str, Any]] = (),
        anchored_by: str | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "id", id)
        put(self, "text", text)
        put(self, "scope", scope)
        put(self, "files", [] if files is None else files)
        put(self, "kind", kind)
        put(self, "tags", [] if tags is None else tags)
        put(self, "entities", [] if entities is None else entities)
        put(self, "created_at", created_at)
        put(self, "commit", commit)
        put(self, "recalled_by", tuple(recalled_by))
        put(self, "anchored_by", anchored_by)

    @classmethod
    def of(
        cls, hit: Hit, recalled_by: Sequence[dict[str, Any]] = (), anchored_by: str | None = None
    ) -> Recalled:
        """The memory ``hit`` a backend returned, recalled by ``recalled_by``."""
        known = {name: getattr(hit, name) for name in MEMORY_FIELDS}
        return cls(hit.id, hit.text, **known, recalled_by=recalled_by, anchored_by=anchored_by)

    @classmethod
    def from_dict(cls, memory: dict[str, Any]) -> Recalled:
        """The memory of a recall-v1 ``memories`` entry (:meth:`to_dict`)."""
        return cls(
            str(memory["id"]),
            str(memory["text"]),
            **{name: memory.get(name) for name in MEMORY_FIELDS},
            recalled_by=memory.get("recalled_by") or (),
            anchored_by=memory.get("anchored_by"),
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a recalled memory is immutable: Recalled.replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a recalled memory is immutable")

    def __repr__(self) -> str:
        return f"Recalled({self.id!r}, {self.text[:40]!r})"

    def replace(self, **changes: Any) -> Recalled:
        """A copy with ``changes`` (field name -> new value)."""
        out = object.__new__(Recalled)
        for name in self.__slots__:
            object.__setattr__(out, name, changes.pop(name, getattr(self, name)))
        if changes:
            raise TypeError(f"Recalled has no field {min(changes)!r}")
        return out

    def to_dict(self) -> dict[str, Any]:
        """The recall-v1 ``memories`` entry (``anchored_by`` only when set)."""
        out = {name: getattr(self, name) for name in self.FIELDS}
        out["recalled_by"] = list(self.recalled_by)
        if self.anchored_by is not None:
            out["anchored_by"] = self.anchored_by
        return out


class Recall:
    """What one recall found and kept.

    ``status``: ``ok``, ``nothing_found``, ``over_budget`` (found, but no memory fits),
    ``empty_store``, ``no_cues``, ``no_backend``, ``failed``; ``backend`` (name or None),
    ``project``, ``root``, ``targets``; ``queries`` (recall-v1 query reports);
    ``memories`` (:class:`Recalled`, in delivery order); ``guidance``; ``exclude``;
    ``dropped`` counts (``budget``, ``excluded``, ``duplicates``, ``delivered`` — already
    in the session's ledger —, ``refused`` — failed the caller's ``keep`` test — and
    ``budget_ids``); ``budget`` and ``used`` (characters); ``notes``; ``skipped`` (the
    first error of each invalid hook left out of a chain, as Diagnostics); ``unavailable``
    (the MemhooksError that kept the backend from opening, or None; not in the dict: a
    command reports it as its diagnostic).
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
        "unavailable",
        "used",
    )

    def __init__(self, resolved: Resolved, budget: int) -> None:
        self.status = "ok"
        self.backend: str | None = None
        self.project = resolved.project
        self.root = resolved.root
        self.targets = [p["target"] for p in resolved.plans]
        self.queries: list[dict[str, Any]] = []
        self.memories: list[Recalled] = []
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
        self.unavailable: MemhooksError | None = None

    @property
    def failed(self) -> bool:
        """Whether memory was unavailable (no backend, or every query failed)."""
        return self.status in ("no_backend", "failed")

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
            "memories": [m.to_dict() for m in self.memories],
            "guidance": self.guidance,
            "exclude": self.exclude,
            "dropped": self.dropped,
            "budget": {"chars": self.budget, "used": self.used},
            "notes": self.notes,
        }
