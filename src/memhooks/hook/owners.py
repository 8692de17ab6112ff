"""The commits that own lines, told once per session (issue 20 items 2, 3): what
:mod:`.lines` tells at a read and before an edit, made by
:func:`memhooks.recall.line_recall.line_recall` and claimed in the session's ledger
(:func:`memhooks.session.keys.commit`: each commit reaches a session once).

What the session has is left out before the owners are ranked and capped
(:func:`memhooks.recall.line_recall.line_recall`): a commit told at another read, and
one whose history memory a prompt delivered (it claims ``commit:<hash>`` with the
memory's id). A commit the embedded store marks reverted (or obsolete) is left out, and
one given as a history memory by a ledger that holds only its memory id is told already:
the answer is made again without them. The store is opened only for commits about to be
told, and not while what it said of every commit, kept beside its state
(:mod:`memhooks.session.marks`), says it would change nothing.
"""

from __future__ import annotations

import os

from ..paths import resolved
from ..session import keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..recall.line_recall import LineRecall
    from ..session.marks import Marks
    from ..store import MemoryStore
    from .call import HookCall


def tell(
    call: HookCall,
    top: str,
    rel: str,
    shown: str,
    ranges: list[tuple[int, int]],
    *,
    kind: str,
    deadline: float,
    focus: list[tuple[int, int]] | tuple[()] = (),
    applied: bool = False,
) -> LineRecall | None:
    """The owners of lines ``ranges`` of ``rel`` (work tree ``top``; ``shown``: its path
    from the root) — and, for an edit, the previous owners of the lines it changes,
    ``focus`` — that the session was not told, told by ``deadline`` (monotonic) and
    claimed in its ledger; None when there is nothing to tell.

    An edit's owners spend the reserve of the session's tool-time budget that reads
    cannot (:func:`memhooks.hook.call.edit_reserve`); those no room was left for are
    said in one line, once per file and epoch (:func:`memhooks.recall.why_text.left_out`:
    the ``memhooks why`` that tells them), never claimed, as are those past the
    :data:`~memhooks.recall.line_recall.EDIT_OWNERS` an edit is told; a read past its
    budget says so once a session (:func:`_reads_left_out`), then nothing."""
    from ..recall.line_recall import EDIT, EDIT_OWNERS, LineRecall, line_recall

    if not ranges:
        return None
    session = call.session
    items = session.delivered()
    delivered = keys.of(keys.COMMIT, items)
    edit = kind == EDIT
    # the characters it may use: fewer when parallel calls spent them (made again then)
    room = [max(0, call.tool_budget(edit=edit))]
    if not room[0] and not edit and keys.READS_LEFT_OUT in items:
        return None  # the budget is spent for reads, and the session was told so
    prompt, state_dir = session.prompt, call.state_dir

    def made(**more: object) -> LineRecall:
        return line_recall(
            top,
            rel,
            ranges,
            kind=kind,
            state_dir=state_dir,
            deadline=deadline,
            prompt=prompt,
            shown_path=shown,
            delivered=delivered,
            max_chars=room[0],
            focus=focus,
            saved=applied,
            **more,  # type: ignore[arg-type]
        )

    def something(told: LineRecall) -> bool:
        return bool(told.commits or (edit and told.cut))

    more: dict[str, object] = {}
    told = made()
    if not something(told):
        return None if edit else _reads_left_out(call, shown, told)
    # The chain's exclusions are read only when there is something to tell (kept between
    # calls while its hook files stand; resolving the chain may parse them).
    from .exclusions import exclusions

    exclude = exclusions(call, top, rel)
    if exclude:
        more = {"exclude": exclude}
        told = made(**more)
        if not something(told):
            return None
    # The store is opened only for commits about to be told: one the store marks
    # reverted (or obsolete) is left out, and one the session was given as a history
    # memory (at the prompt: its memory id in the ledger) is told already — the answer
    # is made again without them. What it says of every commit is kept beside its
    # state (memhooks.session.marks): while it holds, the store is not opened.
    kept = _marks(call)
    asked = [*told.commits, *(e.commit.hash for e in told.cut)] if edit else told.commits
    if kept is not None and kept[1] is not None and kept[1].untouched(asked):
        store, project = None, None
    else:
        store, project = _store(call)
    if store is not None and project is not None:
        if kept is not None and kept[1] is None:
            _keep_marks(call, store, project)
        found = store.by_commit(project, asked)
        given = {h for h, memory in found.items() if memory.id in items}
        if given or any(memory.obsolete for memory in found.values()):
            delivered = delivered | given  # made() reads it when called
            more = {"store": store, "project": project, "exclude": exclude}
            told = made(**more)
            if not something(told):
                return None
    latest = [told]

    def again(taken: set[str], left: int | None) -> LineRecall:
        nonlocal delivered
        delivered = delivered | taken
        if left is not None:
            room[0] = min(room[0], left)
        latest[0] = made(**more)
        return latest[0]

    result = (
        _record(call, shown, told, again, call.tool_ceiling(edit=edit)) if told.commits else None
    )
    if result is None and not edit:  # made again in the room a parallel read left: none
        return _reads_left_out(call, shown, latest[0])  # (newcomer32: said by no read)
    last = result or latest[0]
    cut, capped = (last.cut, last.capped) if edit else ([], [])
    # said once per file and epoch, past the budget and not counted: it tells no commit
    # (a refactoring's 30 hunks over 7 files of iproute2's rdma/ said it 25 times);
    # logged as a delivery, as every line the model gets (`sessions show`), uncharged;
    # owners past the few an edit is told too (newcomer30: the fifth owner of five
    # replaced lines was left out without a word, and told at the next edit of them)
    if not cut and not capped:
        return result
    from ..recall.why_text import left_out

    line = left_out(cut, shown, capped=capped, most=EDIT_OWNERS)
    said: list[dict[str, object]] = [{"item": keys.left_out(shown), "words": line, "cue": None}]
    if not session.record(call.native or "", shown, said, lambda claimed: len(line)):
        return result
    if result is None:
        return LineRecall(line, [], told.why)
    result.text = f"{result.text}\n\n{line}"
    return result


