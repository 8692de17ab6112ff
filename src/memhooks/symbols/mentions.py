"""Whether a text names a symbol: one rule for every place memhooks matches the names of
code against prose — the symbol cue that finds memories by the names an edit touches
(:mod:`memhooks.recall.symbol_recall`) and the anchors of an imported conversation
(:mod:`memhooks.transcripts.anchors`).

A name counts as a whole identifier only: ``MAX_ATTEMPTS`` is not named by
``MAX_ATTEMPTS_V2``, ``slugify`` not by ``slugify_all``. A name shaped like code —
``snake_case``, ``UPPER_CASE``, ``CamelCase`` (a capital after the first letter), or
with a digit — counts wherever the text says it. A name that is also an ordinary word
(``merge``, ``report``, ``usage``, ``Retrier``) counts only where the text writes it as
code: in backticks, called (``merge(``), or as a member (``self.merge``, ``merge.x``).
Case matters: identifiers are case-sensitive, and ``Report`` starting a sentence is not
the function ``report``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

_IDENTIFIER_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def code_shaped(name: str) -> bool:
    """``snake_case``, ``UPPER_CASE``, ``CamelCase`` or with a digit: not an everyday word."""
    inner = name.strip("_")
    return (
        "_" in inner
        or (inner.isupper() and len(inner) > 1)
        or any(c.isupper() for c in inner[1:])
        or any(c.isdigit() for c in inner)
    )


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names the symbol ``name`` (see the module docstring)."""
    if name not in text:
        return False  # (most asks: the floor asks each memory's entities of every cue)
    shaped = code_shaped(name)
    return any(shaped or _as_code(text, a, b) for a, b in _whole(text, name))


def says(text: str, word: str) -> bool:
    """Whether ``text`` holds ``word`` as a whole identifier-like word, written as code
    or not (a file's stem: ``incidents`` in "the incidents module")."""
    return any(True for _ in _whole(text, word))


def _whole(text: str, name: str) -> Iterator[tuple[int, int]]:
    """Where ``name`` occurs in ``text`` between non-identifier characters (a scan with
    :meth:`str.find`: the hook's edit path loads no :mod:`re`)."""
    size = len(name)
    at = text.find(name)
    while at >= 0:
        end = at + size
        # (a slice past either end is "", which is no identifier character)
        if (
            text[at - 1 : at] not in _IDENTIFIER_CHARS
            and text[end : end + 1] not in _IDENTIFIER_CHARS
        ):
            yield at, end
        at = text.find(name, at + 1)


def _as_code(text: str, start: int, end: int) -> bool:
    """The name at ``text[start:end]`` is written as code: in backticks (a backtick
    right before or after it), called (``(`` after it) or a member (``x.name``,
    ``name.x``: a dot between identifier characters; a full stop is not)."""
    before = text[start - 1 : start]
    after = text[end : end + 1]
    if before == "`" or after in ("`", "("):
        return True
    # (a slice past either end is "", which is no identifier character)
    if before == "." and text[max(0, start - 2) : start - 1] in _IDENTIFIER_CHARS:
        return True
    return after == "." and text[end + 1 : end + 2] in _IDENTIFIER_CHARS
