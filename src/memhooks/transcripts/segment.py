"""A session cut into decision-sized pieces: runs of exchanges around one topic.

An **exchange** is one thing the user said and everything the agent did about it up to
the user's next message (replies and tool calls). A **piece** is a run of exchanges
about one topic, cut greedily from the start of the session: exchange *e* starts a new
piece when

1. the current piece already holds :data:`MAX_EXCHANGES` exchanges, or
2. the user says the topic changes ("unrelated:", "new topic", "separately", "another
   question", "switching to"), or
3. it shares no file with the piece's last :data:`WINDOW` exchanges (touched or named,
   :mod:`.anchors`; a test file and the file it tests count as one: ``tests/test_sla.py``
   and ``uptime/sla.py``) **and** its words overlap theirs by less than
   :data:`SAME_TOPIC` (overlap coefficient of content-word sets), unless it names no file
   and is a short follow-up (fewer than :data:`SHORT` content words: "yes, do that",
   "thanks") or opens with a word that continues ("also", "actually", "no,", "instead",
   "but", "wait", "then").

Each cut depends only on what came before it, so a session that grows keeps its earlier
pieces as they were: a re-import changes at most the last one. The figures were chosen
on the development set (``bench/conversations``); what a rule like this cannot see is
said in docs/transcripts.md.
"""

from __future__ import annotations

import re

from ..testfiles import subject
from ..words import content_words
from . import anchors
from .model import USER

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .anchors import Place
    from .model import Message, Transcript

#: Most exchanges in one piece (a longer run on one topic continues in a new piece).
MAX_EXCHANGES = 24
#: Exchanges at the end of a piece a new one is compared with.
WINDOW = 3
#: Overlap coefficient of content words at or above which an exchange stays on topic.
SAME_TOPIC = 0.25
#: A follow-up with fewer content words than this (and no files) stays with its piece.
SHORT = 6

_SWITCH = re.compile(
    r"(?i)^\s*(?:unrelated\b|new\s+topic\b|different\s+(?:topic|question|thing)\b"
    r"|separately\b|another\s+(?:question|thing|topic)\b|switching\s+(?:to|gears)\b"
    r"|on\s+(?:a|an)\s+(?:other|unrelated|different)\s+note\b|moving\s+on\b)"
)
_CONTINUE = re.compile(
    r"(?i)^\s*(?:also|and|actually|no\b|nope|instead|but|wait|then|hmm|right|ok(?:ay)?|yes"
    r"|yeah|sure|good|great|thanks|that|this|it|same|one\s+more|follow[- ]up|amend|correction)\b"
)


class Exchange:
    """One thing the user said (``user``), the agent's ``replies`` to it, its place in
    the session (``index``, from 0) and, once anchored, the root-relative files it
    ``edited``, ``read`` and ``named``."""

    __slots__ = ("edited", "index", "named", "read", "replies", "user", "words")

    def __init__(self, index: int, user: Message) -> None:
        self.index = index
        self.user = user
        self.replies: list[Message] = []
        self.edited: list[str] = []
        self.read: list[str] = []
        self.named: list[str] = []
        self.words: frozenset[str] = frozenset()

    @property
    def reply(self) -> str:
        """The agent's last words in this exchange ('' when it only called tools)."""
        return next((m.text for m in reversed(self.replies) if m.text), "")

    @property
    def files(self) -> list[str]:
        return [*self.edited, *self.read, *self.named]

    @property
    def at(self) -> str | None:
        return self.user.at or next((m.at for m in self.replies if m.at), None)


class Piece:
    """A run of exchanges on one topic, in order."""

    __slots__ = ("exchanges",)

    def __init__(self, first: Exchange) -> None:
        self.exchanges = [first]

    def recent_files(self) -> set[str]:
        return {subject(f) for e in self.exchanges[-WINDOW:] for f in e.files}

    def recent_words(self) -> frozenset[str]:
        return frozenset().union(*(e.words for e in self.exchanges[-WINDOW:]))


def exchanges(transcript: Transcript, place: Place) -> list[Exchange]:
    """The session's exchanges, anchored (what the agent did before the first thing the
    user said belongs to no exchange and is dropped)."""
    out: list[Exchange] = []
    for message in transcript.messages:
        if message.role == USER:
            out.append(Exchange(len(out), message))
        elif out:
            out[-1].replies.append(message)
    for exchange in out:
        said = [exchange.user, *exchange.replies]
        exchange.edited, exchange.read = anchors.touched(place, said)
        touched = set(exchange.edited) | set(exchange.read)
        exchange.named = [p for p in anchors.named(place, said) if p not in touched]
        exchange.words = content_words(f"{exchange.user.text}\n{exchange.reply}")
    return out


def segment(transcript: Transcript, place: Place) -> list[Piece]:
    """The session cut into pieces (see the module docstring)."""
    pieces: list[Piece] = []
    for exchange in exchanges(transcript, place):
        if not pieces or _starts_new(pieces[-1], exchange):
            pieces.append(Piece(exchange))
        else:
            pieces[-1].exchanges.append(exchange)
    return pieces


def _starts_new(piece: Piece, exchange: Exchange) -> bool:
    text = exchange.user.text
    if len(piece.exchanges) >= MAX_EXCHANGES or _SWITCH.match(text):
        return True
    if {subject(f) for f in exchange.files} & piece.recent_files():
        return False
    if not exchange.files and (_CONTINUE.match(text) or len(content_words(text)) < SHORT):
        return False
    return overlap(exchange.words, piece.recent_words()) < SAME_TOPIC


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / min(|a|, |b|); 0 when either is empty."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))
