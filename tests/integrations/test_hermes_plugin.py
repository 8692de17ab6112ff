"""The in-process Hermes plugin: callbacks registered on a fake plugin context, recall
for the working folder and the folders the session worked in, maintenance after writes, and the
generated shim loading memhooks the way Hermes loads a plugin folder."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from memhooks.install import hermes_plugin
from memhooks.integrations import hermes

MARKER = "HERMES-PLUGIN-4412"


class FakeContext:
    def __init__(self) -> None:
        self.hooks: dict[str, list[object]] = {}

    def register_hook(self, name: str, callback: object) -> None:
        self.hooks.setdefault(name, []).append(callback)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from memhooks.store import MemoryStore, project_id

    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "api").mkdir()
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    (root / "api" / "MEMHOOKS.md").write_text('---\nschema: memhooks/v2\nrecall_queries:\n  - "How are API keys rotated?"\n---\n')
    (root / "api" / "keys.py").write_text("ROTATE = True\n")
    store = MemoryStore(str(tmp_path / "store.sqlite3"))
    store.add(project_id(str(root.resolve())), f"{MARKER}: API keys rotate weekly.", scope="api")
    store.close()
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "store.sqlite3"))
    monkeypatch.chdir(root)
    return root.resolve()


def test_register_wires_the_four_callbacks() -> None:
    ctx = FakeContext()
    hermes.register(ctx, ["reviewer"])
    assert sorted(ctx.hooks) == ["on_session_finalize", "on_session_reset", "post_tool_call", "pre_llm_call"]


def test_pre_llm_call_recalls_for_the_terminal_folder(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERMINAL_CWD", str(project / "api"))
    plugin = hermes.Plugin()
    reply = plugin.pre_llm_call(session_id="s1", user_message="rotate the keys", is_first_turn=True)
    assert reply is not None and MARKER in reply["context"]


def test_folders_the_session_worked_in_join_recall_once(project: Path) -> None:
    plugin = hermes.Plugin()
    assert plugin.pre_llm_call(session_id="s1", user_message="hello") is None  # at the root: no cue, no match
    plugin.post_tool_call(tool_name="read_file", args={"path": "api/keys.py"}, result="{}", status="ok", session_id="s1")
    reply = plugin.pre_llm_call(session_id="s1", user_message="hello")
    assert reply is not None and MARKER in reply["context"]
    # The session has it now: the next turn does not send it again.
    assert plugin.pre_llm_call(session_id="s1", user_message="and the tests?") is None
    # Another session starts with nothing.
    assert plugin.pre_llm_call(session_id="s2", user_message="hello") is None


def test_callbacks_never_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    from memhooks.hook import reactions

    monkeypatch.setattr(reactions, "react", lambda call: 1 / 0)
    plugin = hermes.Plugin()
    assert plugin.pre_llm_call(session_id="s", user_message="x") is None
    plugin.post_tool_call(tool_name=object(), args=None)
    plugin.end_session(session_id="s")


def test_generated_shim_registers_like_a_hermes_plugin_folder(tmp_path: Path) -> None:
    folder = tmp_path / "plugins" / "memhooks"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(hermes_plugin.shim(["reviewer"], ["/opt/bin/memhooks"]))
    (folder / "plugin.yaml").write_text(hermes_plugin.manifest())
    spec = importlib.util.spec_from_file_location("hermes_plugins.memhooks", folder / "__init__.py", submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hermes_plugins.memhooks"] = module
    try:
        spec.loader.exec_module(module)
        ctx = FakeContext()
        module.register(ctx)
    finally:
        del sys.modules["hermes_plugins.memhooks"]
    assert "pre_llm_call" in ctx.hooks and module.ROLES == ["reviewer"]
    assert "name: memhooks" in (folder / "plugin.yaml").read_text()


def test_a_reset_ends_the_old_session_only(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memhooks.session import report, state_path

    monkeypatch.setenv("MEMHOOKS_STATE_DIR", str(tmp_path / "state"))
    plugin = hermes.Plugin()
    plugin.pre_llm_call(session_id="old", user_message="rotate the keys")
    plugin.pre_llm_call(session_id="new", user_message="rotate the keys")
    plugin.end_session(session_id="new", old_session_id="old")  # Hermes' on_session_reset
    state = report.open_existing(state_path())
    assert state is not None
    ended = {s["session"]: s["ended"] is not None for s in report.sessions(state)}
    assert ended == {"old": True, "new": False}
    # a session resumed after it ended (claude --resume keeps its id) is open again
    plugin.pre_llm_call(session_id="old", user_message="rotate the keys again")
    assert {s["session"]: s["ended"] is not None for s in report.sessions(state)}["old"] is False
