"""The memhooks Agent Skill, placed where each host that reads Agent Skills looks.

A host whose ``INSTALL`` row has ``skills`` (``(project folder, user folder)``, for example
``(".claude/skills", ".claude/skills")``) reads Agent Skills there. The skill
shipped in the package (``memhooks/skill/``: ``SKILL.md`` and ``references/``) goes to
``<skills_dir>/memhooks/``, next to the hooks and with the same rules:

* merge-only: a ``SKILL.md`` there without :data:`~memhooks.install.command.MARKER` is
  someone else's skill of the same name and is never touched (``status`` says so); ours
  is brought up to date file by file;
* reversible: uninstall deletes the files we ship (only when ``SKILL.md`` is ours) and
  the folders that leaves empty, deepest first; a file the user added stays;
* reported: :func:`report` sets ``Status.skill`` to ``{"path", "state"}`` with state
  ``installed``, ``outdated`` (ours, from another memhooks version), ``missing`` or
  ``foreign``.
"""

from __future__ import annotations

import os
from importlib import resources

from . import command
from .base import PROJECT, Context, Edit, Status, edit
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib.abc import Traversable

    from .hosts import Host

NAME = "memhooks"


def files() -> dict[str, str]:
    """The skill as shipped: relative path (``/``-separated) -> text, ``SKILL.md`` last."""
    found: dict[str, str] = {}

    def walk(node: Traversable, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if child.is_dir():
                walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith(".md"):
                found[prefix + child.name] = child.read_text(encoding="utf-8")

    walk(resources.files("memhooks") / "skill", "")
    # deepest first and SKILL.md last: deleting in this order empties each folder before
    # its parent, so files.remove() takes the emptied folders away too
    order = sorted(found, key=lambda rel: (rel == "SKILL.md", -rel.count("/"), rel))
    return {rel: found[rel] for rel in order}


def folder(host: Host, ctx: Context) -> str | None:
    """``<skills folder>/memhooks`` at ``ctx.level`` for hosts that read skills there,
    else None."""
    where = host.wiring.get("skills")
    if where is None:
        return None
    project, user = where
    if ctx.level == PROJECT:
        return None if project is None else os.path.join(ctx.root, *project.split("/"), NAME)
    return os.path.join(ctx.user_path(user), NAME)


def _owner(where: str) -> str:
    text = read(os.path.join(where, "SKILL.md"))
    if text is None:
        return "missing"
    return "ours" if command.MARKER in text else "foreign"


def install(host: Host, ctx: Context) -> list[Edit]:
    where = folder(host, ctx)
    if where is None or _owner(where) == "foreign":
        return []
    return [e for rel, text in files().items() for e in edit(_path(where, rel), text)]


def uninstall(host: Host, ctx: Context) -> list[Edit]:
    where = folder(host, ctx)
    if where is None or _owner(where) != "ours":
        return []
    return [e for rel in files() for e in edit(_path(where, rel), None)]


def report(host: Host, ctx: Context, found: Status) -> None:
    """Set ``found.skill`` (None for hosts without skills) and add what to do."""
    where = folder(host, ctx)
    if where is None:
        return
    state = _owner(where)
    if state == "ours":
        stale = any(read(_path(where, rel)) != text for rel, text in files().items())
        state = "outdated" if stale else "installed"
    found.skill = {"path": where, "state": state}
    if state == "foreign":
        found.todo.append(f"{where} holds another skill named {NAME}; memhooks left it alone")
    elif state == "outdated":
        again = command.suggest("install", host.name, ctx.level, host.default_level)
        found.todo.append(f"the skill is from another memhooks version: run `{again}`")
    elif state == "installed" and host.wiring.get("skills_todo"):
        found.todo.append(host.wiring["skills_todo"])


def _path(where: str, rel: str) -> str:
    return os.path.join(where, *rel.split("/"))
