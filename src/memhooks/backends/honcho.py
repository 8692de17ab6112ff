"""Honcho: message search, conclusions, session context, peer representation and (only
when the user enables it) dialectic chat, through the official ``honcho-ai`` SDK
(``pip install 'memhooks[honcho]'``).

User settings (``backends.honcho``): ``url`` (default: the SDK's — ``HONCHO_URL`` or
Honcho's hosted API), ``api_key``, ``workspace`` (default: the SDK's), ``peer`` (whose
memory this is; needed by every strategy but ``search``, and by ``remember``),
``session`` (where ``remember`` writes messages, default ``memhooks``), ``strategy``
(default ``search``), ``remember`` (``messages``, the default, or ``conclusions``),
``dialectic`` (true lets hooks ask for ``peer.chat`` through :meth:`synthesize`),
``timeout`` (seconds per HTTP request, default 30).

Plan → Honcho, by ``backends.honcho.strategy``: ``search`` → ``honcho.search(query,
filters, limit)`` over messages (``filters`` passed as given, ``peer`` / ``session`` added
as ``peer_id`` / ``session_id``); ``conclusions`` → ``peer.conclusions[_of(target)].query``;
``context`` → ``session.context(tokens, summary, peer_target, search_query, …)``;
``representation`` → ``peer.representation(search_query, …)`` (one hit); ``reasoning`` →
:meth:`HonchoBackend.synthesize` → ``peer.chat``, only with ``dialectic: true``. The query
text carries entity names, tags and file cues as hint lines. The full table:
``docs/backends.md`` (spec/backends.md §5.1 and §6, reference-engine.md (i)).
Other keys are ignored (the SDK methods take no extra keyword arguments). Reads never
create peers or sessions; ``remember`` does (Honcho's get-or-create). Exclusions are the
runtime's (no negative query); hits carry text, ``metadata.tags`` and the peer.
"""

from __future__ import annotations

import time

from ..errors import BackendError
from .base import Health, Hit
from .sdk import Calls, choice, hints, import_sdk, number, setting_choice, setting_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from .base import Draft, SearchRequest

