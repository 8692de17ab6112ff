"""The normalized lifecycle event that every agent host's hook payload becomes.

Pure data, no I/O. This module runs in every agent hook (a fresh process per tool
call), so it imports nothing at run time: ``typing`` is needed only by the type
checker, which is why :class:`Adapter` exists under ``TYPE_CHECKING`` alone.

Normalized events (seed 004, plus ``pre_tool`` and ``stop``), in lifecycle order:

=============== ===========================================================
``session_start`` a session (or task) begins, resumes, or restarts after compaction
``user_prompt``   the user submitted a prompt (once per user turn)
``pre_tool``      a tool is about to run; ``files`` are what it will touch
``post_edit``     a tool finished and reported files it wrote, deleted or renamed
``post_command``  a shell command finished (``command``, maybe ``exit_code``/``output``)
``post_tool``     any other tool finished (reads, searches, MCP calls, ...)
``pre_compact``   the host is about to compact the conversation
``post_compact``  compaction finished (``summary`` only when the host sends one)
``stop``          the agent finished a turn (``response`` when the host sends it)
``session_end``   the session (or task) ended
=============== ===========================================================

A recognised host event that has no lifecycle meaning for us (e.g. Claude
Code ``Notification``) normalizes to ``event=None``: the caller does nothing.
"""

from __future__ import annotations

# ``typing`` costs milliseconds per hook process; mypy honours this spelling too.
TYPE_CHECKING = False

SESSION_START = "session_start"
USER_PROMPT = "user_prompt"
PRE_TOOL = "pre_tool"
POST_EDIT = "post_edit"
POST_COMMAND = "post_command"
POST_TOOL = "post_tool"
PRE_COMPACT = "pre_compact"
POST_COMPACT = "post_compact"
STOP = "stop"
SESSION_END = "session_end"

EVENTS = (
    SESSION_START,
    USER_PROMPT,
    PRE_TOOL,
    POST_EDIT,
    POST_COMMAND,
    POST_TOOL,
    PRE_COMPACT,
    POST_COMPACT,
    STOP,
    SESSION_END,
)
#: The events after a tool ran: what it read (``post_tool``), ran or changed.
AFTER_TOOL_EVENTS = frozenset((POST_TOOL, POST_COMMAND, POST_EDIT))
#: The events of a tool call, before it runs and after: tool-time recall's, and the ones
#: the hook's shortcuts may settle (``memhooks.session.fastpath``, ``memhooks.hook.told``).
TOOL_TIME_EVENTS = AFTER_TOOL_EVENTS | {PRE_TOOL}

WRITTEN = "written"
READ = "read"
DELETED = "deleted"
RENAMED = "renamed"
ACTIONS = (WRITTEN, READ, DELETED, RENAMED)

#: ``NormalizedEvent.host`` when no adapter recognised the payload.
UNKNOWN = "unknown"


class FileChange:
    """One file an event reports: ``path`` and ``action`` (one of :data:`ACTIONS`).

    ``old_path`` is set only for ``renamed``. Paths use ``/`` separators and are
    absolute when the payload gave a working directory; nothing is checked on disk.
    """

    __slots__ = ("action", "old_path", "path")

    def __init__(self, path: str, action: str, old_path: str | None = None) -> None:
        self.path = path
        self.action = action
        self.old_path = old_path

    def as_list(self) -> list[str]:
        """``[action, path]`` or ``[action, path, old_path]`` (the shape tests store)."""
        out = [self.action, self.path]
        if self.old_path is not None:
            out.append(self.old_path)
        return out

    def _key(self) -> tuple[str, str, str | None]:
        return (self.path, self.action, self.old_path)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FileChange) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        old = "" if self.old_path is None else f", old_path={self.old_path!r}"
        return f"FileChange({self.path!r}, {self.action!r}{old})"


