"""What running the launcher (:mod:`.launcher`) does now, for ``agents status`` and
``agents check``: whether the installation it names is there, which other memhooks it
runs when not (and which version that is), and why a hook command that runs it would
not reach memhooks (who runs it: :mod:`.retire`)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess

from . import command
from .files import read
from .launcher import FALLBACK_VAR

#: :func:`state` values.
OK = "ok"
MOVED = "moved"
REINSTALLED = "reinstalled"
GONE = "gone"
MISSING = "missing"
FOREIGN = "foreign"


def points_at(launcher: str) -> tuple[str, str] | None:
    """``(interpreter, __main__.py)`` the launcher file names; None when it is missing
    or not ours."""
    body = read(launcher)
    if body is None or command.MARKER not in body:
        return None
    values: dict[str, str] = {}
    for line in body.splitlines():
        key, sep, value = line.partition("=")
        if sep and key in ("python", "main"):
            try:
                words = shlex.split(value)
            except ValueError:
                return None
            values[key] = words[0] if words else ""
    if set(values) != {"python", "main"}:
        return None
    return values["python"], values["main"]


def state(launcher: str, env: dict[str, str] | None = None) -> str:
    """What running ``launcher`` does now: :data:`OK` (starts the installation it names),
    :data:`REINSTALLED` (the ``__main__.py`` it names is gone, and its interpreter imports
    a memhooks installed again there, e.g. by ``pip install -e``: that one runs),
    :data:`MOVED` (that one is gone; a ``memhooks`` on ``PATH`` or in ``~/.local/bin``
    runs instead), :data:`GONE` (no memhooks at all: hooks answer nothing),
    :data:`MISSING` (no such file) or :data:`FOREIGN` (a file that is not ours)."""
    if not os.path.exists(launcher):
        return MISSING
    names = points_at(launcher)
    if names is None:
        return FOREIGN
    python, main = names
    if os.path.isfile(main) and os.access(python, os.X_OK):
        return OK
    if os.access(python, os.X_OK) and imports_memhooks(python, env):
        return REINSTALLED
    return MOVED if fallback(env) else GONE


def imports_memhooks(python: str, env: dict[str, str] | None = None) -> bool:
    """Whether the interpreter ``python`` (with its site module, as the launcher starts it
    then) imports a memhooks, asked within 10 s."""
    probe = ("import sys\nif sys.path and not sys.path[0]: del sys.path[0]\n"
             "import importlib.util\nsys.exit(importlib.util.find_spec('memhooks') is None)")  # fmt: skip
    try:
        done = subprocess.run([python, "-c", probe], capture_output=True, env=env,
                              timeout=10, check=False)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def fallback(env: dict[str, str] | None = None) -> str | None:
    """The ``memhooks`` a launcher whose installation is gone runs instead, or None."""
    env = dict(os.environ) if env is None else env
    found = shutil.which("memhooks", path=env.get("PATH", ""))
    home = env.get("HOME", "")
    for candidate in (found, os.path.join(home, ".local", "bin", "memhooks") if home else None):
        if candidate and os.path.isabs(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def version(program: str, env: dict[str, str] | None = None) -> str | None:
    """The version ``program`` (a ``memhooks``) says it is, or None when it does not say
    within 10 s. Run with :data:`FALLBACK_VAR` set: a launcher it reaches runs no other."""
    env = dict(os.environ if env is None else env, **{FALLBACK_VAR: "1"})
    try:
        done = subprocess.run([program, "--version"], capture_output=True, text=True, env=env,
                              timeout=10, check=False)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = done.stdout.split()
    return words[1] if done.returncode == 0 and len(words) == 2 and words[0] == "memhooks" else None


def problem(
    program: str, env: dict[str, str] | None = None, *, sourced: bool = False
) -> str | None:
    """Why hook commands that run the launcher ``program`` (that source it: ``sourced``,
    when its ``#!`` line does not matter) would not reach memhooks (None: they do,
    directly or through the fallback)."""
    body = read(program) or ""
    first = body.partition("\n")[0]
    sh = first[2:].strip() if first.startswith("#!") and command.MARKER in body else ""
    if (
        sh and not sourced and not os.access(sh, os.X_OK)
    ):  # the kernel cannot start it: hosts see exit 127
        return f"the shell the launcher {program} runs in is gone ({sh})"
    now = state(program, env)
    if now == FOREIGN and sourced:  # the host's shell reads whatever is there, and
        return f"{program} is not memhooks' launcher (run memhooks agents install)"  # exits 0
    if now == GONE:
        names = points_at(program)
        gone = names[0] if names else program
        return f"the memhooks installation the launcher {program} starts is gone ({gone})"
    return None


def command_problem(hook_command: str) -> str | None:
    """Why a hook command would not reach memhooks (None: it would): its program is
    missing or not executable, or it runs the launcher (:mod:`.launcher`) and no
    memhooks is left for it to start (:func:`problem`)."""
    launcher = command.sourced(hook_command)
    if launcher is not None:
        if not os.path.isfile(launcher):
            return f"the launcher it runs is missing: {launcher}"
        if not os.access(launcher, os.R_OK):  # '.' reads it; '|| exit 0' hides the failure
            return f"the launcher it runs cannot be read: {launcher}"
        return problem(launcher, sourced=True)
    if not command.runnable(hook_command):
        return f"program not found or not executable: {hook_command}"
    program = command.program_of(hook_command)
    return problem(program) if program and os.path.isabs(program) else None
