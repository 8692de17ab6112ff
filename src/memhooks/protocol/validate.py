"""Validate one hook's frontmatter against the memhooks/v2 core rules.

Implements the field rules and diagnostic catalogue of ``shared/spec/reference-engine.md``
(b) and (j), with exact positions for every finding (list items included; the reference
reports mapping-form items at 1:1) and one text normalization everywhere
(:func:`memhooks.protocol.text.normalize`).

Works on the ruamel round-trip tree so every diagnostic carries the file line and column
of the key or item it is about, plus the key path (``recall_queries[0].priority``).

Over 300 lines on purpose: one :class:`Checker` walks the field table in the spec's order,
a method per field group, all reporting through the same position bookkeeping; split
across modules the rules would no longer read in the order the spec gives them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..errors import Diagnostic
from .text import hidden_character, normalize

TYPE_CHECKING = False  # typing costs ~2 ms to import (validate --all imports this module)
if TYPE_CHECKING:
    from typing import Any

SCHEMA = "memhooks/v2"
CORE_FIELDS = (
    "schema", "inherits", "scope", "sensitivity", "recall_queries",
    "entities", "resources", "tags", "exclude", "backends",
)  # fmt: skip
#: memhooks/v1 provider vocabulary that must live under ``backends.hindsight`` in v2.
V1_PROVIDER_KEYS = ("bank", "memory_types", "connection_types", "mental_models", "knowledge_pages")
QUERY_FIELDS = ("query", "priority", "when", "entities", "resources", "tags", "backends")
ENTITY = {"kind_key": "type", "blank": "MH008", "salience": "MH009", "malformed": "MH026",
          "unknown": "MH014", "duplicate": "MH011", "noun": "entity"}  # fmt: skip
RESOURCE = {"kind_key": "kind", "blank": "MH020", "salience": "MH021", "malformed": "MH027",
            "unknown": "MH022", "duplicate": "MH015", "noun": "resource"}  # fmt: skip


TYPE_HELP = "give the field the type the file reference documents (docs/format.md)"


def is_number(value: Any) -> bool:
    """True for int/float values that are not booleans."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and type(value).__name__ != "ScalarBoolean"
    )


def in_unit_range(value: Any) -> bool:
    """True for a finite number from 0.0 to 1.0 inclusive (priority, salience)."""
    return is_number(value) and math.isfinite(value) and 0.0 <= value <= 1.0


