"""Calling a memory system's official SDK: imported on demand, every call bounded in time,
every failure a :class:`~memhooks.errors.BackendError`.

Hindsight's, OpenViking's and Honcho's SDKs are asyncio-first; their sync wrappers run the
calling thread's event loop and cannot bound a whole call (retries included) by one
deadline. So an adapter owns one event loop for its lifetime — the SDK's HTTP session is
bound to the loop it was created in — and runs each call through :meth:`Calls.run`, which
cancels it when ``timeout_s`` passes and translates whatever the SDK raised at this
boundary (``raise BackendError(...) from exc``).
"""

from __future__ import annotations

import asyncio
import importlib

from ..errors import BackendError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from types import ModuleType
    from typing import Any, TypeVar

    T = TypeVar("T")

#: Longest SDK error text kept in a message (server bodies can be whole HTML pages).
MAX_DETAIL = 300


def import_sdk(backend: str, module: str, extra: str) -> ModuleType:
    """Import the SDK ``module``; BackendError naming the ``memhooks[extra]`` install
    when it is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise BackendError(
            f"{backend}: the official SDK is not installed ({exc.name or module}); "
            f"install it with: pip install 'memhooks[{extra}]'"
        ) from exc


def describe(exc: BaseException) -> str:
    """One line about an SDK exception: its class, the HTTP status when it has one, and
    the first line of the server's message (else the exception's), cut to
    :data:`MAX_DETAIL` characters."""
    status = getattr(exc, "status", None) or getattr(exc, "status_code", None)
    detail = getattr(exc, "body", None) or getattr(exc, "message", None)
    raw = detail if isinstance(detail, str) and detail.strip() else str(exc)
    text = (raw.strip().splitlines() or [""])[0]
    if len(text) > MAX_DETAIL:
        text = text[:MAX_DETAIL] + "…"
    head = type(exc).__name__ + (f" (HTTP {status})" if isinstance(status, int) else "")
    return f"{head}: {text}" if text else head


class Calls:
    """The event loop an adapter runs its SDK calls in. ``backend`` names the adapter
    in error messages."""

    __slots__ = ("_loop", "backend", "used")

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self.used = False  # whether any call ran (the SDK may hold connections)
        self._loop: asyncio.AbstractEventLoop | None = None  # made by the first call

    def run(self, call: Callable[[], Awaitable[T]], timeout_s: float, what: str) -> T:
        """``await call()`` bounded by ``timeout_s`` seconds. Raises BackendError when the
        time is up (the call is cancelled) or the SDK raised (chained)."""
        if timeout_s <= 0:
            raise BackendError(f"{self.backend}: no time left for {what}")

        async def bounded() -> T:
            return await asyncio.wait_for(call(), timeout_s)

        self.used = True
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        try:
            return self._loop.run_until_complete(bounded())
        except asyncio.TimeoutError as exc:
            raise BackendError(
                f"{self.backend}: {what} took longer than {timeout_s:.2f} s"
            ) from exc
        except BackendError:
            raise
        except Exception as exc:
            raise BackendError(f"{self.backend}: {what} failed: {describe(exc)}") from exc

    def close(self, call: Callable[[], Awaitable[Any]] | None = None) -> None:
        """Run ``call`` (the SDK's own close, at most 2 s, errors ignored), then close
        the loop."""
        loop, self._loop = self._loop, None
        if loop is None or loop.is_closed():
            return
        try:
            if call is not None:
                loop.run_until_complete(asyncio.wait_for(call(), 2.0))
        except Exception:  # noqa: BLE001, S110 - closing must not turn a recall into a failure
            pass
        finally:
            loop.close()


def invalid_setting(settings: Any, backend: str, key: str, message: str) -> Exception:
    """The error for a bad user setting: MH028 at the file line or variable it came
    from when ``settings`` knows (:class:`memhooks.backends.config.Settings`), else a
    BackendError naming ``backends.<backend>.<key>``."""
    invalid = getattr(settings, "invalid", None)
    if callable(invalid):
        error = invalid(key, message)
        if isinstance(error, Exception):
            return error
    return BackendError(f"{backend}: backends.{backend}.{key}: {message}")


def number(settings: Any, backend: str, key: str, default: float) -> float:
    """Setting ``key`` as a positive number (a numeric string from the environment is
    fine), else ``default``."""
    value = settings.get(key, default)
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = -1.0
    if isinstance(value, bool) or not number > 0:
        raise invalid_setting(settings, backend, key, f"must be a positive number (got {value!r})")
    return number


def setting_text(settings: Any, backend: str, key: str, default: str | None = None) -> str | None:
    """Setting ``key`` as a stripped non-blank string; ``default`` when unset;
    ``default=None`` and unset means required only if the caller checks for ``None``."""
    value = settings.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise invalid_setting(settings, backend, key, f"must be a non-blank string (got {value!r})")
    return value.strip()


def required_text(settings: Any, backend: str, key: str) -> str:
    """Setting ``key``, which must be set (a non-blank string)."""
    value = setting_text(settings, backend, key)
    if value is None:
        raise invalid_setting(settings, backend, key, "is required")
    return value


def setting_strings(settings: Any, backend: str, key: str) -> list[str]:
    """Setting ``key`` as a list of non-blank strings (one string is a one-item list)."""
    try:
        return strings(settings.get(key, []), key, backend)
    except BackendError:
        raise invalid_setting(
            settings, backend, key, "must be a string or a list of strings"
        ) from None


def setting_choice(
    settings: Any, backend: str, key: str, allowed: tuple[str, ...], default: str | None
) -> str | None:
    """Setting ``key``, one of ``allowed``; ``default`` when unset."""
    value = settings.get(key, default)
    if value is not None and value not in allowed:
        raise invalid_setting(
            settings, backend, key, f"must be one of {', '.join(allowed)} (got {value!r})"
        )
    return value  # type: ignore[no-any-return]


def choice(value: Any, key: str, allowed: tuple[str, ...], backend: str) -> str:
    """A hook's ``backends.<backend>.<key>``, which must be one of ``allowed``."""
    if value not in allowed:
        raise BackendError(
            f"{backend}: backends.{backend}.{key} must be one of {', '.join(allowed)} (got {value!r})"
        )
    return str(value)


def strings(value: Any, key: str, backend: str) -> list[str]:
    """``value`` as a list of non-blank strings (a single string is a one-item list).
    BackendError naming ``backends.<backend>.<key>`` otherwise."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(i, str) and i.strip() for i in items):
        raise BackendError(
            f"{backend}: backends.{backend}.{key} must be a string or a list of strings"
        )
    return [i.strip() for i in items]


def hints(text: str, **cues: list[str]) -> str:
    """The query ``text`` with the non-empty cue lists appended as one line each
    (``entities: a, b``) — how cues reach a backend that has no native field for them
    (spec/reference-engine.md (i): names go into the query text, types never guessed)."""
    lines = [text.strip()]
    for name, values in cues.items():
        if values:
            lines.append(f"{name}: {', '.join(values)}")
    return "\n".join(lines)
