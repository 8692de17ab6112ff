"""Environment settings with documented ranges; an invalid value is MH028.

| variable | default | range |
|---|---|---|
| ``MEMHOOKS_MAX_CHARS`` | 24000 | 1–1,000,000 characters, the whole injected context |
| ``MEMHOOKS_MAX_GUIDANCE_CHARS`` | 6000 | 1–100,000 characters, one guidance item |
| ``MEMHOOKS_AUTO_PATHS`` | 12 | 1–256 file resources per generated cue |

Ranges and defaults are the reference engine's (``shared/spec/reference-engine.md``
(a) and (e)).
"""

from __future__ import annotations

import os

from .errors import fail

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from collections.abc import Mapping

SETTINGS = {
    "MEMHOOKS_MAX_CHARS": (24000, 1, 1_000_000),
    "MEMHOOKS_MAX_GUIDANCE_CHARS": (6000, 1, 100_000),
    "MEMHOOKS_AUTO_PATHS": (12, 1, 256),
}


def int_setting(name: str, env: Mapping[str, str] | None = None) -> int:
    """The integer value of setting ``name`` (see table). Raises DiagnosticError MH028
    naming the variable when it is not an integer within range."""
    env = os.environ if env is None else env
    default, low, high = SETTINGS[name]
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise fail(
            "MH028",
            f"{name} must be an integer from {low} to {high} (got {raw!r})",
            name,
            help=f"unset {name} or set it within range",
        )
    return value
