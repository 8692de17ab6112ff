"""Plugins and extensions (Claude Code, Codex, Gemini CLI): the committed files are what
memhooks generates, wire exactly what ``agents install`` wires, carry the skill, the MCP
server and memhooks' version, and pass each host's published manifest rules (the real
CLIs' own validate commands run in the opt-in e2e suite); ``agents install`` never wires
a host twice when our plugin is there, and ``agents status`` says which path is active."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import jsonschema
import pytest

import memhooks
from memhooks.install import Context, apply, launcher, plan, plugin_state, plugins, status
from memhooks.install.command import is_ours, sourced, sourcing
from memhooks.install.hosts import INSTALLERS

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "plugins"
HOSTS = ("claude-code", "codex", "copilot-cli", "cursor", "gemini-cli")
#: hosts whose hook entries are flat (no Claude-style {"matcher", "hooks": [...]} groups)
FLAT = ("copilot-cli", "cursor")


def test_the_hosts_with_a_plugin_mechanism_have_one() -> None:
    assert tuple(plugins.hosts()) == HOSTS


def test_the_committed_plugins_are_what_memhooks_generates() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts/gen_plugins.py"), "--check"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, f"run `python scripts/gen_plugins.py`:\n{done.stdout}"


@pytest.mark.parametrize("agent", HOSTS)
def test_a_plugin_wires_what_agents_install_wires(agent: str) -> None:
    host = INSTALLERS[agent]
    hooks = json.loads((ROOT / plugins.IN_REPO / agent / host.wiring["plugin"]["hooks"]).read_text())["hooks"]
    installed = host.entries(Context("/", "user", home="/", env={}, exe=["/x/memhooks"]))
    assert list(hooks) == list(installed)  # the same events, from the same row
    root = host.wiring["plugin"]["root_var"]
    for event, entries in hooks.items():
        for got, want in zip(entries, installed[event], strict=True):
            assert got.get("matcher") == want.get("matcher")
            key = "bash" if agent == "copilot-cli" else "command"
            command = got[key] if agent in FLAT else got["hooks"][0][key]
            wanted = want[key] if agent in FLAT else want["hooks"][0][key]
            assert is_ours(command)
            if INSTALLERS[agent].wiring.get("shell"):  # read into the shell the host runs it in
                assert wanted.startswith("/x/memhooks ") and sourced(command) == f"${{{root}}}/bin/memhooks"
                assert command == sourcing(f"${{{root}}}/bin/memhooks", shlex.split(wanted)[1:], expand=True)
            else:
                assert command == wanted.replace("/x/memhooks", f'sh "${{{root}}}/bin/memhooks"', 1)


@pytest.mark.parametrize("agent", HOSTS)
def test_a_plugin_carries_the_skill_the_mcp_server_and_this_version(agent: str) -> None:
    folder = ROOT / plugins.IN_REPO / agent
    skill = ROOT / "src/memhooks/skill"
    for path in skill.rglob("*.md"):
        assert (folder / "skills/memhooks" / path.relative_to(skill)).read_text() == path.read_text()
    manifest = json.loads((folder / INSTALLERS[agent].wiring["plugin"]["manifest"]).read_text())
    assert manifest["name"] == "memhooks" and manifest["version"] == memhooks.__version__
    mcp = folder / INSTALLERS[agent].wiring["plugin"].get("mcp_file", ".mcp.json")
    servers = manifest["mcpServers"] if agent == "gemini-cli" else json.loads(mcp.read_text())["mcpServers"]
    assert servers["memhooks"]["command"] == "sh"
    assert servers["memhooks"]["args"][-1] == "mcp"
    assert os.access(folder / "bin/memhooks", os.X_OK)


def test_one_home_for_the_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "memhooks.__version__"}
    claude = json.loads((ROOT / plugins.CLAUDE_MARKETPLACE).read_text())
    assert [p["version"] for p in claude["plugins"]] == [memhooks.__version__]


def test_the_cli_every_plugin_and_every_marketplace_say_one_version() -> None:
    # the version pip installed (the distribution's metadata, not memhooks.__version__ the
    # CLI prints from: comparing it with itself could not fail)
    installed = metadata.version("memhooks")
    cli = subprocess.run([sys.executable, "-m", "memhooks", "--version"], capture_output=True, text=True, timeout=60, check=True)
    assert cli.stdout.split() == ["memhooks", installed]
    said: dict[str, list[str]] = {}
    for rel in plugins.tree():  # every generated manifest and marketplace, in the repo and the package
        if not rel.endswith(".json") or "/hooks" in rel or rel.endswith("hooks.json") or "mcp" in rel:
            continue
        body = json.loads((ROOT / rel).read_text())
        versions = [body["version"]] if "version" in body else []
        versions += [entry["version"] for entry in body.get("plugins", []) if "version" in entry]
        said[rel] = versions
    manifests = [INSTALLERS[agent].wiring["plugin"]["manifest"] for agent in HOSTS]
    assert all(said[f"{plugins.IN_REPO}/{agent}/{m}"] for agent, m in zip(HOSTS, manifests))
    assert {v for versions in said.values() for v in versions} == {installed}, said


@pytest.mark.parametrize(
    ("schema", "manifest"),
    [
        ("claude-plugin.schema.json", "src/memhooks/plugins/claude-code/.claude-plugin/plugin.json"),
        ("claude-marketplace.schema.json", ".claude-plugin/marketplace.json"),
        ("claude-marketplace.schema.json", "src/memhooks/plugins/.claude-plugin/marketplace.json"),
        ("command-hooks.schema.json", "src/memhooks/plugins/claude-code/hooks/hooks.json"),
        ("codex-plugin.schema.json", "src/memhooks/plugins/codex/.codex-plugin/plugin.json"),
        ("codex-marketplace.schema.json", ".agents/plugins/marketplace.json"),
        ("codex-marketplace.schema.json", "src/memhooks/plugins/.agents/plugins/marketplace.json"),
        ("command-hooks.schema.json", "src/memhooks/plugins/codex/hooks/hooks.json"),
        ("gemini-extension.schema.json", "src/memhooks/plugins/gemini-cli/gemini-extension.json"),
        ("copilot-plugin.schema.json", "src/memhooks/plugins/copilot-cli/plugin.json"),
        ("copilot-hooks.schema.json", "src/memhooks/plugins/copilot-cli/hooks.json"),
        ("claude-marketplace.schema.json", ".github/plugin/marketplace.json"),
        ("claude-marketplace.schema.json", "src/memhooks/plugins/.github/plugin/marketplace.json"),
        ("gemini-hooks.schema.json", "src/memhooks/plugins/gemini-cli/hooks/hooks.json"),
        ("cursor-plugin.schema.json", "src/memhooks/plugins/cursor/.cursor-plugin/plugin.json"),
        ("cursor-marketplace.schema.json", ".cursor-plugin/marketplace.json"),
        ("cursor-marketplace.schema.json", "src/memhooks/plugins/.cursor-plugin/marketplace.json"),
        ("cursor-hooks.schema.json", "src/memhooks/plugins/cursor/hooks/hooks.json"),
    ],
)
def test_the_committed_manifests_follow_the_hosts_rules(schema: str, manifest: str) -> None:
    rules = json.loads((DATA / "schemas" / schema).read_text())
    jsonschema.validate(json.loads((ROOT / manifest).read_text()), rules)


def test_a_marketplace_points_at_its_plugin() -> None:
    for market, base in ((plugins.CLAUDE_MARKETPLACE, ROOT), (f"{plugins.IN_REPO}/{plugins.CLAUDE_MARKETPLACE}", ROOT / plugins.IN_REPO)):
        (entry,) = json.loads((ROOT / market).read_text())["plugins"]
        assert (base / entry["source"] / ".claude-plugin/plugin.json").is_file()
    for market, base in ((plugins.COPILOT_MARKETPLACE, ROOT), (f"{plugins.IN_REPO}/{plugins.COPILOT_MARKETPLACE}", ROOT / plugins.IN_REPO)):
        (entry,) = json.loads((ROOT / market).read_text())["plugins"]
        assert (base / entry["source"] / "plugin.json").is_file()
    for market, base in ((plugins.CODEX_MARKETPLACE, ROOT), (f"{plugins.IN_REPO}/{plugins.CODEX_MARKETPLACE}", ROOT / plugins.IN_REPO)):
        (entry,) = json.loads((ROOT / market).read_text())["plugins"]
        assert (base / entry["source"]["path"] / ".codex-plugin/plugin.json").is_file()


def test_the_cursor_plugin_passes_the_checks_of_cursors_plugin_template() -> None:
    """cursor/plugin-template's validator: a marketplace entry's name is its plugin's, the
    paths the manifest names exist inside the plugin, each SKILL.md has a name and a
    description in its frontmatter."""
    for market, base in ((plugins.CURSOR_MARKETPLACE, ROOT), (f"{plugins.IN_REPO}/{plugins.CURSOR_MARKETPLACE}", ROOT / plugins.IN_REPO)):
        (entry,) = json.loads((ROOT / market).read_text())["plugins"]
        folder = (base / entry["source"]).resolve()
        assert folder.is_relative_to(base.resolve())
        manifest = json.loads((folder / ".cursor-plugin/plugin.json").read_text())
        assert manifest["name"] == entry["name"] == "memhooks"
        for field in ("skills", "hooks", "mcpServers"):
            assert (folder / manifest[field]).resolve().is_relative_to(folder) and (folder / manifest[field]).exists()
        skills = list((folder / "skills").rglob("SKILL.md"))
        assert skills
        for path in skills:
            head = path.read_text().split("---\n")[1]
            fields = dict(line.split(":", 1) for line in head.splitlines() if ":" in line and not line.startswith(" "))
            assert fields.get("name", "").strip() and fields.get("description", "").strip()


# -- the plugin's bin/memhooks ------------------------------------------------------------


def _run(agent: str, env: dict[str, str], payload: dict[str, object]) -> subprocess.CompletedProcess[str]:
    script = ROOT / plugins.IN_REPO / agent / "bin/memhooks"
    command = json.loads((ROOT / plugins.IN_REPO / agent / INSTALLERS[agent].wiring["plugin"]["hooks"]).read_text())
    entry = next(iter(command["hooks"].values()))[0]
    first = entry["bash"] if agent == "copilot-cli" else entry["command"] if agent == "cursor" else entry["hooks"][0]["command"]
    root = INSTALLERS[agent].wiring["plugin"]["root_var"]
    line = first.replace(f"${{{root}}}", str(script.parent.parent))
    shell = "/bin/bash" if INSTALLERS[agent].wiring.get("shell") == "bash" else "/bin/sh"  # as the host runs it
    return subprocess.run([shell, "-c", line], input=json.dumps(payload), text=True, capture_output=True, env=env, cwd="/", timeout=60, check=False)


def _home_env(tmp_path: Path, path: str = "/usr/bin:/bin") -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "PATH": path, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_the_plugin_runs_the_launcher_agents_install_wrote(tmp_path: Path) -> None:
    env = _home_env(tmp_path)
    ctx = Context(str(tmp_path), "user", home=env["HOME"], env=env)

    apply(launcher.plan(ctx))
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path), "session_id": "s", "prompt": "x"}
    done = _run("claude-code", env, payload)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")  # no project here: the no-op


def test_without_a_launcher_the_plugin_runs_the_memhooks_on_path(tmp_path: Path) -> None:
    env = _home_env(tmp_path, f"{os.path.dirname(sys.executable)}:/usr/bin:/bin")
    done = _run("gemini-cli", env, {"hook_event_name": "BeforeAgent", "cwd": str(tmp_path), "session_id": "s", "prompt": "x"})
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "{}", "")  # Gemini's no-op, from memhooks


@pytest.mark.parametrize("agent", HOSTS)
def test_without_any_memhooks_the_plugin_fails_open_saying_what_to_install(agent: str, tmp_path: Path) -> None:
    done = _run(agent, _home_env(tmp_path), {"hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path), "session_id": "s"})
    assert done.returncode == 0
    said = done.stderr.strip()
    assert "pipx install memhooks" in said and len(said.splitlines()) == 1
    reply = json.loads(done.stdout)  # Copilot CLI and Cursor show no hook message: their no-op
    assert reply == ({} if agent in ("copilot-cli", "cursor") else {"systemMessage": said})


# -- which path is active -----------------------------------------------------------------


def host_hooks(agent: str) -> list[str]:
    return INSTALLERS[agent].wiring["plugin"]["hooks"].split("/")


def _plugin_home(tmp_path: Path, agent: str, enabled: bool = True) -> Path:
    """A home where ``agent`` installed our plugin: the files the real CLI wrote (recorded
    shapes in data/plugins/), pointing at a copy of the committed plugin."""
    home = tmp_path / "home"
    source = ROOT / plugins.IN_REPO / agent
    if agent == "claude-code":
        cache = home / ".claude/plugins/cache/memhooks/memhooks" / memhooks.__version__
        record = json.loads((DATA / "claude-installed_plugins.json").read_text())
        record["plugins"]["memhooks@memhooks"][0]["installPath"] = str(cache)
        (home / ".claude/plugins").mkdir(parents=True, exist_ok=True)
        (home / ".claude/plugins/installed_plugins.json").write_text(json.dumps(record))
        settings = home / ".claude/settings.json"
        kept = json.loads(settings.read_text()) if settings.exists() else {}
        settings.write_text(json.dumps({**kept, "enabledPlugins": {"memhooks@memhooks": enabled}}))
    elif agent == "codex":
        cache = home / ".codex/plugins/cache/memhooks/memhooks" / memhooks.__version__
        (home / ".codex").mkdir(parents=True, exist_ok=True)
        (home / ".codex/config.toml").write_text(f'[plugins."memhooks@memhooks"]\nenabled = {str(enabled).lower()}\n')
    elif agent == "copilot-cli":
        cache = home / ".copilot/installed-plugins/memhooks/memhooks"
        (home / ".copilot").mkdir(parents=True, exist_ok=True)
        record = (DATA / "copilot-config.json").read_text().replace("/home/user", str(home))
        (home / ".copilot/config.json").write_text(record.replace('"enabled": true', f'"enabled": {str(enabled).lower()}'))
    elif agent == "cursor":  # a marketplace install; where it records one switched off is unknown
        cache = home / ".cursor/plugins/cache/memhooks/memhooks/0123abc"
    else:
        cache = home / ".gemini/extensions/memhooks"
        (home / ".gemini/extensions").mkdir(parents=True, exist_ok=True)
        rule = str(tmp_path) + "/*"
        (home / ".gemini/extensions/extension-enablement.json").write_text(json.dumps({"memhooks": {"overrides": [rule if enabled else "!" + rule]}}))
    cache.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, cache)
    return home


@pytest.mark.parametrize("agent", HOSTS)
@pytest.mark.parametrize("enabled", [True, False])
def test_active_reads_whether_the_host_has_our_plugin(agent: str, enabled: bool, tmp_path: Path) -> None:
    if agent == "cursor" and not enabled:
        pytest.skip("where Cursor records a plugin switched off is not known: installed counts as on")
    home = _plugin_home(tmp_path, agent, enabled)
    found = plugin_state.active(INSTALLERS[agent], Context(str(tmp_path / "proj"), "user", home=str(home), env={}))
    assert found is not None and found.enabled is enabled
    assert set(found.hooks()) == set(INSTALLERS[agent].EVENTS)
    assert plugin_state.active(INSTALLERS[agent], Context(str(tmp_path), "user", home=str(tmp_path / "other"), env={})) is None


@pytest.mark.parametrize("agent", HOSTS)
def test_with_the_plugin_agents_install_wires_nothing_twice(agent: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    ctx = Context(str(tmp_path / "proj"), "user", home=str(home), env={"XDG_DATA_HOME": str(home / ".local/share")})
    apply(plan("install", agent, ctx))  # the settings path first
    assert status(agent, ctx).installed and status(agent, ctx).plugin is None
    _plugin_home(tmp_path, agent)
    both = status(agent, ctx)
    assert any("wired twice" in note for note in both.notes), both.notes
    edits = plan("install", agent, ctx)
    apply(edits)
    assert plan("install", agent, ctx) == []
    found = status(agent, ctx)
    assert found.plugin is not None and found.installed
    assert found.fires is (None if agent == "codex" else True)  # Codex: after its approval
    assert found.files == [os.path.join(str(found.plugin["path"]), *host_hooks(agent))]
    assert not any("wired twice" in note for note in found.notes)
    if agent == "cursor":  # no command removes a Cursor plugin: where to click
        assert "`memhooks agents uninstall` leaves the plugin: remove it in Cursor's Customize page (Plugins)" in found.notes
    host = INSTALLERS[agent]
    settings = (home / ".claude/settings.json") if agent == "claude-code" else Path(host.config_path(ctx))
    assert not (agent == "copilot-cli" and settings.exists())  # its own file went
    assert "hook --agent" not in (settings.read_text() if settings.exists() else "")
    assert os.path.isfile(str(ctx.launcher))  # the plugin's script runs it


def test_copilot_cli_loads_a_folder_marketplaces_plugin_in_place(tmp_path: Path) -> None:
    # what `copilot plugin marketplace add <clone>` then `copilot plugin install
    # memhooks@memhooks` wrote (run: 1.0.102): nothing copied, the clone's folder is used
    (tmp_path / ".copilot").mkdir()
    (tmp_path / ".copilot/settings.json").write_text(json.dumps({
        "extraKnownMarketplaces": {"memhooks": {"source": {"source": "directory", "path": str(ROOT)}}},
        "enabledPlugins": {"memhooks@memhooks": True}}))  # fmt: skip
    found = plugin_state.active(INSTALLERS["copilot-cli"], Context(str(tmp_path), "user", home=str(tmp_path), env={}))
    assert found is not None and found.enabled and found.ref == "memhooks@memhooks"
    assert found.path == str(ROOT / plugins.IN_REPO / "copilot-cli")
    assert set(found.hooks()) == set(INSTALLERS["copilot-cli"].EVENTS)
