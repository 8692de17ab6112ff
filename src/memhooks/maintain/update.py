"""The one read-modify-write cycle every maintenance command goes through.

::

    with hook_lock(path):                 # no lock for a dry run
        text  = read the hook             # refuses symlinks/special files (MH029)
        check(text)                       # must validate (warnings are fine)
        edit(tree)                        # in place; says whether it changed anything
        new   = render(document, tree)    # only the edited lines change
        validate(new)                     # any error: nothing is written
        write_atomic(path, new)           # keeps mode bits, BOM, line endings

A dry run does everything but take the lock and write, so it touches nothing, creates
nothing, and still reports exactly what would change (and whether it would be refused).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from ..errors import Diagnostic, DiagnosticError
from ..protocol import frontmatter
from ..protocol.hookfile import ParsedHook, examine, parse_text, validate_text
from .access import read_text, refuse_read_only
from .atomic import write_atomic
from .lock import LOCK_TIMEOUT_S, hook_lock
from .roundtrip import Snapshot, render_read_back

Edit = Callable[[ParsedHook], bool]

Check = Callable[[ParsedHook], None]


class Change:
    """What :func:`update` did to one hook: ``path``, ``changed`` (written, or would be
    in a dry run), ``created`` (the hook did not exist), ``old`` / ``new`` texts
    (``old`` is None for a new hook; ``new`` is None when nothing changed)."""

    __slots__ = ("changed", "created", "new", "old", "path")

    def __init__(self, path: str, old: str | None, new: str | None) -> None:
        self.path = path
        self.old = old
        self.new = new
        self.changed = new is not None
        self.created = old is None and new is not None

    def __repr__(self) -> str:
        return f"Change({self.path!r}, changed={self.changed}, created={self.created})"


def require_valid(parsed: ParsedHook) -> None:
    """The default check: no error-severity diagnostic."""
    parsed.require_valid()


def update(
    path: str,
    edit: Edit,
    *,
    new_text: str | None = None,
    dry_run: bool = False,
    check: Check = require_valid,
) -> Change:
    """Apply ``edit`` to the hook at ``path`` under its lock and write the result.

    ``edit(parsed)`` changes ``parsed.tree`` (the round-trip frontmatter) — or, rarely,
    ``parsed.document.body`` — in place and returns True when it changed anything. A missing hook starts from ``new_text`` (nothing happens when that
    is None, or when the edit changes nothing: an event never creates an empty hook).
    ``check`` vets the hook as read (default: it must validate). Raises DiagnosticError
    for an unsafe, unreadable or invalid hook, an edit whose result would not validate
    (nothing is written), a read-only hook that would change (MH031, in a dry run too),
    and write or lock failures (MH031, also after waiting :data:`LOCK_TIMEOUT_S` seconds
    for another writer).
    """
    guard = contextlib.nullcontext() if dry_run else hook_lock(path, timeout=LOCK_TIMEOUT_S)
    with guard:
        old = read_text(path)
        text = old if old is not None else new_text
        if text is None:
            return Change(path, None, None)
        parsed = parse_text(text, path, round_trip=True)  # the one parse of the hook as read
        check(parsed)
        document, tree = parsed.document, parsed.tree
        before = Snapshot(document, tree) if isinstance(tree, dict) and document else None
        if not edit(parsed):
            return Change(path, old, None)
        new, again = render_read_back(parsed.document, parsed.tree, path, before)
        if new == old:
            return Change(path, old, None)
        refuse_invalid(new, path, again)
        if old is not None:
            refuse_read_only(path)
        if not dry_run:
            write_atomic(path, new)
        return Change(path, old, new)


def refuse_invalid(text: str, path: str, tree: Any = None) -> None:
    """Raise DiagnosticError when the text about to be written has errors. Positions
    would point into a file that was never written, so they are replaced by the key.
    ``tree``: the text's frontmatter as :func:`.roundtrip.render_read_back` read it back,
    validated instead of parsing the text once more."""
    if tree is None:
        diagnostics = validate_text(text, path)
    else:
        diagnostics = examine(tree, path, frontmatter.split(text, path).yaml_line)[1]
    errors = [d for d in diagnostics if d.is_error]
    if errors:
        raise DiagnosticError([_unwritten(d, path) for d in errors])


def _unwritten(diagnostic: Diagnostic, path: str) -> Diagnostic:
    where = f" at `{diagnostic.key}`" if diagnostic.key else ""
    return Diagnostic(
        diagnostic.code,
        f"{diagnostic.message}{where}; the change would make the hook invalid, so nothing was written",
        path,
        help=diagnostic.help,
        key=diagnostic.key,
    )
