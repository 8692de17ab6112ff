"""Where a host must be started for memhooks' hook to fire: the launch-folder verdict.

Hosts read project-level config from the folder they start in, or from above it
(``launch`` in the host's ``INSTALL`` row, ``memhooks.agents.wiring``): Claude Code and
Gemini CLI only from the start folder itself, Codex and Copilot CLI from the git work
tree's root, OpenCode from any folder above, editors from the workspace folder they
open. A project-level install at the root therefore fires for some ways of starting the
host and not others; a user-level install fires wherever the host starts (the hook does
nothing outside a project with a root ``MEMHOOKS.md``). :func:`annotate` says which, in
``Status.fires_when``, and adds a note when a way of starting the host gets nothing.
"""

from __future__ import annotations

import os

from ..agents.wiring import GIT_ROOT, START_FOLDER, WALK_UP, WORKSPACE
from ..git import marker
from ..protocol import HOOK_NAME
from .base import PROJECT, USER
from .command import suggest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Context, Status
    from .hosts import Host


def annotate(host: Host, ctx: Context, found: Status, other: Status | None) -> None:
    """Set ``found.fires_when`` and add notes, given ``other``: the host's install at
    its other level (None when it has one level only)."""
    if not found.installed:
        return
    title = host.wiring.get("title", host.name)
    both = other is not None and other.installed
    if ctx.level == USER:
        found.fires_when = f"wherever {title} starts (the hook does nothing outside a project with a root MEMHOOKS.md)"
        return
    found.fires_when, limit = _project_reach(host, title, ctx.root)
    if both and not host.wiring.get("dedups"):
        remove = suggest("uninstall", host.name, PROJECT, host.default_level)
        found.notes.append(
            f"also installed at user level: {title} runs both, so every event is handled twice; "
            f"remove this one with `{remove}`"
        )
    elif limit and not both:
        user = suggest("install", host.name, USER, host.default_level)
        found.notes.append(f"{limit}; install at user level to cover every folder: `{user}`")


def overlaps(
    host: Host, ctx: Context, found: Status, others: dict[tuple[str, str], Status]
) -> None:
    """Note the memhooks entries of other hosts that ``host`` also runs (``reads`` in its
    row: Copilot reads Claude Code's and the other Copilot's files, Cursor Claude Code's
    when its third-party setting is on). ``others`` maps ``(agent, level)`` to that
    install's status."""
    if not found.installed:
        return
    title = host.wiring.get("title", host.name)
    for spec in host.wiring.get("reads", ()):
        agent, _, only = spec.partition("@")
        for (name, level), state in others.items():
            if name != agent or (only and level != only) or not state.installed:
                continue
            files = ", ".join(state.files)
            found.notes.append(
                f"{title} also reads {files}, which holds memhooks' {agent} hooks: an event may "
                "be handled twice (uninstall one of the two if recall arrives twice)"
            )


def _project_reach(host: Host, title: str, root: str) -> tuple[str, str | None]:
    """(where it fires, what gets nothing or None) for a project-level install."""
    launch = host.wiring.get("launch")
    sub = example(root)
    if launch == WALK_UP:
        return f"when {title} starts in {root} or a folder below it", None
    if launch == GIT_ROOT and marker(root):
        return f"when {title} starts anywhere in the git work tree {root}", None
    if launch == WORKSPACE:
        limit = (
            f"opened on a subfolder such as {sub}, {title} does not read {root}'s config and "
            "memhooks' hook does not fire"
        )
        return f"when {title} opens {root} as its workspace folder", limit
    why = (
        f"{title} reads project config only from the folder it starts in"
        if launch == START_FOLDER
        else f"{root} is not a git work tree, so {title} reads its config only there"
    )
    return (
        f"only when {title} starts in {root}",
        f"{why}: started in a subfolder such as {sub}, memhooks' hook does not fire",
    )


def example(root: str) -> str:
    """A subfolder of ``root`` to name in a message: one with a MEMHOOKS.md first."""
    try:
        names = sorted(
            e.name
            for e in os.scandir(root)
            if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")
        )
    except OSError:
        names = []
    hooked = [n for n in names if os.path.isfile(os.path.join(root, n, HOOK_NAME))]
    picks = hooked or names
    return os.path.join(root, picks[0]) + os.sep if picks else os.path.join(root, "<subfolder>")
