"""Statements worth keeping: which sentences state a decision, a rule or a finding.

Shared by capture (a prompt's sentences, :mod:`memhooks.capture.detectors.prompts`) and
the transcript importer (:mod:`memhooks.transcripts.render`). Nothing is typed from
keywords alone: callers pick sentences inside structured signals. English and Chinese
(seed 004 is written in Chinese). Tested against labelled prompts in
``tests/capture/data/prompts*.json``.

Every pattern compiles on first use (:class:`memhooks.lazy.Lazy`): a process pays only
for the ones it uses (compiling all of them costs about 5 ms).
"""

from __future__ import annotations

from .lazy import Lazy

#: A statement of what was chosen ("we decided…", "let's use…", "use X, not Y", "from now on…").
DECISION = Lazy(
    r"(?ix)"
    r"\bwe(?:'ve|\s+have)?\s+(?:decided|agreed|chose|settled\s+on|went\s+with|standardi[sz]ed\s+on)\b"
    r"|\b(?:we|i)\s+(?:prefer|want\s+to\s+keep)\b"
    r"|\blet'?s\s+(?:use|go\s+with|stick\s+with|keep|standardi[sz]e\s+on|switch\s+to|move\s+to)\b"
    r"|\b(?:decision|convention|policy|rule|guideline|standard)s?\s*:"
    r"|\b(?:from\s+now\s+on|going\s+forward|from\s+here\s+on)\b"
    r"|^\s*(?:please\s+)?(?:use|prefer|keep|stick\s+with|switch\s+to|stay\s+on|pin|standardi[sz]e\s+on)\b"
    r"[^.;!?]*?(?:,\s*not\b|\binstead\s+of\b|\brather\s+than\b|\bover\b|\bbecause\b|\bsince\b"
    r"|\beverywhere\b|\bthroughout\b|\bfor\s+all\b|\bacross\s+the\b)"
    r"|我们决定|决定(?:用|使用|采用|改用)|以后(?:都|一律|统一)|统一(?:用|使用|采用)|改用"
)
#: A rule the user sets ("never…", "always…", "don't…", "must not…").
CONSTRAINT = Lazy(
    r"(?ix)"
    r"^\s*(?:(?:and|also|but|so|please|remember|note)[,:]?\s+)*"
    r"(?:never|always|don'?t|do\s+not|avoid|must|make\s+sure(?:\s+to)?|only\s+ever|under\s+no\s+circumstances)\b"
    r"|\b(?:must|should|may)\s+(?:never|always|not)\b"
    r"|\b(?:never|always)\s+(?:use|call|commit|push|run|edit|touch|modify|change|delete|write|store|log"
    r"|import|add|put|rely|deploy|merge|skip|mock|return|bump|hardcode|keep|go|check|pin|test|ship)\b"
    r"|\b(?:is|are|isn't|aren't)\s+(?:not\s+)?(?:allowed|forbidden|required|mandatory)\b|\bnot\s+allowed\s+to\b"
    r"|^\s*(?:every|all|each|no)\b[^.;!?]*\b(?:must|needs?|should|has\s+to|have\s+to|may\s+not|cannot|can't)\b"
    r"|^\s*only\b[^.;!?]*\b(?:may|can|should|must)\b"
    r"|^\s*remember\s+that\b"
    r"|不要|禁止|永远不要|千万别|必须|总是|一定要|不允许|不准"
)
#: A reason or finding stated as fact ("because…", "turns out…", "the root cause was…").
REASON = Lazy(
    r"(?ix)\bbecause\b|\bthe\s+reason\s+(?:is|was)\b|\broot\s+cause\b"
    r"|\b(?:it\s+)?turn(?:s|ed)\s+out\b|\bwe\s+(?:found|learned|discovered)\s+that\b"
    r"|\bthe\s+(?:problem|issue|bug)\s+(?:is|was)\s+that\b|\bTIL\b|\bwhich\s+is\s+why\b"
    r"|因为|由于|原因是|原来"
)
#: Imperatives that ask for work: a reason attached to one ("fix X because Y") is a task.
TASK = Lazy(
    r"(?ix)^\s*(?:because|since)\b[^,]*,\s*(?:fix|add|remove|delete|update|change|make|write|run|move)\b"
    r"|^\s*(?:(?:and|also|now|then|so|ok|okay|please)[,:]?\s+)*(?:can|could|would)\s+you\b"
    r"|^\s*(?:(?:and|also|now|then|so|ok|okay|please)[,:]?\s+)*"
    r"(?:fix|add|implement|create|make|refactor|write|update|change|remove|delete|run|rename|move"
    r"|investigate|find|check|look|explain|help|debug|review|test|build|install|set\s+up|try"
    r"|continue|finish|tell|show|document|generate|clean|bump|upgrade|migrate)\b"
)
#: Idioms that look like rules but are not ("never mind", "don't forget to…", "always the same").
IDIOM = Lazy(
    r"(?ix)^\s*(?:never\s+mind|don'?t\s+forget|do\s+not\s+forget|always\s+(?:the\s+same|this|that)\b)"
    r"|^\s*make\s+sure\b[^.;!?]*\band\s+then\b|^\s*you\s+(?:should|must)\s+(?:never|always|not)\s+(?:see|get|have)\b"
)
#: Words that make a statement about the current task only ("for now", "this time").
TRANSIENT = Lazy(
    r"(?ix)\b(?:for\s+now|this\s+time|temporarily|right\s+now|for\s+the\s+moment|today"
    r"|just\s+for\s+(?:this|testing|the\s+demo)|in\s+this\s+(?:pr|branch|change|commit))\b|暂时|这次|临时"
)
QUESTION = Lazy(
    r"(?ix)\?\s*$|^\s*(?:why|how|what|which|who|is|are|does|did|can|could|would|should)\s"
)

_SENTENCE_END = Lazy(r"(?<=[.!?;。！？；])\s+|(?<=[。！？；])|\n+")
#: A clause that finishes the one before it ("Never use X; use Y instead").
_CONTINUES = Lazy(r"(?i)^(?:use|prefer|keep|instead|rather|but\s+use|改用|用)\b")


def sentences(text: str) -> list[str]:
    """``text`` split into sentences (``. ! ? ;`` then space, Chinese stops, line breaks);
    a clause after ``;`` that starts with "use", "prefer", "instead"… stays with the
    one before it."""
    out: list[str] = []
    for part in _SENTENCE_END.split(text):
        part = part.strip() if part else ""
        if not part:
            continue
        if out and out[-1].endswith((";", "；")) and _CONTINUES.match(part):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


def statement_kind(sentence: str) -> str | None:
    """``decision``, ``constraint`` or ``learning`` when the sentence states one, else None.

    Questions and statements about the current task only ("for now") never count. A
    reason attached to a request for work ("fix X because Y")
    does not count either: the user is asking, not deciding.
    """
    if QUESTION.search(sentence) or TRANSIENT.search(sentence) or IDIOM.search(sentence):
        return None
    if CONSTRAINT.search(sentence):
        return "constraint"
    if DECISION.search(sentence):
        return "decision"
    if REASON.search(sentence) and not TASK.search(sentence):
        return "learning"
    return None
