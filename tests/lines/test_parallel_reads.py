"""Parallel Reads of one file (hosts run hooks for parallel tool calls at once): the
commits their answers share are told by one of them, and the other tells what a Read
after it would — the next owners — so nothing the two claim goes untold and nothing
either leaves out is claimed (lines20: requests' utils.py 810-859 and 840-889 read at
once left a4f9a599 and 2255c34a to neither; they came only at an edit)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from proxy_story import PATH, proxy_project

from memhooks.hook import handler, owners
from memhooks.session import State, keys, open_session


@pytest.fixture
def project(tmp_path: Path) -> dict[str, object]:
    return proxy_project(tmp_path)


def read(project: dict[str, object], session: str, offset: int) -> str:
    root = project["root"]
    return json.dumps({"session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse",
                       "tool_name": "Read", "tool_response": {},
                       "tool_input": {"file_path": f"{root}/{PATH}", "offset": offset, "limit": 40}})  # fmt: skip


def in_process(project: dict[str, object], payload: str) -> str:
    reply = handler.handle(payload, agent="claude-code", env=project["env"], time_s=30.0)  # type: ignore[arg-type]
    assert reply.note is None, reply.note
    return reply.stdout


def as_host(project: dict[str, object], payload: str) -> str:
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=payload, capture_output=True, text=True, check=True,
                          env=project["env"], cwd=project["root"])  # type: ignore[arg-type]  # fmt: skip
    return done.stdout


def told(stdout: str, hashes: dict[str, str]) -> list[str]:
    """The labels of the commits a Claude Code reply tells, in its order."""
    if not stdout.strip():
        return []
    text = json.loads(stdout)["hookSpecificOutput"]["additionalContext"]
    short = {h[:12]: label for label, h in hashes.items()}
    return list(
        dict.fromkeys(short[h] for h in re.findall(r"\b[0-9a-f]{12}\b", text) if h in short)
    )


def ledger(project: dict[str, object], session: str) -> set[str]:
    state = State(str(project["state"]) + "/state.sqlite3")
    found = open_session(state, "claude-code", session, str(project["root"]))
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    by_hash = {h: label for label, h in hashes.items()}
    return {by_hash[h] for h in keys.of(keys.COMMIT, found.delivered())}


def overtaken_by_read_1(project: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Race the next in-process Read of session ``par``: just before it records what it
    tells, the Read of lines 1-40 of the same session, a host process of its own, delivers
    and confirms. Returns what that one told (filled when the race has run)."""
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    record = owners._record
    overtaken: list[str] = []

    def raced(*args, **kwargs):  # type: ignore[no-untyped-def]
        overtaken.extend(told(as_host(project, read(project, "par", 1)), hashes))
        return record(*args, **kwargs)

    monkeypatch.setattr(owners, "_record", raced)
    return overtaken


def test_a_read_overtaken_by_a_parallel_read_tells_the_next_owners(
    project: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    # the two Reads one after the other: what each tells
    first = told(as_host(project, read(project, "seq", 1)), hashes)
    after = told(as_host(project, read(project, "seq", 2)), hashes)
    assert first == ["c0", "c1", "c2"] and after == ["c3", "c4", "c5"]

    # at once: the Read of lines 2-41 has made its answer (the same three owners) when
    # the Read of lines 1-40, a host process of its own, claims them first
    overtaken = overtaken_by_read_1(project, monkeypatch)
    late = told(in_process(project, read(project, "par", 2)), hashes)
    assert overtaken == first
    assert late == after  # the room the other call freed brings the next owners
    assert ledger(project, "par") == set(first) | set(late)  # claimed: exactly what was told


def test_parallel_reads_share_the_session_ceiling(
    project: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer8: parallel cold Reads of iproute2 spent 9,266-9,540 characters of an
    # 8,000 ceiling: each call read what the session had spent when it opened, and a
    # parallel call's delivery counted only once it confirmed. The room is charged and
    # checked in the write that records a delivery: the late Read tells what fits.
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    # reads may spend 750 (a quarter is kept for edits): one Read's answer (~440
    # characters) fits, not two
    ceiling = 1000
    monkeypatch.setitem(project["env"], "MEMHOOKS_SESSION_MAX_CHARS", str(ceiling))  # type: ignore[index]
    overtaken = overtaken_by_read_1(project, monkeypatch)
    late = told(in_process(project, read(project, "par", 2)), hashes)
    assert overtaken == ["c0", "c1", "c2"]
    # made again without what the other told, in the room it left: fewer next owners
    assert late and set(late) < {"c3", "c4", "c5"}
    state = State(str(project["state"]) + "/state.sqlite3")
    assert open_session(state, "claude-code", "par", str(project["root"])).tool_chars <= 750
    assert ledger(project, "par") == {"c0", "c1", "c2", *late}  # claimed: what was told


def test_a_read_a_parallel_read_left_no_room_for_says_so(
    project: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer32: parallel Reads that crossed the budget left the rest told nothing and
    # none of them said why — the Read made again in the room the other left says it
    hashes: dict[str, str] = project["hashes"]  # type: ignore[assignment]
    monkeypatch.setitem(project["env"], "MEMHOOKS_SESSION_MAX_CHARS", "600")  # type: ignore[index]
    overtaken = overtaken_by_read_1(project, monkeypatch)
    late = in_process(project, read(project, "par", 2))
    assert overtaken == ["c0", "c1", "c2"]
    text = json.loads(late)["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("[memhooks: the tool-time budget left no room for 3 commits owning")
    assert text.endswith("; later reads of this session may be told none]") and told(late, hashes) == []
