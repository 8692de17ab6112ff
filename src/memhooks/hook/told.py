"""Whether the session was already told everything an edit's lines would tell: the
pre-tool edit's shortcut (issue 20 item 7), decided from the blame cache and the
session's snapshot (:mod:`memhooks.session.snapshot`) with no SQLite and no git process.

An edit settles here only when it is sure: every file it changes is inside the root and
in a git work tree, its blame cache entry is for HEAD and the file as it is now
(:func:`memhooks.lines.cache.unchanged`), every line it replaces (±3) is known, and every
commit owning one was told in this session (its ``commit:<hash>`` row stands in the
ledger) — a low-signal owner (it only reshaped the lines) with the previous owners the
read looked up for those lines and kept with the file version, each told (or a boundary
commit) and none low-signal itself — or is the project's first commit, which an edit
tells only when it answers the session's prompt (:func:`memhooks.recall.line_rank.says`),
and this one does not; lines owned by a shallow clone's edge tell nothing (its history
is not in the clone). The names of the code find nothing to tell (the snapshot says so:
no store, or one holding only commits' memories, :func:`quiet_store`). Anything else
goes the whole way, with the cache entry read here handed on
(:func:`memhooks.lines.cache.load`): the ledger stays the truth; this only says "nothing
new here". Only ``os`` and the cache's own modules load.

:func:`memhooks.hook.reactions.react` asks :func:`settled` for every pre-tool event,
before the root is looked for. It reads the session's snapshot and the store's state, so
it sits above them, in the hook (the other tool events' shortcut:
:mod:`memhooks.session.fastpath`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence

    from ..filestate import Key
    from ..lines.cache import Entry
    from ..lines.said import Said
    from ..lines.tools import Change
    from .call import HookCall


def settled(call: HookCall) -> bool:
    """True when ``call``, a pre-tool event of a session, needs nothing: not an edit
    (hosts such as Codex and Cline send one for every tool), or an edit the session's
    snapshot settles (:func:`memhooks.session.edits.edit_settled`, by
    :func:`all_told`): the host's no-op, no SQLite. False sends it the whole way. Not
    with capture on (capture reads every tool event)."""
    event = call.event
    if not event.session_id or call.capture_on:
        return False
    from ..lines.tools import changes

    found = changes(event.tool_name or "", event.tool_input or {})
    if not found:
        return True  # not an edit: nothing to tell before it
    from ..session.edits import edit_settled

    def sure(root: str, told: frozenset[str], prompt: str | None) -> bool:
        return all_told(found, call.absolute, root, call.state_dir, told, prompt)

    return edit_settled(call, sure)


def all_told(
    found: Sequence[Change],
    absolute: Callable[[str], str],
    root: str,
    state_dir: str,
    told: Collection[str],
    prompt: str | None = None,
) -> bool:
    """True when the changes ``found`` (an edit tool call's:
    :func:`memhooks.lines.tools.changes`) replace only lines whose owners were all told (``told``: full hashes; see the module docstring). ``absolute``
    makes the call's paths absolute; ``root``: the session's root; ``prompt``: the
    session's latest. False, too, when a file changes under it (it vanished, it cannot
    be read: the whole way decides then). The cache entry it reads is the one
    :func:`memhooks.lines.cache.load` accepted (its format checked), so nothing else is
    caught here: a fault in this reading is a defect, and reaches the hook's one
    fail-open path (one line on stderr) instead of passing for "not told"."""
    if not found:
        return False
    try:
        return all(_told(change, absolute, root, state_dir, told, prompt) for change in found)
    except OSError:
        return False


def _told(
    change: Change,
    absolute: Callable[[str], str],
    root: str,
    state_dir: str,
    told: Collection[str],
    prompt: str | None,
) -> bool:
    from .. import filestate
    from ..lines import cache
    from ..lines.head import blame_key
    from ..lines.ranges import around
    from ..lines.worktree import place
    from ..paths import inside

    full = absolute(change.path)
    found = place(full) if inside(full, root) else None
    if found is None:
        return False
    top, rel = found
    real = os.path.join(top, *rel.split("/"))
    st = os.stat(real)
    entry = cache.load(cache.path_of(state_dir, top, rel), hand_on=True)  # the whole way's, if
    if entry is None or entry.stat != cache.stat_key(st) or entry.head != blame_key(top):
        return False
    with open(real, "rb") as fp:
        raw = fp.read()
    text = raw.decode("utf-8", "replace")
    _HANDED[full] = (top, rel, filestate.key(st), raw, text)  # for the whole way, if it goes
    if not cache.unchanged(entry, st):  # changed too recently for its stat to say: its lines
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        if lines != entry.text:
            return False
    # the lines the whole way asks about (±3), or more: where its old texts stand, not
    # narrowed to the lines its new texts change — narrowing compares them line by line
    # and loads difflib (~3 ms); more lines only ask more owners to have been told
    ranges = around(change.replaced(text, narrow=False), text)
    if not ranges:
        return False
    from ..lines.said import says_little

    said_of = entry.said
    size = entry.size
    # each owner of the lines: (its path there, its previous commit, its line numbers
    # there in the edit's own lines), as lines.ownership answers them (the first line's
    # origin names the path)
    owned: dict[str, tuple[str, object, set[int]]] = {}
    mixed: set[str] = set()
    lines_at: dict[int, tuple[str, int]] = {}  # line -> (owner, its line number there)
    for first, last in ranges:
        for n in range(max(1, first), min(last, size) + 1):
            known = entry.known(n)
            if known is None:
                return False  # not blamed yet
            if known < 0:
                continue  # uncommitted: owned by no commit
            row = entry.owner(known)
            if row is None:
                return False  # a row damaged by hand: the whole way (blamed again)
            (hash_, path, previous, _previous_path), there = row, cache.origin_of(known)[1]
            if (entry.commit(str(hash_)) or ("", 0, False))[2]:  # a shallow clone's edge
                continue  # never told: its history is not in the clone
            if hash_ not in owned:
                owned[str(hash_)] = (str(path), previous, set())
            elif owned[str(hash_)][0] != path:
                mixed.add(str(hash_))  # two paths in one commit: which one keys its rows
            lines_at[n] = (str(hash_), there)
    for hash_ in {h for h, _ in lines_at.values()}:  # owning only lines without a word:
        if entry.wordless(n for n, (h, _) in lines_at.items() if h == hash_):
            del owned[hash_]  # never named (recall.why), so never to be told
    said: dict[str, Said | None] = {}
    for owner in [h for h in owned if h not in told]:  # one untold is enough: asked first
        note = said[owner] = said_of(owner)
        if note is None or _untold_tells(note, owned[owner][1]):
            return False
    said.update((h, said_of(h)) for h in owned.keys() - said.keys())
    if any(s is not None and s.low_signal for s in said.values()):
        # a low-signal owner: the whole way looks for its previous owners from the edit's
        # own lines that hold a word (no context; recall.why: the owner as it owns these;
        # why_delta.worded_part: a blank line has nothing to follow)
        for a, b in change.replaced(text):
            for n in range(a, b + 1):
                if n in lines_at and lines_at[n][0] in owned and not entry.wordless([n]):
                    owned[lines_at[n][0]][2].add(lines_at[n][1])
    for owner, (path, prior, numbers) in owned.items():
        note = said[owner]
        if note is None:
            return False  # not read yet
        if note.low_signal:  # told with the owners before it
            if not note.walked or (prior is None and says_little(note.low_signal)):
                continue  # nothing behind it: never told at an edit (recall.line_recall)
            if owner not in told or owner in mixed:
                return False
            if not _before_told(entry, said_of, owner, path, prior, numbers, told):
                return False
        elif owner not in told:
            if prior is not None or not note.root:
                return False
            from ..recall.line_rank import says  # the project's first commit

            if says(note.message, prompt):
                return False
        elif prior is not None and _respaced(entry, owner, lines_at):
            return False  # the whole way walks back from its re-spaced lines
    return True


def _untold_tells(note: Said, prior: object) -> bool:
    """Whether an untold owner that said ``note`` (previous commit ``prior``; None:
    none) is told at this edit whatever else holds, as :func:`_told`'s loop decides: a
    low-signal one with owners behind it, or any decision but the project's first commit
    (told only when it answers the prompt: the loop asks)."""
    from ..lines.said import says_little

    if note.low_signal:
        return note.walked and not (prior is None and says_little(note.low_signal))
    return prior is not None or not note.root


def _respaced(entry: Entry, owner: str, lines_at: dict[int, tuple[str, int]]) -> bool:
    """Whether the told commit ``owner``, whose subject is no low-signal one, changed one
    of its lines among ``lines_at`` (an edit's, ±3: ``{line: (owner, its number
    there)}``) only in whitespace, as the verdict kept with the file version says
    (:func:`memhooks.lines.said.spaced`) — or was not judged yet: the whole way then
    judges it, and walks back from such lines to the commits behind them
    (:func:`memhooks.recall.why_delta.rejudge`; lane verdict24: "tune defaults"
    re-spacing the decision's line was settled here once "tune" was told)."""
    from ..lines.cache import ABSENT
    from ..lines.said import NOTES, spaced

    verdict = entry.note(NOTES, owner)
    if verdict is ABSENT:
        return True
    return bool(spaced(verdict, [(n, n) for h, n in lines_at.values() if h == owner]))


#: A file the shortcut placed and read for an edit it did not settle, for the whole way
#: in the same process (:func:`handed`): ``{absolute path: (top, rel, its key, bytes,
#: the bytes decoded)}``.
_HANDED: dict[str, tuple[str, str, Key, bytes, str]] = {}


def handed(full: str) -> tuple[str, str, str] | None:
    """``(top, rel, text)`` of the file at the absolute path ``full`` as the shortcut
    placed (:func:`memhooks.lines.worktree.place`) and read it for an edit it did not
    settle, the text decoded as the whole way reads a file (UTF-8, undecodable bytes
    replaced, universal newlines) — while the file is unchanged (its key); None
    otherwise. Taken once: the whole way neither places nor reads the file again."""
    found = _HANDED.pop(full, None)
    if found is None:
        return None
    from ..filestate import key

    top, rel, known, raw, text = found
    try:
        if key(os.stat(os.path.join(top, *rel.split("/")))) != known:
            return None
    except OSError:
        return None
    if b"\r" not in raw:  # no newline to translate: the very text the shortcut decoded,
        return top, rel, text  # whose lines lines.ranges counted already (~0.1 ms a count)
    import io

    return top, rel, io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="replace").read()


