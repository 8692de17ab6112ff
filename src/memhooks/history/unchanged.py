"""Whether a commit's message says it changes nothing the code does — a refactor in its
own words, whatever its subject says (:func:`memhooks.history.signal.reshapes`: its
lines' previous owner is told before it, issue 20 item 3). iproute2's 90351722 "ss:
Replace printf() calls for "main" output by calls to helper" owns 162 lines of
``misc/ss.c`` and says "No functional differences here, output not affected"."""

from __future__ import annotations

import re

# the words of a sentence that says the commit changes nothing the code does
_UNCHANGED = re.compile(
    r"\bno (?:intended )?(?:functional(?:ity)?|behaviou?r(?:al)?|logic(?:al)?|semantic"
    r"|user[- ]visible) (?:change|difference)s?\b"
    r"|\bno changes? (?:in|of|to) (?:the )?(?:functionality|behaviou?r|logic|semantics|output)\b"
    r"|\bnon-?functional change\b|\bpurely mechanical(?:ly)?\b"
    r"|\bcode (?:move|movement)s? only\b|\bonly (?:moves|moving|a move of) code\b"
    r"|\bjust (?:another |a |some )?(?:refactor\w*|clean-? ?ups?|code move\w*)\b"
    r"|\b(?:purely|basically|merely) (?:a )?cosmetic\b"
    r"|\b(?:this|it) is (?:just |only )?a cosmetic change\b|^cosmetic changes?(?: only)?\W*$",
    re.IGNORECASE,
)
# a sentence that says so of a part, on a condition, in the negative or as a question does
# not say it of the commit: "When no commit-graph exists, there is no change in behavior"
# (git 04bc8d1ecc30), "For most users there will be no change", "… with the current
# implementation", "not just a cosmetic change", "No functional change otherwise" — "but"
# except where what follows reshapes too ("…, but refactors the print-out": git 40ef015a2711)
_EXCEPT = re.compile(
    r"\b(?:otherwise|except|apart from|besides|other than|beyond|if|when|whenever|unless"
    r"|but(?! (?:just |only |merely |simply )?(?:refactor|mov|renam|reorder|clean|tid|split"
    r"|simplif|restructur|reorganiz)\w*)"
    r"|until|as long as|for most|most users|with the current|mostly|largely|mainly|partly"
    r"|not (?:just|only|merely|purely|simply|entirely|completely|a|an)|(?:is|are|was|were)n't)\b"
    r"|\?$",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
# LLVM's tag in capitals, in square brackets ("[NFC]") or ending a line ("Tidy up. NFC",
# "NFCI."); "NFC" elsewhere is as often Unicode's normalization form
_NFC = re.compile(r"\[NFCI?\]|(?:^|[.:;] )[ \t]*NFCI?\.?[ \t]*$", re.MULTILINE)


def tagged(text: str) -> bool:
    """Whether ``text`` (a subject or a body) carries LLVM's ``[NFC]``/``NFCI`` tag
    (llvm.org/docs/DeveloperPolicy.html, "Commit messages")."""
    return bool(_NFC.search(text))


def says_unchanged(body: str) -> bool:
    """Whether a message ``body`` says its commit changes nothing the code does, in a
    sentence that excepts nothing: "No functional change(s) intended", "No functional
    differences here", "Code move only", "Just another refactoring", "basically a
    cosmetic change" (iproute2's words: about 20 of ~7,000 messages, no decision among them),
    LLVM's ``[NFC]`` (llvm.org/docs/DeveloperPolicy.html) — not "No functional change
    otherwise", "…, but the timeout is now 4 s", "If 0 is given, there is no functional
    change" (:data:`_EXCEPT`): a reason left untold is better than a stale one told."""
    if tagged(body):
        return True
    return any(
        _UNCHANGED.search(sentence) and not _EXCEPT.search(sentence)
        for sentence in _SENTENCE_END.split(" ".join(body.split()))
    )
