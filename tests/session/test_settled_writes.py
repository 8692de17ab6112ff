"""A Write its folder's cue already lists is settled from what the last such answer rested
on (memhooks.maintain.settled): the hook stays byte for byte, and any change to what
that answer rested on sends the next write through maintenance again — which then
updates the cue as it always did. Every call goes through the real handler."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from session_support import Agent


def _write(agent: Agent, path: str) -> None:
    agent.send({"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {"file_path": path, "content": "x = 1\n"}})


def _age(*paths: Path) -> None:
    past = time.time() - 60  # outside the parsed-hook cache's racy window
    for path in paths:
        os.utime(path, (past, past))


def _record(agent: Agent) -> Path:
    from memhooks.session import snapshot, state_dir

    return Path(snapshot.cues_path(state_dir(agent.env), agent.host, agent.session))


@pytest.fixture
def settled(agent: Agent) -> Agent:
    """A session whose billing cue lists invoice.py and tax.py, with its record written."""
    for name in ("invoice.py", "tax.py"):
        _write(agent, str(agent.root / "billing" / name))
    _age(agent.root / "MEMHOOKS.md", agent.root / "billing" / "MEMHOOKS.md")
    _write(agent, str(agent.root / "billing" / "invoice.py"))  # maintenance: nothing to change
    assert _record(agent).is_file()
    return agent


def _no_maintenance(monkeypatch: pytest.MonkeyPatch) -> None:
    from memhooks.maintain import events

    def refuse(*args: object, **kwargs: object) -> list[str]:
        raise AssertionError("maintenance ran")

    monkeypatch.setattr(events, "maintain", refuse)


def test_a_listed_write_is_settled_by_the_record_and_leaves_the_hook_as_it_is(settled: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    hook = settled.root / "billing" / "MEMHOOKS.md"
    before, st = hook.read_bytes(), hook.stat()
    _no_maintenance(monkeypatch)
    for name in ("tax.py", "invoice.py", "tax.py"):
        _write(settled, str(settled.root / "billing" / name))
    assert hook.read_bytes() == before and hook.stat().st_mtime_ns == st.st_mtime_ns
    assert "How are invoice amounts stored?" in before.decode()  # the hand-written query is kept


def test_a_new_file_in_a_settled_folder_is_still_added_to_its_cue(settled: Agent) -> None:
    new = settled.root / "billing" / "refund.py"
    new.write_text("x = 1\n", encoding="utf-8")
    _write(settled, str(new))
    text = (settled.root / "billing" / "MEMHOOKS.md").read_text(encoding="utf-8")
    assert "billing/refund.py" in text and "How are invoice amounts stored?" in text


def test_a_hand_edit_of_the_cue_sends_the_next_write_through_maintenance(settled: Agent) -> None:
    hook = settled.root / "billing" / "MEMHOOKS.md"
    text = hook.read_text(encoding="utf-8")
    hook.write_text(text.replace("      - name: billing/tax.py\n        kind: file\n", ""), encoding="utf-8")
    assert "billing/tax.py" not in hook.read_text(encoding="utf-8")
    _age(hook)
    _write(settled, str(settled.root / "billing" / "tax.py"))
    assert "billing/tax.py" in hook.read_text(encoding="utf-8")


def test_a_rewrite_that_keeps_size_and_mtime_ends_the_record(settled: Agent) -> None:
    # as `cp -p` or a checkout can leave it: only the ctime tells
    from memhooks.maintain.settled import covers

    hook = settled.root / "billing" / "MEMHOOKS.md"
    record, written = str(_record(settled)), [str(settled.root / "billing" / "tax.py")]
    assert covers(record, written, str(settled.root), settled.env)
    text, st = hook.read_text(encoding="utf-8"), hook.stat()
    edited = text.replace("billing/tax.py", "billing/zzz.py")
    assert edited != text and len(edited) == len(text)
    time.sleep(0.01)
    hook.write_text(edited, encoding="utf-8")
    os.utime(hook, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert not covers(record, written, str(settled.root), settled.env)


def test_a_listed_file_removed_outside_the_agent_is_pruned_at_the_next_write(settled: Agent) -> None:
    (settled.root / "billing" / "tax.py").unlink()  # a shell `rm` the hook never heard of
    _write(settled, str(settled.root / "billing" / "invoice.py"))
    text = (settled.root / "billing" / "MEMHOOKS.md").read_text(encoding="utf-8")
    assert "billing/invoice.py" in text and "billing/tax.py" not in text


def test_a_listed_file_turned_into_a_symlink_is_not_vouched_for(settled: Agent, tmp_path: Path) -> None:
    from memhooks.maintain.settled import covers

    tax = settled.root / "billing" / "tax.py"
    record, invoice = str(_record(settled)), str(settled.root / "billing" / "invoice.py")
    assert covers(record, [invoice], str(settled.root), settled.env)
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n", encoding="utf-8")
    tax.unlink()
    tax.symlink_to(outside)
    assert not covers(record, [invoice], str(settled.root), settled.env)


def test_the_record_holds_only_while_root_settings_and_folder_are_unchanged(settled: Agent) -> None:
    from memhooks.maintain.settled import covers

    record, root = str(_record(settled)), settled.root
    written = [str(root / "billing" / "invoice.py")]
    assert covers(record, written, str(root), settled.env)
    assert covers(record, ["billing/invoice.py"], str(root), settled.env)  # relative to the event's cwd
    assert not covers(record, written, str(root / "billing"), settled.env)  # another working folder
    assert not covers(record, written, str(root), {**settled.env, "MEMHOOKS_AUTO_PATHS": "1"})
    assert not covers(record, written, str(root), {**settled.env, "MEMHOOKS_ANCHOR": "nearest"})
    assert not covers(record, [str(root / "shipping" / "rates.py")], str(root), settled.env)  # no record there
    assert not covers(record, [], str(root), settled.env)
    _age(root / "MEMHOOKS.md")  # the root hook touched: it is validated again
    assert not covers(record, written, str(root), settled.env)


def test_a_root_that_is_no_longer_a_git_root_ends_the_record(settled: Agent) -> None:
    from memhooks.maintain.settled import covers

    record, written = str(_record(settled)), [str(settled.root / "billing" / "invoice.py")]
    assert covers(record, written, str(settled.root), settled.env)
    os.rename(settled.root / ".git", settled.root / "dot-git")  # no longer a git root
    assert not covers(record, written, str(settled.root), settled.env)


def test_a_hook_modified_within_the_racy_window_is_not_recorded(agent: Agent) -> None:
    for name in ("invoice.py", "invoice.py"):
        _write(agent, str(agent.root / "billing" / name))  # the cue was just written
    assert not _record(agent).exists()


def test_the_record_format_follows_the_parsed_hook_cache_format() -> None:
    from memhooks.maintain import settled
    from memhooks.protocol import cache

    assert settled.CACHE_FORMAT == cache.FORMAT, "bump settled.VERSION and CACHE_FORMAT together"


def test_a_relative_path_is_never_looked_up_in_the_process_directory(
    agent: Agent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A host that names no folder for the event (the project comes from
    # CLAUDE_PROJECT_DIR): the shortcut cannot place a relative path, so the event goes
    # the whole way and gets its recall — it was "nothing touched" when the path was
    # missing from the hook process's own directory.
    from session_support import delivered

    agent.env = {**agent.env, "CLAUDE_PROJECT_DIR": str(agent.root)}
    agent.prompt("Make the totals use two decimals")
    monkeypatch.chdir(tmp_path)  # the hook process runs somewhere else
    read = {"hook_event_name": "PostToolUse", "cwd": None, "tool_name": "Read", "tool_input": {"file_path": "shipping/rates.py"}}
    assert delivered(agent.send(read)) == ["shipping-carrier"]


def test_each_folder_keeps_its_record_and_a_damaged_record_only_costs_time(settled: Agent) -> None:
    from memhooks.maintain.settled import covers

    rates = settled.root / "shipping" / "rates.py"
    _write(settled, str(rates))  # creates shipping/MEMHOOKS.md with its cue
    _age(settled.root / "shipping" / "MEMHOOKS.md")
    _write(settled, str(rates))  # maintenance: nothing to change; recorded beside billing
    record, root = _record(settled), str(settled.root)
    assert covers(str(record), [str(rates), str(settled.root / "billing" / "tax.py")], root, settled.env)
    record.write_text("{not json", encoding="utf-8")
    assert not covers(str(record), [str(rates)], root, settled.env)
    before = (settled.root / "shipping" / "MEMHOOKS.md").read_bytes()
    _write(settled, str(rates))  # asks maintenance again, and records again
    assert (settled.root / "shipping" / "MEMHOOKS.md").read_bytes() == before
    assert covers(str(record), [str(rates)], root, settled.env)
