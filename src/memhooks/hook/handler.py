"""One hook payload in, one host-valid response out — the one door every hook call takes:

    parse (payload → :mod:`memhooks.agents` normalized event) → call
    (:class:`~memhooks.hook.call.HookCall`: folder, root, files, settings, capture switch,
    session, backend, deadline — each worked out once, on first use) → react
    (:mod:`memhooks.hook.reactions`: the already-served shortcut, then plan → recall →
    render, maintenance, the working set) → opt-in capture → close

:func:`handle` is the one fail-open loop: ``memhooks hook``, the Hermes plugin, the
tests and the benchmarks all call it. Every failure becomes the host's no-op plus a
one-line note for stderr that starts with its code (:func:`describe`,
:class:`~memhooks.hook.reply.Reply`); nothing here prints.
Loading hooks never writes a memory and never runs a command.
"""

from __future__ import annotations

import os
import time

from ..limits import MAX_READ_BYTES
from .reply import Reply, coded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from ..agents.base import NormalizedEvent
    from .call import HookCall

__all__ = ["PayloadError", "Reply", "describe", "handle", "parse"]

#: Largest payload read from stdin.
MAX_PAYLOAD = MAX_READ_BYTES
#: Least time capture needs to start; with less left it is skipped.
CAPTURE_MIN_S = 0.1
#: The code of a payload the hook cannot read (docs/diagnostics.md).
PAYLOAD = "MH041"
#: What follows a malformed event's fault: nothing was done, and what to do.
MALFORMED = "nothing was served (check that the hook command's --agent names the host that runs it, and that memhooks knows its version)"


