"""Edit JSON / JSONC text in place: everything but the edited values stays byte for byte.

Agent config files are shared with other tools and people: comments (``//``, ``/* */``,
which VS Code, Gemini CLI and Cursor accept), trailing commas, key order and indentation
must survive our install and uninstall. So the text is parsed into a tree of :class:`Node`
that remembers where every value and member starts and ends, and edits are splices of
the original text. After each splice the text is parsed again.

Raises :class:`JsoncError` (a ValueError) with a line and column for text that is not
JSON(C).
"""

from __future__ import annotations

import json

from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class JsoncError(ValueError):
    """Text that is not JSON(C), or not the shape an installer needs. ``reason`` is the
    message without a place; ``line``/``column`` (1-based) say where, when known."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        where = f" at line {line}, column {column}" if line is not None else ""
        super().__init__(reason + where)


class Node:
    """A value at ``text[start:end]``. Objects have ``members`` [(key, key_start, Node)],
    arrays ``items`` [Node]; ``value`` is the plain Python value."""

    __slots__ = ("end", "items", "kind", "members", "start", "value")

    def __init__(self, kind: str, start: int) -> None:
        self.kind = kind
        self.start = start
        self.end = start
        self.value: Any = None
        self.members: list[tuple[str, int, Node]] = []
        self.items: list[Node] = []

    def get(self, key: str) -> Node | None:
        for name, _, node in self.members:
            if name == key:
                return node
        return None


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, message: str) -> JsoncError:
        line = self.text.count("\n", 0, self.pos) + 1
        column = self.pos - (self.text.rfind("\n", 0, self.pos) + 1) + 1
        return JsoncError(message, line, column)

    def skip(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n:
            ch = text[self.pos]
            if ch in " \t\r\n\ufeff":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end + 1
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("unterminated comment")
                self.pos = end + 2
            else:
                return

    def value(self) -> Node:
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("unexpected end of text")
        ch = self.text[self.pos]
        if ch == "{":
            return self.container("object", "}")
        if ch == "[":
            return self.container("array", "]")
        node = Node("scalar", self.pos)
        try:
            node.value, end = json.JSONDecoder().raw_decode(self.text, self.pos)
        except json.JSONDecodeError:
            raise self.fail("invalid value") from None
        node.end = self.pos = end
        return node

    def container(self, kind: str, close: str) -> Node:
        node = Node(kind, self.pos)
        self.pos += 1
        while True:
            self.skip()
            if self.text.startswith(close, self.pos):
                self.pos += 1
                break
            if node.members or node.items:
                if not self.text.startswith(",", self.pos):
                    raise self.fail(f"expected ',' or '{close}'")
                self.pos += 1
                self.skip()
                if self.text.startswith(close, self.pos):  # trailing comma
                    self.pos += 1
                    break
            if kind == "object":
                key_start = self.pos
                key = self.value()
                if not isinstance(key.value, str) or key.kind != "scalar":
                    raise self.fail("expected a string key")
                self.skip()
                if not self.text.startswith(":", self.pos):
                    raise self.fail("expected ':'")
                self.pos += 1
                node.members.append((key.value, key_start, self.value()))
            else:
                node.items.append(self.value())
        node.end = self.pos
        if kind == "object":
            node.value = {k: v.value for k, _, v in node.members}
        else:
            node.value = [item.value for item in node.items]
        return node


def error_at(text: str, node: Node, reason: str) -> JsoncError:
    """A :class:`JsoncError` placed at ``node`` (a value of the wrong shape)."""
    line = text.count("\n", 0, node.start) + 1
    column = node.start - (text.rfind("\n", 0, node.start) + 1) + 1
    return JsoncError(reason, line, column)


def parse(text: str) -> Node:
    """The tree of ``text`` (one JSON(C) value). Raises JsoncError."""
    parser = _Parser(text)
    node = parser.value()
    parser.skip()
    if parser.pos != len(text):
        raise parser.fail("unexpected text after the value")
    return node


def value_of(path: str) -> Any:
    """The JSON (with comments) value of the file at ``path``; ``{}`` when the file is
    missing, unreadable or not JSON (for reading another program's state, never ours)."""
    try:
        return parse(read(path) or "{}").value
    except (JsoncError, OSError):
        return {}


def indent_unit(text: str) -> str:
    """The file's indentation step (the first indented line's), default two spaces."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            return line[: len(line) - len(stripped)]
    return "  "


def _line_indent(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _render(value: Any, indent: str, unit: str) -> str:
    return json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", "\n" + indent)


def _insert(text: str, container: Node, rendered_member: str) -> str:
    """``text`` with ``rendered_member`` (already indented) added last in ``container``."""
    unit = indent_unit(text)
    outer = _line_indent(text, container.start)
    inner = outer + unit
    children = container.members if container.kind == "object" else container.items
    if not children:
        close = container.end - 1
        return (
            text[: container.start + 1]
            + "\n"
            + inner
            + rendered_member
            + "\n"
            + outer
            + text[close:]
        )
    last = container.members[-1][2] if container.kind == "object" else container.items[-1]
    return text[: last.end] + ",\n" + inner + rendered_member + text[last.end :]


def add_member(text: str, obj: Node, key: str, value: Any) -> str:
    """``text`` with ``"key": value`` appended to object ``obj``."""
    inner = _line_indent(text, obj.start) + indent_unit(text)
    rendered = json.dumps(key) + ": " + _render(value, inner, indent_unit(text))
    return _insert(text, obj, rendered)


def append_item(text: str, array: Node, value: Any) -> str:
    """``text`` with ``value`` appended to ``array``."""
    inner = _line_indent(text, array.start) + indent_unit(text)
    return _insert(text, array, _render(value, inner, indent_unit(text)))


def _remove_span(
    text: str, spans: list[tuple[int, int]], index: int, open_end: int, close_start: int
) -> str:
    start, end = spans[index]
    if len(spans) == 1:
        return text[:open_end] + text[close_start:]
    if index > 0:
        return text[: spans[index - 1][1]] + text[end:]
    return text[:start] + text[spans[1][0] :]


def remove_item(text: str, array: Node, index: int) -> str:
    """``text`` without item ``index`` of ``array`` (and its separating comma)."""
    spans = [(item.start, item.end) for item in array.items]
    return _remove_span(text, spans, index, array.start + 1, array.end - 1)


def remove_member(text: str, obj: Node, key: str) -> str:
    """``text`` without member ``key`` of ``obj`` (no-op when absent)."""
    spans = [(key_start, node.end) for _, key_start, node in obj.members]
    for index, (name, _, _) in enumerate(obj.members):
        if name == key:
            return _remove_span(text, spans, index, obj.start + 1, obj.end - 1)
    return text


def replace_value(text: str, node: Node, value: Any) -> str:
    """``text`` with ``node``'s value replaced by ``value``."""
    indent = _line_indent(text, node.start)
    return text[: node.start] + _render(value, indent, indent_unit(text)) + text[node.end :]
