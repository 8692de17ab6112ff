"""Near-duplicate detection: a documented similarity measure that fits in one table row.

Measure: the **Jaccard similarity of the word-bigram sets** of the normalized texts:
lower case; timestamps, durations (``0.84s``), hex ids of 8+ characters and numbers of
5+ digits folded to ``#``; words are runs of letters/digits, and each CJK character is a
word of its own. It is estimated with a **bottom-128 sketch**: each text keeps the 128
smallest CRC-32 values of its bigrams; two sketches estimate ``|A∩B| / |A∪B|`` from the
128 smallest values of their union. A text of up to ~128 words has at most 128 bigrams,
so its sketch *is* its set and the similarity is exact; beyond that the standard error
is ≤ 0.045 (0.032 at 0.85).

Threshold: a candidate whose similarity to a recent capture of the same project is
**above** :data:`THRESHOLD` is a duplicate. Seed 004's 0.85 was kept after measuring on
hand-labelled pairs (``tests/capture/data/near_duplicates.json``): it is the lowest
threshold that merged no pair saying something new (a changed port, version, file or
word — 0.8 merged 2, 0.7 merged 4), and it still catches rewordings, punctuation, case
and changed timings. Character 5-grams and word unigrams were measured too and merged
2–9 distinct pairs at their best thresholds (``docs/capture.md``). Numbers under 5
digits are not folded on purpose: ports, versions and timeouts are what a configuration
change is about.
"""

from __future__ import annotations

import binascii
import re
from itertools import pairwise

THRESHOLD = 0.85
SKETCH = 128

_FOLD = re.compile(
    r"\d{4}-\d\d-\d\d[T ][\d:.]+z?|\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds|min)\b"
    r"|\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b|\d{5,}"
)
_WORD = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[^\W\u3400-\u9fff\uf900-\ufaff]+")


def words(text: str) -> list[str]:
    """The normalized words of ``text`` (see the module docstring)."""
    return _WORD.findall(_FOLD.sub("#", text.lower()))


def shingles(text: str) -> set[str]:
    """Word bigrams (the single word, or ``""``, for shorter texts)."""
    found = words(text)
    if len(found) < 2:
        return {" ".join(found)}
    return {f"{a} {b}" for a, b in pairwise(found)}


def sketch(text: str) -> list[int]:
    """The sorted bottom-:data:`SKETCH` CRC-32 values of ``text``'s shingles."""
    return sorted({binascii.crc32(s.encode("utf-8")) for s in shingles(text)})[:SKETCH]


def similarity(a: list[int], b: list[int]) -> float:
    """Estimated Jaccard similarity (0.0–1.0) of the texts two sketches were made from."""
    if not a or not b:
        return 0.0
    union = sorted(set(a) | set(b))[:SKETCH]
    both = set(a) & set(b)
    return sum(1 for h in union if h in both) / len(union)


def jaccard(a: str, b: str) -> float:
    """The exact similarity of two texts (what :func:`similarity` estimates)."""
    x, y = shingles(a), shingles(b)
    return len(x & y) / len(x | y) if x | y else 0.0


def digest(text: str) -> str:
    """A short fingerprint of the normalized words, for exact duplicates of any age."""
    norm = " ".join(words(text)).encode("utf-8")
    return f"{binascii.crc32(norm):08x}{len(norm):x}"
