"""Line-level recall as the hook uses it, on the retry story: the Read of the file tells
the decision behind the simplified lines; the Edit of those lines then adds nothing the
session has; an Edit elsewhere tells its own owners."""

from __future__ import annotations

from pathlib import Path

from memhooks.lines.ranges import around
from memhooks.recall.line_recall import EDIT, READ, line_recall

PATH = "retryx/retry.py"
DECISION = "fix: cap Retrier at the measured attempt budget"


def test_a_read_tells_the_owner_and_what_it_replaced_then_the_edit_adds_nothing(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    state = str(tmp_path / "state")
    read = line_recall(str(repo), PATH, [(1, 19)], kind=READ, state_dir=state,
                       prompt="the retry test fails")  # fmt: skip
    assert read.text.count(hashes["decision"][:12]) == 2  # the headline and "... said:"
    assert read.text.count(DECISION) == 2
    assert f'{hashes["regression"][:12]} "perf: simplify retry"' in read.text
    assert hashes["decision"] in read.commits and hashes["regression"] in read.commits
    edit = line_recall(str(repo), PATH, [(6, 13)], kind=EDIT, state_dir=state,
                       delivered=set(read.commits))  # fmt: skip
    assert hashes["decision"][:12] not in edit.text
    assert edit.commits == [] or hashes["decision"] not in edit.commits


def test_an_edit_first_tells_every_owner_of_the_replaced_lines(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    edit = line_recall(str(repo), PATH, [(6, 13)], kind=EDIT, state_dir=str(tmp_path / "s"),
                       focus=[(9, 10)])  # fmt: skip
    lines = edit.text.split("\n")
    assert lines[2].startswith(f"retryx/retry.py 9–10: {hashes['regression'][:12]}")
    assert f'before it {hashes["decision"][:12]} "{DECISION}"' in lines[2]
    assert edit.commits == [hashes["regression"], hashes["decision"]]


def test_the_first_commit_is_told_at_an_edit_only_when_the_prompt_is_about_it(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    # lines 11-13 ("def call", its loop) are still as the project's first commit wrote them
    mine = line_recall(str(repo), PATH, [(8, 16)], kind=EDIT, state_dir=str(tmp_path / "s"),
                       focus=[(11, 13)])  # fmt: skip
    assert hashes["add"] not in mine.commits
    asked = line_recall(str(repo), PATH, [(8, 16)], kind=EDIT, state_dir=str(tmp_path / "s"),
                        focus=[(11, 13)], prompt="retry the gateway calls with a backoff")  # fmt: skip
    assert hashes["add"] in asked.commits


def test_the_budget_leaves_whole_explanations_out(repo: Path, tmp_path: Path) -> None:
    # the prompt brings the first commit's block too (short: it fits where the other does not)
    small = line_recall(str(repo), PATH, [(1, 19)], kind=EDIT, state_dir=str(tmp_path / "s"),
                        max_chars=400, prompt="retry gateway calls with exponential backoff")  # fmt: skip
    assert 0 < len(small.text) <= 400
    assert "perf: simplify retry" not in small.text  # its block did not fit: left out whole


def test_after_an_edit_the_saved_version_still_says_who_owned_the_replaced_lines(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    from memhooks.lines import owners, saved_text
    from memhooks.lines.tools import changes

    state = str(tmp_path / "state")
    owners(str(repo), PATH, state_dir=state)  # blamed when it was read
    file = repo / PATH
    old = "        self.attempts = attempts\n"
    file.write_text(file.read_text().replace(old, "        self.attempts = max(1, attempts)\n"))
    before = saved_text(str(repo), PATH, state_dir=state)
    assert before is not None and old in before
    (change,) = changes("Edit", {"file_path": str(file), "old_string": old})
    told = line_recall(str(repo), PATH, around(change.replaced(before), before), kind=EDIT, state_dir=state,
                       focus=change.replaced(before), saved=True)  # fmt: skip
    assert hashes["regression"] == told.commits[0] and hashes["decision"] in told.commits


def test_a_read_leaves_the_first_commit_out_but_tells_a_later_commit_that_created_a_file(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    from storyrepo import commit_files

    state = str(tmp_path / "state")
    read = line_recall(str(repo), PATH, [(1, 19)], kind=READ, state_dir=state)
    assert hashes["add"] not in read.commits  # the root commit: what the project began with
    asked = line_recall(str(repo), PATH, [(1, 19)], kind=READ, state_dir=state,
                        prompt="why do gateway calls retry with exponential backoff?")  # fmt: skip
    assert hashes["add"] in asked.commits  # unless its message answers the prompt
    feature = commit_files(repo, {"retryx/jitter.py": "def jitter(d):\n    return d / 2\n"},
                           "retryx: add jitter so clients do not retry in step", 1772500000)  # fmt: skip
    added = line_recall(str(repo), "retryx/jitter.py", [(1, 2)], kind=READ, state_dir=state)
    assert added.commits == [feature]  # a feature's commit that created a file: told


def test_an_edit_with_its_context_lines_still_gets_the_decision_behind_the_changed_line(
    tmp_path: Path,
) -> None:
    # newcomer trial (requests' auth.py 290-297): a decision on one line; then a real
    # change of the lines around it and a rename of the block; then a formatter rewrote
    # the whole block. The Edit changes the decided line, its old_string carrying three
    # lines of context either side: the walk back follows the changed line, and the
    # context lines' history (the thread-local state) does not hide the decision.
    from storyrepo import build, story

    from memhooks.lines.tools import changes

    repo = tmp_path / "wide"
    hashes = build(repo, story("wide_format_story.json"))
    path = "src/requests/auth.py"
    text = (repo / path).read_text()
    lines = text.split("\n")
    old = "\n".join(lines[4:11]) + "\n"  # lines 5-11: line 8 with 3 lines either side
    new = old.replace("num_calls < 2", "num_calls < 3")
    (change,) = changes("Edit", {"file_path": path, "old_string": old, "new_string": new})
    assert change.replaced(text) == [(8, 8)]
    told = line_recall(str(repo), path, around(change.replaced(text), text), kind=EDIT, state_dir=str(tmp_path / "s"),
                       focus=change.replaced(text))  # fmt: skip
    headline = told.text.split("\n")[2]
    assert headline.startswith(f"{path} 5–11: {hashes['format'][:12]}")
    assert f"before it {hashes['rename'][:12]}" in headline
    assert f'{hashes["decision"][:12]} "Fix infinite loop on wrong Digest' in headline
    assert hashes["decision"] in told.commits
    assert hashes["state"] not in told.commits  # the context lines' own story


def test_a_read_tells_no_sweeping_commit_and_no_commit_told_at_another_file(
    tmp_path: Path,
) -> None:
    # newcomer trial: whole-file Reads of requests' auth.py, sessions.py, models.py
    # headlined "Add inline types" and the formatting commit at every file. Here a typing
    # pass touched 16 files, six separate lines of each; the feature touched two.
    from storyrepo import build, story

    repo = tmp_path / "sweep"
    hashes = build(repo, story("sweep_story.json"))
    state = str(tmp_path / "s")
    first = line_recall(str(repo), "pkg/a.py", [], kind=READ, state_dir=state)
    assert first.commits == [hashes["feature"]]
    # the typing pass owns more of the file than the feature; it reshapes code (walked back
    # where a read walks), and as a sweep it is not told at a read at all
    from memhooks.recall.why import explain_lines

    why = explain_lines(str(repo), "pkg/a.py", state_dir=state)
    (types,) = [e for e in why.explanations if e.commit.hash == hashes["types"]]
    assert (types.commit.files, len(types.lines), types.commit.low_signal) == (16, 6, "reshapes")
    # a read of a few of its lines still knows its spread over the file (blamed whole)
    part = explain_lines(str(repo), "pkg/a.py", [(8, 12)], state_dir=state, surface=True)
    (types,) = [e for e in part.explanations if e.commit.hash == hashes["types"]]
    assert (len(types.lines), types.places) == (2, 6)
    second = line_recall(str(repo), "pkg/b.py", [], kind=READ, state_dir=state,
                         delivered=set(first.commits))  # fmt: skip
    assert second.text == "" and second.commits == []


def test_a_bump_owning_the_edited_line_is_not_told_alone(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    # review B: a PreToolUse Edit of requests' __version__ line delivered only
    # '6e83187b8feb "v2.34.2"' — a bump is not walked back, so alone it tells nothing
    from storyrepo import commit_files

    for n, when in ((0, 1700300000), (1, 1700400000), (2, 1700500000)):
        commit_files(repo, {"retryx/version.py": f'VERSION = "1.0.{n}"\n'},
                            f"v1.0.{n}\n", when)  # fmt: skip
    edit = line_recall(str(repo), "retryx/version.py", [(1, 1)], kind=EDIT,
                       state_dir=str(tmp_path / "s"), focus=[(1, 1)])  # fmt: skip
    assert (edit.text, edit.commits) == ("", [])


def test_a_narrow_read_tells_the_decision_a_sweep_reformatted(tmp_path: Path) -> None:
    # newcomer trial (requests' auth.py 286-297, owned by "Add automatic code formatting"):
    # a Read of a few lines told nothing while `why` and the edit named the decision
    # behind the formatter. A narrow read walks a sweep back; a whole-file read does not
    # (what a sweep replaced over a whole file is its grab-bag of history), and a sweep
    # over the project's first commit brings nothing worth telling.
    from storyrepo import build, commit_files, story

    repo = tmp_path / "sweep"
    hashes = build(repo, story("sweep_story.json"))
    text = (repo / "pkg/a.py").read_text(encoding="utf-8")
    decided = text.replace(
        "value_12 = 12", "value_12 = 12 * 60  # seconds: the broker counts minutes"
    )
    decided = decided.replace("value_14 = 14", "value_14 = 14 * 60")
    decision = commit_files(repo, {"pkg/a.py": decided},
                            "Count the broker's timeout in seconds\n\nIt counts minutes; "
                            "12 meant a twelfth of the budget.\n", 1625097600)  # fmt: skip
    swept = {f"pkg/m{n}.py": f"x_{n} = {n}\n" for n in range(14)}
    swept["pkg/a.py"] = decided.replace(" = 12 * 60", " = (12 * 60)").replace(
        " = 14 * 60", " = (14 * 60)"
    )
    sweep = commit_files(repo, swept, "Format code with black (#88)\n", 1627776000)
    state = str(tmp_path / "s")
    narrow = line_recall(str(repo), "pkg/a.py", [(10, 14)], kind=READ, state_dir=state)
    assert decision in narrow.commits
    assert f"{sweep[:12]}" in narrow.text and f"before it {decision[:12]}" in narrow.text
    whole = line_recall(str(repo), "pkg/a.py", [], kind=READ, state_dir=state)
    assert sweep not in whole.commits and hashes["feature"] in whole.commits
    # the typing pass's lines 9 and 11 replaced the first commit's: nothing to tell
    typed = line_recall(str(repo), "pkg/a.py", [(8, 9)], kind=READ, state_dir=str(tmp_path / "t"))
    assert typed.commits == []


def test_at_a_narrow_read_the_lines_own_owners_go_before_a_sweeps_chain(tmp_path: Path) -> None:
    # newcomer trial: requests' auth.py 286-297 lost 3a9d9f22, owner of 287-288, to the
    # formatter's and the typing pass's chains (they own more of the lines, second-hand)
    from storyrepo import build, commit_files, story

    from memhooks.recall.line_rank import rank
    from memhooks.recall.why import explain_lines

    repo = tmp_path / "sweep"
    build(repo, story("sweep_story.json"))
    text = (repo / "pkg/a.py").read_text(encoding="utf-8")
    for n in (12, 14, 16):
        text = text.replace(f"value_{n} = {n}\n", f"value_{n} = {n} * 60\n")
    commit_files(repo, {"pkg/a.py": text}, "Count the broker's timeouts in seconds\n", 1625097600)
    swept = {f"pkg/m{n}.py": f"x_{n} = {n}\n" for n in range(14)}
    swept["pkg/a.py"] = text.replace(" * 60", "*60")
    commit_files(repo, swept, "Format code with black (#88)\n", 1627776000)
    direct = swept["pkg/a.py"].replace("value_10 = 10", "value_10 = 10  # the gateway's own")
    direct = direct.replace("value_11: int = 11", "value_11: int = 11  # the gateway's own")
    own = commit_files(repo, {"pkg/a.py": direct}, "Keep the gateway's own limits\n", 1630454400)
    why = explain_lines(
        str(repo), "pkg/a.py", [(10, 16)], state_dir=str(tmp_path / "s"), max_previous=6
    )
    ranked = rank(why, None, narrow=True)
    assert [e.commit.hash for e in ranked][:1] == [own]  # 2 lines of its own before the sweep's 3
    assert len(ranked) == 2  # the sweep still comes, second, with what it replaced
