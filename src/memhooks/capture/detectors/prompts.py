"""``user_prompt``: decisions, constraints and findings, in the user's own words.

Only sentences the user wrote are kept, verbatim (scrubbed), never paraphrased; a prompt
that states none (most prompts ask for work) gives no memory. Every prompt is also
remembered in the session (capped) for checkpoints and the session record.
"""

from __future__ import annotations

from ...scrubber import clean
from ...statements import sentences, statement_kind
from ..candidate import CONSTRAINT, DECISION, LEARNING, Candidate
from ..observation import MAX_PROMPTS, excerpt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..observation import Observation

#: Characters of one prompt kept in the session.
PROMPT_CHARS = 300
_RANK = (CONSTRAINT, DECISION, LEARNING)


def detect(obs: Observation) -> list[Candidate]:
    prompt = unquote(obs.event.prompt or "")
    if not prompt:
        return []
    obs.session.append("prompts", excerpt(prompt, PROMPT_CHARS), MAX_PROMPTS)
    found = [(s, k) for s in sentences(prompt) if (k := statement_kind(s))]
    if not found:
        return []
    kind = min((k for _, k in found), key=_RANK.index)
    text = clean(" ".join(s.rstrip(";；,， ") for s, _ in found))
    files = [r for f in obs.event.files if (r := obs.relative(f.path))]
    return [Candidate(kind, text, scope=obs.where.scope, files=files)]


def unquote(text: str) -> str:
    """The prompt without the JSON quotes some hosts leave around it (OpenCode)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].strip()
    return text
