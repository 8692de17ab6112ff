"""OpenCode (V1 plugins): a small JS plugin of our own (``.opencode/plugins/memhooks.js``
or ``$XDG_CONFIG_HOME/opencode/plugins/memhooks.js``), one handler per event of the
host's row.

OpenCode has no shell hooks: each handler runs ``memhooks hook --agent opencode EVENT``
without blocking OpenCode's event loop (``spawn``, not ``spawnSync``), sends
``{"hook_event_name", "directory", "input", "output"}`` and folds the reply's
``context`` into the hook's ``output`` where that event lets it reach the model
(``shared/spec/real-agents.md`` §5): ``chat.message`` adds a text part to the user's
message, ``tool.execute.after`` appends to the tool's output, and
``experimental.chat.system.transform`` (before every model call) adds a system string;
``experimental.session.compacting`` only tells memhooks the conversation is compacted.
"""

from __future__ import annotations

import json
import os

from . import command, launcher_state
from .base import Context, Edit, Status, edit
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .hosts import Host

HEAD = """// {marker}: written by `memhooks agents install --agent opencode`; `memhooks agents uninstall --agent opencode` removes it.
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

// The reply's context, or null when memhooks has nothing to add.
function context(reply) {{
  return reply && typeof reply.context === "string" && reply.context ? reply.context : null;
}}

export const MemHooks = async (ctx) => ({{
{handlers}}});
"""

#: event -> its handler (JS, inside the object the plugin returns).
HANDLERS = {
    "chat.message": """  "chat.message": async (input, output) => {
    const text = context(await memhooks("chat.message", input, { parts: output.parts }, ctx.directory));
    if (!text) return;
    const first = output.parts[0] || {};
    output.parts.push({
      id: (first.id || "prt_memhooks") + "m",
      sessionID: first.sessionID || input.sessionID,
      messageID: first.messageID || input.messageID,
      type: "text",
      text,
      synthetic: true,
    });
  },
""",
    "experimental.chat.system.transform": """  "experimental.chat.system.transform": async (input, output) => {
    const text = context(await memhooks("experimental.chat.system.transform", input, {}, ctx.directory));
    if (text && Array.isArray(output.system)) output.system.push(text);
  },
""",
    "experimental.session.compacting": """  "experimental.session.compacting": async (input, output) => {
    await memhooks("experimental.session.compacting", input, {}, ctx.directory);
  },
""",
    "tool.execute.after": """  "tool.execute.after": async (input, output) => {
    const text = context(await memhooks("tool.execute.after", input, { title: output.title, metadata: {} }, ctx.directory));
    if (text) output.output = (typeof output.output === "string" && output.output ? output.output + "\\n\\n" : "") + text;
  },
""",
}


def plugin(host: Host, ctx: Context) -> str:
    """The plugin's text: a handler for each event of the host's row."""
    argv = command.argv(host.name, roles=ctx.roles, exe=ctx.exe)
    handlers = "".join(HANDLERS[event] for event in host.EVENTS)
    return HEAD.format(marker=command.MARKER, command=json.dumps(argv), handlers=handlers)


def install(host: Host, ctx: Context) -> list[Edit]:
    path = host.config_path(ctx)
    current = read(path)
    if current is not None and command.MARKER not in current:
        return []  # someone else's file: status reports it
    return edit(path, plugin(host, ctx))


def uninstall(host: Host, ctx: Context) -> list[Edit]:
    path = host.config_path(ctx)
    current = read(path)
    return edit(path, None) if current is not None and command.MARKER in current else []


def status(host: Host, ctx: Context) -> Status:
    found = Status(host.name, ctx.level)
    path = host.config_path(ctx)
    text = read(path)
    if text is None:
        return found
    if command.MARKER not in text:
        found.problems.append(f"{path} belongs to another tool; memhooks left it alone")
        return found
    found.files.append(path)
    found.events = [event for event in HANDLERS if f'  "{event}": async' in text]
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
        found.stale = True
    elif (why := launcher_state.problem(program)) is not None:
        found.problems.append(why)
        found.stale = True
    found.fires = not found.problems
    if found.fires:
        found.todo += host.wiring.get("todo", ())
    return found
