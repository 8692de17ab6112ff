"""Any memory system behind a small documented interface: an HTTP/JSON endpoint or a
command (``docs/backends.md`` has the exact shapes).

User settings (``[backends.generic]``, ``MEMHOOKS_GENERIC_<KEY>``) — one of ``url`` or
``command``, and only what is configured is offered:

===============  =========================================================================
key              meaning
===============  =========================================================================
url              search: ``POST`` the request JSON, read the response JSON
write_url        ``remember``: ``POST`` ``{"version", "op": "remember", "memory"}``
health_url       ``health``: ``GET``, any 2xx is healthy
token, headers   ``Authorization: Bearer <token>``; more request headers (never shown)
command          search: run this argv (a list, or a string split like a shell would,
                 but never run by one) with the request JSON on stdin, read stdout
write_command    ``remember`` through a command, the same way
timeout_s        seconds for ``remember`` and ``health`` (default 10); searches take the
                 request's
===============  =========================================================================

Search request: ``{"version": 1, "op": "search", "query", "prompt", "entities",
"tags", "resources", "files", "active_files", "named_files", "scopes", "auto",
"priority", "limit", "project", "options"}`` (``options``: the query's merged ``backends.generic`` namespace,
uninterpreted). Response: ``{"memories":
[{"id", "text", "score"?, "scope"?, "files"?, "created_at"?, "kind"?, "tags"?,
"entities"?, "obsolete"?}]}``. Exclusions stay the runtime's: hits carry text, tags and
entities. Every failure — unreachable, HTTP status, non-zero exit, timeout, malformed
JSON — is a BackendError that says which.
"""

from __future__ import annotations

import json
import shlex
import time

from ..errors import BackendError
from .base import Health, Hit
from .generic_transport import http, run_command, shown
from .registry import KEYS
from .settings import invalid_setting, seconds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..store.memory import Draft
    from .base import SearchRequest

NAME = "generic"
VERSION = 1
SETTINGS = KEYS[NAME]
DEFAULT_TIMEOUT_S = 10.0
#: Optional fields of a memory in a response, and their types.
FIELDS: dict[str, type | tuple[type, ...]] = {
    "score": (int, float),
    "scope": str,
    "files": list,
    "created_at": str,
    "kind": str,
    "tags": list,
    "entities": list,
    "obsolete": bool,
}


