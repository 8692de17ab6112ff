"""Honcho: message search, conclusions, session context, peer representation and (only
when the user enables it) dialectic chat over Honcho's v3 HTTP API with the
standard-library client of :mod:`memhooks.backends.http` — no SDK on the recall path —
and ``remember`` (off the hook path) through the official ``honcho-ai`` SDK
(``pip install 'memhooks[honcho]'``), which gets or creates the peer and session. Wire
format: what ``honcho-ai`` 2.7.0 sends (spec/backends.md §5.1).

Over 300 lines on purpose: one memory system, one module (an adapter is one file, STYLE habit 2): the
class is the adapter's five sources over one HTTP API; the functions under it read its
answers into hits.

User settings (``backends.honcho``): ``url`` (default ``HONCHO_URL``, else Honcho's
hosted API ``https://api.honcho.dev``), ``api_key`` (a bearer token; also
``HONCHO_API_KEY``), ``workspace`` (default ``HONCHO_WORKSPACE_ID``, else ``default``),
``peer`` (whose memory this is; needed by every strategy but ``search``, and by
``remember``), ``session`` (where ``remember`` writes messages, default ``memhooks``),
``strategy`` (default ``search``), ``remember`` (``messages``, the default, or
``conclusions``), ``dialectic`` (true lets hooks ask for ``peer.chat`` through
:meth:`synthesize`), ``timeout`` (seconds for ``remember`` and ``health``, default 30; a
search takes the query's timeout).

Plan → Honcho, by ``backends.honcho.strategy``: ``search`` → ``POST
/v3/workspaces/{ws}/search {query, filters, limit}`` over messages (``filters`` passed as
given, ``peer`` / ``session`` added as ``peer_id`` / ``session_id``); ``conclusions`` →
``POST …/conclusions/query`` scoped to the peer (observer) and ``target`` (observed,
default the peer); ``context`` → ``GET …/sessions/{session}/context?tokens&summary&
peer_target&search_query…``; ``representation`` → ``POST …/peers/{peer}/representation``
(one hit); ``reasoning`` → :meth:`HonchoBackend.synthesize` → ``POST …/peers/{peer}/chat``,
only with ``dialectic: true``. The query text carries entity names, tags and file cues as
hint lines. The full table: ``docs/backends.md`` (spec/backends.md §5.1 and §6,
reference-engine.md (i)). Other keys are ignored. Reads never create workspaces, peers or
sessions; ``remember`` does (Honcho's get-or-create), and so does ``health`` for the
workspace, as the SDK's configuration read does. Exclusions are the runtime's (no
negative query); hits carry text, ``metadata.tags`` and the peer.
"""

from __future__ import annotations

import time

from ..errors import BackendError
from .base import Health, Hit
from .http import segment
from .settings import bearer, choice, endpoint, hints, seconds, setting_choice, setting_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from ..store.memory import Draft
    from .base import SearchRequest
    from .http import Endpoint

NAME = "honcho"
DEFAULT_URL = "https://api.honcho.dev"
DEFAULT_WORKSPACE = "default"
STRATEGIES = ("search", "conclusions", "context", "representation", "reasoning")
REPRESENTATION = ("search_top_k", "search_max_distance", "max_conclusions", "include_most_frequent")
CONTEXT = (
    *REPRESENTATION,
    "tokens",
    "summary",
    "peer_target",
    "peer_perspective",
    "limit_to_session",
)
REASONING_LEVELS = ("minimal", "low", "medium", "high", "max")


