"""The agent hook skips YAML when an event changes nothing (issue 14: PostToolUse Write 6x a
bare interpreter). Skipping must never drop an update: whenever the plain-data check says
"unchanged", the real round-trip edit changes nothing either — and the check does say so
for the common case, a file written again that its cue already lists."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks.maintain.cues import apply_cues
from memhooks.maintain.generated import AUTO_CUE, auto_cue_text, unchanged
from memhooks.protocol.hookfile import parse_text

DIRS = (".", "a", "a/b")
FILES = ("a/x.py", "a/y.py", "a/b/z.py", "gone.py", "a/b/gone.py")
EXISTING = {"a/x.py", "a/y.py", "a/b/z.py"}


def _exists(name: str) -> bool:
    return name in EXISTING


def _cue_yaml(text: str, resources: list[str], extra: str, tagged: bool) -> str:
    lines = [f"  - query: '{text}'"]
    if resources:
        lines.append("    resources:")
        lines += [f"      - {{name: {name}, kind: file}}" for name in resources]
    if extra:
        lines.append(f"    {extra}")
    if tagged:
        lines.append("    tags: [memhooks:auto]")
    return "\n".join(lines)


cue = st.tuples(
    st.sampled_from(DIRS).map(auto_cue_text) | st.just(AUTO_CUE),
    st.lists(st.sampled_from(FILES), max_size=4),
    st.sampled_from(["", "resources: []", "priority: 0.5"]),
    st.booleans(),
)
hook_text = st.lists(cue, max_size=4).map(
    lambda cues: "---\nschema: memhooks/v2\nrecall_queries:\n  - plain query\n"
    + "".join(_cue_yaml(*c) + "\n" for c in cues)
    + "---\n"
)
event = st.lists(
    st.tuples(st.sampled_from(DIRS), st.lists(st.sampled_from(sorted(EXISTING)), max_size=3)),
    min_size=1,
    max_size=3,
    unique_by=lambda pair: pair[0],
)


@settings(derandomize=True, database=None, deadline=None, max_examples=400)
@given(hook_text, event, st.integers(1, 3))
def test_unchanged_only_when_the_edit_changes_nothing(
    text: str, cues: list[tuple[str, list[str]]], max_paths: int
) -> None:
    plain = parse_text(text, "MEMHOOKS.md")
    if not plain.valid:  # duplicate keys from `resources: []` after a list: not our case
        return
    assert plain.data is not None
    if unchanged(plain.data, cues, _exists, max_paths):
        tree = parse_text(text, "MEMHOOKS.md", round_trip=True).tree
        assert not apply_cues(tree, cues, _exists, max_paths)


def test_a_file_written_again_is_seen_as_unchanged() -> None:
    text = (
        "---\nschema: memhooks/v2\nrecall_queries:\n"
        + _cue_yaml(auto_cue_text("a"), ["a/x.py", "a/y.py"], "", True)
        + "\n---\n"
    )
    data = parse_text(text, "MEMHOOKS.md").data
    assert data is not None
    assert unchanged(data, [("a", ["a/x.py"])], _exists, 12)
    assert not unchanged(data, [("a", ["a/b/z.py"])], _exists, 12)  # a new file
    assert not unchanged(data, [("a", ["a/x.py"])], _exists, 1)  # over the cap
    assert not unchanged(data, [("a/b", ["a/b/z.py"])], _exists, 12)  # a new cue
    assert unchanged(data, [("a/b", [])], _exists, 12)  # a deletion, nothing to prune


def test_the_hook_imports_no_yaml_when_a_write_changes_nothing(tmp_path) -> None:
    """A PostToolUse Write of a file its cue already lists, as Claude Code sends it."""
    import json
    import os
    import subprocess
    import sys
    import time

    root = tmp_path.resolve() / "proj"
    (root / "src" / "app").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    written = root / "src" / "app" / "x.py"
    written.write_text("x = 1\n", encoding="utf-8")
    payload = {
        "session_id": "s",
        "cwd": str(root),
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(written), "content": "x = 1\n"},
        "tool_response": {"type": "create", "filePath": str(written)},
    }
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

    def hook(*flags: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, *flags, "-m", "memhooks", "hook", "--agent", "claude-code"]
        return subprocess.run(argv, input=json.dumps(payload), capture_output=True, text=True, env=env, check=False)

    assert hook().returncode == 0
    cue_hook = root / "src" / "app" / "MEMHOOKS.md"
    before = cue_hook.read_text(encoding="utf-8")
    assert "src/app/x.py" in before
    past = time.time() - 60  # outside the parsed-hook cache's racy window
    for path in (root / "MEMHOOKS.md", cue_hook):
        os.utime(path, (past, past))

    def imported() -> set[str]:
        run = hook("-X", "importtime")
        assert run.returncode == 0 and "|" in run.stderr
        return {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()}

    assert hook().returncode == 0  # parses once more, into the cache
    from memhooks.session import snapshot, state_dir

    record = snapshot.cues_path(state_dir(env), "claude-code", "s")
    os.unlink(record)  # that call recorded its answer: ask maintenance again
    asked = imported()  # maintenance decides, from the cache's JSON
    assert "memhooks.maintain.events" in asked
    assert not {name for name in asked if "yaml" in name}
    settled = imported()  # the next one rests on what that answer was (maintain.settled)
    assert "memhooks.maintain.settled" in settled and "memhooks.maintain.events" not in settled
    assert not {name for name in settled if "yaml" in name}
    assert cue_hook.read_text(encoding="utf-8") == before
