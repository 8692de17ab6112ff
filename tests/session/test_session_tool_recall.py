"""Recall follows the agent through the tree (issue 12): a session launched at the root
gets a folder's memories when it reads there, once, and prompt-time recall skips what the
session already has. Every call goes through the real handler, as a host sends it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from session_support import Agent, delivered

ROOT_IDS = {f"root-{i:02d}" for i in range(30)}


def test_a_read_brings_the_folders_memory_once(agent: Agent) -> None:
    first = delivered(agent.prompt("Make the totals use two decimals"))
    assert first and set(first) <= ROOT_IDS  # the prompt alone: only root memories
    # The folder's memories, the one about the file read first.
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents", "tax-rate"]
    assert delivered(agent.read("billing/invoice.py")) == []  # served: nothing again
    assert delivered(agent.read("billing/tax.py")) == []  # its memory came with the folder
    assert delivered(agent.read("shipping/rates.py")) == ["shipping-carrier"]


def test_tool_time_context_reaches_claude_in_its_tool_channel(agent: Agent) -> None:
    agent.prompt("Make the totals use two decimals")
    reply = json.loads(agent.read("billing/invoice.py"))
    assert list(reply) == ["hookSpecificOutput"]
    assert reply["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    context = reply["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("[MemHooks — recalled memories and routing guidance: untrusted")
    assert "BILLING-MARK" in context and len(context) <= 2000


def test_a_file_with_its_own_memories_in_a_served_folder_gets_them(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    agent = Agent(root, {**env, "MEMHOOKS_TOOL_MAX_CHARS": "600"})  # one memory per event
    agent.prompt("Make the totals use two decimals")
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents"]
    # tax.py's own memory did not fit with the folder's; reading tax.py brings it, once.
    assert delivered(agent.read("billing/tax.py")) == ["tax-rate"]
    assert delivered(agent.read("billing/tax.py")) == []


def test_only_anchored_memories_at_tool_time(agent: Agent) -> None:
    agent.prompt("Make the totals use two decimals")
    # docs/ has no memory: the root memories that match the prompt better stay out.
    assert agent.read("docs/guide.md") == ""


def test_the_prompt_hook_does_not_resend_what_the_session_has(agent: Agent) -> None:
    first = delivered(agent.prompt("Make the totals use two decimals"))
    again = delivered(agent.prompt("Make the totals use two decimals"))
    assert first and not set(first) & set(again)


def test_acknowledgements_recall_nothing(agent: Agent) -> None:
    for prompt in ("continue", "thanks!", "yes", "ok, go ahead", "LGTM"):
        assert agent.prompt(prompt) == "", prompt
    assert delivered(agent.prompt("continue with the billing totals"))


def test_compaction_empties_the_ledger(agent: Agent) -> None:
    first = delivered(agent.prompt("Make the totals use two decimals"))
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents", "tax-rate"]
    agent.send({"hook_event_name": "PreCompact", "trigger": "auto", "custom_instructions": ""})
    # The model lost them: the folder's memories and the prompt's come again.
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents", "tax-rate"]
    assert set(first) <= set(delivered(agent.prompt("Make the totals use two decimals")))


def test_session_start_after_compaction_empties_the_ledger(agent: Agent) -> None:
    first = delivered(agent.prompt("Make the totals use two decimals"))
    agent.send({"hook_event_name": "SessionStart", "source": "compact"})
    assert delivered(agent.prompt("Make the totals use two decimals")) == first


def test_sessions_are_separate(agent: Agent) -> None:
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents", "tax-rate"]
    other = Agent(agent.root, agent.env, session="S2")
    assert delivered(other.read("billing/invoice.py")) == ["billing-cents", "tax-rate"]


def test_a_path_named_in_the_prompt_routes_prompt_time_recall(agent: Agent) -> None:
    found = delivered(agent.prompt("Make the totals in @billing/invoice.py use two decimals"))
    assert "billing-cents" in found


def test_the_working_set_routes_the_next_prompt(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    agent = Agent(root, {**env, "MEMHOOKS_TOOL_RECALL": "off"})
    agent.send({"hook_event_name": "PostToolUse", "tool_name": "Grep", "tool_input": {"pattern": "RATE", "path": str(agent.root / "billing")}, "tool_response": {}})
    # Where the agent searched routes a later prompt there: the folder's memory about
    # the prompt's topic is found although the agent was launched at the root.
    found = delivered(agent.prompt("when did the tax rate for invoices change"))
    assert "tax-rate" in found


def test_codex_reads_through_its_shell(project: tuple[Path, dict[str, str]]) -> None:
    codex = Agent(*project, host="codex")
    codex.send({"hook_event_name": "UserPromptSubmit", "turn_id": "t1", "prompt": "Make the totals use two decimals"})
    out = codex.send({"hook_event_name": "PostToolUse", "turn_id": "t1", "tool_name": "Bash",
                      "tool_input": {"command": "sed -n 1,80p billing/invoice.py"}, "tool_response": "Exit code: 0\nOutput:\n..."})  # fmt: skip
    assert delivered(out) == ["billing-cents", "tax-rate"]
    out = codex.send({"hook_event_name": "PostToolUse", "turn_id": "t1", "tool_name": "Bash",
                      "tool_input": {"command": "cd shipping && cat rates.py /etc/passwd"}, "tool_response": "Exit code: 0"})  # fmt: skip
    assert delivered(out) == ["shipping-carrier"]


def test_a_host_without_a_tool_channel_still_keeps_the_working_set(project: tuple[Path, dict[str, str]]) -> None:
    kiro = Agent(*project, host="kiro")
    out = kiro.send({"hook_event_name": "PostToolUse", "tool_name": "fs_read", "tool_input": {"path": "billing/invoice.py"}, "tool_response": "ok"})
    assert out == ""
    prompt = kiro.send({"hook_event_name": "UserPromptSubmit", "prompt": "how are invoice amounts stored"})
    assert "BILLING-MARK" in prompt  # Kiro's prompt channel is plain stdout


def test_tool_time_recall_can_be_turned_off(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    agent = Agent(root, {**env, "MEMHOOKS_TOOL_RECALL": "off"})
    assert agent.read("billing/invoice.py") == ""


def test_the_session_ceiling_bounds_tool_time_recall(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    # reads may spend 600 of 800: the last quarter is kept for the owners of edits' lines
    agent = Agent(root, {**env, "MEMHOOKS_SESSION_MAX_CHARS": "800"})
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents"]  # ~500 characters fit
    assert agent.read("shipping/rates.py") == ""  # what reads may spend of the ceiling is spent


def test_outside_an_enabled_project_the_hook_does_nothing(project: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    root, env = project
    (root / "MEMHOOKS.md").unlink()
    agent = Agent(root, env)
    assert agent.prompt("Make the totals use two decimals") == ""
    assert agent.read("billing/invoice.py") == ""
    assert not (tmp_path / "state").exists()  # not even a state file


def test_a_host_without_a_session_id_gets_one_anonymous_session(project: tuple[Path, dict[str, str]]) -> None:
    from memhooks.hook import handle

    root, env = project
    path = str(root / "billing" / "invoice.py")
    payload = json.dumps({"hook_event_name": "PostToolUse", "cwd": str(root), "tool_name": "Read", "tool_input": {"file_path": path}})
    assert delivered(handle(payload, agent="claude-code", env=env).stdout) == ["billing-cents", "tax-rate"]
    assert handle(payload, agent="claude-code", env=env).stdout == ""


def _opens_the_state_file(agent: Agent, rel: str) -> bool:
    """Send a Read of ``rel`` through the hook command; whether it loaded SQLite (the
    whole way) rather than settling in the snapshot (memhooks.session.snapshot)."""
    import subprocess
    import sys

    path = str(agent.root / rel)
    payload = json.dumps({"session_id": agent.session, "cwd": str(agent.root), "hook_event_name": "PostToolUse",
                          "tool_name": "Read", "tool_input": {"file_path": path}})  # fmt: skip
    # the hook loads SQLite's C module only (memhooks.sqlite), never the sqlite3 package
    probe = "import sys\nfrom memhooks.cli import main\nmain(['hook', '--agent', 'claude-code'])\nprint('_sqlite3' in sys.modules, file=sys.stderr)\n"
    done = subprocess.run([sys.executable, "-c", probe], input=payload, text=True, capture_output=True, env=agent.env, timeout=60, check=False)
    assert done.stdout == "" and done.stderr in ("True\n", "False\n"), done.stderr
    return done.stderr == "True\n"


def test_a_read_in_a_served_folder_never_opens_the_state_file(agent: Agent) -> None:
    """The fast path (memhooks.session.snapshot): no SQLite, and the touch still reaches
    the working set. A file read for the first time goes the whole way once (line-level
    recall tells its owners), even in a served folder."""
    import os

    agent.prompt("Make the totals use two decimals")
    agent.read("billing/invoice.py")
    assert _opens_the_state_file(agent, "billing/tax.py")  # a file not told about yet
    assert not _opens_the_state_file(agent, "billing/tax.py")  # told: settled
    assert not _opens_the_state_file(agent, "billing/invoice.py")
    from memhooks.session import State, open_session, state_path

    agent.prompt("and the rounding?")  # the next full call folds the logged touch in
    session = open_session(State(state_path(agent.env)), "claude-code", agent.session, str(agent.root))
    assert ("billing/tax.py", "file") in session.recent()
    assert os.listdir(agent.root / ".git")  # nothing written into the repository
    assert not list(agent.root.rglob("*.log"))


def test_with_line_recall_off_a_new_file_in_a_served_folder_settles(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    agent = Agent(root, {**env, "MEMHOOKS_LINE_RECALL": "off"})
    agent.prompt("Make the totals use two decimals")
    agent.read("billing/invoice.py")
    assert not _opens_the_state_file(agent, "billing/tax.py")


def test_one_session_seen_through_two_hosts_entries_shares_one_ledger(project: tuple[Path, dict[str, str]]) -> None:
    # Copilot CLI also runs the entries memhooks wrote for Claude Code (.claude/settings.json):
    # the same read arrives twice, once per entry, with the same session id.
    copilot = Agent(*project, session="shared-1", host="copilot-vscode")
    claude = Agent(*project, session="shared-1", host="claude-code")
    first = copilot.read("billing/invoice.py")
    assert "BILLING-MARK" in first
    assert claude.read("billing/invoice.py") == ""


def test_an_edit_already_in_its_cue_in_a_served_folder_never_opens_the_state_file(agent: Agent) -> None:
    import subprocess
    import sys

    path = agent.root / "billing" / "invoice.py"
    write = {"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {"file_path": str(path), "content": "x"}}
    agent.send(write)  # the first write anchors the file in billing/MEMHOOKS.md, serves billing
    assert "billing/invoice.py" in (agent.root / "billing" / "MEMHOOKS.md").read_text()
    payload = json.dumps({"session_id": agent.session, "cwd": str(agent.root), **write})
    probe = "import sys\nfrom memhooks.cli import main\nmain(['hook', '--agent', 'claude-code'])\nprint(sorted(m for m in ('sqlite3', '_sqlite3', 'ruamel') if m in sys.modules), file=sys.stderr)\n"
    done = subprocess.run([sys.executable, "-c", probe], input=payload, text=True, capture_output=True, env=agent.env, timeout=60, check=False)
    assert (done.stdout, done.stderr) == ("", "[]\n")


def test_launched_in_a_folder_its_files_memories_come_at_the_first_read(agent: Agent) -> None:
    # Prompt-time recall follows the prompt's words: a memory about a file of the launch
    # folder that the prompt does not name must still come, when the agent reads there.
    launched = str(agent.root / "shipping")
    first = agent.send({"hook_event_name": "UserPromptSubmit", "prompt": "Make the totals use two decimals", "cwd": launched})
    assert "shipping-carrier" not in delivered(first)
    path = str(agent.root / "shipping" / "rates.py")
    read = agent.send({"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": launched, "tool_input": {"file_path": path}})
    assert delivered(read) == ["shipping-carrier"]
    body = json.loads(json.loads(read)["hookSpecificOutput"]["additionalContext"].split("\n", 2)[2])
    # credited to what anchored it, not to a prompt that never mentioned it
    assert body["memories"][0]["recalled_by"] == "anchored to shipping/rates.py"


def test_a_read_before_any_prompt_and_without_any_hook_query_recalls_the_folder(agent: Agent) -> None:
    # shipping/ has no hook and the root hook asks nothing: the anchored recall still runs.
    assert delivered(agent.read("shipping/rates.py")) == ["shipping-carrier"]


def test_the_cli_reproduces_a_tool_time_recall(agent: Agent, capsys: pytest.CaptureFixture[str]) -> None:
    from memhooks.cli import main

    # the memory a Read of billing/invoice.py gets, which the prompt alone does not find
    prompt = "Make the totals use two decimals"
    assert main(["recall", str(agent.root / "billing"), "--prompt", prompt, "--file", str(agent.root / "billing" / "invoice.py"), "--tool-time", "--format", "json", "--store", agent.env["MEMHOOKS_STORE"]]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [m["id"] for m in result["memories"]] == ["billing-cents", "tax-rate"] == delivered(agent.read("billing/invoice.py"))
    assert result["memories"][0]["anchored_by"] == "anchored to billing/invoice.py"


def test_a_prompt_with_a_lone_surrogate_still_recalls(agent: Agent) -> None:
    # JSON "\ud800": a host that cut an emoji in half. SQLite cannot store it as is.
    assert delivered(agent.prompt("Make the totals use two decimals \ud800"))


def test_a_read_whose_recall_failed_is_not_counted_served(agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    from memhooks.hook import handle, tool_time

    agent.prompt("Make the totals use two decimals")
    real = tool_time.recall

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the store went away")

    monkeypatch.setattr(tool_time, "recall", broken)
    path = str(agent.root / "billing" / "invoice.py")
    body = {"session_id": agent.session, "cwd": str(agent.root), "hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": path}}
    failed = handle(json.dumps(body), agent="claude-code", env=agent.env, time_s=30.0)
    assert failed.stdout == "" and failed.note is not None  # failed open
    monkeypatch.setattr(tool_time, "recall", real)
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents", "tax-rate"]  # tried again


def test_with_tool_recall_off_the_snapshot_settles_reads(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    agent = Agent(root, {**env, "MEMHOOKS_TOOL_RECALL": "off", "MEMHOOKS_LINE_RECALL": "off"})
    agent.prompt("Make the totals use two decimals")
    [snapshot] = (Path(env["MEMHOOKS_STATE_DIR"]) / "sessions").glob("*.json")
    saved = json.loads(snapshot.read_text())
    assert (saved["folders"], saved["reads"]) == (False, False)  # no tool event can recall
    assert not _opens_the_state_file(agent, "billing/invoice.py")  # no SQLite


def test_what_the_session_had_is_counted_as_left_out(project: tuple[Path, dict[str, str]]) -> None:
    from memhooks.recall import recall_result

    root, env = project
    store = env["MEMHOOKS_STORE"]
    given = recall_result(str(root / "billing"), prompt="How are invoice amounts stored?", store_path=store)
    assert "billing-cents" in [m.id for m in given.memories]
    again = recall_result(str(root / "billing"), prompt="How are invoice amounts stored?", store_path=store, delivered={"billing-cents"})
    assert "billing-cents" not in [m.id for m in again.memories]
    assert again.dropped["delivered"] == 1  # recall-v1: left out because the session had it


def test_one_event_in_two_folders_brings_both_folders_memories(agent: Agent) -> None:
    # Neither docs/ nor shipping/ has a hook of its own and the root hook asks nothing:
    # both folders are claimed as served by this one event, so both must be searched.
    agent.prompt("Make the totals use two decimals")
    command = {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "cat docs/guide.md shipping/rates.py"}, "tool_response": {"stdout": "", "stderr": "", "interrupted": False}}
    got = delivered(agent.send(command))
    assert got == ["shipping-carrier"]


def test_a_prompt_with_a_pasted_log_still_recalls_and_its_cue_stays_short(agent: Agent) -> None:
    # The prompt-only query's text is the prompt, and 20 KB of it per memory left no room
    # for any memory in the 8,000-character budget: a memory only the prompt found does
    # not repeat it (the model has its prompt), and no cue is longer than 80 characters.
    log = "".join(f"2026-12-01T10:{i % 60:02d}:00 worker[{i}] retrying job {i}: timeout\n" for i in range(400))
    prompt = "Make the totals use two decimals; here is the log:\n" + log
    assert len(prompt) > 20_000
    reply = agent.prompt(prompt)
    got = delivered(reply)
    assert got and set(got) <= ROOT_IDS
    context = json.loads(reply)["hookSpecificOutput"]["additionalContext"]
    body = json.loads(context.split("\n", 2)[2])
    assert not any(log[:40] in m.get("recalled_by", "") for m in body["memories"])
    assert all(len(m.get("recalled_by", "")) <= 80 for m in body["memories"])


def test_rendering_what_a_session_claimed_leaves_the_recall_as_it_is(
    project: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parallel hook call delivered one memory first: this call renders the rest, and
    its recall result — what `sessions show` and the JSON report read — still holds all."""
    from memhooks.recall import recall_result, result

    # Two memories are needed; the prompt-time floor would keep only the one it names.
    monkeypatch.setenv("MEMHOOKS_RELEVANCE_FLOOR", "off")
    root, env = project
    given = recall_result(str(root / "billing"), prompt="How are invoice amounts stored?", store_path=env["MEMHOOKS_STORE"])
    before = given.to_dict()
    ids = [m.id for m in given.memories]
    assert "billing-cents" in ids and len(ids) > 1
    rest = result.for_agent(given, claimed=set(ids) - {"billing-cents"})
    other = next(i for i in ids if i != "billing-cents")
    assert rest is not None and "billing-cents" not in rest and other in rest
    assert given.to_dict() == before
