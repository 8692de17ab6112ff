"""The launcher: one file per user that agent hosts run for memhooks, at a path that
never changes.

Codex and Gemini CLI trust a hook by its command (a hash of it, its ``name:command``),
so a command naming a virtualenv's interpreter (``/…/venv/bin/python3 -S
/…/site-packages/memhooks/__main__.py hook …``) would change with every new
virtualenv, Python version or install method, and switch the hooks off until someone
approved them again. Hook commands and the MCP server entry therefore run the file at
:func:`~memhooks.install.command.launcher_path` (``$XDG_DATA_HOME/memhooks/bin/memhooks``,
``~/.local/share/…`` when unset), a POSIX shell script that ``memhooks agents install`` writes and re-points:

* it ``exec``\\ s the interpreter of the installation it names without the site module,
  as :func:`.command.hook_program` does, but imports ``memhooks.__main__`` from its
  bytecode (``-c``) where the direct command compiles the ``__main__.py`` file on every
  call: that saving (~0.2 ms) pays back part of the shell's start (~0.9 ms), ~0.7 ms of
  CPU per call in all (``bench/bench_launcher.py`` times both, ``docs/performance.md``
  has the figures and the alternatives measured);
* when the ``__main__.py`` it names is gone but its interpreter is not (memhooks
  installed again into the same environment: ``pip install -e .`` replaces the package
  folder), it runs the memhooks that interpreter imports now, with the site module;
* when that installation is gone it runs the ``memhooks`` on ``PATH``, or the one pipx
  and uv put in ``~/.local/bin``, until the next install re-points it
  (:mod:`.launcher_state` says so, and ``agents status`` prints the repair command);
* when there is no memhooks at all, a hook gets the host's "nothing to add" reply, and
  one line naming the fix: shown to the user where the host has a channel for it (the
  ``notice`` key of its ``INSTALL`` row, e.g. Claude Code's ``systemMessage``), on
  stderr everywhere; exit 0.

Most hosts run a hook command in a shell they start for it (Claude Code ``/bin/sh -c``,
Codex, Gemini CLI and Copilot CLI ``bash -c``: the ``shell`` key of their ``INSTALL``
row). Their command does not start the launcher as a second shell: it sources it into
that one (:func:`~memhooks.install.command.sourcing`: ``set -- hook --agent …; command . <launcher> || exit 0``), so
a hook call costs what the direct command cost — one shell, then the interpreter (the
file is read and two tests run; ``docs/performance.md`` has the figures). A launcher
file that is gone makes ``command .`` fail with one line naming it, and ``|| exit 0``
answers the host's no-op. Hosts that run the command without a shell (Hermes, OpenCode's
plugin, MCP server entries) or whose way is not known run the launcher as a program.

Windows has no ``/bin/sh`` to run it: there :func:`~memhooks.install.command.launcher_path` is None and commands name the
installation directly, as before (out of scope for the launcher).
"""

from __future__ import annotations

import json
import os
import shlex

from ..errors import coded
from . import command
from .base import Edit, edit
from .hosts import INSTALLERS, Host

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Context

#: Set by the launcher before it hands over to another memhooks, so a ``memhooks`` on
#: ``PATH`` that is this launcher again (a symlink) is not run in a loop.
FALLBACK_VAR = "MEMHOOKS_LAUNCHER_FALLBACK"
#: The exit status of the launcher's interpreter when it imports no memhooks (then the
#: launcher looks further): a status memhooks itself never ends with (0, 1, 2).
NOT_HERE = 86
#: The code of the line of a hook command whose memhooks is gone (:func:`_gone`).
GONE = "MH040"


def shell() -> str:
    """The shell the launcher starts with: ``/bin/dash`` where there is one, the smallest
    POSIX shell (Debian and Ubuntu, whose ``/bin/sh`` it is, and macOS, whose ``/bin/sh``
    is bash: bash starts ~1 ms slower, ``docs/performance.md``), else ``/bin/sh``."""
    return "/bin/dash" if os.access("/bin/dash", os.X_OK) else "/bin/sh"


def text(launcher: str, python: str, main: str, sh: str | None = None) -> str:
    """The launcher script at ``launcher`` that starts ``python -S main``, run by the
    shell ``sh`` (default :func:`shell`)."""
    gone = _gone(
        f"the memhooks installation this hook runs ({python}) is gone: install memhooks"
        f" again, then run `memhooks agents install` (it re-points {launcher})"
    )
    lines = [
        f"#!{sh or shell()}",
        f"# {command.MARKER}: the launcher agent hosts run for memhooks' hooks and MCP server.",
        "# Its path never changes, so a host that trusted the command keeps trusting it;",
        "# `memhooks agents install` points the two lines below at the memhooks it runs.",
        "# Hosts that run commands in a shell source it (`set -- hook …; command . <this>`):",
        "# it must end by exec or exit, and use only the variables it sets.",
        f"python={shlex.quote(python)}",
        f"main={shlex.quote(main)}",
        "# The interpreter without the site module imports memhooks' __main__ from its",
        "# compiled bytecode (run as a file it would be compiled again on every call).",
        'if [ -f "$main" ] && [ -x "$python" ]; then',
        f'  exec "$python" -S -c {shlex.quote(_boot(main))} "$@"',
        "fi",
        "# That file is gone but its interpreter is not (memhooks installed again into the",
        "# same environment, as `pip install -e` does): the memhooks it imports now runs.",
        'if [ -x "$python" ]; then',
        f'  "$python" -c {shlex.quote(_follow())} "$@"',
        f'  found=$?; [ "$found" = {NOT_HERE} ] || exit "$found"',
        "fi",
        "# That installation is gone (another virtualenv, another Python): the memhooks on",
        "# PATH, or the one pipx and uv put in ~/.local/bin, runs until the next install.",
        *_elsewhere(gone, _replies(gone)),
    ]
    return "\n".join(lines) + "\n"


