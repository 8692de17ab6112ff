"""A piece of conversation as one memory: where it ended first, then how it got there.

The text a model receives (at most :data:`MAX_CHARS` characters, so a whole piece fits
one tool-time delivery of 2,000)::

    Conversation (claude-code session 3e05d5bf, 2026-12-01): uptime/incidents.py (edited), tests/test_incidents.py
    Where it ended:
    user: Merge overlapping windows first, and windows less than 5 minutes apart.
    agent: Done: merge_windows merges overlapping and near windows before summing.
    The rest of the conversation, in order (2 earlier exchanges left out):
    1. user: Downtime is double counted ... / agent: ... [read uptime/incidents.py]
    ...

"Where it ended" is the exchange that settled it — the last one that edited a file other
than a test, else the last one in which the user stated a rule or a decision
(:func:`memhooks.statements.statement_kind`), else the last one — with every later
exchange in which the user stated a rule; the other exchanges follow in order, the
earliest left out first when the bound is reached, each cut to :data:`EXCERPT`
characters. A piece is tagged
``decision`` when the user stated a rule there or the agent edited a file (it changed
code as the user directed): what :mod:`.supersede` compares. A piece in which nothing
is said but filler around its tool calls ("ok", "Fix it.", "Done.") is not stored
(:func:`substantive`). Every text passes the
capture scrubber first (:mod:`memhooks.scrubber`): a secret said in a session is
never stored.
"""

from __future__ import annotations

import hashlib
import posixpath

from ..scrubber import clean
from ..statements import sentences, statement_kind
from ..store import Memory
from ..store.memory import parse_timestamp
from ..testfiles import is_test
from ..words import content_words
from . import anchors

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from .anchors import Place
    from .model import Transcript
    from .segment import Exchange, Piece

#: Characters of a piece's text at most.
MAX_CHARS = 1600
#: Characters of one message in "The rest of the conversation" at most.
EXCERPT = 280
#: Characters of the conclusion's user text and reply at most (each).
CONCLUSION = 500
#: Files listed on a piece at most.
MAX_FILES = 30
#: Content words a piece must hold beyond its paths to be stored (:func:`substantive`).
MIN_CONTENT = 3
ID_PREFIX = "conv-"
SOURCE_PREFIX = "transcript:"
KIND = "conversation"
TAG = "conversation"


def piece_id(host: str, session: str, first: Exchange) -> str:
    """A piece's memory id: the session and its first exchange name it, so a re-import
    finds it again (``conv-`` and 16 hex digits of a SHA-256)."""
    key = f"{host}\0{session}\0{first.index}\0{first.user.text[:200]}"
    return ID_PREFIX + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:16]


def source(host: str, session: str) -> str:
    """A piece's ``source``: ``transcript:<host>:<session id>``."""
    return f"{SOURCE_PREFIX}{host}:{session}"


def to_memory(
    transcript: Transcript, piece: Piece, place: Place, project: str, fallback: str
) -> Memory:
    """The memory of ``piece`` (see the module docstring); ``fallback`` (ISO 8601) is its
    time when the transcript has none (the file's modification time)."""
    edited = _unique(f for e in piece.exchanges for f in e.edited)
    read = _unique(f for e in piece.exchanges for f in e.read if f not in edited)
    named = _unique(f for e in piece.exchanges for f in e.named if f not in edited + read)
    files = [*edited, *read, *named][:MAX_FILES]
    texts = [t for e in piece.exchanges for t in (e.user.text, *(m.text for m in e.replies))]
    names = anchors.symbols(place.root, texts, files)
    last = piece.exchanges[-1]
    created = _timestamp(last.at or transcript.started, fallback)
    ruled = [e for e in piece.exchanges if rules(e.user.text)]
    decided = bool(ruled or edited)
    header = _header(transcript, created, edited, read, named)
    text = compose(header, settled(piece.exchanges), piece.exchanges)
    return Memory(
        id=piece_id(transcript.host, transcript.session, piece.exchanges[0]),
        project=project,
        scope=_folder([f for f in files if "." in f.rpartition("/")[2]] or files),
        files=files,
        text=text,
        kind=KIND,
        tags=[TAG, transcript.host, *(["decision"] if decided else [])],
        entities=names,
        created_at=created,
        source=source(transcript.host, transcript.session),
    )


