"""Regression tests for engine bugs found while writing the conformance suite.

Each test names what was wrong; the golden cases under ``tests/conformance`` cover the
same rules through the CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.protocol.hookfile import parse_text


def rendered(text: str) -> list[str]:
    return [d.render() for d in parse_text(text, "MEMHOOKS.md").diagnostics]


def test_non_list_exclude_with_queries_is_a_diagnostic_not_a_crash() -> None:
    # Was: TypeError ('int' object is not iterable) from the recall/exclude conflict check.
    assert rendered("---\nschema: memhooks/v2\nrecall_queries: [a]\nexclude: 5\n---\n") == [
        (
            "error[MH000]: `exclude` must be a list\n"
            "  --> MEMHOOKS.md:4:10\n"
            "  help: give the field the type the file reference documents (docs/format.md)"
        )
    ]


def test_guidance_lines_are_joined_with_lf_whatever_the_line_endings() -> None:
    # Was: a CRLF hook handed "First\r\nsecond" to adapters and a lone-CR hook "First\rsecond"
    # (one overwritten line on a terminal); the reference joins body lines with LF.
    for newline in ("\n", "\r\n", "\r"):
        text = newline.join(["---", "schema: memhooks/v2", "---", "", "First", "second", ""])
        assert parse_text(text, "MEMHOOKS.md").guidance == "First\nsecond"


def test_explicit_str_tag_makes_a_plain_string() -> None:
    # Was: `!!str` passed the tag check but became a TaggedScalar, so
    # `schema: !!str memhooks/v2` was "unsupported schema `memhooks/v2`" and
    # `scope: !!str 12` "`scope` must be a string".
    hook = parse_text(
        "---\nschema: !!str memhooks/v2\nscope: !!str 12\ntags: [!!str 017]\n---\n", "MEMHOOKS.md"
    )
    assert hook.diagnostics == []
    assert hook.data == {"schema": "memhooks/v2", "scope": "12", "tags": ["017"]}


def test_keys_with_equal_values_are_duplicates_not_silent_overwrites() -> None:
    # Was: only the spelling was compared, so `1:` and `01:` (one YAML 1.2 integer), or
    # `1:` and `true:` (one Python dict key), passed and the constructor kept one value.
    for pair in ("1: a\n    01: b", "1: a\n    true: b", "1: a\n    '1': b", "~: a\n    'null': b"):
        text = f"---\nschema: memhooks/v2\nbackends:\n  probe:\n    {pair}\n---\n"
        second = pair.split("\n")[1].strip().split(":")[0]
        assert rendered(text) == [
            (
                f"error[MH000]: invalid YAML frontmatter: duplicate key `{second.strip(chr(39))}` on line 6, first defined on line 5\n"
                "  --> MEMHOOKS.md:6:5\n"
                "  help: fix the YAML at this position (YAML 1.2; no aliases, no tags, no duplicate keys)"
            )
        ]


def test_distinct_keys_survive_into_the_plan_data() -> None:
    hook = parse_text(
        "---\nschema: memhooks/v2\nbackends:\n  p: {1: a, 2: b, x: c, 1.5: d, null: e}\n---\n",
        "MEMHOOKS.md",
    )
    assert hook.diagnostics == []
    assert hook.data is not None
    assert hook.data["backends"] == {"p": {"1": "a", "2": "b", "x": "c", "1.5": "d", "null": "e"}}


def test_an_oversized_hook_is_refused_from_its_size_without_reading_it(
    tmp_path, monkeypatch
) -> None:
    # Was: the size guard built a zero-filled bytes object as large as the file just to
    # raise the diagnostic (a 1 GiB sparse hook cost 1 GiB of memory and seconds).
    import os

    from memhooks.protocol import hookfile

    hook = tmp_path / "MEMHOOKS.md"
    hook.write_bytes(b"---\nschema: memhooks/v2\n---\n")
    os.truncate(hook, 1 << 40)  # 1 TiB, sparse
    monkeypatch.setattr(
        os, "read", lambda *a: (_ for _ in ()).throw(AssertionError("read an oversized hook"))
    )
    assert [d.render() for d in hookfile.load(str(hook)).diagnostics] == [
        (
            "error[MH036]: hook is 1099511627776 bytes; the limit is 262144 bytes\n"
            f"  --> {hook}:1:1\n"
            "  help: keep hooks small: they hold retrieval cues, not memories"
        )
    ]


def test_a_non_json_provider_key_is_reported_once_at_the_key() -> None:
    # Was: reported twice (once at the key, once more at 2:1 with the wrong help), and a
    # mapping used as a key was reported only at 2:1.
    for key in ("[a, b]", "{a: 1}"):
        text = f"---\nschema: memhooks/v2\nbackends:\n  probe:\n    ? {key}\n    : v\n---\n"
        assert rendered(text) == [
            (
                "error[MH000]: routing metadata cannot be represented as JSON: a mapping key is a sequence or mapping\n"
                "  --> MEMHOOKS.md:5:7\n"
                "  help: give the field the type the file reference documents (docs/format.md)"
            )
        ]


def test_validate_all_keeps_git_ignore_rules_when_memhooks_root_is_set(
    tmp_path, monkeypatch
) -> None:
    # Was: with MEMHOOKS_ROOT naming the repository, the root's "reason" was not "git",
    # so --all walked the tree and reported gitignored hooks (vendored code, build output).
    import subprocess

    from memhooks.validation import collect

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("vendor/\n")
    (tmp_path / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "MEMHOOKS.md").write_text("---\nschema: memhooks/v1\n---\n")
    monkeypatch.setenv("MEMHOOKS_ROOT", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert collect(".", all_hooks=True) == ([], str(tmp_path.resolve()))


def test_a_reused_anchor_name_is_not_a_warning() -> None:
    # Was: ruamel's ReusedAnchorWarning went to stderr from library code, and became an
    # uncaught exception under `-W error` (pytest here runs with warnings as errors).
    hook = parse_text(
        "---\nschema: memhooks/v2\ntags: &a [x]\nexclude: &a [y]\n---\n", "MEMHOOKS.md"
    )
    assert hook.diagnostics == []
    assert hook.data == {"schema": "memhooks/v2", "tags": ["x"], "exclude": ["y"]}


def test_non_finite_numbers_in_unknown_fields_are_caught_by_validation() -> None:
    # Was: only provider data was checked, so `x_future: .nan` on a query (or an unknown
    # condition or cue field) passed validate, then `explain --format json` failed with an
    # MH000 whose path was the project root and had no line.
    text = (
        "---\nschema: memhooks/v2\nrecall_queries:\n  - query: q\n    x_future: .nan\n"
        "    when: {roles: [r], branch: [.inf]}\nentities:\n  - name: e\n    extra: {v: -.inf}\n---\n"
    )
    errors = [d.render() for d in parse_text(text, "MEMHOOKS.md").diagnostics if d.is_error]
    help_text = "  help: give the field the type the file reference documents (docs/format.md)"
    assert errors == [
        "error[MH000]: routing metadata cannot be represented as JSON: `recall_queries[0].x_future` is nan\n"
        "  --> MEMHOOKS.md:5:15\n" + help_text,
        "error[MH000]: routing metadata cannot be represented as JSON: `recall_queries[0].when.branch[0]` is inf\n"
        "  --> MEMHOOKS.md:6:33\n" + help_text,
        "error[MH000]: routing metadata cannot be represented as JSON: `entities[0].extra.v` is -inf\n"
        "  --> MEMHOOKS.md:9:16\n" + help_text,
    ]


def test_a_nested_complex_key_is_a_diagnostic_not_a_crash() -> None:
    # Was: TypeError (unhashable type: 'CommentedSeq') out of ruamel's constructor, i.e.
    # a traceback from `memhooks validate`.
    for key in ("[[a]]", "{a: [b]}", "[{a: 1}]"):
        text = f"---\nschema: memhooks/v2\nbackends:\n  probe:\n    ? {key}\n    : 1\n---\n"
        assert rendered(text) == [
            (
                "error[MH000]: invalid YAML frontmatter: a mapping key that holds a sequence or mapping cannot be represented as JSON\n"
                "  --> MEMHOOKS.md:5:7\n"
                "  help: fix the YAML at this position (YAML 1.2; no aliases, no tags, no duplicate keys)"
            )
        ]


def test_disk_cache_from_before_the_parser_fixes_is_not_reused(tmp_path, monkeypatch) -> None:
    # Was: FORMAT stayed 1, so a hook parsed by the old code (guidance "First\r\nsecond")
    # kept being served from ~/.cache after the fix until the file itself changed.
    import json
    import os

    from memhooks import filestate
    from memhooks.protocol import cache
    from memhooks.protocol.resolve import resolve

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = tmp_path.resolve() / "p"
    (project / ".git").mkdir(parents=True)
    hook = project / "MEMHOOKS.md"
    hook.write_bytes(b"---\r\nschema: memhooks/v2\r\n---\r\nFirst\r\nsecond\r\n")
    os.utime(hook, ns=(10**18, 10**18))  # well outside the racy window
    st = os.stat(hook)
    stale = {
        "format": 1,
        "entries": {str(hook): [*filestate.key(st), {"schema": "memhooks/v2"}, "First\r\nsecond"]},
    }
    store = cache.for_root(str(project))
    assert store.file is not None
    os.makedirs(os.path.dirname(store.file))
    with open(store.file, "w", encoding="utf-8") as fp:
        json.dump(stale, fp)
    cache.clear_memory()
    assert resolve(str(project)).guidance == [{"source": str(hook), "value": "First\nsecond"}]
    cache.clear_memory()


def test_an_active_file_in_a_submodule_does_not_cross_the_git_boundary(tmp_path) -> None:
    # Was: --file sub/lib/a.py (sub has a `.git` file) resolved sub/lib from the outer root,
    # merging the outer project's hooks with the submodule's; `explain sub/lib` gives the
    # submodule alone. Such files are now ignored, as the reference adapter drops plans
    # whose root differs.
    from memhooks.protocol.resolve import resolve_scopes

    root = tmp_path.resolve()
    (root / ".git").mkdir()
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\nrecall_queries: [outer]\n---\n")
    (root / "sub" / "lib").mkdir(parents=True)
    (root / "sub" / ".git").write_text("gitdir: ../.git/modules/sub\n")
    (root / "sub" / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nrecall_queries: [inner]\n---\n"
    )
    (root / "sub" / "lib" / "a.py").write_text("pass\n")
    (root / "lib").mkdir()
    (root / "lib" / "b.py").write_text("pass\n")
    scopes = resolve_scopes([str(root)], files=["sub/lib/a.py", "lib/b.py"], cwd=str(root))
    assert [p.target for p in scopes.plans] == [str(root / "lib")]
    assert [q["query"] for q in scopes.plans[0].effective_queries] == ["outer"]


def test_an_active_file_below_a_hookless_base_outside_git_still_counts(tmp_path) -> None:
    # Outside git the file's own root is its highest hooked folder, below a hookless base
    # root; the chain is the same either way, so the file is kept.
    from memhooks.protocol.resolve import resolve_scopes

    base = tmp_path.resolve()
    (base / "a").mkdir()
    (base / "a" / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nrecall_queries: [local]\n---\n"
    )
    (base / "a" / "f.py").write_text("pass\n")
    scopes = resolve_scopes([str(base)], files=["a/f.py"], cwd=str(base))
    assert [q["query"] for q in scopes.plans[0].effective_queries] == ["local"]


def test_null_priority_and_salience_mean_absent() -> None:
    # Was: MH025/MH026/MH027 for `priority: null` / `salience: null`, while an explicit null
    # is accepted as "absent" for every other optional field (type, kind, when, tags, ...)
    # and by the reference (Option fields). Tools writing JSON often emit such nulls.
    text = (
        "---\nschema: memhooks/v2\nrecall_queries: [{query: q, priority: null}]\n"
        "entities: [{name: e, salience: null}]\nresources: [{name: r, salience: ~}]\n---\n"
    )
    hook = parse_text(text, "MEMHOOKS.md")
    assert hook.diagnostics == []
    from memhooks.protocol.merge import resolve_chain
    from memhooks.protocol.plan import build_plan

    assert hook.data is not None
    plan = build_plan(resolve_chain([("MEMHOOKS.md", hook.data, "")]), "/", "/", [])
    assert plan["effective_queries"][0]["priority"] is None


def test_blank_role_is_refused_for_a_single_target_too(tmp_path: Path) -> None:
    import memhooks
    from memhooks.errors import UsageError

    (tmp_path / ".git").mkdir()
    with pytest.raises(UsageError, match="roles must be non-blank strings"):
        memhooks.resolve(tmp_path, roles=["reviewer", " "])


def test_disk_cache_from_another_release_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json
    import os
    import time

    from memhooks.protocol import cache
    from memhooks.protocol.resolve import resolve

    (tmp_path / ".git").mkdir()
    hook = tmp_path / "MEMHOOKS.md"
    hook.write_text("---\nschema: memhooks/v2\nscope: real\n---\n", encoding="utf-8")
    past = time.time() - 60
    os.utime(hook, (past, past))
    cache.clear_memory()
    assert resolve(tmp_path).data["scope"] == "real"
    store = cache.for_root(str(tmp_path))
    assert store.file is not None
    blob = json.loads(Path(store.file).read_text(encoding="utf-8"))
    for entry in blob["entries"].values():
        entry[-3]["scope"] = "poisoned"  # after the key: the data
    blob["version"] = "0.0.0-old"
    Path(store.file).write_text(json.dumps(blob), encoding="utf-8")
    cache.clear_memory()
    assert resolve(tmp_path).data["scope"] == "real"


def test_yaml_resolver_tables_do_not_grow_with_every_parse() -> None:
    """ruamel extends the resolver list for a first character in place with the `None`
    list; a `None` key made every list grow on every scalar (a long replay slowed 7x)."""
    from memhooks.protocol import yamlio

    for _ in range(50):
        yamlio.load("a: \nb: ~\nc: 1\nd: text\n", "MEMHOOKS.md", 2)
    assert None not in yamlio._CORE
    assert {len(v) for v in yamlio._CORE.values()} <= {1, 2}
