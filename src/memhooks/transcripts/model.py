"""What a host's transcript says, in one shape for every host: messages and tool uses.

A reader (one module per host) turns a host's session file into a :class:`Transcript`;
everything after that (segmenting, anchoring, rendering, superseding) reads only this.
Texts are as the host wrote them: scrubbing happens when pieces are made
(:mod:`.render`), so one rule covers every host.
"""

from __future__ import annotations

USER = "user"
ASSISTANT = "assistant"


class ToolUse:
    """One tool call of the agent: the host's tool ``name``, its ``kind`` (``read``,
    ``edit``, ``command``, ``search``, ``other``: :mod:`memhooks.agents.tools`), the
    ``paths`` its arguments name (as written: absolute, or relative to the session's
    folder) and, for a command, its ``command`` text. The tool's output is not kept."""

    __slots__ = ("command", "kind", "name", "paths")

    def __init__(
        self, name: str, kind: str, paths: list[str] | None = None, command: str | None = None
    ) -> None:
        self.name = name
        self.kind = kind
        self.paths = paths if paths is not None else []
        self.command = command

    def __repr__(self) -> str:
        return f"ToolUse({self.name!r}, {self.kind!r}, {self.paths!r}, {self.command!r})"


class Message:
    """One message: ``role`` :data:`USER` or :data:`ASSISTANT`, its ``text`` (may be empty
    for an assistant message that only calls tools), ``at`` (ISO 8601 UTC, or None when
    the host wrote no time) and the ``tools`` it called."""

    __slots__ = ("at", "role", "text", "tools")

    def __init__(
        self, role: str, text: str, at: str | None = None, tools: list[ToolUse] | None = None
    ) -> None:
        self.role = role
        self.text = text
        self.at = at
        self.tools = tools if tools is not None else []


class Transcript:
    """One session as a host kept it: ``host`` (``claude-code``, ``codex``, ...),
    ``session`` (the host's session id), ``path`` (the file read), ``cwd`` (the folder
    the session ran in, absolute; None when the file does not say) and its ``messages``
    in order. A message the user never wrote (hook context, environment preambles,
    compaction summaries) is not among them."""

    __slots__ = ("cwd", "host", "messages", "path", "session")

    def __init__(
        self,
        host: str,
        session: str,
        path: str,
        cwd: str | None,
        messages: list[Message] | None = None,
    ) -> None:
        self.host = host
        self.session = session
        self.path = path
        self.cwd = cwd
        self.messages = messages if messages is not None else []

    @property
    def started(self) -> str | None:
        """The time of the first message that has one."""
        return next((m.at for m in self.messages if m.at), None)
