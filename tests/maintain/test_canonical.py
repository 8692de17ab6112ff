"""The generated-hook write (issue 14: PostToolUse Write without a YAML library) must write
exactly what the round-trip path writes, byte for byte, read exactly what the YAML
readers read, and leave every hook it does not fully understand to the round-trip path
(which keeps what people wrote)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks import filestate
from memhooks.agents.base import DELETED, POST_EDIT, WRITTEN, FileChange, NormalizedEvent
from memhooks.errors import DiagnosticError
from memhooks.maintain import canonical, fastwrite
from memhooks.maintain.cues import apply_cues
from memhooks.maintain.events import maintain
from memhooks.maintain.roundtrip import Snapshot, new_hook_text, render_read_back
from memhooks.protocol.hookfile import parse_text

SCOPES = (".", "a", "a/b", "src/x-y_z.d")
NAMES = (
    "a/x.py",
    "a/y.py",
    "a/b/z.py",
    "README.md",
    ".github/ci.yml",
    "src/x-y_z.d/m.rs",
    "gone.py",
)


def _ruamel(text: str, cues: list[tuple[str, list[str]]], exists, max_paths: int) -> str | None:
    """The round-trip path's result (:func:`memhooks.maintain.update.update`'s steps),
    or None when it writes nothing."""
    parsed = parse_text(text, "MEMHOOKS.md", round_trip=True)
    parsed.require_valid()
    before = Snapshot(parsed.document, parsed.tree)
    if not apply_cues(parsed.tree, cues, exists, max_paths):
        return None
    new, _tree = render_read_back(parsed.document, parsed.tree, "MEMHOOKS.md", before)
    return None if new == text else new


def _fast(text: str, cues: list[tuple[str, list[str]]], exists, max_paths: int) -> str | None:
    model = canonical.read(text)
    assert model is not None
    changed = canonical.apply(model, cues, exists, max_paths)
    assert changed is not None
    new = canonical.emit(model) if changed else None
    return None if new == text else new


models = st.builds(
    canonical.Generated,
    st.sampled_from([None, True, False]),
    st.none()
    | st.lists(
        st.tuples(
            st.sampled_from(SCOPES), st.lists(st.sampled_from(NAMES), min_size=1, max_size=5)
        ),
        min_size=1,
        max_size=3,
        unique_by=lambda cue: cue[0],
    ),
    st.just("---\n"),
    st.sampled_from(["", "\n# Notes\n\nKeep it short.\n", "body without newline", "a\r\nb\r\n"]),
)
events = st.lists(
    st.tuples(st.sampled_from(SCOPES), st.lists(st.sampled_from(NAMES[:-1]), max_size=3)),
    min_size=1,
    max_size=3,
    unique_by=lambda cue: cue[0],
)


@settings(derandomize=True, database=None, deadline=None, max_examples=300)
@given(models, events, st.integers(1, 4), st.frozensets(st.sampled_from(NAMES)))
def test_the_canonical_edit_writes_the_round_trip_paths_bytes(
    model: canonical.Generated, cues, max_paths: int, gone: frozenset[str]
) -> None:
    text = canonical.emit(model)
    assert canonical.read(text) is not None

    def exists(name: str) -> bool:
        return name not in gone

    assert _fast(text, cues, exists, max_paths) == _ruamel(text, cues, exists, max_paths)


@settings(derandomize=True, database=None, deadline=None, max_examples=200)
@given(models)
def test_a_canonical_text_reads_as_its_model_in_both_readers_and_validates(
    model: canonical.Generated,
) -> None:
    text = canonical.emit(model)
    for round_trip in (False, True):
        parsed = parse_text(text, "MEMHOOKS.md", round_trip=round_trip)
        assert parsed.diagnostics == []
        assert parsed.data == model.data()
    read = canonical.read(text)
    assert read is not None and canonical.emit(read) == text


def test_what_the_canonical_read_caches_is_what_parsing_caches(tmp_path: Path) -> None:
    from memhooks.maintain.canonical import canonical_data
    from memhooks.protocol import cache

    model = canonical.Generated(True, [("a", ["a/x.py"])], body="\n# Notes\r\n\nKeep.\n")
    hook = tmp_path / "MEMHOOKS.md"
    hook.write_text(canonical.emit(model), encoding="utf-8", newline="")
    os.utime(hook, (1_000_000_000, 1_000_000_000))  # out of the racy window: cached
    key = filestate.key(hook.lstat())
    entries = []
    for read in (
        lambda store: canonical_data(str(hook), store),
        lambda store: store.load(str(hook)),
    ):
        cache.clear_memory()
        store = cache.HookCache(None)
        read(store)
        entries.append(store.get(str(hook), key))
    cache.clear_memory()
    assert entries[0] is not None and entries[0] == entries[1]


def test_a_new_generated_hook_starts_from_the_round_trip_paths_text() -> None:
    assert fastwrite.NEW_HOOK == new_hook_text()
    cues = [("a", ["a/x.py"])]
    assert _fast(fastwrite.NEW_HOOK, cues, lambda n: True, 12) == _ruamel(
        new_hook_text(), cues, lambda n: True, 12
    )


GENERATED = canonical.emit(canonical.Generated(True, [("a", ["a/x.py"])]))


@pytest.mark.parametrize(
    "text",
    [
        GENERATED.replace("recall_queries:", "recall_queries:  # mine"),
        GENERATED.replace("inherits: true\n", "inherits: true\n# a note\n"),
        GENERATED.replace("inherits: true\n", "inherits: true\nscope: a\n"),
        GENERATED.replace("name: a/x.py", "name: 'a/x.py'"),
        GENERATED.replace("name: a/x.py", "name: a x.py"),
        GENERATED.replace("    tags: [memhooks:auto]\n", "    tags: [memhooks:auto]\n  - why?\n"),
        GENERATED.replace("      - name", "    - name").replace("        kind", "      kind"),
        GENERATED.replace(" [scope: a]", ""),  # a legacy unscoped cue
        GENERATED.replace(
            "schema: memhooks/v2\ninherits: true", "inherits: true\nschema: memhooks/v2"
        ),
        GENERATED.replace("\n", "\r\n"),
        "\ufeff" + GENERATED,
        GENERATED.replace("---\n", "--- \n", 2).replace("--- \n", "---\n", 1),
        GENERATED[: -len("---\n")],  # no closing fence
        "---\nschema: memhooks/v2\nrecall_queries:\n---\n",
        "---\nschema: memhooks/v1\n---\n",
    ],
)
def test_anything_but_the_canonical_form_is_left_to_the_round_trip_path(text: str) -> None:
    assert canonical.read(text) is None


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("a/b.py", True),
        (".github/ci.yml", True),
        ("src/1.0/x", True),
        ("README.md", True),
        ("true", False),
        ("Null", False),
        ("yes", False),
        ("1e3", False),
        ("0x1F", False),
        (".inf", False),
        ("-x", False),
        ("a b", False),
        ("a:b", False),
        ("a#b", False),
        ("é.py", False),
        ("", False),
        ("a" * 1025, False),
    ],
)
def test_names_written_unquoted_are_strings_to_every_reader(name: str, safe: bool) -> None:
    assert canonical.plain_safe(name) is safe
    if safe:
        text = canonical.emit(canonical.Generated(None, [("a", [name])]))
        for round_trip in (False, True):
            parsed = parse_text(text, "MEMHOOKS.md", round_trip=round_trip)
            assert parsed.data["recall_queries"][0]["resources"][0]["name"] == name


def test_an_edit_that_needs_quoting_is_left_to_the_round_trip_path() -> None:
    model = canonical.read(GENERATED)
    assert model is not None
    assert canonical.apply(model, [("a", ["a/we ird.py"])], lambda n: True, 12) is None
    assert canonical.emit(model) == GENERATED  # untouched


# -- through maintain(): the lock, the atomic write, the fallback --------------------------


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    return root


def _generated(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose folder ``a`` has the generated hook a write of ``a/x.py`` made."""
    root = _project(tmp_path)
    _write(root, "a/x.py")
    return root, root / "a" / "MEMHOOKS.md"


