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
* shared: hosts whose rows name the same folder (Codex and Gemini CLI both read
  ``.agents/skills``; Copilot CLI and Copilot in VS Code both read ``.github/skills`` and
  ``~/.copilot/skills``) get one copy, and uninstall leaves it while another host whose
  hooks are installed uses it (:func:`users`);
* one copy per host: a row's ``skills_also_read`` names the other folders the host reads
  skills from, where a second copy would clash (Gemini CLI warns on every run when
  ``.agents/skills`` and ``.gemini/skills`` both hold a ``memhooks`` skill): install and
  uninstall take our copy out of them (an older memhooks put Gemini CLI's there), and a
  ``memhooks`` skill there that is not ours stops the install, as in the folder itself;
* reported: :func:`report` sets ``Status.skill`` to ``{"path", "state", "shared_with"}``
  with state ``installed``, ``outdated`` (ours, from another memhooks version, or a
  second copy of ours in a folder of ``skills_also_read``), ``missing`` or ``foreign``,
  and ``shared_with`` the other hosts, installed at some level, that use the same folder.
"""

from __future__ import annotations

import os
from importlib import resources

from . import command
from .base import PROJECT, Context, Edit, InstallError, Status, edit
from .files import read
from .hosts import INSTALLERS

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
    return _place(host.wiring.get("skills"), ctx)


def _place(where: tuple[str | None, str] | None, ctx: Context) -> str | None:
    if where is None:
        return None
    project, user = where
    if ctx.level == PROJECT:
        return None if project is None else os.path.join(ctx.root, *project.split("/"), NAME)
    return os.path.join(ctx.user_path(user), NAME)


def _also(host: Host, ctx: Context) -> list[str]:
    """The ``memhooks/`` folders of the row's ``skills_also_read`` at ``ctx.level``."""
    found = _place(host.wiring.get("skills_also_read"), ctx)
    return [] if found is None else [found]


def users(host: Host, ctx: Context) -> list[str]:
    """The other hosts whose hooks are installed (at any level) and whose skill folder is
    ``host``'s at ``ctx.level``; a host whose config cannot be read counts as a user
    (keeping the skill is the reversible choice)."""
    where = folder(host, ctx)
    found = []
    for other in _hosts():
        for level in other.LEVELS:
            there = ctx.at(level)
            if (other is host and level == ctx.level) or folder(other, there) != where:
                continue
            try:
                installed = other.behaviour.status(other, there).installed
            except (InstallError, ValueError, OSError):
                installed = True
            if installed:
                found.append(other.name)
                break
    return found


def _owner(where: str) -> str:
    text = read(os.path.join(where, "SKILL.md"))
    if text is None:
        return "missing"
    return "ours" if command.MARKER in text else "foreign"


def install(host: Host, ctx: Context) -> list[Edit]:
    where = folder(host, ctx)
    if where is None or "foreign" in {_owner(w) for w in [where, *_also(host, ctx)]}:
        return []
    written = [e for rel, text in files().items() for e in edit(_path(where, rel), text)]
    return _second_copies(host, ctx) + written


def uninstall(host: Host, ctx: Context) -> list[Edit]:
    where = folder(host, ctx)
    if where is None:
        return []
    edits = _second_copies(host, ctx)
    if _owner(where) != "ours" or users(host, ctx):
        return edits
    return edits + _delete(where)


def _second_copies(host: Host, ctx: Context) -> list[Edit]:
    """Deleting our copies in the folders of ``skills_also_read`` (none is another host's
    skill folder, or it is left to that host)."""
    edits = []
    for where in _also(host, ctx):
        if _owner(where) == "ours" and all(folder(o, ctx) != where for o in _hosts()):
            edits += _delete(where)
    return edits


def _delete(where: str) -> list[Edit]:
    return [e for rel in files() for e in edit(_path(where, rel), None)]


def _hosts() -> list[Host]:
    return list(INSTALLERS.values())


def report(host: Host, ctx: Context, found: Status) -> None:
    """Set ``found.skill`` (None for hosts without skills) and add what to do."""
    where = folder(host, ctx)
    if where is None:
        return
    state = _owner(where)
    also = _also(host, ctx)
    theirs = [w for w in also if _owner(w) == "foreign"]
    seconds = [w for w in also if _owner(w) == "ours"]
    again = command.suggest("install", host.name, ctx.level, host.default_level)
    todo = None
    if state == "ours":
        stale = any(read(_path(where, rel)) != text for rel, text in files().items())
        state = "outdated" if stale or seconds else "installed"
        if seconds:
            todo = (
                f"{seconds[0]} holds a second copy of the skill ({host.name} reads both "
                f"folders and warns about the clash): run `{again}` to remove it"
            )
    elif state == "missing" and (theirs or seconds):
        state, where = ("foreign", theirs[0]) if theirs else ("outdated", seconds[0])
        if not theirs:
            todo = f"the skill is where an older memhooks put it: run `{again}` to move it"
    found.skill = {"path": where, "state": state, "shared_with": users(host, ctx)}
    if state == "foreign":
        found.todo.append(f"{where} holds another skill named {NAME}; memhooks left it alone")
    elif todo is not None:
        found.todo.append(todo)
    elif state == "outdated":
        found.todo.append(f"the skill is from another memhooks version: run `{again}`")
    elif state == "installed" and host.wiring.get("skills_todo"):
        found.todo.append(host.wiring["skills_todo"])


def _path(where: str, rel: str) -> str:
    return os.path.join(where, *rel.split("/"))
