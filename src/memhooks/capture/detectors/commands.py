"""``post_command``: a failure, then a later success of the same command → problem–solution.

A failing command is kept with the session's capture record (per project and command
key: :mod:`memhooks.session.capture_record`) with an excerpt of what went wrong. Edits and other successful commands of the session
become its steps. When the same command — or a broader run of it, e.g. ``pytest`` after
``pytest tests/test_x.py`` — later succeeds in the same session, the failure, the steps
and the success make one memory. Listing/reading commands are ignored, and so is a
command the host reports neither an outcome nor any output for (:func:`outcome`).
"""

from __future__ import annotations

import re

from ...session import capture_record
from ..candidate import PROBLEM_SOLUTION, Candidate
from ..observation import MAX_FIXES, MAX_STEPS, excerpt, folder_of
from ..patterns import ERROR_LINE, FAILED_COUNT, SUCCESS_LINE, TRIVIAL_COMMAND

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..observation import Observation

#: A failure older than this (seconds) is no longer matched by a success.
FAILURE_TTL = 6 * 3600
COMMAND_CHARS = 200
EXCERPT_CHARS = 400
_CD = re.compile(r"""^\s*cd\s+(?:"[^"]*"|'[^']*'|\S+)\s*(?:&&|;)\s*""")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")
_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\|)\s*")


def detect(obs: Observation) -> list[Candidate]:
    obs.note_changes(obs.changed_files())
    command = (obs.event.command or "").strip()
    if not command:
        return []
    key = command_key(command)
    if not key or TRIVIAL_COMMAND.search(strip_prefix(command)):
        return []
    result = outcome(obs)
    if result == "failed":
        _remember_failure(obs, key, command)
        return []
    if result != "passed":
        return []
    found: list[Candidate] = []
    for failure in capture_record.failures(obs.ledger, obs.session):
        if obs.now - failure.at > FAILURE_TTL:
            continue
        if same_command(key, failure.key):
            found.append(_solved(obs, failure, command))
            capture_record.drop_failure(obs.ledger, obs.session, failure.key)
        else:
            step = f"ran `{excerpt(command, COMMAND_CHARS)}`"
            if step not in failure.steps:
                failure.steps = (failure.steps + [step])[-MAX_STEPS:]
                capture_record.save_failure(obs.ledger, obs.session, failure)
    return found


def outcome(obs: Observation) -> str | None:
    """``failed``, ``passed`` or None (the host sent neither an outcome nor any output).

    The host's exit code or success flag decides when it sends one. Otherwise output
    with an error line (:data:`~memhooks.capture.patterns.ERROR_LINE`, or a failure
    count) is a failure, and output without one a success: hosts such as Claude Code
    report a failing command as its own event (``PostToolUseFailure``) and a passing one
    with its output only.
    """
    event = obs.event
    if event.exit_code is not None:
        return "passed" if event.exit_code == 0 else "failed"
    if event.success is not None:
        return "passed" if event.success else "failed"
    text = f"{event.output or ''}\n{event.error or ''}"
    if not text.strip():
        return None
    for line in text.splitlines():
        if FAILED_COUNT.search(line) or (ERROR_LINE.search(line) and not SUCCESS_LINE.search(line)):
            return "failed"
    return "passed"


def error_excerpt(output: str) -> str:
    """The lines that say what went wrong (at most 4), else the last two lines."""
    lines = [x.strip() for x in output.splitlines() if x.strip()]
    picked: list[str] = []
    for line in lines:
        if ERROR_LINE.search(line) and line not in picked:
            picked.append(line[:200])
        if len(picked) == 4:
            break
    if not picked:
        picked = [x[:200] for x in lines[-2:]]
    return excerpt("\n".join(picked), EXCERPT_CHARS) if picked else ""


def strip_prefix(command: str) -> str:
    """The command without leading ``cd DIR &&`` and ``VAR=value`` assignments."""
    text = command.strip()
    while match := _CD.match(text):
        text = text[match.end() :]
    words = text.split()
    while words and _ENV.match(words[0]):
        words.pop(0)
    return " ".join(words)


def command_key(command: str) -> str:
    """What identifies "the same command": program and arguments, flags dropped, first
    part of a pipeline or ``&&`` chain only. ``pytest -q tests/a.py`` → ``pytest tests/a.py``."""
    first = _SPLIT.split(strip_prefix(command), maxsplit=1)[0]
    words = [w for w in first.split() if not w.startswith("-")]
    return " ".join(words[:8])


def same_command(passed: str, failed: str) -> bool:
    """The success re-ran the failure: same key, or a broader run of the same program."""
    if passed == failed:
        return True
    a, b = passed.split(), failed.split()
    return len(a) >= 1 and a == b[: len(a)] and a[0] == b[0]


def _remember_failure(obs: Observation, key: str, command: str) -> None:
    event = obs.event
    text = error_excerpt(f"{event.output or ''}\n{event.error or ''}")
    if not text and event.exit_code not in (None, 0):
        text = f"exit code {event.exit_code}"
    known = {f.key: f for f in capture_record.failures(obs.ledger, obs.session)}
    previous = known.get(key)
    failure = capture_record.Failure(
        key,
        excerpt(command, COMMAND_CHARS),
        text,
        previous.at if previous else obs.now,
        previous.steps if previous else [],
        obs.where.scope,
    )
    capture_record.save_failure(obs.ledger, obs.session, failure)


def _solved(obs: Observation, failure: capture_record.Failure, command: str) -> Candidate:
    files = [s[len("edited ") :] for s in failure.steps if s.startswith("edited ")]
    problem = f"`{failure.command}` failed"
    problem += f": {failure.excerpt}" if failure.excerpt else "."
    if failure.steps:
        solution = "Fixed by: " + "; ".join(failure.steps) + "."
    else:
        solution = "Nothing was changed in between (flaky, or fixed outside the agent)."
    passed = f"Then `{excerpt(command, COMMAND_CHARS)}` passed."
    text = f"{problem}\n{solution} {passed}"
    fix = f"`{failure.command}`" + (f" ({'; '.join(failure.steps[:3])})" if failure.steps else "")
    obs.session.append("fixes", fix, MAX_FIXES)
    signal = len(failure.excerpt) + sum(len(s) for s in failure.steps)
    return Candidate(
        PROBLEM_SOLUTION,
        text,
        scope=folder_of(files, failure.scope),
        files=files,
        signal=signal,
    )
