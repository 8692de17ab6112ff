"""What an installer works with: the :class:`Context` it installs in, the :class:`Edit`
list it returns, the :class:`Status` it reads back (the Protocol an installer module
satisfies is :class:`memhooks.install.hosts.Installer`, beside the hosts it serves).

An installer never writes: :func:`install` and :func:`uninstall` return the
:class:`Edit` list (file, new text or None to delete) that would bring the host's config
to the wanted state, computed from the files as they are; :func:`memhooks.install.apply`
writes them atomically. So ``--dry-run`` is the same computation without the writes,
and idempotence means "the second install returns no edits".
"""

from __future__ import annotations

import contextlib
import os

from ..dirs import home as home_folder
from ..errors import Diagnostic, DiagnosticError, HomeError
from .command import executable, launcher_path, target
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

PROJECT = "project"
USER = "user"


class Context:
    """Where and how to install: ``root`` (the project folder, absolute), ``home``,
    ``level`` (``project`` or ``user``), ``roles`` to pass on, ``exe`` (argv prefix of
    the memhooks CLI that hook commands and the MCP entry run), ``env`` (for
    ``CODEX_HOME``, ``HERMES_HOME``...), ``via`` (Hermes: ``plugin`` or ``shell``).

    Without ``exe``, commands run ``launcher`` (:mod:`.launcher`: one path per user that
    survives upgrades, written by the install), or this installation's CLI where there
    is no launcher (Windows). An explicit ``exe`` has no launcher."""

    __slots__ = ("env", "exe", "home", "launcher", "level", "roles", "root", "via")

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
        if home is None:
            try:
                home = home_folder(self.env)
            except HomeError as exc:  # never an agent's config written where no home is
                raise HomeError(
                    f"{exc}: user-level agent configs and the hook launcher go there; set "
                    "HOME to your home folder"
                ) from None
        self.home = home
        self.roles = roles or []
        self.launcher: str | None = None
        if exe is None:
            found = launcher_path(self.env, home) if target() is not None else None
            self.launcher = found
            exe = [found] if found else executable()
        self.exe = exe
        self.via = via

    def at(self, level: str) -> Context:
        """This context at another level."""
        other = Context(
            self.root,
            level,
            home=self.home,
            roles=self.roles,
            exe=self.exe,
            env=self.env,
            via=self.via,
        )
        other.launcher = self.launcher
        return other

    def path(self, project_rel: str, user_rel: str) -> str:
        """``root/project_rel`` at project level, else :meth:`user_path` of ``user_rel``."""
        if self.level == PROJECT:
            return os.path.join(self.root, *project_rel.split("/"))
        return self.user_path(user_rel)

    def user_path(self, spec: str) -> str:
        """A user-level path (``memhooks.agents.wiring``): ``{VAR:default}/rest`` is
        ``$VAR/rest`` when ``VAR`` is set to an absolute path, else ``home/default/rest``;
        anything else is relative to ``home``."""
        base, rest = self.home, spec
        if spec.startswith("{") and "}" in spec:
            var, _, default = spec[1 : spec.index("}")].partition(":")
            rest = spec[spec.index("}") + 1 :].lstrip("/")
            base = self.env_dir(var, default)
        return os.path.join(base, *rest.split("/")) if rest else base

    def env_dir(self, var: str, default_rel: str) -> str:
        """A directory named by ``var`` (e.g. ``CODEX_HOME``), else ``home/default_rel``."""
        value = self.env.get(var, "")
        return value if value and os.path.isabs(value) else os.path.join(self.home, default_rel)


#: What to do about a config file memhooks could not read or merge (MH028's help).
CONFIG_HELP = "fix the file at that place (memhooks changed nothing), then run the command again"


class InstallError(DiagnosticError):
    """An agent's config file could not be read, parsed or merged: MH028 naming the
    file, and the line and column when the parser gave them."""

    @classmethod
    def at(cls, agent: str, path: str, exc: BaseException) -> InstallError:
        """The error for ``exc`` met while reading or merging ``path``: JSON(C) errors,
        ``json.JSONDecodeError``, ruamel.yaml's marked errors and ``OSError``."""
        line, column = _place(exc)
        detail = getattr(exc, "reason", None) or getattr(exc, "msg", None) or str(exc)
        if isinstance(exc, OSError):
            reason = f"cannot read or write it: {exc.strerror or exc}"
        elif line is not None:
            kind = "YAML" if path.endswith((".yaml", ".yml")) else "JSON"
            reason = f"not valid {kind}: {detail}"
        else:
            reason = str(detail)
        return cls(
            Diagnostic("MH028", f"{agent}: {path}: {reason}", path, line, column, help=CONFIG_HELP)
        )


