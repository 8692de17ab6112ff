"""A missing or unusable HOME is a clear error naming the variable — never folders made
where the user has no home (issue 22 item 4: as root, ``HOME=/nonexistent`` created
``/nonexistent/.local/...``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks import dirs
from memhooks.errors import HomeError

ROOT_HOOK = '---\nschema: memhooks/v2\nrecall_queries: ["What matters here?"]\n---\n'


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MEMHOOKS_"))}
    env["XDG_RUNTIME_DIR"] = os.environ["XDG_RUNTIME_DIR"]  # the sandbox's (conftest)
    return {**env, "HOME": str(home), **extra}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    return root


def test_each_folder_names_home_and_the_settings_that_move_it(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    with pytest.raises(HomeError) as caught:
        dirs.state_dir({"HOME": str(gone)})
    assert str(caught.value) == (
        f"HOME `{gone}` does not exist, and memhooks keeps the hook's state file under it"
        " (~/.local/state/memhooks); set HOME to your home folder, or set XDG_STATE_HOME or"
        " MEMHOOKS_STATE_DIR to a folder"
    )
    with pytest.raises(HomeError, match="HOME `relative/home` is not an absolute path"):
        dirs.data_dir({"HOME": "relative/home"})
    (tmp_path / "a-file").write_text("")
    with pytest.raises(HomeError, match="is not a folder, and memhooks keeps its caches"):
        dirs.cache_dir({"HOME": str(tmp_path / "a-file")})
    # an XDG folder does not need the home folder
    assert dirs.cache_dir({"HOME": str(gone), "XDG_CACHE_HOME": str(tmp_path)}) == str(
        tmp_path / "memhooks"
    )
    assert dirs.home({"HOME": str(tmp_path)}) == str(tmp_path)


@pytest.mark.parametrize("env", [{}, {"HOME": ""}], ids=["unset", "empty"])
def test_no_home_is_an_error_never_the_account_home(env: dict[str, str]) -> None:
    """Unset or empty, HOME names no folder: the account's home from the password
    database is not taken instead (newcomer trial #1: as root with HOME unset, memhooks
    wrote /root/.local/...). Only the folder rule is tested: a command run this way on
    code that falls back would write into the real home."""
    with pytest.raises(HomeError) as caught:
        dirs.state_dir(env)
    assert str(caught.value) == (
        "HOME is not set, and memhooks keeps the hook's state file under it"
        " (~/.local/state/memhooks); set HOME to your home folder, or set XDG_STATE_HOME or"
        " MEMHOOKS_STATE_DIR to a folder"
    )
    with pytest.raises(HomeError, match="^HOME is not set$"):
        dirs.home(env)


def test_commands_fail_naming_home_and_create_nothing(project: Path, tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    for argv in (["remember", "x", "--cwd", str(project)], ["sessions"],
                 ["agents", "install", "--agent", "claude-code", "--cwd", str(project)]):  # fmt: skip
        done = subprocess.run([sys.executable, "-m", "memhooks", *argv], env=_env(gone),
                              capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
        assert done.returncode == 1, argv
        assert done.stderr.startswith(f"error[MH037]: HOME `{gone}` does not exist"), done.stderr
        command = " ".join(argv[:2]) if argv[0] == "agents" else argv[0]  # with its action
        assert f"\n  --> memhooks {command}\n" in done.stderr  # coded, at the command
        assert not gone.exists(), argv


def test_the_hook_recalls_and_says_why_it_keeps_no_session(project: Path, tmp_path: Path) -> None:
    from memhooks.store import MemoryStore, project_id

    store = tmp_path / "store.sqlite3"
    with MemoryStore(str(store)) as s:
        s.add(project_id(str(project)), "What matters here: the secret-sauce constraint")
    gone = tmp_path / "gone"
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": str(project),
               "prompt": "what matters here"}  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=json.dumps(payload), env=_env(gone, MEMHOOKS_STORE=str(store)),
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0
    assert "secret-sauce" in done.stdout
    runtime = os.environ["XDG_RUNTIME_DIR"]
    assert done.stderr == (
        f"memhooks hook: MH037 HOME `{gone}` does not exist: no session file (set HOME, or"
        f" MEMHOOKS_STATE_DIR); this session is kept in {runtime}/memhooks\n"
    )
    assert not gone.exists()


def test_the_hook_says_a_missing_home_once_in_one_short_line(project: Path) -> None:
    """Newcomer trial #4: with HOME unset, the store and the session file each said so in
    a long note of its own (~500 characters, "HOME is not set" twice)."""
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": str(project),
               "prompt": "what matters here"}  # fmt: skip
    env = {k: v for k, v in _env(project).items() if k != "HOME"}
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=json.dumps(payload), env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0
    runtime = os.environ["XDG_RUNTIME_DIR"]
    assert done.stderr == (
        "memhooks hook: MH037 HOME is not set: no memory store or session file (set HOME, or"
        f" MEMHOOKS_STORE and MEMHOOKS_STATE_DIR); this session is kept in {runtime}/memhooks\n"
    )


def test_the_runtime_folder_is_private_or_not_used(tmp_path: Path) -> None:
    """The hook keeps a session there when the state folder cannot be used: in a shared
    temporary folder anyone could make that name first, so only a real folder of ours
    that nobody else may enter will do."""
    env = {"XDG_RUNTIME_DIR": str(tmp_path / "missing"), "TMPDIR": str(tmp_path)}
    made = dirs.runtime_dir(env)
    assert made == str(tmp_path / f"memhooks-{os.getuid()}")
    assert oct(os.stat(made).st_mode & 0o777) == "0o700"
    os.chmod(made, 0o755)  # others may enter: not private
    assert dirs.runtime_dir(env) is None
    os.rmdir(made)
    os.symlink(tmp_path, made)  # a planted link
    assert dirs.runtime_dir(env) is None
    os.unlink(made)
    os.mkdir(made, 0o700)
    if os.geteuid() == 0:  # only root can give a folder away
        os.chown(made, os.getuid() + 4242, -1)  # another user's private folder
        assert dirs.runtime_dir(env) is None
        os.chown(made, os.getuid(), -1)
    os.chmod(made, 0o720)  # the group may write into it
    assert dirs.runtime_dir(env) is None
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    assert dirs.runtime_dir({"XDG_RUNTIME_DIR": str(run)}) == str(run / "memhooks")
