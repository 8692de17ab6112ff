"""Read one hook file safely and parse it into data plus diagnostics.

Opening follows ``shared/spec/reference-engine.md`` (c) step 6: the final path component
is opened without following symlinks and without blocking (a FIFO planted as
``MEMHOOKS.md`` cannot hang us), then re-checked with ``fstat`` to be a regular file.
The size cap (:data:`~memhooks.protocol.frontmatter.MAX_HOOK_BYTES`) is checked before
reading.
"""

from __future__ import annotations

import errno
import os
import stat

from ..errors import Diagnostic, DiagnosticError, fail
from . import UNSAFE

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any

    from . import frontmatter

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


class InvalidHookError(DiagnosticError):
    """A hook file as read does not validate (``diagnostics``: its own errors at its file,
    line and column; or it is not UTF-8, or over the size limit). Maintenance that must
    edit it waits for the fix (:mod:`memhooks.session.waiting`) instead of counting
    failed attempts, as it does for a lock timeout or a write error."""


class ParsedHook:
    """One hook as read: ``path``; ``data`` (plain JSON-able frontmatter dict, or ``None``
    when it could not be parsed); ``guidance`` (trimmed Markdown body, LF line endings); ``document``
    (:class:`~memhooks.protocol.frontmatter.Document` or ``None``); ``tree`` (the loaded
    mapping or ``None``: ruamel's round-trip tree when parsed with ``round_trip=True``,
    else possibly a :class:`~memhooks.protocol.yamlfast.Map`); ``diagnostics`` (sorted list)."""

    __slots__ = ("data", "diagnostics", "document", "guidance", "path", "tree")

    def __init__(
        self,
        path: str,
        data: dict[str, Any] | None,
        guidance: str,
        document: Any,
        tree: Any,
        diagnostics: list[Diagnostic],
    ) -> None:
        self.path = path
        self.data = data
        self.guidance = guidance
        self.document = document
        self.tree = tree
        self.diagnostics = diagnostics

    @property
    def valid(self) -> bool:
        """True when no diagnostic is an error (warnings never block)."""
        return self.data is not None and not any(d.is_error for d in self.diagnostics)

    def require_valid(self) -> None:
        """Raise :class:`InvalidHookError` (a DiagnosticError) with the error diagnostics
        unless :attr:`valid`."""
        errors = [d for d in self.diagnostics if d.is_error]
        if errors:
            raise InvalidHookError(errors)


def read_bytes(path: str) -> tuple[bytes, os.stat_result]:
    """Read a hook file's bytes safely; returns (bytes, fstat result).

    Raises DiagnosticError: MH029 for a symlink or special file, MH000 for an unreadable
    file; InvalidHookError MH036 for one over the size cap.
    """
    from . import frontmatter

    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK, errno.ENXIO):
            raise fail("MH029", UNSAFE, path) from None
        raise fail(
            "MH000",
            f"could not read hook: {exc.strerror}",
            path,
            1,
            1,
            help="check the file's permissions",
        ) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise fail("MH029", UNSAFE, path)
        try:
            frontmatter.check_size(st.st_size, path)
        except DiagnosticError as exc:
            raise InvalidHookError(exc.diagnostics) from None
        chunks = []
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            if sum(map(len, chunks)) > frontmatter.MAX_HOOK_BYTES:
                break
        return b"".join(chunks), st
    except OSError as exc:
        raise fail("MH000", f"could not read hook: {exc.strerror}", path, 1, 1) from None
    finally:
        os.close(fd)


def parse_text(text: str, path: str, *, round_trip: bool = False) -> ParsedHook:
    """Parse decoded hook text; never raises for bad content (it becomes diagnostics).

    ``round_trip``: the tree must be ruamel's, for an edit (:mod:`memhooks.maintain`);
    otherwise libyaml reads it when it can (:mod:`.yamlfast`, same values, positions and
    diagnostics, ~50x faster) and ruamel.yaml is not even imported.
    """
    from . import frontmatter

    try:
        document = frontmatter.split(text, path)
        tree = _load_yaml(document, path, round_trip)
    except DiagnosticError as exc:
        return ParsedHook(path, None, "", None, None, exc.diagnostics)
    data, diagnostics = examine(tree, path, document.yaml_line)
    # guidance lines are joined with LF whatever the file's line endings (spec (b) Envelope)
    guidance = frontmatter.to_lf(document.body).strip()
    return ParsedHook(path, data, guidance, document, tree, diagnostics)


def examine(
    tree: Any, path: str, first_line: int
) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """(plain data or None, diagnostics) of a loaded frontmatter tree whose first line
    is file line ``first_line`` (either reader's tree)."""
    from .validate import check_tree
    from .yamlcore import NotJson, to_plain

    diagnostics = check_tree(tree, path, first_line)
    data: dict[str, Any] | None = None
    if tree is None or isinstance(tree, dict):
        try:
            data = to_plain(tree) if tree is not None else {}
        except NotJson as exc:
            # the validator reports such values at their position; this is the backstop
            if not any(d.is_error for d in diagnostics):
                diagnostics.append(
                    Diagnostic(
                        "MH000",
                        f"routing metadata cannot be represented as JSON: {exc}",
                        path,
                        first_line,
                        1,
                    )
                )
    return data, diagnostics


def _load_yaml(document: frontmatter.Document, path: str, round_trip: bool) -> Any:
    if not round_trip:
        from . import yamlfast

        try:
            return yamlfast.load(document.yaml)
        except yamlfast.Unsupported:
            pass  # ruamel reads it, and words whatever is wrong with it
    from . import yamlio

    return yamlio.load(document.yaml, path, document.yaml_line)


def parse_bytes(data: bytes, path: str) -> ParsedHook:
    """Decode (UTF-8, BOM tolerated, size cap) and parse; bad bytes become diagnostics."""
    from . import frontmatter

    try:
        text = frontmatter.decode(data, path)
    except DiagnosticError as exc:
        return ParsedHook(path, None, "", None, None, exc.diagnostics)
    return parse_text(text, path)


def load(path: str) -> ParsedHook:
    """Read and parse the hook at ``path``; unreadable/unsafe files become diagnostics."""
    try:
        raw, _st = read_bytes(path)
    except DiagnosticError as exc:
        return ParsedHook(path, None, "", None, None, exc.diagnostics)
    return parse_bytes(raw, path)


def validate_text(text: str, path: str) -> list[Diagnostic]:
    """Diagnostics for hook text (e.g. a rendered maintenance write before it lands)."""
    return parse_text(text, path).diagnostics
