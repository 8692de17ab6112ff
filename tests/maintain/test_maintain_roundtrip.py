"""Round trip: what people wrote survives load → (edit) → render, byte for byte."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from maintain_support import DATA, HOOKS, VARIANTS, sample

from memhooks.errors import DiagnosticError
from memhooks.maintain import cues, edit, roundtrip
from memhooks.protocol.frontmatter import BOM

#: Samples whose layout ruamel's dumper normalises (`key:   v`, `~`, `True`, `[ a ]`, a
#: plain scalar over two lines, mixed indentation, whitespace-only lines): the raw dump
#: differs, the rendered file must not.
NORMALISED = {"normalizable.md"}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", HOOKS)
def test_unchanged_tree_renders_the_identical_file(name: str, variant: str) -> None:
    text = sample(name, variant)
    document, tree = roundtrip.load_hook(text, name)
    assert roundtrip.render(document, tree) == text


@pytest.mark.parametrize("name", sorted(set(HOOKS) - NORMALISED))
def test_raw_dump_with_detected_indentation_is_identical(name: str) -> None:
    # The merge in render() is a safety net, not what makes ordinary files round-trip.
    document, tree = roundtrip.load_hook(sample(name), name)
    indent = roundtrip.indentation(document.yaml, tree)
    assert roundtrip.dump(tree, indent) == document.yaml


@pytest.mark.parametrize("name", sorted(NORMALISED))
def test_normalised_layouts_still_read_the_same(name: str) -> None:
    document, tree = roundtrip.load_hook(sample(name), name)
    dumped = roundtrip.dump(tree, roundtrip.indentation(document.yaml, tree))
    assert dumped != document.yaml
    from memhooks.protocol import yamlio

    assert yamlio.to_plain(yamlio.load(dumped, name, 2)) == yamlio.to_plain(tree)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("commented.md", (2, 4, 2)),
        ("flush_dash.md", (2, 2, 0)),
        ("wide.md", (4, 8, 4)),
        ("minimal.md", roundtrip.DEFAULT_INDENT),
    ],
)
def test_indentation_is_detected_from_the_file(name: str, expected: tuple[int, int, int]) -> None:
    document, tree = roundtrip.load_hook(sample(name), name)
    assert roundtrip.indentation(document.yaml, tree) == expected


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", HOOKS)
def test_adding_a_note_only_adds_lines(name: str, variant: str) -> None:
    text = sample(name, variant)
    document, tree = roundtrip.load_hook(text, name)
    edit.upsert_query(tree, "A  brand new   note", tags=["x"])
    out = roundtrip.render(document, tree)

    removed = [line for line in difflib.ndiff(_lines(text), _lines(out)) if line.startswith("- ")]
    assert removed == []
    assert out.startswith(BOM) == text.startswith(BOM)
    assert out.endswith(document.body) and document.body == roundtrip.load_hook(out, name)[0].body
    newline = document.newline
    assert _line_endings(out) == {newline}
    assert "query: A brand new note" in out


def test_render_is_repeatable() -> None:
    document, tree = roundtrip.load_hook(sample("commented.md"), "h")
    edit.upsert_query(tree, "Why?", priority=0.5)
    assert roundtrip.render(document, tree) == roundtrip.render(document, tree)


def test_a_line_the_dumper_normalises_is_rewritten_only_where_edited() -> None:
    text = sample("normalizable.md")
    document, tree = roundtrip.load_hook(text, "h")
    edit.upsert_query(tree, "a plain scalar that continues here", roles=["ops"])
    diff = _diff(text, roundtrip.render(document, tree))
    assert diff == ["+  when:", "+    roles: [ops]"]


def test_a_value_that_would_end_the_frontmatter_is_written_safely() -> None:
    # A block scalar line `---` at column 1 would close the frontmatter early; the
    # dumper indents it, and render() checks the file splits back to the same YAML.
    document, tree = roundtrip.load_hook(sample("minimal.md"), "h")
    edit.upsert_query(tree, "x", backends={"mem0": {"note": "a\n---\nb\n"}})
    out = roundtrip.render(document, tree)
    _again, tree2 = roundtrip.load_hook(out, "h")
    assert tree2["recall_queries"][0]["backends"]["mem0"]["note"] == "a\n---\nb\n"


def test_nan_in_provider_data_does_not_block_edits() -> None:
    text = "---\nschema: memhooks/v2\nbackends:\n  x:\n    t: .nan\n---\n"
    document, tree = roundtrip.load_hook(text, "h")
    edit.upsert_query(tree, "q")
    assert roundtrip.render(document, tree) == (
        "---\nschema: memhooks/v2\nrecall_queries:\n  - query: q\nbackends:\n  x:\n    t: .nan\n---\n"
    )


def test_an_edit_that_cannot_be_read_back_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hook = tmp_path / "MEMHOOKS.md"
    hook.write_text(sample("commented.md"), encoding="utf-8")
    document, tree = roundtrip.load_hook(sample("commented.md"), "h")
    edit.upsert_query(tree, "q")
    monkeypatch.setattr(roundtrip, "_read_back", lambda *args: None)
    with pytest.raises(DiagnosticError) as caught:
        roundtrip.render(document, tree, str(hook))
    assert caught.value.diagnostic.render() == (
        "error[MH000]: the edited frontmatter would not read back as written; nothing was changed\n"
        f"  --> {hook}:1:1\n"
        "  help: fix the file so it is UTF-8 Markdown that starts with a `---` YAML frontmatter block"
    )


def test_load_refuses_a_frontmatter_that_is_not_a_mapping() -> None:
    with pytest.raises(DiagnosticError) as caught:
        roundtrip.load_hook("---\n- a\n---\n", "dir/MEMHOOKS.md")
    assert caught.value.diagnostic.render() == (
        "error[MH000]: YAML frontmatter must be a mapping of fields\n"
        "  --> dir/MEMHOOKS.md:2:1\n"
        "  help: fix the file so it is UTF-8 Markdown that starts with a `---` YAML frontmatter block"
    )


@pytest.mark.parametrize(("project", "golden"), [("shop", "init.md"), (None, "local.md")])
def test_new_hook_text(project: str | None, golden: str) -> None:
    text = roundtrip.new_hook_text(project)
    assert text == (DATA / "new" / golden).read_text(encoding="utf-8")
    document, tree = roundtrip.load_hook(text, "h")
    assert dict(tree) == {"schema": "memhooks/v2", "inherits": True}
    assert roundtrip.render(document, tree) == text


def test_a_new_local_hook_grows_a_cue_without_a_body() -> None:
    document, tree = roundtrip.load_hook(roundtrip.new_hook_text(), "h")
    cues.upsert_auto_cue(tree, "src/api", ["src/api/a.py"], max_paths=12)
    assert roundtrip.render(document, tree) == (DATA / "new" / "local_with_cue.md").read_text(
        encoding="utf-8"
    )


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _line_endings(text: str) -> set[str]:
    return set(re.findall(r"\r\n|\r|\n", text))


def _diff(before: str, after: str) -> list[str]:
    lines = list(difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0))[2:]
    return [line.rstrip("\n") for line in lines if not line.startswith("@@")]
