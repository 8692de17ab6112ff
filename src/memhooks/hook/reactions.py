"""What the hook does for each lifecycle event: one reaction per normalized event.

=================== ==========================================================
``session_start``   a compaction (``source: compact``) or ``clear`` empties the
                    ledger; then recall for the folder where the host injects
``user_prompt``     the prompt and the paths it names join the working set; if the
                    host injects here and the prompt calls for recall
                    (:mod:`memhooks.session.gate`): recall for the folder, the
                    session's recent folders and the named paths, leaving out what
                    the session was already given
``post_tool``       reads and searches join the working set; tool-time recall for a
                    folder (or file) this session has not been given recall for
``post_edit``       hook maintenance through the journal, then as ``post_tool``
``post_command``    the existing paths the command names, then as ``post_tool``
``pre_compact``,    the host dropped earlier context: the ledger is emptied
``post_compact``
``session_end``     the session is marked ended
=================== ==========================================================

Every reaction returns a :class:`~memhooks.hook.reply.Reply`; nothing here catches
exceptions (:func:`memhooks.hook.handler.handle` is the one fail-open loop). Outside a
project with a root ``MEMHOOKS.md`` no reaction runs: a user-level install fires in
every folder and must cost nothing there.
"""

from __future__ import annotations

import os

from ..agents.base import (
    POST_COMMAND,
    POST_COMPACT,
    POST_EDIT,
    POST_TOOL,
    PRE_COMPACT,
    PRE_TOOL,
    SESSION_END,
    SESSION_START,
    USER_PROMPT,
)
from ..session.fastpath import settled
from .reply import Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..recall.outcome import Recall
    from .call import HookCall

#: Folders of the working set that join prompt-time recall, most recent first.
RECENT_FOLDERS = 3
#: Most folders (or files) one tool event is given recall for.
TOOL_TARGETS = 2
#: Seconds one backend search may take (``memhooks recall``'s cap; the hook's deadline
#: may be shorter, never longer).
QUERY_CAP_S = 2.0
#: Session start ``source`` / ``reason`` values after which the model has lost the
#: context memhooks gave it.
RESET_SOURCES = frozenset({"compact", "clear"})


def react(call: HookCall) -> Reply:
    """The reply to ``call``'s event (the host's no-op when there is nothing to do): a
    tool event the session was already served is settled first
    (:func:`memhooks.session.fastpath.settled`), before the root is looked for."""
    reaction = REACTIONS.get(call.event.event or "")
    if reaction is None or settled(call) or call.root is None:
        return noop(call)
    return reaction(call)


def noop(call: HookCall) -> Reply:
    return Reply(call.delivery.noop)


# -- prompt time ----------------------------------------------------------------------


def on_session_start(call: HookCall) -> Reply:
    from .maintenance import apply_pending

    apply_pending(call)
    if (call.event.reason or "").lower() in RESET_SOURCES:
        call.session.compacted()
    if not call.delivery.injects(call.native):
        return noop(call)
    return _prompt_recall(call, None, [])


def on_prompt(call: HookCall) -> Reply:
    from ..session import gate, mentions
    from .maintenance import apply_pending

    apply_pending(call)
    session = call.session  # opened with the prompt as its latest
    prompt = call.event.prompt
    assert call.root is not None
    named = mentions.in_prompt(prompt, call.folder, call.root) if prompt else []
    attached = [(rel, _kind(call, rel)) for rel in call.files(reads_only=False)]
    session.touch([(rel, kind, "prompt") for rel, kind in [*named, *attached]])
    if not call.delivery.injects(call.native) or not gate.calls_for_recall(prompt):
        return noop(call)
    return _prompt_recall(call, prompt, [*named, *attached])


