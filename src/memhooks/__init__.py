"""memhooks: directory-scoped memory recall routing for AI coding agents.

Public API (imported lazily, so ``import memhooks`` costs almost nothing)::

    memhooks.resolve(target, roles=()) -> Plan                 # spec (c)-(e)
    memhooks.resolve_scopes(targets, roles=(), files=()) -> Scopes
    memhooks.validate(paths, all_hooks=False) -> list[Diagnostic]
    memhooks.bound_context(view, max_chars, max_guidance_chars) -> str | None

Errors: every exception raised on purpose derives from :class:`MemhooksError`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any


__version__ = "0.1.0"

__all__ = [
    "Diagnostic",
    "DiagnosticError",
    "MemhooksError",
    "Plan",
    "Scopes",
    "UsageError",
    "bound_context",
    "resolve",
    "resolve_scopes",
    "validate",
]

_LAZY = {
    "Diagnostic": "memhooks.errors",
    "DiagnosticError": "memhooks.errors",
    "MemhooksError": "memhooks.errors",
    "UsageError": "memhooks.errors",
    "Plan": "memhooks.protocol.resolve",
    "Scopes": "memhooks.protocol.resolve",
    "resolve": "memhooks.protocol.resolve",
    "resolve_scopes": "memhooks.protocol.resolve",
    "validate": "memhooks.validation",
    "bound_context": "memhooks.protocol.budget",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memhooks' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__ + ["__version__"])
