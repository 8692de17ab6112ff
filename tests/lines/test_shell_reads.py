"""A shell read is bounded like a Read (rough20, issue 20 item 2): ``tail -n N`` tells the
owners of the file's last N lines (it read nothing known before), ``cat`` of a whole file
the lines a Read without a limit gives — not a blame of every line of a long file."""

from __future__ import annotations

import pytest
from test_hook_lines import DECISION, context, hook

from memhooks.lines.shell import FROM_END, from_end
from memhooks.lines.tools import READ_LINES, reads


def shell(command: str) -> dict[str, object]:
    """Codex's PostToolUse of its shell tool, as it sends it."""
    return {"session_id": "{session}", "cwd": "{root}", "hook_event_name": "PostToolUse",
            "tool_name": "Bash", "tool_use_id": "c1", "turn_id": "t1",
            "tool_input": {"command": command}, "tool_response": ""}  # fmt: skip


@pytest.mark.parametrize(
    ("ranges", "size", "expected"),
    [
        ([(-5, FROM_END)], 19, [(15, 19)]),
        ([(-40, FROM_END)], 19, [(1, 19)]),
        ([(-5, FROM_END)], 0, []),
        ([(3, 7)], 19, [(3, 7)]),
    ],
)
def test_the_last_lines_are_resolved_once_the_size_is_known(
    ranges: list[tuple[int, int]], size: int, expected: list[tuple[int, int]]
) -> None:
    assert from_end(ranges, size) == expected


def test_tail_tells_the_owners_of_the_last_lines(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    # retry.py has 19 lines: the last 12 hold the simplified lines 9-10
    told = context(hook(project, "codex", shell("tail -n 12 retryx/retry.py"), session="t1"))
    assert f'before it {hashes["decision"][:12]} "{DECISION}"' in told
    # the last 3 lines are the first commit's: not the lines of the simplification
    last = context(hook(project, "codex", shell("tail -n 3 retryx/retry.py"), session="t2"))
    assert hashes["regression"][:12] not in last and hashes["decision"][:12] not in last


def test_cat_of_a_long_file_is_bounded_like_a_read() -> None:
    assert reads("Bash", {"command": "cat big.c"}) == [("big.c", [(1, READ_LINES)])]
    assert reads("Read", {"file_path": "big.c"}) == [("big.c", [(1, READ_LINES)])]
