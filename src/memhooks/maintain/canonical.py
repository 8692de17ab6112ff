"""The canonical text of a generated hook, read and edited without a YAML library.

Why (issue 14 item 3, measured with ``bench/bench_engine.py``): a PostToolUse Write that
adds a file to its folder's generated cue spent most of its ~60 ms (6.3x a bare
interpreter) in YAML: importing ruamel.yaml (~19 ms in a fresh process) for the round
trip (two loads, three dumps), and PyYAML (~15 ms to import libyaml's parser) for the
check before it. Most hooks the agent hook edits are hooks it created itself
(``MEMHOOKS_ANCHOR=directory``), whose frontmatter is exactly what the round-trip path
writes for one small shape::

    ---
    schema: memhooks/v2
    inherits: true                          (optional line; ``true`` or ``false``)
    recall_queries:                         (optional; then one or more cues)
      - query: '<AUTO_CUE> [scope: <dir>]'
        resources:
          - name: <root-relative file>
            kind: file
        tags: [memhooks:auto]
    ---
    <body: any text, kept verbatim>

:func:`read` accepts a text only when its frontmatter is byte for byte :func:`emit` of
what it read, so the YAML meaning of the text is the model's by construction. A comment,
another field or query, other quoting, indentation or key order, a legacy unscoped cue,
a duplicate cue, CRLF or lone CR line endings, a BOM, or a scope or file name outside
:func:`plain_safe`'s alphabet make it return None: the caller then takes the round-trip
path (:mod:`.update`), which keeps whatever people wrote. :func:`apply` is
:func:`memhooks.maintain.cues.apply_cues` on this model (same pruning, order and cap);
``tests/maintain/test_canonical.py`` holds both to byte equality on a corpus of shapes
and the texts to the validator (every canonical text validates: schema, boolean
``inherits``, distinct non-blank cues, non-blank names).

Shapes: texts are ``str`` with LF line endings; names and scopes are root-relative
paths with ``/`` separators (``.`` for the root). Nothing here touches the file system
or raises for bad input: unsupported input is None.
"""

from __future__ import annotations

from .generated import AUTO_CUE, AUTO_TAG

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Iterable
    from typing import Any

    from ..protocol.cache import HookCache

SCHEMA_LINE = "schema: memhooks/v2"
QUERIES_LINE = "recall_queries:"
_QUERY_HEAD = f"  - query: '{AUTO_CUE} [scope: "
_QUERY_TAIL = "]'"
_RESOURCES_LINE = "    resources:"
_NAME_HEAD = "      - name: "
_KIND_LINE = "        kind: file"
_TAGS_LINE = f"    tags: [{AUTO_TAG}]"
#: The characters of a scope or file name written unquoted (ASCII letters, digits,
#: ``_ . / -``): no YAML indicator, no quote, no space, nothing ruamel escapes.
SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-")
#: Longest scope or name accepted, in characters: far below ruamel's 4096-column line
#: width (:func:`memhooks.protocol.yamlio.new_yaml`), so it never folds a cue's line.
MAX_NAME = 1024
#: Plain words a YAML reader may take for a boolean or null (1.1 words included).
_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


class Generated:
    """A canonical generated hook: ``inherits`` (True, False, or None for no line),
    ``cues`` (``[(scope, [file names])]`` in file order, every cue with at least one
    name; None when there is no ``recall_queries`` key), ``close`` (the closing fence,
    ``"---\\n"`` or ``"---"`` at the end of the file) and ``body`` (verbatim)."""

    __slots__ = ("body", "close", "cues", "inherits")

    def __init__(
        self,
        inherits: bool | None,
        cues: list[tuple[str, list[str]]] | None,
        close: str = "---\n",
        body: str = "",
    ) -> None:
        self.inherits = inherits
        self.cues = cues
        self.close = close
        self.body = body

    def data(self) -> dict[str, Any]:
        """The frontmatter as the hook readers' plain data."""
        out: dict[str, Any] = {"schema": "memhooks/v2"}
        if self.inherits is not None:
            out["inherits"] = self.inherits
        if self.cues is not None:
            out["recall_queries"] = [
                {
                    "query": f"{AUTO_CUE} [scope: {scope}]",
                    "resources": [{"name": name, "kind": "file"} for name in names],
                    "tags": [AUTO_TAG],
                }
                for scope, names in self.cues
            ]
        return out


def plain_safe(name: str) -> bool:
    """True when ``name`` (a scope or file name) is written unquoted and read back as
    the same string by every YAML reader memhooks uses: 1 to :data:`MAX_NAME` characters
    of :data:`SAFE`, not starting with ``-``, and — without a ``/`` — neither starting
    with a digit or ``.`` (numbers, ``.inf``, ``.nan``) nor one of :data:`_WORDS`.
    Conservative on purpose: a name it refuses only costs the round-trip path."""
    if not name or len(name) > MAX_NAME or name[0] == "-" or not SAFE.issuperset(name):
        return False
    if "/" in name:
        return True
    return not (name[0].isdigit() or name[0] == "." or name.lower() in _WORDS)


def _scope_safe(scope: str) -> bool:
    """A scope sits inside a single-quoted scalar: the :data:`SAFE` alphabet suffices."""
    return bool(scope) and len(scope) <= MAX_NAME and SAFE.issuperset(scope)


