"""Structural clean-ups that keep people's comments: removing a key, and dropping a
``recall_queries`` list that an edit emptied.

ruamel prints none of the comment lines attached to an empty list
(``recall_queries: []``) — neither those on its last item nor those it keeps at the
list's end (``ca.end``) — so lines that followed the last query would vanish when a
removal empties the list. Absent and empty mean the same to the protocol, so the key is
removed instead and those lines move to the key before it.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken

from . import nodes


def pop_key(mapping: CommentedMap, key: str) -> Any:
    """Delete ``mapping[key]``; the comment lines after it stay where they were (after
    the previous key, or before the new first key). Returns the key's end-of-line
    comment token (or None) so a caller moving the value can take it along."""
    keys = list(mapping)
    tail = nodes.take_tail(mapping, key) if nodes.is_block(mapping) else ""
    tail += _end_comments(mapping[key])
    entry = mapping.ca.items.pop(key, None)
    eol = entry[2] if entry else None
    del mapping[key]
    index = keys.index(key)
    if tail and index > 0:
        nodes.put_tail(mapping, keys[index - 1], tail)
    elif tail and len(keys) > 1:
        entry = mapping.ca.items.setdefault(keys[1], [None, None, None, None])
        entry[1] = [CommentToken(tail, CommentMark(0)), *(entry[1] or [])]
    return eol


def _end_comments(value: Any) -> str:
    """The comment lines ruamel keeps at the end of a collection (``ca.end``: lines that
    follow a block sequence whose last item ends in a flow collection), as text."""
    tokens = getattr(getattr(value, "ca", None), "end", None) or []
    return "".join(
        ("" if t.value.startswith("\n") else " " * t.start_mark.column) + t.value for t in tokens
    )


def drop_emptied_queries(tree: CommentedMap) -> None:
    """Remove ``recall_queries`` when it is an empty list, keeping its comment lines.
    Call only after an edit removed items (a hand-written ``[]`` is left alone).

    A key whose own line carries a comment (``recall_queries: []  # none yet``, which
    ``note`` grew into a block list) is kept as ``[]`` instead, comment in its column:
    a person wrote that line, and ``note`` then ``remove`` gives it back byte for byte
    (issue 13 item 11). A key without one is removed, as the reference does; a hook that
    had no ``recall_queries`` before ``note`` gets its bytes back that way."""
    queries = tree.get("recall_queries")
    if not (isinstance(queries, CommentedSeq) and not queries):
        return
    entry = tree.ca.items.get("recall_queries")
    eol = entry[2] if entry and len(entry) > 2 else None
    if eol is None or not eol.value.lstrip(" ").startswith("#"):
        pop_key(tree, "recall_queries")
        return
    head, newline, tail = eol.value.partition("\n")
    tail += _end_comments(queries)
    queries.fa.set_flow_style()
    queries.ca.comment = None
    queries.ca.end = []
    eol.value = head + newline
    if tail:
        nodes.put_tail(tree, "recall_queries", tail)