NAME = "honcho"
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
    """:class:`~memhooks.backends.base.Backend` over a ``honcho.Honcho`` client. ``sdk``
    is the ``honcho`` module (its ``Peer`` and ``Session`` classes build handles without
    a request)."""

    name = NAME
    #: The SDK's own variables (it reads them too); listed so ``backends list`` shows them.
    EXTRA = "honcho"
    REQUIRES = ("honcho",)
    ENV: ClassVar[dict[str, tuple[str, ...]]] = {
        "url": ("HONCHO_URL",),
        "api_key": ("HONCHO_API_KEY",),
        "workspace": ("HONCHO_WORKSPACE_ID",),
    }

    def __init__(self, sdk: Any, client: Any, settings: dict[str, Any]) -> None:
        self.sdk = sdk
        self.client = client
        self.peer = setting_text(settings, NAME, "peer")
        self.session = str(setting_text(settings, NAME, "session", "memhooks"))
        self.strategy = str(setting_choice(settings, NAME, "strategy", STRATEGIES, "search"))
        self.remember_as = setting_choice(
            settings, NAME, "remember", ("messages", "conclusions"), "messages"
        )
        self.dialectic = settings.get("dialectic") is True
        self.timeout = number(settings, NAME, "timeout", 30.0)
        self.calls = Calls(NAME)

    @classmethod
    def open(cls, settings: dict[str, Any] | None = None) -> HonchoBackend:
        """Build the client from the user's ``settings`` (see module docstring).
        BackendError when the SDK is missing or a setting is invalid; no request is made."""
        settings = settings or {}
        kwargs = {arg: setting_text(settings, NAME, key)
                  for arg, key in (("base_url", "url"), ("api_key", "api_key"), ("workspace_id", "workspace"))}  # fmt: skip
        timeout = number(settings, NAME, "timeout", 30.0)
        sdk = import_sdk(NAME, "honcho", "honcho")
        try:
            # One retry: Honcho's client retries 429/5xx itself; our deadline bounds the total.
            client = sdk.Honcho(
                **{k: v for k, v in kwargs.items() if v}, timeout=timeout, max_retries=1
            )
        except Exception as exc:
            raise BackendError(f"honcho: invalid settings: {exc}") from exc
        return cls(sdk, client, settings)

    def close(self) -> None:
        async def close_http() -> None:
            # The SDK keeps one async HTTP client per event loop and offers no public
            # close for it; inside our loop this property returns that client.
            await self.client._async_http_client.close()

        self.calls.close(close_http if self.calls.used else None)

    def health(self) -> Health:
        started = time.perf_counter()
        try:
            self.calls.run(self.client.aio.get_configuration, self.timeout, "workspace check")
        except BackendError as exc:
            return Health(False, str(exc), (time.perf_counter() - started) * 1000)
        workspace = getattr(self.client, "workspace_id", "?")
        return Health(
            True, f"Honcho workspace {workspace!r} answers", (time.perf_counter() - started) * 1000
        )

    def search(self, request: SearchRequest) -> list[Hit]:
        """One call of the query's strategy within ``request.timeout_s``; hits best first."""
        options = request.options
        strategy = choice(options.get("strategy", self.strategy), "strategy", STRATEGIES, NAME)
        others = [r for r in request.resources if r not in request.files]
        query = hints(request.text, entities=request.entities, resources=others,
                      tags=request.tags, files=request.files)  # fmt: skip
        limit = max(1, min(request.limit, 100))
        if strategy == "search":
            filters = dict(_mapping(options.get("filters"), "filters"))
            if "peer" in options:
                filters["peer_id"] = _name(options["peer"], "backends.honcho.peer")
            if "session" in options:
                filters["session_id"] = _name(options["session"], "backends.honcho.session")
            found = self._run(
                lambda: self.client.aio.search(query, filters=filters or None, limit=limit),
                request,
                "search",
            )
            return [message_hit(m, 1.0 / (i + 1)) for i, m in enumerate(found)]
        if strategy == "conclusions":
            peer = self._peer(options)
            target = _name(options.get("target"), "backends.honcho.target")
            view = peer.conclusions_of(target) if target else peer.conclusions
            view_filters = _mapping(options.get("filters"), "filters") or None
            distance = options.get("search_max_distance")
            found = self._run(
                lambda: view.aio.query(query, top_k=limit, distance=distance, filters=view_filters),
                request,
                "conclusions query",
            )
            return [conclusion_hit(c, 1.0 / (i + 1)) for i, c in enumerate(found)]
        if strategy == "context":
            return self._context(options, query, request)
        if strategy == "representation":
            peer = self._peer(options)
            kwargs = {k: options[k] for k in (*REPRESENTATION, "target", "session") if k in options}
            text = self._run(
                lambda: peer.aio.representation(search_query=query, **kwargs),
                request,
                "representation",
            )
            target = kwargs.get("target", peer.id)
            return (
                [Hit(f"{peer.id}/representation/{target}", text.strip(), 1.0)]
                if text and text.strip()
                else []
            )
        return []  # reasoning: only synthesize() answers, and only when the user allows it

    def _context(self, options: dict[str, Any], query: str, request: SearchRequest) -> list[Hit]:
        session = self.sdk.Session(
            _name(options.get("session", self.session), "backends.honcho.session"), self.client
        )
        kwargs = {k: options[k] for k in CONTEXT if k in options}
        kwargs.setdefault("peer_target", self.peer)
        if kwargs["peer_target"]:
            kwargs["search_query"] = query  # Honcho refuses a search query without a target
        context = self._run(lambda: session.aio.context(**kwargs), request, "session context")
        hits = []
        if context.peer_representation:
            hits.append(
                Hit(
                    f"{session.id}/representation/{kwargs['peer_target']}",
                    context.peer_representation,
                    1.0,
                )
            )
        if context.summary is not None and context.summary.content:
            hits.append(Hit(f"{session.id}/summary/{context.summary.message_id}", context.summary.content, 0.9,
                            created_at=context.summary.created_at))  # fmt: skip
        newest_first = list(reversed(context.messages))
        hits += [message_hit(m, 0.5 / (i + 1)) for i, m in enumerate(newest_first)]
        return hits[: request.limit]

    def synthesize(self, request: SearchRequest) -> str | None:
        """Honcho's dialectic answer (``peer.chat``) when the hook asks for ``strategy:
        reasoning`` and the user enabled ``dialectic``; else ``None`` (nothing claimed)."""
        options = request.options
        if options.get("strategy") != "reasoning" or not self.dialectic:
            return None
        peer = self._peer(options)
        kwargs: dict[str, Any] = {k: options[k] for k in ("target", "session") if k in options}
        if "reasoning_level" in options:
            kwargs["reasoning_level"] = choice(
                options["reasoning_level"], "reasoning_level", REASONING_LEVELS, NAME
            )
        answer = self._run(lambda: peer.aio.chat(request.text, **kwargs), request, "dialectic chat")
        return answer.strip() if isinstance(answer, str) and answer.strip() else None

    def remember(self, draft: Draft) -> str:
        """Record ``draft`` as a message of ``peer`` in ``session`` (or, with
        ``remember: conclusions``, as the peer's conclusion); returns its id."""
        if not self.peer:
            raise BackendError("honcho: setting 'peer' is required to remember")
        metadata = {"memhooks_project": draft.project, "memhooks_scope": draft.scope, "tags": draft.tags,
                    "entities": draft.entities, "files": draft.files, "kind": draft.kind, "source": draft.source}  # fmt: skip
        metadata = {k: v for k, v in metadata.items() if v or k == "memhooks_scope"}

        async def write() -> Any:
            peer = await self.client.aio.peer(self.peer)
            session = await self.client.aio.session(self.session)
            if self.remember_as == "conclusions":
                return await peer.conclusions.aio.create(
                    [{"content": draft.text, "session_id": session.id}]
                )
            return await session.aio.add_messages([peer.message(draft.text, metadata=metadata)])

        created = self.calls.run(write, self.timeout, f"remember ({self.remember_as})")
        if not created:
            raise BackendError("honcho: the server created nothing")
        return str(created[0].id)

    def _peer(self, options: dict[str, Any]) -> Any:
        peer = _name(options.get("peer", self.peer), "backends.honcho.peer")
        if not peer:
            raise BackendError(
                "honcho: this strategy needs a peer (setting 'peer' or backends.honcho.peer)"
            )
        return self.sdk.Peer(peer, self.client)

    def _run(self, call: Any, request: SearchRequest, what: str) -> Any:
        return self.calls.run(call, request.timeout_s, what)


def message_hit(message: Any, score: float) -> Hit:
    """A Honcho message as a hit: tags, entities, scope and files from the metadata
    ``remember`` wrote; the author peer as an entity."""
    metadata = message.metadata if isinstance(message.metadata, dict) else {}
    created = message.created_at
    return Hit(
        str(message.id),
        message.content,
        score,
        scope=metadata.get("memhooks_scope")
        if isinstance(metadata.get("memhooks_scope"), str)
        else None,
        files=_strs(metadata.get("files")),
        created_at=created.isoformat() if hasattr(created, "isoformat") else created,
        kind=metadata.get("kind") if isinstance(metadata.get("kind"), str) else None,
        tags=_strs(metadata.get("tags")),
        entities=[*_strs(metadata.get("entities")), message.peer_id],
    )


def conclusion_hit(conclusion: Any, score: float) -> Hit:
    created = conclusion.created_at
    return Hit(
        str(conclusion.id),
        conclusion.content,
        score,
        created_at=created.isoformat() if hasattr(created, "isoformat") else created,
        kind=f"conclusion:{getattr(conclusion, 'level', 'explicit')}",
        entities=[conclusion.observed_id],
    )


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
