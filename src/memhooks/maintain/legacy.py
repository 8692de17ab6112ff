"""The legacy maintainer's body blocks (AronAxe/MEMhooks 0.1–0.3), read for migration.

That maintainer kept its data in the Markdown body (``shared/spec/reference-engine.md``
(k)):

* generated anchors between ``<!-- memhooks:auto:start -->`` and
  ``<!-- memhooks:auto:end -->``, as bullets ``- `path``` of root-relative file paths;
* notes between ``<!-- memhooks:notes:start -->`` and ``<!-- memhooks:notes:end -->``:
  bullets ``- text`` (0.2), or from 0.3 a fenced ```` ```json ```` array of note
  objects (``query``, ``priority``, ``when.roles``, ``memory_types``,
  ``connection_types``, ``entities`` ...; a bare string counts as a query).

:func:`find_blocks` reads them; :func:`cut` removes one block from the body. A block
that cannot be read exactly (unterminated, a JSON fence that does not parse, no
recognisable bullet, or anything else inside that is not boilerplate we know) is left
in the body as guidance and reported, never half-converted.
"""

from __future__ import annotations

import json
import re
from typing import Any

AUTO = ("<!-- memhooks:auto:start -->", "<!-- memhooks:auto:end -->")
NOTES = ("<!-- memhooks:notes:start -->", "<!-- memhooks:notes:end -->")

_AUTO_BULLET = re.compile(r"^- `([^`]+)`[ \t]*$")
_NOTE_BULLET = re.compile(r"^- (.+?)[ \t]*$")
_JSON_FENCE = re.compile(r"```json[ \t]*\n(.*?)\n```", re.DOTALL | re.IGNORECASE)
_HEADINGS = ("## Auto-maintained recall anchors", "## In-session retrieval cues")
#: Prose the legacy maintainer wrote inside its blocks (first words of each paragraph).
_BOILERPLATE = (
    "Before substantive work here, recall prior",
    "These are retrieval cues, not memory contents.",
    "Keep these as questions/cues;",
    "Durable facts belong in the memory backend.",
    "These are routing cues only.",
    "failures, fixes, rejected approaches",
)


class Block:
    """One legacy block: ``kind`` (``"auto"``/``"notes"``), ``start``/``end`` offsets in
    the body (end after the end marker), and ``items`` (file paths for ``auto``; note
    strings or objects for ``notes``), or ``problem`` when it is kept as guidance."""

    __slots__ = ("end", "items", "kind", "problem", "start")

    def __init__(
        self, kind: str, start: int, end: int, items: list[Any], problem: str | None
    ) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.items = items
        self.problem = problem


def find_blocks(body: str) -> list[Block]:
    """The legacy blocks in ``body`` (any line endings), in body order."""
    blocks = []
    for kind, (start_marker, end_marker) in (("auto", AUTO), ("notes", NOTES)):
        start = body.find(start_marker)
        if start < 0:
            continue
        end = body.find(end_marker, start)
        if end < 0:
            blocks.append(Block(kind, start, start, [], f"`{start_marker}` has no end marker"))
            continue
        inner = body[start + len(start_marker) : end].replace("\r\n", "\n").replace("\r", "\n")
        items, problem = (_auto_items if kind == "auto" else _note_items)(inner)
        blocks.append(Block(kind, start, end + len(end_marker), items, problem))
    return sorted(blocks, key=lambda b: b.start)


def _auto_items(inner: str) -> tuple[list[Any], str | None]:
    paths = []
    for line in _prose(inner):
        match = _AUTO_BULLET.match(line)
        if match is None:
            return [], f"unrecognised line in the auto block: {line.strip()[:60]!r}"
        paths.append(match.group(1).strip())
    return (paths, None) if paths else ([], "the auto block lists no paths")


def _note_items(inner: str) -> tuple[list[Any], str | None]:
    fence = _JSON_FENCE.search(inner)
    if fence is not None:
        rest = inner[: fence.start()] + inner[fence.end() :]
        try:
            notes = json.loads(fence.group(1))
        except ValueError as exc:
            return [], f"the notes block's JSON does not parse ({exc})"
        if not isinstance(notes, list) or not all(isinstance(n, (str, dict)) for n in notes):
            return [], "the notes block's JSON is not a list of notes"
        leftover = list(_prose(rest))
        if leftover:
            return [], f"unrecognised line in the notes block: {leftover[0].strip()[:60]!r}"
        return notes, None
    notes = []
    for line in _prose(inner):
        match = _NOTE_BULLET.match(line)
        if match is None:
            return [], f"unrecognised line in the notes block: {line.strip()[:60]!r}"
        notes.append(match.group(1))
    return (notes, None) if notes else ([], "the notes block holds no notes")


def _prose(inner: str) -> list[str]:
    """Lines of a block that carry data: not blank, not the block's heading, and not a
    paragraph of the legacy maintainer's own boilerplate."""
    kept = []
    paragraph_is_boilerplate = False
    for line in inner.split("\n"):
        text = line.strip()
        if not text:
            paragraph_is_boilerplate = False
            continue
        if text in _HEADINGS:
            continue
        if text.startswith(_BOILERPLATE):
            paragraph_is_boilerplate = True
        if paragraph_is_boilerplate and not text.startswith("- "):
            continue
        kept.append(line)
    return kept


def cut(body: str, block: Block) -> str:
    """``body`` without ``block``, keeping one blank line between what was around it."""
    before, after = body[: block.start], body[block.end :]
    newline = "\r\n" if "\r\n" in body else ("\r" if "\r" in body else "\n")
    head = before.rstrip("\r\n")
    tail = after.lstrip("\r\n")
    if not tail.strip():
        return (
            head + newline if head.strip() else before[: len(before) - len(before.lstrip("\r\n"))]
        )
    if not head.strip():
        return before[: len(before) - len(before.lstrip("\r\n"))] + tail
    return head + newline + newline + tail
