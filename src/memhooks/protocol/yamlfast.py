"""Read-only YAML 1.2 core-schema loading through libyaml (PyYAML's C parser).

Reading a hook to validate or resolve it needs its values and the line/column of every
key and item, not its comments or quoting. ruamel.yaml's round-trip loader, which
maintenance needs for edits, costs ~1.2 ms per small hook (and ~8 ms per hook once the
validator's work is counted, ~94 % of ``validate --all``: issue 14); libyaml's event
parser costs ~20 µs for the same hook. Here its events are composed into plain
``dict``/``list`` trees that carry the start mark of every key, value and item in
ruamel's ``lc`` interface (:mod:`.yamlcore`), with scalars resolved by the same YAML 1.2
core schema.

Only the common case is handled; anything else raises :class:`Unsupported` and the caller
reads the text with :mod:`.yamlio` instead, so every diagnostic (syntax errors and their
positions, aliases, tags, duplicate keys naming both lines, depth) is still ruamel's:

* any libyaml error, or a second document;
* an alias, an anchor, or an explicit tag (``!!str`` included);
* a mapping key that is not a scalar, or a key equal to an earlier one;
* a block scalar (``|``, ``>``): libyaml accepts headers and indentation ruamel refuses
  (``|#``, a more-indented leading blank line);
* an empty node (``key:`` with no value): ruamel places it at the token after it, a
  position libyaml's events do not carry;
* nesting deeper than :data:`MAX_DEPTH`;
* characters libyaml (YAML 1.1) and ruamel read differently: a tab (ruamel refuses one
  after ``key:``), NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR (line breaks in 1.1 only), a
  BOM, or a ``%`` directive line.

:func:`available` is False when PyYAML or its C extension is missing; callers then use
:mod:`.yamlio` for everything.
"""

from __future__ import annotations

import re

from .yamlcore import key_idents, resolve, scalar_value

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any

#: Nesting handed to ruamel, which refuses more than 64 levels with its own message.
MAX_DEPTH = 60

_SUSPECT = re.compile("[\t\x85\u2028\u2029\ufeff]|^%", re.MULTILINE)
_NO_KEY = object()
_BLOCK_STYLES = ("|", ">")


class Unsupported(Exception):
    """The text needs the round-trip reader (:mod:`.yamlio`); the message says why."""


class Marks:
    """Start marks of one mapping's keys and values, or one sequence's items, as
    0-based ``(line, column)`` pairs; the ``lc`` interface of ruamel's containers."""

    __slots__ = ("items", "keys", "values")

    def __init__(self) -> None:
        self.keys: dict[Any, tuple[int, int]] = {}
        self.values: dict[Any, tuple[int, int]] = {}
        self.items: list[tuple[int, int]] = []

    def key(self, key: Any) -> tuple[int, int]:
        return self.keys[key]

    def value(self, key: Any) -> tuple[int, int]:
        return self.values[key]

    def item(self, index: int) -> tuple[int, int]:
        return self.items[index]


class Map(dict):  # type: ignore[type-arg]
    """A mapping read by :func:`load`; ``lc`` holds its :class:`Marks`."""

    __slots__ = ("lc",)


class Seq(list):  # type: ignore[type-arg]
    """A sequence read by :func:`load`; ``lc`` holds its :class:`Marks`."""

    __slots__ = ("lc",)


_parser: Any = None


def available() -> bool:
    """True when libyaml can be used (PyYAML installed with its C extension)."""
    global _parser
    if _parser is None:
        try:
            from yaml._yaml import CParser
        except ImportError:
            _parser = False
        else:
            _parser = CParser
    return _parser is not False


def load(text: str) -> Any:
    """The tree of frontmatter text (LF endings): :class:`Map`, :class:`Seq`, a scalar,
    or ``None`` for an empty/comment-only document.

    Raises :class:`Unsupported` when the text must be read by :mod:`.yamlio` (see the
    module docstring), including when libyaml is not :func:`available`.
    """
    if not available():
        raise Unsupported("libyaml is not available")
    if _SUSPECT.search(text):
        raise Unsupported("characters YAML 1.1 and 1.2 read differently")
    import yaml

    try:
        return _compose(_parser(text))
    except yaml.YAMLError as exc:
        raise Unsupported(f"libyaml: {exc}") from None
    except (UnicodeError, ValueError) as exc:
        raise Unsupported(str(exc)) from None


_EVENTS: tuple[type, ...] = ()


def _compose(parser: Any) -> Any:
    global _EVENTS
    if not _EVENTS:
        from yaml import events

        _EVENTS = (
            events.ScalarEvent,
            events.MappingStartEvent,
            events.SequenceStartEvent,
            events.MappingEndEvent,
            events.SequenceEndEvent,
            events.AliasEvent,
            events.DocumentStartEvent,
        )
    (
        ScalarEvent,
        MappingStartEvent,
        SequenceStartEvent,
        MappingEndEvent,
        SequenceEndEvent,
        AliasEvent,
        DocumentStartEvent,
    ) = _EVENTS
    root: Any = None
    documents = 0
    # one frame per open container: [container, marks, pending key, its mark, seen keys]
    stack: list[list[Any]] = []
    get = parser.get_event
    while True:
        event = get()
        if event is None:
            break
        kind = type(event)
        if kind is ScalarEvent:
            if event.anchor is not None or event.tag is not None:
                raise Unsupported("an anchor or tag")
            if event.style in _BLOCK_STYLES:
                raise Unsupported("a block scalar")
            text = event.value
            if event.implicit[0]:
                if not text:
                    raise Unsupported("an empty node")
                node: Any = scalar_value(resolve(text), text)
            else:
                node = text
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.anchor is not None or event.tag is not None:
                raise Unsupported("an anchor or tag")
            if len(stack) >= MAX_DEPTH:
                raise Unsupported("deep nesting")
            node = Map() if kind is MappingStartEvent else Seq()
            node.lc = Marks()
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            stack.pop()
            continue
        elif kind is AliasEvent:
            raise Unsupported("an alias")
        else:
            if kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise Unsupported("several documents")
            continue
        mark = event.start_mark
        where = (mark.line, mark.column)
        if not stack:
            root = node
        else:
            frame = stack[-1]
            container = frame[0]
            if type(container) is Seq:
                container.append(node)
                frame[1].items.append(where)
            elif frame[2] is _NO_KEY:
                if kind is not ScalarEvent:
                    raise Unsupported("a mapping key that is not a scalar")
                # a string key is its own JSON key; others go through key_idents
                if type(node) is str:
                    idents: Any = (("value", node), ("json", node))
                else:
                    idents = key_idents(node)
                seen = frame[4]
                for ident in idents:
                    if ident in seen:
                        raise Unsupported("a duplicate key")
                seen.update(idents)
                frame[2], frame[3] = node, where
                continue
            else:
                key = frame[2]
                container[key] = node
                frame[1].keys[key] = frame[3]
                frame[1].values[key] = where
                frame[2] = _NO_KEY
        if kind is not ScalarEvent:
            stack.append([node, node.lc, _NO_KEY, None, set()])
    return root
