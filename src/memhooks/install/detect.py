"""Which agent hosts are on this machine: what ``memhooks agents install`` without
``--agent`` wires (seed 004's one-step install).

A host is present when one of its programs is on ``PATH`` or one of its folders exists
under the home directory (``programs`` and ``dirs`` of its ``INSTALL`` row; folders in
user-path syntax, ``*`` globs allowed: VS Code extensions carry their version in the
folder name). Nothing is run: a program on ``PATH`` is not asked for its version.
"""

from __future__ import annotations

import glob
import os
import shutil

from ..paths import is_within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Context
    from .hosts import Host


class Found:
    """Why a host counts as present: ``reasons`` (``"claude on PATH"``,
    ``"~/.claude"``); empty when it does not."""

    __slots__ = ("host", "reasons")

    def __init__(self, host: Host, reasons: list[str]) -> None:
        self.host = host
        self.reasons = reasons

    @property
    def present(self) -> bool:
        return bool(self.reasons)

    def looked_for(self, ctx: Context) -> str:
        """What was looked for, for the "skipped" line."""
        wanted = [f"{p} on PATH" for p in self.host.wiring.get("programs", ())]
        wanted += [_shown(ctx.user_path(d), ctx.home) for d in self.host.wiring.get("dirs", ())]
        return ", ".join(wanted) or "nothing to look for"


def find(host: Host, ctx: Context) -> Found:
    """Whether ``host`` is on this machine, looking at ``ctx.env["PATH"]`` and
    ``ctx.home`` only."""
    reasons = []
    path = ctx.env.get("PATH", "")
    for program in host.wiring.get("programs", ()):
        if shutil.which(program, path=path):
            reasons.append(f"{program} on PATH")
    for folder in host.wiring.get("dirs", ()):
        pattern = ctx.user_path(folder)
        matches = glob.glob(pattern) if "*" in pattern else [pattern]
        if any(os.path.isdir(match) for match in matches):
            reasons.append(_shown(pattern, ctx.home))
    return Found(host, reasons)


def _shown(path: str, home: str) -> str:
    """``~/rest`` for a path under ``home``."""
    if is_within(path, home):
        return "~" + path[len(home.rstrip(os.sep)) :]
    return path
