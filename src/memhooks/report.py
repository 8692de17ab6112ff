"""Render diagnostics for people (human), programs (json) and code hosts (SARIF 2.1.0).

Shapes follow ``shared/spec/reference-engine.md`` (a) ``validate``.
"""

from __future__ import annotations

import os
import sys

from . import __version__
from .catalogue import CATALOGUE
from .errors import Diagnostic
from .paths import is_within, relative

#: SARIF ``tool.driver.informationUri``: where code hosts send people who ask what the
#: tool is (SARIF 2.1.0 §3.19.17; the reference engine fills it with its repository).
INFORMATION_URI = "https://pypi.org/project/memhooks/"

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any


def json_text(value: Any) -> str:
    import json  # not for human output (~1.3 ms)

    return json.dumps(value, ensure_ascii=False, indent=2)


def human(diagnostics: list[Diagnostic]) -> str:
    """Each diagnostic rendered plus a blank line, then ``E error(s), W warning(s)``."""
    if not diagnostics:
        return "MemHooks validation passed with no diagnostics."
    errors = sum(d.is_error for d in diagnostics)
    blocks = [d.render() + "\n" for d in diagnostics]
    return "\n".join(blocks) + f"\n{errors} error(s), {len(diagnostics) - errors} warning(s)"


def _uri(path: str, base: str) -> str:
    absolute = os.path.abspath(path)
    rel = relative(absolute, base) if is_within(absolute, base) else None
    return rel or absolute.replace(os.sep, "/")


def sarif(diagnostics: list[Diagnostic], base: str) -> str:
    """SARIF 2.1.0 with one rule per emitted code (sorted) and URIs relative to ``base``."""
    codes = sorted({d.code for d in diagnostics})
    rules = []
    for code in codes:
        _sev, title, help_text = CATALOGUE.get(code, ("error", "MemHooks diagnostic", ""))
        rules.append(
            {
                "id": code,
                "name": title,
                "shortDescription": {"text": title},
                "help": {"text": help_text},
            }
        )
    results = [
        {
            "ruleId": d.code,
            "level": d.severity,
            "message": {"text": d.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(d.path, base)},
                        "region": {"startLine": d.line or 1, "startColumn": d.column or 1},
                    }
                }
            ],
        }
        for d in diagnostics
    ]
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memhooks",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json_text(log)


def print_errors(diagnostics: list[Diagnostic], fmt: str) -> None:
    """Failure output of commands other than validate, on stderr: the rendered
    diagnostics, or (``fmt == "json"``) a JSON array of diagnostic objects."""
    if fmt == "json":
        print(json_text([d.to_json() for d in diagnostics]), file=sys.stderr)
    else:
        print("\n".join(d.render() for d in diagnostics), file=sys.stderr)
