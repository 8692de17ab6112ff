"""Registering the MCP server ``memhooks mcp`` with agent hosts (``agents install --mcp``).

Hooks inject recall; the MCP server (``docs/mcp.md``) also lets the agent remember,
forget and add cues itself. Each host's ``INSTALL`` row gives in ``mcp`` the file per
level and the key under which the host reads its MCP servers — only locations
``docs/mcp.md`` gives; a host or level without one is "not supported by memhooks yet".

Merge-only: we add, update or remove the one member named ``memhooks`` (:data:`NAME`)
with :mod:`.jsonc` splices, so other servers, comments and key order stay byte for
byte. An existing ``memhooks`` entry is ours when it runs ``memhooks mcp`` (any path,
or ``python -m memhooks mcp``); re-installing updates only the keys we set (an
``env`` the user added stays); one that runs something else is never touched.
The command is the same absolute path the hooks use (``ctx.exe``): hosts start MCP
servers with their own, often reduced, ``PATH``.
"""

from __future__ import annotations

import itertools
import re

from . import jsonc
from .base import Edit, reading
from .files import read
from .hosts import INSTALLERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Context

NAME = "memhooks"


def locations() -> dict[str, tuple[str | None, str | None, str, dict[str, Any]]]:
    """Agent -> (project file, user file (relative to home), servers key, entry
    template), for every host that has an MCP config memhooks knows."""
    return {name: h.wiring["mcp"] for name, h in INSTALLERS.items() if "mcp" in h.wiring}


_PROGRAM = re.compile(r"(?:^|[\\/])memhooks(?:\.exe|\.cmd)?$")


def location(agent: str, ctx: Context) -> tuple[str, str] | None:
    """``(file, servers key)`` for ``agent`` at ``ctx.level``; None when unsupported."""
    found = locations().get(agent)
    if found is None:
        return None
    project, user, key, _ = found
    rel = project if ctx.level == "project" else user
    if rel is None:
        return None
    return ctx.path(rel, rel), key


def entry(agent: str, ctx: Context) -> dict[str, Any]:
    """The ``memhooks`` server entry for ``agent``: ``ctx.exe`` plus ``mcp``."""
    template = locations()[agent][3]
    fill = {"command": ctx.exe[0], "args": [*ctx.exe[1:], "mcp"]}
    return {k: fill[k] if v is None else v for k, v in template.items()}


def is_ours(value: object) -> bool:
    """Whether a server entry runs ``memhooks mcp``."""
    if not isinstance(value, dict):
        return False
    args = value.get("args", [])
    argv = [value.get("command"), *(args if isinstance(args, list) else [])]
    return any(
        isinstance(word, str) and _PROGRAM.search(word) and after == "mcp"
        for word, after in itertools.pairwise(argv)
    )


def _servers(text: str, key: str) -> tuple[jsonc.Node, jsonc.Node | None]:
    root = jsonc.parse(text)
    if root.kind != "object":
        raise jsonc.error_at(text, root, "the file's top level is not a JSON object")
    servers = root.get(key)
    if servers is not None and servers.kind != "object":
        raise jsonc.error_at(text, servers, f"{key!r} is not a JSON object")
    return root, servers


def register(text: str | None, key: str, wanted: dict[str, Any], path: str) -> str:
    """``text`` (None: a new file) with ``key.memhooks`` set to ``wanted``'s members.
    Raises ValueError for an entry of that name that is not ours."""
    if text is None or not text.strip():
        text = "{}\n"
    root, servers = _servers(text, key)
    if servers is None:
        return jsonc.add_member(text, root, key, {NAME: wanted})
    current = servers.get(NAME)
    if current is None:
        return jsonc.add_member(text, servers, NAME, wanted)
    if not is_ours(current.value):
        raise ValueError(
            f"{path}: {key}.{NAME} does not run `memhooks mcp`; left alone (rename or remove it)"
        )
    for member, value in wanted.items():
        servers = _servers(text, key)[1]
        node = servers.get(NAME) if servers is not None else None
        assert node is not None
        old = node.get(member)
        if old is None:
            text = jsonc.add_member(text, node, member, value)
        elif old.value != value:
            text = jsonc.replace_value(text, old, value)
    return text


def unregister(text: str | None, key: str) -> str | None:
    """``text`` without our ``memhooks`` entry (and a servers object only we emptied);
    None (delete the file) when that leaves ``{}``."""
    if text is None:
        return None
    root, servers = _servers(text, key)
    current = servers.get(NAME) if servers is not None else None
    if servers is None or current is None or not is_ours(current.value):
        return text
    text = jsonc.remove_member(text, servers, NAME)
    root, servers = _servers(text, key)
    if servers is not None and not servers.members:
        text = jsonc.remove_member(text, root, key)
    return None if jsonc.parse(text).value == {} else text


def plan(agent: str, ctx: Context, want: bool | None, edits: list[Edit]) -> list[Edit]:
    """``edits`` with the server registered (``want`` True), removed (False) or left
    as it is (None). An edit already planned for the same file (Gemini CLI's settings
    hold hooks and servers) is carried on, not computed twice from the disk."""
    found = location(agent, ctx)
    if want is None or found is None:
        return edits
    path, key = found
    pending = next((e for e in edits if e.path == path), None)
    before = pending.text if pending is not None else read(path)

    with reading(agent, path):
        after = register(before, key, entry(agent, ctx), path) if want else unregister(before, key)
    if after == before:
        return edits
    if pending is not None:
        pending.text = after
        return [e for e in edits if not (e is pending and e.text == e.before)]

    return [*edits, Edit(path, after, before)]


def registered(agent: str, ctx: Context) -> dict[str, Any] | None:
    """Our ``memhooks`` server entry for ``agent`` at ``ctx.level`` as the host reads it;
    None when there is none (or the file cannot be read as JSONC)."""
    found = location(agent, ctx)
    if found is None:
        return None
    try:
        servers = _servers(read(found[0]) or "{}", found[1])[1]
    except jsonc.JsoncError:
        return None
    current = servers.get(NAME) if servers is not None else None
    value = current.value if current is not None else None
    return value if isinstance(value, dict) and is_ours(value) else None


def report(agent: str, ctx: Context) -> dict[str, object] | None:
    """``{"path", "registered"}`` for ``status``; None when unsupported here."""
    found = location(agent, ctx)
    if found is None:
        return None
    path, key = found
    try:
        servers = _servers(read(path) or "{}", key)[1]
    except jsonc.JsoncError:
        servers = None
    current = servers.get(NAME) if servers is not None else None
    return {"path": path, "registered": current is not None and is_ours(current.value)}
