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
                    folder (or file) this session has not been given recall for;
                    line-level recall: the owners of the lines read
``pre_tool``        line-level recall: the owners of the lines an edit replaces
``post_edit``       hook maintenance through the journal, then as ``post_tool``
``post_command``    the existing paths the command names, then as ``post_tool``
``pre_compact``,    the host dropped earlier context: the ledger is emptied
``post_compact``
``session_end``     the session is marked ended
=================== ==========================================================

The reactions live by when they run: :mod:`.prompt_time`, :mod:`.tool_time` (what they
share: :mod:`.deliver`); each kind of call imports only its own module
(``tests/hook/test_import_sets.py`` holds the modules each kind loads). Every reaction
returns a :class:`~memhooks.hook.reply.Reply`; nothing here catches
exceptions (:func:`memhooks.hook.handler.handle` is the one fail-open loop). Outside a
project with a root ``MEMHOOKS.md`` no reaction runs: a user-level install fires in
every folder and must cost nothing there.
"""

from __future__ import annotations

from ..agents.base import (
    POST_COMMAND,
    POST_COMPACT,
    POST_EDIT,
    POST_TOOL,
    PRE_COMPACT,
    PRE_TOOL,
    SESSION_END,
    SESSION_START,
    TOOL_TIME_EVENTS,
    USER_PROMPT,
)
from .reply import Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .call import HookCall


def react(call: HookCall) -> Reply:
    """The reply to ``call``'s event (the host's no-op when there is nothing to do): a
    tool event the session was already served is settled first
    (:func:`memhooks.session.fastpath.settled`; a pre-tool edit: :func:`.told.settled`),
    before the root is looked for; the reaction's module is imported only then."""
    where = REACTIONS.get(call.event.event or "")
    if where is None or _settled(call) or call.root is None:
        return Reply(call.delivery.noop)
    module, name = where
    # __import__, not importlib.import_module: importing importlib costs the hook ~0.7 ms
    found = __import__(f"{__package__}.{module}", fromlist=[name])
    reaction: Callable[[HookCall], Reply] = getattr(found, name)
    return reaction(call)


def _settled(call: HookCall) -> bool:
    """:func:`memhooks.session.fastpath.settled` for a tool event, :func:`.told.settled`
    for a pre-tool one; a prompt or lifecycle event is never settled there, and its call
    does not load the shortcuts' modules."""
    if call.event.event not in TOOL_TIME_EVENTS:
        return False
    if call.event.event == PRE_TOOL:  # an edit whose lines' owners were all told
        from .told import settled as told

        return told(call)
    from ..session.fastpath import settled

    return settled(call)


def on_compact(call: HookCall) -> Reply:
    """The host dropped earlier context: the ledger is emptied, the new epoch marked as
    a compaction's (a session start that follows carries back what the one before told:
    :mod:`.compaction`)."""
    from ..session import keys

    call.session.compacted()
    call.session.claim([keys.COMPACTED])
    return Reply(call.delivery.noop)


def on_end(call: HookCall) -> Reply:
    call.session.ended()
    return Reply(call.delivery.noop)


#: normalized event -> (module of this package, its reaction)
REACTIONS: dict[str, tuple[str, str]] = {
    SESSION_START: ("prompt_time", "on_session_start"),
    USER_PROMPT: ("prompt_time", "on_prompt"),
    POST_TOOL: ("tool_time", "on_tool"),
    PRE_TOOL: ("pre_tool", "on_pre_tool"),
    POST_EDIT: ("tool_time", "on_edit"),
    POST_COMMAND: ("tool_time", "on_command"),
    PRE_COMPACT: ("reactions", "on_compact"),
    POST_COMPACT: ("reactions", "on_compact"),
    SESSION_END: ("reactions", "on_end"),
}