def _prompt_recall(call: HookCall, prompt: str | None, named: list[tuple[str, str]]) -> Reply:
    """Recall for the working folder, the session's recent folders and ``named`` paths."""
    assert call.root is not None
    session = call.session
    here = call.inside(call.folder) or ""
    folders = [f for f in session.recent_folders(RECENT_FOLDERS) if f != here]
    targets = [_absolute(call, f) for f in folders]
    files = [_absolute(call, rel) for rel, kind in named if kind == "file"]
    targets += [_absolute(call, rel) for rel, kind in named if kind == "folder"]
    result = _recall(
        call,
        call.folder,
        targets=[t for t in targets if os.path.isdir(t)],
        prompt=prompt,
        files=[f for f in files if os.path.isfile(f)],
        budget=call.prompt_budget(),
    )
    # Nothing is marked served here: prompt-time recall follows the prompt's words, so a
    # memory about a file of the launch folder that the prompt does not name comes at the
    # first tool event there (the ledger keeps what came now from coming again).
    return _deliver(call, result, target=here, tool_time=False)


# -- tool time ------------------------------------------------------------------------


def on_tool(call: HookCall) -> Reply:
    touched = [(rel, _kind(call, rel), "read") for rel in call.files(reads_only=True)]
    reply = _after_tool(call, touched)
    if touched and call.delivery.at_tool_time(call.native):
        from . import lines

        if lines.line_recall_on(call):
            reply = _with(call, reply, lines.for_read(call))
    return reply


def on_pre_tool(call: HookCall) -> Reply:
    """Before an edit, where the host's pre-tool reply reaches the model: the commits
    that own the lines it replaces (:mod:`memhooks.hook.lines`)."""
    from . import lines

    if not call.delivery.before_tool(call.native) or not lines.line_recall_on(call):
        return noop(call)
    return _with(call, noop(call), lines.for_edit(call, applied=False))


def on_edit(call: HookCall) -> Reply:
    from .maintenance import maintain_edit

    changed, note = maintain_edit(call)
    touched = [(rel, "file", "edit") for rel in call.files(reads_only=False)]
    reply = _after_tool(call, touched)
    if not call.delivery.has_pre_tool and call.delivery.at_tool_time(call.native):
        from . import lines

        if lines.line_recall_on(call):  # no pre-tool channel: told after the edit
            reply = _with(call, reply, lines.for_edit(call, applied=True))
    reply.changed = changed
    reply.add_note(note)
    return reply


def _with(call: HookCall, reply: Reply, text: str) -> Reply:
    """``reply`` with the line-level ``text`` added to what it delivers."""
    if not text:
        return reply
    combined = f"{reply.context}\n\n{text}" if reply.context else text
    joined = Reply(call.delivery.render(call.native or "", combined), reply.note, reply.changed)
    joined.context = combined
    return joined


def on_command(call: HookCall) -> Reply:
    from ..session import mentions
    from .maintenance import maintain_edit

    assert call.root is not None
    changed, note = maintain_edit(call)  # a shell tool that reported files it wrote
    found = mentions.in_command(call.event.command or "", call.folder, call.root)
    reply = _after_tool(call, [(rel, kind, "command") for rel, kind in found])
    if found and call.delivery.at_tool_time(call.native):
        from ..lines.tools import shell_read
        from . import lines

        if lines.line_recall_on(call) and shell_read(call.event.command or ""):
            # a shell read (sed -n A,Bp F, head, cat, nl): the owners of the lines read;
            # every file it names counts as told, as the tool-event shortcut assumes
            reply = _with(call, reply, lines.for_read(call))
            lines.claim(call, [rel for rel, kind in found if kind == "file"])
    reply.changed = changed
    reply.add_note(note)
    return reply


