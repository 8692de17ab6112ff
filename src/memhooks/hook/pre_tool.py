"""Before a tool runs — the pre-tool event, whose reply reaches the model before an edit
is made (Claude Code ``PreToolUse`` ``additionalContext``; each host's row,
:mod:`memhooks.agents.delivery`) — what was remembered for the files an edit changes
since the session had them, and the commits that own the lines it replaces
(:mod:`.lines`). The post-tool reactions are :mod:`.tool_time`'s; a pre-tool edit loads
only this one (and :mod:`.deliver` only with a note to tell): it runs before every edit
an agent makes (issue 20 item 7).
"""

from __future__ import annotations

from ..session import keys
from . import TOOL_TARGETS
from .reply import joined, noop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .call import HookCall
    from .reply import Reply


def on_pre_tool(call: HookCall) -> Reply:
    """Before an edit, where the host's pre-tool reply reaches the model: what was
    remembered for the files it changes since (:func:`remembered`), and the commits
    that own the lines it replaces (:mod:`memhooks.hook.lines`)."""
    if not call.delivery.before_tool(call.native):
        return noop(call)
    reply = remembered(call)
    if not call.line_recall:
        return reply
    from .lines import for_edit

    return joined(call, reply, for_edit(call, applied=False))


def remembered(call: HookCall) -> Reply:
    """The memories anchored to the files an edit changes that the session lacks, told
    with the edit (the caller says the event's channel reaches the model), once per
    session (the ledger), anchored, within the tool-time budget:

    * a file whose recall the session had (its folder served, and no mark says the file
      still holds memories the folder's recall left out): only the notes saved since the
      session began — ``memhooks remember --file`` after the folder was served — newest
      first. An older one was a candidate there, ranked by the prompt, and lost: nothing
      is better than noise;
    * a file the session never had recall for (an edit before any read of its folder, a
      file marked with memories left out): its notes ranked by the session's prompt, as
      a read of it would give them — before the edit, not after it (review, 11:27).

    Commits' memories are left to line-level recall (it tells the owners of the lines).
    Only a backend that says which files its memories touch (:class:`AnchorsFiles`, the
    embedded store) is asked; another tells such a note at the next prompt."""
    from .told import nothing_named

    if not call.tool_recall:
        return noop(call)
    rels = call.files(reads_only=False)[:TOOL_TARGETS]
    if not rels or nothing_named(call) or not call.store_ready or call.tool_budget() <= 0:
        return noop(call)
    from ..backends.capabilities import AnchorsFiles

    backend = call.backend
    if not isinstance(backend, AnchorsFiles) or call.root is None:
        return noop(call)
    from ..recall.anchoring import Anchor, anchored_files

    have, project = call.session.delivered(), call.project
    fresh = [
        rel
        for rel in rels
        if rel in anchored_files(backend, project, rel.rpartition("/")[0], have, commits=False)
    ]
    if not fresh:
        return noop(call)
    served = call.session.served()
    unserved = [rel for rel in fresh if not _had_recall(served, rel)]
    folder = call.root_path(fresh[0].rpartition("/")[0])
    from .deliver import deliver, recall  # only with a note to tell

    result = recall(
        call,
        folder,
        # a file never served: ranked as its read would be; else newest first (a note
        # remembered since leads its file's commits)
        prompt=call.session.prompt if unserved else None,
        files=[call.root_path(f) for f in fresh],
        budget=call.tool_budget(),
        keep=Anchor([], fresh, [], commits=False),
        anchored=True,
        commits=False,
    )
    if result is not None and not unserved:
        from ..store.memory import format_timestamp

        since = format_timestamp(int(call.session.started))  # created_at: whole seconds
        result.memories = [m for m in result.memories if (m.created_at or "") >= since]
    return deliver(call, result, target=fresh[0], tool_time=True)


def _had_recall(served: set[str], rel: str) -> bool:
    """Whether file ``rel``'s memories were candidates of a recall this session: the file
    served on its own, or its folder served without marking the file as holding
    memories left out (:func:`memhooks.session.keys.unread_anchor`)."""
    if keys.file(rel) in served:
        return True
    return keys.folder(rel.rpartition("/")[0]) in served and keys.anchor(rel) not in served
