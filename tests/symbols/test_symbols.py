"""Symbols as cues: the definitions enclosing and starting in given lines, by language
(data/ holds one small retry module per reader)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.symbols import definitions, language, symbols_at

DATA = Path(__file__).parent / "data"


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def table(name: str) -> list[tuple[str, str, int, int]]:
    return [(d.qualname, d.kind, d.first, d.last) for d in definitions(name, read(name))]


def test_python_definitions_come_from_the_parser() -> None:
    assert table("retry.py") == [
        ("MAX_ATTEMPTS", "constant", 5, 5),
        ("Retrier", "class", 8, 20),
        ("Retrier.__init__", "function", 9, 12),
        ("Retrier.call", "function", 14, 20),
    ]


def test_the_lines_of_an_edit_give_their_enclosing_and_defined_names() -> None:
    body = symbols_at("retry.py", read("retry.py"), [(11, 11)])
    assert [d.qualname for d in body.enclosing] == ["Retrier.__init__", "Retrier"]
    assert body.defined == [] and [d.name for d in body.used] == ["MAX_ATTEMPTS"]
    assert body.names == ["Retrier", "MAX_ATTEMPTS"]  # __init__ is no cue
    top = symbols_at("retry.py", read("retry.py"), [(1, 8)])
    assert top.names == ["MAX_ATTEMPTS", "Retrier"] and top.enclosing == []


def test_a_python_file_that_does_not_parse_falls_back_to_definition_lines() -> None:
    broken = read("retry.py").replace("def call(self, fn):", "def call(self, fn:")
    names = [d.qualname for d in definitions("retry.py", broken)]
    assert names == ["MAX_ATTEMPTS", "Retrier", "Retrier.__init__", "Retrier.call"]


def test_c_definitions_are_the_lines_git_names_in_hunk_headers() -> None:
    assert table("retry.c") == [
        ("MAX_RETRIES", "macro", 2, 2),
        ("BACKOFF", "macro", 3, 4),
        ("BUDGET_MS", "constant", 6, 6),
        ("retrier", "type", 8, 10),
        ("retry_call", "function", 12, 22),
        ("main", "function", 24, 27),
    ]
    # the macro the lines call is the file's own: a cue too; sleep_ms is not defined here
    assert symbols_at("retry.c", read("retry.c"), [(17, 19)]).names == ["retry_call", "BACKOFF"]


def test_typescript_and_go_definitions() -> None:
    assert table("retry.ts") == [
        ("MAX_ATTEMPTS", "constant", 1, 1),
        ("Retrier", "class", 3, 16),
        ("Retrier.call", "function", 6, 15),
        ("sleep", "function", 18, 18),
    ]
    assert table("retry.go") == [
        ("MaxAttempts", "constant", 3, 3),
        ("Retrier", "type", 5, 7),
        ("Call", "function", 9, 17),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "\tif (fn() == 0)",
        "\treturn retry_call(NULL, NULL);",
        "result = compute(value)",
        "    x = Retrier(attempts=3)",
        "} else if (retry(x)) {",
    ],
)
def test_an_identifier_merely_used_is_never_a_definition(line: str) -> None:
    for name in ("x.c", "x.py", "x.ts", "x.go", "x.rs", "x.java", "x.rb"):
        assert definitions(name, line + "\n") == [], (name, line)


def test_files_no_reader_knows_have_no_symbols() -> None:
    assert language("README.md") is None and language("Makefile") is None
    assert language("src/a.b/c") is None and language("lib/x.TS") == "javascript"
    assert symbols_at("README.md", "# retry\n", [(1, 1)]).names == []


def test_names_a_file_keeps_to_itself_are_marked_local() -> None:
    c = {d.name: d.local for d in definitions("retry.c", read("retry.c"))}
    assert c == {"MAX_RETRIES": True, "BACKOFF": True, "BUDGET_MS": True, "retrier": False,
                 "retry_call": True, "main": False}  # fmt: skip
    header = {d.name: d.local for d in definitions("retry.h", read("retry.c"))}
    assert header["MAX_RETRIES"] is False  # a header's macros are its includers'
    py = {
        d.name: d.local
        for d in definitions(
            "x.py",
            "def _helper():\n    pass\n\n\nclass Retrier:\n    def call(self):\n        pass\n",
        )
    }
    assert py == {"_helper": True, "Retrier": False, "call": False}