class Checker:
    """Collects diagnostics for one hook; ``offset`` maps YAML lines to file lines."""

    def __init__(self, path: str, offset: int) -> None:
        self.path = path
        self.offset = offset
        self.diagnostics: list[Diagnostic] = []

    def add(
        self,
        code: str,
        message: str,
        container: Any,
        key: Any,
        key_path: str,
        *,
        value: bool = False,
        help: str | None = None,
    ) -> None:
        from .yamlcore import position, value_position

        pos = (
            (value_position if value else position)(container, key)
            if container is not None
            else None
        )
        line, column = (pos[0] + self.offset + 1, pos[1] + 1) if pos else (None, None)
        # MH000 covers whole-file problems too; a field of the wrong type gets its own help.
        if help is None and code == "MH000":
            help = TYPE_HELP
        self.diagnostics.append(
            Diagnostic(code, message, self.path, line, column, key=key_path, help=help)
        )

    def unknown(
        self, code: str, message: str, container: Any, key: Any, key_path: str, level: str
    ) -> None:
        """An unknown-field warning, with "did you mean" when a real field is near
        (:func:`memhooks.protocol.suggest.did_you_mean`)."""
        from .suggest import did_you_mean

        near = did_you_mean(key, level)
        if near is None:
            self.add(code, message, container, key, key_path)
        else:
            self.add(
                code, f"{message}; did you mean {near[0]}?", container, key, key_path, help=near[1]
            )

    # -- top level -------------------------------------------------------------------

    def check(self, tree: Any) -> None:
        if tree is None or "schema" not in tree:
            self.diagnostics.append(
                Diagnostic(
                    "MH001", f"missing required `schema: {SCHEMA}`", self.path, 1, 1, key="schema"
                )
            )
        elif tree["schema"] != SCHEMA:
            self.add(
                "MH001",
                f"unsupported schema `{tree['schema']}`; expected `{SCHEMA}`",
                tree,
                "schema",
                "schema",
                value=True,
            )
        if tree is None:
            return
        if "inherits" in tree and not isinstance(tree["inherits"], bool):
            self.add(
                "MH000",
                "`inherits` must be `true` or `false`",
                tree,
                "inherits",
                "inherits",
                value=True,
            )
        for field in ("scope", "sensitivity"):
            if tree.get(field) is not None and not isinstance(tree[field], str):
                self.add("MH000", f"`{field}` must be a string", tree, field, field, value=True)
        queries = self.sequence(tree, "recall_queries")
        for index, item in enumerate(queries):
            self.query(queries, index, item, f"recall_queries[{index}]")
        for field, spec in (("entities", ENTITY), ("resources", RESOURCE)):
            self.cues(tree, field, spec, top_level=True, key_path=field)
        for field in ("tags", "exclude"):
            items = self.sequence(tree, field)
            for index, item in enumerate(items):
                if not isinstance(item, str):
                    self.add(
                        "MH000",
                        f"`{field}` entries must be strings",
                        items,
                        index,
                        f"{field}[{index}]",
                    )
                elif field == "exclude":
                    self.hidden(item, "an exclusion", items, index, f"{field}[{index}]")
        if "backends" in tree:
            self.backends(tree, "backends", "backends", malformed="MH000")
        for key in tree:
            if key in CORE_FIELDS:
                continue
            if key in V1_PROVIDER_KEYS:
                self.add(
                    "MH016",
                    f"provider-specific field `{key}` is not part of the {SCHEMA} core",
                    tree,
                    key,
                    str(key),
                )
            else:
                self.unknown(
                    "MH002", f"unknown top-level field `{key}`", tree, key, str(key), "top"
                )
        self.duplicate_queries(tree, queries)

    def sequence(self, tree: Any, field: str) -> list[Any]:
        value = tree.get(field)
        if value is None:
            return []
        if not isinstance(value, list):
            self.add("MH000", f"`{field}` must be a list", tree, field, field, value=True)
            return []
        return value

    def hidden(
        self, text: str, what: str, container: Any, key: Any, key_path: str, value: bool = False
    ) -> None:
        """MH033 for the first character of ``text`` a reader cannot see
        (:data:`memhooks.protocol.text.HIDDEN`): it would reach the model and the search
        unseen, and an exclusion written without it would not match."""
        found = hidden_character(text)
        if found is None:
            return
        import unicodedata

        index, char = found
        name = unicodedata.name(char, "a control character")
        self.add(
            "MH033",
            f"{what} holds an invisible or control character, U+{ord(char):04X} ({name}), "
            f"at character {index + 1}",
            container,
            key,
            key_path,
            value=value,
        )

    # -- recall queries ------------------------------------------------------------------

    def query(self, items: Any, index: int, item: Any, key_path: str) -> None:
        if isinstance(item, str):
            if not item.strip():
                self.add("MH003", "recall query text must not be blank", items, index, key_path)
            self.hidden(item, "recall query text", items, index, key_path)
            return
        if not isinstance(item, dict):
            self.add("MH003", "recall query text must not be blank", items, index, key_path)
            self.add(
                "MH025", "recall query entries must be strings or mappings", items, index, key_path
            )
            return
        text = item.get("query")
        if "query" in item and not isinstance(text, str) and text is not None:
            self.add(
                "MH025",
                "recall-query field `query` has an invalid value/type",
                item,
                "query",
                f"{key_path}.query",
                value=True,
            )
        elif not isinstance(text, str) or not text.strip():
            where, key = (item, "query") if "query" in item else (items, index)
            self.add(
                "MH003", "recall query text must not be blank", where, key, f"{key_path}.query"
            )
        else:
            self.hidden(text, "recall query text", item, "query", f"{key_path}.query", value=True)
        if item.get("priority") is not None:  # null is "no priority", as for every optional field
            priority = item["priority"]
            if not is_number(priority):
                self.add(
                    "MH025",
                    "recall-query field `priority` has an invalid value/type",
                    item,
                    "priority",
                    f"{key_path}.priority",
                    value=True,
                )
            elif not in_unit_range(priority):
                self.add(
                    "MH004",
                    f"query priority must be a number from 0.0 to 1.0 (found {priority})",
                    item,
                    "priority",
                    f"{key_path}.priority",
                    value=True,
                )
        if "when" in item:
            self.when(item, f"{key_path}.when")
        for field, spec in (("entities", ENTITY), ("resources", RESOURCE)):
            if field in item and not isinstance(item[field], list) and item[field] is not None:
                self.add(
                    "MH025",
                    f"recall-query field `{field}` has an invalid value/type",
                    item,
                    field,
                    f"{key_path}.{field}",
                    value=True,
                )
            else:
                self.cues(item, field, spec, top_level=False, key_path=f"{key_path}.{field}")
        if "tags" in item:
            tags = item["tags"]
            if tags is not None and (
                not isinstance(tags, list) or not all(isinstance(t, str) for t in tags)
            ):
                self.add(
                    "MH025",
                    "recall-query field `tags` has an invalid value/type",
                    item,
                    "tags",
                    f"{key_path}.tags",
                    value=True,
                )
        if "backends" in item:
            self.backends(item, "backends", f"{key_path}.backends", malformed="MH025")
        for key in item:
            if key in QUERY_FIELDS:
                continue
            if key in V1_PROVIDER_KEYS:
                self.add(
                    "MH017",
                    f"provider-specific query field `{key}` is not part of the {SCHEMA} core",
                    item,
                    key,
                    f"{key_path}.{key}",
                )
            else:
                self.unknown(
                    "MH005",
                    f"unknown recall-query field `{key}`",
                    item,
                    key,
                    f"{key_path}.{key}",
                    "query",
                )
                self.json_safe_field(item, key, f"{key_path}.{key}")

    def when(self, item: Any, key_path: str) -> None:
        when = item["when"]
        if when is None:
            return
        if not isinstance(when, dict):
            self.add(
                "MH025",
                "recall-query field `when` has an invalid value/type",
                item,
                "when",
                key_path,
                value=True,
            )
            return
        roles = when.get("roles")
        if roles is not None:
            if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
                self.add(
                    "MH025",
                    "recall-query field `when` has an invalid value/type",
                    when,
                    "roles",
                    f"{key_path}.roles",
                    value=True,
                )
            else:
                for index, role in enumerate(roles):
                    if not role.strip():
                        self.add(
                            "MH006",
                            "roles in `when.roles` must not be blank",
                            roles,
                            index,
                            f"{key_path}.roles[{index}]",
                        )
        for key in when:
            if key != "roles":
                self.unknown(
                    "MH007",
                    f"unknown routing condition `when.{key}` is ignored",
                    when,
                    key,
                    f"{key_path}.{key}",
                    "when",
                )
                self.json_safe_field(when, key, f"{key_path}.{key}")

    def duplicate_queries(self, tree: Any, queries: list[Any]) -> None:
        seen: set[str] = set()
        exclude = tree.get("exclude")
        # a non-list `exclude` is already an MH000; it must not crash the duplicate check
        excluded = (
            {normalize(e) for e in exclude if isinstance(e, str)}
            if isinstance(exclude, list)
            else set()
        )
        for index, item in enumerate(queries):
            text = (
                item
                if isinstance(item, str)
                else item.get("query")
                if isinstance(item, dict)
                else None
            )
            if not isinstance(text, str) or not text.strip():
                continue
            ident = normalize(text)
            if ident in seen:
                self.add(
                    "MH010",
                    f"duplicate recall query `{ident}`; the later copy overrides the earlier one",
                    queries,
                    index,
                    f"recall_queries[{index}]",
                )
            seen.add(ident)
            if ident in excluded:
                self.add(
                    "MH012",
                    f"recall query `{ident}` is also listed in `exclude`",
                    queries,
                    index,
                    f"recall_queries[{index}]",
                )

    # -- entities and resources ------------------------------------------------------------

    def cues(
        self, parent: Any, field: str, spec: dict[str, str], *, top_level: bool, key_path: str
    ) -> None:
        items = self.sequence(parent, field) if top_level else (parent.get(field) or [])
        noun, kind_key = spec["noun"], spec["kind_key"]
        seen: set[str] = set()
        for index, item in enumerate(items):
            path = f"{key_path}[{index}]"
            name: Any
            if isinstance(item, str):
                name = item
            elif isinstance(item, dict):
                name = item.get("name")
                if "name" in item and not isinstance(name, str) and name is not None:
                    self.add(
                        spec["malformed"],
                        f"{noun} field `name` has an invalid value/type",
                        item,
                        "name",
                        f"{path}.name",
                        value=True,
                    )
                    name = None
                if item.get(kind_key) is not None and not isinstance(item[kind_key], str):
                    self.add(
                        spec["malformed"],
                        f"{noun} field `{kind_key}` has an invalid value/type",
                        item,
                        kind_key,
                        f"{path}.{kind_key}",
                        value=True,
                    )
                if item.get("salience") is not None:
                    salience = item["salience"]
                    if not is_number(salience):
                        self.add(
                            spec["malformed"],
                            f"{noun} field `salience` has an invalid value/type",
                            item,
                            "salience",
                            f"{path}.salience",
                            value=True,
                        )
                    elif not in_unit_range(salience):
                        self.add(
                            spec["salience"],
                            f"{noun} salience must be a number from 0.0 to 1.0 (found {salience})",
                            item,
                            "salience",
                            f"{path}.salience",
                            value=True,
                        )
                for key in item:
                    if key not in ("name", kind_key, "salience"):
                        self.unknown(
                            spec["unknown"],
                            f"unknown {noun} field `{key}`",
                            item,
                            key,
                            f"{path}.{key}",
                            noun,
                        )
                        self.json_safe_field(item, key, f"{path}.{key}")
            else:
                self.add(
                    spec["malformed"],
                    f"{noun} entries must be strings or mappings",
                    items,
                    index,
                    path,
                )
                name = None
            if not isinstance(name, str) or not name.strip():
                self.add(spec["blank"], f"{noun} name must not be blank", items, index, path)
                continue
            ident = normalize(name)
            if top_level and ident in seen:
                self.add(spec["duplicate"], f"duplicate {noun} `{ident}`", items, index, path)
            seen.add(ident)

    # -- provider namespaces ---------------------------------------------------------------

    def backends(self, parent: Any, field: str, key_path: str, *, malformed: str) -> None:
        backends = parent[field]
        if backends is None:
            return
        if not isinstance(backends, dict):
            message = f"`{field}` must be a mapping of provider namespaces"
            if malformed == "MH025":
                message = "recall-query field `backends` has an invalid value/type"
            self.add(malformed, message, parent, field, key_path, value=True)
            return
        for provider, namespace in backends.items():
            if not isinstance(provider, str) or not provider.strip():
                self.add(
                    "MH018",
                    "backend provider names must not be blank",
                    backends,
                    provider,
                    f"{key_path}.{provider}",
                )
            elif not isinstance(namespace, dict):
                self.add(
                    "MH019",
                    f"backend namespace `{provider}` must be a mapping",
                    backends,
                    provider,
                    f"{key_path}.{provider}",
                )
            else:
                self.json_safe(namespace, f"{key_path}.{provider}")

    def json_safe_field(self, container: Any, key: Any, key_path: str) -> None:
        """Unknown query/condition/cue fields are kept and handed over in the plan, so
        they need a JSON form as much as provider data does."""
        value = container[key]
        if isinstance(value, float) and not math.isfinite(value):
            self.add(
                "MH000",
                f"routing metadata cannot be represented as JSON: `{key_path}` is {value}",
                container,
                key,
                key_path,
                value=True,
            )
        else:
            self.json_safe(value, key_path)

    def json_safe(self, node: Any, key_path: str) -> None:
        """Provider data is opaque but must be representable as JSON (the plan is JSON)."""
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for key, value in items:
            path = f"{key_path}.{key}" if isinstance(node, dict) else f"{key_path}[{key}]"
            if isinstance(node, dict) and isinstance(key, (list, tuple, Mapping)):
                self.add(
                    "MH000",
                    "routing metadata cannot be represented as JSON: a mapping key is a sequence or mapping",
                    node,
                    key,
                    key_path,
                )
                continue
            if isinstance(value, float) and not math.isfinite(value):
                self.add(
                    "MH000",
                    f"routing metadata cannot be represented as JSON: `{path}` is {value}",
                    node,
                    key,
                    path,
                    value=isinstance(node, dict),
                )
            self.json_safe(value, path)


def check_tree(tree: Any, path: str, first_line: int) -> list[Diagnostic]:
    """Diagnostics for a loaded frontmatter tree (``None`` = empty frontmatter).

    A non-mapping document is MH000. Diagnostics come sorted by line and column.
    """
    checker = Checker(path, first_line - 1)
    if tree is not None and not isinstance(tree, dict):
        return [
            Diagnostic("MH000", "YAML frontmatter must be a mapping of fields", path, first_line, 1)
        ]
    checker.check(tree)
    return sorted(checker.diagnostics, key=Diagnostic.sort_key)
