"""Structural edits of ruamel round-trip trees that keep people's comments in place.

(Edits that know what a hook means live in :mod:`.edit` and :mod:`.cues`; this module
only knows YAML nodes, key order and comments.)

ruamel stores a comment that follows a node on the *last scalar line* before it: the
token's first line is that line's end-of-line comment (possibly empty) and the rest
("the tail") are the full comment and blank lines up to the next node. A naive append
therefore lands *after* a comment that introduced the next key, and deleting an item
drops the comment lines that followed it. The helpers here move tails so that:

* appending an item or inserting a key puts the new node right after the previous one
  and before the comment lines that followed it;
* deleting an item drops only its own end-of-line comment; the lines after it move to
  the previous item (or before the first one);
* turning a plain sequence item into a mapping keeps its end-of-line comment on the
  ``query:`` line.

A comment slot is ``container.ca.items[key][2]`` for a mapping and ``[0]`` for a sequence.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken

Container = CommentedMap | CommentedSeq


def is_block(node: Any) -> bool:
    """True for a non-empty mapping/sequence written (or to be written) in block style."""
    return (
        isinstance(node, (CommentedMap, CommentedSeq))
        and len(node) > 0
        and not node.fa.flow_style()
    )


def _slot_index(container: Container) -> int:
    return 2 if isinstance(container, CommentedMap) else 0


def _last_key(container: Container) -> Any:
    return next(reversed(container)) if isinstance(container, CommentedMap) else len(container) - 1


def _path(container: Container, key: Any) -> list[tuple[Container, Any]]:
    """Comment slots from ``container[key]`` down its last block children, outermost
    first; the last one holds what is printed after the node's last line."""
    path = [(container, key)]
    node = container[key]
    while is_block(node):
        last = _last_key(node)
        path.append((node, last))
        node = node[last]
    return path


def _token(container: Container, key: Any) -> CommentToken | None:
    entry = container.ca.items.get(key)
    return entry[_slot_index(container)] if entry else None


def _set_token(container: Container, key: Any, token: CommentToken | None) -> None:
    entry = container.ca.items.setdefault(key, [None, None, None, None])
    entry[_slot_index(container)] = token


def take_tail(container: Container, key: Any) -> str:
    """Detach and return the comment/blank lines that follow ``container[key]``
    (its end-of-line comment stays).

    Only the innermost slot is "after" the node: on a key whose value is a block
    collection, the slot holds the lines *between the key and its content*.
    """
    holder, slot = _path(container, key)[-1]
    token = _token(holder, slot)
    if token is None:
        return ""
    head, _, tail = token.value.partition("\n")
    if tail:
        if head:
            token.value = head + "\n"
        else:
            _set_token(holder, slot, None)
    return tail


def put_tail(container: Container, key: Any, tail: str) -> None:
    """Attach comment/blank lines ``tail`` after ``container[key]`` (after its last line)."""
    if not tail:
        return
    if not tail.endswith("\n"):
        tail += "\n"
    holder, slot = _path(container, key)[-1]
    token = _token(holder, slot)
    if token is None:
        _set_token(holder, slot, CommentToken("\n" + tail, CommentMark(0)))
    else:
        value = token.value
        token.value = (value if value.endswith("\n") else value + "\n") + tail


def append(seq: CommentedSeq, item: Any) -> None:
    """Append ``item`` directly after the last item, before any trailing comment lines."""
    if not seq:
        if isinstance(item, (CommentedMap, CommentedSeq)):
            seq.fa.set_block_style()  # `key: []` grows into a block list of mappings
        seq.append(item)
        return
    tail = take_tail(seq, len(seq) - 1) if is_block(seq) else ""
    seq.append(item)
    put_tail(seq, len(seq) - 1, tail)


def insert_key(mapping: CommentedMap, key: str, value: Any, after: Any = None) -> None:
    """Insert ``key: value`` right after the existing key ``after`` (at the front when
    ``after`` is None). Comment lines that followed ``after`` now follow the new key."""
    if after is None:
        mapping.insert(0, key, value)
        return
    position = list(mapping).index(after) + 1
    tail = take_tail(mapping, after) if is_block(mapping) else ""
    mapping.insert(position, key, value)
    put_tail(mapping, key, tail)


def set_key(mapping: CommentedMap, key: str, value: Any, order: tuple[str, ...]) -> None:
    """Set ``mapping[key]``; a new key goes after the last existing key that ``order``
    lists before it (else after the last key). Fill ``value`` in before calling: comment
    lines that move onto it land after its last line *as it is now*."""
    if key in mapping:
        replace_value(mapping, key, value)
        return
    earlier = set(order[: order.index(key)]) if key in order else set()
    after = next((k for k in reversed(mapping) if k in earlier), None)
    if after is None and len(mapping):
        after = next(reversed(mapping))
    insert_key(mapping, key, value, after)


def flow(items: Any) -> CommentedSeq:
    """A new sequence written in flow style (``[a, b]``)."""
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def replace_value(mapping: CommentedMap, key: str, value: Any) -> None:
    """Set an existing ``mapping[key]`` to ``value``, keeping the comment lines after it."""
    tail = take_tail(mapping, key) if is_block(mapping) else ""
    mapping[key] = value
    put_tail(mapping, key, tail)


def delete_item(parent: CommentedMap, key: str, index: int) -> None:
    """Delete ``parent[key][index]``. Its own end-of-line comment goes with it; the
    comment and blank lines before and after it stay where they were."""
    seq = parent[key]
    lines = _take_pre(seq, index) + (take_tail(seq, index) if is_block(seq) else "")
    del seq[index]
    if not lines:
        return
    if index > 0:
        put_tail(seq, index - 1, lines)
    elif seq:
        entry = seq.ca.items.setdefault(0, [None, None, None, None])
        entry[1] = [CommentToken(lines, CommentMark(0))] + list(entry[1] or [])
    else:
        put_tail(parent, key, lines)


def _take_pre(seq: CommentedSeq, index: int) -> str:
    """Detach the comment/blank lines ruamel keeps *before* ``seq[index]`` (slot 1),
    as the text the dumper would print for them."""
    entry = seq.ca.items.get(index)
    if not entry or not entry[1]:
        return ""
    tokens, entry[1] = entry[1], None
    return "".join(
        ("" if t.value.startswith("\n") else " " * t.start_mark.column) + t.value for t in tokens
    )


def to_mapping(seq: CommentedSeq, index: int, mapping: CommentedMap) -> None:
    """Replace the scalar ``seq[index]`` by ``mapping`` (whose first key is the scalar's
    new home); the scalar's end-of-line comment moves to that first line."""
    token = _token(seq, index)
    seq[index] = mapping
    if token is None:
        return
    _set_token(seq, index, None)  # lines *before* the item (slot 1) stay where they are
    head, _, tail = token.value.partition("\n")
    if head:
        first = next(iter(mapping))
        column = token.start_mark.column + len(f"{first}: ")
        _set_token(mapping, first, CommentToken(head + "\n", CommentMark(column)))
    put_tail(seq, index, tail)
