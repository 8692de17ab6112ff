"""Settings shown safely (``memhooks backends list``, an error naming a URL): which
setting keys hold secrets, and a value fit to print — a secret as ``set`` or ``not
set``, credentials inside a URL as ``***``."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Keys whose values are secrets, whatever the backend (compared in lower case).
SECRET_KEYS = ("api_key", "key", "token", "password", "secret", "headers", "authorization")
SECRET_SUFFIXES = ("_key", "_token", "_password", "_secret")


def is_secret(key: str) -> bool:
    """Whether setting ``key`` holds a secret (:data:`SECRET_KEYS`, :data:`SECRET_SUFFIXES`)."""
    lowered = key.lower()
    return lowered in SECRET_KEYS or lowered.endswith(SECRET_SUFFIXES)


def display(value: Any, key: str = "") -> Any:
    """``value`` safe to print: secrets (by key, at any depth) become ``"set"``,
    credentials inside URLs become ``***``."""
    if is_secret(key):
        return "set" if value not in (None, "", {}, []) else "not set"
    if isinstance(value, dict):
        return {k: display(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [display(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"(?<=://)[^/@\s]+@", "***@", value)
    return value
