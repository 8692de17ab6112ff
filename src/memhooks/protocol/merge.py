"""Merge a hook chain root → leaf (``shared/spec/reference-engine.md`` (d)).

Pure functions over plain data. Rules:

* ``inherits: false`` records every query so far as omitted (``inheritance_cut``) and
  resets everything else (sources, scope, sensitivity, cues, backends, guidance); the
  cutting hook then merges normally. Omission history survives the cut.
* ``scope`` / ``sensitivity``: a hook that sets one replaces the inherited value.
* ``tags`` / ``exclude``: appended, exact-string de-duplication, first occurrence wins.
* ``entities`` / ``resources``: appended as ``{source, value}``, skipping values
  structurally equal to one already present (``Auth`` and ``{name: Auth}`` both survive).
* ``recall_queries``: identity is the normalized text (:mod:`memhooks.protocol.text`);
  a later query with the same identity replaces the earlier one in place, with all its
  metadata and its source; the replaced one is recorded as ``overridden``.
* ``backends``: provider-wise structural merge (:func:`merge_backends`).
* body: trimmed, non-empty → ``guidance`` ``{source, value}``.
"""

from __future__ import annotations

from .text import normalize

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any


def merge_backends(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """Structural merge: mapping + mapping merges key by key (recursively); any other
    combination takes the overlay value. Lists replace, never concatenate. Returns new
    mappings; neither argument is modified."""
    out = dict(base)
    for key, value in overlay.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            out[key] = merge_backends(old, value)
        else:
            out[key] = value
    return out


def query_text(value: Any) -> str:
    """The raw text of a recall-query item (string form or mapping ``query``)."""
    if isinstance(value, str):
        return value
    text = value.get("query") if isinstance(value, dict) else None
    return text if isinstance(text, str) else ""


class Resolution:
    """The accumulated state of a chain; attributes mirror plan-v1 fields:
    ``sources``, ``scope``, ``sensitivity``, ``queries`` (``{source, value}``),
    ``entities``, ``resources``, ``tags``, ``exclude``, ``backends``, ``guidance``
    and ``omitted`` (``{source, query, reason}``)."""

    __slots__ = (
        "_index",
        "backends",
        "entities",
        "exclude",
        "guidance",
        "omitted",
        "queries",
        "resources",
        "scope",
        "sensitivity",
        "sources",
        "tags",
    )  # fmt: skip

    def __init__(self) -> None:
        self.omitted: list[dict[str, Any]] = []
        self.reset()

    def reset(self) -> None:
        self.sources: list[str] = []
        self.scope: str | None = None
        self.sensitivity: str | None = None
        self.queries: list[dict[str, Any]] = []
        self.entities: list[dict[str, Any]] = []
        self.resources: list[dict[str, Any]] = []
        self.tags: list[str] = []
        self.exclude: list[str] = []
        self.backends: dict[str, Any] = {}
        self.guidance: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}

    def add_hook(self, source: str, data: dict[str, Any], guidance: str) -> None:
        if data.get("inherits") is False:
            for item in self.queries:
                self.omitted.append(
                    {
                        "source": item["source"],
                        "query": query_text(item["value"]),
                        "reason": "inheritance_cut",
                    }
                )
            self.reset()
        self.sources.append(source)
        for field in ("scope", "sensitivity"):
            if data.get(field) is not None:
                setattr(self, field, data[field])
        for value in data.get("recall_queries") or ():
            self._add_query(source, value)
        _append_values(self.entities, source, data.get("entities"))
        _append_values(self.resources, source, data.get("resources"))
        _append_strings(self.tags, data.get("tags"))
        _append_strings(self.exclude, data.get("exclude"))
        if data.get("backends"):
            self.backends = merge_backends(self.backends, data["backends"])
        if guidance:
            self.guidance.append({"source": source, "value": guidance})

    def _add_query(self, source: str, value: Any) -> None:
        ident = normalize(query_text(value))
        item = {"source": source, "value": value}
        at = self._index.get(ident)
        if at is None:
            self._index[ident] = len(self.queries)
            self.queries.append(item)
            return
        old = self.queries[at]
        self.omitted.append(
            {"source": old["source"], "query": query_text(old["value"]), "reason": "overridden"}
        )
        self.queries[at] = item


def _append_values(into: list[dict[str, Any]], source: str, values: Any) -> None:
    for value in values or ():
        if not any(existing["value"] == value for existing in into):
            into.append({"source": source, "value": value})


def _append_strings(into: list[str], values: Any) -> None:
    for value in values or ():
        if value not in into:
            into.append(value)


def resolve_chain(hooks: list[tuple[str, dict[str, Any], str]]) -> Resolution:
    """Merge ``(source, data, guidance)`` hooks, root first, into a :class:`Resolution`."""
    state = Resolution()
    for source, data, guidance in hooks:
        state.add_hook(source, data, guidance)
    return state
