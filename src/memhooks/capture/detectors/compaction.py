"""``pre_compact`` / ``post_compact``: a checkpoint, and the host's own summary when it sends one.

Before compaction the session so far (prompts, files, fixes, open failures, last reply
— all as the host reported them) is saved as a ``checkpoint`` memory, so the next
prompt in this folder can recall what the compacted conversation knew. After
compaction, a summary is saved only when the host itself sent one (Claude Code's
``compact_summary``, a generic ``summary``); a summary is never made up.
"""

from __future__ import annotations

from ..candidate import CHECKPOINT, Candidate
from ..observation import excerpt
from .sessions import report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..observation import Observation

SUMMARY_CHARS = 2000


def before(obs: Observation) -> list[Candidate]:
    session = obs.session
    if obs.event.summary:
        session.data["summary"] = excerpt(obs.event.summary, SUMMARY_CHARS)
    lines, signal = report(obs.ledger, session)
    session.data["checkpoint"] = obs.now
    if not lines:
        return []
    trigger = f" ({obs.event.reason})" if obs.event.reason else ""
    where = session.scope or "the project root"
    head = f"Checkpoint before compaction{trigger} of a {session.host} session in {where}."
    return [
        Candidate(
            CHECKPOINT,
            "\n".join([head, *lines]),
            scope=session.scope,
            files=session.items("files")[:20],
            signal=signal,
            key="\n".join(lines),
            of=session,
        )
    ]


def after(obs: Observation) -> list[Candidate]:
    summary = (obs.event.summary or "").strip()
    obs.session.data["compacted"] = obs.now
    if not summary:
        return []
    text = excerpt(summary, SUMMARY_CHARS)
    obs.session.data["summary"] = text
    where = obs.session.scope or "the project root"
    return [
        Candidate(
            CHECKPOINT,
            f"Compaction summary by {obs.event.host} for the session in {where}:\n{text}",
            scope=obs.session.scope,
            files=obs.session.items("files")[:20],
            signal=len(text),
            key=text,
            of=obs.session,
        )
    ]
