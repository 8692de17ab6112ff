"""A backend configuration that cannot be used is said the same way by every command and
by the agent hook: MH028 at its file, line and column (newcomer6: ``memhooks recall`` and
the hook gave a plain line, ``memhooks backends list`` the diagnostic), and a
``MEMHOOKS_CONFIG`` that names no file is no silent "no configuration"."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.cli import main
from memhooks.hook.handler import handle

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    monkeypatch.chdir(root)
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "m.sqlite3"))
    monkeypatch.setenv("MEMHOOKS_STATE_DIR", str(tmp_path / "state"))
    assert main(["remember", "the retry budget is four attempts"]) == 0
    return root


def test_recall_says_an_invalid_configuration_where_it_is(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("this is [not toml\n", encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(bad))
    capsys.readouterr()
    assert main(["recall", ".", "--prompt", "retry budget"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error[MH028]: the memhooks configuration is not valid TOML")
    assert f"  --> {bad}:1:6\n" in err and "help: fix the TOML syntax" in err
    assert main(["recall", ".", "--prompt", "retry budget", "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["status"] == "no_backend"  # the result stays on stdout
    said = json.loads(err)[0]
    assert (said["code"], said["path"], said["line"], said["column"]) == ("MH028", str(bad), 1, 6)


def test_a_config_variable_naming_no_file_is_an_error_in_the_cli(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.toml"
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(missing))
    capsys.readouterr()
    for argv in (["recall", ".", "--prompt", "retry"], ["backends", "list"], ["remember", "x"]):
        assert main(argv) == 1, argv
        err = capsys.readouterr().err
        assert err.startswith("error[MH028]: MEMHOOKS_CONFIG names no file\n"), (argv, err)
        assert f"  --> {missing}\n" in err and "unset MEMHOOKS_CONFIG" in err
    assert not missing.exists()


def _prompt(project: Path, session: str) -> str:
    payload = {"session_id": session, "cwd": str(project), "hook_event_name": "UserPromptSubmit",
               "prompt": "why is the retry budget four attempts?"}  # fmt: skip
    reply = handle(json.dumps(payload), agent="claude-code", env=dict(os.environ), time_s=30)
    return reply.note or ""


def test_the_hook_names_the_configuration_file_line_and_column(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("this is [not toml\n", encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(bad))
    err = _prompt(project, "s1")
    assert "MH028 memory unavailable" in err and f"({bad}:1:6)" in err


def test_the_hook_says_a_config_variable_naming_no_file_once_a_session(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "typo.toml"
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(missing))
    note = f"MEMHOOKS_CONFIG names no file ({missing}); unset MEMHOOKS_CONFIG"
    # a prompt cannot open the backend: its "memory unavailable" line says why, every time
    assert [_prompt(project, "s1").count(note) for _ in range(2)] == [1, 1]
    # a call that opens none (no store yet) says it once a session
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "none.sqlite3"))
    assert [_prompt(project, "s2").count(f"MH028 {note}") for _ in range(2)] == [1, 0]


def test_the_embedded_backend_s_own_path_variable_chooses_the_store_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # fix6: MEMHOOKS_EMBEDDED_PATH alone was honoured by recall, but remember wrote to the
    # default store and the hook's store choice looked there (nothing to recall)
    from memhooks.agents import NormalizedEvent
    from memhooks.backends.registry import selected_store
    from memhooks.hook.call import HookCall

    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    monkeypatch.chdir(root)
    monkeypatch.delenv("MEMHOOKS_STORE", raising=False)
    monkeypatch.setenv("MEMHOOKS_STATE_DIR", str(tmp_path / "state"))
    chosen = tmp_path / "chosen.sqlite3"
    monkeypatch.setenv("MEMHOOKS_EMBEDDED_PATH", str(chosen))
    assert selected_store(os.environ) == str(chosen)
    assert selected_store({**os.environ, "MEMHOOKS_STORE": str(tmp_path / "other.sqlite3")}) == str(chosen)
    event = NormalizedEvent("claude-code", "user_prompt", native_event="UserPromptSubmit")
    assert HookCall(event, dict(os.environ)).store_ready is False  # not made yet
    assert main(["remember", "the retry budget is four attempts"]) == 0  # remember
    assert chosen.is_file()
    assert HookCall(event, dict(os.environ)).store_ready is True  # the hook's choice
    capsys.readouterr()
    assert main(["recall", ".", "--prompt", "retry budget", "--format", "json"]) == 0  # recall
    assert "four attempts" in capsys.readouterr().out
    assert "four attempts" in _context(root, "s1")  # the hook
    assert sorted(p.name for p in tmp_path.rglob("*.sqlite3") if "state" not in p.parts) == ["chosen.sqlite3"]


def _context(project: Path, session: str) -> str:
    payload = {"session_id": session, "cwd": str(project), "hook_event_name": "UserPromptSubmit",
               "prompt": "why is the retry budget four attempts?"}  # fmt: skip
    return handle(json.dumps(payload), agent="claude-code", env=dict(os.environ), time_s=30).stdout


def test_the_configuration_file_s_embedded_path_chooses_the_store_for_the_hook_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # review7: `[backends.embedded] path` in the configuration file was read by recall
    # (the backend's settings) but not by the hook's store check, which looked at the
    # default path: nothing to recall, silently, where `memhooks recall` found the memory
    from memhooks.agents import NormalizedEvent
    from memhooks.backends.registry import selected_store
    from memhooks.hook.call import HookCall
    from memhooks.session.edits import chosen_store
    from memhooks.store.location import default_path

    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    monkeypatch.chdir(root)
    monkeypatch.setenv("MEMHOOKS_STATE_DIR", str(tmp_path / "state"))
    chosen, config = tmp_path / "x.db", tmp_path / "config.toml"
    config.write_text(f'[backends.embedded]\npath = "{chosen}"\n', encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(config))
    # and remember writes where recall reads: it took the default file (review7)
    assert main(["remember", "the retry budget is four attempts"]) == 0
    assert chosen.is_file()
    env = dict(os.environ)
    assert selected_store(env) == str(chosen)
    assert chosen_store(env) == (str(config), str(chosen))
    event = NormalizedEvent("claude-code", "user_prompt", native_event="UserPromptSubmit")
    assert HookCall(event, env).store_ready is True
    capsys.readouterr()
    assert main(["recall", ".", "--prompt", "retry budget", "--format", "json"]) == 0
    assert "four attempts" in capsys.readouterr().out
    assert "four attempts" in _context(root, "s1")  # the hook opens the same file
    assert main(["memories", "list"]) == 0 and "four attempts" in capsys.readouterr().out
    assert not os.path.exists(default_path())
    # and the other way round: a store at the default path is not the one chosen
    os.makedirs(os.path.dirname(default_path()))
    os.replace(chosen, default_path())
    assert HookCall(event, dict(os.environ)).store_ready is False
    # a variable still wins over the file, as in recall
    monkeypatch.setenv("MEMHOOKS_STORE", default_path())
    assert selected_store(dict(os.environ)) == default_path()
    assert HookCall(event, dict(os.environ)).store_ready is True


def test_a_configuration_that_cannot_choose_the_store_is_said_by_the_command_itself(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # review8: --store's default read the configuration file before every command with
    # --store ran, and its error ended the command there — `capture off` refused,
    # `backends check` and recall's JSON lost their result, an unknown --backend was a bare 'error:'
    monkeypatch.delenv("MEMHOOKS_STORE")
    bad = tmp_path / "bad.toml"
    bad.write_text("this is [not toml\n", encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(bad))
    capsys.readouterr()
    assert main(["capture", "off"]) == 0  # the switch works whatever the configuration
    assert "Capture off" in capsys.readouterr().out
    assert main(["recall", ".", "--prompt", "retry budget", "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["status"] == "no_backend"  # the result stays on stdout
    assert json.loads(err)[0]["code"] == "MH028"
    main(["backends", "check", "--format", "json"])
    checked = json.loads(capsys.readouterr().out)
    assert checked["ok"] is False and "not valid TOML" in checked["detail"]
    bad.write_text(f'[backends.embedded]\npath = "{tmp_path / "x.db"}"\n', encoding="utf-8")
    assert main(["recall", ".", "--prompt", "retry", "--backend", "nosuch", "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["status"] == "no_backend"
    assert "unknown backend 'nosuch' (from --backend)" in err and not err.startswith("error:")


def test_backends_check_says_an_invalid_configuration_where_it_is(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """store22: ``backends check`` said ``None: FAILED via open — the memhooks
    configuration is not valid TOML: …``, no code, no place, no advice; now MH028 at the
    file, line and column as ``backends list`` and recall say it (the JSON result stays
    on stdout, its detail with the place)."""
    bad = tmp_path / "bad.toml"
    bad.write_text("this is [not toml\n", encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(bad))
    capsys.readouterr()
    assert main(["backends", "check"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error[MH028]: the memhooks configuration is not valid TOML")
    assert f"  --> {bad}:1:6\n" in err and "help: fix the TOML syntax" in err
    assert main(["backends", "check", "--format", "json"]) == 1
    out, err = capsys.readouterr()
    checked = json.loads(out)
    assert checked["ok"] is False and f"({bad}:1:6); fix the TOML syntax" in checked["detail"]
    said = json.loads(err)[0]
    assert (said["code"], said["path"], said["line"], said["column"]) == ("MH028", str(bad), 1, 6)
    # a failure without a diagnostic keeps its one-line report, naming no 'None' backend
    monkeypatch.delenv("MEMHOOKS_CONFIG")
    monkeypatch.setenv("MEMHOOKS_BACKEND", "nosuch")
    assert main(["backends", "check"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("no backend: FAILED via open — unknown backend 'nosuch'"), out
    assert err == ""


def test_recall_without_cues_says_an_invalid_configuration_too(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """store22: ``memhooks recall .`` with no recall query and no prompt said "nothing
    to recall" (exit 0) and nothing of the broken configuration file it would recall
    through; now the MH028 a recall with a prompt gives (status ``no_backend``)."""
    capsys.readouterr()
    assert main(["recall", ".", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "no_cues"  # no hook asks anything
    bad = tmp_path / "bad.toml"
    bad.write_text("this is [not toml\n", encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(bad))
    assert main(["recall", "."]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error[MH028]: the memhooks configuration is not valid TOML")
    assert f"  --> {bad}:1:6\n" in err
    assert main(["recall", ".", "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["status"] == "no_backend"
    assert json.loads(err)[0]["code"] == "MH028"
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(tmp_path / "typo.toml"))
    assert main(["recall", "."]) == 1
    assert capsys.readouterr().err.startswith("error[MH028]: MEMHOOKS_CONFIG names no file\n")
