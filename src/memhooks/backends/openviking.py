"""OpenViking: ``find`` / ``search`` / ``search_context`` over OpenViking's HTTP API
(``POST /api/v1/search/find`` and ``/api/v1/search/search``) with the standard-library
client of :mod:`memhooks.backends.http` — no SDK on the recall path — and ``write``
(``memhooks remember``, off the hook path) through the official ``openviking-sdk``
(``pip install 'memhooks[openviking]'``), which waits until the write is indexed. Wire
format: what ``openviking-sdk`` 0.1.17 sends to ``openviking`` 0.5.2.

Over 300 lines on purpose: one memory system, one module (an adapter is one file, STYLE habit 2): the
class is the adapter's three strategies over one HTTP API; the functions under it read
its answers into hits.

User settings (``backends.openviking``): ``url`` (required; also ``OPENVIKING_URL``),
``api_key``, ``account``, ``user``, ``actor_peer_id`` (identity, sent as OpenViking's
``X-API-Key``, ``X-OpenViking-Account``, ``-User`` and ``-Actor-Peer`` headers; also
``OPENVIKING_API_KEY``, ``OPENVIKING_ACCOUNT``, ``OPENVIKING_USER``), ``memory_uri``
(where ``remember`` writes, default ``viking://resources/memhooks``), ``root_uri`` (one or
more ``viking://`` URIs searched by default, default ``memory_uri``; hooks may only narrow
the search to URIs beneath them), ``strategy`` (default ``find``), ``timeout`` (seconds for
``remember`` and ``health``, default 30; a search takes the query's timeout). The SDK's
CLI configuration file and its LDAP / OIDC modes are not read.

Plan → OpenViking: ``strategy`` ``find`` (default), ``search`` (no session) or
``context`` (``search_context``, token-bounded); ``target_uri`` from the hook's
``root_uri`` / ``target_uri`` and ``viking://`` file cues, beneath the user's roots (in
``context`` mode, which refuses ``target_uri``, a ``uri`` prefix ``filter``); ``tags``
(``key=value`` only); the SDK's find / context options by name (``read_content`` defaults
to true and ``detail`` to ``full``: without an LLM there are no abstracts); unknown keys
under ``options.extra``, the SDK's channel for server fields it does not know. The query
text carries entity names, tags and non-URI file cues as hint lines. The full table:
``docs/backends.md`` (spec/backends.md §4.1 and §6, reference-engine.md (i)).

Exclusions are the runtime's (no negative query); hits carry the text, the ``key=value``
tags and the URI.
"""

from __future__ import annotations

import time