class HonchoBackend:
    """:class:`~memhooks.backends.base.Backend` over Honcho's HTTP API at one
    :class:`~memhooks.backends.http.Endpoint`, in one workspace; ``remember`` opens the
    SDK's ``Honcho`` client when it is first called."""

    name = NAME
    #: ``memhooks[honcho]`` installs the SDK ``remember`` writes with.
    EXTRA = "honcho"
    REQUIRES = ("honcho",)
    EXTRA_FOR = "remember"  # recall needs no SDK
    ENV: ClassVar[dict[str, tuple[str, ...]]] = {
        "url": ("HONCHO_URL",),
        "api_key": ("HONCHO_API_KEY",),
        "workspace": ("HONCHO_WORKSPACE_ID",),
    }

    def __init__(self, endpoint: Endpoint, settings: dict[str, Any]) -> None:
        self.endpoint = endpoint
        self.api_key = setting_text(settings, NAME, "api_key")
        self.workspace = str(setting_text(settings, NAME, "workspace", DEFAULT_WORKSPACE))
        self.peer = setting_text(settings, NAME, "peer")
        self.session = str(setting_text(settings, NAME, "session", "memhooks"))
        self.strategy = str(setting_choice(settings, NAME, "strategy", STRATEGIES, "search"))
        self.remember_as = setting_choice(
            settings, NAME, "remember", ("messages", "conclusions"), "messages"
        )
        self.dialectic = settings.get("dialectic") is True
        self.timeout = seconds(settings, NAME, "timeout", 30.0)
        self.writer: Any = None  # the SDK client, made by the first remember()
        self._calls: Any = None

    @classmethod
    def open(cls, settings: dict[str, Any] | None = None) -> HonchoBackend:
        """Check the user's ``settings`` (see module docstring). BackendError (MH028
        when it knows the file line) for an invalid one; no request is made."""
        settings = settings or {}
        url = setting_text(settings, NAME, "url", DEFAULT_URL) or DEFAULT_URL
        return cls(endpoint(settings, NAME, "url", url, bearer(settings, NAME)), settings)

    def close(self) -> None:
        if self._calls is not None:
            writer = self.writer

            async def close_http() -> None:
                # The SDK keeps one async HTTP client per event loop and offers no public
                # close for it; inside our loop this property returns that client.
                await writer._async_http_client.close()

            self._calls.close(close_http if self._calls.used else None)
            self._calls = self.writer = None

    def _path(self, rest: str) -> str:
        return f"/v3/workspaces/{segment(self.workspace)}{rest}"

    def _post(self, rest: str, body: Any, timeout_s: float, what: str) -> Any:
        return self.endpoint.call("POST", self._path(rest), body, timeout_s=timeout_s, what=what)

    def health(self) -> Health:
        started = time.perf_counter()
        try:
            self.endpoint.call("POST", "/v3/workspaces", {"id": self.workspace},
                               timeout_s=self.timeout, what="workspace check")  # fmt: skip
        except BackendError as exc:
            return Health(False, str(exc), (time.perf_counter() - started) * 1000)
        return Health(
            True,
            f"Honcho workspace {self.workspace!r} answers",
            (time.perf_counter() - started) * 1000,
        )

    def search(self, request: SearchRequest) -> list[Hit]:
        """One call of the query's strategy within ``request.timeout_s``; hits best first."""
        options = request.options
        strategy = choice(options.get("strategy", self.strategy), "strategy", STRATEGIES, NAME)
        others = [r for r in request.resources if r not in request.files]
        query = hints(request.text, entities=request.entities, resources=others,
                      tags=request.tags, files=request.files)  # fmt: skip
        limit = max(1, min(request.limit, 100))
        timeout_s = request.timeout_s
        if strategy == "search":
            filters = dict(_mapping(options.get("filters"), "filters"))
            if "peer" in options:
                filters["peer_id"] = _name(options["peer"], "backends.honcho.peer")
            if "session" in options:
                filters["session_id"] = _name(options["session"], "backends.honcho.session")
            found = self._post("/search", {"query": query, "filters": filters or None,
                                           "limit": limit}, timeout_s, "search")  # fmt: skip
            return [message_hit(m, 1.0 / (i + 1)) for i, m in enumerate(_list(found, "search"))]
        if strategy == "conclusions":
            peer = self._peer(options)
            target = _name(options.get("target"), "backends.honcho.target") or peer
            extra = _mapping(options.get("filters"), "filters")
            if {"observer_id", "observed_id"} & set(extra):
                raise BackendError(
                    "honcho: backends.honcho.filters cannot name observer_id or observed_id "
                    "(use peer and target)"
                )
            body: dict[str, Any] = {"query": query, "top_k": limit,
                                    "filters": {"observer_id": peer, "observed_id": target, **extra}}  # fmt: skip
            if options.get("search_max_distance") is not None:
                body["distance"] = options["search_max_distance"]
            found = self._post("/conclusions/query", body, timeout_s, "conclusions query")
            return [
                conclusion_hit(c, 1.0 / (i + 1))
                for i, c in enumerate(_list(found, "conclusions query"))
            ]
        if strategy == "context":
            return self._context(options, query, request)
        if strategy == "representation":
            peer = self._peer(options)
            fields: dict[str, Any] = {k: options[k] for k in REPRESENTATION if k in options}
            if "session" in options:
                fields["session_id"] = _name(options["session"], "backends.honcho.session")
            about = _name(options.get("target"), "backends.honcho.target")
            if about:
                fields["target"] = about
            fields = {"search_query": query, **fields}
            answer = self._post(f"/peers/{segment(peer)}/representation", fields, timeout_s,
                                "representation")  # fmt: skip
            text = _object(answer, "representation").get("representation")
            return (
                [Hit(f"{peer}/representation/{about or peer}", text.strip(), 1.0)]
                if isinstance(text, str) and text.strip()
                else []
            )
        return []  # reasoning: only synthesize() answers, and only when the user allows it

    def _context(self, options: dict[str, Any], query: str, request: SearchRequest) -> list[Hit]:
        session = _name(options.get("session", self.session), "backends.honcho.session")
        assert session is not None
        params: dict[str, Any] = {"summary": True, "limit_to_session": False}
        params.update({k: options[k] for k in CONTEXT if k in options})
        params.setdefault("peer_target", self.peer)
        if params["peer_target"]:
            params["search_query"] = query  # Honcho refuses a search query without a target
        else:
            del params["peer_target"]
        if params.get("peer_perspective") and not params.get("peer_target"):
            raise BackendError("honcho: peer_perspective needs a peer_target")
        context = _object(
            self.endpoint.call(
                "GET",
                self._path(f"/sessions/{segment(session)}/context"),
                params={k: _param(v) for k, v in params.items()},
                timeout_s=request.timeout_s,
                what="session context",
            ),
            "session context",
        )
        hits = []
        representation = context.get("peer_representation")
        if isinstance(representation, str) and representation.strip():
            hits.append(
                Hit(f"{session}/representation/{params['peer_target']}", representation, 1.0)
            )
        summary = context.get("summary")
        if isinstance(summary, dict) and summary.get("content"):
            hits.append(Hit(f"{session}/summary/{summary.get('message_id')}", summary["content"], 0.9,
                            created_at=summary.get("created_at")))  # fmt: skip
        messages = _list(context.get("messages") or [], "session context")
        hits += [message_hit(m, 0.5 / (i + 1)) for i, m in enumerate(reversed(messages))]
        return hits[: request.limit]

    def synthesize(self, request: SearchRequest) -> str | None:
        """Honcho's dialectic answer (``peer.chat``) when the hook asks for ``strategy:
        reasoning`` and the user enabled ``dialectic``; else ``None`` (nothing claimed)."""
        options = request.options
        if options.get("strategy") != "reasoning" or not self.dialectic:
            return None
        peer = self._peer(options)
        body: dict[str, Any] = {"query": request.text, "stream": False}
        if "session" in options:
            body["session_id"] = _name(options["session"], "backends.honcho.session")
        if "target" in options:
            body["target"] = _name(options["target"], "backends.honcho.target")
        if "reasoning_level" in options:
            body["reasoning_level"] = choice(
                options["reasoning_level"], "reasoning_level", REASONING_LEVELS, NAME
            )
        answer = self._post(f"/peers/{segment(peer)}/chat", body, request.timeout_s,
                            "dialectic chat")  # fmt: skip
        content = _object(answer, "dialectic chat").get("content")
        return content.strip() if isinstance(content, str) and content.strip() else None

    def remember(self, draft: Draft) -> str:
        """Record ``draft`` as a message of ``peer`` in ``session`` (or, with
        ``remember: conclusions``, as the peer's conclusion) through the SDK; returns
        its id."""
        if not self.peer:
            raise BackendError("honcho: setting 'peer' is required to remember")
        metadata = {"memhooks_project": draft.project, "memhooks_scope": draft.scope, "tags": draft.tags,
                    "entities": draft.entities, "files": draft.files, "kind": draft.kind, "source": draft.source}  # fmt: skip
        metadata = {k: v for k, v in metadata.items() if v or k == "memhooks_scope"}
        client = self._writer()
        peer_id, session_id, as_conclusion = (
            self.peer,
            self.session,
            self.remember_as == "conclusions",
        )

        async def write() -> Any:
            peer = await client.aio.peer(peer_id)
            session = await client.aio.session(session_id)
            if as_conclusion:
                return await peer.conclusions.aio.create(
                    [{"content": draft.text, "session_id": session.id}]
                )
            return await session.aio.add_messages([peer.message(draft.text, metadata=metadata)])

        created = self._calls.run(write, self.timeout, f"remember ({self.remember_as})")
        if not created:
            raise BackendError("honcho: the server created nothing")
        return str(created[0].id)

    def _writer(self) -> Any:
        if self.writer is None:
            from .sdk import Calls, import_sdk

            sdk = import_sdk(NAME, "honcho", "honcho")
            kwargs = {"base_url": self.endpoint.url, "workspace_id": self.workspace}
            if self.api_key:
                kwargs["api_key"] = self.api_key
            try:
                # One retry: Honcho's client retries 429/5xx itself; our deadline bounds the total.
                self.writer = sdk.Honcho(**kwargs, timeout=self.timeout, max_retries=1)
            except Exception as exc:
                raise BackendError(f"honcho: invalid settings: {exc}") from exc
            self._calls = Calls(NAME)
        return self.writer

    def _peer(self, options: dict[str, Any]) -> str:
        peer = _name(options.get("peer", self.peer), "backends.honcho.peer")
        if not peer:
            raise BackendError(
                "honcho: this strategy needs a peer (setting 'peer' or backends.honcho.peer)"
            )
        return peer


