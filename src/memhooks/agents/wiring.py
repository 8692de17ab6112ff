"""The install side of a host's row: how ``memhooks agents install`` wires one host.

Each ``memhooks.agents.<host>`` module ends with ``INSTALL: Wiring = {...}``, next to its
payload normalization and its reply row, so everything memhooks knows about one host is
in one file. The row is a plain dict literal: the hook imports the host module on every
call and must not pay for the install side. Building Claude Code's row takes 0.8 µs;
importing one more module (this one) costs about 1 ms of self time (``python -X
importtime``, best of 30, load average 22 on the 2-core machine), as much as a host module
itself. So this module is imported by the type checker and by ``memhooks.install`` only.

``memhooks.install`` turns the row into edits; a host whose config is not a
``{"hooks": {event: [entry, ...]}}`` JSON file names its behaviour module in
``installer`` (``memhooks.install.<installer>``).

Keys (optional unless marked):

``title``
    The host's name in messages (``Claude Code``).
``project`` / ``user`` (required)
    The config file memhooks writes, relative to the project root / the user's home.
    A user path may start with ``{VAR:default}``: the directory ``$VAR`` when it is set
    and absolute, else ``~/default`` (``{CODEX_HOME:.codex}/hooks.json``). ``""`` for
    ``project``: the host has no project-level config.
``events`` (required)
    What a plain install wires: ``(native event, tool matcher or None)`` pairs — the
    prompt-time events, the tool events that deliver context or feed the session's
    working set, and the edit events hook maintenance needs.
``capture``
    Events ``--capture`` adds (``memhooks.install.capture_events``).
``hook``
    The entry template: a dict whose ``"$COMMAND"`` value becomes the hook command.
``groups``
    Claude-style ``{"matcher", "hooks": [entry]}`` groups (True) or flat entries.
``event_arg``
    The command passes the native event (the host's payloads do not name it).
``skeleton``
    The JSON a new config file starts from (default ``{}``).
``installer``
    Behaviour module under ``memhooks.install`` (default: ``jsonhooks``).
``levels``
    Levels the host has, the default first (default: ``("user", "project")``).
``launch``
    Where the host finds project-level config, measured or documented:
    ``start-folder`` (only in the folder it starts in), ``git-root`` (the git work tree
    of that folder, else the folder), ``walk-up`` (any folder above it), ``workspace``
    (the folder an editor opens).
``dedups``
    The host runs an identical command once even when several config files hold it.
``reads``
    Other hosts' memhooks entries this host also runs: ``"agent"`` (every level) or
    ``"agent@level"``.
``mcp``
    ``(project file, user file, servers key, entry template)`` of the host's MCP
    config; ``None`` entries are filled in (``memhooks.install.mcp_servers``).
``skills``
    ``(project folder, user folder)`` the memhooks Agent Skill goes into; hosts that name
    the same folder share one copy (``memhooks.install.skill``).
``skills_also_read``
    ``(project folder, user folder)`` the host also reads skills from, where a second
    copy of the skill would clash: install and uninstall remove ours from there.
``skills_todo``
    What the user must do before the host uses skills.
``programs`` / ``dirs``
    How ``memhooks agents install`` without ``--agent`` finds the host: program names
    looked up on ``PATH``, folders (user-path syntax, ``*`` globs) under the home.
``off_switch``
    ``(key path, value, message)``: the host's config holds a switch that turns hooks off.
``approval``
    What the user must do before the hooks run (None: nothing).
``without_tool_channel``
    For a host with no tool-time channel (``DELIVERY.tool_channel`` is None): what its
    tool events do instead, for ``status``.
``user_notes``
    What the user should know about a user-level install (``Status.notes``).
``notice``
    A key of the host's JSON hook reply whose text the host shows the user, not the
    model (``systemMessage``): where the launcher says memhooks is gone.
``shell``
    The POSIX shell the host runs a hook command in (``sh``: ``/bin/sh -c``, ``bash``:
    ``bash -c``), seen with the real CLI: its commands source the launcher into that
    shell (``memhooks.install.command.sourcing``: one shell start fewer per call). Unset:
    the host runs the command without a shell, or it is not known, and the command runs
    the launcher as a program.
``plugin``
    The host installs plugins or extensions: ``kind`` (``claude-plugin``,
    ``codex-plugin``, ``gemini-extension``, ``copilot-plugin``), ``manifest`` and
    ``hooks`` (their paths in the plugin folder)
    ``root_var`` (the variable the host sets to the installed plugin's folder) and
    ``remove`` (the host's command that uninstalls it; ``{ref}``: its id in the host);
    ``memhooks.install.plugins`` generates the plugin from this row.
``todo`` / ``project_todo``
    Other things the user must do after an install (at every level / at project level).
``source``
    Where the facts come from (docs URL, version run here).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypedDict

    Events = tuple[tuple[str, "str | None"], ...]

    class _Required(TypedDict):
        project: str
        user: str
        events: Events

    class Wiring(_Required, total=False):
        title: str
        notice: str
        shell: str
        plugin: dict[str, str]
        capture: Events
        hook: dict[str, Any]
        groups: bool
        event_arg: bool
        skeleton: dict[str, Any]
        installer: str
        levels: tuple[str, ...]
        launch: str
        dedups: bool
        reads: tuple[str, ...]
        mcp: tuple[str | None, str | None, str, dict[str, Any]]
        skills: tuple[str | None, str]
        skills_also_read: tuple[str | None, str]
        skills_todo: str
        programs: tuple[str, ...]
        dirs: tuple[str, ...]
        off_switch: tuple[tuple[str, ...], object, str]
        approval: str
        without_tool_channel: str
        user_notes: tuple[str, ...]
        todo: tuple[str, ...]
        project_todo: tuple[str, ...]
        source: str


#: The command placeholder in ``hook`` templates.
COMMAND = "$COMMAND"
#: ``launch`` values.
START_FOLDER = "start-folder"
GIT_ROOT = "git-root"
WALK_UP = "walk-up"
WORKSPACE = "workspace"
