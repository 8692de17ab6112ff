"""Line-level recall in the hook (issue 20 items 2, 3): what the agent is told about the
lines it reads and is about to replace — the commits that own them, and for a commit
that only reshaped them, the commits before it.

=============== ===================================================================
read            a post-tool event of a read (Read offset/limit, read_file, view,
                ``sed -n A,Bp``/``nl``/``head``/``tail``/``cat``: :mod:`memhooks.lines.tools`):
                the ranked owners of the lines read (:mod:`memhooks.recall.line_rank`);
                the whole file is then blamed ahead in the background
                (:mod:`memhooks.lines.warm`) so the edit finds it ready
edit, before    the pre-tool event of an edit, where the host's pre-tool reply reaches
                the model (:attr:`memhooks.agents.delivery.Delivery.pre_tool_events`):
                the owners of the lines it replaces (±3), and their previous owners
edit, after     hosts without such a channel: the post-tool event of the same edit,
                answered for the version saved before it (:func:`memhooks.lines.saved_text`)
=============== ===================================================================

With the lines of an edit (and of a ranged read) come the memories that name the code
in them — the functions enclosing them, the names they define and the file's own names
they use — whatever they are anchored to (:mod:`memhooks.recall.symbol_recall`: a
remembered note, an imported conversation), above a floor; each memory once per session.

Each commit reaches a session once (ledger items :func:`memhooks.session.keys.commit`). The chain's
``exclude`` phrases and the embedded store's revert marks apply; commit text is labelled
untrusted. ``MEMHOOKS_LINE_RECALL=off`` turns it off. Nothing here writes but the blame
cache (and the definitions kept beside it: :mod:`memhooks.lines.names`) and the session's
ledger. A failure is the hook's (fail open: one stderr line).
"""

from __future__ import annotations

import os

from ..session import keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .call import HookCall

#: Files of one tool call told about (the first ones it names).
MAX_FILES = 2
#: The last line of any file (a read without a range reads the whole file).
WHOLE = keys.WHOLE
#: Seconds kept back for the rest of the call (rendering, the ledger write).
MARGIN_S = 0.3
#: The served target of a symbol cue searched in the session: ``names:<path>#<names>``.
NAMES = "names:"


def for_read(call: HookCall) -> str:
    """What to add after a read: the owners of the lines read (``""``: nothing)."""
    from ..lines.tools import reads
    from ..recall.line_recall import READ
    from .owners import tell

    event = call.event
    texts: list[str] = []
    # only the files told about are claimed: a file past MAX_FILES is told at its next read
    found = reads(event.tool_name or "", event.tool_input or {}, call.host)[:MAX_FILES]
    named = [(rel, ranges) for path, ranges in found if (rel := call.inside(call.absolute(path)))]
    won = claim(call, named)
    for path, ranges in found:
        if (call.inside(call.absolute(path)), tuple(ranges or [(1, WHOLE)])) not in won:
            continue  # read before, or a parallel hook call of the session is telling it
        where = _locate(call, path)
        if where is None:
            continue
        top, rel, shown = where
        if any(first < 0 for first, _ in ranges):  # tail -n N: the last N lines
            from ..lines.shell import from_end  # loaded already: a shell command read

            ranges = from_end(ranges, _size(top, rel))
        told = tell(
            call, top, rel, shown, ranges or [(1, WHOLE)], kind=READ, deadline=_deadline(call)
        )
        if told is not None and told.text:
            texts.append(told.text)
        if ranges:  # a part was read: the rest is blamed ahead, for the edit to come
            _blame_ahead(call, top, rel)
        text = _read(top, rel) if _has_names(call, rel) else None
        if text is not None:
            # a whole file names every definition in it: no cue, but the definitions are
            # kept for the edit to come (lines.names)
            texts.append(_by_names(call, top, rel, shown, text, ranges))
    return "\n\n".join(t for t in texts if t)


def claim(
    call: HookCall, reads: list[tuple[str, list[tuple[int, int]]]]
) -> set[tuple[str, tuple[tuple[int, int], ...]]]:
    """Mark the lines ``reads`` (root-relative file, its ranges; none: the whole file)
    read in the session's served targets (:func:`memhooks.session.keys.lines`): the same
    read again settles in the tool-event shortcut. Returns the reads this call claimed
    first, ranges as given (a parallel hook call of the session may have claimed one)."""
    spans = {(rel, tuple(ranges or [(1, WHOLE)])) for rel, ranges in reads if rel}
    marks = {read: [keys.lines(read[0], first, last) for first, last in read[1]] for read in spans}
    won = set(call.session.claim([key for keys_ in marks.values() for key in keys_]))
    return {read for read, keys_ in marks.items() if won.intersection(keys_)}


