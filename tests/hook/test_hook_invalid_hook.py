"""A broken hook in the chain is skipped, not a reason to go dark (issue 22 item 2): the
rest of the chain still recalls, the model gets one line naming the file, line, column
and code (once per session), stderr the diagnostic (once per session too: a host may
show each line), and ``sessions show`` records it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.hook.handler import handle

ROOT_HOOK = '---\nschema: memhooks/v2\nrecall_queries: ["What matters here?"]\n---\n'
BROKEN = {
    "unclosed": b"---\nschema: memhooks/v2\nrecall_queries: [unclosed\n---\n",
    "random-bytes": bytes(range(256)) * 4,
    "alias": b"---\nschema: memhooks/v2\ntags: &a [x]\nexclude: *a\n---\n",
    "deep": b"---\nschema: memhooks/v2\nbackends: " + b"[" * 300 + b"]" * 300 + b"\n---\n",
    "v1": b"---\nschema: memhooks/v1\n---\n",
}


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    from memhooks.store import MemoryStore, project_id

    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    (root / "src" / "req").mkdir(parents=True)
    store = tmp_path / "store.sqlite3"
    with MemoryStore(str(store)) as s:
        s.add(project_id(str(root)), "What matters here: the secret-sauce constraint")
    env = {
        **os.environ,
        "MEMHOOKS_STORE": str(store),
        "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
    }
    return root, env


def _prompt(
    root: Path, env: dict[str, str], session: str, words: str
) -> tuple[dict[str, object] | None, str | None]:
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": session,
               "cwd": str(root / "src" / "req"), "prompt": words}  # fmt: skip
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    if not reply.stdout:
        return None, reply.note
    context = json.loads(reply.stdout)["hookSpecificOutput"]["additionalContext"]
    return json.loads(context.split("\n", 2)[2]), reply.note


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_the_rest_of_the_chain_recalls_and_the_model_is_told_once(
    project: tuple[Path, dict[str, str]], kind: str
) -> None:
    root, env = project
    (root / "src" / "req" / "MEMHOOKS.md").write_bytes(BROKEN[kind])
    body, note = _prompt(root, env, f"s-{kind}", "what matters here")
    assert body is not None
    assert [m["text"] for m in body["memories"]] == [
        "What matters here: the secret-sauce constraint"
    ]
    [line] = body["skipped"]
    assert line.startswith("src/req/MEMHOOKS.md:") and " MH0" in line
    assert line.endswith(
        ": skipped; `memhooks validate src/req/MEMHOOKS.md` says how to fix it"
    )
    where = line.split(" ", 1)[0].split(":")
    assert len(where) == 3 and all(part.isdigit() for part in where[1:])  # file:line:column
    assert note is not None and note.startswith("MH0") and " skipped an invalid hook: " in note
    again, note = _prompt(root, env, f"s-{kind}", "and what else matters here")
    assert again is None or "skipped" not in again  # once per session
    assert note is None or "skipped an invalid hook" not in note  # stderr once too
    _, note = _prompt(root, env, f"t-{kind}", "what matters here")
    assert note is not None and "skipped an invalid hook" in note  # once a session


def test_with_nothing_recalled_the_model_gets_the_line_alone(
    project: tuple[Path, dict[str, str]],
) -> None:
    """Newcomer trial #4: the one line came wrapped in an empty memories JSON (~350
    characters); alone, it is the line after "[MemHooks] "."""
    root, env = project
    (root / "src" / "req" / "MEMHOOKS.md").write_bytes(b'---\nrecall_queries: ["unclosed\n---\n')
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "alone",
               "cwd": str(root / "src" / "req"), "prompt": "zebra quokka"}  # fmt: skip
    from memhooks.store import MemoryStore

    empty = root.parent / "empty.sqlite3"
    MemoryStore(str(empty)).close()
    env = {**env, "MEMHOOKS_STORE": str(empty)}
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    context = json.loads(reply.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("[MemHooks] src/req/MEMHOOKS.md:2:")
    assert context.endswith(
        ": skipped; `memhooks validate src/req/MEMHOOKS.md` says how to fix it"
    )
    assert "\n" not in context and len(context) < 160
    assert "memories" not in context


def test_sessions_show_records_the_skipped_hook(project: tuple[Path, dict[str, str]]) -> None:
    from memhooks.session import State, state_path
    from memhooks.session.report import deliveries, find

    root, env = project
    (root / "src" / "req" / "MEMHOOKS.md").write_bytes(BROKEN["unclosed"])
    _prompt(root, env, "S1", "what matters here")
    state = State(state_path(env))
    [session] = find(state, "S1")
    items = [i["item"] for d in deliveries(state, session["key"]) for i in d["items"]]
    state.close()
    assert "notice:skipped:src/req/MEMHOOKS.md" in items


def test_a_store_that_is_no_database_and_a_broken_hook_are_each_named_once(
    project: tuple[Path, dict[str, str]],
) -> None:
    # newcomer12: "MH037 memory unavailable: no memory backend is available: skipped an
    # invalid hook: …MH000…; MH000 skipped an invalid hook: …" — the store's cause lost
    # (the status line quoted the chain's first note), the hook's said twice
    root, env = project
    (root / "src" / "req" / "MEMHOOKS.md").write_bytes(BROKEN["unclosed"])
    (root / "src" / "req" / "k.c").write_text("int k = 1;\n", encoding="utf-8")
    garbage = root.parent / "garbage.sqlite3"
    garbage.write_bytes(bytes(range(256)) * 16)
    payload = {"hook_event_name": "PostToolUse", "session_id": "g", "cwd": str(root),
               "tool_name": "Read", "tool_input": {"file_path": str(root / "src" / "req" / "k.c")},
               "tool_response": {}}  # fmt: skip
    reply = handle(json.dumps(payload), agent="claude-code", env={**env, "MEMHOOKS_STORE": str(garbage)})  # fmt: skip
    note = reply.note
    assert note is not None and note.startswith("MH037 memory unavailable: no memory backend is available: the memory store ")  # fmt: skip
    assert note.count("is not a SQLite database") == 1
    assert note.count("skipped an invalid hook") == 1 and "; MH000 skipped an invalid hook: " in note