def _boot(main: str) -> str:
    """The ``-c`` program the launcher starts: what ``python -S main`` does, from the
    package's bytecode. The working folder (``-c`` puts it first on the path: the user's
    project) leaves the path; the package's parent folder joins it last, as
    :mod:`memhooks.__main__` puts it under ``-S`` (written by :func:`json.dumps`: a Python
    literal in double quotes, inside the shell's single quotes)."""
    parent = os.path.dirname(os.path.dirname(main))
    return "\n".join(
        (
            "import sys",
            "if sys.path and not sys.path[0]: del sys.path[0]",
            f"sys.path.append({json.dumps(parent)})",
            "import memhooks.__main__",
        )
    )


def _follow() -> str:
    """The ``-c`` program the launcher starts when the ``__main__.py`` it names is gone
    but its interpreter is not: the memhooks that interpreter imports now, with the site
    module (an editable install is found through it); exit :data:`NOT_HERE`, having read
    nothing, when it has none."""
    return "\n".join(
        (
            "import sys",
            "if sys.path and not sys.path[0]: del sys.path[0]",
            "try:",
            "    import memhooks.__main__",
            "except ModuleNotFoundError as missing:",
            "    if missing.name not in ('memhooks', 'memhooks.__main__'): raise",
            f"    sys.exit({NOT_HERE})",
        )
    )


def plugin_script(host: Host) -> str:
    """The ``bin/memhooks`` of ``host``'s plugin (:mod:`.plugins`): it runs the per-user
    launcher in its own shell (``.``: no second process) when ``agents install`` wrote
    one, else what the launcher falls back to."""
    title = host.wiring.get("title", host.name)
    gone = _gone(
        f"the memhooks {title} plugin needs the memhooks command: install it (`pipx install"
        " memhooks` or `uv tool install memhooks`), then run `memhooks agents install`"
    )
    lines = [
        "#!/bin/sh",
        f"# {command.MARKER}: what memhooks' {title} plugin runs for its hooks and MCP server.",
        "# Hosts that run commands in a shell read this file into it (`set -- hook …;",
        "# command . <this>`), others run it with sh: it ends by exec or exit. The per-user",
        "# launcher that `memhooks agents install` writes starts memhooks fastest; it runs",
        "# in this shell too (it ends by exec, or by exit).",
        "case ${XDG_DATA_HOME:-} in /*) data=$XDG_DATA_HOME ;; *) data=$HOME/.local/share ;; esac",
        f'if [ -f "$data/memhooks/bin/memhooks" ] && [ -z "${FALLBACK_VAR}" ]; then',
        '  . "$data/memhooks/bin/memhooks"',
        "fi",
        "# No launcher: the memhooks on PATH, or the one pipx and uv put in ~/.local/bin.",
        *_elsewhere(gone, [_reply(host, gone, '  *" hook "*)')]),
    ]
    return "\n".join(lines) + "\n"


def _gone(text: str) -> str:
    """The line a hook says when no memhooks runs it: MH040, the hook command that
    cannot run (docs/diagnostics.md), ``text`` saying why and what to do."""
    return "memhooks: " + coded(GONE, text)


def _elsewhere(gone: str, replies: list[str]) -> list[str]:
    """Shell lines: run another memhooks, else fail open with ``gone``."""
    return [
        f'if [ -z "${FALLBACK_VAR}" ]; then',
        f"  {FALLBACK_VAR}=1; export {FALLBACK_VAR}",
        '  for found in "$(command -v memhooks 2>/dev/null)" "$HOME/.local/bin/memhooks"; do',
        '    case $found in /*) if [ -x "$found" ]; then exec "$found" "$@"; fi ;; esac',
        "  done",
        "fi",
        "# No memhooks at all: the host's no-op and one line naming the fix, where the user",
        "# sees it when the host has a way to show it; a hook never fails the host.",
        f"echo {shlex.quote(gone)} >&2",
        'case " $* " in',
        *replies,
        "  *) exit 1 ;;",
        "esac",
        "exit 0",
    ]


def _reply(host: Host, gone: str, pattern: str) -> str:
    """A ``case`` arm: what ``host``'s hook prints when memhooks is gone."""
    notice = host.wiring.get("notice")
    delivery = host.delivery
    if notice:
        reply = json.dumps({notice: gone})
    else:
        reply = delivery.noop if delivery is not None else ""
    say = f"echo {shlex.quote(reply)}" if reply else ":"
    return f"{pattern} {say} ;;"


def _replies(gone: str) -> list[str]:
    """``case`` arms: per host, what its hook prints when memhooks is gone."""
    arms = [_reply(h, gone, f'  *" hook "*"--agent {n} "*)') for n, h in INSTALLERS.items()]
    return [*arms, '  *" hook "*) : ;;']


def plan(ctx: Context) -> list[Edit]:
    """The edit that writes (or re-points) the launcher at ``ctx.launcher`` to the
    running installation; [] when it is current or there is none to write."""
    where = ctx.launcher
    found = command.target()
    if where is None or found is None:
        return []
    edits = edit(where, text(where, *found), mode=0o755)
    for change in edits:
        change.why = "the launcher hook commands run; it starts this memhooks"
    return edits
