"""A commit that changed the lines read only on their surface — comments, docstrings, type
annotations — is not told as their owner (issue 20 item 2; requests' "Add inline types"
was the top owner of ``auth.py``'s first 60 lines): judged by what it changed in those
lines, not by its subject, and a real change hidden in such a commit still counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from storyrepo import build, story

from memhooks.lines.language import language
from memhooks.lines.surface_diff import substantive_lines
from memhooks.recall.line_recall import EDIT, READ, line_recall

PAIRS = json.loads((Path(__file__).parent / "data" / "surface" / "pairs.json").read_text("utf-8"))
PATH = "billing/total.py"


def test_annotations_docstrings_comments_and_typing_imports_are_surface() -> None:
    python = PAIRS["python"]
    found = substantive_lines(python["before"], python["annotated"], "python")
    # all but a bare annotation in a class body: a field, for all a reader of the class
    # can tell (a dataclass's) — its name is code
    lines = python["annotated"].splitlines()
    assert [lines[n - 1].strip() for n in sorted(found or ())] == ["lines: list[Line]"]
    # a signature spread over lines, annotated, with a formatter's trailing comma
    assert substantive_lines(python["before"], python["reflowed"], "python") == set()
    assert substantive_lines("f = g((1))\n", "f = g((1,))\n", "python") == {1}  # a tuple


def test_imports_merged_and_sorted_are_surface_and_a_new_name_is_code() -> None:
    # requests' "Fix CI and build failures (#7190)", a ruff pass over 19 files, told at a
    # Read of adapters.py for its import lines
    before = ("from x.errors import A, B\nfrom x.errors import C as _C\nimport os\n\n"
              "f = A\n")  # fmt: skip
    sorted_ = "import os\n\nfrom x.errors import (\n    A,\n    B,\n)\nfrom x.errors import C as _C\n\nf = A\n"
    assert substantive_lines(before, sorted_, "python") == set()
    more = sorted_.replace("    B,\n", "    B,\n    D,\n")
    assert substantive_lines(before, more, "python") == set(range(1, 9))  # the block, 1-8


def test_a_default_value_or_an_argument_added_with_the_types_is_code() -> None:
    python = PAIRS["python"]
    found = substantive_lines(python["before"], python["changed"], "python")
    lines = python["changed"].splitlines()
    assert found is not None
    # the docstring written right below the changed signature goes with it
    assert [lines[n - 1].strip() for n in sorted(found)] == [
        'def total(lines: list[Line], currency: str = "EUR") -> decimal.Decimal:',
        '"""The invoice total, rounded once.',
        "lines: list[Line]",
        "return gateway.post(self, retries=2)",
    ]


def test_in_c_comments_and_whitespace_are_surface_and_code_is_not() -> None:
    c = PAIRS["c"]
    assert substantive_lines(c["before"], c["commented"], "c") == set()
    changed = substantive_lines(c["before"], c["changed"], "c")
    assert changed is not None
    # the comment right above the changed line goes with it (written with the change)
    assert [c["changed"].splitlines()[n - 1].strip() for n in sorted(changed)] == [
        '// never cached: "ip link set" changes it',
        "return l->mtu ?: 1500;",
    ]


def test_text_that_is_not_code_of_its_language_is_not_judged() -> None:
    assert substantive_lines("def f(:\n", "def f(x):\n", "python") is None
    assert language("README.md") is None and language("ip/iplink.c") == "c"


