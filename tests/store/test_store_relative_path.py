"""A relative ``MEMHOOKS_STORE`` names one file per project: relative to the project root
found from the working folder (outside any project, to that folder), in the CLI and the
agent hook alike (``memhooks.store.location``). Newcomer trial: ``memhooks remember`` at
the root and in ``src/pkg`` made two stores, each untracked in ``git status``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.cli import main
from memhooks.hook.handler import handle

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An enabled git project (a ``.git`` folder, a root hook) with ``src/pkg``."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    return root


def remember(text: str, folder: Path, monkeypatch: pytest.MonkeyPatch, store: str = "rel.sqlite3") -> int:
    """``memhooks remember TEXT`` run in ``folder`` with ``MEMHOOKS_STORE=store``, as a
    shell that exported it would (set again for every command)."""
    monkeypatch.chdir(folder)
    monkeypatch.setenv("MEMHOOKS_STORE", store)
    return main(["remember", text])


def listed(folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> list[str]:
    monkeypatch.chdir(folder)
    monkeypatch.setenv("MEMHOOKS_STORE", "rel.sqlite3")
    capsys.readouterr()
    assert main(["memories", "list", "--format", "json"]) == 0
    return sorted(m["text"] for m in json.loads(capsys.readouterr().out))


def stores(under: Path) -> list[str]:
    return sorted(str(p.relative_to(under)) for p in under.rglob("*.sqlite3"))


def test_commands_in_any_folder_of_a_project_share_the_store_at_its_root(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert remember("alpha: said at the root", project, monkeypatch) == 0
    assert remember("beta: said in a subfolder", project / "src" / "pkg", monkeypatch) == 0
    assert stores(project) == ["rel.sqlite3"]  # one file, at the root
    both = ["alpha: said at the root", "beta: said in a subfolder"]
    assert listed(project / "src", monkeypatch, capsys) == both
    assert listed(project, monkeypatch, capsys) == both
    # outside any project: the working folder itself
    plain = project.parent / "plain"
    plain.mkdir()
    assert remember("gamma: no project here", plain, monkeypatch) == 1  # not enabled
    capsys.readouterr()
    assert main(["memories", "list"]) == 1
    assert f"there is no memory store at {plain / 'rel.sqlite3'}" in capsys.readouterr().err


def test_the_embedded_backends_own_path_setting_is_taken_from_the_root_too(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``MEMHOOKS_EMBEDDED_PATH`` (the embedded backend's ``path``, which the backend
    reads above ``MEMHOOKS_STORE``) follows the same rule: recall in ``src/pkg`` opens the
    root's file, not ``src/pkg/rel.sqlite3`` (MH037, no such store)."""
    assert remember("the retry budget is four attempts: measured", project, monkeypatch) == 0
    monkeypatch.delenv("MEMHOOKS_STORE")
    monkeypatch.setenv("MEMHOOKS_EMBEDDED_PATH", "rel.sqlite3")
    monkeypatch.chdir(project / "src" / "pkg")
    capsys.readouterr()
    assert main(["recall", ".", "--prompt", "retry budget", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "four attempts: measured" in out
    assert stores(project) == ["rel.sqlite3"]
    # the hook reads the file the backend reads (it looked for MEMHOOKS_STORE or the
    # default store only, found neither, and recalled nothing, silently)
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": str(project / "src" / "pkg"),
               "prompt": "why is the retry budget four attempts?"}  # fmt: skip
    env = {"MEMHOOKS_EMBEDDED_PATH": "rel.sqlite3", "HOME": os.environ["HOME"],
           "MEMHOOKS_STATE_DIR": str(project.parent / "state")}  # fmt: skip
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    assert "four attempts: measured" in reply.stdout, reply
    assert reply.note is None


def test_a_value_under_the_home_folder_stays_there(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MEMHOOKS_STORE='~/m.sqlite3'`` (quoted, so the shell left the ``~``) names a file
    in the home folder, as everywhere memhooks expands one — not ``<root>/~/m.sqlite3``."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert remember("kept at home", project / "src" / "pkg", monkeypatch, "~/m.sqlite3") == 0
    assert stores(home) == ["m.sqlite3"]
    assert stores(project) == []


def test_a_relative_path_with_folders_is_taken_from_the_root_too(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert remember("kept", project / "src" / "pkg", monkeypatch, "state/mem.sqlite3") == 0
    assert stores(project) == ["state/mem.sqlite3"]


def test_memhooks_root_containing_the_folder_is_the_root_the_path_is_taken_from(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOOKS_ROOT", str(project / "src"))
    (project / "src" / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    assert remember("kept", project / "src" / "pkg", monkeypatch) == 0
    assert stores(project) == ["src/rel.sqlite3"]


def test_the_hook_reads_the_store_the_commands_wrote_whatever_its_process_folder(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host may run the hook from another folder than the one it names: the payload's
    folder finds the root, and the relative store is taken from there (it was taken from
    the process folder, and said to be missing)."""
    assert remember("the retry budget is four attempts: measured", project / "src" / "pkg", monkeypatch) == 0
    monkeypatch.chdir(tmp_path)  # the hook process's folder: no project
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": str(project / "src"),
               "prompt": "why is the retry budget four attempts?"}  # fmt: skip
    env = {"MEMHOOKS_STORE": "rel.sqlite3", "HOME": os.environ["HOME"],
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    assert "four attempts: measured" in reply.stdout, reply
    assert reply.note is None
    assert stores(project) == ["rel.sqlite3"]


def test_an_unusable_memhooks_root_is_said_once(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rooting the relative store looks for the root too: the command says an unusable
    ``MEMHOOKS_ROOT`` once, as with an absolute store (review6: twice)."""
    monkeypatch.setenv("MEMHOOKS_ROOT", str(project / "nonexistent"))
    assert remember("kept", project / "src" / "pkg", monkeypatch) == 0
    err = capsys.readouterr().err
    assert err.count("MEMHOOKS_ROOT ignored") == 1, err
    assert stores(project) == ["rel.sqlite3"]


def test_a_library_caller_is_told_where_commands_take_a_relative_store_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a library caller reaches a relative store unrooted (the CLI and the hook root
    it first): told the rule, not 'use an absolute path', which it no longer is."""
    from memhooks.backends.registry import store_ready

    monkeypatch.chdir(tmp_path)
    env = {"MEMHOOKS_STORE": "rel.sqlite3", "MEMHOOKS_CONFIG": str(tmp_path / "absent.toml")}
    assert store_ready(env) == (
        False,
        (
            f"MEMHOOKS_STORE 'rel.sqlite3' is relative and names no file from {tmp_path} (memhooks"
            " commands and the hook take it from the project root: memhooks.store.location.rooted)"
        ),
    )


CONFIG = '[backends.embedded]\npath = "{path}"\n'


def test_a_relative_config_file_is_taken_from_the_root_in_every_folder(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``MEMHOOKS_CONFIG=conf/memhooks.toml`` names one file per project, as a relative
    store does (newcomer6: in ``src/pkg`` it named ``src/pkg/conf/memhooks.toml``, MH028
    "names no file", while the same value worked at the root)."""
    (project / "conf").mkdir()
    store = tmp_path / "from-config.sqlite3"
    (project / "conf" / "memhooks.toml").write_text(CONFIG.format(path=store), encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_CONFIG", "conf/memhooks.toml")
    monkeypatch.delenv("MEMHOOKS_STORE", raising=False)
    for folder in (project, project / "src" / "pkg"):
        monkeypatch.chdir(folder)
        capsys.readouterr()
        assert main(["backends", "list", "--format", "json"]) == 0, capsys.readouterr().err
        listed = json.loads(capsys.readouterr().out)
        assert listed["config"]["path"] == str(project / "conf" / "memhooks.toml"), folder
    monkeypatch.chdir(project / "src" / "pkg")
    assert main(["remember", "--store", str(store), "the retry budget is four attempts: measured"]) == 0
    capsys.readouterr()
    assert main(["recall", ".", "--prompt", "retry budget", "--format", "json"]) == 0
    assert "four attempts: measured" in capsys.readouterr().out  # the store the root's file names
    # the hook reads the root's file from the payload's folder, whatever folder the host
    # runs it in: its mistake is said at the root's file, line and column
    (project / "conf" / "memhooks.toml").write_text("this is [not toml\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": str(project / "src"),
               "prompt": "why is the retry budget four attempts?"}  # fmt: skip
    env = {"MEMHOOKS_CONFIG": "conf/memhooks.toml", "HOME": os.environ["HOME"],
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    assert "MH028 memory unavailable" in (reply.note or ""), reply
    assert f"({project / 'conf' / 'memhooks.toml'}:1:6)" in (reply.note or ""), reply


def test_a_relative_config_naming_no_file_is_said_at_the_root_s_path(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The MH028 a typo gets names the file the value names from the root, in the CLI
    and on the hook's stderr line."""
    monkeypatch.setenv("MEMHOOKS_CONFIG", "typo.toml")
    monkeypatch.chdir(project / "src" / "pkg")
    capsys.readouterr()
    assert main(["backends", "list"]) == 1
    assert f"  --> {project / 'typo.toml'}\n" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": str(project / "src"),
               "prompt": "why is the retry budget four attempts?"}  # fmt: skip
    env = {"MEMHOOKS_CONFIG": "typo.toml", "MEMHOOKS_STORE": str(tmp_path / "none.sqlite3"),
           "HOME": os.environ["HOME"], "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    assert f"MH028 MEMHOOKS_CONFIG names no file ({project / 'typo.toml'})" in (reply.note or ""), reply


def _git(root: Path, *argv: str) -> str:
    import subprocess

    done = subprocess.run(["git", "-C", str(root), *argv], capture_output=True, text=True, check=True)
    return done.stdout


def test_a_relative_path_in_a_config_file_is_taken_from_the_file_s_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """store22: a project's ``memhooks.toml`` saying ``path = "mem.db"`` names the root's
    ``mem.db`` from every folder. It was taken from the process folder: ``remember`` in
    ``src/pkg`` wrote ``src/pkg/mem.db`` into the user's repository (``git status``
    showed it), and recall and the hook at the root opened another file and found
    nothing."""
    root = tmp_path / "proj"
    (root / "src" / "pkg").mkdir(parents=True)
    _git(root, "init", "-q")
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    (root / "memhooks.toml").write_text(CONFIG.format(path="mem.db"), encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "init")
    monkeypatch.setenv("MEMHOOKS_CONFIG", "memhooks.toml")  # from the root: the other rule
    monkeypatch.delenv("MEMHOOKS_STORE", raising=False)
    monkeypatch.chdir(root / "src" / "pkg")
    assert main(["remember", "the retry budget is four attempts: measured"]) == 0
    assert _git(root, "status", "--porcelain") == "?? mem.db\n"  # the configured file alone
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["recall", ".", "--prompt", "retry budget", "--format", "json"]) == 0
    assert "four attempts: measured" in capsys.readouterr().out
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": str(root),
               "prompt": "why is the retry budget four attempts?"}  # fmt: skip
    env = {"MEMHOOKS_CONFIG": "memhooks.toml", "HOME": os.environ["HOME"],
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    assert "four attempts: measured" in reply.stdout, reply
    assert reply.note is None
    assert _git(root, "status", "--porcelain") == "?? mem.db\n"


def test_a_relative_path_in_the_user_s_config_file_is_beside_it(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user's own ``config.toml`` (no ``MEMHOOKS_CONFIG``): ``path = "mem.db"`` is
    the file beside it (here ``stores/mem.sqlite3``), whatever project or folder a command runs in, and what
    ``backends list`` shows; ``~`` is the home folder."""
    from memhooks.backends import config_path

    monkeypatch.delenv("MEMHOOKS_STORE", raising=False)
    monkeypatch.delenv("MEMHOOKS_CONFIG", raising=False)
    config = Path(config_path())
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG.format(path="stores/mem.sqlite3"), encoding="utf-8")
    monkeypatch.chdir(project / "src" / "pkg")
    assert main(["remember", "the retry budget is four attempts: measured"]) == 0
    assert stores(config.parent) == ["stores/mem.sqlite3"] and stores(project) == []
    capsys.readouterr()
    assert main(["backends", "list", "--format", "json"]) == 0
    embedded = next(b for b in json.loads(capsys.readouterr().out)["backends"] if b["name"] == "embedded")
    assert embedded["settings"]["path"] == str(config.parent / "stores" / "mem.sqlite3")
    assert embedded["sources"]["path"] == f"{config}:2"
    config.write_text(CONFIG.format(path="~/home.db"), encoding="utf-8")
    assert main(["remember", "kept at home"]) == 0
    assert (Path(os.environ["HOME"]) / "home.db").is_file()


def test_only_the_file_s_paths_are_taken_from_its_folder() -> None:
    """The rule's one home (:meth:`memhooks.backends.config.Config.resolve`): a path
    setting of the file; an absolute one, another key, and a variable's value stay as
    they are (a relative store variable is rooted at the project root before:
    :mod:`memhooks.store.location`)."""
    from memhooks.backends.config import Config, settings_for

    config = Config("/etc/team/memhooks.toml", "", {"backends": {
        "embedded": {"path": "m.db"}, "mem0": {"path": "../mem0", "user_id": "u.db"},
        "generic": {"url": "x/y"}}})  # fmt: skip
    assert settings_for("embedded", config, env={})["path"] == "/etc/team/m.db"
    assert settings_for("mem0", config, env={}) == {"path": "/etc/mem0", "user_id": "u.db"}
    assert settings_for("generic", config, env={})["url"] == "x/y"
    given = settings_for("embedded", config, env={"MEMHOOKS_EMBEDDED_PATH": "rel.db"})
    assert given["path"] == "rel.db"
    absolute = Config("/etc/team/memhooks.toml", "", {"backends": {"embedded": {"path": "/srv/m.db"}}})
    assert settings_for("embedded", absolute, env={})["path"] == "/srv/m.db"


def test_mem0_s_folder_is_taken_from_the_root_too(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A relative ``MEMHOOKS_MEM0_PATH`` (Mem0's local folder) named ``src/pkg/mem0`` from
    ``src/pkg`` and ``mem0`` at the root: one rule for every place a variable names."""
    monkeypatch.setenv("MEMHOOKS_BACKEND", "mem0")
    monkeypatch.setenv("MEMHOOKS_MEM0_PATH", "mem0")
    for folder in (project, project / "src" / "pkg"):
        monkeypatch.chdir(folder)
        monkeypatch.setenv("MEMHOOKS_MEM0_PATH", "mem0")  # as a shell exports it
        capsys.readouterr()
        assert main(["backends", "list", "--format", "json"]) == 0
        [mem0] = [b for b in json.loads(capsys.readouterr().out)["backends"] if b["name"] == "mem0"]
        assert mem0["settings"]["path"] == str(project / "mem0")
