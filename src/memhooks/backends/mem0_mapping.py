"""Plan fields ↔ Mem0, without the SDK: the query text, the folder cue, filter trees
(structural merge, the entity ids they name), result items as hits, and SDK exceptions
as BackendErrors. Used by :mod:`memhooks.backends.mem0`; the mapping table is there."""

from __future__ import annotations

from ..errors import BackendError, MemhooksError
from .base import Hit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from .base import SearchRequest

#: Entity (scope) ids each Mem0 flavour knows; they live inside ``filters``.
ENTITY_KEYS = {
    "oss": ("user_id", "agent_id", "run_id"),
    "platform": ("user_id", "agent_id", "run_id", "app_id"),
}
LOGICAL = ("AND", "OR", "NOT")
#: Longest SDK error text kept in a message.
MAX_DETAIL = 300


def sharpen(text: str, entities: list[str]) -> str:
    """The query text with the entity names it does not already contain appended."""
    missing = [e for e in entities if e.casefold() not in text.casefold()]
    return f"{text.strip()}\nentities: {', '.join(missing)}" if missing else text.strip()


def folder_cue(request: SearchRequest) -> list[dict[str, Any]] | None:
    """For a generated folder cue (whose text names no topic): memories scoped to the
    target folder or about its files, as an OSS ``OR`` list; else ``None``."""
    if not request.auto:
        return None
    cue: list[dict[str, Any]] = []
    if request.scopes and request.scopes[0]:
        cue.append({"scope": request.scopes[0]})
    if request.files:
        cue.append({"files": {"in": list(request.files)}})
    return cue or None


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Structural overlay (seed 000): mappings merge recursively, anything else replaces."""
    out = dict(base)
    for key, value in over.items():
        both = isinstance(out.get(key), dict) and isinstance(value, dict)
        out[key] = merge(out[key], value) if both else value
    return out


def entity_refs(filters: Any) -> Iterator[tuple[str, Any]]:
    """Every ``(entity key, value)`` in a filter tree, through ``AND``/``OR``/``NOT``."""
    if isinstance(filters, list):
        for item in filters:
            yield from entity_refs(item)
    elif isinstance(filters, dict):
        for key, value in filters.items():
            if key in ENTITY_KEYS["platform"]:
                yield key, value
            elif key in LOGICAL:
                yield from entity_refs(value)


def named_ids(value: Any) -> list[str] | None:
    """The ids a filter value selects when it only names ids (``"a"``, ``{"eq": "a"}``,
    ``{"in": ["a"]}``); ``None`` for anything wider (``"*"``, ``ne``, ``nin`` …)."""
    if isinstance(value, dict) and len(value) == 1:
        op, value = next(iter(value.items()))
        if op == "in" and isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        if op != "eq":
            return None
    return [value] if isinstance(value, str) and value != "*" else None


def to_hit(item: Any) -> Hit:
    """A Mem0 result item (OSS or Platform) as a :class:`Hit`; BackendError when it has
    no ``id`` or ``memory`` text."""
    if not isinstance(item, dict) or "id" not in item or not isinstance(item.get("memory"), str):
        raise BackendError(f"mem0: malformed result item: {str(item)[:MAX_DETAIL]}")
    metadata = item.get("metadata")
    md: dict[str, Any] = metadata if isinstance(metadata, dict) else {}
    score = item.get("score")
    tags = strs(md.get("tags")) + strs(item.get("categories"))
    return Hit(
        str(item["id"]),
        item["memory"],
        float(score) if isinstance(score, (int, float)) else 0.0,
        scope=md.get("scope") if isinstance(md.get("scope"), str) else None,
        files=strs(md.get("files")),
        created_at=item.get("created_at") if isinstance(item.get("created_at"), str) else None,
        kind=md.get("kind") if isinstance(md.get("kind"), str) else None,
        tags=list(dict.fromkeys(tags)),
        entities=strs(md.get("entities")),
        obsolete=md.get("obsolete") is True,
    )


def translate(exc: BaseException, what: str) -> MemhooksError:
    """An exception from the SDK as a BackendError naming what failed."""
    if isinstance(exc, MemhooksError):
        return exc
    if isinstance(exc, ImportError):
        return BackendError(
            f"mem0: a package of the mem0 extra is missing ({exc.name or exc}); "
            "install it with: pip install 'memhooks[mem0]'"
        )
    error = BackendError(f"mem0: {what} failed: {describe(exc)}")
    error.__cause__ = exc
    return error


def describe(exc: BaseException) -> str:
    """``Class (HTTP status): first line of the message``, cut to :data:`MAX_DETAIL`."""
    text = (str(exc).strip().splitlines() or [""])[0][:MAX_DETAIL]
    status = getattr(getattr(exc, "response", None), "status_code", None)
    status = status or (getattr(exc, "debug_info", None) or {}).get(
        "status_code"
    )  # mem0.exceptions
    head = type(exc).__name__ + (f" (HTTP {status})" if isinstance(status, int) else "")
    return f"{head}: {text}" if text else head


def results(data: Any) -> list[Any]:
    items = data.get("results") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise BackendError(f"mem0: unexpected search response: {str(data)[:MAX_DETAIL]}")
    return items


def written_id(data: Any) -> str:
    items = data.get("results") if isinstance(data, dict) and "results" in data else [data]
    first = items[0] if isinstance(items, list) and items and isinstance(items[0], dict) else {}
    written = first.get("id") or first.get("event_id")
    if not written:
        raise BackendError(f"mem0: add returned no memory id: {str(data)[:MAX_DETAIL]}")
    return str(written)


def strs(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
