"""A hook call identifies its project once: the call's recall is handed the identity the
call worked out (:attr:`memhooks.hook.call.HookCall.identity`), not made again by recall's
first stage (issue 21: one home for each per-call fact)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hook_support import MARKER

from memhooks import store
from memhooks.hook import handler
from memhooks.store.project import Identity
from memhooks.store.project import identify as real_identify


def test_a_read_that_recalls_its_folder_identifies_the_project_once(
    project: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    session = {"session_id": "one-identity", "cwd": str(project)}
    prompt = {**session, "hook_event_name": "UserPromptSubmit", "prompt": "release constraints"}
    handler.handle(json.dumps(prompt), agent="claude-code", env=env, time_s=30.0)
    asked: list[str] = []

    def counted(root: str) -> Identity:
        asked.append(root)
        return real_identify(root)

    store.__getattr__("identify")  # loaded, so the counting one below is what callers get
    monkeypatch.setattr(store, "identify", counted)
    billing = str(project / "src" / "acme" / "billing.py")
    read = {**session, "hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": {"file_path": billing}, "tool_response": {}}  # fmt: skip
    reply = handler.handle(json.dumps(read), agent="claude-code", env=env, time_s=30.0)
    assert MARKER in reply.stdout  # the folder's recall ran and delivered
    assert asked == [str(project)]