class PayloadError(ValueError):
    """What is wrong with the bytes a host sent on stdin (the message says it);
    ``too_large``: it is over :data:`MAX_PAYLOAD` (not read, so not known to be bad)."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


def parse(
    raw: bytes | bytearray | str, agent: str | None = None, native_event: str | None = None
) -> NormalizedEvent:
    """Decode stdin and normalize it, the prompt cut to what recall reads
    (:func:`memhooks.hook.payload.bound_prompt`). A ``bytearray`` (what
    :func:`~memhooks.hook.payload.read_payload` reads stdin into) is emptied once decoded,
    so a payload of megabytes is not held twice for the rest of the call. Raises
    PayloadError for a payload that is not JSON or too large (the buffer left as it
    was), UsageError for an unknown ``agent``."""
    from ..agents.registry import normalize

    if len(raw) > MAX_PAYLOAD:
        raise PayloadError(
            f"the payload on stdin is over the {MAX_PAYLOAD >> 20} MiB limit memhooks reads"
            f" ({MAX_PAYLOAD} bytes); this event is not served",
            too_large=True,
        )
    from ..fast.jsonfast import loads

    try:
        payload = loads(raw) if raw and not raw.isspace() else None
        if isinstance(raw, bytearray):
            raw.clear()
    except RecursionError:
        raise PayloadError("the payload on stdin is nested too deeply to read") from None
    except ValueError as exc:  # json.JSONDecodeError, or a UnicodeDecodeError
        if not hasattr(exc, "lineno"):
            raise PayloadError("the payload on stdin is not UTF-8 JSON") from None
        raise PayloadError(
            # json's own message may end in "at" ("Invalid control character at").
            f"the payload on stdin is not JSON ({exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno})"  # type: ignore[attr-defined]
        ) from None
    from .payload import bound_prompt

    return bound_prompt(normalize(payload, agent, native_event))


def handle(
    raw: bytes | bytearray | str,
    *,
    agent: str | None = None,
    native_event: str | None = None,
    roles: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    time_s: float = 3.0,
    exiting: bool = False,
    claim: Callable[[], bool] | None = None,
) -> Reply:
    """The response to one hook payload within ``time_s`` seconds (see the module
    docstring). Never raises: any failure gives the host's no-op and a note.
    ``exiting``: the process ends right after (:attr:`memhooks.hook.call.HookCall.exiting`).
    ``claim``: called once the reply is ready; False when the output was taken by the
    deadline's no-op (:meth:`memhooks.hook.deadline.Watchdog.claim`) — then nothing this
    call put in the session's ledger stands, as nothing it found reached the model. The
    ledger and the reply are one decision: rows held while the call works
    (:mod:`memhooks.session.record`), confirmed only for a reply that goes out."""
    from ..agents.registry import noop

    env = os.environ if env is None else env
    started = time.monotonic()
    fallback = noop(agent, native_event) if agent else ""
    call: HookCall | None = None
    try:
        event = parse(raw, agent, native_event)
        fallback = noop(event.host, event.native_event)
        refused = _unusable(event)
        if refused is not None:
            return Reply(fallback, coded(PAYLOAD, refused))
        from .call import HookCall
        from .reactions import react

        call = HookCall(
            event, env, roles=roles, time_s=time_s - (time.monotonic() - started), exiting=exiting
        )
        reply = react(call)
        call.setting_notes()
        for note in call.notes:
            reply.add_note(note)
        reply.add_note(call.home_note())
        reply.add_note(capture(call))
        if claim is not None and not claim():
            return Reply(fallback)  # the deadline answered: what was held lapses
        if not call.confirm():
            from .deadline import missed

            return Reply(fallback, missed("stopped past what its reply held; nothing added"))
        return reply
    except Exception as exc:  # noqa: BLE001  fail open: the agent must go on whatever happened here
        return Reply(fallback, describe(exc))
    finally:
        if call is not None:
            call.close()


def _unusable(event: NormalizedEvent) -> str | None:
    """Why ``event`` cannot be served at all, or None: no JSON object, no host's, no
    hook event named (or one its host does not send), or a field it is served from
    malformed (:attr:`~memhooks.agents.base.NormalizedEvent.malformed`). A known event
    memhooks leaves alone (Claude Code's ``Notification``) is no fault: silent."""
    if not isinstance(event.raw, dict):
        what = (
            "empty (or null)"
            if event.raw is None
            else f"JSON but not an object ({type(event.raw).__name__})"
        )
        return (
            f"the payload on stdin is {what}; the agent must send its hook event as one JSON object"
        )
    if event.host == "unknown":
        return "payload not recognised as any agent's hook; pass --agent NAME"
    native = event.native_event
    if native is None:
        return f"the {event.host} payload names no hook event; {MALFORMED}"
    if event.event is None:
        from ..agents.base import EVENTS
        from ..agents.registry import host_module

        if native not in host_module(event.host).EVENTS and native not in EVENTS:
            return (
                f"the {event.host} payload's hook event `{native}` is not one it sends; {MALFORMED}"
            )
        return None  # a known event memhooks does nothing for
    if event.malformed is not None:
        return f"the {event.host} `{native}` payload is malformed: {event.malformed}; {MALFORMED}"
    return None


def capture(call: HookCall) -> str | None:
    """Opt-in capture (:func:`memhooks.capture.observe`), after the response is decided:
    a no-op unless the user turned capture on; bounded by the time left; fail-open
    (None, or a note for stderr)."""
    left = call.remaining()
    if call.event.event is None or left < CAPTURE_MIN_S:
        return None
    try:
        if not call.capture_on:
            return None  # off everywhere (the default): the observer is not even imported
        from ..capture.observer import observe

        # the embedded store recall reads (a rooted variable, the configuration file's
        # [backends.embedded] path), not MEMHOOKS_STORE alone (review7)
        chosen = call.store_choice
        observe(
            call.event,
            store_path=chosen[1] if chosen and chosen[1] else call.store_env.get("MEMHOOKS_STORE"),
            cwd=call.folder,
            timeout_s=left,
            settings_path=call.capture_path,
            # the call's session keeps capture's record of it (its state file)
            session=call.session if call.root is not None else None,
        )
    except Exception as exc:  # noqa: BLE001  capture must never break the agent
        return describe(exc, "capture failed: ")
    return None


def describe(exc: BaseException, what: str = "") -> str:
    """One coded note naming what failed: ``MHnnn <what><the failure>``
    (:func:`memhooks.errors.code_of` and :func:`memhooks.errors.said`; a payload's
    problem is :data:`PAYLOAD`)."""
    if isinstance(exc, PayloadError):
        told = (
            str(exc)
            if exc.too_large
            else f"{exc}; the agent must send its hook event as one JSON object"
        )
        return coded(PAYLOAD, what + " ".join(told.split()))
    from ..errors import one_line

    return one_line(exc, what)