@pytest.fixture
def billing(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "repo"
    return repo, build(repo, story("surface_story.json"))


def test_a_read_tells_the_decision_not_the_commit_that_only_added_types(
    billing: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = billing
    state = str(tmp_path / "state")
    told = line_recall(str(repo), PATH, [(10, 20)], kind=READ, state_dir=state)
    assert hashes["decision"] in told.commits
    # it owns 5 of the 11 lines, the most; a typing pass reshapes code (history.signal), so
    # it is named only as the later owner, with what it replaced behind it
    types = [e for e in told.why.explanations if e.commit.hash == hashes["types"]]
    assert all(e.previous for e in types)
    # the verdict is kept with the file version: the same read again runs no git for it
    again = line_recall(str(repo), PATH, [(10, 20)], kind=READ, state_dir=state)
    assert again.commits == told.commits


def test_an_edit_still_names_every_owner_of_the_lines_it_replaces(
    billing: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    # the rule is a read's: before an edit, the lines' owners are all told
    repo, hashes = billing
    told = line_recall(str(repo), PATH, [(12, 18)], kind=EDIT, state_dir=str(tmp_path / "s"),
                       focus=[(15, 15)])  # fmt: skip
    assert hashes["types"] in told.commits


def test_the_versions_are_read_in_one_batch_whatever_each_spec_names(
    billing: tuple[Path, dict[str, str]],
) -> None:
    # a folder (a tree, whose content git prints too), a path no commit has, a path with
    # a line break: none of them shifts the texts read after it
    from memhooks.lines.blame import show

    repo, hashes = billing
    specs = [(hashes["types"], "billing"), (hashes["add"], "missing.py"),
             (hashes["add"], "a\nb.py"), (hashes["types"], PATH)]  # fmt: skip
    found = show(str(repo), specs, None)
    assert [found[s] is None for s in specs] == [True, True, True, False]
    assert (found[specs[3]] or "").startswith('"""Billing helpers."""')


def test_the_comment_written_with_a_change_is_not_surface_once_the_code_moved_on() -> None:
    # review-lines: requests' "Guard against users sending unprepared requests." wrote a
    # comment and the guard under it; "Add inline types" later rewrote the guard line, so
    # the fix owns only its comment — it is still the reason for that guard
    before = "def send(request):\n    return adapter.send(request)\n"
    fixed = ("def send(request):\n    # It's possible that users might accidentally send a Request\n"
             "    # object. Guard against that specific failure case.\n"
             "    if isinstance(request, Request):\n"
             "        raise ValueError('You can only send PreparedRequests.')\n"
             "    return adapter.send(request)\n")  # fmt: skip
    assert {2, 3} <= (substantive_lines(before, fixed, "python") or set())


def test_much_to_compare_is_not_judged() -> None:
    # review-lines: a table of repeated rows made the comparison quadratic (4.9 s a Read)
    rows = "".join(f"0x00, 0x0{n % 3},\n" for n in range(3000))
    assert substantive_lines(rows, rows.replace("0x01", "0x04"), "c") is None
    assert substantive_lines(rows, rows + "0x09,\n", "c") == {3001}  # the end alone differs


def test_a_field_of_a_class_a_lambda_default_and_a_url_in_a_template_are_code() -> None:
    # review-lines: a dataclass field added (a required __init__ parameter) was judged
    # surface, so was `+ 2` in a lambda default, and a URL changed in a JS template string
    before = "@dataclass\nclass Config:\n    url: str\n"
    field = "@dataclass\nclass Config:\n    url: str\n    ca_bundle: str\n"
    assert substantive_lines(before, field, "python") == {4}
    typed = "@dataclass\nclass Config:\n    url: 'str | None'\n"
    assert substantive_lines(before, typed, "python") == set()  # its type alone: surface
    assert substantive_lines("def f(cb=lambda x: x + 1):\n    pass\n",
                             "def f(cb=lambda x: x + 2):\n    pass\n", "python") == {1}  # fmt: skip
    assert substantive_lines("const u = `http://a.example/v1`;\n",
                             "const u = `http://a.example/v2`;\n", "c") == {1}  # fmt: skip


# review-lines 11:31: a unit's nesting is code, its indentation layout
MOVED = [c for c in PAIRS["nesting"] if c["substantive"]]
REINDENTED = [c for c in PAIRS["nesting"] if not c["substantive"]]


@pytest.mark.parametrize("case", MOVED, ids=lambda c: c["case"])
def test_code_moved_into_or_out_of_a_block_is_code(case: dict[str, Any]) -> None:
    # a Python statement's block is syntax; C code re-nested under a new condition (braced,
    # braceless, its condition over two lines) runs under it: neither is layout
    found = substantive_lines(case["before"], case["after"], case["kind"])
    assert sorted(found or ()) == case["substantive"]


@pytest.mark.parametrize("case", REINDENTED, ids=lambda c: c["case"])
def test_a_reindent_at_the_same_nesting_stays_surface(case: dict[str, Any]) -> None:
    # precision: "leading whitespace is code" would tell pure re-indent commits whose
    # subjects no low-signal rule knows (iproute2 "kill spaces before tabs")
    assert substantive_lines(case["before"], case["after"], case["kind"]) == set()


def test_a_read_tells_the_commit_that_moved_statements_out_of_a_loop(tmp_path: Path) -> None:
    # review-lines 11:31: it was judged surface (only indentation changed) and not told
    repo = tmp_path / "repo"
    hashes = build(repo, story("batch_story.json"))
    told = line_recall(str(repo), "pkg/batch.py", [(8, 13)], kind=READ,
                       state_dir=str(tmp_path / "state"))  # fmt: skip
    assert hashes["once"] in told.commits
