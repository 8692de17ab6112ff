"""``memhooks.protocol.frontmatter``: the split keeps every byte, so maintenance can
rewrite the YAML and leave BOM, fences, line endings and body exactly as written."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks.errors import DiagnosticError
from memhooks.protocol.frontmatter import BOM, split, to_lf

EOLS = st.sampled_from(["\n", "\r\n", "\r"])
LINE_TEXT = st.text(
    st.characters(exclude_characters="\r\n", exclude_categories=("Cs",)), max_size=12
)


@st.composite
def hook_texts(draw: st.DrawFn) -> str:
    """Text with a frontmatter: optional BOM, a padded opening fence, YAML-ish lines (some
    indented `---`), a closing fence with trailing blanks, a body that may hold `---`."""
    eol = draw(EOLS)
    lines = [draw(st.sampled_from(["---", "  ---", "--- \t"]))]
    lines += [
        s
        for s in draw(st.lists(LINE_TEXT | st.just("  ---"), max_size=5))
        if not s.startswith("---")
    ]
    lines.append(draw(st.sampled_from(["---", "---  ", "---\t"])))
    lines += draw(st.lists(LINE_TEXT | st.just("---"), max_size=4))
    text = eol.join(lines) + draw(st.sampled_from(["", eol]))
    return (BOM if draw(st.booleans()) else "") + text


@settings(derandomize=True, database=None)
@given(hook_texts())
def test_split_keeps_every_character(text: str) -> None:
    document = split(text, "MEMHOOKS.md")
    assert document.text == text
    assert document.yaml == to_lf(document.yaml_raw)
    assert "\r" not in document.yaml


@settings(derandomize=True, database=None)
@given(st.text(st.sampled_from(["-", " ", "\t", "\r", "\n", "a", ":", BOM]), max_size=30))
def test_any_text_either_splits_losslessly_or_is_mh000(text: str) -> None:
    try:
        document = split(text, "MEMHOOKS.md")
    except DiagnosticError as exc:
        assert [d.code for d in exc.diagnostics] == ["MH000"]
    else:
        assert document.text == text


@pytest.mark.parametrize(
    ("text", "newline", "yaml", "body"),
    [
        ("---\nschema: x\n---\nbody\n", "\n", "schema: x\n", "body\n"),
        ("---\r\nschema: x\r\n---\r\nbody\r\n", "\r\n", "schema: x\n", "body\r\n"),
        ("---\rschema: x\r---\rbody\r", "\r", "schema: x\n", "body\r"),
        (BOM + "---\nschema: x\n---", "\n", "schema: x\n", ""),
        ("---\nscope: |\n  ---\n---\n---\n", "\n", "scope: |\n  ---\n", "---\n"),
    ],
)
def test_split_parts(text: str, newline: str, yaml: str, body: str) -> None:
    document = split(text, "MEMHOOKS.md")
    assert (document.newline, document.yaml, document.body, document.yaml_line) == (
        newline,
        yaml,
        body,
        2,
    )
    assert document.bom == text.startswith(BOM)


def test_with_yaml_keeps_bom_fences_body_and_line_ending_style() -> None:
    document = split(BOM + "---  \r\nschema: x\r\n---\r\n\r\nBody\r\n", "MEMHOOKS.md")
    assert (
        document.with_yaml("schema: y\ntags: [a]\n")
        == BOM + "---  \r\nschema: y\r\ntags: [a]\r\n---\r\n\r\nBody\r\n"
    )


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("", "MEMHOOKS.md must begin with YAML frontmatter (`---`)", 1),
        ("# Title\n---\n---\n", "MEMHOOKS.md must begin with YAML frontmatter (`---`)", 1),
        ("---\nschema: x\n  ---\n", "unterminated YAML frontmatter; expected closing `---`", 3),
        ("---\r\nschema: x\r\n", "unterminated YAML frontmatter; expected closing `---`", 2),
    ],
)
def test_split_failures_are_mh000_with_a_line(text: str, message: str, line: int) -> None:
    with pytest.raises(DiagnosticError) as caught:
        split(text, "MEMHOOKS.md")
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.message, diagnostic.line, diagnostic.column) == (
        "MH000",
        message,
        line,
        1,
    )
