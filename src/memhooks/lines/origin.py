"""Where each line a commit wrote came from in the version before it, by its text
(issue 20 item 3): the line the commit removed that holds that line's words.

A formatter moves and reshapes lines without changing what they say: isort sorts and
merges imports (requests 2a6f290: ``from urllib3.exceptions import LocationValueError``
became ``LocationValueError,`` inside another import, four hunks away), black splits a
call over lines or joins it back, clang-format re-indents. Matching a line by its place
in its hunk (``git blame --ignore-rev`` does) names the owner of whatever sat there
before; following its text names the owner of what it says.

Rule, for a line the commit wrote (a ``+`` line of its diff to the version before):

* its words (``\\w+`` runs; quotes and spacing do not count) are compared with those of
  every line the diff removed, anywhere in the file: the candidate holding most of the
  line's words wins (each word weighted by how rare it is among the removed lines, so
  ``from``/``import``/``self`` weigh little), then one holding the line's tokens as one
  run (``from .exceptions import (`` is the start of ``from .exceptions import
  (ConnectionError, …``, not a part of ``from urllib3.exceptions import …``), then one
  in the line's own hunk (black split ``monkeypatch.setenv("NO_PROXY", …)`` there into
  ``monkeypatch.setenv(`` and its arguments; a shorter ``monkeypatch.setenv(…)`` of
  another test had won: requests' ``tests/test_utils.py:227``, newcomer26), then the
  one of whose words the line holds most, then the nearest;
* it is matched when the winner holds at least half of the line's word weight, in the
  line's own hunk or as one run of tokens either way (lines merged: ``from . import
  packages`` into ``from . import packages, utils``); elsewhere, three quarters of it
  (a moved line keeps its words);
* a line whose words are all keywords and numbers (``if (``, ``} else {``, ``#endif``,
  ``) -> None:``, ``return 0;``: :data:`KEYWORDS`) says nothing of its own to follow
  across the file: it matches only in its own hunk, the nearest line holding its words
  (black split ``if (old_parsed.scheme == 'http' and …`` of requests' ``sessions.py``
  into ``if (`` and its conditions; the shortest removed line with an ``if``, four hunks
  away, had won);
* a line of no word, or whose words no removed line holds, was written afresh: it
  matches nothing (the caller falls back to what its hunk replaced, where the hunk
  :func:`rewrote` it).

The same line gets the same answer whatever else is asked with it. Work is bounded: a
line is compared only with the removed lines sharing one of its rarer words, nearest
first (:data:`NEAREST` per word).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from .blame import Hunk

_TOKEN = re.compile(r"\w+|[^\w\s]")
#: Words that say nothing of a line's own: the keywords, constants and preprocessor
#: directives of the languages most code is in (Python, the C family, JavaScript, Go,
#: Rust, shell). A line of these and numbers alone is followed in its own hunk only.
KEYWORDS = frozenset(
    "False None True and as assert async await break case catch class const continue def"
    " default defined del do done elif else endif esac export extern fi finally for from"
    " func function go goto if ifdef ifndef import in include inline int is lambda let"
    " match mut nil not null or pass pragma pub raise return self static struct switch"
    " then this throw try typedef undef undefined union unsigned var void while with"
    " yield".split()
)
#: Removed lines a line is compared with per word it holds (its rarest three), nearest first.
NEAREST = 32
#: Share of a line's word weight a removed line must hold: in its own hunk, elsewhere.
SAME_HUNK, ELSEWHERE = 0.5, 0.75


def _tokens(text: str) -> list[str]:
    """``text``'s tokens: word runs and single marks, one kind of quote."""
    return _TOKEN.findall(text.replace("'", '"'))


def _core(tokens: list[str]) -> list[str]:
    """``tokens`` without the marks around them (a trailing ``,``, a bracket)."""
    first, last = 0, len(tokens)
    while first < last and not _is_word(tokens[first]):
        first += 1
    while last > first and not _is_word(tokens[last - 1]):
        last -= 1
    return tokens[first:last]


def _is_word(token: str) -> bool:
    return token[0].isalnum() or token[0] == "_"


def _holds_run(outer: list[str], inner: list[str]) -> bool:
    """Whether ``inner`` (not empty) is a run of ``outer``."""
    n = len(inner)
    first = inner[0]
    return any(outer[i : i + n] == inner for i in range(len(outer) - n + 1) if outer[i] == first)


