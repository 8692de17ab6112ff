"""What a generated cue is, and whether an event would change a hook's generated cues,
decided on the hook's plain data — without YAML.

A generated cue (``shared/spec/reference-engine.md`` (f) item 6) is a mapping-form query
tagged :data:`AUTO_TAG` whose text is :data:`AUTO_CUE` plus `` [scope: <dir>]``, with
``{name: <root-relative file path>, kind: file}`` resources. :mod:`.cues` edits them in
the round-trip tree; this module only reads, so the agent hook can tell "nothing to
change" from the parsed-hook cache's JSON (issue 14: a PostToolUse Write on a file
already in its cue loaded ruamel.yaml and parsed the hook again, 6x a bare interpreter).

The functions here take plain dicts and lists and also ruamel's containers (which are
``dict`` and ``list`` subclasses).
"""

from __future__ import annotations

from ..protocol.text import normalize

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any


AUTO_TAG = "memhooks:auto"
AUTO_CUE = (
    "What prior decisions, constraints, failures, fixes, rejected approaches, "
    "and unresolved issues involve files in this directory?"
)


def auto_cue_text(directory_rel: str) -> str:
    """The generated cue's text for a root-relative directory (``"."`` for the root)."""
    return f"{AUTO_CUE} [scope: {directory_rel}]"


def is_auto(query: Any) -> bool:
    """True for a mapping-form query tagged ``memhooks:auto``."""
    tags = query.get("tags") if isinstance(query, dict) else None
    return isinstance(tags, list) and any(
        isinstance(t, str) and t.strip() == AUTO_TAG for t in tags
    )


def file_name(resource: Any) -> str | None:
    """The name of a ``{name: ..., kind: file}`` resource, else None."""
    if isinstance(resource, dict) and resource.get("kind") == "file":
        name = resource.get("name")
        return str(name) if isinstance(name, str) else None
    return None


def text_of(query: Any) -> str:
    """A query item's text: the string itself or its ``query`` ('' when there is none)."""
    if isinstance(query, str):
        return query
    if isinstance(query, dict) and isinstance(query.get("query"), str):
        return str(query["query"])
    return ""


def find_auto(autos: Iterable[Any], directory_rel: str) -> Any:
    """The generated cue of ``directory_rel`` among ``autos``: the scoped one, else a
    legacy unscoped one (so a half-migrated hook gains no duplicate); None when neither."""
    autos = list(autos)
    for text in (normalize(auto_cue_text(directory_rel)), AUTO_CUE):
        for query in autos:
            if normalize(text_of(query)) == text:
                return query
    return None


def unchanged(
    data: dict[str, Any],
    cues: Iterable[tuple[str, list[str]]],
    exists: Callable[[str], bool],
    max_paths: int,
) -> bool:
    """True when pruning the hook's generated cues and upserting ``cues`` (directory as
    the cue names it, files to add) would leave it exactly as it is: every generated
    cue keeps a resource and all its file resources exist, and each directory with files
    already has its scoped cue listing them all, within ``max_paths`` file resources.

    Answers False whenever it cannot be sure (a malformed shape, a legacy cue to rename):
    the caller then runs the real edit, which decides — and words any error.
    """
    queries = data.get("recall_queries")
    if queries is None:
        queries = []
    if not isinstance(queries, list):
        return False
    autos = [query for query in queries if is_auto(query)]
    for query in autos:
        listed = query.get("resources")
        if not listed or not isinstance(listed, list):
            return False  # the edit drops an auto cue left without resources
        for resource in listed:
            name = file_name(resource)
            if name is not None and not exists(name):
                return False
    for directory_rel, files in cues:
        if not files:
            continue
        cue = find_auto(autos, directory_rel)
        if cue is None or normalize(text_of(cue)) != normalize(auto_cue_text(directory_rel)):
            return False
        listed = cue.get("resources")
        if not isinstance(listed, list):
            return False
        names = [file_name(resource) for resource in listed]
        known = set(names)
        if any(name not in known for name in files):
            return False
        if sum(name is not None for name in names) > max_paths:
            return False
    return True