from ..errors import BackendError
from .base import Health, Hit, SearchRequest
from .settings import (
    choice,
    endpoint,
    hints,
    invalid_setting,
    required_text,
    seconds,
    setting_choice,
    setting_strings,
    setting_text,
    strings,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from ..store.memory import Draft
    from .http import Endpoint

NAME = "openviking"
STRATEGIES = ("find", "search", "context")
#: Adapter keys of ``backends.openviking`` (everything else is an SDK option or extra).
OWN = ("root_uri", "target_uri", "strategy")
FIND_OPTIONS = (
    "node_limit", "score_threshold", "filter", "context_type", "include_provenance", "tags",
    "since", "until", "time_field", "level", "read_content", "events_time_decay_protection",
)  # fmt: skip
SEARCH_OPTIONS = (*FIND_OPTIONS, "search_type")
CONTEXT_OPTIONS = (
    "search_type", "node_limit", "score_threshold", "filter", "context_type",
    "include_provenance", "tags", "since", "until", "time_field",
    "events_time_decay_protection", "query_expansion", "max_tokens", "quotas", "purpose",
    "detail", "dedup_turns", "exclude_uris", "peer_scope", "other_peer_penalty", "rewrite",
    "rewrite_max_bullets",
)  # fmt: skip
DEFAULT_MEMORY_URI = "viking://resources/memhooks"
#: Identity settings -> (OpenViking header, SDK argument).
IDENTITY = {
    "api_key": ("x-api-key", "api_key"),
    "account": ("x-openviking-account", "account"),
    "user": ("x-openviking-user", "user"),
    "actor_peer_id": ("x-openviking-actor-peer", "actor_peer_id"),
}
#: Strategy -> (route, what it is called in messages).
ROUTES = {
    "find": "/api/v1/search/find",
    "search": "/api/v1/search/search",
    "context": "/api/v1/search/search",
}


class OpenVikingBackend:
    """:class:`~memhooks.backends.base.Backend` over OpenViking's HTTP API at one
    :class:`~memhooks.backends.http.Endpoint`; ``remember`` opens the SDK's
    ``AsyncHTTPClient`` when it is first called."""

    name = NAME
    #: ``memhooks[openviking]`` installs the SDK ``remember`` writes with.
    EXTRA = "openviking"
    REQUIRES = ("openviking_sdk",)
    EXTRA_FOR = "remember"  # recall needs no SDK
    ENV: ClassVar[dict[str, tuple[str, ...]]] = {
        "url": ("OPENVIKING_URL",),
        "api_key": ("OPENVIKING_API_KEY",),
        "account": ("OPENVIKING_ACCOUNT",),
        "user": ("OPENVIKING_USER",),
    }

    def __init__(self, endpoint: Endpoint, settings: dict[str, Any]) -> None:
        self.endpoint = endpoint
        try:
            self.memory_uri = _uri(settings.get("memory_uri", DEFAULT_MEMORY_URI), "memory_uri")
            roots = setting_strings(settings, NAME, "root_uri") or [self.memory_uri]
            self.roots = [_uri(u, "root_uri") for u in roots]
        except BackendError as exc:
            key = "root_uri" if "root_uri" in str(exc) else "memory_uri"
            raise invalid_setting(settings, NAME, key, str(exc).split(": ", 1)[-1]) from None
        self.strategy = str(setting_choice(settings, NAME, "strategy", STRATEGIES, "find"))
        self.timeout = seconds(settings, NAME, "timeout", 30.0)
        self.identity = {k: setting_text(settings, NAME, k) for k in IDENTITY}
        self.writer: Any = None  # the SDK client, made by the first remember()
        self._calls: Any = None
        self._ready = False

    @classmethod
    def open(cls, settings: dict[str, Any] | None = None) -> OpenVikingBackend:
        """Check the user's ``settings`` (see module docstring). BackendError (MH028
        when it knows the file line) for an invalid one; no request is made."""
        settings = settings or {}
        url = required_text(settings, NAME, "url")
        headers = {
            header: value
            for key, (header, _) in IDENTITY.items()
            if (value := setting_text(settings, NAME, key))
        }
        return cls(endpoint(settings, NAME, "url", url, headers), settings)

    def close(self) -> None:
        if self._calls is not None:
            self._calls.close(self.writer.close if self._ready else None)
            self._calls = self.writer = None
            self._ready = False

    def health(self) -> Health:
        started = time.perf_counter()
        try:
            answer = self.endpoint.call(
                "GET", "/health", timeout_s=self.timeout, what="health check"
            )
        except BackendError as exc:
            return Health(False, str(exc), (time.perf_counter() - started) * 1000)
        ok = isinstance(answer, dict) and answer.get("status") == "ok"
        detail = (
            f"OpenViking {answer.get('version', '?')} answers; roots {', '.join(self.roots)}"
            if ok
            else f"OpenViking health check failed: {str(answer)[:200]}"
        )
        return Health(ok, detail, (time.perf_counter() - started) * 1000)

    def search(self, request: SearchRequest) -> list[Hit]:
        """One ``find`` / ``search`` / ``search_context`` call within
        ``request.timeout_s``; hits best first."""
        options = request.options
        strategy = choice(options.get("strategy", self.strategy), "strategy", STRATEGIES, NAME)
        body = self.search_body(request, strategy)
        what = "search_context" if strategy == "context" else strategy
        answer = self.endpoint.call("POST", ROUTES[strategy], body,
                                    timeout_s=request.timeout_s, what=what)  # fmt: skip
        result = _result(answer, what)
        targets = self.targets(request)
        hits = context_hits(result) if strategy == "context" else find_hits(result)
        return _within(hits, targets)[: request.limit]

    def search_body(self, request: SearchRequest, strategy: str) -> dict[str, Any]:
        """The JSON body of one search (see the module table): the query with its hint
        lines, ``target_uri`` / the roots, ``limit`` and the options, flattened as the
        SDK does (``extra`` keys join the body; they cannot replace a known field)."""
        options = request.options
        targets = self.targets(request)
        cues = [c for c in request.resources if c not in request.files]
        query = hints(
            request.text,
            entities=request.entities,
            tags=request.tags,
            resources=[c for c in cues if not c.startswith("viking://")],
            files=[f for f in request.files if not f.startswith("viking://")],
        )
        if strategy == "context":
            sdk_options = {"detail": "full", **sdk_options_for(options, CONTEXT_OPTIONS)}
            prefix = [{"op": "prefix", "field": "uri", "prefix": t} for t in targets]
            root_filter = prefix[0] if len(prefix) == 1 else {"op": "or", "conds": prefix}
            if "filter" in sdk_options:
                root_filter = {"op": "and", "conds": [root_filter, sdk_options["filter"]]}
            sdk_options["filter"] = root_filter
            # search_context refuses a target_uri: the roots are the prefix filter above.
            fixed: dict[str, Any] = {"query": query, "mode": "context", "target_uri": "",
                                     "limit": request.limit}  # fmt: skip
        else:
            known = FIND_OPTIONS if strategy == "find" else SEARCH_OPTIONS
            # Without an LLM there are no L0/L1 abstracts: the text is the content (tested on 0.5.2).
            sdk_options = {"read_content": True, **sdk_options_for(options, known)}
            fixed = {"query": query, "target_uri": targets, "limit": request.limit}
        extra = sdk_options.pop("extra", {})
        clash = sorted(set(extra) & (set(fixed) | set(sdk_options)))
        if clash:
            raise BackendError(f"openviking: options.extra cannot replace {clash[0]!r}")
        return {**fixed, **sdk_options, **extra}

    def targets(self, request: SearchRequest) -> list[str]:
        """``target_uri``: the hook's ``root_uri`` / ``target_uri`` and ``viking://``
        resources and file cues when there are any, else the user's roots. Every one must lie beneath a
        root the user configured (host configuration wins over repository data)."""
        options = request.options
        wanted: list[str] = []
        for key in ("root_uri", "target_uri"):
            if key in options:
                wanted += [
                    _uri(u, f"backends.openviking.{key}") for u in strings(options[key], key, NAME)
                ]
        cues = [*request.resources, *request.files]
        wanted += [_uri(u, "resource") for u in cues if u.startswith("viking://")]
        outside = [u for u in wanted if not any(_beneath(u, root) for root in self.roots)]
        if outside:
            raise BackendError(
                f"openviking: {outside[0]!r} is outside the roots the user configured "
                f"({', '.join(self.roots)})"
            )
        return list(dict.fromkeys(wanted)) or list(self.roots)

    def remember(self, draft: Draft) -> str:
        """Write ``draft`` as one new file under ``memory_uri`` (vectors only, no LLM
        processing) and wait until it is indexed; returns its URI. Scope, kind, tags and
        entities become ``key=value`` tags."""
        import uuid  # remember only: not on the hook path

        uri = f"{self.memory_uri.rstrip('/')}/{uuid.uuid4().hex}.md"
        tags = [f"scope={draft.scope or '.'}"]
        tags += [f"kind={draft.kind}"] if draft.kind else []
        tags += [t if "=" in t else f"tag={t}" for t in draft.tags]
        tags += [f"entity={e}" for e in draft.entities]
        self._write(uri, draft.text, tags)
        return uri

    def _write(self, uri: str, text: str, tags: list[str]) -> None:
        from .sdk import Calls, import_sdk

        if self.writer is None:
            sdk = import_sdk(NAME, "openviking_sdk", "openviking")
            identity = {IDENTITY[k][1]: v for k, v in self.identity.items() if v}
            self.writer = sdk.AsyncHTTPClient(
                url=self.endpoint.url, timeout=self.timeout, **identity
            )
        if self._calls is None:
            self._calls = Calls(NAME)
        writer = self.writer

        async def write() -> Any:
            if not self._ready:
                await writer.initialize()
                self._ready = True
            return await writer.write(
                uri, text, mode="create", wait=True,
                options={"processing_mode": "vectors_only", "tags": tags},
            )  # fmt: skip

        self._calls.run(write, self.timeout, f"write {uri}")


def sdk_options_for(options: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    """The SDK options of a hook's ``backends.openviking``: known option keys as they
    are, the adapter's own keys left out, everything else under ``extra``."""
    out: dict[str, Any] = {}
    extra: dict[str, Any] = dict(options.get("extra") or {})
    for key, value in options.items():
        if key in OWN or key == "extra":
            continue
        if key in known:
            out[key] = value
        else:
            extra[key] = value
    if "tags" in out:
        out["tags"] = strings(out["tags"], "tags", NAME)
        wrong = [t for t in out["tags"] if "=" not in t.strip("=")]
        if wrong:
            raise BackendError(
                f"openviking: tag {wrong[0]!r} is not key=value (OpenViking tags are)"
            )
    if extra:
        out["extra"] = extra
    return out


def find_hits(result: dict[str, Any]) -> list[Hit]:
    """Hits of a ``find`` / ``search`` result (memories, resources and skills), best
    first. The text is the item's content when the server returned it, else its
    abstract; an item with neither is left out."""
    items = []
    for group in ("memories", "resources", "skills"):
        found = result.get(group) or []
        if not isinstance(found, list):
            raise BackendError(f"openviking: malformed find response ({group})")
        items += found
    hits = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("uri"), str):
            raise BackendError("openviking: malformed find result")
        text = item.get("content") or item.get("abstract") or item.get("overview")
        if isinstance(text, str) and text.strip():
            hits.append(
                _hit(
                    item["uri"], text, item.get("score"), item.get("context_type"), item.get("tags")
                )
            )
    hits.sort(key=lambda hit: -hit.score)
    return hits


def context_hits(result: dict[str, Any]) -> list[Hit]:
    """Hits of a ``search_context`` result: one per entry, in the server's order."""
    entries = result.get("entries")
    if not isinstance(entries, list):
        raise BackendError("openviking: malformed search_context response")
    hits = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("uri"), str):
            raise BackendError("openviking: malformed search_context entry")
        text = entry.get("text")
        if isinstance(text, str) and text.strip():
            hits.append(_hit(entry["uri"], text, entry.get("score"), entry.get("category"), None))
    return hits


