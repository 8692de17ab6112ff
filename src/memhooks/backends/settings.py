"""Reading an adapter's user settings and a hook's provider options: typed, checked, and
reported at the file line or variable they came from (MH028) when the settings know it
(:class:`memhooks.backends.config.Settings`), else as a BackendError naming
``backends.<backend>.<key>``. Plus :func:`hints`, how cues reach a backend that has no
native field for them."""

from __future__ import annotations

from ..errors import BackendError
from .http import Endpoint

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def invalid_setting(
    settings: Any, backend: str, key: str, message: str, help: str | None = None
) -> Exception:
    """The error for a bad user setting: MH028 at the file line or variable it came
    from when ``settings`` knows (:class:`memhooks.backends.config.Settings`; ``help``
    replaces its own), else a BackendError naming ``backends.<backend>.<key>``."""
    invalid = getattr(settings, "invalid", None)
    if callable(invalid):
        error = invalid(key, message, help)
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


def seconds(settings: Any, backend: str, key: str, default: float) -> float:
    """Setting ``key`` as a number of seconds above 0 and at most 3600 (an hour: a
    memory system's timeout; ``true`` is no number, as for :func:`number`), else
    ``default``."""
    value = settings.get(key, default)
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = -1.0
    if isinstance(value, bool) or not 0 < seconds <= 3600:
        raise invalid_setting(
            settings, backend, key, f"must be a number of seconds from 0 to 3600 (got {value!r})"
        )
    return seconds


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
    value: str | None = settings.get(key, default)
    if value is not None and value not in allowed:
        raise invalid_setting(
            settings, backend, key, f"must be one of {', '.join(allowed)} (got {value!r})"
        )
    return value


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


def bearer(settings: Any, backend: str, key: str = "api_key") -> dict[str, str]:
    """The ``authorization: Bearer <key>`` header of setting ``key``, or no header when
    it is not set (a server run without authentication)."""
    token = setting_text(settings, backend, key)
    return {"authorization": f"Bearer {token}"} if token else {}


def endpoint(settings: Any, backend: str, key: str, url: str, headers: dict[str, str]) -> Any:
    """The :class:`~memhooks.backends.http.Endpoint` at setting ``key``'s ``url``; an
    URL that is not ``http(s)://host[:port][/path]`` is reported at the setting."""
    try:
        return Endpoint(backend, url, headers)
    except BackendError:
        raise invalid_setting(
            settings, backend, key, f"must be an http:// or https:// URL (got {url!r})"
        ) from None
