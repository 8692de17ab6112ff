"""The libyaml reader gives exactly what the ruamel reader gives, or hands the text back.

Reading hooks for ``validate`` and ``resolve`` goes through libyaml (issue 14: ruamel was
94 % of ``validate --all``); a hook's data and every diagnostic — codes, messages, lines,
columns — must not depend on which reader read it. ``round_trip=True`` forces ruamel, so
each case compares the two.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from test_parse_robustness import FRAGMENTS

from memhooks.protocol import yamlfast
from memhooks.protocol.frontmatter import split
from memhooks.protocol.hookfile import parse_text

REPO = Path(__file__).resolve().parents[2]


def readings(text: str) -> tuple[str, str]:
    """(fast, ruamel) readings of hook text: data and diagnostics as JSON values."""

    def reading(round_trip: bool) -> str:
        hook = parse_text(text, "/p/MEMHOOKS.md", round_trip=round_trip)
        # as JSON text: NaN is not equal to itself, and key order counts
        return json.dumps([hook.data, [d.to_json() for d in hook.diagnostics]])

    return reading(False), reading(True)


def fast_reads(text: str) -> bool:
    """True when libyaml read the frontmatter itself (no hand-back to ruamel)."""
    try:
        yamlfast.load(split(text, "MEMHOOKS.md").yaml)
    except yamlfast.Unsupported:
        return False
    return True


def corpus() -> list[tuple[str, str]]:
    """Every hook text the conformance cases, the maintenance fixtures and the example
    project hold (the same hooks the rest of the suite checks behaviour on)."""
    out = []
    for cases in sorted((REPO / "tests" / "conformance" / "cases").glob("*.yaml")):
        for case in YAML(typ="safe", pure=True).load(cases.read_text(encoding="utf-8"))["cases"]:
            for rel, entry in (case.get("tree") or {}).items():
                text = entry if isinstance(entry, str) else entry.get("text")
                if rel.endswith(".md") and isinstance(text, str) and text.startswith("---"):
                    out.append((f"{cases.stem}/{case['name']}:{rel}", text))
    for path in sorted([*(REPO / "tests").rglob("*.md"), *(REPO / "examples").rglob("*.md")]):
        text = path.read_text(encoding="utf-8", errors="replace")
        if text.startswith("---"):
            out.append((str(path.relative_to(REPO)), text))
    return out


CORPUS = corpus()

#: Corners of YAML where two parsers could disagree on a value or a position.
TRICKY = [
    "a: 1\nb: -0\nc: +12\nd: 0o17\ne: 0x1F\nf: 017\ng: 0b1\nh: 1_000\n",
    "a: 1e3\nb: .5\nc: 1.\nd: -2.5E-1\ne: .inf\nf: -.Inf\ng: .NaN\nh: +.INF\ni: 1E3\n",
    "a: ~\nb: null\nc: Null\nd:\ne: ''\nf: NULL\ng: nUll\n",
    "a: true\nb: True\nc: TRUE\nd: tRue\ne: yes\nf: on\ng: n\n",
    "1: a\n2.5: b\ntrue: c\nnull: d\n0x1F: e\n1e3: f\n.inf: g\n",
    "a: |\n  line one\n   line two\n\nb: >-\n  folded\n  text\n\n  para\nc: |+\n  keep\n\n",
    "a: |2\n   indented\nb: >\n\n  after blank\n",
    "a: 'it''s'\nb: \"tab\\there \\u00e9 \\x41 \\/ \\N\"\nc: \"multi\n  line\"\n",
    "a: plain\n  continued\n  lines\nb: x # comment\n# own line\nc: [1, 2, {d: e}]\n",
    "list:\n- a\n- b:\n    c: 1\n- - nested\n  - seq\n- {x: 1, y: [2]}\n",
    "  indented: root\n  other: 1\n",
    "a:\n  - name: x\n    type: T\n  -   name: y\n      salience: 2\n",
    "<<: {a: 1}\nb: 2\n",
    "é: ünïcödé\nkey: 日本語 text\n  more: no\n",
    "a:\tb\n",
    "a: b:c\nd: 'e: f'\ng: \"h #i\"\n",
    "[a, b]\n",
    "just a scalar\n",
    "? simple\n: value\n",
    "a: {b: [c, {d: [e, {f: g}]}]}\n",
    "a: x\n...\n",
    "recall_queries:\n  - query: q\n    priority: 2\n  - ''\n  - 7\n  - [a]\nentities: [x, x, {name: ''}]\n",
    "schema: memhooks/v2\nwhen: 1\nrecall_queries:\n- query: q\n  when: {roles: [' '], other: .nan}\n",
    "schema: memhooks/v2\nrecall_queries: [{query: '\U0001f600\U0001f600é日本', priority: 2}]\n",
    "schema: memhooks/v2\n\U0001f600: {x: 1}\nrecall_queries:\n  - {query: q, priority: 7, é: .nan}\n",
    "schema: memhooks/v2\ninherits: yes\nentities: [a, a, {name: b, salience: 9}]\n",
    "inherits: \n\n",  # an empty value: ruamel places it at the next token
    "a: |#1\n",  # block scalar headers libyaml is lenient about
    "k: >-\n  \n    fold\n",
]


@pytest.mark.parametrize("name,text", CORPUS, ids=[name for name, _ in CORPUS])
def test_the_suites_hooks_read_the_same_either_way(name: str, text: str) -> None:
    fast, ruamel = readings(text)
    assert fast == ruamel


@pytest.mark.parametrize("yaml_text", TRICKY)
def test_tricky_yaml_reads_the_same_either_way(yaml_text: str) -> None:
    fast, ruamel = readings(f"---\n{yaml_text}---\nbody\n")
    assert fast == ruamel


def test_libyaml_reads_ordinary_hooks_itself() -> None:
    """The speed-up is real only if the hand-back is rare: the example project's hooks and
    most of the suite's valid hooks never reach ruamel."""
    assert yamlfast.available()
    examples = [text for name, text in CORPUS if name.startswith("examples/")]
    assert examples and all(fast_reads(text) for text in examples)
    valid = [text for _, text in CORPUS if parse_text(text, "MEMHOOKS.md").valid]
    assert sum(map(fast_reads, valid)) >= 0.9 * len(valid)


