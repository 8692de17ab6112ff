"""The maintainer's edits of a hook's recall queries: notes (``note``) and removals
(``remove``). Generated cues (``event``, ``prune``) are in :mod:`.cues`.

Every function takes the CommentedMap loaded by :func:`memhooks.maintain.roundtrip.load_hook`
and changes it in place; none touches the file system. Rules are the reference engine's
(``shared/spec/reference-engine.md`` (f)):

* a query's identity is its whitespace-normalised text (:func:`memhooks.protocol.text.normalize`);
* a note enriches an existing query or appends a new one, always in mapping form.

New keys go where the reference would write them (``query, priority, when, entities,
resources, tags, backends``; top level ``schema, scope, inherits, recall_queries, ...``);
existing keys, unknown keys (e.g. ``x_future``), provider data and comments stay.

The tree is expected to have passed validation. If a field the edit must extend has the
wrong shape (e.g. ``tags: 3``), DiagnosticError MH025 is raised with an empty path and the
field's key path in ``key``; the caller knows the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..errors import DiagnosticError, fail
from ..protocol.text import normalize
from ..protocol.yamlcore import to_plain
from . import nodes

TOP_ORDER = (
    "schema",
    "scope",
    "inherits",
    "recall_queries",
    "entities",
    "resources",
    "tags",
    "exclude",
    "sensitivity",
    "backends",
)
QUERY_ORDER = ("query", "priority", "when", "entities", "resources", "tags", "backends")


def query_text(item: Any) -> str:
    """A query item's text: the string itself or its ``query`` ('' when there is none)."""
    if isinstance(item, str):
        return item
    if isinstance(item, CommentedMap) and isinstance(item.get("query"), str):
        return str(item["query"])
    return ""


def queries_of(tree: CommentedMap) -> CommentedSeq:
    """``tree["recall_queries"]``, or a detached empty list when it is absent or null.
    Raises MH025 when it is something else."""
    queries = tree.get("recall_queries")
    if queries is not None and not isinstance(queries, CommentedSeq):
        raise malformed("recall_queries", "a list")
    return queries if queries is not None else CommentedSeq()


def append_query(tree: CommentedMap, query: CommentedMap | str) -> None:
    """Append a finished query (a mapping, or a plain string) to ``recall_queries``
    (creating the key)."""
    if isinstance(tree.get("recall_queries"), CommentedSeq):
        nodes.append(tree["recall_queries"], query)
    else:
        queries_of(tree)  # refuses a non-list
        nodes.set_key(tree, "recall_queries", CommentedSeq([query]), TOP_ORDER)


def malformed(where: str, expected: str) -> DiagnosticError:
    """MH025 for a field an edit must extend but that has the wrong shape."""
    return fail("MH025", f"cannot edit `{where}`: it is not {expected}", "", key=where)


class Enrichment(TypedDict, total=False):
    """What :func:`upsert_query` adds to a query, as keyword arguments handed on."""

    priority: float | None
    roles: Iterable[str]
    entities: Iterable[Any]
    resources: Iterable[Any]
    tags: Iterable[str]
    backends: Mapping[str, Any] | None


def upsert_query(
    tree: CommentedMap,
    text: str,
    *,
    priority: float | None = None,
    roles: Iterable[str] = (),
    entities: Iterable[Any] = (),
    resources: Iterable[Any] = (),
    tags: Iterable[str] = (),
    backends: Mapping[str, Any] | None = None,
) -> bool:
    """Enrich the query whose normalised text equals ``text``'s, or append a new one.

    An existing plain-string query becomes ``{query: <its original text>}`` first when
    there is anything to add. Then:
    ``priority`` replaced when given; ``roles`` (stripped) appended to ``when.roles`` and
    ``tags`` (stripped) to ``tags`` without duplicates; entities/resources (strings or
    mappings) appended unless an equal one is there; ``backends`` deep-merged (mappings
    merge, anything else replaces). Returns True when a new query was appended.
    Raises DiagnosticError MH003 (empty path) for a blank ``text``.
    """
    ident = normalize(text)
    if not ident:
        raise fail("MH003", "recall query must not be empty", "")
    queries = queries_of(tree)
    index = next(
        (i for i, item in enumerate(queries) if normalize(query_text(item)) == ident), None
    )
    where = f"recall_queries[{len(queries) if index is None else index}]"
    extra = (priority, list(roles), list(entities), list(resources), list(tags), backends)
    # New mappings are filled in before they are attached, so comment lines that move
    # onto their last line end up after all of their content.
    if index is None:
        query = CommentedMap(query=ident)
        _enrich(query, where, *extra)
        append_query(tree, query)
    elif isinstance(queries[index], CommentedMap):
        _enrich(queries[index], where, *extra)
    elif priority is not None or any(extra[1:]):
        # A plain item becomes a mapping only when there is something to add: a repeated
        # bare note leaves the file alone (the reference converts it anyway).
        query = CommentedMap(query=queries[index])
        _enrich(query, where, *extra)
        nodes.to_mapping(queries, index, query)
    return index is None


