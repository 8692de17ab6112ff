"""Record the development set: real agent CLIs, offline, working on a small project.

    python bench/conversations/record.py [--out bench/conversations/recorded]

Plays ``sessions.json`` in order on a copy of ``project/`` (a git repository made here):
each session runs in its host's real CLI (Claude Code, Codex, Gemini CLI, Copilot CLI,
installed in ``MEMHOOKS_E2E_AGENTS``, default ``/tmp/memhooks-e2e-agents``; see
``tests/e2e/conftest.py``), one CLI run per turn, the later turns resuming the session
(``--resume``, ``codex exec resume``), against ``tests/e2e/fake_llm.py`` on 127.0.0.1:
the fake model makes the turn's scripted tool calls (reads, edits, shell commands: the
CLI really runs them on the project) and then says the turn's reply. Everything runs
with its own HOME; nothing leaves the machine.

Written to ``--out``: ``home/`` with the session files each host kept, exactly as it
wrote them but for two paths made neutral (the project is ``/home/user/uptime``, the
home ``/home/user``), ``final/`` (the project as the sessions left it) and
``manifest.json`` (session name -> host, session id, file). Run it again after a host's
format changes; the readers' tests and ``measure.py`` read what it wrote.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from fake_llm import FakeLLM

AGENTS = Path(os.environ.get("MEMHOOKS_E2E_AGENTS", "/tmp/memhooks-e2e-agents"))
PROJECT, HOME = "/home/user/uptime", "/home/user"
CODEX_FLAGS = ["--dangerously-bypass-hook-trust", "-m", "gpt-5.5", "--disable", "plugins", "--disable", "apps",
               "--disable", "remote_plugin", "--disable", "plugin_sharing", "-c", "analytics.enabled=false"]  # fmt: skip


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MEMHOOKS_", "ANTHROPIC", "OPENAI", "GEMINI", "COPILOT", "CLAUDE", "CODEX"))}  # fmt: skip
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               XDG_STATE_HOME=str(home / ".local/state"), XDG_CACHE_HOME=str(home / ".cache"), GIT_CONFIG_NOSYSTEM="1")  # fmt: skip
    return env


def argv(
    host: str, project: Path, home: Path, url: str, prompt: str, session: str, first: bool
) -> tuple[list[str], dict[str, str]]:
    """The command line of one turn, and the variables it needs."""
    b = lambda name: str(AGENTS / "npm" / "bin" / name)
    if host == "claude-code":
        env = {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
               "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1"}  # fmt: skip
        which = ["--session-id", session] if first else ["--resume", session]
        return [
            b("claude"),
            "-p",
            prompt,
            "--permission-mode",
            "acceptEdits",
            "--allowedTools",
            "Bash",
            *which,
        ], env
    if host == "codex":
        (home / ".codex").mkdir(exist_ok=True)
        (home / ".codex" / "config.toml").write_text(
            f'model = "gpt-5.5"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "{url}/v1"\n'
            f'env_key = "FAKE_API_KEY"\nwire_api = "responses"\n\n[projects."{project}"]\ntrust_level = "trusted"\n'
        )
        if first:
            return [b("codex"), "exec", *CODEX_FLAGS, "-s", "workspace-write", prompt], {
                "FAKE_API_KEY": "dummy"
            }
        return [b("codex"), "exec", "resume", *CODEX_FLAGS, session, prompt], {
            "FAKE_API_KEY": "dummy"
        }
    if host == "gemini-cli":
        (home / ".gemini").mkdir(exist_ok=True)
        (home / ".gemini" / "settings.json").write_text(json.dumps({
            "security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False}, "general": {"disableAutoUpdate": True, "disableUpdateNag": True}}))  # fmt: skip
        env = {
            "GEMINI_API_KEY": "dummy",
            "GOOGLE_GEMINI_BASE_URL": url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }
        which = ["--session-id", session] if first else ["--resume", session]
        return [b("gemini"), "-p", prompt, "--approval-mode", "yolo", *which], env
    if host == "copilot-cli":
        env = {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{url}/v1", "COPILOT_PROVIDER_API_KEY": "dummy",
               "COPILOT_MODEL": "fake-model", "COPILOT_AUTO_UPDATE": "false", "COPILOT_ALLOW_ALL": "true"}  # fmt: skip
        return [
            b("copilot"),
            "-p",
            prompt,
            "--allow-all-tools",
            f"--{'session-id' if first else 'resume'}={session}",
        ], env
    raise ValueError(host)


def steps_for(host: str, project: Path, steps: list[dict[str, str]]) -> list[dict[str, str]]:
    """Script steps with paths as the host's tools want them: Codex's shell reads and patches
    take root-relative paths, every other host's tools absolute ones."""
    out = []
    for step in steps:
        step = dict(step)
        for key in ("read", "write", "edit"):
            if key in step and host != "codex":
                step[key] = str(project / step[key])
        out.append(step)
    return out