def for_edit(call: HookCall, *, applied: bool) -> str:
    """What to tell before an edit (``applied``: after it, for a host with no pre-tool
    channel): the owners of the lines it replaces and what they replaced."""
    from ..lines.ranges import around
    from ..lines.tools import changes
    from ..recall.line_recall import EDIT
    from .owners import tell
    from .told import handed, nothing_named

    event = call.event
    texts: list[str] = []
    names = not nothing_named(call)
    for change in changes(event.tool_name or "", event.tool_input or {})[:MAX_FILES]:
        # the pre-tool shortcut that did not settle this edit placed and read the file
        read = None if applied else handed(call.absolute(change.path))
        where = _locate(call, change.path, None if read is None else read[:2])
        if where is None:
            continue
        top, rel, shown = where
        text = read[2] if read is not None else _before_text(call, top, rel, applied)
        if text is None:
            continue
        # the lines it really changes, once (narrowing them runs difflib), and ±3 around
        focus = change.replaced(text)
        told = tell(
            call,
            top,
            rel,
            shown,
            around(focus, text),
            kind=EDIT,
            focus=focus,
            applied=applied,
            deadline=_deadline(call),
        )
        if told is not None and told.text:
            texts.append(told.text)
        if names and _has_names(call, rel):
            texts.append(_by_names(call, top, rel, shown, text, focus))
    return "\n\n".join(t for t in texts if t)


def _before_text(call: HookCall, top: str, rel: str, applied: bool) -> str | None:
    """The file's text before the edit: as it is now (pre-tool), or as the blame cache
    saved it (post-tool; None when it has no version from before)."""
    if applied:
        from ..lines import saved_text

        return saved_text(top, rel, state_dir=call.state_dir)
    return _read(top, rel)  # None: a new file, no lines to replace


def _read(top: str, rel: str) -> str | None:
    try:
        with open(os.path.join(top, *rel.split("/")), encoding="utf-8", errors="replace") as fp:
            return fp.read()
    except OSError:
        return None


def _size(top: str, rel: str) -> int:
    """How many lines the file ``rel`` has, as git counts them (0: unreadable)."""
    try:
        with open(os.path.join(top, *rel.split("/")), "rb") as fp:
            data = fp.read()
    except OSError:
        return 0
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _has_names(call: HookCall, rel: str) -> bool:
    """Whether the names of ``rel``'s code can find anything: a language whose
    definitions are read (:func:`memhooks.symbols.language`), and a store to search
    (the embedded one exists, or another backend is configured)."""
    if not call.store_ready or call.remaining() <= MARGIN_S:
        return False  # no store: nothing to find (and nothing of memhooks.symbols loaded)
    from ..symbols.reader import language

    return language(rel) is not None


def _by_names(
    call: HookCall, top: str, rel: str, shown: str, text: str, ranges: list[tuple[int, int]]
) -> str:
    """The memories that name the code of lines ``ranges`` (the symbol cue,
    :mod:`memhooks.recall.symbol_recall`), claimed in the session's ledger; ``""``
    when none passes the floor. No ``ranges`` (a whole file read): its definitions are
    only kept for the edit to come."""
    from ..lines.names import definitions

    found = definitions(top, rel, text, state_dir=call.state_dir)
    if not ranges or not found:
        return ""
    from ..recall.symbol_recall import Cue
    from ..symbols.reader import symbols_among

    cue = Cue.of(shown, symbols_among(found, text, ranges))
    if cue is None or call.tool_budget() <= 0:
        return ""
    # A cue searched before in this session found what it finds (its best are told once:
    # symbol_recall.find): another edit in the same function opens no store.
    key = NAMES + shown + "#" + ",".join(sorted(cue.names))
    if key in call.session.served() or not call.session.claim([key]):
        return ""
    left = call.tool_budget()
    backend = call.backend
    if backend is None or isinstance(backend, Exception):
        call.session.release([key])
        return ""  # an unavailable backend is said at prompt time
    from ..errors import MemhooksError
    from ..recall import QUERY_TIMEOUT_S
    from ..recall.symbol_recall import find, ledger_items, render
    from .exclusions import exclusions

    try:
        memories = find(
            backend,
            call.project,
            cue,
            delivered=call.session.delivered(),
            exclude=lambda: exclusions(call, top, rel),
            timeout_s=max(0.05, min(QUERY_TIMEOUT_S, call.remaining() - MARGIN_S)),
        )
    except MemhooksError as exc:
        from ..errors import one_line

        call.session.release([key])  # not searched: the next edit there tries again
        call.notes.append(
            one_line(exc, f"the memories naming the code of {shown} could not be searched: ")
        )
        return ""
    told, kept = render(memories, left)
    if not kept:
        return ""

    def size(claimed: set[str]) -> int:
        nonlocal told
        told = render([m for m in kept if m.id in claimed], left)[0]
        return len(told)

    claimed = call.session.record(call.native or "", shown, ledger_items(kept), size, tool_time=True,
                                  ceiling=call.tool_ceiling())  # fmt: skip
    return told if any(m.id in claimed for m in kept) else ""


def _locate(
    call: HookCall, path: str, placed: tuple[str, str] | None = None
) -> tuple[str, str, str] | None:
    """(work tree top, path relative to it, path relative to the root) of a file of the
    project, or None (outside the root, not a file, not in a git work tree). ``placed``:
    its (top, rel) as :func:`memhooks.lines.worktree.place` answered already."""
    full = call.absolute(path)
    shown = call.inside(full)
    if not shown:
        return None
    if placed is not None:
        return placed[0], placed[1], shown
    from ..lines.worktree import place

    found = place(full)
    if not shown or found is None:
        return None
    return found[0], found[1], shown


def _deadline(call: HookCall) -> float:
    import time

    return time.monotonic() + max(0.05, call.remaining() - MARGIN_S)


def _blame_ahead(call: HookCall, top: str, rel: str) -> None:
    from ..lines.warm_start import spawn

    spawn(top, rel, call.state_dir)
