"""Whether a prompt calls for recall at all (seed 004: ``user_prompt`` → "pattern
detection decides whether memories are injected").

"continue", "thanks", "yes", "ok, go ahead" and the like carry no cue: the model
already has the context of the turn before, and recalling for them would only spend
the session's context on the previous prompt's memories again. A prompt is left without
recall when every word of it is one of :data:`ACKNOWLEDGEMENTS` and it has at most
:data:`MAX_WORDS` words; any other word (a file, a topic, a question) makes it a cue.
"""

from __future__ import annotations

MAX_WORDS = 8

#: Words of acknowledgements and go-aheads (lower case, letters only), in the languages
#: agents are most often driven in; extend with care: a word here can never be a cue.
ACKNOWLEDGEMENTS = frozenset(
    [
        "a",
        "again",
        "ahead",
        "alright",
        "all",
        "and",
        "approve",
        "approved",
        "awesome",
        "but",
        "carry",
        "cheers",
        "cool",
        "correct",
        "do",
        "done",
        "exactly",
        "excellent",
        "fine",
        "for",
        "forward",
        "go",
        "good",
        "great",
        "it",
        "just",
        "k",
        "keep",
        "kk",
        "lgtm",
        "let",
        "looks",
        "me",
        "more",
        "much",
        "nice",
        "no",
        "nope",
        "now",
        "ok",
        "okay",
        "on",
        "perfect",
        "please",
        "pls",
        "proceed",
        "right",
        "ship",
        "so",
        "sounds",
        "sure",
        "thank",
        "thanks",
        "that",
        "the",
        "then",
        "this",
        "thx",
        "ty",
        "very",
        "yeah",
        "yep",
        "yes",
        "yup",
        "you",
        "continue",
        "continuing",
        "next",
        "going",
        "resume",
        "retry",
        "try",
        "same",
        "well",
        "wonderful",
        "agreed",
        "confirm",
        "confirmed",
        "merci",
        "danke",
        "gracias",
        "oui",
        "ja",
        "si",
        "weiter",
        "vale",
        "bien",
        "d'accord",
    ]
)


def calls_for_recall(prompt: str | None) -> bool:
    """False for a blank prompt and for a short acknowledgement; True otherwise."""
    if not prompt or not prompt.strip():
        return False
    words = [w for w in _words(prompt[:400].lower()) if w]
    if not words:
        return False
    if len(words) > MAX_WORDS:
        return True
    return any(w not in ACKNOWLEDGEMENTS for w in words)


def _words(text: str) -> list[str]:
    out, current = [], []
    for ch in text:
        if ch.isalpha() or ch == "'" or ch.isdigit():
            current.append(ch)
        else:
            if current:
                out.append("".join(current).strip("'"))
            current = []
    if current:
        out.append("".join(current).strip("'"))
    return out
