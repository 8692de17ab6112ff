"""The hosts whose transcripts memhooks reads, and the one small protocol their readers share.

``READERS`` maps a host's name (the ``--agent`` value, as in :mod:`memhooks.agents`) to its
reader module. Adding a host is one module and one line here. The plain chat format
(:mod:`.chat`) is not a host: its files are named, never looked for.
"""

from __future__ import annotations

from . import claude_code, codex, copilot_cli, gemini_cli

TYPE_CHECKING = False  # typing is not imported at run time: capture may load this in a hook
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Protocol

    from .lines import Damage
    from .model import Transcript
else:
    Protocol = object


class Reader(Protocol):
    """One host's transcripts: the folder it keeps them in, each session file there, the
    folder a session ran in (cheap: for choosing the project's sessions before reading
    them), and the session itself."""

    NAME: str

    def folder(self, env: Mapping[str, str]) -> str: ...

    def sessions(self, env: Mapping[str, str]) -> Iterator[str]: ...

    def cwd(self, path: str) -> str | None: ...

    def read(self, path: str, damage: Damage) -> Transcript | None: ...


READERS: dict[str, Reader] = {
    claude_code.NAME: claude_code,
    codex.NAME: codex,
    gemini_cli.NAME: gemini_cli,
    copilot_cli.NAME: copilot_cli,
}
