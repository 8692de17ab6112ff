"""The hook command written into agent configs, and how we recognise our own entries.

The command names the launcher (:mod:`.launcher`), or where there is none (Windows)
this installation, by absolute path (agents run hooks with a reduced PATH, and a
virtualenv is rarely on it) and always passes ``--agent`` (payloads do not reliably say
who sent them) and, for hosts whose payload names no event (Copilot CLI), the event.
The launcher, like a command naming this installation's own CLI, runs the interpreter
on the package's ``__main__.py`` without the site module (:func:`hook_program`) rather
than the
``memhooks`` console script: pip's script wrapper imports :mod:`re` before memhooks
starts, about half a bare interpreter's start on every hook call, and site another
tenth (``bench/bench_hook.py``).

For a host that runs its hook commands in a POSIX shell (the ``shell`` key of its
``INSTALL`` row) the command sources the launcher into that shell instead
(:func:`sourcing`: ``set -- hook --agent …; command . <launcher> || exit 0``).

An entry is ours when its command runs ``memhooks hook`` (any path to the executable,
``python -m memhooks hook``, or ``python [-S] …/memhooks/__main__.py hook``) or sources the
launcher that way; nothing else is ever touched.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys

import memhooks

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

#: Marker line in files memhooks generates whole (plugins, Cline hook scripts).
MARKER = "memhooks-managed"

_OURS = re.compile(
    r"""(?:^|[\s/\\"'])memhooks(?:\.exe|\.cmd)?["']?\s+hook(?:\s|$)|-m\s+memhooks\s+hook(?:\s|$)"""
    r"""|[/\\]memhooks[/\\]__main__\.py["']?\s+hook(?:\s|$)"""
)
#: The command that sources the launcher (:func:`sourcing`); group 1 is the
#: launcher's path (shell-quoted).
SOURCED = re.compile(r"^set -- hook\s.*?; command \. (.+) \|\| exit 0$")


def _own_script() -> str:
    """The ``memhooks`` console script next to the running interpreter (it may not exist)."""
    return os.path.join(os.path.dirname(sys.executable), "memhooks")


def executable() -> list[str]:
    """argv prefix that runs this installation's CLI: the ``memhooks`` script next to
    the running interpreter, else the one on PATH, else ``python -m memhooks``."""
    here = _own_script()
    for candidate in (here, here + ".exe", shutil.which("memhooks")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return [os.path.abspath(candidate)]
    return [os.path.abspath(sys.executable), "-m", "memhooks"]


def hook_program(exe: list[str] | None = None) -> list[str]:
    """The argv prefix a hook command starts with: for this installation's own CLI (the
    default), ``[python, "-S", <package>/__main__.py]``, which runs ``memhooks`` without
    the console-script wrapper and without the site module (:mod:`memhooks.__main__`
    finds its package itself, and runs site only when an import needs it; measured on
    the no-op hook, one interleaved run: 1.20x -> 1.10x a bare interpreter); any other
    ``exe`` unchanged."""
    exe = exe or executable()
    here = _own_script()
    python = os.path.abspath(sys.executable)
    if exe in ([here], [here + ".exe"], [python, "-m", "memhooks"]):
        main = os.path.join(os.path.dirname(os.path.abspath(memhooks.__file__)), "__main__.py")
        if os.path.isfile(main):
            return [os.path.abspath(sys.executable), "-S", main]
    return exe


def argv(
    agent: str, event: str | None = None, roles: Iterable[str] = (), exe: list[str] | None = None
) -> list[str]:
    """The hook command as an argument list."""
    return [*hook_program(exe), *arguments(agent, event, roles)]


def arguments(agent: str, event: str | None = None, roles: Iterable[str] = ()) -> list[str]:
    """The hook command's arguments: ``hook --agent AGENT [--role R]… [EVENT]``."""
    out = ["hook", "--agent", agent]
    for role in roles:
        out += ["--role", role]
    if event:
        out.append(event)
    return out


def shell(
    agent: str, event: str | None = None, roles: Iterable[str] = (), exe: list[str] | None = None
) -> str:
    """The hook command as one shell-quoted string (POSIX quoting)."""
    return shlex.join(argv(agent, event, roles, exe))


def suggest(action: str, agent: str, level: str, default_level: str, *flags: str) -> str:
    """The ``memhooks agents`` command line that repeats ``action`` for ``agent`` at
    ``level`` (a level flag only when it is not the host's default)."""
    words = ["memhooks", "agents", action, "--agent", agent]
    if level != default_level:
        words.append(f"--{level}")
    return " ".join([*words, *flags])


def is_ours(command: object) -> bool:
    """Whether a config entry's command string runs ``memhooks hook``."""
    return isinstance(command, str) and (
        _OURS.search(command) is not None or sourced(command) is not None
    )


def sourced(command: str) -> str | None:
    """The launcher (a path naming memhooks) a command sources
    (:func:`sourcing`), or None."""
    found = SOURCED.match(command)
    if found is None:
        return None
    try:
        words = shlex.split(found.group(1))
    except ValueError:
        return None
    return words[0] if len(words) == 1 and "memhooks" in words[0] else None


def program_of(command: str) -> str | None:
    """The executable a command string starts with, or the launcher it sources (None if
    it cannot be split)."""
    launcher = sourced(command)
    if launcher is not None:
        return launcher
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words[0] if words else None


def runnable(command: str) -> bool:
    """Whether the program a command starts with exists and is executable — and, for an
    interpreter started on a script (``python [-S] …/memhooks/__main__.py``), whether
    the script is there: a missing one makes Python exit 2, which Claude Code and Gemini
    CLI read as "block this prompt"."""
    launcher = sourced(command)
    if launcher is not None:
        return os.path.isfile(launcher)
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words:
        return False
    program = words[0]
    script = next((w for w in words[1:3] if w.endswith(".py")), None)
    if script is not None and not os.path.isfile(script):
        return False
    if os.sep in program or (os.altsep and os.altsep in program):
        return os.path.isfile(program) and os.access(program, os.X_OK)
    return shutil.which(program) is not None


def launcher_path(env: Mapping[str, str], home: str) -> str | None:
    """The path of the launcher (:mod:`.launcher`) hook commands run, for the user whose
    environment is ``env`` and home folder ``home``: the memhooks data folder's
    ``bin/memhooks``; None on Windows."""
    if os.name == "nt":
        return None
    xdg = env.get("XDG_DATA_HOME", "")
    base = xdg if os.path.isabs(xdg) else os.path.join(home, ".local", "share")
    return os.path.join(base, "memhooks", "bin", "memhooks")


def target() -> tuple[str, str] | None:
    """``(interpreter, __main__.py)`` of the running installation, as hook commands
    start it; None when it cannot be started that way (no ``__main__.py`` file)."""
    program = hook_program([os.path.abspath(sys.executable), "-m", "memhooks"])
    if len(program) == 3 and program[1] == "-S":
        return program[0], program[2]
    return None


def sourcing(launcher: str, arguments: list[str], *, expand: bool = False) -> str:
    """The hook command, for a host that runs it in a POSIX shell, that sources
    ``launcher`` into that shell with ``arguments`` (``hook --agent …``) as its
    positional parameters: ``set -- ARGUMENTS; command . LAUNCHER || exit 0``.
    ``expand``: ``launcher`` holds a ``${VAR}`` the host fills in (a plugin's folder),
    quoted with ``"`` so the shell expands it.

    ``.`` takes no arguments in dash, hence ``set --``; ``command`` keeps a launcher that
    cannot be read from ending the shell with status 2 (a special built-in's error,
    POSIX 2.8.1), which Claude Code and Gemini CLI read as "block"; the launcher ends by
    ``exec`` or ``exit``, so ``|| exit 0`` runs only then."""
    where = f'"{launcher}"' if expand else shlex.quote(launcher)
    return f"set -- {shlex.join(arguments)}; command . {where} || exit 0"
