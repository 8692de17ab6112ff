"""``agents install --mcp``: the ``memhooks`` MCP server entry in each host's MCP config.

``data/mcp/<agent>.before.json`` (other servers, comments, trailing commas) is put where
the host reads MCP servers at every level memhooks supports for it, installed into
plainly, then with ``--mcp`` (must equal ``<agent>.after.json``); both installs are
idempotent, ``uninstall --mcp`` goes back to the plain install byte for byte and
``uninstall`` to ``before``.

Regenerate the expected files after a deliberate change with ``REGOLD_MCP=1``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.install import INSTALLERS, Context, InstallError, apply, mcp_servers, plan

DATA = Path(__file__).parent / "data" / "mcp"
EXE = ["/opt/memhooks/bin/memhooks"]
CASES = sorted(p.name.split(".before.")[0] for p in DATA.glob("*.before.json"))
LEVELS = [
    (agent, level)
    for agent in CASES
    for level, rel in zip(("project", "user"), mcp_servers.locations()[agent][:2])
    if rel is not None
]


def context(tmp_path: Path, level: str = "project", exe: list[str] = EXE) -> Context:
    return Context(str(tmp_path / "proj"), level, home=str(tmp_path / "home"), exe=exe, env={})


def expect(path: Path, text: str) -> None:
    if os.environ.get("REGOLD_MCP") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), path.name


def registered(agent: str, ctx: Context) -> bool:
    found = mcp_servers.report(agent, ctx)
    assert found is not None
    return bool(found["registered"])


def test_cases_cover_every_supported_host() -> None:
    assert set(CASES) == set(mcp_servers.locations())
    assert set(mcp_servers.locations()) <= set(INSTALLERS)


@pytest.mark.parametrize(("agent", "level"), LEVELS)
def test_the_server_merges_in_and_comes_out_again(agent: str, level: str, tmp_path: Path) -> None:
    ctx = context(tmp_path, level)
    (tmp_path / "proj").mkdir()
    found = mcp_servers.location(agent, ctx)
    assert found is not None
    target = Path(found[0])
    target.parent.mkdir(parents=True, exist_ok=True)
    before = (DATA / f"{agent}.before.json").read_text(encoding="utf-8")
    target.write_text(before, encoding="utf-8")

    apply(plan("install", agent, ctx))
    plain = target.read_text(encoding="utf-8")
    assert not registered(agent, ctx)

    apply(plan("install", agent, ctx, mcp=True))
    expect(DATA / f"{agent}.after.json", target.read_text(encoding="utf-8"))
    assert registered(agent, ctx)
    assert plan("install", agent, ctx, mcp=True) == []
    assert plan("install", agent, ctx) == [], "a plain install must keep the server"

    apply(plan("uninstall", agent, ctx, mcp=True))
    assert target.read_text(encoding="utf-8") == plain
    assert plan("uninstall", agent, ctx, mcp=True) == []

    apply(plan("install", agent, ctx, mcp=True))
    apply(plan("uninstall", agent, ctx))
    assert target.read_text(encoding="utf-8") == before


@pytest.mark.parametrize(("agent", "level"), LEVELS)
def test_from_nothing_and_back(agent: str, level: str, tmp_path: Path) -> None:
    ctx = context(tmp_path, level)
    (tmp_path / "proj").mkdir()
    (tmp_path / "home").mkdir()
    apply(plan("install", agent, ctx, mcp=True))
    path = mcp_servers.location(agent, ctx)[0]  # type: ignore[index]
    servers = json.loads(Path(path).read_text(encoding="utf-8"))
    key = mcp_servers.locations()[agent][2]
    assert servers[key]["memhooks"]["command"] == EXE[0]
    apply(plan("uninstall", agent, ctx))
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_uninstall_mcp_keeps_the_hooks_and_uninstall_capture_keeps_the_server(
    tmp_path: Path,
) -> None:
    ctx = context(tmp_path)
    (tmp_path / "proj").mkdir()
    apply(plan("install", "cursor", ctx, capture=True, mcp=True))
    hooks = Path(INSTALLERS["cursor"].config_path(ctx)).read_text()
    apply(plan("uninstall", "cursor", ctx, mcp=True))
    assert not registered("cursor", ctx)
    assert Path(INSTALLERS["cursor"].config_path(ctx)).read_text() == hooks  # type: ignore[attr-defined]
    apply(plan("install", "cursor", ctx, mcp=True))
    apply(plan("uninstall", "cursor", ctx, capture=True))
    assert registered("cursor", ctx)


def test_a_new_path_updates_our_keys_and_keeps_the_users(tmp_path: Path) -> None:
    ctx = context(tmp_path, exe=["/old/venv/bin/memhooks"])
    target = tmp_path / "proj" / ".cursor" / "mcp.json"
    target.parent.mkdir(parents=True)
    target.write_text(
        '{"mcpServers": {"memhooks": {"command": "/old/venv/bin/memhooks", "args": ["mcp"],'
        ' "env": {"MEMHOOKS_STORE": "/data/team.db"}}}}\n'
    )
    apply(plan("install", "cursor", context(tmp_path), mcp=True))
    entry = json.loads(target.read_text())["mcpServers"]["memhooks"]
    assert entry == {"command": EXE[0], "args": ["mcp"], "env": {"MEMHOOKS_STORE": "/data/team.db"}}
    assert plan("install", "cursor", ctx, mcp=True) != []


def test_python_dash_m_is_recognised_as_ours(tmp_path: Path) -> None:
    exe = ["/usr/bin/python3", "-m", "memhooks"]
    ctx = context(tmp_path, exe=exe)
    (tmp_path / "proj").mkdir()
    apply(plan("install", "kiro", ctx, mcp=True))
    entry = mcp_servers.entry("kiro", ctx)
    assert entry == {"command": "/usr/bin/python3", "args": ["-m", "memhooks", "mcp"]}
    assert registered("kiro", ctx)


def test_an_entry_named_memhooks_that_runs_something_else_is_left_alone(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    target = tmp_path / "proj" / ".mcp.json"
    target.parent.mkdir(parents=True)
    foreign = '{"mcpServers": {"memhooks": {"command": "node", "args": ["my-memhooks.js"]}}}\n'
    target.write_text(foreign)
    with pytest.raises(InstallError, match=r"mcpServers\.memhooks does not run `memhooks mcp`"):
        plan("install", "claude-code", ctx, mcp=True)
    assert not registered("claude-code", ctx)
    apply(plan("uninstall", "claude-code", ctx))
    assert target.read_text() == foreign


def test_hosts_and_levels_without_a_known_location_change_nothing(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    ctx = context(tmp_path, "user")
    assert mcp_servers.report("kiro", ctx) is None
    assert mcp_servers.report("opencode", context(tmp_path)) is None
    with_mcp = plan("install", "opencode", context(tmp_path), mcp=True)
    plain = plan("install", "opencode", context(tmp_path))
    assert [(e.path, e.text) for e in with_mcp] == [(e.path, e.text) for e in plain]
    assert plan("uninstall", "kiro", ctx, mcp=True) == []


def test_cli_status_says_whether_the_server_is_registered(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    proj = str(tmp_path / "proj")

    def cli(*args: str, agents: tuple[str, ...] = ("gemini-cli",)) -> str:
        options = [word for agent in agents for word in ("--agent", agent)]
        return subprocess.run(
            [sys.executable, "-m", "memhooks", "agents", *args, *options, "--cwd", proj],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    exe = mcp_servers.entry("gemini-cli", Context(proj))["command"]
    settings = os.path.join(proj, ".gemini", "settings.json")
    # a project-level install: the suggested command keeps the level
    assert (
        "gemini-cli:   mcp server: not registered (memhooks agents install --agent gemini-cli --project --mcp)"
        in cli("status", "--project")
    )
    cli("install", "--project", "--mcp")
    assert f"gemini-cli:   mcp server: registered in {settings}" in cli("status")
    report = json.loads(cli("status", "--format", "json"))
    assert report["agents"][0]["mcp_server"] == {"path": settings, "registered": True}
    assert json.loads(Path(settings).read_text())["mcpServers"]["memhooks"]["command"] == exe
    cli("uninstall", "--mcp")  # every level where memhooks is installed
    assert "gemini-cli: installed (project)" in cli("status")
    assert "mcp server: not registered" in cli("status")
    out = cli("status", agents=("opencode", "hermes"))
    assert (
        "opencode:   mcp server: not supported by memhooks yet (user level; see docs/mcp.md)"
        in out
    )
    assert (
        "hermes:   mcp server: not supported by memhooks yet (user level; see docs/mcp.md)" in out
    )


NO_SDK = str(Path(__file__).parent / "data" / "no_mcp_sdk")


def _run(home: Path, *args: str, sdk: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / ".local/share")}
    if not sdk:
        env["PYTHONPATH"] = os.pathsep.join([NO_SDK, *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run([sys.executable, "-m", "memhooks", "agents", *args, "--cwd", str(home)],
                          capture_output=True, text=True, env=env, timeout=120, check=False)  # fmt: skip


MH046 = (
    "error[MH046]: the MCP server needs the optional MCP SDK, not installed (mcp cannot be"
    " imported): pip install 'memhooks[mcp]'"
)


@pytest.mark.skipif(os.name == "nt", reason="the launcher is a POSIX shell script")
def test_install_mcp_without_the_sdk_refuses_and_writes_nothing(tmp_path: Path) -> None:
    """It registered a server that exits 2 (MH046) at every host start (newcomer14)."""
    done = _run(tmp_path, "install", "--agent", "claude-code", "--mcp", sdk=False)
    assert done.returncode == 2
    assert done.stderr == (
        f"{MH046}\n  --> memhooks agents install\n  help: install the extra the message names into the"
        " environment memhooks runs in, then run the command again\n"
    )
    assert done.stdout == "" and list(tmp_path.iterdir()) == []
    assert _run(tmp_path, "install", "--agent", "claude-code", sdk=False).returncode == 0


@pytest.mark.skipif(os.name == "nt", reason="the launcher is a POSIX shell script")
def test_check_fails_a_registered_server_that_cannot_start(tmp_path: Path) -> None:
    """``agents check`` passed while the registered server could not import its SDK."""
    assert _run(tmp_path, "install", "--agent", "claude-code", "--mcp").returncode == 0
    server = f"{tmp_path}/.local/share/memhooks/bin/memhooks mcp"
    done = _run(tmp_path, "check", "--agent", "claude-code")
    assert done.returncode == 0, done.stdout
    assert f"claude-code:   command: {server}" in done.stdout
    assert done.stdout.splitlines()[-1] == "2 of 2 checks passed"
    done = _run(tmp_path, "check", "--agent", "claude-code", sdk=False)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    at = lines.index("claude-code (user): MCP server: FAILED")
    assert lines[at + 1 : at + 3] == [
        (
            f"claude-code:   problem: the MCP server exits 2 at start: {MH046}; help: install"
            " the extra the message names into the environment memhooks runs in, then run the"
            " command again"
        ),
        f"claude-code:   command: {server}",
    ]
    assert lines[-1] == "1 of 2 checks passed"
