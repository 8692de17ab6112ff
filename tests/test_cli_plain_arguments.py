"""``memhooks validate`` and ``explain`` read a plain command line without argparse
(``memhooks.cli._plain_arguments``, issue 14: building the parser was ~15 % of
``explain --format json``); wherever that reading answers, it is exactly argparse's, and
everything else is left to argparse (help, abbreviations, errors)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks import cli, parser

TOKENS = [
    "--all", "--strict", "--format", "--format=json", "--format=sarif", "--format=", "json",
    "human", "sarif", "text", "a", "b c", "", "-", "-1", "--", "--al", "--form", "-h",
    "--help", "--role", "r", "--file", "--budget", "10", "--all=1", "MEMHOOKS.md",
]  # fmt: skip


def _argparse(argv: list[str]) -> dict[str, object] | None:
    try:
        return vars(parser.build_parser(argv[0]).parse_args(argv))
    except SystemExit:
        return None


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["validate", "explain"]), st.lists(st.sampled_from(TOKENS), max_size=6))
def test_a_plain_reading_is_argparse_s_reading(command: str, rest: list[str]) -> None:
    argv = [command, *rest]
    plain = cli._plain_arguments(argv)
    if plain is not None:
        assert vars(plain) == _argparse(argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["validate"],
        ["validate", "--all", "src", "--format", "sarif"],
        ["validate", "--strict", "--format=json", "x"],
        ["explain", "a", "b", "--format", "json"],
        ["explain", "--format", "human", "a"],
    ],
)
def test_common_command_lines_take_the_plain_reading(argv: list[str]) -> None:
    assert cli._plain_arguments(argv) is not None
    assert vars(cli._plain_arguments(argv)) == _argparse(argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "--help"],
        ["validate", "--al"],  # an abbreviation: argparse's to accept
        ["validate", "a", "b"],  # argparse's error, exit 2
        ["explain", "--format", "sarif"],
        ["explain", "a", "--format", "json", "b"],  # argparse refuses split positionals
        ["explain", "--role", "r"],
        ["validate", "--", "-x"],
    ],
)
def test_everything_else_is_left_to_argparse(argv: list[str]) -> None:
    assert cli._plain_arguments(argv) is None


def test_validate_and_explain_do_not_import_argparse(tmp_path) -> None:
    """Nor the parser's table (memhooks.parser): a plain command line needs neither."""
    (tmp_path / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    code = (
        "import sys; from memhooks.cli import main\n"
        "for argv in (['validate', '--all', sys.argv[1]], ['explain', sys.argv[1], '--format', 'json']):\n"
        "    assert main(argv) == 0\n"
        "assert 'argparse' not in sys.modules, 'argparse imported'\n"
        "assert 'memhooks.parser' not in sys.modules, 'memhooks.parser imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_a_double_dash_before_the_command_only_ends_the_options() -> None:
    # newcomer30: `memhooks -- validate` was "invalid choice: '--'" with validate's help
    assert parser.parse(["--", "validate", "--all"]) == parser.parse(["validate", "--all"])
    assert parser.parse(["--", "why", "--", "-a.py"]).target == "-a.py"
    with pytest.raises(parser.CommandLineError, match="required: COMMAND"):
        parser.parse(["--"])
    with pytest.raises(parser.CommandLineError, match="invalid choice: '--'"):
        parser.parse(["--", "--version"])  # after --, no option: not the version (newcomer31)
