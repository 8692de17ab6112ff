"""What an owner did to its lines overrules its subject, one rule for a read, an edit and
``memhooks why`` (precision20, on requests with its history imported): a "Move …" subject
that only added words (a044b020 "Move DigestAuth hash algorithms to use
usedforsecurity=False") is no reshape; an owner that changed the lines only in
whitespace (2d4a89f5 "adding in pep8 fixes") is walked past at a read and at an edit,
and never told alone for an edit's context lines. ``data/delta_story.json``."""

from __future__ import annotations

from pathlib import Path

import pytest
from storyrepo import built_story

from memhooks.history.signal import relabels, reshapes
from memhooks.lines.delta import changed
from memhooks.lines.said import GAIN, NOTES, SPACE
from memhooks.recall.line_recall import EDIT, READ, line_recall
from memhooks.recall.why import explain_lines

PATH = "web/helpers.py"


@pytest.fixture(scope="module")
def helpers(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return built_story(tmp_path_factory, "delta_story.json")


def test_a_move_subject_that_only_added_words_is_no_reshape(
    helpers: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = helpers
    why = explain_lines(str(repo), PATH, [(16, 17)], state_dir=str(tmp_path / "state"))
    (owner,) = why.explanations
    assert owner.commit.hash == hashes["move"]
    assert (owner.commit.low_signal, owner.before) == (None, [])


def test_a_read_tells_the_move_that_added_words_as_itself(
    helpers: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = helpers
    told = line_recall(str(repo), PATH, [(15, 18)], kind=READ, state_dir=str(tmp_path / "s"))
    assert hashes["move"] in told.commits
    line = next(x for x in told.text.splitlines() if hashes["move"][:12] in x)
    assert line.startswith(f"{PATH} 16–17: ") and "before it" not in line


def test_an_edit_beside_a_whitespace_only_owner_does_not_tell_it_alone(
    helpers: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = helpers
    # the edit changes line 9; lines 10-11 (its context) were only re-aligned by pep8
    told = line_recall(str(repo), PATH, [(6, 12)], kind=EDIT, focus=[(9, 9)],
                       state_dir=str(tmp_path / "state"))  # fmt: skip
    assert hashes["decision"] in told.commits
    assert hashes["pep8"][:12] not in told.text


@pytest.mark.parametrize("kind", [READ, EDIT])
def test_read_and_edit_walk_past_a_whitespace_only_owner(
    kind: str, helpers: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = helpers
    focus = [(10, 11)] if kind == EDIT else []
    told = line_recall(str(repo), PATH, [(10, 11)], kind=kind, focus=focus,
                       state_dir=str(tmp_path / "state"))  # fmt: skip
    assert hashes["decision"] in told.commits
    assert f'before it {hashes["decision"][:12]} "helpers: follow 307 and 308' in told.text


def test_what_a_change_did_word_for_word() -> None:
    before = "x = f(a)\ny = g(b)\nz = 1\n"
    assert changed(before, "x = f(a, safe=False)\ny = g(b)\nz = 1\n") == [[1, 1, GAIN]]
    assert changed(before, "x  =  f( a )\ny = g(b)\nz = 1\n") == [[1, 1, SPACE]]
    assert changed(before, "x = h(a)\ny = g(b)\nz = 1\n") == []  # a rename loses a word
    assert changed(before, "z = 1\nx = f(a)\ny = g(b)\n") == []  # a move adds nothing
    # one hunk, line for line: the re-spaced line is whitespace-only beside a changed one
    # (the lead's repro, lane verdict24), and beside one that gained words
    assert changed(before, "x = f( a )\ny = g(c)\nz = 1\n") == [[1, 1, SPACE]]
    assert changed(before, "x = f( a )\ny = g(b, c)\nz = 1\n") == [[1, 1, SPACE], [2, 2, GAIN]]
    # a string across the hunk's lines: not judged line by line (a space inside it counts)
    assert changed('d = """a b\nc x"""\n', 'd = """a  b\nc y"""\n') == []
    # Python: out of the loop is no whitespace change; in C a re-indent is
    loop = "for i in s:\n    w(i)\n    flush()\n"
    assert changed(loop, "for i in s:\n    w(i)\nflush()\n") == []
    assert changed(loop, "for i in s:\n    w(i)\nflush()\n", indented=False) == [[3, 3, SPACE]]


@pytest.mark.parametrize(
    ("before", "after", "indented"),
    [
        ('sep = ", ".join(names)\n', 'sep = ",".join(names)\n', True),  # Python
        ('printf("%d, %d\\n", a, b);\n', 'printf("%d,%d\\n", a, b);\n', False),  # C
        ("doc = '''a  b'''\n", "doc = '''a b'''\n", True),  # inside a triple-quoted one
        ("c = ' ';\n", "c = '';\n", False),  # a C char
    ],
)
def test_whitespace_inside_a_string_literal_is_no_layout(
    before: str, after: str, indented: bool
) -> None:
    # review8: `", "` for `","` was whitespace-only, so its owner was walked past as a
    # layout owner — it changes what the program prints or parses
    assert changed(before, after, indented=indented) == []
    # the same lines re-spaced outside their literals are still layout
    respaced = after.replace("(", "( ").replace(" = ", "  =  ")
    assert changed(after, respaced, indented=indented) == [[1, 1, SPACE]]


def test_a_typing_pass_or_a_rename_reshapes_whatever_words_it_adds() -> None:
    assert reshapes("Add inline types to Requests (#7272)")
    assert relabels("Add inline types to Requests (#7272)")
    assert relabels("HTTPDigestAuth - Renamed thread local attribute")
    assert reshapes("Move DigestAuth hash algorithms to use usedforsecurity=False (#7310)")
    assert not relabels("Move DigestAuth hash algorithms to use usedforsecurity=False (#7310)")


def test_lines_written_where_nothing_was_replaced_gained_nothing() -> None:
    # iproute2 8d07e5f7 "Refactor ipaddr_list_or_flush": its new code was told at a read
    # as if it changed older lines
    assert changed("a = 1\nb = 2\n", "a = 1\nc = f(a)\nb = 2\n") == []


def test_a_whitespace_only_previous_owner_is_walked_past_too(
    helpers: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    # requests models.py 96-98: behind the formatter stood 2d4a89f5 "adding in pep8
    # fixes", which only re-aligned the lines, and the walk stopped there
    repo, hashes = helpers
    told = line_recall(str(repo), PATH, [(20, 25)], kind=EDIT, focus=[(23, 23)],
                       state_dir=str(tmp_path / "state"))  # fmt: skip
    assert f'before it {hashes["pep8"][:12]} "adding in pep8 fixes"' in told.text
    assert f'before that {hashes["decision"][:12]} "helpers: follow 307' in told.text


def test_both_rules_keep_their_verdicts_one_way_and_ask_again_when_git_failed(
    helpers: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # delta's and surface's verdicts are read, judged and kept by one function
    # (delta.kept, duplicates D7): an owner git could not show is not judged, nothing is
    # kept, and the next call asks git again and keeps what it found
    from memhooks.lines import blame, delta, owners, surface

    repo, hashes = helpers
    state = str(tmp_path / "state")
    real_show = blame.show

    def failing(*args: object, **kwargs: object) -> object:
        raise blame.BlameError("fatal: git failed")

    for rule, notes in ((delta.verdicts, NOTES), (surface.surface_owners, surface.NOTES)):
        own = owners(str(repo), PATH, state_dir=state)
        judged = [o for o in own.owners if o.previous is not None and not o.boundary]
        assert hashes["pep8"] in {o.hash for o in judged}
        monkeypatch.setattr(blame, "show", failing)
        assert not rule(str(repo), judged, own)
        assert notes not in owners(str(repo), PATH, state_dir=state).notes  # nothing kept
        monkeypatch.setattr(blame, "show", real_show)
        rule(str(repo), judged, owners(str(repo), PATH, state_dir=state))
        kept = owners(str(repo), PATH, state_dir=state).notes[notes]
        assert set(kept) == {o.hash for o in judged if notes == NOTES or o.origin_lines}
    own = owners(str(repo), PATH, state_dir=state)
    assert (
        delta.verdicts(str(repo), judged, own)[hashes["pep8"]]
        == (own.notes[NOTES][hashes["pep8"]])
    )