def _write(root: Path, rel: str, action: str = WRITTEN) -> list[str]:
    path = root / rel
    if action == WRITTEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n", encoding="utf-8")
    else:
        path.unlink()
    event = NormalizedEvent("test", POST_EDIT, cwd=str(root), files=[FileChange(str(path), action)])
    return maintain(event, str(root), env={"MEMHOOKS_AUTO_PATHS": "3"})


def _sequence(root: Path) -> list[bytes]:
    """A session's writes and deletions; the hook's bytes after each step."""
    steps = [("a/x.py", WRITTEN), ("a/y.py", WRITTEN), ("a/b.txt", WRITTEN), ("a/c.txt", WRITTEN),
             ("a/c.txt", DELETED), ("a/y.py", WRITTEN), ("top.py", WRITTEN), ("a/b.txt", DELETED),
             ("a/x.py", DELETED), ("a/y.py", DELETED)]  # fmt: skip
    out = []
    for rel, action in steps:
        _write(root, rel, action)
        hook = root / "a" / "MEMHOOKS.md"
        out.append(hook.read_bytes() if hook.exists() else b"")
        out.append((root / "MEMHOOKS.md").read_bytes())
    return out


def test_maintain_writes_generated_hooks_as_the_round_trip_path_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[bool | None] = []
    real = fastwrite.write_generated

    def spy(*args, **kw):
        calls.append(real(*args, **kw))
        return calls[-1]

    monkeypatch.setattr(fastwrite, "write_generated", spy)
    fast = _sequence(_project(tmp_path / "fast"))
    assert True in calls and None not in calls  # every step took the generated-hook write
    monkeypatch.setattr(fastwrite, "write_generated", lambda *a, **kw: None)
    assert fast == _sequence(_project(tmp_path / "ruamel"))