class _Removed:
    """The lines a diff removed, indexed by word: ``number``, ``tokens``, ``words``
    (each line's word set), ``hunk`` (its hunk's index) per removed line."""

    def __init__(self, hunks: list[Hunk]) -> None:
        self.number: list[int] = []
        self.tokens: list[list[str]] = []
        self.words: list[frozenset[str]] = []
        self.hunk: list[int] = []
        self.postings: dict[str, list[int]] = {}  # word -> removed lines (index, ascending)
        for h, hunk in enumerate(hunks):
            for offset, text in enumerate(hunk.old):
                tokens = _tokens(text)
                words = frozenset(t for t in tokens if _is_word(t))
                index = len(self.number)
                self.number.append(hunk.old_start + offset)
                self.tokens.append(tokens)
                self.words.append(words)
                self.hunk.append(h)
                for word in words:
                    self.postings.setdefault(word, []).append(index)
        size = len(self.number)
        self.weight = {w: math.log(1 + size / len(p)) for w, p in self.postings.items()}
        self.rarest = math.log(1 + size)

    def near(self, word: str, where: int) -> list[int]:
        """The removed lines holding ``word``, the :data:`NEAREST` nearest to old line
        ``where``."""
        found = self.postings.get(word, [])
        if len(found) <= NEAREST:
            return found
        at = bisect_left(self.number, where)  # removed lines are in file order
        start = max(0, min(len(found) - NEAREST, bisect_left(found, at) - NEAREST // 2))
        return found[start : start + NEAREST]


def origins(hunks: list[Hunk], lines: Iterable[int]) -> dict[int, int | None]:
    """For each of ``lines`` (line numbers of the diff's new side, 1-based), the line of
    the old side its text came from (module docstring), or None: written afresh. A line
    the diff did not touch is the same line of the old side, shifted by what came
    before it."""
    removed: _Removed | None = None
    out: dict[int, int | None] = {}
    for n in lines:
        h, shift = _hunk_of(hunks, n)
        if h is None:
            out[n] = n + shift  # untouched: the same text
            continue
        if removed is None:
            removed = _Removed(hunks)
        hunk = hunks[h]
        out[n] = _best(removed, h, _tokens(hunk.new[n - hunk.new_start]), n + shift)
    return out


def rewrote(hunk: Hunk) -> bool:
    """Whether ``hunk`` rewrote the lines it removed: a word of the lines it wrote is one
    of theirs. One that shares none removed lines and wrote others beside them — iproute2
    0b4b35e moved the JSON printer's declarations out of ``ip/ip_common.h`` and closed an
    include guard there, ``#endif /* _IP_COMMON_H_ */`` in their place — so what it
    removed is no line's past."""
    removed = {t for text in hunk.old for t in _tokens(text) if _is_word(t)}
    return any(_is_word(t) and t in removed for text in hunk.new for t in _tokens(text))


def _hunk_of(hunks: list[Hunk], n: int) -> tuple[int | None, int]:
    """The index of the hunk that wrote new line ``n`` (None: untouched), and the shift
    from new to old numbering at ``n``."""
    shift = 0
    for h, hunk in enumerate(hunks):
        if hunk.new and hunk.new_start <= n < hunk.new_start + len(hunk.new):
            return h, hunk.old_start - hunk.new_start
        # a hunk that wrote nothing sits after its new_start; one that did, at it
        if (hunk.new_start if hunk.new else hunk.new_start + 1) > n:
            break
        shift += len(hunk.old) - len(hunk.new)
    return None, shift


def _best(removed: _Removed, h: int, tokens: list[str], where: int) -> int | None:
    """The removed line ``tokens`` (of a line of hunk ``h``, near old line ``where``)
    came from, or None."""
    words = {t for t in tokens if _is_word(t)}
    if not words:
        return None
    weight = removed.weight
    # a word no removed line holds weighs as the rarest: the line says something new
    total = sum(weight.get(w, removed.rarest) for w in words)
    rare = sorted((w for w in words if w in weight), key=lambda w: -weight[w])[:3]
    candidates = {i for w in rare for i in removed.near(w, where)}
    if not candidates or total <= 0:
        return None
    core = _core(tokens)
    plain = all(w in KEYWORDS or w.isdigit() for w in words)
    best: tuple[float, bool, float, bool, int] | None = None
    chosen = None
    for i in candidates:
        if plain and removed.hunk[i] != h:
            continue  # nothing of its own to follow elsewhere
        theirs = removed.words[i]
        shared = sum(weight[w] for w in words & theirs)
        mine = shared / total
        if mine < SAME_HUNK:
            continue
        run = _holds_run(removed.tokens[i], core) or _holds_run(
            tokens, _core(removed.tokens[i]) or ["\0"]
        )
        if mine < ELSEWHERE and not run and removed.hunk[i] != h:
            continue
        whole = sum(weight[w] for w in theirs)
        key = (
            round(mine, 9), run, removed.hunk[i] == h,
            round(shared / whole, 9) if whole and not plain else 0.0,
            -abs(removed.number[i] - where),
        )  # fmt: skip
        if best is None or key > best:
            best, chosen = key, removed.number[i]
    return chosen