def play(session: dict[str, object], project: Path, home: Path, log: Path) -> str:
    """Run one session's turns; return the host's session id."""
    host = str(session["host"])
    sid = str(uuid.uuid4())
    for n, turn in enumerate(session["turns"]):  # type: ignore[arg-type]
        steps = steps_for(host, project, turn["steps"])
        with FakeLLM(script=steps, reply=turn["reply"], resume=True, log_path=str(log)) as srv:
            command, extra = argv(host, project, home, srv.base_url, turn["prompt"], sid, n == 0)
            done = subprocess.run(command, check=False, env={**environment(home), **extra}, cwd=project, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=300)  # fmt: skip
            if done.returncode != 0:
                raise SystemExit(
                    f"{session['name']} turn {n}: {host} exited {done.returncode}\n{done.stderr[-2000:]}"
                )
            if host == "codex" and n == 0:
                found = re.search(r"session id: ([0-9a-f-]{36})", done.stderr + done.stdout)
                sid = found.group(1) if found else sid
        print(
            f"  {session['name']} turn {n + 1}/{len(session['turns'])}: {host} ok", file=sys.stderr
        )  # type: ignore[arg-type]
    return sid


def kept_files(home: Path) -> list[Path]:
    """The session files the hosts kept under ``home`` (what the importer reads)."""
    found = sorted(home.glob(".claude/projects/*/*.jsonl"))
    found += sorted(home.glob(".codex/sessions/**/rollout-*.jsonl"))
    found += sorted(home.glob(".gemini/tmp/*/chats/session-*.json*")) + sorted(
        home.glob(".gemini/tmp/*/.project_root")
    )
    found += sorted(home.glob(".copilot/session-state/*/events.jsonl"))
    return found


def neutral_copy(home: Path, project: Path, out: Path) -> list[Path]:
    """Copy the kept session files to ``out/home`` with the project and home paths neutral."""
    written = []
    for path in kept_files(home):
        rel = path.relative_to(home)
        text = (
            path.read_text(encoding="utf-8").replace(str(project), PROJECT).replace(str(home), HOME)
        )
        parts = [p.replace(_slug(str(project)), _slug(PROJECT)) for p in rel.parts]
        target = out / "home" / Path(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def _slug(path: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "recorded")
    parser.add_argument("--sessions", type=Path, default=HERE / "sessions.json")
    args = parser.parse_args()
    sessions = json.loads(args.sessions.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="memhooks-devset-") as tmp:
        base = Path(tmp)
        project, home = base / "uptime", base / "home"
        shutil.copytree(HERE / "project", project)
        home.mkdir()
        git = ["git", "-c", "user.name=dev", "-c", "user.email=dev@example.invalid"]
        subprocess.run([*git, "init", "-q"], cwd=project, check=True, env=environment(home))
        subprocess.run([*git, "add", "-A"], cwd=project, check=True, env=environment(home))
        subprocess.run(
            [*git, "commit", "-qm", "uptime 0.2.0"], cwd=project, check=True, env=environment(home)
        )
        manifest = {}
        for session in sessions:
            before = set(kept_files(home))
            sid = play(session, project, home, base / "requests.jsonl")
            new = [p for p in kept_files(home) if p not in before and p.name != ".project_root"]
            manifest[session["name"]] = {"host": session["host"], "session": sid,
                                         "file": str(new[0].relative_to(home)) if new else None}  # fmt: skip
        if args.out.exists():
            shutil.rmtree(args.out)
        neutral_copy(home, project, args.out)
        shutil.copytree(
            project,
            args.out / "final",
            ignore=shutil.ignore_patterns(".git", "__pycache__", ".pytest_cache"),
        )
        neutral = {
            k: {**v, "file": v["file"] and v["file"].replace(_slug(str(project)), _slug(PROJECT))}
            for k, v in manifest.items()
        }
        (args.out / "manifest.json").write_text(
            json.dumps(neutral, indent=1) + "\n", encoding="utf-8"
        )
    print(f"recorded {len(sessions)} sessions into {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
