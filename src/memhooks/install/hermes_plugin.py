"""The files of the Hermes plugin ``memhooks agents install --agent hermes`` writes in
``plugins/memhooks/``: ``plugin.yaml`` (:func:`manifest`) and ``__init__.py``
(:func:`shim`), which imports :mod:`memhooks.integrations.hermes` — the plugin itself,
run in Hermes' own process — and falls back to the hook command when memhooks cannot be
imported there.
"""

from __future__ import annotations

import json
import os

import ruamel.yaml

import memhooks

from .. import __version__
from .command import MARKER, argv

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def manifest() -> str:
    """The plugin's ``plugin.yaml``."""
    return (
        "name: memhooks\n"
        f'version: "{__version__}"\n'
        'description: "memhooks: recall for the working folder before each turn; hook maintenance after file edits"\n'
        "provides_hooks: [pre_llm_call, post_tool_call, on_session_finalize, on_session_reset]\n"
    )


def shim(roles: Iterable[str] = (), exe: list[str] | None = None) -> str:
    """The plugin's ``__init__.py``: find memhooks, register, or fall back to the CLI."""
    # where this installation's package and its dependency are, for the shim's fallback path
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(memhooks.__file__)))
    yaml_parent = os.path.dirname(os.path.dirname(os.path.abspath(ruamel.yaml.__file__)))
    paths = [package_parent, os.path.dirname(yaml_parent)]
    command = argv("hermes", "pre_llm_call", list(roles), exe)
    return SHIM.format(
        marker=MARKER,
        paths=json.dumps(list(dict.fromkeys(paths))),
        roles=json.dumps(list(roles)),
        command=json.dumps(command),
    )


SHIM = '''"""{marker}: written by `memhooks agents install --agent hermes`; `memhooks agents uninstall --agent hermes` removes it."""

import json
import subprocess
import sys

PATHS = {paths}
ROLES = {roles}
COMMAND = {command}


def register(ctx):
    try:
        import memhooks.integrations.hermes as plugin
    except ImportError:
        sys.path.extend(p for p in PATHS if p not in sys.path)  # appended: Hermes' own packages win
        try:
            import memhooks.integrations.hermes as plugin
        except ImportError:
            ctx.register_hook("pre_llm_call", _by_command)
            return
    plugin.register(ctx, ROLES)


def _by_command(**kwargs):
    import os

    payload = {{"hook_event_name": "pre_llm_call", "cwd": os.environ.get("TERMINAL_CWD") or os.getcwd(),
               "session_id": kwargs.get("session_id"), "extra": {{"user_message": kwargs.get("user_message")}}}}
    try:
        done = subprocess.run(COMMAND, input=json.dumps(payload), capture_output=True, text=True, timeout=10)
        reply = json.loads(done.stdout or "{{}}")
    except Exception:
        return None
    return reply if isinstance(reply, dict) and reply.get("context") else None
'''
