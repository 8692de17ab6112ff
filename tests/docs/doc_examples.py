"""Command examples in Markdown: which blocks hold them, how they run, how they parse.

The convention (docs/index.md, "Writing examples"):

* A fenced block whose language is ``sh``, ``bash``, ``shell`` or ``console`` is an
  *example block* when one of its commands starts with ``memhooks`` (after optional
  ``VAR=value`` assignments; in ``console`` blocks only ``$ `` lines are commands).
* By default it is **run**: the whole block as one ``bash -e`` script, in the page's
  fixture project, and must exit 0. A command ending in ``# exit N`` must exit N.
* ```` ```sh norun ```` blocks are **not run** (they need a server, an agent, or would
  wait on stdin), but every ``memhooks`` command in them must parse with the real
  argument parser, so a renamed command or flag still fails the test.
* Synopses (``[--flag]``, ``a|b``) go in ```` ```text ```` blocks, which are not examples.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

SHELLS = ("sh", "bash", "shell", "console")
_FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w-]*)\s*(.*)$")
_COMMAND = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*memhooks(?:\s|$)")
_EXIT = re.compile(r"\s#\s*exit\s+(\d+)\s*$")


@dataclass
class Block:
    """One fenced block: ``line`` is the 1-based line of its opening fence."""

    path: str
    line: int
    language: str
    flags: list[str]
    body: list[str] = field(default_factory=list)

    @property
    def run(self) -> bool:
        return "norun" not in self.flags

    def commands(self) -> list[str]:
        """The block's commands: ``console`` blocks' ``$`` lines (prompt removed), every
        line of the others; ``\\``-continued lines joined."""
        lines = self.body
        if self.language == "console":
            lines = [ln[2:] for ln in lines if ln.startswith("$ ")]
        joined: list[str] = []
        pending = ""
        for line in lines:
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            joined.append(pending + line)
            pending = ""
        if pending:
            joined.append(pending)
        return joined

    def examples(self) -> list[str]:
        """The commands that run ``memhooks``."""
        return [c.strip() for c in self.commands() if _COMMAND.match(c.strip())]

    def where(self) -> str:
        return f"{self.path}:{self.line}"


def blocks(path: str, text: str) -> list[Block]:
    """Every example block of a Markdown text, in order."""
    found: list[Block] = []
    current: Block | None = None
    fence = ""
    for number, line in enumerate(text.splitlines(), 1):
        if current is None:
            match = _FENCE.match(line.strip())
            if match:
                fence = match.group(1)
                words = match.group(3).split()
                current = Block(path, number, match.group(2).lower(), words)
            continue
        if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            if current.language in SHELLS and current.examples():
                found.append(current)
            current = None
            continue
        current.body.append(line)
    return found


def script(block: Block) -> str:
    """The bash script that runs ``block``; ``# exit N`` commands must exit N."""
    lines = ["set -e"]
    for command in block.commands():
        expected = _EXIT.search(command)
        if expected is None:
            lines.append(command)
            continue
        code = expected.group(1)
        body = command[: expected.start()]
        lines.append(
            f"__rc=0; {body} || __rc=$?; "
            f'[ "$__rc" -eq {code} ] || {{ echo "expected exit {code}, got $__rc: {shlex.quote(body)}" >&2; exit 1; }}'
        )
    return "\n".join(lines) + "\n"


def argv(command: str) -> list[str]:
    """The ``memhooks`` arguments of a command line: assignments before it and anything
    after a pipe, redirection, ``&&``, ``;`` or comment dropped."""
    words = shlex.split(command, comments=True)
    while words and "=" in words[0] and words[0] != "memhooks":
        words.pop(0)
    args: list[str] = []
    for word in words[1:]:
        if word in ("|", "||", "&&", ";", ">", ">>", "<", "2>", "2>&1", "&"):
            break
        args.append(word)
    return args
