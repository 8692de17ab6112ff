"""The session's tool-time ceiling is charged and checked in the write that records a
delivery (newcomer8: parallel cold Reads of iproute2 spent 9,266-9,540 characters of
8,000 — each hook call read what the session had spent when it opened, and a parallel
call's delivery counted only once that call confirmed it)."""

from __future__ import annotations

from pathlib import Path

from memhooks.session import State, open_session


def two_calls(tmp_path: Path, now: list[float]):  # type: ignore[no-untyped-def]
    """Two hook calls of one session, opened together, each holding what it records."""
    state = State(str(tmp_path / "state.sqlite3"), clock=lambda: now[0])
    calls = [open_session(state, "claude-code", "s", "/p") for _ in "12"]
    for call in calls:
        call.hold_until = now[0] + 3.0
    return calls


def item(name: str, of: str | None = None) -> dict[str, object]:
    return {"item": name, "words": name, "cue": None, **({"of": of} if of else {})}


def test_a_parallel_calls_held_delivery_counts_against_the_ceiling(tmp_path: Path) -> None:
    now = [1000.0]
    first, second = two_calls(tmp_path, now)
    sizes = {"m1": 300, "m2": 300, "m3": 300}

    def size(claimed: set[str]) -> int:
        return sum(sizes.get(i, 0) for i in claimed)

    assert first.record("PostToolUse", "a", [item("m1"), item("m2")], size, tool_time=True,
                        ceiling=1000) == {"m1", "m2"}  # fmt: skip
    # the first call has not confirmed: its 600 characters are held, and count
    claimed = second.record("PostToolUse", "b", [item("m3"), item("m4"), item("c3", of="m3")],
                            lambda c: size(c) + 50 * len(c), tool_time=True, ceiling=1000)  # fmt: skip
    assert claimed == {"m4"}  # m3 and its commit did not fit the 400 left: left out, unclaimed
    assert second.tool_chars == 650  # what the write found spent, and this delivery
    first.confirm()
    second.confirm()
    later = open_session(first.state, "claude-code", "s", "/p")
    assert later.tool_chars == 650 and later.delivered() == {"m1", "m2", "m4"}


def test_an_answer_made_for_more_room_than_is_left_is_made_again_for_what_is_left(
    tmp_path: Path,
) -> None:
    now = [1000.0]
    first, second = two_calls(tmp_path, now)
    first.record("PostToolUse", "a", [item("m1")], lambda c: 700, tool_time=True, ceiling=1000)
    rooms: list[int | None] = []

    def answer(taken: set[str], room: int | None) -> tuple[int, list[dict[str, object]]]:
        rooms.append(room)
        return (900, [item("c1"), item("c2")]) if room is None else (250, [item("c1")])

    assert second.record_made("PreToolUse", "x.c", answer, tool_time=True, ceiling=1000) == {"c1"}
    assert rooms == [None, 300]  # made for its own budget, then for what the write found left
    # a held delivery whose call never confirmed lapses, and no longer counts
    now[0] += 10.0
    again = open_session(first.state, "claude-code", "s", "/p")
    assert again.record("PostToolUse", "c", [item("m5")], lambda c: 950, tool_time=True,
                        ceiling=1000) == {"m5"}  # fmt: skip


def test_without_a_ceiling_nothing_is_checked(tmp_path: Path) -> None:
    now = [1000.0]
    first, second = two_calls(tmp_path, now)
    first.record("PostToolUse", "a", [item("m1")], lambda c: 700, tool_time=True)
    assert second.record("UserPromptSubmit", "b", [item("m2")], lambda c: 700) == {"m2"}
