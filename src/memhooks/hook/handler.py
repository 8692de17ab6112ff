"""One hook payload in, one host-valid response out: recall at prompt time, maintenance after edits.

Dispatch on the normalized event (``memhooks.agents``):

* ``session_start`` / ``user_prompt`` (Hermes ``pre_llm_call``, Gemini ``BeforeAgent``,
  OpenCode ``chat.message`` ...), on an event whose output the host really shows the
  model (:mod:`memhooks.hook.output`): bounded recall for the folder the host names,
  with its active files and prompt, rendered in that host's shape;
* an event that wrote, deleted or renamed files: hook-file maintenance
  (``memhooks.maintain.events.maintain``);
* anything else: the host's no-op.

Then, only if the user turned capture on (``memhooks capture on``), the event goes to
:func:`memhooks.capture.observe` within the time left (:func:`capture`). Loading hooks
never writes a memory and never runs a command. Every failure becomes the
host's no-op plus a one-line note for stderr (:class:`Reply`); nothing here prints.
"""

from __future__ import annotations

import json
import os
import time

from ..agents.base import POST_COMMAND, POST_EDIT, POST_TOOL, READ, SESSION_START, USER_PROMPT
from ..errors import MemhooksError
from . import output, scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..agents.base import NormalizedEvent

#: Largest payload read from stdin (Hermes sends the whole conversation history).
MAX_PAYLOAD = 16 * 1024 * 1024
#: Characters of context when ``MEMHOOKS_MAX_CHARS`` is unset (before the host's cap).
DEFAULT_BUDGET = 8000
#: Time kept back from recall for rendering and writing the response.
MARGIN_S = 0.25
#: Least time capture needs to start; with less left it is skipped.
CAPTURE_MIN_S = 0.1


class Reply:
    """``stdout``: the exact response for the host (may be empty); ``note``: one line for
    stderr, or None; ``changed``: hook files maintenance rewrote."""

    __slots__ = ("changed", "note", "stdout")

    def __init__(
        self, stdout: str, note: str | None = None, changed: list[str] | None = None
    ) -> None:
        self.stdout = stdout
        self.note = note
        self.changed = changed or []

    def __repr__(self) -> str:
        return f"Reply(stdout={self.stdout!r}, note={self.note!r})"


def parse(
    raw: bytes | str, agent: str | None = None, native_event: str | None = None
) -> NormalizedEvent:
    """Decode stdin and normalize it. Raises PayloadError for a payload that is not
    JSON or too large, UsageError for an unknown ``agent``."""
    from ..agents.registry import normalize

    if len(raw) > MAX_PAYLOAD:
        raise PayloadError(f"the payload on stdin is larger than {MAX_PAYLOAD} bytes")
    try:
        payload = json.loads(raw) if raw.strip() else None
    except json.JSONDecodeError as exc:
        raise PayloadError(
            f"the payload on stdin is not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except UnicodeError:
        raise PayloadError("the payload on stdin is not UTF-8 JSON") from None
    except RecursionError:
        raise PayloadError("the payload on stdin is nested too deeply to read") from None
    return normalize(payload, agent, native_event)


class PayloadError(ValueError):
    """What is wrong with the bytes a host sent on stdin (the message says it)."""


def respond(
    event: NormalizedEvent,
    roles: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    time_s: float = 3.0,
) -> Reply:
    """The response to ``event`` within ``time_s`` seconds, then opt-in capture of what
    it teaches (:func:`capture`). Raises on unexpected failures (the caller turns them
    into the no-op)."""
    started = time.monotonic()
    env = os.environ if env is None else env
    reply = _response(event, roles, env, time_s)
    note = capture(event, env, time_s - (time.monotonic() - started))
    if note:
        reply.note = f"{reply.note}; {note}" if reply.note else note
    return reply


def _response(
    event: NormalizedEvent, roles: Iterable[str], env: Mapping[str, str], time_s: float
) -> Reply:
    native = event.native_event
    noop = output.noop(event.host, native)
    if not isinstance(event.raw, dict):
        what = (
            "empty (or null)"
            if event.raw is None
            else f"JSON but not an object ({type(event.raw).__name__})"
        )
        return Reply(
            noop,
            f"the payload on stdin is {what}; the agent must send its hook event as one JSON object",
        )
    if event.event in (SESSION_START, USER_PROMPT):
        if native is None or not output.can_inject(event.host, native):
            return Reply(noop)
        text, note = recall_context(event, scope.roles(roles, event.raw, env), env, time_s)
        return Reply(output.render(event.host, native, text) if text else noop, note)
    if changes_files(event):
        changed, note = maintain(event, env)
        return Reply(noop, note, changed)
    if event.host == "unknown":
        return Reply(noop, "payload not recognised as any agent's hook; pass --agent NAME")
    return Reply(noop)


def capture(event: NormalizedEvent, env: Mapping[str, str], time_s: float) -> str | None:
    """Opt-in capture (:func:`memhooks.capture.observe`), after the response is decided:
    a no-op unless the user turned capture on; bounded by the ``time_s`` seconds left;
    fail-open (None, or a note for stderr)."""
    if event.event is None or time_s - MARGIN_S < CAPTURE_MIN_S:
        return None
    try:
        from ..capture import settings

        path = settings.config_path(env)
        if not settings.anything_on(settings.load(path)):
            return None  # off everywhere (the default): the observer is not even imported
        from ..capture.observer import observe

        observe(
            event,
            store_path=env.get("MEMHOOKS_STORE") or None,
            cwd=scope.working_dir(event, env),
            timeout_s=time_s - MARGIN_S,
            settings_path=path,
        )
    except Exception as exc:  # noqa: BLE001  capture must never break the agent
        return f"capture failed: {describe(exc)}"
    return None


def handle(
    raw: bytes | str,
    *,
    agent: str | None = None,
    native_event: str | None = None,
    roles: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    time_s: float = 3.0,
) -> Reply:
    """:func:`parse` then :func:`respond`; any failure gives the host's no-op and a note."""
    from .output import noop

    fallback = noop(agent, native_event) if agent else ""
    try:
        event = parse(raw, agent, native_event)
        fallback = noop(event.host, event.native_event)
        return respond(event, roles, env, time_s)
    except Exception as exc:  # noqa: BLE001  fail open: the agent must go on whatever happened here
        return Reply(fallback, describe(exc))


def describe(exc: BaseException) -> str:
    """One line naming what failed (a diagnostic's code when there is one)."""
    diagnostic = getattr(exc, "diagnostic", None)
    if diagnostic is not None:
        text = f"{diagnostic.code} {diagnostic.message} ({diagnostic.path})"
    elif isinstance(exc, PayloadError):
        text = f"{exc}; the agent must send its hook event as one JSON object"
    elif isinstance(exc, MemhooksError):
        text = str(exc)  # our own errors say what is wrong and what to do
    else:
        text = f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())


