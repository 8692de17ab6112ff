"""One exception root and the diagnostic record every memhooks message is made of.

Exception tree::

    MemhooksError                 everything raised on purpose by the library
    ├── DiagnosticError           carries one or more Diagnostics (file, line, column, MH code)
    ├── UsageError                a caller's argument is out of range (CLI exit 2)
    ├── StoreError                the embedded memory store cannot be opened or written
    ├── BackendError              a memory backend failed or timed out
    └── HomeError (an OSError)    the home folder memhooks' own folders default to is
                                  missing or unusable (HOME); a cache treats it as off

    MemhooksWarning (a UserWarning) a setting was ignored, and why; work went on

Library code never prints and never exits; the CLI maps these to exit codes and prints
each warning once on stderr as ``warning[MHnnn]: …``; the agent hook leaves warnings out.
Diagnostic codes, titles and help are data: :mod:`memhooks.catalogue`, loaded when a
diagnostic is made (the agent hook's calls make none, and skip loading it).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BackendError", "Diagnostic", "DiagnosticError", "HomeError", "MemhooksError",
    "MemhooksWarning", "MissingStoreError", "StoreError", "UsageError", "code_of",
    "diagnostics_of", "fail", "one_line", "said", "store_diagnostic",
]  # fmt: skip


class Diagnostic:
    """One finding about one place: ``code`` (``MHnnn``), severity, message, path,
    1-based ``line``/``column`` (``None`` when unknown) and ``help`` (what to do).

    ``key`` is the dotted key path inside the frontmatter (e.g.
    ``recall_queries[0].priority``) when the finding is about a field.
    """

    __slots__ = ("code", "column", "help", "key", "line", "message", "path", "severity")

    def __init__(
        self,
        code: str,
        message: str,
        path: str,
        line: int | None = None,
        column: int | None = None,
        *,
        severity: str | None = None,
        help: str | None = None,
        key: str | None = None,
    ) -> None:
        from .catalogue import CATALOGUE, ERROR, GENERIC_TITLE

        default_severity, _title, default_help = CATALOGUE.get(code, (ERROR, GENERIC_TITLE, ""))
        self.code, self.message, self.path = code, message, path
        self.line, self.column, self.key = line, column, key
        self.severity = severity or default_severity
        self.help = help if help is not None else (default_help or None)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"  # catalogue.ERROR

    @property
    def title(self) -> str:
        from .catalogue import CATALOGUE, ERROR, GENERIC_TITLE

        return CATALOGUE.get(self.code, (ERROR, GENERIC_TITLE, ""))[1]

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line or 1, self.column or 1, self.code)

    def to_json(self) -> dict[str, Any]:
        """The reference's JSON shape: ``line``, ``column``, ``help`` omitted when unknown."""
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "path": self.path,
        }
        if self.line is not None:
            out["line"] = self.line
        if self.column is not None:
            out["column"] = self.column
        if self.help:
            out["help"] = self.help
        return out

    def place(self) -> tuple[int, int] | None:
        """1-based (line, column) to show: the diagnostic's own, ``(1, 1)`` for a regular
        file without a known position (as the reference engine), None when the subject
        has no lines (a folder, a missing path, a special file, a symlink, a setting, a
        command-line flag, an unsafe path or a store: :data:`LINELESS`)."""
        if self.line is None and (self.code in LINELESS or not _is_file(self.path)):
            return None
        return (self.line or 1, self.column or 1)

    def render(self) -> str:
        """Human form: ``error[MH004]: …`` / ``  --> path:line:col`` / ``  help: …``.

        A diagnostic without a line whose path is not a regular file (a folder, a missing
        path, a FIFO, a symlink, a setting or a command-line flag: nothing with lines)
        shows ``  --> path`` alone, where the reference engine prints ``:1:1``; a file
        without a known position keeps ``:1:1``. Control characters in the message, path or help
        (a folder named with a newline or an escape sequence) are shown as ``\\xNN``, so
        each diagnostic stays three lines and ``path:line:col`` stays parseable
        (:func:`memhooks.terminal.visible`)."""
        from .terminal import visible

        where = visible(self.path)
        place = self.place()
        if place is not None:
            where += f":{place[0]}:{place[1]}"
        lines = [f"{self.severity}[{self.code}]: {visible(self.message)}", f"  --> {where}"]
        if self.help:
            lines.append(f"  help: {visible(self.help)}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Diagnostic({self.code} {self.path}:{self.line}:{self.column} {self.message!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Diagnostic) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.code, self.path, self.line, self.column, self.message))


#: Codes whose subject is a path or an argument, never a place in it (MH029 an unsafe path,
#: cli20; MH037 a store; MH044 a command-line argument, even one naming a file): alone.
LINELESS = frozenset({"MH029", "MH037", "MH044"})


def _is_file(path: str) -> bool:
    """Whether ``path`` is a regular file (not followed through a symlink)."""
    import os
    import stat

    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


class MemhooksError(Exception):
    """Root of every exception memhooks raises on purpose. ``code``: the diagnostic code a
    hook's stderr line gives it (:func:`code_of`); None: :data:`HOOK_FAILED`."""

    code: str | None = None


class DiagnosticError(MemhooksError):
    """A failure that is described by diagnostics (the first one is the headline).

    Attributes: ``diagnostics`` (non-empty list of :class:`Diagnostic`).
    """

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = diagnostics
        super().__init__(diagnostics[0].message)

    @property
    def diagnostic(self) -> Diagnostic:
        return self.diagnostics[0]


class UsageError(MemhooksError):
    """A caller's value is out of range or malformed (CLI exit 2). ``code``: the hook's (folder
    MH024, ``--agent`` MH040), else MH044 (``cli.usage_diagnostic``) at ``argument``, the
    command-line argument at fault as typed (a flag, a session id); ``help``: what to do."""

    def __init__(self, message: str = "", code: str | None = None, *,
                 argument: str | None = None, help: str | None = None) -> None:  # fmt: skip
        super().__init__(message)
        self.code, self.argument, self.help = code, argument, help


class StoreError(MemhooksError):
    """The embedded memory store could not be opened, migrated, read or written.
    ``path``: the SQLite file at fault, when the file itself is the problem (not a
    database, a folder, damaged, locked, read-only, …: a command reports it as MH037 at
    that path), else None (a request the store could not do: no such memory)."""

    code = "MH037"

    def __init__(self, message: str = "", path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class MissingStoreError(StoreError):
    """There is no store file yet and the caller asked not to create one (a reader)."""


class BackendError(MemhooksError):
    """A memory backend failed, refused, or did not answer within its timeout."""

    code = "MH039"


class HomeError(MemhooksError, OSError):
    """The user's home folder cannot hold memhooks' own folders: ``HOME`` names nothing,
    a file or a relative path, or is unset with no home in the password database. The
    message names the variable and the setting that moves the folder. An ``OSError`` too,
    so a cache that cannot be written because of it counts as off, as for any other file
    system refusal (:func:`memhooks.dirs.home`). MH037: the store and state files it
    would hold cannot be found."""

    code = "MH037"


class MemhooksWarning(UserWarning):
    """A setting was not as asked and memhooks went on without it (:func:`warnings.warn`):
    ``text`` says what and why in one line (``MEMHOOKS_ROOT ignored: …``); ``code`` and
    ``where`` (the setting) make the diagnostic the CLI shows."""

    def __init__(self, text: str, code: str, where: str) -> None:
        super().__init__(text)
        self.code, self.where = code, where


def fail(
    code: str, text: str, path: str, line: int | None = None, column: int | None = None, **kw: Any
) -> DiagnosticError:
    """Build a :class:`DiagnosticError` for one diagnostic (``raise fail(...)``): its
    code, message ``text``, path, line, column and :class:`Diagnostic`'s keywords."""
    return DiagnosticError(Diagnostic(code, text, path, line, column, **kw))


def store_diagnostic(exc: BaseException | None) -> Diagnostic | None:
    """MH037 at the store's path when ``exc`` is a StoreError about the file itself
    (:attr:`StoreError.path`: not a database, a folder, damaged, locked, read-only, no
    store yet for a reader), else None — a request the store could not do, or another
    error. How every command reports an unusable store (``memhooks recall`` too)."""
    if not isinstance(exc, StoreError) or exc.path is None:
        return None
    # no store yet, or a 0-byte file: the message says how one is made
    told = "" if isinstance(exc, MissingStoreError) else None
    return Diagnostic("MH037", str(exc), exc.path, help=told)


def diagnostics_of(exc: BaseException | None) -> list[Diagnostic]:
    """The diagnostics a command prints for ``exc``, a failure it reports in its own
    output (recall's unavailable backend): a DiagnosticError's own (an invalid
    configuration: MH028 at its file, line and column), an unusable store's MH037
    (:func:`store_diagnostic`), else none — its message is all there is to say."""
    if isinstance(exc, DiagnosticError):
        return list(exc.diagnostics)
    store = store_diagnostic(exc)
    return [store] if store is not None else []


#: A hook's failure no other code names: a bug, or an error of ours without one (:func:`code_of`).
HOOK_FAILED = "MH042"


def code_of(exc: BaseException) -> str:
    """The diagnostic code of ``exc`` on a hook's stderr line: a diagnostic's own, the
    exception's ``code`` (StoreError and HomeError MH037, BackendError MH039, a
    UsageError's where it was given), else :data:`HOOK_FAILED`."""
    diagnostic = getattr(exc, "diagnostic", None)
    if isinstance(diagnostic, Diagnostic):
        return diagnostic.code
    return (exc.code if isinstance(exc, MemhooksError) else None) or HOOK_FAILED


def said(exc: BaseException) -> str:
    """``exc`` in one line without its code: a diagnostic's message, place
    (``path:line:col``, or the path alone when no line is known) and what to do; our own
    errors' text (they say what is wrong and what to do); else the exception's type and
    text. Whitespace runs (newlines) become one space."""
    diagnostic = getattr(exc, "diagnostic", None)
    if isinstance(diagnostic, Diagnostic):
        where = diagnostic.path
        if diagnostic.line is not None:
            where += f":{diagnostic.line}:{diagnostic.column or 1}"
        text = f"{diagnostic.message} ({where})"
        if diagnostic.help:
            text += f"; {diagnostic.help}"
    elif isinstance(exc, MemhooksError):
        text = str(exc)
    else:
        text = f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())


def coded(code: str, text: str) -> str:
    """``MHnnn text``: one coded line (the hook path's twin: :func:`.hook.reply.coded`)."""
    return f"{code} {text}"


def one_line(exc: BaseException, what: str = "") -> str:
    """``exc`` as one :func:`coded` note: :func:`code_of`, ``what`` failed (``"…: "``), :func:`said`."""
    return coded(code_of(exc), what + said(exc))
