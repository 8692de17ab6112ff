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
    claimed in its ledger; None when there is nothing to tell."""
    from ..recall.line_recall import line_recall

    if not ranges:
        return None
    session = call.session
    items = session.delivered()
    delivered = keys.of(keys.COMMIT, items)
    left = call.tool_budget()
    if left <= 0:
        return None
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
            max_chars=left,
            focus=focus,
            saved=applied,
            **more,  # type: ignore[arg-type]
        )

    more: dict[str, object] = {}
    told = made()
    if not told.commits:
        return None
    # The chain's exclusions are read only when there is something to tell (resolving the
    # chain may parse its hooks).
    exclude = exclusions(call, top, rel)
    if exclude:
        more = {"exclude": exclude}
        told = made(**more)
        if not told.commits:
            return None
    # The store is opened only for commits about to be told: one the store marks
    # reverted (or obsolete) is left out, and one the session was given as a history
    # memory (at the prompt: its memory id in the ledger) is told already — the answer
    # is made again without them. What it says of every commit is kept beside its
    # state (memhooks.session.marks): while it holds, the store is not opened.
    kept = _marks(call)
    if kept is not None and kept[1] is not None and kept[1].untouched(told.commits):
        store, project = None, None
    else:
        store, project = _store(call)
    if store is not None and project is not None:
        if kept is not None and kept[1] is None:
            _keep_marks(call, store, project)
        found = store.by_commit(project, told.commits)
        given = {h for h, memory in found.items() if memory.id in items}
        if given or any(memory.obsolete for memory in found.values()):
            delivered = delivered | given  # made() reads it when called
            more = {"store": store, "project": project, "exclude": exclude}
            told = made(**more)
            if not told.commits:
                return None

    def without(taken: set[str], only: set[str]) -> LineRecall:
        nonlocal delivered
        delivered = delivered | taken
        return made(**more, only=only)

    return _record(call, shown, told, without)


def _record(
    call: HookCall,
    shown: str,
    told: LineRecall,
    without: Callable[[set[str], set[str]], LineRecall],
) -> LineRecall | None:
    """Claim ``told``'s commits in the session's ledger and return what tells only the
    claimed ones (``without(taken, only)``: the answer made again without the commits a
    parallel hook call of the session told first, and with no commit but those of
    ``only``, as :func:`.deliver.deliver` renders only what it claimed); None when there
    is nothing of it left to tell. Only the commits the answer tells are recorded: one
    claimed that the smaller answer leaves out (its owner was taken) stays untold
    (newcomer1: parallel Reads of one file marked commits told that never reached the
    model)."""
    from ..recall.why_text import lines_of

    by_hash = {e.commit.hash: e.commit for e in told.why.explanations}
    by_hash.update({c.hash: c for e in told.why.explanations for c in e.previous})
    # the lines each commit explains (a previous owner: the lines of the owner it is behind)
    lines: dict[str, list[tuple[int, int]]] = {}
    for e in told.why.explanations:
        for commit in (e.commit, *e.previous):
            lines.setdefault(commit.hash, e.lines)
    items: list[dict[str, object]] = [
        {"item": keys.commit(h), "words": by_hash[h].subject[:80] if h in by_hash else "",
         "cue": lines_of(lines.get(h, []), shown)}
        for h in told.commits
    ]  # fmt: skip
    wanted = {keys.commit(h): h for h in told.commits}
    made: dict[str, LineRecall | None] = {}

    def size(claimed: set[str]) -> tuple[int, set[str]]:
        taken = {h for key, h in wanted.items() if key not in claimed}
        if not taken:
            made["told"] = told
        else:
            # made again with the claimed commits alone (room freed brings no other)
            again = without(taken, {wanted[key] for key in claimed})
            made["told"] = again if again.commits else None
        answer = made["told"]
        if answer is None:
            return 0, set()
        return len(answer.text), {keys.commit(h) for h in answer.commits}

    claimed = call.session.record(call.native or "", shown, items, size, tool_time=True)
    answer = made.get("told")
    return answer if claimed and answer is not None and answer.commits else None


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
    from ..session.edits import chosen_store
    from ..session.marks import load

    chosen = chosen_store(call.env)
    if chosen is None or chosen[1] is None or call.root is None:
        return None
    path = os.path.realpath(chosen[1])
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


def exclusions(call: HookCall, top: str, rel: str) -> list[str]:
    """The ``exclude`` phrases of the chain of ``rel``'s folder (none when the chain is
    invalid: validate reports it)."""
    from ..protocol.resolve import resolve

    folder = os.path.dirname(os.path.join(top, *rel.split("/")))
    try:
        return list(resolve(folder, call.roles).exclude)
    except Exception:  # noqa: BLE001 - an invalid chain is validate's to report; recall goes on
        return []