def changes_files(event: NormalizedEvent) -> bool:
    """Whether ``event`` reports files a tool wrote, deleted or renamed."""
    if event.event == POST_EDIT:
        return True
    return event.event in (POST_TOOL, POST_COMMAND) and any(f.action != READ for f in event.files)


def budget(event: NormalizedEvent, env: Mapping[str, str]) -> int:
    """Characters of context: ``MEMHOOKS_MAX_CHARS`` (else 8000), within the host's cap."""
    chars = DEFAULT_BUDGET
    if env.get("MEMHOOKS_MAX_CHARS", "").strip():
        from ..settings import int_setting

        chars = int_setting("MEMHOOKS_MAX_CHARS", env)
    cap = output.shape_for(event.host, event.native_event).cap
    return min(chars, cap) if cap else chars


def recall_context(
    event: NormalizedEvent, roles: list[str], env: Mapping[str, str], time_s: float
) -> tuple[str | None, str | None]:
    """(context text or None, note or None) for ``event``'s folder, files and prompt."""
    if not store_available(env):
        named = env.get("MEMHOOKS_STORE") or ""
        given = os.path.expanduser(named)
        if named and os.path.lexists(given) and not os.path.isfile(given):
            kind = "a directory" if os.path.isdir(given) else "not a regular file"
            return None, f"MEMHOOKS_STORE {named!r} is {kind}; point it at a file"
        # No store yet is normal (nothing remembered). A relative MEMHOOKS_STORE is read
        # from the agent's folder, not the user's shell: say so once per call.
        if named and not os.path.isabs(os.path.expanduser(named)):
            return (
                None,
                f"MEMHOOKS_STORE {named!r} is relative and not found from {os.getcwd()}; use an absolute path",
            )
        return None, None
    from ..recall import context, recall

    remaining = max(0.05, time_s - MARGIN_S)
    result = recall(
        scope.working_dir(event, env),
        prompt=event.prompt,
        files=scope.active_files(event),
        roles=roles,
        budget=budget(event, env),
        store_path=env.get("MEMHOOKS_STORE") or None,
        query_timeout_s=remaining,
        deadline_s=remaining,
    )
    note = None
    if result["status"] in ("failed", "no_backend"):
        from ..recall.result import headline

        note = headline(result)[0]
    return context(result), note


def store_available(env: Mapping[str, str]) -> bool:
    """False when the embedded store is selected and its file does not exist yet: then
    there is nothing to recall, and a hook must not create a store as a side effect."""
    if env.get("MEMHOOKS_BACKEND", "embedded") not in ("", "embedded"):
        return True
    from ..backends.config import config_path

    if not env.get("MEMHOOKS_BACKEND") and os.path.isfile(config_path(env)):
        # The config file may select another backend; only then pay for reading it.
        from ..backends.registry import selected

        try:
            if selected(env=env) != "embedded":
                return True
        except Exception:  # noqa: BLE001 - a broken config is reported by recall itself
            return True
    path = env.get("MEMHOOKS_STORE")
    if not path:
        from ..store.location import default_path

        path = default_path()
    return os.path.isfile(os.path.expanduser(path))


def maintain(event: NormalizedEvent, env: Mapping[str, str]) -> tuple[list[str], str | None]:
    """(hook files changed, note) after a tool touched files. Until the maintenance
    module is installed this does nothing (fail open)."""
    try:
        from ..maintain.events import maintain as maintain_event  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return [], None
    from ..errors import MemhooksError

    try:
        return maintain_event(event, env=env), None
    except MemhooksError as exc:
        return [], f"hook maintenance failed: {describe(exc)}"
