"""Proof of delivery: ``memhooks agents check`` runs each installed host's hook as the host
would, and says whether what it answered would reach the model.

For one host at one level (:func:`check`):

* **the command**: exactly the one the host will run, read back from where the install
  (or the plugin) put it — the host's config file, Cline's hook script, OpenCode's
  plugin, the plugin's ``hooks/hooks.json`` with its folder variable filled in;
* **the payload**: the host's prompt-time event shaped like the recorded one
  (``check_payloads.json``; Windsurf, which has no such channel, a file write);
* **a throwaway project**: a git work tree with a root ``MEMHOOKS.md``, and a memory store
  and state folder of its own holding one known memory; the user's store is never read;
* **the verdict** (:class:`Result`): fired (exit 0), answered within the host's own
  timeout (with the time), the reply's shape accepted by the host's documented contract
  (:data:`CONTRACTS`, from ``shared/spec/agent-hooks.md``), the known memory in it, and
  where the host exposes it whether the host runs the hook at all (:mod:`.trust`).

Library code: nothing is printed; :func:`check` returns results, ``commands/agents.py``
renders them.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time
import uuid
from importlib import resources

from .. import git
from ..protocol import HOOK_NAME
from ..store import MemoryStore, project_id
from . import eventmap, jsonc, trust, yamlconf
from .command import is_ours
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Context, Status
    from .hosts import Host

#: The known memory and the prompt that recalls it.
MARKER = "memhooks-check-7f3a"
MEMORY = f"{MARKER}: the deploy window closes at 16:00 on Fridays (agents check)."
PROMPT = "When does the deploy window close on Fridays?"

#: Reply contracts, per host (``shared/spec/agent-hooks.md`` §0 and each host's section):
#: ``(form, path to the context string, path that must echo the event or None)``; form
#: ``json`` (stdout is one JSON object) or ``plain`` (stdout is the context).
CONTRACTS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...] | None]] = {
    "claude-code": ("json", ("hookSpecificOutput", "additionalContext"), ("hookSpecificOutput", "hookEventName")),
    "codex": ("json", ("hookSpecificOutput", "additionalContext"), ("hookSpecificOutput", "hookEventName")),
    "gemini-cli": ("json", ("hookSpecificOutput", "additionalContext"), None),
    "copilot-cli": ("json", ("additionalContext",), None),
    "copilot-vscode": ("json", ("hookSpecificOutput", "additionalContext"), ("hookSpecificOutput", "hookEventName")),
    "cursor": ("json", ("additional_context",), None),
    "kiro": ("plain", (), None),
    "cline": ("json", ("contextModification",), None),
    "hermes": ("json", ("context",), None),
    "opencode": ("json", ("context",), None),
    "windsurf": ("none", (), None),
}  # fmt: skip
#: Units of a hook entry's ``timeout`` (seconds unless listed).
MS_TIMEOUTS = {"gemini-cli"}


class Result:
    """One check: ``agent``, ``level``, ``event``, ``command``; ``fired`` (exit 0),
    ``ms`` (wall time), ``deadline_ms`` (the host's timeout for the hook),
    ``shape`` (None when the reply fits the host's contract, else why not),
    ``delivered`` (the known memory is in the context; None where the event carries
    none), ``trust`` (``(ok, words)`` or None where the host does not expose it),
    ``problems`` (what failed, in words), ``skipped`` (why nothing was run: Hermes'
    in-process plugin has no command)."""

    __slots__ = ("agent", "command", "deadline_ms", "delivered", "event", "fired", "level",
                 "ms", "problems", "shape", "skipped", "trust")  # fmt: skip

    def __init__(self, agent: str, level: str, event: str, command: str) -> None:
        self.agent, self.level, self.event, self.command = agent, level, event, command
        self.fired = False
        self.ms = 0.0
        self.deadline_ms = 10000.0
        self.shape: str | None = None
        self.delivered: bool | None = None
        self.trust: tuple[bool, str] | None = None
        self.problems: list[str] = []
        self.skipped: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__} | {"ok": self.ok}


def payloads() -> dict[str, Any]:
    text = (resources.files("memhooks") / "install" / "check_payloads.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def check(host: Host, ctx: Context, found: Status) -> list[Result]:
    """Run ``host``'s installed hook (``found``: its status at ``ctx.level``) for its
    prompt-time event in a throwaway project; one result per command wired for it."""
    sample = payloads().get(host.name)
    if sample is None:
        return []
    event = sample["event"]
    wired = commands(host, ctx, found).get(event, [])
    if not wired:
        result = Result(host.name, ctx.level, event, "")
        if host.name == "hermes":
            result.skipped = (
                "memhooks' Hermes plugin runs inside Hermes: there is no command to run"
            )
        else:
            result.problems.append(f"no memhooks hook is wired for {event}")
        return [result]
    with tempfile.TemporaryDirectory(prefix="memhooks-check-") as tmp:
        root = _project(os.path.realpath(tmp))
        return [_run(host, ctx, event, line, sample["payload"], root, tmp) for line in wired]


def commands(host: Host, ctx: Context, found: Status) -> dict[str, list[str]]:
    """Event -> the command lines the host runs for memhooks at ``ctx.level``."""
    plugin = found.plugin
    if (
        plugin
        and plugin["enabled"]
        and found.files
        and found.files[0].startswith(str(plugin["path"]))
    ):
        variable = "${" + host.wiring["plugin"]["root_var"] + "}"
        hooks = eventmap.installed(read(found.files[0]))
        return {
            e: [c.replace(variable, str(plugin["path"])) for c in cs] for e, cs in hooks.items()
        }
    kind = host.wiring.get("installer", "jsonhooks")
    path = host.config_path(ctx)
    if kind in ("jsonhooks", "codex"):
        return eventmap.installed(read(path))
    if kind == "kiro":
        data = jsonc.parse(read(path) or "{}").value
        hooks = data.get("hooks", []) if isinstance(data, dict) else []
        out: dict[str, list[str]] = {}
        for hook in hooks if isinstance(hooks, list) else ():
            action = hook.get("action") if isinstance(hook, dict) else None
            line = action.get("command") if isinstance(action, dict) else None
            if isinstance(line, str) and is_ours(line):
                out.setdefault(str(hook.get("trigger")), []).append(line)
        return out
    if kind == "cline":
        return {e: [shlex.quote(os.path.join(path, e))] for e in found.events}
    if kind == "opencode":
        text = read(path) or ""
        start = text.find("const COMMAND = ")
        argv = json.loads(text[start + 16 : text.index(";", start)]) if start >= 0 else []
        return {e: [shlex.join([*argv, e])] for e in found.events} if argv else {}
    if kind == "hermes":
        return _hermes(host, ctx)
    return {}


def _hermes(host: Host, ctx: Context) -> dict[str, list[str]]:
    """Hermes' shell hooks in ``config.yaml`` (the in-process plugin has no command)."""
    data, _ = yamlconf.load(read(host.config_path(ctx)))
    hooks = data.get("hooks") if isinstance(data, dict) else None
    out: dict[str, list[str]] = {}
    for event, entries in hooks.items() if isinstance(hooks, dict) else ():
        for entry in entries if isinstance(entries, list) else ():
            line = entry.get("command") if isinstance(entry, dict) else None
            if isinstance(line, str) and is_ours(line):
                out.setdefault(str(event), []).append(line)
    return out


def _project(base: str) -> str:
    """A git work tree with a root hook, a file, and one known memory in its own store."""
    root = os.path.join(base, "project")
    os.makedirs(os.path.join(root, "deploy"))
    subprocess.run(git.command(root, "init", "-q"), check=True, capture_output=True,
                   env=git.environment(), timeout=30)  # fmt: skip
    with open(os.path.join(root, HOOK_NAME), "w", encoding="utf-8") as handle:
        handle.write(
            '---\nschema: memhooks/v2\nrecall_queries:\n  - "When does the deploy window close?"\n---\n'
        )
    with open(os.path.join(root, "deploy", "window.py"), "w", encoding="utf-8") as handle:
        handle.write("CLOSES = '16:00'\n")
    line = json.dumps({"id": "agents-check", "scope": "", "kind": "constraint", "text": MEMORY})
    with MemoryStore(os.path.join(base, "store.sqlite3")) as store:
        store.import_jsonl(project_id(root), [line])
    return root


def _fill(value: Any, values: dict[str, str]) -> Any:
    if isinstance(value, str):
        return values.get(value, value)
    if isinstance(value, dict):
        return {k: _fill(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, values) for v in value]
    return value


def _argv(host: Host, line: str) -> list[str]:
    """``line`` run as ``host`` runs it: in its shell (the ``shell`` key of its row), else
    in ``/bin/sh`` (for a command that names a program and its arguments, the same)."""
    shell = host.wiring.get("shell", "sh")
    return [shutil.which(shell) or "/bin/sh", "-c", line]


def _run(
    host: Host, ctx: Context, event: str, line: str, sample: Any, root: str, tmp: str
) -> Result:
    result = Result(host.name, ctx.level, event, line)
    result.deadline_ms = _deadline(host, ctx, event)
    values = {"$CWD": root, "$PROMPT": PROMPT, "$SESSION": f"check-{uuid.uuid4()}",
              "$FILE": os.path.join(root, "deploy", "window.py")}  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
    env.update(MEMHOOKS_STORE=os.path.join(tmp, "store.sqlite3"),
               MEMHOOKS_STATE_DIR=os.path.join(tmp, "state"), XDG_CACHE_HOME=os.path.join(tmp, "cache"))  # fmt: skip
    started = time.perf_counter()
    try:
        done = subprocess.run(_argv(host, line), input=json.dumps(_fill(sample, values)), text=True,
                              capture_output=True, env=env, cwd=root, timeout=result.deadline_ms / 1000, check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        result.ms = (time.perf_counter() - started) * 1000
        result.problems.append(
            f"no answer within {result.deadline_ms / 1000:g} s, the host's timeout"
        )
        return result
    result.ms = (time.perf_counter() - started) * 1000
    result.fired = done.returncode == 0
    if not result.fired:
        why = (done.stderr.strip().splitlines() or [""])[-1]
        result.problems.append(f"exit {done.returncode}: {why}".rstrip(": "))
        return result
    _judge(result, host.name, done.stdout)
    said = (done.stderr.strip().splitlines() or [""])[-1]
    if said and result.problems:  # the hook's own line says why (memhooks gone, …)
        result.problems.insert(0, f"the hook said: {said}")
    result.trust = trust.state(host, ctx, event, line)
    if result.trust is not None and not result.trust[0]:
        result.problems.append(result.trust[1])
    return result


def _judge(result: Result, agent: str, stdout: str) -> None:
    """Set ``shape`` and ``delivered`` from the reply, by the host's contract."""
    form, path, echo = CONTRACTS[agent]
    if form == "none":
        return  # Windsurf: no channel to the model; firing is the check
    if form == "plain":
        context = stdout
    else:
        try:
            reply = json.loads(stdout)
        except ValueError:
            result.shape = "stdout is not one JSON object"
            result.problems.append(result.shape)
            return
        context = _at(reply, path)
        if not isinstance(context, str):
            result.shape = f"no {'.'.join(path)} string in the reply"
        elif echo is not None and _at(reply, echo) != result.event:
            result.shape = f"{'.'.join(echo)} does not echo {result.event}"
        if result.shape:
            result.problems.append(result.shape)
            return
    result.delivered = MARKER in context
    if not result.delivered:
        result.problems.append("the known memory is not in the reply")


def _at(value: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _deadline(host: Host, ctx: Context, event: str) -> float:
    """The host's timeout for the hook, in ms (its entry's ``timeout``, else 10 s)."""
    timeout = host.wiring.get("hook", {}).get("timeout")
    if not isinstance(timeout, (int, float)):
        return 10000.0
    return float(timeout) if host.name in MS_TIMEOUTS else float(timeout) * 1000
