"""Reading a hook for an edit, and refusing a replacement that must not happen — shared
by the round-trip cycle (:mod:`.update`) and the generated-hook write
(:mod:`.fastwrite`), light enough for the agent hook (no YAML library).
"""

from __future__ import annotations

import os
import stat

from ..errors import Diagnostic, DiagnosticError
from ..protocol import frontmatter
from ..protocol.hookfile import InvalidHookError, read_bytes
from .targets import hook_status


def read_text(path: str) -> str | None:
    """The decoded text of the hook at ``path`` (BOM kept), or None when nothing is
    there. Raises MH029 for a symlink or special file, MH000 for unreadable bytes;
    :class:`~memhooks.protocol.hookfile.InvalidHookError` for text that is not UTF-8 or
    over the size limit."""
    if hook_status(path) is None:
        return None
    raw, _st = read_bytes(path)
    try:
        return frontmatter.decode(raw, path)
    except DiagnosticError as exc:  # not UTF-8, too large: fixed by editing the file
        raise InvalidHookError(exc.diagnostics) from None


def refuse_read_only(path: str) -> None:
    """Raise MH031 when the hook is read-only: no write bit at all (root included), or
    not writable by this process. The atomic rename only needs the directory to be
    writable, so without this check a file someone made read-only would be replaced
    silently (issue 13 item 12)."""
    mode = stat.S_IMODE(os.lstat(path).st_mode)
    if mode & 0o222 and os.access(path, os.W_OK):
        return
    raise DiagnosticError(
        Diagnostic(
            "MH031",
            f"the hook is read-only (mode {mode:04o}); memhooks does not replace a file "
            "made read-only, so nothing was written",
            path,
            help="make it writable (`chmod u+w`) to let memhooks maintain it, or leave it as it is",
        )
    )
