"""YAML 1.2 core-schema loading with positions, for hook frontmatter.

ruamel.yaml's round-trip loader keeps comments and node positions (needed for diagnostics
and for edits that preserve what people wrote), but by default it resolves YAML 1.1 extras
(timestamps, ``1_000``, merge keys ``<<``). Here it is given the exact YAML 1.2 core schema
(https://yaml.org/spec/1.2.2/#1032-tag-resolution): ``null``/``~``/empty, ``true``/``false``
in three spellings, decimal/``0o``/``0x`` ints, floats with ``.inf``/``.nan``. Everything else
(``no``, ``on``, ``017``-style timestamps such as ``2024-01-01``, ``12:30``) stays a string.

Refused with a diagnostic instead of expanded or guessed at:

* aliases (``*name``) — no alias expansion means no "billion laughs";
* explicit tags other than ``!!str`` (the reference silently ignores custom tags);
* duplicate keys — the message names both lines.

This is the round-trip reader maintenance edits need; reading a hook only to validate or
resolve it goes through :mod:`.yamlfast` (libyaml) first, which hands anything unusual
(an error, alias, tag, anchor, duplicate key) back here so every diagnostic comes from one
place. Importing this module imports ruamel.yaml (~20 ms); callers on hot paths import it
lazily.
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.composer import Composer
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent, ScalarEvent
from ruamel.yaml.nodes import ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver

from ..errors import fail
from .yamlcore import (  # noqa: F401  (position, to_plain ... are this module's API too)
    CORE,
    STR,
    NotJson,
    key_idents,
    position,
    scalar_value,
    to_plain,
    value_position,
)

_STR_TAG = STR
_MAX_DEPTH = 64

_CORE = CORE  # (first character -> [(tag, pattern)]) in the shape ruamel resolves by


class _CoreResolver(VersionedResolver):
    """Implicit tag resolution by the YAML 1.2 core schema, nothing more."""

    @property
    def processing_version(self) -> tuple[int, int]:
        return (1, 2)

    @property
    def versioned_resolver(self) -> dict[str | None, list[tuple[str, re.Pattern[str]]]]:
        return _CORE


class YamlProblem(Exception):
    """Raised inside the composer; carries a message and a 0-based mark."""

    def __init__(self, message: str, line: int, column: int, first_line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.first_line = first_line  # for duplicates: 0-based line of the first occurrence


class _SafeComposer(Composer):
    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        # aliases are refused, so a reused anchor name is harmless; ruamel would print a
        # ReusedAnchorWarning to stderr (an exception under -W error) from library code
        self.warn_double_anchors = False

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent):
            raise YamlProblem(
                f"YAML aliases are not supported (`*{event.anchor}`); write the value out",
                event.start_mark.line,
                event.start_mark.column,
            )
        tag = getattr(event, "tag", None)
        if tag is not None:
            tag = str(getattr(tag, "value", tag))
            if tag != _STR_TAG or not isinstance(event, ScalarEvent):
                raise YamlProblem(
                    f"YAML tags are not supported (`{tag}`); remove the tag",
                    event.start_mark.line,
                    event.start_mark.column,
                )
        node = super().compose_node(parent, index)
        if tag is not None:
            # `!!str 12` is the string "12": drop the tag handle, or the round-trip
            # constructor wraps the value in a TaggedScalar that no field check accepts
            node.tag = _STR_TAG
        return node

    def compose_mapping_node(self, anchor: Any) -> Any:
        node = super().compose_mapping_node(anchor)
        seen: dict[Any, Any] = {}
        for key_node, _value in node.value:
            if not isinstance(key_node.value, str):
                if _nested(key_node):
                    # ruamel cannot even build such a key (TypeError: unhashable type)
                    raise YamlProblem(
                        "a mapping key that holds a sequence or mapping cannot be represented as JSON",
                        key_node.start_mark.line,
                        key_node.start_mark.column,
                    )
                continue
            # Keys are the same when their values are: `1`/`01`/`0o1` (one YAML 1.2 int),
            # `1`/`true` (one Python dict key), `1`/`"1"` (one JSON key). Comparing the
            # spelling alone let the constructor drop one of them silently.
            idents = key_idents(_scalar_key(key_node))
            first = next((seen[i] for i in idents if i in seen), None)
            if first is not None:
                raise YamlProblem(
                    f"duplicate key `{key_node.value}`",
                    key_node.start_mark.line,
                    key_node.start_mark.column,
                    first.line,
                )
            for ident in idents:
                seen[ident] = key_node.start_mark
        return node


def _nested(node: Any) -> bool:
    """True for a sequence or mapping node that holds another sequence or mapping."""
    items = (
        node.value
        if isinstance(node, SequenceNode)
        else [part for pair in node.value for part in pair]
    )
    return any(not isinstance(item, ScalarNode) for item in items)


def _scalar_key(node: Any) -> Any:
    """The value a scalar mapping key constructs to under the core schema."""
    return scalar_value(str(node.tag), node.value)


def new_yaml() -> YAML:
    """A round-trip ``YAML`` instance with the core-schema resolver and safe composer.

    Used for loading and, by maintenance, for dumping edited frontmatter.
    """
    yaml = YAML(typ="rt")
    yaml.Resolver = _CoreResolver
    yaml.Composer = _SafeComposer
    yaml.allow_duplicate_keys = True  # the composer reports duplicates itself, with both lines
    yaml.preserve_quotes = True
    yaml.max_depth = _MAX_DEPTH
    yaml.width = 4096
    return yaml


YAML_HELP = "fix the YAML at this position (YAML 1.2; no aliases, no tags, no duplicate keys)"


def load(text: str, path: str, first_line: int) -> Any:
    """Parse frontmatter text (LF endings) into ruamel round-trip objects.

    ``first_line`` is the 1-based file line of the first YAML line; diagnostics are
    shifted by it. Returns ``None`` for an empty/comment-only document.
    Raises DiagnosticError MH000 for syntax errors, aliases, tags, duplicate keys,
    nesting deeper than 64 levels or several YAML documents.
    """
    offset = first_line - 1
    help = YAML_HELP
    try:
        return new_yaml().load(text)
    except YamlProblem as exc:
        message = exc.message
        if exc.first_line is not None:
            message += f" on line {exc.line + offset + 1}, first defined on line {exc.first_line + offset + 1}"
        raise fail(
            "MH000",
            f"invalid YAML frontmatter: {message}",
            path,
            exc.line + offset + 1,
            exc.column + 1,
            help=help,
        ) from None
    except MarkedYAMLError as exc:
        mark, problem = _where(exc, len(text))
        if "maximum depth" in problem:
            problem = f"nesting deeper than {_MAX_DEPTH} levels"
        elif "another document" in problem:
            problem = "a second YAML document in the frontmatter (only one is allowed)"
        line = mark.line + offset + 1 if mark else first_line
        column = mark.column + 1 if mark else 1
        raise fail(
            "MH000", f"invalid YAML frontmatter: {problem}", path, line, column, help=help
        ) from None
    except (YAMLError, RecursionError, ValueError) as exc:
        raise fail(
            "MH000", f"invalid YAML frontmatter: {exc}", path, first_line, 1, help=help
        ) from None


def _where(exc: MarkedYAMLError, size: int) -> tuple[Any, str]:
    """(0-based mark, problem text) of a syntax error: where the broken construct starts
    (the error's ``context_mark``: the opening quote, bracket or key) when the problem
    was only found at the end of the text, or on a later line than the construct starts
    on by the scanner or inside a flow collection (an unclosed ``[``/``{``) — the
    problem's own place (``problem_mark``) is then the closing ``---`` or a later key;
    else the problem's place. The problem text is
    kept, with the construct named (``while scanning a quoted scalar`` → ``a quoted
    scalar``)."""
    problem = exc.problem or exc.context or "syntax error"
    start, found, context = exc.context_mark, exc.problem_mark, exc.context or ""
    if start is None or found is None or start.index >= found.index:
        return found or start, problem
    at_end = found.index >= size or "end of stream" in problem or "<stream end>" in problem
    # An unclosed [ or { is only noticed at the next key, lines later: the bracket is the
    # mistake's place (a comma missing inside one is a few lines from it at most).
    spans = context.startswith(("while scanning", "while parsing a flow"))
    if not at_end and not (spans and found.line > start.line):
        return found, problem
    what = context.split(" ", 2)[-1] if context.startswith("while ") else context
    return start, f"{problem} ({what} that starts here{' is not closed' if at_end else ''})"