def message_hit(message: Any, score: float) -> Hit:
    """A Honcho message (a JSON object) as a hit: tags, entities, scope and files from
    the metadata ``remember`` wrote; the author peer as an entity."""
    if not isinstance(message, dict) or not isinstance(message.get("content"), str):
        raise BackendError(f"honcho: malformed message: {str(message)[:200]}")
    found = message.get("metadata")
    metadata: dict[str, Any] = found if isinstance(found, dict) else {}
    scope = metadata.get("memhooks_scope")
    peer = message.get("peer_id")
    return Hit(
        str(message.get("id")),
        message["content"],
        score,
        scope=scope if isinstance(scope, str) else None,
        files=_strs(metadata.get("files")),
        created_at=_text(message.get("created_at")),
        kind=metadata.get("kind") if isinstance(metadata.get("kind"), str) else None,
        tags=_strs(metadata.get("tags")),
        entities=[*_strs(metadata.get("entities")), *([peer] if isinstance(peer, str) else [])],
    )


def conclusion_hit(conclusion: Any, score: float) -> Hit:
    """A Honcho conclusion (a JSON object) as a hit; the observed peer as an entity."""
    if not isinstance(conclusion, dict) or not isinstance(conclusion.get("content"), str):
        raise BackendError(f"honcho: malformed conclusion: {str(conclusion)[:200]}")
    observed = conclusion.get("observed_id")
    return Hit(
        str(conclusion.get("id")),
        conclusion["content"],
        score,
        created_at=_text(conclusion.get("created_at")),
        kind=f"conclusion:{conclusion.get('level') or 'explicit'}",
        entities=[observed] if isinstance(observed, str) else [],
    )


def _param(value: Any) -> str:
    """A query-string value as Honcho's SDK sends it (booleans lower-case)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise BackendError(f"honcho: malformed {what} answer ({type(value).__name__})")
    return value


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BackendError(f"honcho: malformed {what} answer ({type(value).__name__})")
    return value


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _strs(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _mapping(value: Any, key: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BackendError(f"honcho: backends.honcho.{key} must be a mapping")
    return value


def _name(value: Any, key: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise BackendError(f"honcho: {key} must be a non-blank string")
    return value.strip()