def _reads_left_out(call: HookCall, shown: str, told: LineRecall) -> LineRecall | None:
    """A read whose owners the session lacks but no room was left for (``told.cut``):
    one line naming how many and the ``memhooks why`` that tells them, and that later
    reads may be told none — said once per epoch (newcomer28: after ~12 reads every read
    was told nothing, and neither the model nor the user heard why); None otherwise."""
    if not told.cut or keys.READS_LEFT_OUT in call.session.delivered():
        return None
    from ..recall.line_recall import LineRecall
    from ..recall.why_text import left_out

    line = left_out(told.cut, shown, reads=True)
    said: list[dict[str, object]] = [{"item": keys.READS_LEFT_OUT, "words": line, "cue": None}]
    if not call.session.record(call.native or "", shown, said, lambda claimed: len(line)):
        return None
    return LineRecall(line, [], told.why)


def _record(
    call: HookCall,
    shown: str,
    told: LineRecall,
    again: Callable[[set[str], int | None], LineRecall],
    ceiling: int,
) -> LineRecall | None:
    """Claim ``told``'s commits in the session's ledger and return what it tells; None
    when there is nothing to tell. When a parallel hook call of the session told one of
    them first, or spent the room it was made for (the session's tool-time ceiling), the
    answer is made again (``again(taken, room)``: without every commit the session holds
    then, in the characters it has left; outside the ledger's write,
    ``Session.record_made``), as it would have been made after that call: the room freed
    brings the next owners (parallel Reads of requests' utils.py 810-859 and 840-889
    left a4f9a599 and 2255c34a to neither, told only at an edit), the room taken fewer
    (parallel Reads of iproute2 spent 10,357 of 8,000 characters), and what it tells is
    what is claimed — a commit neither tells stays unclaimed (newcomer1: parallel Reads
    marked commits told that never reached the model)."""
    mine = set(told.commits)
    made: dict[str, LineRecall] = {}

    def answer(items: set[str], room: int | None) -> tuple[int, list[dict[str, object]]]:
        taken = keys.of(keys.COMMIT, items)
        overtaken = mine & taken or (room is not None and len(told.text) > room)
        made["told"] = now = again(taken, room) if overtaken else told
        return len(now.text), _items(now, shown)

    claimed = call.session.record_made(
        call.native or "", shown, answer, tool_time=True, ceiling=ceiling
    )
    result = made.get("told")
    return result if claimed and result is not None and result.commits else None


def _items(told: LineRecall, shown: str) -> list[dict[str, object]]:
    """The ledger items of the commits ``told`` tells: each commit's subject and the
    lines it explains (a previous owner: those of the owner it is behind)."""
    from ..recall.why_text import lines_of

    subjects: dict[str, str] = {}
    lines: dict[str, list[tuple[int, int]]] = {}
    for e in told.why.explanations:
        for commit in (e.commit, *e.previous):
            subjects.setdefault(commit.hash, commit.subject)
            lines.setdefault(commit.hash, e.lines)
    return [
        {"item": keys.commit(h), "words": subjects.get(h, "")[:80],
         "cue": lines_of(lines.get(h, []), shown)}
        for h in told.commits
    ]  # fmt: skip


def _store(call: HookCall) -> tuple[MemoryStore | None, str | None]:
    """The embedded store (its revert marks apply) and the project id, when the call's
    backend is the embedded store."""
    backend = call.backend
    if backend is None or call.root is None:
        return None, None
    from ..backends.embedded import EmbeddedBackend

    if not isinstance(backend, EmbeddedBackend):
        return None, None
    store = backend.store
    return store, call.project


def _marks(call: HookCall) -> tuple[str, Marks | None] | None:
    """(the embedded store's real path, the marks kept for it and the call's project or
    None: to be read) when the call selects the embedded store and its file exists;
    None otherwise (another backend, or no store: :func:`_store` says what to ask)."""
    from ..session.marks import load

    chosen = call.store_choice
    if chosen is None or chosen[1] is None or call.root is None:
        return None
    path = resolved(chosen[1])
    if not os.path.lexists(path):
        return None
    return path, load(call.state_dir, call.root, path)


def _keep_marks(call: HookCall, store: MemoryStore, project: str) -> None:
    """Read the store's marks on every commit of ``project`` and keep them beside its
    state (taken first) for the calls that follow (:mod:`memhooks.session.marks`)."""
    from ..errors import MemhooksError
    from ..session.marks import keep
    from ..session.storestate import store_state

    if store.path == ":memory:":
        return
    state = store_state(os.path.abspath(store.path))  # before the store is asked
    if state is None or call.root is None:
        return  # a write just made, or one in its log: ask again next time
    try:
        obsolete, elsewhere = store.commit_marks(project)
    except MemhooksError:
        return
    keep(call.state_dir, call.root, state, obsolete, elsewhere)