def _after_tool(call: HookCall, touched: list[tuple[str, str, str]]) -> Reply:
    """Record ``touched`` in the working set, then tool-time recall for what of it this
    session has not been given recall for (:func:`_unserved`)."""
    session = call.session
    ceiling = call.setting("MEMHOOKS_SESSION_MAX_CHARS")
    left = ceiling - session.tool_chars
    if (
        not touched
        or not call.delivery.at_tool_time(call.native)
        or not call.tool_recall
        or left <= 0
    ):
        session.touch(touched)
        return noop(call)
    folders, files = _unserved(session.served(), touched)
    # The touches and the claims in one write.
    won = session.claim([*folders, *(f"file:{rel}" for rel in files)], touches=touched)
    folders = [f for f in folders if f in won]
    files = [f for f in files if f"file:{f}" in won]
    if not folders and not files:
        return noop(call)  # nothing new, or a parallel hook call is serving it
    from ..protocol.hookfile import HOOK_NAME
    from ..recall.anchoring import Anchor, anchored_files

    anchors = folders or sorted({f.rpartition("/")[0] for f in files})
    hooks = [os.path.join(_absolute(call, f), HOOK_NAME) for f in folders]
    # A file served on its own (its folder was served earlier) is anchored by itself.
    from .lines import line_recall_on

    # history memories come through line-level recall when it is on: by the lines owned
    keep = Anchor(folders, files, hooks, commits=not line_recall_on(call))
    budget = min(call.setting("MEMHOOKS_TOOL_MAX_CHARS"), left)
    if call.delivery.cap:
        budget = min(budget, call.delivery.cap)
    targets = [_absolute(call, f) for f in anchors]
    claimed = [*folders, *(f"file:{rel}" for rel in files)]
    try:
        result = _recall(
            call,
            targets[0],
            targets=targets[1:],
            prompt=session.prompt,
            files=[_absolute(call, f) for f in files],
            budget=budget,
            keep=keep,
            anchored=True,
        )
        marks: list[str] = []
        if result is not None and folders:
            # Files of a newly served folder with memories the session still lacks (they
            # did not fit): reading one later gives that file's own recall; any other
            # file there costs nothing (memhooks.session.snapshot). Marked in the write
            # that records the delivery.
            have = session.delivered() | {m["id"] for m in result.memories}
            marks = [
                f"anchor:{rel}"
                for f in folders
                for rel in anchored_files(call.backend, result.project, f, have)
            ]
        target = folders[0] if folders else files[0]
        reply = _deliver(call, result, target=target, tool_time=True, serve=marks)
        if result is not None and result.unavailable():
            session.release(claimed)  # nothing could be searched: the next event retries
    except BaseException:
        session.release(claimed)  # the recall failed (handle() fails open): not served
        raise
    return reply


