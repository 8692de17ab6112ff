"""Generated cues: the ``memhooks:auto`` queries ``event`` maintains and ``prune`` cleans.

A generated cue (``shared/spec/reference-engine.md`` (f) item 6) is a mapping-form query

* whose text is :data:`AUTO_CUE` plus `` [scope: <dir>]`` — the root-relative directory
  with ``/`` separators, ``.`` for the root — so a child's cue never overrides its
  parent's (cues written before the suffix existed are found too, and migrated);
* tagged :data:`AUTO_TAG`;
* with ``{name: <root-relative file path>, kind: file}`` resources, capped per cue.

Functions take the round-trip tree and change it in place; whether a file still exists
is asked of a callback, so nothing here touches the file system.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..errors import UsageError
from ..protocol.text import normalize
from . import nodes
from .edit import QUERY_ORDER, append_query, malformed, queries_of, query_text
from .generated import (  # noqa: F401  (what a generated cue is: this module's API too)
    AUTO_CUE,
    AUTO_TAG,
    auto_cue_text,
    file_name,
    find_auto,
    is_auto,
)


def prune_auto(tree: CommentedMap, exists: Callable[[str], bool]) -> tuple[int, int]:
    """In every ``memhooks:auto`` query drop ``kind: file`` resources whose name
    ``exists(name)`` rejects, then drop auto queries left without resources.

    Other queries and non-file resources are never touched.
    Returns ``(resources_removed, queries_removed)``.
    """
    queries = queries_of(tree)
    resources_removed = 0
    empty = []
    for index, query in enumerate(queries):
        if not is_auto(query):
            continue
        listed = query.get("resources")
        if isinstance(listed, CommentedSeq):
            for r in reversed(range(len(listed))):
                name = file_name(listed[r])
                if name is not None and not exists(name):
                    nodes.delete_item(query, "resources", r)
                    resources_removed += 1
        if not query.get("resources"):
            empty.append(index)
    for index in reversed(empty):
        nodes.delete_item(tree, "recall_queries", index)
    return resources_removed, len(empty)


def upsert_auto_cue(
    tree: CommentedMap, directory_rel: str, files: Iterable[str], *, max_paths: int
) -> bool:
    """Add root-relative ``files`` to the generated cue of ``directory_rel`` (creating it).

    The cue is found by the ``memhooks:auto`` tag plus the scoped or legacy unscoped text
    (a legacy cue is rewritten to the scoped text). Existing file resources come first,
    new ones are appended (de-duplicated by name) and only the last ``max_paths`` file
    resources are kept; other resources and metadata on the cue stay. With no ``files``
    and no cue, nothing happens. Returns True when the tree changed.
    Raises UsageError if ``max_paths`` < 1.
    """
    if max_paths < 1:
        raise UsageError("max_paths must be at least 1")
    scoped = auto_cue_text(directory_rel)
    files = list(dict.fromkeys(files))
    cue = find_cue(tree, directory_rel)
    if cue is None:
        if not files:
            return False
        cue = CommentedMap(query=scoped)
        cue["resources"] = CommentedSeq(_file_resource(f) for f in files[-max_paths:])
        cue["tags"] = nodes.flow([AUTO_TAG])
        append_query(tree, cue)
        return True
    changed = normalize(query_text(cue)) != normalize(scoped)
    if changed:
        cue["query"] = scoped  # keeps the old scalar's quoting style
    listed = cue.get("resources")
    if listed is None:
        if files:
            fresh = CommentedSeq(_file_resource(f) for f in files[-max_paths:])
            nodes.set_key(cue, "resources", fresh, QUERY_ORDER)
        return changed or bool(files)
    if not isinstance(listed, CommentedSeq):
        raise malformed("recall_queries[].resources", "a list")
    known = {file_name(r) for r in listed}
    for name in files:
        if name not in known:
            nodes.append(listed, _file_resource(name))
            changed = True
    file_positions = [i for i, r in enumerate(listed) if file_name(r) is not None]
    for index in reversed(file_positions[: max(0, len(file_positions) - max_paths)]):
        nodes.delete_item(cue, "resources", index)
        changed = True
    return changed


def apply_cues(
    tree: CommentedMap,
    cues: Iterable[tuple[str, list[str]]],
    exists: Callable[[str], bool],
    max_paths: int,
) -> bool:
    """What an event does to one hook: prune stale generated file resources (and the
    queries left empty), then upsert each ``(directory, files)`` cue that has files, with
    at most ``max_paths`` file resources per cue. True when the
    tree changed. :func:`.generated.unchanged` predicts False without YAML."""
    from .tidy import drop_emptied_queries

    removed, dropped = prune_auto(tree, exists)
    if dropped:
        drop_emptied_queries(tree)
    changed = bool(removed or dropped)
    for dir_rel, files in cues:
        if files:
            changed = upsert_auto_cue(tree, dir_rel, files, max_paths=max_paths) or changed
    return changed


def find_cue(tree: CommentedMap, directory_rel: str) -> CommentedMap | None:
    """The generated cue of ``directory_rel``: the scoped one, else a legacy unscoped one
    (preferring the scoped cue means a half-migrated hook gains no duplicate)."""
    autos = [q for q in queries_of(tree) if is_auto(q)]
    found: CommentedMap | None = find_auto(autos, directory_rel)
    return found


def _file_resource(name: str) -> CommentedMap:
    return CommentedMap([("name", name), ("kind", "file")])
