"""The hook does not skip recall when the config file selects a non-embedded backend."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.agents import NormalizedEvent
from memhooks.hook.call import HookCall


def _call(env: dict[str, str]) -> HookCall:
    return HookCall(NormalizedEvent("claude-code", "user_prompt", native_event="UserPromptSubmit"), env)


def test_missing_embedded_store_means_nothing_to_recall(tmp_path: Path) -> None:
    env = {"MEMHOOKS_STORE": str(tmp_path / "none.sqlite3"), "MEMHOOKS_CONFIG": str(tmp_path / "absent.toml"),
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip  (the once-a-session mark: not /tmp/memhooks-<uid>)
    call = _call(env)
    assert call.store_ready is False
    assert call.backend is None  # no store yet is no outage: the model is told nothing
    # but the user is, on stderr, once per session (newcomer #6: the hook said nothing)
    assert call.notes == [
        (
            f"MH037 MEMHOOKS_STORE {env['MEMHOOKS_STORE']!r} does not exist: nothing to recall until"
            " 'memhooks remember' or 'memhooks history import' makes it (or unset it)"
        )
    ]


def test_the_embedded_backends_own_path_setting_names_the_store(tmp_path: Path) -> None:
    # MEMHOOKS_EMBEDDED_PATH is read above MEMHOOKS_STORE by the backend: the hook looks
    # for that file, and says which setting names a missing one
    store = tmp_path / "kept.sqlite3"
    store.write_bytes(b"")
    env = {"MEMHOOKS_STORE": str(tmp_path / "none.sqlite3"), "MEMHOOKS_EMBEDDED_PATH": str(store),
           "MEMHOOKS_CONFIG": str(tmp_path / "absent.toml"), "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip
    assert _call(env).store_ready is True
    missing = str(tmp_path / "missing.sqlite3")
    call = _call({**env, "MEMHOOKS_EMBEDDED_PATH": missing})
    assert call.store_ready is False and call.backend is None
    assert call.notes == [
        (
            f"MH037 MEMHOOKS_EMBEDDED_PATH {missing!r} does not exist: nothing to recall until"
            " 'memhooks remember' or 'memhooks history import' makes it (or unset it)"
        )
    ]


def test_config_file_choosing_another_backend_keeps_recall_on(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('backend = "generic"\n[backends.generic]\nurl = "http://127.0.0.1:9/search"\n', encoding="utf-8")
    env = {"MEMHOOKS_STORE": str(tmp_path / "none.sqlite3"), "MEMHOOKS_CONFIG": str(config)}
    assert _call(env).store_ready is True


def test_a_store_path_that_cannot_be_a_store_is_noted(tmp_path: Path) -> None:
    call = _call({"MEMHOOKS_STORE": str(tmp_path)})
    assert call.store_ready is False
    assert str(call.backend) == f"MEMHOOKS_STORE {str(tmp_path)!r} is a directory; point MEMHOOKS_STORE at a file, or move it away"


def test_a_default_store_path_that_is_a_directory_is_noted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memhooks.store.location import default_path

    os.makedirs(default_path())  # the sandboxed data dir: where the store would be
    call = _call(dict(os.environ))  # the call's HOME and XDG_DATA_HOME say where that is
    assert call.store_ready is False
    assert str(call.backend) == f"the memory store {default_path()!r} is a directory; point MEMHOOKS_STORE at a file, or move it away"


def test_the_project_id_is_worked_out_once_a_call(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 item 1: tool time, line recall and its owners read one HookCall.project —
    identify(root) walks up to .git and reads its files, and ran up to four times a call."""
    from memhooks import store

    asked: list[str] = []
    identify = store.identify
    monkeypatch.setattr(store, "identify", lambda root: asked.append(root) or identify(root))
    call = _call(dict(os.environ))
    assert call.project == identify(str(project.resolve())).id
    assert call.project == call.project and asked == [call.root]


