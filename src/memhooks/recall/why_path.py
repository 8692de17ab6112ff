"""``memhooks why`` for a file a person or an agent names (the command and the MCP tool):
find its project and work tree, the chain's exclusions, the store and the blame cache,
check the lines asked for against the file, then :func:`memhooks.recall.why.explain_lines`.

Kept apart from :mod:`.why` because none of this is on the hook's path (the hook knows
its root, store and state directory already), and because here every way the answer
can be less than whole is said rather than raised: a hook file of the chain that does
not parse is skipped (as the hook skips it) and named; without a HOME there is no store
and no blame cache, and the answer comes from git alone, saying so. What the person got
wrong — a missing file, lines the file does not have — is an error.
"""

from __future__ import annotations

import os
import re
import tempfile

from ..dirs import home
from ..errors import Diagnostic, DiagnosticError, HomeError, UsageError
from ..lines.blame import BlameError
from ..lines.version import BINARY_PROBE, is_binary
from ..lines.worktree import place
from ..paths import is_within
from ..protocol.resolve import resolve_at
from ..protocol.root import REASON_TARGET, canonical, resolve_target
from ..session.location import state_dir
from ..store import MemoryStore, default_path
from ..workspace import Workspace, locate
from .result import skipped_line
from .why import Why, explain_lines
from .why_head import at_head

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

#: The code of a line range the file does not have (:mod:`memhooks.catalogue`).
RANGE_CODE = "MH035"
#: ``LINE`` or ``FIRST-LAST`` as ``memhooks why`` takes them: ASCII digits only (``\d``
#: took ``a.py:٣``, an Arabic-Indic three, as line 3).
RANGE = re.compile(r"^([0-9]+)(?:-([0-9]+))?$")
#: What to do about a file ``why`` cannot find (MH024).
MISSING_HELP = (
    "check the path: name a file that exists, relative to the working folder or absolute, "
    "then :LINE or :FIRST-LAST if you want lines of it"
)
#: What to do when git cannot tell who owns the lines (MH032).
NO_GIT_HELP = (
    "name a file of a git work tree with commits (`git init` and a first commit for a "
    "new project), with git installed and on PATH"
)


class LineRangeError(DiagnosticError, UsageError):
    """Lines asked for that the file does not have, or a range that is not one
    (:data:`RANGE_CODE`); a diagnostic like every other (``memhooks why`` exits 1, as
    for MH024/MH029/MH032; a UsageError for the MCP tool). The message names the file,
    the range as given and the lines the file has."""