def _unserved(served: set[str], touched: list[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    """The folders (at most :data:`TOOL_TARGETS`) and files ``touched`` names that were
    not served: a folder not served yet; a file of a served folder that has anchored
    memories (``anchor:<path>``) and was not served itself. A file read in a folder
    served now counts as served with it."""
    folders: list[str] = []
    files: list[str] = []
    for rel, kind, _how in touched:
        folder = rel if kind == "folder" else rel.rpartition("/")[0]
        if folder not in served:
            if folder not in folders and len(folders) < TOOL_TARGETS:
                folders.append(folder)
            if kind == "file" and folder in folders:
                files.append(rel)
        elif kind == "file" and f"anchor:{rel}" in served and f"file:{rel}" not in served:
            files.append(rel)
    return folders, files


# -- compaction, end ------------------------------------------------------------------


def on_compact(call: HookCall) -> Reply:
    call.session.compacted()
    return noop(call)


def on_end(call: HookCall) -> Reply:
    call.session.ended()
    return noop(call)


# -- shared ---------------------------------------------------------------------------


def _recall(call: HookCall, target: str, **options: Any) -> Recall | None:
    """One bounded recall for the hook on the call's backend (:attr:`HookCall.backend`):
    the per-query cap of ``memhooks recall`` (:data:`QUERY_CAP_S`) within the time left,
    and the session's ledger. None when the embedded store does not exist yet (nothing
    to recall; a hook never creates it)."""
    from ..recall import recall_result

    backend = call.backend
    if backend is None:
        return None
    remaining = max(0.05, call.remaining())
    return recall_result(
        target,
        roles=call.roles,
        backend=backend,
        query_timeout_s=min(QUERY_CAP_S, remaining),
        deadline_s=remaining,
        delivered=call.session.delivered(),
        strict=True,
        skip_invalid=True,
        **options,
    )


def _deliver(
    call: HookCall,
    result: Recall | None,
    *,
    target: str,
    tool_time: bool,
    serve: tuple[str, ...] | list[str] = (),
) -> Reply:
    """Claim what ``result`` found in the session's ledger and render what was claimed
    (a parallel hook call of the session may have delivered some of it first). When
    memory was unavailable, the model is told so once per session epoch, at prompt time
    (an outage must not look like an empty store), and stderr gets the reason."""
    from ..recall import guidance_key
    from ..recall.result import cue_of, short

    if result is None:
        if serve:
            call.session.claim(serve)
        return noop(call)
    down = result.unavailable()
    told = down
    if told is None and call.state_problem is not None:
        # The state file cannot be used (HookCall.state, said on stderr): the model is
        # told once too, in one line, that memory runs with less.
        why = call.state_problem.split(" (SQLite:")[0].split("; ")[0]
        told = f"memory unavailable in part: {why}; recall goes on"
    delivered = call.session.delivered()
    notice = told if told and not tool_time and UNAVAILABLE not in delivered else None
    # An invalid hook left out of the chain: one line to the model, once per session epoch
    # (issue 22 item 2), and the diagnostic on stderr every time.
    skipped = {k: v for k, v in result.skipped_lines().items() if k not in delivered}
    # A huge hook whose queries did not all fit the deadline: the answer says so, once.
    partial = result.partial()
    partial_told = partial if partial and PARTIAL not in delivered else None
    items: list[dict[str, object]] = [
        {
            "item": m["id"],
            "words": short(" ".join(m["text"].split())),
            "cue": cue_of(m),
        }
        for m in result.memories
    ]
    items += [
        {"item": guidance_key(g), "words": "guidance", "cue": g.get("source")}
        for g in result.guidance
    ]
    if notice:
        items.append({"item": UNAVAILABLE, "words": notice, "cue": None})
    items += [{"item": key, "words": line, "cue": None} for key, line in skipped.items()]
    if partial_told:
        items.append({"item": PARTIAL, "words": partial_told, "cue": None})

    def text_of(claimed: set[str]) -> str | None:
        told = [line for key, line in skipped.items() if key in claimed]
        said = partial_told if PARTIAL in claimed else None
        return result.context(notice if UNAVAILABLE in claimed else None, told, said)

    def size(claimed: set[str]) -> int:
        result.memories = [m for m in result.memories if m["id"] in claimed]
        result.guidance = [g for g in result.guidance if guidance_key(g) in claimed]
        text = text_of(claimed)
        return len(text) if text else 0

    claimed = call.session.record(
        call.native or "", target, items, size, tool_time=tool_time, serve=serve
    )
    text = text_of(claimed) if claimed else None
    reply = Reply(call.delivery.render(call.native or "", text) if text else call.delivery.noop)
    reply.context = text
    if down:
        reply.add_note(down)
    if partial:
        reply.add_note(partial)
    if result.skipped:
        from ..errors import DiagnosticError, one_line

        reply.add_note(f"skipped an invalid hook: {one_line(DiagnosticError(result.skipped))}")
    return reply


#: The ledger key of the "memory unavailable" line (told once per session epoch).
UNAVAILABLE = "notice:unavailable"
#: The ledger key of the "partial answer" line (told once per session epoch).
PARTIAL = "notice:partial"


def _kind(call: HookCall, rel: str) -> str:
    return "folder" if os.path.isdir(_absolute(call, rel)) else "file"


def _absolute(call: HookCall, rel: str) -> str:
    assert call.root is not None
    return os.path.join(call.root, *rel.split("/")) if rel else call.root


REACTIONS: dict[str, Callable[[HookCall], Reply]] = {
    SESSION_START: on_session_start,
    USER_PROMPT: on_prompt,
    POST_TOOL: on_tool,
    PRE_TOOL: on_pre_tool,
    POST_EDIT: on_edit,
    POST_COMMAND: on_command,
    PRE_COMPACT: on_compact,
    POST_COMPACT: on_compact,
    SESSION_END: on_end,
}
