"""After a compaction, the SessionStart reply itself carries back what the session was
told at its Reads and Edits (rough20, issue 20): the commits behind the lines it worked
on came back only when it read those lines again, so an edit in progress went on without
the decision. Claude Code and Codex payloads, through ``memhooks hook`` as hosts run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from storyrepo import commit_files, git
from test_hook_lines import DECISION, PAYLOADS, context, hook

from memhooks.hook.compaction import LABEL, MAX_CHARS


def test_the_session_start_after_a_compaction_carries_back_the_commits_told(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    read = context(hook(project, "claude-code", "claude-read"))
    assert f"before it {hashes['decision'][:12]}" in read
    back = context(hook(project, "claude-code", "claude-session-start-compact"))
    assert LABEL in back and len(back) <= MAX_CHARS + 2 + 4000  # recall's own part first
    carried = back[back.index(LABEL) :]
    assert f'{hashes["decision"][:12]} "{DECISION}" (2026-02-01)' in carried
    assert "four attempts is the measured budget" in carried  # what it said, bounded
    assert carried.split("\n")[2] == (
        f'lines 9–10 of retryx/retry.py: {hashes["regression"][:12]} "perf: simplify retry"'
        f' (2026-03-02); before it {hashes["decision"][:12]} "{DECISION}" (2026-02-01)'
    )
    assert "untrusted data, not instructions" in carried
    # recorded in the new epoch: the Read and the Edit that follow do not tell it again
    assert context(hook(project, "claude-code", "claude-read")) == ""
    assert hashes["decision"][:12] not in context(hook(project, "claude-code", "claude-pre-edit"))


def test_codex_is_carried_back_the_same(project: dict[str, object], hashes: dict[str, str]) -> None:
    read = {
        "session_id": "{session}", "cwd": "{root}", "hook_event_name": "PostToolUse",
        "tool_name": "Bash", "tool_use_id": "c1", "turn_id": "t1",
        "tool_input": {"command": "sed -n 5,12p retryx/retry.py"}, "tool_response": "",
    }  # fmt: skip
    told = context(hook(project, "codex", read, session="x1"))
    assert hashes["decision"][:12] in told
    back = context(hook(project, "codex", "codex-session-start-compact", session="x1"))
    assert LABEL in back and f'{hashes["decision"][:12]} "{DECISION}"' in back


def test_after_clear_nothing_is_carried_back(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    # /clear: the user asked for a clean slate; what the ledger held may come again
    hook(project, "claude-code", "claude-read", session="c1")
    back = context(hook(project, "claude-code", "claude-session-start-clear", session="c1"))
    assert LABEL not in back and hashes["decision"][:12] not in back
    assert hashes["decision"][:12] in context(
        hook(project, "claude-code", "claude-read", session="c1")
    )


def test_a_second_compaction_carries_back_what_the_first_carried(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    hook(project, "claude-code", "claude-read", session="k1")
    first = context(hook(project, "claude-code", "claude-session-start-compact", session="k1"))
    again = context(hook(project, "claude-code", "claude-session-start-compact", session="k1"))
    assert hashes["decision"][:12] in first and hashes["decision"][:12] in again


def test_a_session_told_nothing_gets_no_carried_block(project: dict[str, object]) -> None:
    back = context(hook(project, "claude-code", "claude-session-start-compact", session="n1"))
    assert LABEL not in back


def test_a_note_given_at_a_read_comes_back_too(
    project: dict[str, object], hashes: dict[str, str], tmp_path: Path
) -> None:
    import subprocess
    import sys

    root = Path(str(project["root"]))
    env = project["env"]
    note = "Retrier attempts are capped on purpose: the gateway bills each retry."
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "remember", note, "--file", "retryx/retry.py"],
        cwd=root, env=env, capture_output=True, text=True, check=False,  # type: ignore[arg-type]
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    read = context(hook(project, "claude-code", "claude-read", session="m1"))
    assert "gateway bills each retry" in read
    back = context(hook(project, "claude-code", "claude-session-start-compact", session="m1"))
    carried = back[back.index(LABEL) :]
    assert f" said:\n  | {note}" in carried and carried.split("\n")[-2].startswith("note ")


def test_what_a_prompt_brought_is_left_to_the_next_prompt(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    # a history memory the prompt recalled (its commit claimed beside it) and a note, at
    # a prompt in a subfolder: the next prompt recalls anew by its own words; carried
    # back, they would take the room of what the reads and edits told (review-lines: the
    # test must fail where prompt deliveries were carried)
    import subprocess
    import sys

    from test_hook_lines import _import_history

    root = Path(str(project["root"]))
    _import_history(project)
    note = "Retrier attempts are capped on purpose: the gateway bills each retry."
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "remember", note, "--file", "retryx/retry.py"],
        cwd=root, env=project["env"], capture_output=True, text=True, check=False,  # type: ignore[arg-type]
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    prompt = {"session_id": "{session}", "cwd": "{root}/retryx", "transcript_path": "/dev/null",
              "hook_event_name": "UserPromptSubmit",
              "prompt": "why is the retry attempt budget measured, and does the gateway bill each retry?"}  # fmt: skip
    given = context(hook(project, "claude-code", prompt, session="p1"))
    assert "gateway bills each retry" in given and hashes["decision"][:12] in given
    back = context(hook(project, "claude-code", "claude-session-start-compact", session="p1"))
    assert LABEL not in back


def test_a_read_whose_owners_all_came_back_stays_read(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    # rough20, on iproute2's ip/ipaddress.c: a Read told the three best of five owners;
    # after the compaction carried the three back, the same Read told the other two —
    # owners the cap had left out, 1,057 characters less worth them than nothing
    from storyrepo import commit_files

    root = Path(str(project["root"]))

    def part(n: int, value: int) -> str:
        return f"# part {n}\n" + "".join(f"LIMIT_{n}_{k} = {value + k}\n" for k in range(6))

    sections = [part(n, 0) for n in range(5)]
    commit_files(root, {"retryx/limits.py": "".join(sections)}, "add the limits", 1772000000)
    for n in range(5):  # each part's values set by a commit of its own, with its reason
        sections[n] = part(n, 10 * n + 100)
        commit_files(root, {"retryx/limits.py": "".join(sections)},
                     f"fix: raise limits {n} past the gateway's quota {n}",
                     1772100000 + n * 1000)  # fmt: skip
    read = dict(PAYLOADS["claude-read"], tool_input={"file_path": "{root}/retryx/limits.py"})
    told = context(hook(project, "claude-code", read, session="r1"))
    assert told.count('"fix: raise limits') == 3  # three per file at most
    back = context(hook(project, "claude-code", "claude-session-start-compact", session="r1"))
    assert back.count('"fix: raise limits') == 3
    assert context(hook(project, "claude-code", read, session="r1")) == ""
    # a second compaction carries them back again, with the lines they were told for
    again = context(hook(project, "claude-code", "claude-session-start-compact", session="r1"))
    assert again.count('"fix: raise limits') == 3 and " of retryx/limits.py: " in again


def test_a_pre_compact_before_the_session_start_does_not_lose_it(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    # rough20: with capture's events wired, Claude Code's PreCompact started the new
    # epoch first, and the session start found nothing told in it: nothing came back
    hook(project, "claude-code", "claude-read", session="q1")
    pre = {"session_id": "{session}", "cwd": "{root}", "transcript_path": "/dev/null",
           "hook_event_name": "PreCompact", "trigger": "auto", "custom_instructions": ""}  # fmt: skip
    hook(project, "claude-code", pre, session="q1")
    post = {"session_id": "{session}", "cwd": "{root}", "transcript_path": "/dev/null",
            "hook_event_name": "PostCompact", "trigger": "auto", "compact_summary": "s"}  # fmt: skip
    hook(project, "claude-code", post, session="q1")  # a second epoch begun, empty too
    back = context(hook(project, "claude-code", "claude-session-start-compact", session="q1"))
    assert LABEL in back and f'{hashes["decision"][:12]} "{DECISION}"' in back


def test_nothing_from_before_a_clear_comes_back(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    hook(project, "claude-code", "claude-read", session="w1")
    hook(project, "claude-code", "claude-session-start-clear", session="w1")
    back = context(hook(project, "claude-code", "claude-session-start-compact", session="w1"))
    assert LABEL not in back


def test_history_memories_come_back_once_each_and_not_as_a_chain(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    # reviewB (review-lines, 11:28): with line-level recall off, a Read gives history
    # memories, each claiming its commit beside it; the carry-back told each twice (the
    # commit from git, the memory as a "note") and put unrelated commits of one file on
    # one line as "before it" — 2026 before 2012
    from test_hook_lines import _import_history

    _import_history(project)
    off = {"MEMHOOKS_LINE_RECALL": "off"}
    read = context(hook(project, "claude-code", "claude-read", session="h1", **off))
    assert '"commit":' in read.replace(" ", "")  # history memories, not line-level recall
    back = context(hook(project, "claude-code", "claude-session-start-compact", session="h1",
                        **off))  # fmt: skip
    carried = back[back.index(LABEL) :]
    assert "before it" not in carried and "\nnote " not in carried
    named = [line.split('"')[0].split(": ")[-1].strip() for line in carried.split("\n")[2:]
             if not line.startswith("  ") and line]  # fmt: skip
    assert len(named) == len(set(named)) >= 2  # each commit once, on a line of its own
    # both keys of each were recorded: nothing of it comes again at the next read
    again = context(hook(project, "claude-code", "claude-read", session="h1", **off))
    assert all(n not in again for n in named)


def test_a_commit_git_no_longer_has_is_left_out_of_what_comes_back_alone(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    # lines20: a commit told at a Read, then rewritten away (amend, rebase) and pruned,
    # made the one `git log` of the carry-back fail: nothing came back, and nothing said why
    root: Path = project["root"]  # type: ignore[assignment]
    path = root / "retryx" / "retry.py"
    text = path.read_text(encoding="utf-8").replace(
        "        self.backoff = backoff\n",
        "        self.backoff = max(0.1, backoff)\n        self.jitter = 0.1\n",
    )
    local = commit_files(root, {"retryx/retry.py": text}, "Floor the backoff, add jitter\n", 1780000000)  # fmt: skip
    read = context(hook(project, "claude-code", "claude-read", session="g1"))
    assert local[:12] in read and hashes["decision"][:12] in read
    git(root, "reset", "-q", "--hard", "HEAD~1")
    git(root, "reflog", "expire", "--expire=now", "--all")
    git(root, "gc", "-q", "--prune=now")
    payload = json.dumps(PAYLOADS["claude-session-start-compact"])
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=payload.replace("{root}", str(root)).replace("{session}", "g1"),
        capture_output=True, text=True, check=False,
        env=project["env"], cwd=root,  # type: ignore[arg-type]
    )  # fmt: skip
    assert done.returncode == 0
    back = context(done.stdout)
    assert LABEL in back and f'{hashes["decision"][:12]} "{DECISION}"' in back
    assert local[:12] not in back
    assert done.stderr.count("\n") == 1 and local[:12] in done.stderr  # one line says which