def _place(exc: BaseException) -> tuple[int | None, int | None]:
    """1-based (line, column) of a parse error, (None, None) when it has none."""
    line = getattr(exc, "line", None)
    if isinstance(line, int):  # jsonc.JsoncError, yamlconf.YamlError
        return line, getattr(exc, "column", None)
    lineno = getattr(exc, "lineno", None)
    if isinstance(lineno, int):  # json.JSONDecodeError
        return lineno, getattr(exc, "colno", None)
    return None, None


@contextlib.contextmanager
def reading(agent: str, path: str) -> Iterator[None]:
    """Turn a parse or I/O failure inside the block into :class:`InstallError` at ``path``."""
    try:
        yield
    except InstallError:
        raise
    except (ValueError, OSError) as exc:
        raise InstallError.at(agent, path, exc) from exc


class Edit:
    """Write ``text`` to ``path`` (``None``: delete it); ``mode`` for new files; ``why``
    (shown with the change) when the reason is not plain from the path."""

    __slots__ = ("before", "mode", "path", "text", "why")

    def __init__(
        self, path: str, text: str | None, before: str | None, mode: int | None = None
    ) -> None:
        self.path = path
        self.text = text
        self.before = before
        self.mode = mode
        self.why: str | None = None

    @property
    def action(self) -> str:
        if self.text is None:
            return "delete"
        return "create" if self.before is None else "update"

    def __repr__(self) -> str:
        return f"Edit({self.action} {self.path})"


class Status:
    """One agent's installation at one level: ``files`` where our entries are,
    ``events`` wired, ``fires`` (True / False / None when it cannot be known from here),
    ``fires_when`` (where the host must be started for it to fire, in words),
    ``problems`` (why it would not fire), ``notes`` (what the user should know: a
    launch-folder limit, a second registration), ``todo`` (what the user must do, e.g.
    approve hooks), ``skill`` (``{"path", "state"}`` of the memhooks Agent Skill; None
    when the host reads no skills; see ``skill.py``), ``prompt_channel``,
    ``tool_channel`` and ``edit_channel`` (how recalled context, and the owners of the
    lines an edit replaces, reach the model, from the host's ``DELIVERY`` row; None: no
    such channel — an edit is then told after it, at tool time), ``stale`` (a command's program is gone,
    or the launcher has no memhooks left to start: installing again repairs it) and
    ``repair`` (that command line, set by ``memhooks.install.status``), ``plugin``
    (``{"ref", "path", "enabled"}`` of memhooks' plugin in the host, user level; None
    when it has none: ``memhooks.install.plugins``), ``runs`` (``{"program", "version"}``
    of the other memhooks the hooks run because the one the launcher names is gone —
    the one on ``PATH`` or in ``~/.local/bin``; ``version`` None when it did not say;
    None: the hooks run the memhooks the launcher names)."""

    __slots__ = (
        "agent",
        "edit_channel",
        "events",
        "files",
        "fires",
        "fires_when",
        "level",
        "notes",
        "plugin",
        "problems",
        "prompt_channel",
        "repair",
        "runs",
        "skill",
        "stale",
        "todo",
        "tool_channel",
    )

    def __init__(self, agent: str, level: str) -> None:
        self.agent = agent
        self.level = level
        self.files: list[str] = []
        self.events: list[str] = []
        self.fires: bool | None = False
        self.fires_when: str | None = None
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.todo: list[str] = []
        self.skill: dict[str, object] | None = None
        self.prompt_channel: str | None = None
        self.tool_channel: str | None = None
        self.edit_channel: str | None = None
        self.stale = False
        self.repair: str | None = None
        self.plugin: dict[str, object] | None = None
        self.runs: dict[str, str | None] | None = None

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
            "fires_when": self.fires_when,
            "prompt_channel": self.prompt_channel,
            "tool_channel": self.tool_channel,
            "edit_channel": self.edit_channel,
            "problems": self.problems,
            "notes": self.notes,
            "todo": self.todo,
            "repair": self.repair,
            "plugin": self.plugin,
            "runs": self.runs,
            "skill": self.skill,
        }


def edit(path: str, new: str | None, mode: int | None = None) -> list[Edit]:
    """``[Edit]`` when ``new`` differs from the file's current text, else ``[]``."""
    before = read(path)
    if new == before:
        return []
    return [Edit(path, new, before, mode)]