def why(
    path: str,
    ranges: Sequence[tuple[int, int]] = (),
    *,
    store_path: str | None = None,
    deadline: float | None = None,
    within: str | None = None,
) -> Why:
    """Why lines ``ranges`` of the file ``path`` (absolute, or relative to the process
    directory) are as they are, in its project: the exclusions of the chain of its
    folder (an invalid hook file left out and named in :attr:`Why.remarks`), the revert
    marks of the embedded store at ``store_path`` (default store; none when it does not
    exist), the blame cache in the state directory (without a usable HOME: neither, said
    in :attr:`Why.remarks`; a file of another project than the process directory's is
    answered with a remark naming it). ``within``: a project root the file must be in
    (the MCP server's: an agent names files of its project only). Raises
    DiagnosticError MH024 (no such path), MH029 (a symlink leads out of the file's
    project, or the file is outside ``within``, or it is no file: a folder), MH032 (not
    in a git work tree); :class:`LineRangeError` (a range starts past the end of
    the file), DiagnosticError MH032 (git cannot blame it). What is wrong with the path
    is said before anything about the lines (:func:`checked`)."""
    where, top, rel = checked(path, within)
    real = os.path.realpath(path)
    plan = resolve_at(resolve_target(os.path.dirname(real)), [], skip_invalid=True)
    remarks = [_skipped(d, where.root) for d in plan.skipped]
    if within is None:  # a person: a file of another project is answered, and said to be
        cwd = resolve_target(os.getcwd())
        if cwd.reason != REASON_TARGET and cwd.root != where.root:
            remarks.insert(
                0, f"answered for the project at {where.root} (not this one, {cwd.root})"
            )
    missing: list[str] = []
    try:
        state: str | None = state_dir()
    except HomeError:
        state = None
        missing.append("blame cache")
    try:
        store_file: str | None = store_path or default_path()
    except HomeError:
        store_file = None
        missing.append("memory store")
    if missing:
        remarks.append(_homeless(missing))
    # a store named outright: one, or said missing (newcomer30: a folder or a missing
    # file left the revert marks out without a word; a folder is MH037)
    store = None
    if store_path and not os.path.lexists(store_path):
        remarks.append(f"no memory store at {store_path}: no commit is marked reverted")
    elif store_path:
        store = MemoryStore(store_path, create=False)
    elif store_file and os.path.lexists(store_file):  # a folder there: MH037 (newcomer31)
        store = MemoryStore(store_file, create=False)
    # no HOME: a blame cache for this answer only, gone with it
    scratch = tempfile.TemporaryDirectory(prefix="memhooks-why-") if state is None else None
    blame_dir = scratch.name if scratch is not None else state or ""
    try:
        answer = explain_lines(
            top,
            rel,
            ranges,
            state_dir=blame_dir,
            exclude=list(plan.exclude),
            store=store,
            project=where.project,
            shown_path=where.relative(real),
            deadline=deadline,
            max_before=None,  # each line's, whatever the range (the hook's are bounded)
        )
        at_head(top, rel, answer, state_dir=blame_dir, exclude=list(plan.exclude), store=store,
                project=where.project, deadline=deadline)  # fmt: skip
        if answer.unrun is not None:  # owners known from the cache, the rest needed git
            raise BlameError(answer.unrun, ran=False)
    except BlameError as exc:
        at = min(first for first, _ in ranges) if ranges else None  # the lines asked about
        raise DiagnosticError(
            Diagnostic("MH032", f"git cannot blame it: {exc}", path, at, help=NO_GIT_HELP)
        ) from None
    finally:
        if store is not None:
            store.close()
        if scratch is not None:
            scratch.cleanup()
    answer.binary = answer.size is None and is_binary(_start(real))
    answer.remarks = remarks
    check_ranges(answer)
    return answer


def checked(path: str, within: str | None = None) -> tuple[Workspace, str, str]:
    """The file ``path`` as ``why`` answers for it: (its workspace, the top of the git
    work tree holding it, its path there). Raises DiagnosticError, in this order — what
    is wrong with the path is said before anything about its lines: MH024 (no such
    path), MH029 (a symlink leads out of its project; no file: a folder; outside
    ``within``), MH032 (not in a git work tree)."""
    existing(path)
    where = locate(path)  # MH029 a symlink that leads out of its project
    if not os.path.isfile(path):
        raise DiagnosticError(
            Diagnostic(
                "MH029",
                f"`{path}` is not a file: `why` explains the lines of a file",
                path,
                help="name a file (PATH or PATH:LINE[-LINE]); for a folder's memories, `memhooks recall`",
            )
        )
    real = os.path.realpath(path)
    if within is not None and not is_within(real, within):
        raise DiagnosticError(
            Diagnostic(
                "MH029",
                f"`{path}` is outside the project `{within}`: only its files are explained here",
                path,
                help="name a file of this project",
            )
        )
    placed = place(real)
    if placed is None:
        raise DiagnosticError(
            Diagnostic(
                "MH032", "not in a git work tree, so no commit owns its lines", path,
                help=NO_GIT_HELP,
            )
        )  # fmt: skip
    return where, *placed


def existing(path: str) -> str:
    """``path`` with every symlink followed. Raises DiagnosticError MH024 naming it
    (:data:`MISSING_HELP`) when it does not exist: asked first, so a missing file is
    said as missing, not as lines it does not have (``missing.py:0``)."""
    try:
        return canonical(path, "file")
    except DiagnosticError as exc:
        found = exc.diagnostic
        raise DiagnosticError(
            Diagnostic(found.code, found.message, found.path, help=MISSING_HELP)
        ) from None