def test_a_hook_people_edited_goes_through_the_round_trip_path_and_keeps_their_lines(
    tmp_path: Path,
) -> None:
    root, hook = _generated(tmp_path)
    edited = hook.read_text(encoding="utf-8").replace(
        "inherits: true\n", "inherits: true  # mine\n"
    )
    hook.write_text(edited, encoding="utf-8")
    assert _direct(hook) is None
    assert _write(root, "a/y.py") == [str(hook)]
    text = hook.read_text(encoding="utf-8")
    assert "inherits: true  # mine\n" in text and "- name: a/y.py" in text


def test_the_generated_hook_write_keeps_mode_bits_and_leaves_no_temporary_file(
    tmp_path: Path,
) -> None:
    root, hook = _generated(tmp_path)
    hook.chmod(0o640)
    _write(root, "a/y.py")
    assert stat.S_IMODE(hook.stat().st_mode) == 0o640
    assert sorted(os.listdir(root / "a")) == ["MEMHOOKS.md", "x.py", "y.py"]


def test_a_read_only_generated_hook_is_refused_not_replaced(tmp_path: Path) -> None:
    root, hook = _generated(tmp_path)
    before = hook.read_bytes()
    hook.chmod(0o444)
    with pytest.raises(DiagnosticError) as caught:
        _write(root, "a/y.py")
    assert caught.value.diagnostics[0].code == "MH031"
    assert hook.read_bytes() == before


def test_a_symlinked_generated_hook_is_refused(tmp_path: Path) -> None:
    root, hook = _generated(tmp_path)
    real = root / "elsewhere.md"
    hook.rename(real)
    hook.symlink_to(real)
    with pytest.raises(DiagnosticError) as caught:
        _direct(hook)
    assert caught.value.diagnostics[0].code == "MH029"


def _direct(hook: Path) -> bool | None:
    """:func:`fastwrite.write_generated` adding ``a/y.py`` to ``hook``'s cue of ``a``."""
    return fastwrite.write_generated(str(hook), [("a", ["a/y.py"])], lambda n: True, 3, create=True)


# -- the agent hook: a write that changes a generated cue loads no YAML library ------------

PROBE = (
    "import sys\nfrom memhooks.cli import main\ncode = main(['hook', '--agent', 'claude-code'])\n"
    "print(sorted({m.split('.')[0] for m in sys.modules} & {'ruamel', 'yaml'}), file=sys.stderr)\n"
)


def _post_write(root: Path, rel: str, session: str) -> str:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x = 1\n", encoding="utf-8")
    return json.dumps({
        "session_id": session,
        "cwd": str(root),
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(path), "content": "x = 1\n"},
        "tool_response": {"type": "create", "filePath": str(path), "content": "x = 1\n"},
    })  # fmt: skip


def test_the_hook_changes_a_generated_cue_without_a_yaml_library(tmp_path: Path) -> None:
    root = _project(tmp_path)
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}
    env.pop("MEMHOOKS_ROOT", None)
    hook = root / "a" / "MEMHOOKS.md"
    for number in range(3):  # the first creates a/MEMHOOKS.md; the next edit it seconds later
        done = subprocess.run(
            [sys.executable, "-c", PROBE],
            check=False,
            input=_post_write(root, f"a/f{number}.py", "5ac0a2b4-0000-4000-8000-000000000001"),
            env=env,
            cwd=root,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0
        assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr
        assert f"- name: a/f{number}.py\n" in hook.read_text(encoding="utf-8")
    # the root hook, canonical too, was validated without a parse as well
    assert (root / "MEMHOOKS.md").read_text(encoding="utf-8") == "---\nschema: memhooks/v2\n---\n"
