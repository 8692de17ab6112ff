"""OpenCode (V1 plugins): ``.opencode/plugins/memhooks.js`` (project) or
``$XDG_CONFIG_HOME/opencode/plugins/memhooks.js`` (user), a small plugin of our own.

OpenCode has no shell hooks: the plugin runs ``memhooks hook --agent opencode`` without
blocking OpenCode's event loop (``spawn``, not ``spawnSync``) and sends
``{"hook_event_name", "directory", "input", "output"}``. ``chat.message`` (recall):
the reply's ``context`` becomes a synthetic text part of the user's message.
``tool.execute.after`` (hook maintenance) is not awaited.
"""

from __future__ import annotations

import json
import os

from . import command
from .base import PROJECT, USER, Context, Edit, Status, edit
from .files import read

NAME = "opencode"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("chat.message", "tool.execute.after")
CHANNEL: str = "chat.message: a text part added to the user's message"
APPROVAL: str | None = None

TEMPLATE = """// {marker}: written by `memhooks agents install --agent opencode`; `memhooks agents uninstall --agent opencode` removes it.
import {{ spawn }} from "node:child_process";

const COMMAND = {command};
const TIMEOUT_MS = 10000;

// Runs the memhooks hook without blocking OpenCode; resolves to its JSON reply or null.
function memhooks(event, input, output, directory) {{
  return new Promise((resolve) => {{
    let out = "";
    let child;
    try {{
      child = spawn(COMMAND[0], [...COMMAND.slice(1), event], {{ stdio: ["pipe", "pipe", "ignore"] }});
    }} catch {{
      return resolve(null);
    }}
    const timer = setTimeout(() => {{ try {{ child.kill(); }} catch {{}} resolve(null); }}, TIMEOUT_MS);
    child.stdout.on("data", (chunk) => {{ out += chunk; }});
    child.on("error", () => {{ clearTimeout(timer); resolve(null); }});
    child.on("close", () => {{
      clearTimeout(timer);
      try {{ resolve(JSON.parse(out || "{{}}")); }} catch {{ resolve(null); }}
    }});
    child.stdin.on("error", () => {{}});
    child.stdin.end(JSON.stringify({{ hook_event_name: event, directory, input, output }}));
  }});
}}

export const MemHooks = async (ctx) => ({{
  "chat.message": async (input, output) => {{
    const reply = await memhooks("chat.message", input, {{ parts: output.parts }}, ctx.directory);
    if (!reply || typeof reply.context !== "string" || !reply.context) return;
    const first = output.parts[0] || {{}};
    output.parts.push({{
      id: (first.id || "prt_memhooks") + "m",
      sessionID: first.sessionID || input.sessionID,
      messageID: first.messageID || input.messageID,
      type: "text",
      text: reply.context,
      synthetic: true,
    }});
  }},
  "tool.execute.after": async (input, output) => {{
    memhooks("tool.execute.after", input, {{ title: output.title, metadata: {{}} }}, ctx.directory);
  }},
}});
"""


def plugin_path(ctx: Context) -> str:
    if ctx.level == PROJECT:
        return os.path.join(ctx.root, ".opencode", "plugins", "memhooks.js")
    return os.path.join(
        ctx.env_dir("XDG_CONFIG_HOME", ".config"), "opencode", "plugins", "memhooks.js"
    )


def plugin(ctx: Context) -> str:
    argv = command.argv(NAME, roles=ctx.roles, exe=ctx.exe)
    return TEMPLATE.format(marker=command.MARKER, command=json.dumps(argv))


def install(ctx: Context) -> list[Edit]:
    current = read(plugin_path(ctx))
    if current is not None and command.MARKER not in current:
        return []  # someone else's file: status reports it
    return edit(plugin_path(ctx), plugin(ctx))


def uninstall(ctx: Context) -> list[Edit]:
    current = read(plugin_path(ctx))
    return edit(plugin_path(ctx), None) if current is not None and command.MARKER in current else []


def status(ctx: Context) -> Status:
    found = Status(NAME, ctx.level)
    path = plugin_path(ctx)
    text = read(path)
    if text is None:
        return found
    if command.MARKER not in text:
        found.problems.append(f"{path} belongs to another tool; memhooks left it alone")
        return found
    found.files.append(path)
    found.events = list(EVENTS)
    start = text.find("const COMMAND = ")
    try:
        argv = json.loads(text[start + len("const COMMAND = ") : text.index(";", start)])
        program = argv[0]
    except (ValueError, IndexError):
        program = ""
    if not (os.path.isfile(program) and os.access(program, os.X_OK)):
        found.problems.append(
            f"program not found or not executable: {program or '(unreadable plugin)'}"
        )
    found.fires = not found.problems
    if found.fires:
        found.todo.append(
            "OpenCode installs @opencode-ai/plugin on its first run with a plugin (needs the npm registry)"
        )
    return found


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (OpenCode 1.18.33 reads both; verified)."""
    if ctx.level == PROJECT:
        return os.path.join(ctx.root, ".opencode", "skills")
    return os.path.join(ctx.env_dir("XDG_CONFIG_HOME", ".config"), "opencode", "skills")
