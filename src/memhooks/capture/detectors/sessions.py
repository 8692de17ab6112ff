"""``session_start``, ``stop``, ``session_end``: the session record.

``stop`` keeps the agent's last reply in the session (scrubbed, capped). ``session_end``
writes one record of the session from what the host reported — the prompts, the files
changed, the failures fixed and still open, the last reply — and nothing else: no
summary is invented. Hosts that never send an end (Codex, Cursor, Windsurf) get theirs
when the session has been idle for :data:`IDLE_S`: at the next ``session_start`` in the
same project, or at ``memhooks capture process``.
"""

from __future__ import annotations

from ...session import capture_record
from ..candidate import SESSION, Candidate
from ..observation import excerpt
from .prompts import unquote

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from ...session.capture_record import CaptureRecord
    from ..observation import Observation

#: Seconds without events after which a session without an end is recorded.
IDLE_S = 30 * 60
RESPONSE_CHARS = 600
#: A shorter final reply ("Done.", "OK") is an acknowledgement, not an outcome.
MIN_REPLY = 40
#: Most idle sessions one ``session_start`` records (the rest wait for ``capture process``).
MAX_IDLE = 3


def start(obs: Observation) -> list[Candidate]:
    """Record sessions of this project that went idle without an end."""
    found = []
    for other in capture_record.idle(obs.ledger, obs.now - IDLE_S, obs.project, MAX_IDLE + 1):
        if other.key == obs.session.key:
            continue
        candidate = close(obs.ledger, other, obs.now, "idle")
        other.save(obs.ledger)
        if candidate is not None:
            found.append(candidate)
        if len(found) == MAX_IDLE:
            break
    return found


def stop(obs: Observation) -> list[Candidate]:
    event = obs.event
    if event.prompt and not obs.session.items("prompts"):
        obs.session.append("prompts", excerpt(unquote(event.prompt), 300), 20)
    if event.response and event.response.strip():
        reply = excerpt(event.response, RESPONSE_CHARS)
        # "Done." after a real answer must not replace it: keep the last substantive one.
        if len(reply) >= MIN_REPLY or not obs.session.data.get("response"):
            obs.session.data["response"] = reply
    return []


def end(obs: Observation) -> list[Candidate]:
    if obs.session.recorded is not None:
        return []
    candidate = close(obs.ledger, obs.session, obs.now, obs.event.reason or "ended")
    return [] if candidate is None else [candidate]


def close(
    ledger: sqlite3.Connection, session: CaptureRecord, now: float, reason: str
) -> Candidate | None:
    """Mark ``session`` recorded; its record, or None when the host reported no outcome.
    ``ledger``: the state file's connection, inside its write."""
    session.recorded = now
    lines, signal = report(ledger, session)
    if not lines:
        return None
    minutes = max(0, round((session.updated - session.started) / 60))
    where = session.scope or "the project root"
    head = f"Session of {session.host} in {where} ended ({reason}) after {minutes} min."
    return Candidate(
        SESSION,
        "\n".join([head, *lines]),
        scope=session.scope,
        files=session.items("files")[:20],
        signal=signal,
        host=session.host,
        session=session.session,
        key="\n".join(lines),
        of=session,
    )


def report(ledger: sqlite3.Connection, session: CaptureRecord) -> tuple[list[str], int]:
    """The lines of a checkpoint or session record, and how many characters of them the
    host supplied. Empty unless the host reported an *outcome* — a reply of at least
    :data:`MIN_REPLY` characters, a fix, a failure still open, or its own summary: the
    prompts and the list of files changed alone say nothing version control does not."""
    response = session.data.get("response")
    summary = session.data.get("summary")
    open_failures = capture_record.failures(ledger, session)
    has_reply = isinstance(response, str) and len(response) >= MIN_REPLY
    if not (has_reply or session.items("fixes") or open_failures or summary):
        return [], 0
    lines: list[str] = []
    signal = 0
    prompts = session.items("prompts")
    if prompts:
        lines.append("Asked: " + "; ".join(f'"{p}"' for p in prompts[-8:]))
        signal += sum(len(p) for p in prompts[-8:])
    files = session.items("files")
    if files:
        shown = files[-12:]
        more = f" (+{len(files) - len(shown)} more)" if len(files) > len(shown) else ""
        lines.append("Changed: " + ", ".join(shown) + more)
        signal += sum(len(f) for f in shown)
    fixes = session.items("fixes")
    if fixes:
        lines.append("Fixed: " + "; ".join(fixes))
        signal += sum(len(f) for f in fixes)
    if open_failures:
        lines.append(
            "Still failing: "
            + "; ".join(
                f"`{f.command}`" + (f" — {f.excerpt.splitlines()[0]}" if f.excerpt else "")
                for f in open_failures[-3:]
            )
        )
        signal += sum(len(f.excerpt) for f in open_failures[-3:])
    if isinstance(summary, str) and summary:
        lines.append(f"Host summary: {summary}")
        signal += len(summary)
    if isinstance(response, str) and response:
        lines.append(f'Last reply: "{response}"')
        signal += len(response)
    return lines, signal
