"""Prompt-time reactions: a session starts (after a compaction or ``clear`` its ledger is
emptied first), the user submits a prompt — then recall for the working folder, the
session's recent folders and the paths the prompt names, leaving out what the session
was already given."""

from __future__ import annotations

import os

from ..session import gate, mentions
from .deliver import deliver, kind, recall
from .maintenance import apply_pending
from .reply import joined, noop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .call import HookCall
    from .reply import Reply

#: Folders of the working set that join prompt-time recall, most recent first.
RECENT_FOLDERS = 3
#: Session start ``source`` / ``reason`` values after which the model has lost the
#: context memhooks gave it.
RESET_SOURCES = frozenset({"compact", "clear"})
#: The session start after a compaction: what the session was told comes back with it.
COMPACT = "compact"


def on_session_start(call: HookCall) -> Reply:
    apply_pending(call)
    source = (call.event.reason or "").lower()
    injects = call.delivery.injects(call.native)
    told = None
    if source in RESET_SOURCES:
        if source == COMPACT and injects:  # read before the ledger starts over
            from .compaction import told_before

            told = told_before(call)
        call.session.compacted()
    if not injects:
        return noop(call)
    reply = _prompt_recall(call, None, [])
    if told:  # what the compaction erased, back in this reply (.compaction)
        from .compaction import carried

        used = len(reply.context) + 2 if reply.context else 0
        reply = joined(call, reply, carried(call, told, call.prompt_budget() - used))
    return reply


def on_prompt(call: HookCall) -> Reply:
    apply_pending(call)
    session = call.session  # opened with the prompt as its latest
    prompt = call.event.prompt
    assert call.root is not None
    named = mentions.in_prompt(prompt, call.folder, call.root) if prompt else []
    attached = [(rel, kind(call, rel)) for rel in call.files(reads_only=False)]
    session.touch([(rel, what, "prompt") for rel, what in [*named, *attached]])
    if not call.delivery.injects(call.native) or not gate.calls_for_recall(prompt):
        return noop(call)
    return _prompt_recall(call, prompt, [*named, *attached])


def _prompt_recall(call: HookCall, prompt: str | None, named: list[tuple[str, str]]) -> Reply:
    """Recall for the working folder, the session's recent folders and ``named`` paths."""
    session = call.session
    here = call.inside(call.folder) or ""
    folders = [f for f in session.recent_folders(RECENT_FOLDERS) if f != here]
    targets = [call.root_path(f) for f in folders]
    files = [call.root_path(rel) for rel, what in named if what == "file"]
    targets += [call.root_path(rel) for rel, what in named if what == "folder"]
    result = recall(
        call,
        call.folder,
        targets=[t for t in targets if os.path.isdir(t)],
        prompt=prompt,
        files=[f for f in files if os.path.isfile(f)],
        budget=call.prompt_budget(),
        # read as the hook reads every setting: an invalid value is said on stderr
        floor=bool(prompt) and call.switch("MEMHOOKS_RELEVANCE_FLOOR"),
    )
    # Nothing is marked served here: prompt-time recall follows the prompt's words, so a
    # memory about a file of the launch folder that the prompt does not name comes at the
    # first tool event there (the ledger keeps what came now from coming again).
    return deliver(call, result, target=here, tool_time=False)
