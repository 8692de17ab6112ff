"""What the reactions share: the host's no-op, one bounded recall on the call's backend,
delivering what it found through the session's ledger, and joining line-level text to a
reply."""

from __future__ import annotations

import os

from ..session import keys
from .deadline import missed
from .reply import Reply, coded, noop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..recall.outcome import Recall
    from .call import HookCall


def kind(call: HookCall, rel: str) -> str:
    """``folder`` or ``file``: what the root-relative ``rel`` is."""
    return "folder" if os.path.isdir(call.root_path(rel)) else "file"


def recall(call: HookCall, target: str, **options: Any) -> Recall | None:
    """One bounded recall for the hook on the call's backend (:attr:`HookCall.backend`):
    the per-query cap of ``memhooks recall`` (:data:`memhooks.recall.QUERY_TIMEOUT_S`)
    within the time left,
    and the session's ledger. None when the embedded store does not exist yet (nothing
    to recall; a hook never creates it)."""
    from ..recall import QUERY_TIMEOUT_S, recall_result

    backend = call.backend
    if backend is None:
        return None
    remaining = max(0.05, call.remaining())
    return recall_result(
        target,
        roles=call.roles,
        backend=backend,
        query_timeout_s=min(QUERY_TIMEOUT_S, remaining),
        deadline_s=remaining,
        delivered=call.session.delivered(),
        strict=True,
        skip_invalid=True,
        identity=call.identity,
        **options,
    )


def deliver(
    call: HookCall,
    result: Recall | None,
    *,
    target: str,
    tool_time: bool,
    serve: tuple[str, ...] | list[str] = (),
) -> Reply:
    """Claim what ``result`` found in the session's ledger and render what was claimed
    (a parallel hook call of the session may have delivered some of it first; ``result``
    itself is left as it is). When memory was unavailable, the model is told so once per
    session epoch, at prompt time (an outage must not look like an empty store), and
    stderr gets the reason."""
    from ..recall.result import cue_of, for_agent, relayed, short, skipped_lines, unavailable

    if result is None:
        if serve:
            call.session.claim(serve)
        return noop(call)
    down = unavailable(result)
    told = relayed(down) if down else down
    if told is None and call.state_problem is not None:
        # The state file cannot be used (HookCall.state, said on stderr): the model is
        # told once too, in one line, that memory runs with less.
        why = call.state_problem.split(" (SQLite:")[0].split("; ")[0]
        told = f"memory unavailable in part: {why}; recall goes on"
    delivered = call.session.delivered()
    notice = told if told and not tool_time and keys.UNAVAILABLE not in delivered else None
    # An invalid hook left out of the chain: one line to the model, once per session epoch
    # (issue 22 item 2), and the diagnostic on stderr once a session epoch (below).
    skipped = {k: v for k, v in skipped_lines(result).items() if k not in delivered}
    # A huge hook whose queries did not all fit the deadline: the answer says so, once.
    partial = result.partial()
    partial_told = partial if partial and keys.PARTIAL not in delivered else None
    items: list[dict[str, object]] = [
        {
            "item": m.id,
            "words": short(" ".join(m.text.split())),
            "cue": cue_of(m),
        }
        for m in result.memories
    ]
    # A memory made of a commit claims the commit too, in the same write: line-level
    # recall keys what it tells by commit (keys.commit), so a Read in parallel, or after,
    # does not tell it again — nor a prompt after a Read (for_agent renders a commit's
    # memory only with its commit claimed).
    items += [
        {"item": keys.commit(m.commit), "words": short(" ".join(m.text.split())), "cue": cue_of(m),
         "of": m.id}  # the memory it came as: `sessions show` lists that one
        for m in result.memories
        if m.commit
    ]  # fmt: skip
    items += [
        {"item": keys.guidance(g.get("source")), "words": "guidance", "cue": g.get("source")}
        for g in result.guidance
    ]
    if notice:
        items.append({"item": keys.UNAVAILABLE, "words": notice, "cue": None})
    items += [{"item": key, "words": line, "cue": None} for key, line in skipped.items()]
    if partial_told:
        items.append({"item": keys.PARTIAL, "words": partial_told, "cue": None})

    def text_of(claimed: set[str]) -> str | None:
        return for_agent(
            result,
            notice if keys.UNAVAILABLE in claimed else None,
            [line for key, line in skipped.items() if key in claimed],
            partial_told if keys.PARTIAL in claimed else None,
            claimed=claimed,
        )

    def size(claimed: set[str]) -> int:
        text = text_of(claimed)
        return len(text) if text else 0

    claimed = call.session.record(
        call.native or "", target, items, size, tool_time=tool_time, serve=serve,
        ceiling=call.tool_ceiling() if tool_time else None,
    )  # fmt: skip
    text = text_of(claimed) if claimed else None
    reply = Reply(call.delivery.render(call.native or "", text) if text else call.delivery.noop)
    reply.context = text
    if down and "memory store" not in call.homeless:  # else call.home_note() says it
        from ..errors import code_of  # a failure's path only

        # the store's (MH037) or the backend's (MH039: it failed, or some sources did)
        failure = result.unavailable
        reply.add_note(coded(code_of(failure) if failure is not None else "MH039", down))
    if partial:
        reply.add_note(missed(partial))  # the deadline left queries unsearched
    if result.skipped:
        # each on stderr once a session too, as every note a session repeats (a host may
        # show each line): as the edit's chain says it (memhooks.hook.exclusions)
        from ..errors import DiagnosticError, one_line
        from ..recall.result import skipped_hooks

        for hook, d in skipped_hooks(result):
            note = one_line(DiagnosticError([d]), "skipped an invalid hook: ")
            call.once(keys.invalid_hook(hook), note)
    return reply
