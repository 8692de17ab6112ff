"""The public surface of memhooks.agents: exports, registry, and what importing it costs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memhooks import agents
from memhooks.agents import EVENTS, HOSTS, FileChange, NormalizedEvent, base

# Issue 5's agent names, plus the fallback.
AGENT_NAMES = {
    "claude-code",
    "codex",
    "gemini-cli",
    "copilot-cli",
    "copilot-vscode",
    "cursor",
    "windsurf",
    "kiro",
    "opencode",
    "cline",
    "hermes",
    "generic",
}


def test_exported_members() -> None:
    assert len(agents.__all__) == len(set(agents.__all__))
    public = {name for name in vars(agents) if not name.startswith("_")} | {"HOSTS", "parse_patch"}  # lazy
    submodules = {name for name, value in vars(agents).items() if type(value) is type(agents)}
    assert set(agents.__all__) == public - submodules - {"annotations", "TYPE_CHECKING"}
    assert agents.HOSTS is agents.registry.HOSTS


def test_a_hook_for_one_agent_imports_one_adapter() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, json; from memhooks.agents import normalize;"
        "normalize({'hook_event_name': 'UserPromptSubmit', 'prompt': 'x'}, 'claude-code');"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('memhooks.agents.'))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert "memhooks.agents.claude_code" in loaded
    assert not loaded & {
        "memhooks.agents.cline",
        "memhooks.agents.cursor",
        "memhooks.agents.hermes",
        "memhooks.agents.patch",  # patch text comes only with Codex/OpenCode edits
    }


def test_registry_names_every_host_once() -> None:
    assert set(HOSTS) == AGENT_NAMES
    assert list(HOSTS)[-1] == "generic"  # the fallback is tried last


def test_host_modules_follow_one_shape() -> None:
    for name, host in HOSTS.items():
        assert host.NAME == name
        assert host.__doc__ and len(host.__doc__) > 80, name
        for native, normalized in host.EVENTS.items():
            assert normalized is None or normalized in EVENTS, (name, native)
        assert callable(host.detect) and callable(host.normalize)


def test_every_event_is_documented() -> None:
    assert base.__doc__ is not None
    for event in EVENTS:
        assert f"``{event}``" in base.__doc__


def test_import_pulls_in_no_heavy_modules() -> None:
    src = Path(agents.__file__).resolve().parents[2]
    code = (
        "import sys; before = set(sys.modules); import memhooks.agents; "
        "print(' '.join(sorted(m for m in set(sys.modules) - before if not m.startswith('memhooks'))))"
    )
    out = subprocess.run(
        [sys.executable, "-S", "-c", code],
        env={"PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert set(out) <= {"__future__"}, out


def test_file_change_value_semantics() -> None:
    a = FileChange("/p/a", "renamed", "/p/b")
    assert a == FileChange("/p/a", "renamed", "/p/b")
    assert len({a, FileChange("/p/a", "renamed", "/p/b")}) == 1
    assert a != FileChange("/p/a", "written")
    assert a.as_list() == ["renamed", "/p/a", "/p/b"]
    assert repr(a) == "FileChange('/p/a', 'renamed', old_path='/p/b')"


def test_normalized_event_to_dict_leaves_out_raw() -> None:
    event = NormalizedEvent("x", "post_edit", files=[FileChange("/a", "written")], raw={"big": 1})
    shown = event.to_dict()
    assert "raw" not in shown and "tool_input" not in shown
    assert shown["files"] == [["written", "/a"]]
    assert event == NormalizedEvent(
        "x", "post_edit", files=[FileChange("/a", "written")], raw={"big": 1}
    )
    assert "big" not in repr(event)
