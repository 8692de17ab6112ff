"""Tool-time reactions after a tool ran (before one: :mod:`.pre_tool`): reads, searches,
edits and shell commands join the session's working set; a folder (or a file with
memories of its own) the session has not been given recall for gets a tool-time recall
anchored to what was touched; line-level recall (:mod:`.lines`) tells the owners of the
lines read, or those an edit replaced on a host with no pre-tool channel; an edit first
updates the hooks through the journal (:mod:`.maintenance`)."""

from __future__ import annotations

import os

from ..session import keys
from . import TOOL_TARGETS
from .deliver import deliver, kind, recall
from .reply import joined, noop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .call import HookCall
    from .reply import Reply


def on_tool(call: HookCall) -> Reply:
    touched = [(rel, kind(call, rel), "read") for rel in call.files(reads_only=True)]
    reply = _after_tool(call, touched)
    if touched and call.delivery.at_tool_time(call.native) and call.line_recall:
        from .lines import for_read  # (line-level recall off: not loaded)

        reply = joined(call, reply, for_read(call))
    return reply


def on_edit(call: HookCall) -> Reply:
    from .maintenance import maintain_edit  # not on a pre-tool edit's path: nothing is made yet

    changed, note = maintain_edit(call)
    if changed is None:  # the root hook is invalid: said once (maintain_edit), the no-op
        return noop(call)
    touched = [(rel, "file", "edit") for rel in call.files(reads_only=False)]
    reply = _after_tool(call, touched)
    if not call.delivery.has_pre_tool and call.delivery.at_tool_time(call.native):
        # no pre-tool channel: told after the edit — a note remembered since whatever
        # line-level recall says (as on_pre_tool), the lines' owners when it is on
        from .pre_tool import remembered  # as a pre-tool edit would have been told

        news = remembered(call)
        if news.context:
            reply = joined(call, reply, news.context)
        if call.line_recall:
            from .lines import for_edit

            reply = joined(call, reply, for_edit(call, applied=True))
    reply.changed = changed
    reply.add_note(note)
    return reply


def on_command(call: HookCall) -> Reply:
    from ..session import mentions
    from .maintenance import maintain_edit

    assert call.root is not None
    changed, note = maintain_edit(call)  # a shell tool that reported files it wrote
    if changed is None:  # the root hook is invalid: said once (maintain_edit), the no-op
        return noop(call)
    found = mentions.in_command(call.event.command or "", call.folder, call.root)
    reply = _after_tool(call, [(rel, what, "command") for rel, what in found])
    if found and call.delivery.at_tool_time(call.native) and _shell_read(call):
        # a shell read (sed -n A,Bp F, head, cat, nl): the owners of the lines read
        from .lines import for_read

        reply = joined(call, reply, for_read(call))
    reply.changed = changed
    reply.add_note(note)
    return reply


def _shell_read(call: HookCall) -> bool:
    """Line-level recall is on and the call's command reads lines of files."""
    if not call.line_recall:
        return False
    from ..lines.tools import shell_read

    return shell_read(call.event.command or "")


def _after_tool(call: HookCall, touched: list[tuple[str, str, str]]) -> Reply:
    """Record ``touched`` in the working set, then tool-time recall for what of it this
    session has not been given recall for (:func:`_unserved`)."""
    session = call.session
    budget = call.tool_budget()
    if (
        not touched
        or not call.delivery.at_tool_time(call.native)
        or not call.tool_recall
        or budget <= 0
    ):
        session.touch(touched)
        return noop(call)
    folders, files = _unserved(session.served(), touched)
    # The touches and the claims in one write.
    won = session.claim([*folders, *map(keys.file, files)], touches=touched)
    folders = [f for f in folders if f in won]
    files = [f for f in files if keys.file(f) in won]
    if not folders and not files:
        return noop(call)  # nothing new, or a parallel hook call is serving it
    from ..protocol import HOOK_NAME
    from ..recall.anchoring import Anchor, anchored_files
    from ..recall.result import unavailable

    anchors = folders or sorted({f.rpartition("/")[0] for f in files})
    hooks = [os.path.join(call.root_path(f), HOOK_NAME) for f in folders]
    # A file served on its own (its folder was served earlier) is anchored by itself;
    # history memories come through line-level recall when it is on: by the lines owned
    keep = Anchor(folders, files, hooks, commits=not call.line_recall)
    targets = [call.root_path(f) for f in anchors]
    claimed = [*folders, *map(keys.file, files)]
    try:
        result = recall(
            call,
            targets[0],
            targets=targets[1:],
            prompt=session.prompt,
            files=[call.root_path(f) for f in files],
            budget=budget,
            keep=keep,
            anchored=True,
            commits=keep.commits,
        )
        marks: list[str] = []
        if result is not None and folders:
            # Files of a newly served folder with memories the session still lacks (they
            # did not fit): reading one later gives that file's own recall; any other
            # file there costs nothing (memhooks.session.snapshot). Marked in the write
            # that records the delivery.
            have = session.delivered() | {m.id for m in result.memories}
            marks = [
                keys.anchor(rel)
                for f in folders
                for rel in anchored_files(call.backend, result.project, f, have)
            ]
        target = folders[0] if folders else files[0]
        reply = deliver(call, result, target=target, tool_time=True, serve=marks)
        if result is not None and unavailable(result):
            session.release(claimed)  # nothing could be searched: the next event retries
    except BaseException:
        session.release(claimed)  # the recall failed (handle() fails open): not served
        raise
    return reply


def _unserved(served: set[str], touched: list[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    """The folders (at most :data:`TOOL_TARGETS`) and files ``touched`` names that were
    not served: a folder not served yet; a file of a served folder that has anchored
    memories (:func:`memhooks.session.keys.unread_anchor`) and was not served itself. A
    file read in a folder served now counts as served with it."""
    folders: list[str] = []
    files: list[str] = []
    for rel, what, _how in touched:
        folder = rel if what == "folder" else rel.rpartition("/")[0]
        if folder not in served:
            if folder not in folders and len(folders) < TOOL_TARGETS:
                folders.append(folder)
            if what == "file" and folder in folders:
                files.append(rel)
        elif what == "file" and keys.unread_anchor(served, rel):
            files.append(rel)
    return folders, files
