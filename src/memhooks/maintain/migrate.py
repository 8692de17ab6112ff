"""``memhooks migrate``: convert ``memhooks/v1`` hooks to ``memhooks/v2`` in place.

What changes (``shared/spec/reference-engine.md`` (k), (l) item 16), nothing else:

* ``schema: memhooks/v1`` becomes ``memhooks/v2`` (quoting and comment kept);
* the v1 provider fields (``bank``, ``memory_types``, ``connection_types``,
  ``mental_models``, ``knowledge_pages``) move under ``backends.hindsight`` — at the top
  level, and on each structured query under that query's ``backends.hindsight``; empty
  values (``[]``, ``{}``, null) carry no routing and are dropped; a value already
  present under ``backends.hindsight`` with different content is a conflict (MH016 /
  MH017) and the file is left alone;
* the legacy maintainer's body blocks (:mod:`.legacy`): anchors become the generated
  cue of the hook's directory (``memhooks:auto``, file resources, capped by
  ``MEMHOOKS_AUTO_PATHS``), notes become recall queries (bullets as plain strings, JSON
  notes in mapping form with their v1 fields under ``backends.hindsight``); a block that
  cannot be read exactly stays in the body as guidance and is reported.

Only files whose ``schema`` is exactly ``memhooks/v1`` are converted; ``memhooks/v2``
files are left alone; anything else is refused (MH001). Apart from the v1 vocabulary
(MH001/MH016/MH017) the file must already be valid, and the result must validate, or
nothing is written. Writes go through :func:`memhooks.maintain.update.update`
(lock, round-trip render, atomic replace).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import ScalarString

from ..errors import DiagnosticError, fail
from ..protocol.hookfile import ParsedHook
from ..protocol.validate import SCHEMA, V1_PROVIDER_KEYS
from ..protocol.yamlcore import to_plain
from . import legacy, nodes
from .cues import upsert_auto_cue
from .edit import QUERY_ORDER, TOP_ORDER, append_query, queries_of, query_text, upsert_query
from .tidy import pop_key
from .update import Change, update

V1 = "memhooks/v1"
_V1_CODES = ("MH001", "MH016", "MH017")


class Migration:
    """The outcome for one hook: ``path``, ``status`` (``"migrated"`` or
    ``"already_v2"``), ``changes`` (what was converted, human phrases), ``kept`` (legacy
    blocks left as guidance, with the reason) and the :class:`Change` (texts for diffs)."""

    __slots__ = ("change", "changes", "kept", "path", "status")

    def __init__(self, path: str) -> None:
        self.path = path
        self.status = "already_v2"
        self.changes: list[str] = []
        self.kept: list[str] = []
        self.change: Change | None = None


def migrate_hook(
    path: str, directory_rel: str, *, max_paths: int, dry_run: bool = False
) -> Migration:
    """Migrate one hook; ``directory_rel`` is its directory as its generated cue names
    it (root-relative, ``.`` for the root). Raises DiagnosticError when the file cannot
    be migrated (nothing is written)."""
    result = Migration(path)

    def check(parsed: ParsedHook) -> None:
        tree = parsed.tree
        if not isinstance(tree, Mapping):
            parsed.require_valid()  # unparsable or empty: its own diagnostics
            raise fail("MH000", "YAML frontmatter must be a mapping of fields", path, 2, 1)
        schema = tree.get("schema")
        if schema == SCHEMA:
            return
        if schema != V1:
            shown = f"`{schema}`" if schema is not None else "missing"
            at = next((d for d in parsed.diagnostics if d.code == "MH001"), None)
            raise fail(
                "MH001",
                f"cannot migrate: schema is {shown}, not `{V1}`",
                path,
                at.line if at else 1,
                at.column if at else 1,
                help=f"only `{V1}` files are converted; set `schema` by hand",
            )
        errors = [d for d in parsed.diagnostics if d.is_error and d.code not in _V1_CODES]
        if errors:
            raise DiagnosticError(errors)
        result.status = "migrated"

    def edit(parsed: ParsedHook) -> bool:
        if result.status != "migrated":
            return False
        convert(parsed, directory_rel, max_paths, result)
        return True

    result.change = update(path, edit, dry_run=dry_run, check=check)
    return result


def convert(parsed: ParsedHook, directory_rel: str, max_paths: int, result: Migration) -> None:
    """Edit a v1 hook in place (tree and body); record what happened on ``result``."""
    tree = parsed.tree
    old = tree["schema"]
    tree["schema"] = type(old)(SCHEMA) if isinstance(old, ScalarString) else SCHEMA
    result.changes.append(f"schema {SCHEMA}")
    moved = _move_provider_fields(tree, "", result.path)
    if moved:
        result.changes.append(f"{', '.join(moved)} -> backends.hindsight")
    for index, query in enumerate(queries_of(tree)):
        if isinstance(query, CommentedMap):
            moved = _move_provider_fields(query, f"recall_queries[{index}].", result.path)
            if moved:
                result.changes.append(
                    f"recall_queries[{index}]: {', '.join(moved)} -> backends.hindsight"
                )
    body = parsed.document.body
    converted = []
    for block in legacy.find_blocks(body):
        if block.problem is not None:
            result.kept.append(f"legacy {block.kind} block kept as guidance: {block.problem}")
            continue
        if block.kind == "auto":
            upsert_auto_cue(tree, directory_rel, block.items, max_paths=max_paths)
            result.changes.append(f"{len(block.items)} legacy anchor(s) -> generated cue")
        else:
            for note in block.items:
                _add_note(tree, note, result.path)
            result.changes.append(f"{len(block.items)} legacy note(s) -> recall_queries")
        converted.append(block)
    for block in reversed(converted):
        body = legacy.cut(body, block)
    parsed.document.body = body


def _move_provider_fields(mapping: CommentedMap, where: str, path: str) -> list[str]:
    """Move the v1 provider keys of ``mapping`` under its ``backends.hindsight``;
    returns the keys moved (empty values are dropped, and count as moved)."""
    keys = [k for k in mapping if k in V1_PROVIDER_KEYS]
    if not keys:
        return []
    backends = mapping.get("backends")
    hindsight = backends.get("hindsight") if isinstance(backends, CommentedMap) else None
    for name, value in (("backends", backends), ("backends.hindsight", hindsight)):
        if value is not None and not isinstance(value, CommentedMap):
            raise fail("MH019", f"cannot migrate: `{where}{name}` is not a mapping", path)
    moving = CommentedMap()
    for key in keys:
        value = mapping[key]
        eol = pop_key(mapping, key)
        if value is None or (isinstance(value, (list, dict, str)) and not value):
            continue
        if hindsight is not None and key in hindsight:
            if to_plain(hindsight[key]) != to_plain(value):
                raise fail(
                    "MH017" if where else "MH016",
                    f"cannot migrate `{where}{key}`: `{where}backends.hindsight.{key}` is already set to something else",
                    path,
                    help="keep one of the two values, then run `memhooks migrate` again",
                )
            continue
        moving[key] = value
        if eol is not None and not isinstance(value, (CommentedMap, CommentedSeq)):
            moving.ca.items[key] = [None, None, eol, None]
    # New mappings are attached only once filled, so comment lines that move onto
    # them land after all of their content (see memhooks.maintain.nodes.set_key).
    if moving and hindsight is not None:
        for key in moving:
            nodes.set_key(hindsight, key, moving[key], ())
            if key in moving.ca.items:
                hindsight.ca.items[key] = moving.ca.items[key]
    elif moving and backends is not None:
        nodes.set_key(backends, "hindsight", moving, ())
    elif moving:
        order = QUERY_ORDER if where else TOP_ORDER
        nodes.set_key(mapping, "backends", CommentedMap(hindsight=moving), order)
    return keys


def _add_note(tree: CommentedMap, note: Any, path: str) -> None:
    """One legacy note as a recall query (a bullet stays a plain string)."""
    if isinstance(note, str):
        text = " ".join(note.split())
        if text and not any(" ".join(query_text(q).split()) == text for q in queries_of(tree)):
            append_query(tree, text)
        return
    text = note.get("query")
    if not isinstance(text, str) or not text.strip():
        raise fail("MH003", "cannot migrate a legacy note without `query` text", path)
    when = note.get("when") if isinstance(note.get("when"), dict) else {}
    hindsight = {k: note[k] for k in V1_PROVIDER_KEYS if note.get(k) not in (None, [], {}, "")}
    backends = dict(note.get("backends") or {})
    if hindsight:
        backends["hindsight"] = {**dict(backends.get("hindsight") or {}), **hindsight}
    upsert_query(
        tree,
        text,
        priority=note.get("priority"),
        roles=list(when.get("roles") or []),
        entities=list(note.get("entities") or []),
        resources=list(note.get("resources") or []),
        tags=list(note.get("tags") or []),
        backends=backends or None,
    )