def substantive(piece: Piece) -> bool:
    """Whether ``piece`` says something a later session can use, so it is worth storing:
    the user stated a rule there (:func:`rules`), or what the user and the agent said
    holds at least :data:`MIN_CONTENT` content words (:func:`memhooks.words.content_words`)
    that are not parts of the paths it touched or named. "ok" / "continue" / "Fix it."
    around an edit, answered "Done." or with tool calls only, is an edit with no why:
    stored, it would be a short memory that matches any prompt saying "fix" and ranks
    high for being short (newcomer trial #1: such a piece, tagged ``decision`` for its
    edit, ranked second)."""
    said = [t for e in piece.exchanges for t in (e.user.text, *(m.text for m in e.replies))]
    if any(rules(e.user.text) for e in piece.exchanges):
        return True
    paths = content_words(" ".join(f for e in piece.exchanges for f in e.files).replace("/", " "))
    return len(content_words("\n".join(said)) - paths) >= MIN_CONTENT


def rules(text: str) -> list[str]:
    """The sentences of ``text`` that state a rule, decision or finding."""
    return [s for s in sentences(text) if statement_kind(s)]


def settled(exchanges: list[Exchange]) -> list[Exchange]:
    """The exchanges where a piece ended (see the module docstring), in order."""
    edits = [e for e in exchanges if any(not is_test(f) for f in e.edited)]
    ruled = [e for e in exchanges if rules(e.user.text)]
    end = (edits or ruled or exchanges)[-1]
    return [end, *(e for e in ruled if e.index > end.index)]


def compose(header: str, ended: list[Exchange], exchanges: list[Exchange]) -> str:
    """The piece's text: ``header``, where it ended (each of ``ended``: the user's words
    and the agent's reply), then the other exchanges in order, earliest left out first to
    fit."""
    said: list[str] = []
    for exchange in ended:
        said.append(f"user: {_cut(exchange.user.text, CONCLUSION)}")
        if exchange.reply:
            said.append(f"agent: {_cut(exchange.reply, CONCLUSION)}")
    head = f"{header}\nWhere it ended:\n" + "\n".join(said)
    rest = [e for e in exchanges if e not in ended]
    lines = [_line(n, e) for n, e in enumerate(rest, 1)]
    kept = list(lines)
    while kept and len(_join(head, kept, len(lines) - len(kept))) > MAX_CHARS:
        kept.pop(0)
    text = _join(head, kept, len(lines) - len(kept))
    return text[:MAX_CHARS]


def _join(head: str, lines: list[str], dropped: int) -> str:
    if not lines and not dropped:
        return head
    left = f" ({dropped} earlier exchange{'s' if dropped != 1 else ''} left out)" if dropped else ""
    return f"{head}\nThe rest of the conversation, in order{left}:\n" + "\n".join(lines)


def _line(number: int, exchange: Exchange) -> str:
    parts = [f"{number}. user: {_cut(exchange.user.text, EXCERPT)}"]
    if exchange.reply:
        parts.append(f"agent: {_cut(exchange.reply, EXCERPT)}")
    did = [f"edited {f}" for f in exchange.edited[:3]] + [f"read {f}" for f in exchange.read[:3]]
    line = " / ".join(parts)
    return f"{line} [{'; '.join(did)}]" if did else line


def _header(
    transcript: Transcript, created: str, edited: list[str], read: list[str], named: list[str]
) -> str:
    files = [f"{f} (edited)" for f in edited] + read + named
    shown = ", ".join(files[:6]) + (f" and {len(files) - 6} more" if len(files) > 6 else "")
    where = f": {shown}" if shown else ""
    return (
        f"Conversation ({transcript.host} session {transcript.session[:8]}, {created[:10]}){where}"
    )


def _cut(text: str, limit: int) -> str:
    flat = " ".join(clean(text).split())
    if len(flat) <= limit:
        return flat
    return flat[: limit - 1].rsplit(" ", 1)[0] + "…"


def _timestamp(value: str | None, fallback: str) -> str:
    if value:
        try:
            return parse_timestamp(value)
        except (TypeError, ValueError):
            pass
    return fallback


def _folder(files: list[str]) -> str:
    """The deepest folder holding every one of ``files`` (``""``: the root, or no files)."""
    folders = [f.rpartition("/")[0] for f in files]
    return posixpath.commonpath(folders) if folders and all(folders) else ""


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