@pytest.mark.parametrize(
    "yaml_text",
    [
        "a: &x 1\nb: *x\n",  # alias
        "a: &x 1\n",  # anchor alone
        "a: !!str 12\n",  # tag, even the accepted one
        "a: !custom x\n",
        "a: 1\na: 2\n",  # duplicate key
        "1: a\n01: b\n",  # equal-valued keys
        "? [a, b]\n: c\n",  # non-scalar key
        "a: [" * 70 + "]" * 70 + "\n",  # nesting
        "a: b\u2028c\n",  # a line break only in YAML 1.1
        "%YAML 1.2\n---\na: 1\n",
        "a: [unclosed\n",
    ],
)
def test_what_libyaml_hands_back_is_read_and_worded_by_ruamel(yaml_text: str) -> None:
    text = f"---\n{yaml_text}---\n"
    assert not fast_reads(text)
    fast, ruamel = readings(text)
    assert fast == ruamel


#: Indentation and structure on top of the robustness fragments, so that random texts
#: are often valid YAML and positions get compared, not only the hand-back.
LAYOUT = ("\n  ", "\n    ", "\n- ", "\n  - ", "key: ", "k2: ", "v", "'q'", "\"d\"", " # c")


@settings(derandomize=True, database=None, deadline=None, max_examples=600)
@given(st.lists(st.sampled_from(FRAGMENTS + LAYOUT), max_size=24))
def test_any_text_reads_the_same_either_way(fragments: list[str]) -> None:
    fast, ruamel = readings("---\n" + "".join(fragments) + "\n---\n")
    assert fast == ruamel
