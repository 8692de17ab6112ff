"""Big inputs stay bounded (issue 14 item 4): a 1 MB prompt made recall superlinear
(50 KB 0.6 s, 100 KB 2.2 s). Recall reads at most ``MAX_PROMPT_CHARS`` of a prompt, and
the store's search words are found in one pass that stops at ``MAX_TERMS``; neither
changes what an ordinary prompt recalls."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks.protocol.text import MAX_PROMPT_CHARS, bound_prompt
from memhooks.recall.filenames import named_files
from memhooks.store.search import MAX_TERMS, STOPWORDS, words


def _words_as_before(text: str) -> list[str]:
    """The store's words before the one-pass rewrite (kept here as the specification)."""
    found: list[str] = []
    current: list[str] = []
    for ch in text + " ":
        if ch.isalnum() or (not ch.isascii() and ch.isprintable() and not ch.isspace()):
            current.append(ch)
            continue
        if current:
            word = "".join(current).lower()
            current = []
            if any(c.isalnum() for c in word) and word not in found:
                found.append(word)
    kept = [word for word in found if word not in STOPWORDS] or found
    return kept[:MAX_TERMS]


VOCABULARY = sorted(STOPWORDS)[:8] + [f"w{n}" for n in range(60)] + ["É", "-", "(x)"]


@settings(derandomize=True, database=None, deadline=None, max_examples=300)
@given(st.lists(st.sampled_from(VOCABULARY), max_size=120))
def test_search_words_are_what_they_were(parts: list[str]) -> None:
    text = " ".join(parts)
    assert words(text) == _words_as_before(text)


def test_a_megabyte_prompt_is_read_as_its_first_part() -> None:
    head = "make login sessions last longer in auth.py"
    prompt = head + " filler" * 200_000  # ~1.4 MB
    cut = bound_prompt(prompt)
    assert len(cut) <= MAX_PROMPT_CHARS and cut.startswith(head)
    assert not cut.endswith("fille")  # never half a word
    assert words(prompt) == words(cut) == _words_as_before(head + " filler")
    assert named_files(prompt, ["auth.py", "other.py"]) == named_files(head, ["auth.py", "other.py"])


def test_bound_prompt_leaves_ordinary_prompts_alone() -> None:
    assert bound_prompt("fix the login bug") == "fix the login bug"
    assert bound_prompt("abc def", 5) == "abc "
    assert bound_prompt("abcdefgh", 5) == "abcde"  # one word longer than the bound
    assert bound_prompt("abc  def", 4) == "abc "