def read(text: str) -> Generated | None:
    """The model of ``text`` when it is a canonical generated hook, else None."""
    if not text.startswith("---\n"):
        return None
    lines: list[str] = []
    at = 4
    while True:
        end = text.find("\n", at)
        line = text[at:] if end < 0 else text[at:end]
        if line == "---":
            close = "---" if end < 0 else "---\n"
            body = "" if end < 0 else text[end + 1 :]
            break
        if end < 0:
            return None  # no closing fence
        lines.append(line)
        at = end + 1
    model = _model(lines)
    if model is None:
        return None
    model.close, model.body = close, body
    return model if emit(model) == text else None


def _model(lines: list[str]) -> Generated | None:
    if not lines or lines[0] != SCHEMA_LINE:
        return None
    at = 1
    inherits: bool | None = None
    if at < len(lines) and lines[at] in ("inherits: true", "inherits: false"):
        inherits = lines[at] == "inherits: true"
        at += 1
    if at == len(lines):
        return Generated(inherits, None)
    if lines[at] != QUERIES_LINE:
        return None
    at += 1
    cues: list[tuple[str, list[str]]] = []
    while at < len(lines):
        head = lines[at]
        if not (head.startswith(_QUERY_HEAD) and head.endswith(_QUERY_TAIL)):
            return None
        scope = head[len(_QUERY_HEAD) : -len(_QUERY_TAIL)]
        if not _scope_safe(scope) or any(scope == seen for seen, _names in cues):
            return None
        if at + 1 >= len(lines) or lines[at + 1] != _RESOURCES_LINE:
            return None
        at += 2
        names: list[str] = []
        while at + 1 < len(lines) and lines[at].startswith(_NAME_HEAD):
            name = lines[at][len(_NAME_HEAD) :]
            if not plain_safe(name) or lines[at + 1] != _KIND_LINE:
                return None
            names.append(name)
            at += 2
        if not names or at >= len(lines) or lines[at] != _TAGS_LINE:
            return None
        cues.append((scope, names))
        at += 1
    return Generated(inherits, cues) if cues else None


def emit(model: Generated) -> str:
    """The text of ``model``: what the round-trip path writes for it."""
    out = ["---\n", SCHEMA_LINE, "\n"]
    if model.inherits is not None:
        out.append("inherits: true\n" if model.inherits else "inherits: false\n")
    if model.cues is not None:
        out += [QUERIES_LINE, "\n"]
        for scope, names in model.cues:
            out += [_QUERY_HEAD, scope, _QUERY_TAIL, "\n", _RESOURCES_LINE, "\n"]
            for name in names:
                out += [_NAME_HEAD, name, "\n", _KIND_LINE, "\n"]
            out += [_TAGS_LINE, "\n"]
    out += [model.close, model.body]
    return "".join(out)


def apply(
    model: Generated,
    cues: Iterable[tuple[str, list[str]]],
    exists: Callable[[str], bool],
    max_paths: int,
) -> bool | None:
    """:func:`memhooks.maintain.cues.apply_cues` on ``model``, in place: drop file names
    ``exists`` rejects and the cues left without any (and ``recall_queries`` when none
    is left), then add each ``(scope, files)`` that has files to its cue (created at the
    end), keeping its last ``max_paths`` (>= 1) names. True when the model changed;
    None, with the model untouched, when a scope or name is not :func:`plain_safe`
    (the caller takes the round-trip path)."""
    wanted = [(scope, list(dict.fromkeys(files))) for scope, files in cues if files]
    if max_paths < 1 or not all(
        _scope_safe(scope) and all(plain_safe(f) for f in files) for scope, files in wanted
    ):
        return None
    changed = False
    kept: list[tuple[str, list[str]]] = []
    for scope, names in model.cues or ():
        alive = [name for name in names if exists(name)]
        changed = changed or len(alive) != len(names)
        if alive:
            kept.append((scope, alive))
    if model.cues is not None:
        model.cues = kept or None
    for scope, files in wanted:
        found = next((names for seen, names in model.cues or () if seen == scope), None)
        if found is None:
            model.cues = [*(model.cues or ()), (scope, files[-max_paths:])]
            changed = True
            continue
        known = set(found)
        added = [name for name in files if name not in known]
        found += added
        if len(found) > max_paths:
            del found[: len(found) - max_paths]
            changed = True
        changed = changed or bool(added)
    return changed


def plain_data(hook: str, st: os.stat_result, store: HookCache) -> dict[str, Any] | None:
    """The frontmatter data of the regular file ``hook`` (``st``: its ``lstat``) when it
    is valid, else None: the parsed-hook cache's entry, else :func:`canonical_data`,
    else the cache's full parse (libyaml)."""
    from ..filestate import key as stat_key

    if store.get(hook, stat_key(st)) is None:
        data = canonical_data(hook, store)
        if data is not None:
            return data
    parsed = store.load(hook, st)
    return parsed.data if parsed.valid else None


def canonical_data(hook: str, store: HookCache) -> dict[str, Any] | None:
    """The data of ``hook`` when its text is a generated hook's canonical form
    (:func:`read`: valid by construction), read without a YAML library — such as
    the hook the previous event wrote, within the cache's racy window — and put in
    ``store`` (it is exactly what parsing gives: that data, no diagnostics;
    ``tests/maintain/test_canonical.py``). None for any other text, or an unreadable or
    unsafe file (the caller's full parse words what is wrong)."""
    from ..errors import DiagnosticError
    from ..filestate import key as stat_key
    from ..protocol.frontmatter import decode, to_lf
    from ..protocol.hookfile import read_bytes

    try:
        raw, st = read_bytes(hook)
        model = read(decode(raw, hook))
    except DiagnosticError:
        return None
    if model is None:
        return None
    data = model.data()
    store.put(hook, stat_key(st), (data, to_lf(model.body).strip(), []), st)
    return data
