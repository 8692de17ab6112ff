"""The owners of an edit's lines keep a reserve of the session's tool-time budget that
reads cannot spend, and when even that is spent the reply says so in one line — never
nothing (newcomer8: after six whole-file Reads of iproute2 the 8,000-character session
budget was spent, and the Edit of ip/ipaddress.c 1408 that followed was told nothing of
be1bea843234, the commit owning its lines, and nothing said so)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from proxy_story import PATH, proxy_project

from memhooks.hook.call import edit_reserve

#: The session's tool-time ceiling: the first Read's answer (~440 characters) and the
#: second's (~340) fill it, as six whole-file Reads filled iproute2's 8,000.
CEILING = 800


@pytest.fixture
def project(tmp_path: Path) -> dict[str, object]:
    return proxy_project(tmp_path, MEMHOOKS_SESSION_MAX_CHARS=str(CEILING))


def hook(project: dict[str, object], payload: dict[str, object]) -> str:
    """The additionalContext of one ``memhooks hook`` process, as Claude Code runs it."""
    root = project["root"]
    raw = json.dumps({"session_id": "s1", "cwd": str(root), **payload})
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=raw, capture_output=True, text=True, check=True,
                          env=project["env"], cwd=root)  # type: ignore[arg-type]  # fmt: skip
    assert done.stderr == "", done.stderr
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def read(project: dict[str, object], first: int, last: int) -> str:
    return hook(project, {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {},
                          "tool_input": {"file_path": f"{project['root']}/{PATH}",
                                         "offset": first, "limit": last - first + 1}})  # fmt: skip


def edit(project: dict[str, object], first: int, last: int) -> str:
    root: Path = project["root"]  # type: ignore[assignment]
    lines = (root / PATH).read_text(encoding="utf-8").splitlines(keepends=True)
    old = "".join(lines[first - 1 : last])
    return hook(project, {"hook_event_name": "PreToolUse", "tool_name": "Edit",
                          "tool_input": {"file_path": f"{root}/{PATH}", "old_string": old,
                                         "new_string": old.replace("compute", "derive")}})  # fmt: skip


def told(text: str, hashes: dict[str, str]) -> list[str]:
    short = {h[:12]: label for label, h in hashes.items()}
    found = re.findall(r"\b[0-9a-f]{12}\b", text)
    return list(dict.fromkeys(short[h] for h in found if h in short))


def test_an_edit_after_reads_filled_the_budget_is_told_its_owners(
    project: dict[str, object],
) -> None:
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    assert told(read(project, 1, 21), hashes) == ["c0", "c1", "c2"]
    # the second Read stops short of the edits' reserve (it would have filled the budget)
    assert told(read(project, 22, 30), hashes) == []
    before = edit(project, 31, 33)  # rule_5, owned by c5
    assert "c5" in told(before, hashes)
    assert "memhooks why" not in before  # nothing was left out


def test_an_edit_past_the_whole_budget_is_told_what_was_left_out(
    project: dict[str, object],
) -> None:
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    read(project, 1, 21)
    edit(project, 31, 33)
    # the reserve is spent too: rule_3's owner is not told, and the reply says so in
    # one short line naming the command that tells it
    said = edit(project, 22, 24)
    assert told(said, hashes) == [] and said.count("\n") == 0 and len(said) < 160
    assert "1 commit owning pkg/proxy.py 22–26: `memhooks why pkg/proxy.py:22-26` tells it" in said
    # once per file (a refactoring's 30 hunks in 7 files of iproute2 said it 25 times)
    assert edit(project, 25, 26) == ""
    # nothing is said where nothing was left out: rule_0's lines were told at the Read
    assert edit(project, 2, 4) == ""


def test_a_read_the_budget_left_no_room_for_says_so_once_a_session(
    project: dict[str, object],
) -> None:
    # newcomer28: after ~12 reads every read was told nothing — the budget spent, by
    # design — and neither the model nor the user heard why
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    read(project, 1, 21)
    said = read(project, 22, 30)  # its owners are the session's, but no room is left
    assert told(said, hashes) == [] and said.count("\n") == 0
    assert said == (
        "[memhooks: the tool-time budget left no room for 2 commits owning pkg/proxy.py"
        " 22–30: `memhooks why pkg/proxy.py:22-30` tells them; later reads of this session"
        " may be told none]"
    )
    assert read(project, 31, 40) == ""  # said once
    assert "c5" in told(edit(project, 31, 33), hashes)  # the edits' reserve stands


def test_owners_past_the_few_an_edit_is_told_are_said_in_one_line(tmp_path: Path) -> None:
    # newcomer30: the fifth owner of an edit's lines was left out without a word (and
    # told at the next edit of the same lines)
    project = proxy_project(tmp_path)
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    said = edit(project, 14, 31)  # c1 14-15, c2, c3, c4 whole, c5 31 (±3: 11-33)
    assert told(said, hashes) == ["c2", "c3", "c4", "c1"]  # most lines changed first
    assert said.endswith(
        "[memhooks: an edit is told 4 owners at most; 1 more commit owns pkg/proxy.py"
        " 31–33: `memhooks why pkg/proxy.py:31-33` tells it]"
    ), said
    assert "c5" in told(edit(project, 31, 31), hashes)  # its own edit tells it


def test_the_reserve_is_a_quarter_of_the_budget_and_at_most_one_delivery() -> None:
    assert edit_reserve(8000, 2000) == 2000  # the defaults: one whole edit's answer
    assert edit_reserve(800, 2000) == 200
    assert edit_reserve(8000, 500) == 500


def test_the_left_out_line_is_in_the_delivery_log(project: dict[str, object]) -> None:
    # polish23 item 5: the line reached the model and `sessions show` did not list it
    from memhooks.session import State, state_path
    from memhooks.session.report import deliveries, find

    read(project, 1, 21)
    edit(project, 31, 33)
    said = edit(project, 22, 24)
    assert "memhooks why pkg/proxy.py:22-26" in said
    state = State(state_path(project["env"]))  # type: ignore[arg-type]
    try:
        [session] = find(state, "s1")
        logged = [(d["target"], i) for d in deliveries(state, session["key"]) for i in d["items"]]
    finally:
        state.close()
    assert ("pkg/proxy.py", {"item": "notice:left-out:pkg/proxy.py", "words": said,
                             "cue": None}) in logged  # fmt: skip


def test_the_left_out_line_names_the_lines_those_owners_own() -> None:
    # newcomer32: "4 more commits own ip/ipaddress.c 1307–1320", where the told owners'
    # lines 1310-1311, 1314-1315 and 1317 lie in that span
    from types import SimpleNamespace

    from memhooks.recall.why_text import left_out

    def owner(commit: str, *lines: tuple[int, int]) -> SimpleNamespace:
        return SimpleNamespace(commit=SimpleNamespace(hash=commit), lines=list(lines))

    capped = [owner("a", (1307, 1309)), owner("b", (1312, 1312)), owner("c", (1316, 1316)),
              owner("d", (1319, 1320))]  # fmt: skip
    assert left_out([], "ip/ipaddress.c", capped=capped, most=4) == (  # type: ignore[arg-type]
        "[memhooks: an edit is told 4 owners at most; 4 more commits own ip/ipaddress.c"
        " 1307–1309, 1312, 1316, 1319–1320: `memhooks why ip/ipaddress.c:1307-1320` tells them]"
    )
