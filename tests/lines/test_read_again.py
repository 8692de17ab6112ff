"""What reaches a session once is a commit, not a file (issue 20 item 2, newcomer #6,
reviewA): a second Read of other lines of a file tells their owners, the same Read again
tells nothing, and a shell read naming more files than are told about leaves the rest to
their own read."""

from __future__ import annotations

from pathlib import Path

from test_hook_lines import context, hook
from test_told import read


def test_a_second_read_of_other_lines_tells_their_owners(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    root = Path(str(project["root"]))
    assert context(hook(project, "claude-code", read(root, 1, 4))) == ""  # the first commit's
    told = context(hook(project, "claude-code", read(root, 5, 8)))
    assert hashes["decision"][:12] in told
    assert context(hook(project, "claude-code", read(root, 5, 8))) == ""  # the same read again


def test_a_shell_read_of_three_files_leaves_the_third_to_its_own_read(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    from storyrepo import commit_files

    root = Path(str(project["root"]))
    files = {f"retryx/f{n}.py": f"# part {n}\nX{n} = {n}\n" for n in (1, 2)}
    commit_files(root, files, "chore: two small parts", 1772400000)  # fmt: skip
    shell = {"session_id": "{session}", "cwd": "{root}", "hook_event_name": "PostToolUse",
             "tool_name": "Bash", "tool_response": {"stdout": "", "stderr": "", "interrupted": False},
             "tool_input": {"command": "sed -n 5,12p retryx/f1.py retryx/f2.py retryx/retry.py"}}  # fmt: skip
    assert hashes["decision"][:12] not in context(hook(project, "claude-code", shell))
    told = context(hook(project, "claude-code", read(root, 5, 8)))
    assert hashes["decision"][:12] in told