class NormalizedEvent:
    """One hook payload, host-neutral. Every field but ``host`` may be empty.

    ``host``            registry name (``"claude-code"``...) or ``"unknown"``
    ``event``           one of :data:`EVENTS`, or None (nothing to do)
    ``native_event``    the host's own event name, as sent (or as inferred for
                        hosts whose payload has none, e.g. Copilot CLI)
    ``cwd``             working directory the host reported (``/`` separators)
    ``session_id``      the host's session / conversation / task id
    ``prompt``          user prompt text (``user_prompt``, some ``session_start``)
    ``tool_name``       tool as the host names it
    ``tool_input``      the tool's arguments as a dict (JSON strings decoded)
    ``files``           list of :class:`FileChange`
    ``command``         shell command text (``pre_tool``/``post_command``)
    ``exit_code``       int, only when the host reports one
    ``success``         bool, only when the host reports one
    ``output``          tool or command output text the host sent
    ``error``           error text the host sent
    ``response``        the assistant's final message (``stop``)
    ``summary``         a compaction summary the host itself produced
    ``reason``          why it fired: start ``source``, end ``reason``, compact ``trigger``
    ``workspace_roots`` list of root directories the host reported
    ``transcript_path`` the host's transcript file, if any
    ``raw``             the payload exactly as received
    ``malformed``       what is wrong with a field the event is served from (a tool
                        input that is no object, or none for a file or shell tool; a
                        file path or an edit's text that is no text, a path with a
                        NUL; a prompt, ``cwd``, session id... that is no text): the
                        rule is :func:`memhooks.agents.fields.wrong`. None when nothing
                        is; else the hook serves nothing and says so (MH041)

    ``files`` is filled for every event that names files, not only ``post_edit``:
    ``post_tool`` carries reads, ``pre_tool`` what a tool is about to touch, and
    ``user_prompt`` files the user attached. Consumers pick by ``event``.
    """

    __slots__ = (
        "command",
        "cwd",
        "error",
        "event",
        "exit_code",
        "files",
        "host",
        "malformed",
        "native_event",
        "output",
        "prompt",
        "raw",
        "reason",
        "response",
        "session_id",
        "success",
        "summary",
        "tool_input",
        "tool_name",
        "transcript_path",
        "workspace_roots",
    )

    def __init__(
        self,
        host: str,
        event: str | None = None,
        *,
        native_event: str | None = None,
        cwd: str | None = None,
        session_id: str | None = None,
        prompt: str | None = None,
        tool_name: str | None = None,
        tool_input: dict[str, object] | None = None,
        files: list[FileChange] | None = None,
        command: str | None = None,
        exit_code: int | None = None,
        success: bool | None = None,
        output: str | None = None,
        error: str | None = None,
        response: str | None = None,
        summary: str | None = None,
        reason: str | None = None,
        workspace_roots: list[str] | None = None,
        transcript_path: str | None = None,
        raw: object = None,
        malformed: str | None = None,
    ) -> None:
        self.host = host
        self.event = event
        self.native_event = native_event
        self.cwd = cwd
        self.session_id = session_id
        self.prompt = prompt
        self.tool_name = tool_name
        self.tool_input = tool_input
        self.files = files if files is not None else []
        self.command = command
        self.exit_code = exit_code
        self.success = success
        self.output = output
        self.error = error
        self.response = response
        self.summary = summary
        self.reason = reason
        self.workspace_roots = workspace_roots if workspace_roots is not None else []
        self.transcript_path = transcript_path
        self.raw = raw
        self.malformed = malformed

    def to_dict(self) -> dict[str, object]:
        """Every field but ``raw``, ``tool_input`` and ``malformed``, JSON-ready (files as
        lists)."""
        out: dict[str, object] = {}
        for name in self.__slots__:
            if name not in ("raw", "tool_input", "malformed"):
                out[name] = getattr(self, name)
        out["files"] = [f.as_list() for f in self.files]
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NormalizedEvent):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable, like a dataclass(eq=True)

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.to_dict().items() if v not in (None, [])}
        inner = ", ".join(f"{k}={v!r}" for k, v in shown.items())
        return f"NormalizedEvent({inner})"


if TYPE_CHECKING:
    from typing import Protocol

    from .delivery import Delivery

    class Adapter(Protocol):
        """An agent host adapter: one module of this package, listed in ``registry.HOSTS``.

        ``detect`` answers from the payload alone whether it came from this host.
        ``normalize`` never raises on any JSON object; ``native_event`` is a hint
        (e.g. from the command line) used when the payload does not name its event.
        ``NAME`` is the registry key; ``EVENTS`` maps native event names to
        normalized ones (None: recognised, nothing to do); ``DELIVERY`` is how its
        replies reach the model (:mod:`.delivery`), ``PROJECT_VARS`` the environment
        variables it names the project folder in (:mod:`.folder`).
        """

        NAME: str
        EVENTS: dict[str, str | None]
        DELIVERY: Delivery
        PROJECT_VARS: tuple[str, ...]

        def detect(self, payload: dict[str, object]) -> bool: ...

        def normalize(
            self, payload: dict[str, object], native_event: str | None
        ) -> NormalizedEvent: ...
