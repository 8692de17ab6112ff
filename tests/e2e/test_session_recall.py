"""Recall follows a real agent through the tree (issue 12 item 9): tool-time recall,
once per session, in each host's own tool channel.

Each agent runs one scripted session (``fake_llm.py --script``) in the routing project
(``e2e_support.routing_project``): prompt "Make the totals use two decimals", then

1. read ``billing/invoice.py``  — billing's memory must arrive right after this read,
2. read ``billing/tax.py``      — same folder: nothing more may arrive,
3. read ``shipping/rates.py``   — another folder: shipping's memory must arrive,
4. write ``billing/invoice.py`` — the change the session was for.

The store holds 30 root memories that match the prompt far better than the billing and
shipping memories (which share no word with it), so only routing by what the session
touches can bring those two. Every assertion reads the model's last request (the whole
conversation) through :mod:`transcript` and names *where* a memory arrived: after which
tool call, through which channel (Claude: a ``<system-reminder>`` after the Read's
``tool_result``; Codex: a developer message between the shell call and its output;
Gemini: appended to ``functionResponse.response.output``; Copilot CLI: after
"Additional guidance from postToolUse hooks:" in the tool message; OpenCode, through
memhooks' plugin: appended to the tool message).

Every agent is installed with plain ``memhooks agents install --agent NAME`` (the default
level) and launched at the project root, as people do; ``claude-code-subfolder`` is
launched in ``billing/`` instead (with ``--add-dir`` of the root, as a user who lets it
read the rest of the tree): the default install must fire there too, billing's memory
then arrives at prompt time, and the Read in ``billing/`` adds nothing.
``gemini-cli-capture`` is Gemini CLI installed with ``--capture`` (more events wired).
``claude-code-parallel`` reads the two ``billing/`` files as parallel calls of one reply:
Claude Code runs their hooks at once, and the memory must still arrive once. Last,
``memhooks sessions show`` must list exactly the deliveries the model received.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import transcript
from e2e_support import (
    AGENT_ENV,
    Project,
    binary,
    codex_argv,
    copilot_argv,
    gemini_argv,
    opencode_argv,
    routing_project,
    start_fake_llm,
)

PROMPT = "Make the totals use two decimals"
BILLING = "E2E-BILLING-4417"
SHIPPING = "E2E-SHIPPING-5523"
OLD, NEW = "TOTAL_DECIMALS = 0", "TOTAL_DECIMALS = 2"

@dataclass
class Flavour:
    """One agent's session: how it is launched, what its read and write calls look like."""

    host: str  # transcript reader, and the --agent name
    argv: Callable[[Project, str], list[str]]
    env: Callable[[str], dict[str, str]]
    read: str  # the tool its reads go through
    write: Callable[[Project], dict[str, str]]  # the script's last step
    written: str  # label of that call in the transcript
    relative: bool = False  # paths in the script relative to the root (Codex's shell reads)
    start: str = ""  # launch folder, root-relative
    parallel: bool = False  # the two reads in billing/ as parallel calls of one reply
    install: tuple[str, ...] = ()  # more `memhooks agents install` flags

    def script(self, p: Project) -> list[dict[str, object]]:
        path = (lambda name: name) if self.relative else (lambda name: str(p.root / name))
        billing: list[dict[str, object]] = [{"read": path("billing/invoice.py")}, {"read": path("billing/tax.py")}]
        return [*([{"parallel": billing}] if self.parallel else billing), {"read": path("shipping/rates.py")}, self.write(p)]


def _claude(p: Project, url: str) -> list[str]:
    argv = [binary("claude"), "-p", PROMPT, "--permission-mode", "acceptEdits"]
    return argv if p.sub == p.root else [*argv, "--add-dir", str(p.root)]


def _write(p: Project) -> dict[str, str]:
    return {"write": str(p.root / "billing/invoice.py"), "content": (p.root / "billing/invoice.py").read_text().replace(OLD, NEW)}


def _edit(relative: bool) -> Callable[[Project], dict[str, str]]:
    return lambda p: {"edit": "billing/invoice.py" if relative else str(p.root / "billing/invoice.py"), "old": OLD, "new": NEW}


def _codex(p: Project, url: str) -> list[str]:
    return codex_argv(p, url, PROMPT)


def _gemini(p: Project, url: str) -> list[str]:
    return gemini_argv(p, url, PROMPT)