def _before_told(
    entry: Entry,
    said_of: Callable[[str], Said | None],
    hash_: str,
    path: str,
    previous: object,
    numbers: set[int],
    told: Collection[str],
) -> bool:
    """Whether the previous owners of a low-signal owner's lines the edit changes (its
    line numbers there: ``numbers``; none: the whole way looks for none) were all told,
    as an earlier call looked them up and kept them with the file version
    (:func:`memhooks.lines.story.kept`, from what
    :func:`memhooks.lines.previous.previous_owners` keeps; lines no call looked up yet
    send the edit the whole way, which runs git): every one told, or a
    boundary commit (never told), and none low-signal itself (the whole way would walk
    on to the owner before it). An owner with no previous commit has none."""
    if previous is None or not numbers:
        return True
    from ..lines.ranges import ranges_of
    from ..lines.story import kept

    found = kept(entry, hash_, path, ranges_of(sorted(numbers)))
    if found is None:
        return False
    for rows in found:
        for row in rows:
            before = str(row[0])
            info = entry.commit(before)
            if isinstance(info, list) and len(info) > 2 and info[2]:
                continue  # a boundary commit: never told
            note = said_of(before)
            if before not in told or note is None or note.low_signal:
                return False
    return True


def nothing_named(call: HookCall) -> bool:
    """True when, as the session's snapshot knows it, the store ``call`` selects holds
    nothing but commits' memories, or there is none
    (:func:`memhooks.session.edits.nothing_named`): an edit that goes the whole way
    then opens no store to search by the code's names or for a file's notes — they
    would find nothing (the same rule that lets :func:`settled` settle an edit)."""
    from ..session.edits import nothing_named as known

    return known(call)
