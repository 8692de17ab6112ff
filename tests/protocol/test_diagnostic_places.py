"""Diagnostics point at the place to fix: a YAML syntax error at the start of the broken
construct (not at the closing `---`), a bad command-line value at its flag, a folder or
a missing path without an invented line and column."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.cli import main
from memhooks.protocol import hookfile

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"
#: line 4 opens a quote at column 12 that is never closed
UNTERMINATED = '---\nschema: memhooks/v2\nrecall_queries:\n  - query: "unterminated\n    priority: 0.5\n---\n'
PROBLEM = "found unexpected end of stream (a quoted scalar that starts here is not closed)"


def _project(tmp_path: Path, docs_hook: str = UNTERMINATED) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK)
    (root / "docs").mkdir()
    (root / "docs" / "MEMHOOKS.md").write_text(docs_hook)
    return root


@pytest.mark.parametrize(
    ("yaml", "line", "column", "message"),
    [
        # the quote opened on line 4: the end of the text (line 6, the `---`) says nothing
        (UNTERMINATED, 4, 12, PROBLEM),
        # a flow sequence opened on line 3 and never closed
        (
            "---\nschema: memhooks/v2\nrecall_queries: [a, b\n---\n",
            3,
            17,
            "expected ',' or ']', but got '<stream end>' (a flow sequence that starts here is not closed)",
        ),
        # an unclosed [ or { noticed only at a later key: the bracket, not that key
        (
            '---\nschema: memhooks/v2\nrecall_queries: [\n  "one",\n  "two"\ntags: [x]\n---\n',
            3,
            17,
            "expected ',' or ']', but got '<scalar>' (a flow sequence that starts here)",
        ),
        (
            "---\nschema: memhooks/v2\nentities: {name: foo\nrecall_queries:\n  - x\n---\n",
            3,
            11,
            "expected ',' or '}', but got ':' (a flow mapping that starts here)",
        ),
        # a single-quoted scalar: the same rule
        ("---\nschema: memhooks/v2\ntags: 'abc\n---\n", 3, 7, PROBLEM),
        # a mistake in the middle stays at the mistake (not at the mapping it is in)
        (
            "---\nschema: memhooks/v2\nrecall_queries:\n  - a\n - b\n---\n",
            5,
            2,
            "expected <block end>, but found '<block sequence start>'",
        ),
        # a bad escape is placed at the escaped character, on the scalar's own line
        ('---\nschema: memhooks/v2\ntags: "ab\\qc"\n---\n', 3, 11, "found unknown escape character 'q'"),
    ],
)
def test_both_readers_place_a_syntax_error_where_the_broken_construct_starts(
    yaml: str, line: int, column: int, message: str
) -> None:
    for round_trip in (False, True):  # libyaml first (handing errors on), ruamel for edits
        [found] = hookfile.parse_text(yaml, "h.md", round_trip=round_trip).diagnostics
        assert (found.code, found.line, found.column, found.message) == (
            "MH000",
            line,
            column,
            f"invalid YAML frontmatter: {message}",
        )


def test_validate_explain_and_note_report_the_opening_quote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    hook = root / "docs" / "MEMHOOKS.md"
    expected = (
        f"error[MH000]: invalid YAML frontmatter: {PROBLEM}\n"
        f"  --> {hook}:4:12\n"
        "  help: fix the YAML at this position (YAML 1.2; no aliases, no tags, no duplicate keys)\n"
    )
    assert main(["validate", str(hook)]) == 1
    assert capsys.readouterr().out.startswith(expected)
    assert main(["explain", str(root / "docs")]) == 1
    assert capsys.readouterr().err == expected
    assert main(["note", "--cwd", str(root / "docs"), "--query", "q"]) == 1
    assert capsys.readouterr().err == expected
    assert hook.read_text() == UNTERMINATED


def test_the_hook_fails_open_naming_the_construct(tmp_path: Path) -> None:
    from memhooks.store import MemoryStore, project_id

    root = _project(tmp_path)
    store = MemoryStore(str(tmp_path / "store.sqlite3"))
    try:
        store.add(project_id(str(root.resolve())), "docs are built with mkdocs", scope="docs")
    finally:
        store.close()
    payload = {"session_id": "s", "hook_event_name": "UserPromptSubmit", "cwd": str(root / "docs"),
               "prompt": "how are the docs built?"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=json.dumps(payload),
        env={**os.environ, "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3")},
        capture_output=True,
        text=True,
        timeout=60, check=False,
    )
    assert done.returncode == 0
    hook = root / "docs" / "MEMHOOKS.md"
    assert f"MH000 skipped an invalid hook: invalid YAML frontmatter: {PROBLEM} ({hook}:4:12)" in done.stderr
    assert done.stderr.count("\n") <= 1


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["--query", ""],
            ("error[MH003]: recall query must not be empty (--query ''); nothing was written\n"
            "  --> --query\n"
            "  help: give --query the recall query's text\n"),
        ),
        (
            ["--query", "q", "--role", " "],
            ("error[MH006]: role names must not be blank (--role ' '); nothing was written\n"
            "  --> --role\n"
            "  help: give --role a role name, or leave it out\n"),
        ),
    ],
)
def test_note_names_the_flag_at_fault_not_a_place_in_the_hook(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, ROOT_HOOK)
    assert main(["note", "--cwd", str(root / "docs"), *argv]) == 1
    assert capsys.readouterr().err == expected
    assert main(["note", "--cwd", str(root / "docs"), *argv, "--format", "json"]) == 1
    [found] = json.loads(capsys.readouterr().err)
    assert found["path"] == argv[-2] and "line" not in found
    assert (root / "docs" / "MEMHOOKS.md").read_text() == ROOT_HOOK


def test_a_missing_path_or_a_folder_has_no_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import jsonschema

    root = _project(tmp_path, ROOT_HOOK)
    monkeypatch.chdir(root)
    assert main(["validate", "nonexist"]) == 1
    assert capsys.readouterr().out.splitlines()[:2] == [
        "error[MH024]: the target does not exist",
        "  --> nonexist",
    ]
    (tmp_path / "elsewhere").mkdir()
    (root / "vendor").symlink_to(tmp_path / "elsewhere")  # a folder link out of the project
    assert main(["explain", "vendor"]) == 1
    assert "  --> vendor\n" in capsys.readouterr().err
    # a file without a known position keeps 1:1 (the reference's default)
    (root / "docs" / "MEMHOOKS.md").write_text("no frontmatter\n")
    assert main(["validate", "docs/MEMHOOKS.md"]) == 1
    assert f"  --> {root / 'docs' / 'MEMHOOKS.md'}:1:1\n" in capsys.readouterr().out
    # machine formats stay valid: JSON omits line and column, SARIF keeps its 1/1 region
    assert main(["validate", "nonexist", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    schema = Path(__file__).parents[2] / "src" / "memhooks" / "schemas" / "diagnostics.schema.json"
    jsonschema.validate(found, json.loads(schema.read_text()))
    assert "line" not in found[0]
    assert main(["validate", "nonexist", "--format", "sarif"]) == 1
    [result] = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 1}


def test_a_symlink_out_of_the_project_is_named_alone_and_never_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # cli20: `validate --all` with a hook symlinked out of the root, and `validate` of a
    # hook reached through a folder symlinked out of it: MH029 names the path as given,
    # with no line and column (it said `linked/MEMHOOKS.md:1:1` in human form, a place in
    # a file outside the project that JSON did not give), and nothing of the file it
    # leads to is read — its syntax error, its cue — nor any hook behind the folder link
    root = _project(tmp_path, ROOT_HOOK)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "MEMHOOKS.md").write_text(UNTERMINATED.replace("unterminated", "OUTSIDE-CUE"))
    (root / "sub").mkdir()
    (root / "sub" / "MEMHOOKS.md").symlink_to(outside / "MEMHOOKS.md")
    (root / "linked").symlink_to(outside)
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["validate", "--all"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == [
        "error[MH029]: hook and lock paths must be regular files, not symlinks or special files",
        f"  --> {root / 'sub' / 'MEMHOOKS.md'}",
    ]
    assert out.endswith("1 error(s), 0 warning(s)\n"), out  # nothing behind `linked`
    assert "OUTSIDE-CUE" not in out and "MH000" not in out
    assert main(["validate", "linked/MEMHOOKS.md"]) == 1
    human = capsys.readouterr().out
    assert human.splitlines()[1] == "  --> linked/MEMHOOKS.md", human
    assert main(["validate", "linked/MEMHOOKS.md", "--format", "json"]) == 1
    [found] = json.loads(capsys.readouterr().out)
    assert (found["code"], found["path"]) == ("MH029", "linked/MEMHOOKS.md")
    assert "line" not in found and "OUTSIDE-CUE" not in json.dumps(found)