FLAVOURS = {
    "claude-code": Flavour("claude-code", _claude, AGENT_ENV["claude-code"], "Read", _write, "Write"),
    "codex": Flavour("codex", _codex, AGENT_ENV["codex"], "exec_command", _edit(True), "apply_patch", relative=True),
    "gemini-cli": Flavour("gemini-cli", _gemini, AGENT_ENV["gemini-cli"], "read_file", _write, "write_file"),
    "copilot-cli": Flavour("copilot-cli", lambda p, u: copilot_argv(p, u, PROMPT), AGENT_ENV["copilot-cli"], "view", _edit(False), "edit"),
    "opencode": Flavour("opencode", lambda p, u: opencode_argv(p, u, PROMPT), AGENT_ENV["opencode"], "read", _edit(False), "edit"),
    "claude-code-subfolder": Flavour("claude-code", _claude, AGENT_ENV["claude-code"], "Read", _write, "Write", start="billing"),
    "claude-code-parallel": Flavour("claude-code", _claude, AGENT_ENV["claude-code"], "Read", _write, "Write", parallel=True),
    "gemini-cli-capture": Flavour("gemini-cli", _gemini, AGENT_ENV["gemini-cli"], "read_file", _write, "write_file", install=("--capture",)),
}  # fmt: skip
ROOT_LAUNCHED = ["claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "gemini-cli-capture"]
SEQUENTIAL = [*ROOT_LAUNCHED, "claude-code-subfolder"]


@dataclass
class Run:
    name: str
    project: Project
    requests: list[dict[str, object]]
    transcript: transcript.Transcript
    output: str
    seconds: float

    @property
    def flavour(self) -> Flavour:
        return FLAVOURS[self.name]

    def call(self, name: str) -> str:
        return f"{self.flavour.read} {name}"

    def report(self) -> str:
        """What the model received at each step (for failure messages)."""
        t = self.transcript
        lines = [f"{self.name} ({self.seconds:.1f} s), calls: {t.calls}"]
        for context in t.contexts:
            lines.append(f"  after {context.after!r} via {context.channel} at {context.path}: {context.text[:300]!r}")
        return "\n".join(lines) + f"\n{self.output}"


RUNS: dict[str, Run] = {}


def session(name: str, tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The scripted session of agent ``name`` (run once per module), checked to have
    played as scripted: an agent that did not, fails here, not in a recall assertion."""
    if name not in RUNS:
        flavour = FLAVOURS[name]
        project = routing_project(tmp_path_factory.mktemp(name), start=flavour.start)
        server = start_fake_llm(project, script=flavour.script(project))
        try:
            argv = flavour.argv(project, server.base_url)
            project.memhooks("agents", "install", "--cwd", str(project.root), "--agent", flavour.host, *flavour.install)
            started = time.monotonic()
            done = project.run(argv, flavour.env(server.base_url))
            seconds = time.monotonic() - started
        finally:
            server.stop()
        requests = server.requests()
        body = requests[-1]["body"] if requests else {}
        output = f"exit {done.returncode}\nstdout: …{done.stdout[-1500:]}\nstderr: …{done.stderr[-1500:]}"
        RUNS[name] = Run(name, project, requests, transcript.read(flavour.host, body, project.root), output, seconds)  # type: ignore[arg-type]
    run = RUNS[name]
    scripted = [run.call("billing/invoice.py"), run.call("billing/tax.py"), run.call("shipping/rates.py"), f"{run.flavour.written} billing/invoice.py"]
    assert run.transcript.calls == scripted, f"{name}: the session did not play as scripted\n{run.report()}"
    assert NEW in (run.project.root / "billing/invoice.py").read_text(), f"{name}: billing/invoice.py was not written\n{run.report()}"
    return run


def arrives_once(run: Run, marker: str, after: str, channel: str, what: str) -> None:
    """``marker`` is in the session's last request exactly once: hook context following
    ``after`` (PROMPT or a call label), carried through ``channel``."""
    where = [(a.after, a.channel) for a in run.transcript.arrivals(marker)]
    assert where == [(after, channel)], (
        f"{run.name}: {what} must reach the model once, {channel}, after {after!r}\n"
        f"{run.transcript.excerpt(marker)}\n{run.report()}"
    )


@pytest.mark.parametrize("name", ROOT_LAUNCHED)
def test_the_folder_memory_arrives_once_right_after_the_read(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    run = session(name, tmp_path_factory)
    arrives_once(run, BILLING, run.call("billing/invoice.py"), transcript.TOOL_CHANNEL[run.flavour.host], "billing's memory")
    # ... and so before the Write: the request the model answered with the write carried it.
    planned = [r for r in run.requests if str(r["reply"]).startswith(f"tool_call:{run.flavour.written}")]
    assert planned and BILLING in json.dumps(planned[-1]["body"]), run.report()


def test_started_in_a_subfolder_the_default_install_recalls_there(tmp_path_factory: pytest.TempPathFactory) -> None:
    run = session("claude-code-subfolder", tmp_path_factory)
    arrives_once(run, BILLING, transcript.PROMPT, "system message", "billing's memory (the launch folder's)")
    memories = [c for c in run.transcript.after(run.call("billing/invoice.py")) if transcript.LABEL in c.text]
    assert memories == [], f"the Read in billing/ repeated what the prompt brought\n{run.report()}"


def test_parallel_reads_in_one_folder_bring_its_memory_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Claude Code runs the PostToolUse hooks of parallel Reads at once (fresh processes):
    the folder's memory still reaches the model once, after the pair's results."""
    run = session("claude-code-parallel", tmp_path_factory)
    batch = f"{run.call('billing/invoice.py')} + {run.call('billing/tax.py')}"
    arrives_once(run, BILLING, batch, transcript.CLAUDE_TOOL, "billing's memory")


@pytest.mark.parametrize("name", SEQUENTIAL)
def test_a_second_read_in_the_same_folder_adds_nothing(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    run = session(name, tmp_path_factory)
    added = run.transcript.after(run.call("billing/tax.py"))
    assert added == [], f"{name}: the read of billing/tax.py (billing/ already served) added context\n{run.report()}"


@pytest.mark.parametrize("name", list(FLAVOURS))
def test_a_read_in_another_folder_brings_that_folders_memory(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    run = session(name, tmp_path_factory)
    arrives_once(run, SHIPPING, run.call("shipping/rates.py"), transcript.TOOL_CHANNEL[run.flavour.host], "shipping's memory")


@pytest.mark.parametrize("name", list(FLAVOURS))
def test_no_memory_reaches_the_model_twice(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    run = session(name, tmp_path_factory)
    body = json.dumps(run.transcript.body)
    twice = {tag: n for tag in sorted(set(re.findall(r"E2E-[A-Z]+-\d+", body))) if (n := len(run.transcript.arrivals(tag))) > 1}
    assert not twice, f"{name}: memories delivered more than once in one session: {twice}\n{run.report()}"


def test_the_routing_project_holds_better_matches_for_the_prompt(tmp_path: Path) -> None:
    """The premise of the tests above: recalled for the root, the prompt brings root
    memories and not the billing one (so a pass above is routing, not the prompt)."""
    project = routing_project(tmp_path)
    recalled = json.loads(project.memhooks("recall", str(project.root), "--prompt", PROMPT, "--format", "json"))
    ids = [m["id"] for m in recalled["memories"]]
    assert ids and all(i.startswith("totals-") for i in ids), ids


@pytest.mark.parametrize("name", list(FLAVOURS))
def test_memhooks_sessions_shows_what_reached_the_model(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``memhooks sessions show`` (item 10) lists, delivery by delivery, exactly the
    memories the model received in the host's hook channels."""
    run = session(name, tmp_path_factory)
    listed = json.loads(run.project.memhooks("sessions", "list", "--format", "json"))["sessions"]
    assert [s["host"] for s in listed] == [run.flavour.host], listed
    shown = json.loads(run.project.memhooks("sessions", "show", listed[0]["session"], "--format", "json"))
    items = [[i["item"] for i in d["items"] if not i["item"].startswith("guidance:")] for d in shown["deliveries"]]
    recorded = [memories for memories in ([i for i in d if not i.startswith("commit:")] for d in items) if memories]
    received = [re.findall(r'"id":"([^"]+)"', c.text) for c in run.transcript.contexts if transcript.LABEL in c.text]
    assert recorded == received, f"{name}: the ledger says {recorded}, the model received {received}\n{run.report()}"
    # line-level recall (issue 20) records the commits it told: each is named in what the model got
    told = "\n".join(c.text for c in run.transcript.contexts)
    commits = [i[len("commit:") :] for d in items for i in d if i.startswith("commit:")]
    assert all(c[:12] in told for c in commits), f"{name}: recorded commits {commits} not in\n{run.report()}"
