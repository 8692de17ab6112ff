"""``memhooks backends list|check [--backend NAME] [--timeout SECONDS] [--format text|json]``.

* ``list`` — every backend memhooks knows: which one is active and why, whether the
  modules of its extra import, its settings (secrets only as ``set``/``not set``) and
  where each came from. Exit 0.
* ``check`` — open the active backend (or ``--backend``) and ask whether it answers: its
  ``health()`` when it has one, else one probe search; with timings. Exit 0 when it
  answers, 1 when it does not. A configuration that cannot be used (MH028 at its file,
  line and column; an unknown backend) is said as every command says it: its
  diagnostic on stderr — instead of the human report, beside the JSON result.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import time

from ..backends import config as configuration
from ..backends import registry, secrets
from ..backends.base import SearchRequest
from ..backends.capabilities import ChecksHealth
from ..dirs import store_file
from ..errors import Diagnostic, MemhooksError, diagnostics_of, said
from ..report import print_errors

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

PROBE = "memhooks backends check"


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        report = listing()
        print(json.dumps(report, indent=2) if args.format == "json" else render_list(report))
        return 0
    problems: list[Diagnostic] = []
    result = check(args.backend, timeout_s=args.timeout, store_path=args.store, problems=problems)
    if args.format == "json" or not problems:  # the JSON result stays on stdout
        print(json.dumps(result, indent=2) if args.format == "json" else render_check(result))
    if problems:  # store22: it said `None: FAILED via open — …`, no code, no place
        print_errors(problems, "json" if args.format == "json" else "human")
    return 0 if result["ok"] else 1


def listing(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``{"config": {"path", "exists"}, "active", "why", "error", "backends": [{"name",
    "active", "extra", "extra_for", "missing", "settings", "sources"}]}`` — secrets
    masked; ``extra_for`` says what the extra is needed for when not everything."""

    config = registry.read_config(env)
    report: dict[str, Any] = {
        "config": {"path": config.path, "exists": config.exists},
        "active": None,
        "why": None,
        "error": None,
        "backends": [],
    }
    try:
        report["active"], report["why"] = registry.selection(env=env, config=config)
    except MemhooksError as exc:
        report["error"] = str(exc)
    for name in sorted(registry.BACKENDS):
        entry: dict[str, Any] = {
            "name": name,
            "active": name == report["active"],
            "extra": None,
            "missing": [],
            "settings": {},
            "sources": {},
        }
        try:
            cls = registry.backend_class(name)
        except MemhooksError as exc:
            entry["missing"], entry["error"] = [name], str(exc)
            report["backends"].append(entry)
            continue
        entry["extra"] = getattr(cls, "EXTRA", None)
        entry["extra_for"] = getattr(cls, "EXTRA_FOR", None)
        entry["missing"] = [
            m for m in getattr(cls, "REQUIRES", ()) if importlib.util.find_spec(m) is None
        ]
        found = configuration.settings_for(name, config, getattr(cls, "ENV", None), env)
        for key in getattr(cls, "ENV", {}):
            entry["settings"][key] = "not set"
        for key, value in found.items():
            entry["settings"][key] = secrets.display(value, key)
            entry["sources"][key] = found.source(key)
        report["backends"].append(entry)
    return report


def render_list(report: dict[str, Any]) -> str:
    config = report["config"]
    lines = [f"config  {config['path']}" + ("" if config["exists"] else " (no file)")]
    if report["error"]:
        lines.append(f"active  none: {report['error']}")
    else:
        lines.append(f"active  {report['active']} (from {report['why']})")
    lines.append("")
    width = max(len(b["name"]) for b in report["backends"])
    for entry in report["backends"]:
        mark = "*" if entry["active"] else " "
        if entry.get("error"):
            state = entry["error"]
        elif entry["missing"]:
            needed = f" (for {entry['extra_for']} only)" if entry.get("extra_for") else ""
            state = (
                f"missing {', '.join(entry['missing'])}{needed}: "
                f"pip install 'memhooks[{entry['extra']}]'"
            )
        else:
            state = "installed" + (f" (memhooks[{entry['extra']}])" if entry["extra"] else "")
        lines.append(f"{mark} {entry['name']:<{width}}  {state}")
        for key, value in entry["settings"].items():
            shown = value if value in ("set", "not set") else json.dumps(value)
            source = entry["sources"].get(key)
            lines.append(f"    {key} = {shown}" + (f"  ({source})" if source else ""))
    return "\n".join(lines)


def check(
    name: str | None = None,
    *,
    timeout_s: float = 10.0,
    store_path: str | None = None,
    problems: list[Diagnostic] | None = None,
) -> dict[str, Any]:
    """Open backend ``name`` (default: the active one) and ask whether it answers.
    ``{"backend", "ok", "via": "health"|"probe"|"open"|"store", "detail", "open_ms",
    "ms"}``; never raises for a backend failure. The diagnostics of a failure that has
    them (MH028: an invalid configuration file or setting) are added to ``problems``,
    and ``detail`` says it with its place and what to do."""
    result: dict[str, Any] = {
        "backend": name,
        "ok": False,
        "via": "open",
        "detail": "",
        "open_ms": 0.0,
        "ms": 0.0,
    }
    started = time.perf_counter()
    try:
        result["backend"] = chosen = registry.selected(name)
        if chosen == "embedded":
            path = store_file(store_path or registry.settings(chosen).get("path"))
            if os.path.lexists(path) and not os.path.isfile(path):
                kind = "a directory" if os.path.isdir(path) else "not a regular file"
                result.update(
                    via="store",
                    detail=f"the store path {path} is {kind}; set MEMHOOKS_STORE or --store "
                    "to the path of a file",
                )
                return result
            if not os.path.exists(path):  # recall would find no store: say so, not an error
                result.update(
                    ok=True, via="store", detail=f"no store yet at {path} (remember creates it)"
                )
                return result
        backend = registry.open_backend(chosen, store_path=store_path)
    except MemhooksError as exc:
        result["detail"] = said(exc)
        if problems is not None:
            problems += diagnostics_of(exc)
        return result
    finally:
        result["open_ms"] = round((time.perf_counter() - started) * 1000, 3)
    result["via"] = "health" if isinstance(backend, ChecksHealth) else "probe"
    started = time.perf_counter()
    try:
        if isinstance(backend, ChecksHealth):
            answer = backend.health()
            result.update(ok=answer.ok, detail=answer.detail)
        else:
            request = SearchRequest(
                PROBE, limit=1, project="memhooks-backends-check", timeout_s=timeout_s
            )
            hits = backend.search(request)
            result.update(ok=True, detail=f"answered a probe search ({len(hits)} hit(s))")
    except MemhooksError as exc:
        result["detail"] = str(exc)
    finally:
        result["ms"] = round((time.perf_counter() - started) * 1000, 3)
        backend.close()
    return result


def render_check(result: dict[str, Any]) -> str:
    verdict = "ok" if result["ok"] else "FAILED"
    return (
        f"{result['backend'] or 'no backend'}: {verdict} via {result['via']} — {result['detail']}\n"
        f"  open {result['open_ms']:.1f} ms, check {result['ms']:.1f} ms"
    )