def check_ranges(answer: Why) -> None:
    """Raise :class:`LineRangeError` when a range of ``answer.lines`` starts past the end
    of the file (a range that ends past it is answered for the lines there, with a
    note: as ``sed -n`` or an editor would). A file that is not text has no lines to
    check; a project without a commit cannot say how many lines the file has."""
    if answer.size is None or answer.binary:
        return
    for first, last in answer.lines:
        if first > answer.size:
            asked = f"{first}" if first == last else f"{first}-{last}"
            raise range_error(answer.path, asked, answer.size)


def range_error(
    path: str, asked: str, size: int | None, argument: str | None = None
) -> LineRangeError:
    """The :class:`LineRangeError` for lines ``asked`` (as the caller wrote them) of
    ``path``, which has ``size`` lines (None: not known). Lines that name lines are
    located in the file, column 1: a range past its end at its last line, a reversed one
    where it begins as written (or the last line). Text that names no line — not
    numbers, ``0``, empty — is a mistake of the argument, no place in the file: located
    at ``argument`` as typed (``a.py:abc``; the MCP tool's ``first_line``), alone, as a
    flag is (no line or column; it was ``a.py:1:1``, which reads as a place in the
    file); without ``argument``, at ``path``, line 1."""
    match = RANGE.match(asked)
    first = int(match.group(1)) if match else 0
    last = int(match.group(2) or first) if match else 0
    if size is not None and 1 <= first <= last and first > size:
        what = f"line{'s' if last > first else ''} {asked} {'are' if last > first else 'is'} past the end of the file"
    elif match and first > last >= 1:  # written backwards: say which way it goes
        what = f"`{asked}` is reversed: the first line comes first ({last}-{first})"
    elif asked:
        what = f"`{asked}` is not a line or a range of lines"
    else:
        what = "no line or range of lines follows the `:`"
    if size is None:
        valid = "ask for LINE or FIRST-LAST, counted from 1"
    elif size == 0:
        valid = "it is empty: ask for the whole file, without lines"
    elif size == 1:
        valid = "it has 1 line: ask for line 1"
    else:
        valid = f"it has {size} lines: ask for LINE or FIRST-LAST between 1 and {size}"
    # the message quotes the range as written
    said = f"{what}; {valid}"
    if first >= 1 and last >= 1:  # lines, past the end or reversed: a place in the file
        return LineRangeError(Diagnostic(RANGE_CODE, said, path, min(first, size or first), 1))
    if argument is not None:
        return LineRangeError(Diagnostic(RANGE_CODE, said, argument))
    return LineRangeError(Diagnostic(RANGE_CODE, said, path, 1, 1))


def line_count(path: str) -> int | None:
    """How many lines the file ``path`` has, as git counts them (a last line without a
    newline counts), or None when it cannot be read."""
    try:
        with open(path, "rb") as fp:
            data = fp.read()
    except OSError:
        return None
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _skipped(diagnostic: Diagnostic, root: str) -> str:
    """The remark for a hook file of the chain left out: the hook's line for it
    (:func:`memhooks.recall.result.skipped_line`), and what that leaves out here."""
    path = diagnostic.path
    if os.path.isabs(path):
        path = os.path.relpath(path, root).replace(os.sep, "/")
    message = diagnostic.message.splitlines()[0] if diagnostic.message else diagnostic.title
    line = skipped_line(path, diagnostic.line, diagnostic.column, diagnostic.code, message)
    return f"{line} — its exclusions are not applied"


def _homeless(missing: list[str]) -> str:
    """The remark for an answer without a usable HOME (no store, no blame cache)."""
    try:
        home()
        reason = "HOME cannot hold memhooks' folders"
    except HomeError as exc:
        reason = str(exc)
    said = f"{reason}: no {' and no '.join(missing)}, so this answer is from git alone"
    if "memory store" in missing:
        said += " (no revert marks of imported history applied)"
    return said


def _start(path: str) -> bytes:
    """The first bytes of ``path`` git's binary test reads (none when unreadable)."""
    try:
        with open(path, "rb") as fp:
            return fp.read(BINARY_PROBE)
    except OSError:
        return b""
