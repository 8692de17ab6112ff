"""What an installer is: one module per agent host behind one small Protocol.

An installer never writes: :func:`install` and :func:`uninstall` return the
:class:`Edit` list (file, new text or None to delete) that would bring the host's config
to the wanted state, computed from the files as they are; :func:`memhooks.install.apply`
writes them atomically. So ``--dry-run`` is the same computation without the writes,
and idempotence means "the second install returns no edits".
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol

PROJECT = "project"
USER = "user"


class Context:
    """Where and how to install: ``root`` (the project folder, absolute), ``home``,
    ``level`` (``project`` or ``user``), ``roles`` to pass on, ``exe`` (argv prefix of
    the memhooks CLI), ``env`` (for ``CODEX_HOME``, ``HERMES_HOME``...), ``via``
    (Hermes: ``plugin`` or ``shell``)."""

    __slots__ = ("env", "exe", "home", "level", "roles", "root", "via")

    def __init__(
        self,
        root: str,
        level: str = PROJECT,
        *,
        home: str | None = None,
        roles: list[str] | None = None,
        exe: list[str] | None = None,
        env: Mapping[str, str] | None = None,
        via: str | None = None,
    ) -> None:
        self.root = os.path.abspath(root)
        self.level = level
        self.env = os.environ if env is None else env
        self.home = home or self.env.get("HOME") or os.path.expanduser("~")
        self.roles = roles or []
        if exe is None:
            from .command import executable

            exe = executable()
        self.exe = exe
        self.via = via

    def path(self, project_rel: str, user_rel: str) -> str:
        """``root/project_rel`` at project level, ``home/user_rel`` at user level."""
        if self.level == PROJECT:
            return os.path.join(self.root, project_rel)
        return os.path.join(self.home, user_rel)

    def env_dir(self, var: str, default_rel: str) -> str:
        """A directory named by ``var`` (e.g. ``CODEX_HOME``), else ``home/default_rel``."""
        value = self.env.get(var, "")
        return value if value and os.path.isabs(value) else os.path.join(self.home, default_rel)


class Edit:
    """Write ``text`` to ``path`` (``None``: delete it); ``mode`` for new files."""

    __slots__ = ("before", "mode", "path", "text")

    def __init__(
        self, path: str, text: str | None, before: str | None, mode: int | None = None
    ) -> None:
        self.path = path
        self.text = text
        self.before = before
        self.mode = mode

    @property
    def action(self) -> str:
        if self.text is None:
            return "delete"
        return "create" if self.before is None else "update"

    def __repr__(self) -> str:
        return f"Edit({self.action} {self.path})"


class Status:
    """One agent's installation: ``files`` where our entries are, ``events`` wired,
    ``fires`` (True / False / None when it cannot be known from here), ``problems``
    (why it would not fire), ``todo`` (what the user must do, e.g. approve hooks),
    ``skill`` (``{"path", "state"}`` of the memhooks Agent Skill; None when the host
    reads no skills; see ``skill.py``)."""

    __slots__ = ("agent", "events", "files", "fires", "level", "problems", "skill", "todo")

    def __init__(self, agent: str, level: str) -> None:
        self.agent = agent
        self.level = level
        self.files: list[str] = []
        self.events: list[str] = []
        self.fires: bool | None = False
        self.problems: list[str] = []
        self.todo: list[str] = []
        self.skill: dict[str, str] | None = None

    @property
    def installed(self) -> bool:
        return bool(self.events)

    def to_dict(self) -> dict[str, object]:
        return {
            "agent": self.agent,
            "level": self.level,
            "installed": self.installed,
            "files": self.files,
            "events": self.events,
            "fires": self.fires,
            "problems": self.problems,
            "todo": self.todo,
            "skill": self.skill,
        }


def edit(path: str, new: str | None, mode: int | None = None) -> list[Edit]:
    """``[Edit]`` when ``new`` differs from the file's current text, else ``[]``."""
    from .files import read

    before = read(path)
    if new == before:
        return []
    return [Edit(path, new, before, mode)]


if TYPE_CHECKING:

    class Installer(Protocol):
        """An agent host's installer: a module listed in ``registry.INSTALLERS``.

        ``NAME`` is the ``--agent`` name; ``LEVELS`` the levels it supports;
        ``EVENTS`` the host events it wires and ``CHANNEL`` where context reaches the
        model (documentation and ``status``); ``APPROVAL`` what the user must do before
        hooks run (None: nothing).

        Hosts that read Agent Skills also define ``skills_dir(ctx) -> str``, the folder
        the memhooks skill goes into at ``ctx.level`` (``skill.py``), and may define
        ``SKILLS_TODO``, what the user must do before the host uses skills.
        """

        NAME: str
        LEVELS: tuple[str, ...]
        EVENTS: tuple[str, ...]
        CHANNEL: str
        APPROVAL: str | None

        def install(self, ctx: Context) -> list[Edit]: ...

        def uninstall(self, ctx: Context) -> list[Edit]: ...

        def status(self, ctx: Context) -> Status: ...
