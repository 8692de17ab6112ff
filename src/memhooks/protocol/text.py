"""The one text normalization used everywhere a query, name or exclusion is compared,
and the one bound on how much of a prompt recall reads (:func:`bound_prompt`).

Issue 2 (and reference weakness (l)3): the reference resolver compares trimmed text, its
maintainer compares whitespace-collapsed text and its linter trimmed text. memhooks uses
one rule for all of them: trim, then collapse every internal run of whitespace to a single
space. Case is significant.
"""

from __future__ import annotations

#: Characters of a prompt that recall reads; the rest is ignored (issue 14: a 1 MB prompt
#: made recall superlinear). 16,000 characters is a long pasted page; the store searches
#: the first 32 distinct words of it anyway (``memhooks.store.search.MAX_TERMS``).
MAX_PROMPT_CHARS = 16_000


def bound_prompt(prompt: str, limit: int = MAX_PROMPT_CHARS) -> str:
    """``prompt`` cut to at most ``limit`` characters, before the word the cut would
    split (a single word longer than ``limit`` is cut inside it). Linear in ``limit``:
    the rest of the prompt is never looked at."""
    if len(prompt) <= limit:
        return prompt
    cut = prompt[:limit]
    if not prompt[limit].isspace():
        end = len(cut)
        while end and not cut[end - 1].isspace():
            end -= 1
        cut = cut[:end] or cut
    return cut


#: Characters a reader of the text does not see but a model and a search do: C0/C1
#: controls but tab, newline and carriage return (whitespace, which :func:`normalize`
#: folds); the soft hyphen; bidirectional embeddings, overrides, isolates and marks
#: (they reorder what is shown: "Trojan Source", CVE-2021-42574); zero-width space, word
#: joiner and the invisible operators; the byte-order mark inside text; interlinear
#: annotation; and the tag characters U+E0000-U+E007F, which spell hidden ASCII ("ASCII
#: smuggling").
#: Zero-width joiner and non-joiner (U+200C, U+200D) are left alone: Persian, Indic
#: scripts and emoji need them.
HIDDEN = (
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\xad\u061c\u180e\u200b\u200e\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)


#: :data:`HIDDEN` and the zero-width joiner and non-joiner: what text the agent is given
#: shows as escapes (it is not refused there, as a hook's query is).
INVISIBLE = HIDDEN[:-1] + "\u200c\u200d]"


def hidden_character(text: str) -> tuple[int, str] | None:
    """``(index, character)`` of the first :data:`HIDDEN` character in ``text``, or None.
    Plain printable text (the common case) costs one ``str.isprintable`` call."""
    if text.isprintable():
        return None
    import re

    found = re.search(HIDDEN, text)
    return None if found is None else (found.start(), found.group())


#: What plain text shows as escapes (:func:`inert_block`): :data:`INVISIBLE` and every line
#: break but ``\n``, the block's own layout.
BLOCK_ESCAPED = INVISIBLE[:-1] + "\r\u2028\u2029]"
#: A ``<`` that could open or close a tag of the host's wrapper (``<system-reminder>``,
#: ``</system-reminder>``, ``<!--``, ``<?``); ``->``, ``<<``, ``a < b`` and every ``>``
#: cannot, and stay as written (C and Rust messages are full of them: each escape costs
#: six characters of the budget).
TAG_OPENER = "<(?=[A-Za-z/!?])"
_TAG_STARTS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz/!?")


def json_escape(character: str) -> str:
    """``character`` as JSON writes it escaped: ``\\u003c``; beyond U+FFFF a UTF-16
    surrogate pair (``\\ud83d\\ude00``)."""
    code = ord(character)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def inert_block(text: str, tags: bool = True) -> str:
    """``text`` (lines of repository data laid out by us: commit messages, notes) with
    every hidden character (:data:`INVISIBLE`) and every line break but a newline written
    as its ``\\uXXXX`` escape, as the injected JSON writes them
    (:func:`memhooks.recall.result.dumps`), and with ``tags`` (text for a model) every
    :data:`TAG_OPENER` too: nothing in it can close or open a tag of the host's wrapper
    (Claude Code frames hook context in ``<system-reminder>`` … ``</system-reminder>``),
    start a line of its own under the quoting, or hide. Printable text (the common case,
    newline and tab allowed) is done without ``re`` (with ``enum``: ~4 ms of a hook
    process): every other character :data:`BLOCK_ESCAPED` names is not printable, so
    ``str.isprintable`` of the rest vouches there is none, and a tag opener is found by
    splitting at ``<``. That first test is repeated in
    :func:`memhooks.recall.why_text._inert`, which keeps this module off the hook's edit
    path for the blocks it clears (``tests/recall/test_invisible.py`` holds the two equal)."""
    if text.replace("\n", "").replace("\t", "").isprintable():
        if not tags or "<" not in text:
            return text
        first, *rest = text.split("<")
        escaped = json_escape("<")
        return first + "".join((escaped if p[:1] in _TAG_STARTS else "<") + p for p in rest)
    import re

    pattern = f"{TAG_OPENER}|{BLOCK_ESCAPED}" if tags else BLOCK_ESCAPED
    return re.sub(pattern, lambda found: json_escape(found.group()), text)


def normalize(text: str) -> str:
    """``"  Why  did\\tauth\\nchange? "`` → ``"Why did auth change?"``."""
    return " ".join(text.split())