def _hit(uri: str, text: str, score: Any, kind: Any, tags: Any) -> Hit:
    labels = [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []
    values = dict(t.split("=", 1) for t in labels if "=" in t)
    scope = values.get("scope")
    return Hit(
        uri,
        text.strip(),
        float(score) if isinstance(score, (int, float)) else 0.0,
        scope=None if scope is None else "" if scope == "." else scope,
        kind=values.get("kind") or (kind if isinstance(kind, str) else None),
        tags=labels,
        entities=[t.split("=", 1)[1] for t in labels if t.startswith("entity=")],
    )


def _within(hits: list[Hit], targets: list[str]) -> list[Hit]:
    """The hits beneath ``targets``, checked here too: OpenViking 0.5.2 drops the
    ``target_uri`` scope when a hook's ``filter`` has an unknown ``op`` (tested)."""
    return [hit for hit in hits if any(_beneath(hit.id, target) for target in targets)]


def _result(answer: Any, what: str) -> dict[str, Any]:
    """The ``result`` of an OpenViking answer ``{"status": "ok", "result": {...}}``;
    BackendError for ``{"status": "error", "error": {code, message}}`` or anything else."""
    if isinstance(answer, dict) and answer.get("status") == "error":
        found = answer.get("error")
        error: dict[str, Any] = found if isinstance(found, dict) else {}
        raise BackendError(
            f"openviking: {what} failed: {error.get('code', 'UNKNOWN')}: "
            f"{str(error.get('message', 'unknown error'))[:300]}"
        )
    result = answer.get("result") if isinstance(answer, dict) else None
    if not isinstance(result, dict):
        raise BackendError(f"openviking: malformed {what} response ({type(result).__name__})")
    return result


def _uri(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.startswith("viking://"):
        raise BackendError(f"openviking: {key} must be a viking:// URI (got {value!r})")
    if ".." in value[len("viking://") :].split("/"):
        raise BackendError(f"openviking: {key} must not contain '..' (got {value!r})")
    return value


def _beneath(uri: str, root: str) -> bool:
    root = root.rstrip("/")
    return uri.rstrip("/") == root or uri.startswith(root + "/") or root == "viking:"