def _enrich(
    query: CommentedMap,
    where: str,
    priority: float | None,
    roles: list[str],
    entities: list[Any],
    resources: list[Any],
    tags: list[str],
    backends: Mapping[str, Any] | None,
) -> None:
    if priority is not None:
        nodes.set_key(query, "priority", priority, QUERY_ORDER)
    if roles:
        roles = [r.strip() for r in roles]
        when = query.get("when")
        if isinstance(when, CommentedMap):
            _add_unique(when, "roles", roles, ("roles",), f"{where}.when.roles", flow=True)
        elif when is None:
            nodes.set_key(
                query, "when", CommentedMap(roles=nodes.flow(dict.fromkeys(roles))), QUERY_ORDER
            )
        else:
            raise malformed(f"{where}.when", "a mapping")
    if entities:
        _add_unique(
            query, "entities", [_node(e) for e in entities], QUERY_ORDER, f"{where}.entities"
        )
    if resources:
        _add_unique(
            query, "resources", [_node(r) for r in resources], QUERY_ORDER, f"{where}.resources"
        )
    if tags:
        _add_unique(
            query, "tags", [t.strip() for t in tags], QUERY_ORDER, f"{where}.tags", flow=True
        )
    if backends:
        current = query.get("backends")
        if isinstance(current, CommentedMap):
            _deep_merge(current, backends)
        elif current is None:
            nodes.set_key(query, "backends", _node(backends), QUERY_ORDER)
        else:
            raise malformed(f"{where}.backends", "a mapping")


def remove_queries(tree: CommentedMap, text: str) -> int:
    """Remove every query whose normalised text equals ``text``'s; returns how many."""
    ident = normalize(text)
    queries = tree.get("recall_queries")
    if not ident or not isinstance(queries, CommentedSeq):
        return 0
    doomed = [i for i, item in enumerate(queries) if normalize(query_text(item)) == ident]
    for index in reversed(doomed):
        nodes.delete_item(tree, "recall_queries", index)
    return len(doomed)


def _node(value: Any) -> Any:
    """A JSON-like value as round-trip nodes: mappings block style, lists of scalars flow."""
    if isinstance(value, Mapping):
        return CommentedMap((str(k), _node(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        items = [_node(v) for v in value]
        return (
            CommentedSeq(items)
            if any(isinstance(v, (CommentedMap, CommentedSeq)) for v in items)
            else nodes.flow(items)
        )
    return value


def _add_unique(
    mapping: CommentedMap,
    key: str,
    values: list[Any],
    order: tuple[str, ...],
    where: str,
    *,
    flow: bool = False,
) -> None:
    """Append ``values`` not already in ``mapping[key]`` (by plain-data equality),
    creating the list with all of them when it is absent."""
    current = mapping.get(key)
    if current is not None and not isinstance(current, CommentedSeq):
        raise malformed(where, "a list")
    seen = [to_plain(item) for item in current or ()]
    fresh = []
    for value in values:
        plain = to_plain(value)
        if plain not in seen:
            seen.append(plain)
            fresh.append(value)
    if current is None:
        nodes.set_key(mapping, key, nodes.flow(fresh) if flow else CommentedSeq(fresh), order)
    else:
        for value in fresh:
            nodes.append(current, value)


def _deep_merge(target: CommentedMap, incoming: Mapping[str, Any]) -> None:
    for key, value in incoming.items():
        current = target.get(str(key))
        if isinstance(value, Mapping) and isinstance(current, CommentedMap):
            _deep_merge(current, value)
        else:
            nodes.set_key(target, str(key), _node(value), ())
