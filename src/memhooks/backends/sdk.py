"""Calling a memory system's official SDK — only where memhooks still uses one, off the
hook's recall path (OpenViking's and Honcho's writes, Mem0 OSS and the Mem0 Platform's
writes): imported on demand, every call bounded in time, every failure a
:class:`~memhooks.errors.BackendError`.

OpenViking's and Honcho's SDKs are asyncio-first; their sync wrappers run the
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