def test_a_missing_store_file_is_said_once_a_session_on_stderr(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    project = tmp_path / "p"
    project.mkdir()
    (project / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STORE": str(tmp_path / "gone.sqlite3"),
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state"), "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    prompt = {"session_id": "s1", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
              "prompt": "why does the retry loop stop at four attempts?"}  # fmt: skip
    said = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                              input=json.dumps(prompt), capture_output=True, text=True, env=env,
                              cwd=project, check=False)  # fmt: skip
        assert done.returncode == 0
        said.append(done.stderr.count("does not exist"))
    assert said == [1, 0]


def test_the_store_a_session_s_snapshot_names_stands_while_the_same_variables_choose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20 item 7: a pre-tool edit asks which store its call selects for the marks,
    the symbol cue and the snapshot; a session's snapshot keeps what chose it, so the
    backends' registry and configuration are not loaded to say it again."""
    from memhooks.session import edits, snapshot

    store = tmp_path / "store.sqlite3"
    env = {"MEMHOOKS_STORE": str(store), "MEMHOOKS_CONFIG": str(tmp_path / "absent.toml"),
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip
    chosen = edits.chosen_store(env)
    assert chosen == (str(tmp_path / "absent.toml"), str(store))
    snapshot.save(str(tmp_path / "state"), "claude-code", "s1", root=str(tmp_path), epoch=0,
                  served=[], full=False, store=edits.store_choice(env, *chosen))  # fmt: skip

    def event() -> NormalizedEvent:
        return NormalizedEvent("claude-code", "pre_tool", native_event="PreToolUse", session_id="s1")

    monkeypatch.setattr(edits, "chosen_store", lambda env: pytest.fail("asked again"))
    assert HookCall(event(), env).store_choice == chosen
    other = {**env, "MEMHOOKS_STORE": str(tmp_path / "other.sqlite3")}  # another store chosen
    monkeypatch.setattr(edits, "chosen_store", lambda env: ("x", env["MEMHOOKS_STORE"]))
    assert HookCall(event(), other).store_choice == ("x", str(tmp_path / "other.sqlite3"))


def test_a_relative_store_variable_names_the_store_of_the_folder_the_call_runs_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review: MEMHOOKS_STORE=store.sqlite3 (docs/quickstart.md exports a relative one)
    names another file from another working folder; the session's snapshot kept the one
    an earlier call's folder named, and a pre-tool edit read that store's marks."""
    from memhooks.session import edits, snapshot

    (tmp_path / "sub").mkdir()
    env = {"MEMHOOKS_STORE": "store.sqlite3", "MEMHOOKS_CONFIG": str(tmp_path / "absent.toml"),
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip
    monkeypatch.chdir(tmp_path / "sub")
    chosen = edits.chosen_store(env)
    snapshot.save(str(tmp_path / "state"), "claude-code", "s1", root=str(tmp_path), epoch=0,
                  served=[], full=False, store=edits.store_choice(env, *chosen))  # fmt: skip
    event = NormalizedEvent("claude-code", "pre_tool", native_event="PreToolUse", session_id="s1")
    assert edits.kept_choice(HookCall(event, env)) == (str(tmp_path / "absent.toml"),
                                                       str((tmp_path / "sub" / "store.sqlite3").resolve()))  # fmt: skip
    monkeypatch.chdir(tmp_path)  # the same variable names ./store.sqlite3 here
    assert edits.kept_choice(HookCall(event, env)) is None
    chosen_here = HookCall(event, env).store_choice  # chosen again, here
    assert chosen_here is not None and chosen_here[1] is not None
    assert os.path.realpath(chosen_here[1]) == str((tmp_path / "store.sqlite3").resolve())


def test_the_store_a_new_session_chooses_reads_the_configuration_file_only_when_there_is_one(
    tmp_path: Path,
) -> None:
    # issue 20 item 7: a new session's first pre-tool edit chooses its store from the
    # environment alone (no backend module loaded: backends.plain_store); a configuration
    # file, which may name another backend, is read as before (registry.selected_store)
    import subprocess
    import sys

    from memhooks.session.edits import chosen_store

    store, config = str(tmp_path / "m.sqlite3"), tmp_path / "config.toml"
    env = {"MEMHOOKS_STORE": store, "MEMHOOKS_CONFIG": str(config)}
    assert chosen_store(env) == (str(config), store)
    assert chosen_store({**env, "MEMHOOKS_BACKEND": "mem0"}) == (str(config), None)
    config.write_text('backend = "generic"\n[backends.generic]\nurl = "http://127.0.0.1:9/s"\n', "utf-8")
    assert chosen_store(env) == (str(config), None)
    config.write_text('backend = "embedded"\n', "utf-8")
    assert chosen_store(env) == (str(config), store)
    config.unlink()
    probe = (
        "import sys; from memhooks.session.edits import chosen_store; chosen_store(dict("
        f"MEMHOOKS_STORE={store!r}, MEMHOOKS_CONFIG={str(config)!r})); "
        "print(sorted(m for m in sys.modules if m.startswith('memhooks.backends')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.strip() == "['memhooks.backends']", done.stderr[-300:]