class GenericBackend:
    """:class:`~memhooks.backends.base.Backend` over a configured URL or command.
    ``remember`` and ``health`` exist only when their URL or command is configured."""

    name = NAME
    remember: Callable[[Draft], str]
    health: Callable[[], Health]

    def __init__(self, settings: dict[str, Any]) -> None:
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise invalid_setting(
                settings, NAME, unknown[0], "unknown setting", f"known: {', '.join(SETTINGS)}"
            )
        self.url = _url(settings, "url")
        self.command = _argv(settings, "command")
        if bool(self.url) == bool(self.command):
            raise invalid_setting(
                settings,
                NAME,
                "url" if self.url else "command",
                "set exactly one of `url` and `command`",
                "point backends.generic at an HTTP endpoint (url) or a program (command)",
            )
        self.write_url = _url(settings, "write_url")
        self.write_command = _argv(settings, "write_command")
        self.health_url = _url(settings, "health_url")
        self.headers = {"Content-Type": "application/json", "Accept": "application/json"}
        headers = settings.get("headers", {})
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
            raise invalid_setting(settings, NAME, "headers", "must be a table of strings")
        self.headers.update(headers)
        token = settings.get("token")
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.timeout_s = seconds(settings, NAME, "timeout_s", DEFAULT_TIMEOUT_S)
        if self.write_url or self.write_command:
            self.remember = self._remember
        if self.health_url:
            self.health = self._health

    @classmethod
    def open(cls, settings: dict[str, Any] | None = None) -> GenericBackend:
        """Check ``settings`` (module docstring); MH028 (or BackendError for a plain
        dict) when they are incomplete or malformed. Nothing is contacted yet."""
        return cls({} if settings is None else settings)

    def close(self) -> None:
        """Nothing is held between calls."""

    def search(self, request: SearchRequest) -> list[Hit]:
        """Hits in the order the backend gave them. BackendError on failure or when
        ``request.timeout_s`` passes."""
        body = {
            "version": VERSION,
            "op": "search",
            "query": request.text,
            "prompt": request.prompt,
            "entities": request.entities,
            "tags": request.tags,
            "resources": request.resources,
            "files": request.files,
            "active_files": request.active_files,
            "named_files": request.named_files,
            "scopes": request.scopes,
            "auto": request.auto,
            "priority": request.priority,
            "limit": request.limit,
            "project": request.project,
            "options": request.options,
        }
        data = self._exchange(self.url, self.command, body, request.timeout_s, "search")
        memories = data.get("memories") if isinstance(data, dict) else None
        if not isinstance(memories, list):
            raise BackendError('generic: malformed response: expected {"memories": [...]}')
        return [to_hit(item, i) for i, item in enumerate(memories)]

    def _remember(self, draft: Draft) -> str:
        memory = {
            "text": draft.text,
            "project": draft.project,
            "scope": draft.scope,
            "files": draft.files,
            "kind": draft.kind,
            "tags": draft.tags,
            "entities": draft.entities,
            "source": draft.source,
            "created_at": draft.created_at,
        }
        body = {"version": VERSION, "op": "remember", "memory": memory}
        data = self._exchange(self.write_url, self.write_command, body, self.timeout_s, "remember")
        written = data.get("id") if isinstance(data, dict) else None
        if not isinstance(written, (str, int)) or isinstance(written, bool) or written == "":
            raise BackendError('generic: malformed response to remember: expected {"id": ...}')
        return str(written)

    def _health(self) -> Health:
        started = time.perf_counter()
        assert self.health_url is not None
        try:
            status = http("GET", self.health_url, None, self.headers, self.timeout_s)[0]
        except BackendError as exc:
            return Health(False, str(exc), (time.perf_counter() - started) * 1000)
        return Health(
            True,
            f"HTTP {status} from {shown(self.health_url)}",
            (time.perf_counter() - started) * 1000,
        )

    def _exchange(
        self,
        url: str | None,
        argv: list[str] | None,
        body: dict[str, Any],
        timeout_s: float,
        what: str,
    ) -> Any:
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        if url:
            raw = http("POST", url, payload, self.headers, timeout_s)[1]
        else:
            assert argv is not None
            raw = run_command(argv, payload, timeout_s)
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise BackendError(f"generic: malformed response to {what}: not JSON ({exc})") from None


def to_hit(item: Any, index: int) -> Hit:
    """One response memory as a :class:`Hit`; BackendError naming the index and field
    when it is malformed."""
    if not isinstance(item, dict):
        raise BackendError(f"generic: malformed response: memories[{index}] is not an object")
    memory_id, text = item.get("id"), item.get("text")
    if not isinstance(memory_id, (str, int)) or isinstance(memory_id, bool) or memory_id == "":
        raise BackendError(
            f"generic: malformed response: memories[{index}].id must be a string or integer"
        )
    if not isinstance(text, str):
        raise BackendError(f"generic: malformed response: memories[{index}].text must be a string")
    for field, kind in FIELDS.items():
        if item.get(field) is not None and not _typed(item[field], kind):
            raise BackendError(
                f"generic: malformed response: memories[{index}].{field} has the wrong type"
            )
    return Hit(
        str(memory_id),
        text,
        float(item.get("score") or 0.0),
        scope=item.get("scope"),
        files=item.get("files"),
        created_at=item.get("created_at"),
        kind=item.get("kind"),
        tags=item.get("tags"),
        entities=item.get("entities"),
        obsolete=item.get("obsolete") is True,
    )


def _typed(value: Any, kind: type | tuple[type, ...]) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if isinstance(value, bool):  # JSON true is no score
        return False
    if kind is list:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, kind)


def _url(settings: dict[str, Any], key: str) -> str | None:
    value = settings.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        raise invalid_setting(settings, NAME, key, "must be an http:// or https:// URL")
    return value


def _argv(settings: dict[str, Any], key: str) -> list[str] | None:
    value = settings.get(key)
    if value is None or value == "" or value == []:
        return None
    argv = shlex.split(value) if isinstance(value, str) else value
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) and a for a in argv):
        raise invalid_setting(settings, NAME, key, "must be a list of arguments or a command line")
    return argv
