"""Hindsight: recall, retain, reflect and mental models over Hindsight's HTTP API
(``/v1/default/banks/{bank}/…``), with the standard-library client of
:mod:`memhooks.backends.http` — no SDK: every path the adapter uses is one JSON call, and
importing ``hindsight-client`` cost 1–5 s per hook process (issue 14). Wire format checked
against ``hindsight-api`` 1.1.0 (the requests ``hindsight-client`` 1.1.0 sends;
spec/backends.md §3).

Over 300 lines on purpose: one memory system, one module (an adapter is one file, STYLE habit 2): the
class is the adapter's verbs over one HTTP API; the functions under it read its answers
into hits.

User settings (``backends.hindsight`` of the user configuration): ``url`` (required),
``api_key`` (sent as a bearer token), ``bank`` (required: where ``remember`` writes and
what is searched), ``banks`` (more banks searched besides ``bank``), ``required_tags``
(sent on every call with ``all_strict``, as the reference plugin does), ``budget`` and
``max_tokens`` (defaults), ``reflect`` (true lets hooks ask for ``strategy: reflect``),
``mental_models`` (ids of the mental models hooks may name), ``timeout`` (seconds for
``remember`` and ``health``, default 30; a search takes the query's timeout).

Plan → ``POST …/memories/recall``: the query text with entity names, file cues and
(unless they filter) tags as hint lines; ``priority`` → ``budget``;
``backends.hindsight.bank`` (only banks the user configured), ``memory_types`` →
``types``, ``budget``, ``max_tokens`` (capped by the user's), ``tags`` + ``tags_match``
(with the user's ``required_tags``: ``tag_groups``), and ``min_scores``,
``query_timestamp``, ``temporal_window``, ``prefer_observations`` passed through.
``connection_types`` has no per-call field and is not applied; ``strategy: reflect`` and
``mental_models`` are :meth:`HindsightBackend.synthesize`'s. The full table, with sources:
``docs/backends.md`` (spec/backends.md §3.1 and §6, reference-engine.md (h) and (i)).
Other keys are ignored: nothing is guessed.

**One bank, one source.** Each bank is asked on its own connection, all at once, each
under the query's whole timeout; a bank that fails, resets or hangs is reported as a
failed source and the others' hits are kept (:class:`~memhooks.backends.base.PartialHits`).
Exclusions are the runtime's (no negative query); hits carry text, tags and entities.
"""

from __future__ import annotations

import json
import time

from ..errors import BackendError
from .base import Health, Hit, PartialHits, SearchRequest
from .http import Endpoint, segment
from .settings import (
    bearer,
    choice,
    endpoint,
    hints,
    number,
    required_text,
    seconds,
    setting_choice,
    setting_strings,
    strings,
)
from .sources import all_failed, gather

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from ..store.memory import Draft

NAME = "hindsight"
TYPES = ("world", "experience", "observation")
BUDGETS = ("low", "mid", "high")
TAGS_MATCH = ("any", "all", "any_strict", "all_strict", "exact")
#: Native recall parameters a hook may set; sent unchanged (the server validates them).
PASSTHROUGH = ("min_scores", "query_timestamp", "temporal_window", "prefer_observations")
#: The recall fields ``reflect`` also takes (hindsight-api 1.1.0 ``ReflectRequest``).
REFLECT = ("query", "budget", "max_tokens", "tags", "tags_match", "tag_groups")


def budget_for(priority: float | None) -> str | None:
    """Hindsight's candidate depth for a query priority (spec/backends.md §6)."""
    if priority is None:
        return None
    return "high" if priority >= 0.7 else "low" if priority <= 0.3 else "mid"


class HindsightBackend:
    """:class:`~memhooks.backends.base.Backend` over Hindsight's HTTP API at one
    :class:`~memhooks.backends.http.Endpoint`."""

    name = NAME
    #: Vendor variables that also set a setting (backends/config.py ``aliases``).
    ENV: ClassVar[dict[str, tuple[str, ...]]] = {"api_key": ("HINDSIGHT_API_KEY",)}

    def __init__(self, endpoint: Endpoint, settings: dict[str, Any]) -> None:
        self.endpoint = endpoint
        self.bank = required_text(settings, NAME, "bank")
        self.banks = list(dict.fromkeys([self.bank, *setting_strings(settings, NAME, "banks")]))
        self.required_tags = setting_strings(settings, NAME, "required_tags")
        self.budget = setting_choice(settings, NAME, "budget", BUDGETS, None)
        self.max_tokens = (
            int(number(settings, NAME, "max_tokens", 4096)) if "max_tokens" in settings else None
        )
        self.reflect = settings.get("reflect") is True
        self.mental_models = setting_strings(settings, NAME, "mental_models")
        self.timeout = seconds(settings, NAME, "timeout", 30.0)

    @classmethod
    def open(cls, settings: dict[str, Any] | None = None) -> HindsightBackend:
        """Check the user's ``settings`` (see module docstring). BackendError (MH028
        when it knows the file line) for an invalid one; no request is made."""
        settings = settings or {}
        url = required_text(settings, NAME, "url")
        return cls(endpoint(settings, NAME, "url", url, bearer(settings, NAME)), settings)

    def close(self) -> None:
        """Nothing to release: every call opens and closes its own connection."""

    def _bank_path(self, bank: str, rest: str) -> str:
        return f"/v1/default/banks/{segment(bank)}{rest}"

    def health(self) -> Health:
        started = time.perf_counter()
        try:
            version = _dict(
                self.endpoint.call("GET", "/version", timeout_s=self.timeout, what="version"),
                "version",
            )
        except BackendError as exc:
            return Health(False, str(exc), (time.perf_counter() - started) * 1000)
        return Health(
            True,
            f"Hindsight {version.get('api_version', '?')}, banks {', '.join(self.banks)}",
            (time.perf_counter() - started) * 1000,
        )

    def search(self, request: SearchRequest) -> list[Hit]:
        """Recall from each selected bank — all at once, each bank under
        ``request.timeout_s`` on its own; hits best first by Hindsight's final score.
        :class:`PartialHits` when some banks failed; BackendError when all did."""
        body = self.recall_body(request)
        banks = self.selected_banks(request.options)

        def recall_from(bank: str) -> Any:
            what = f"recall from bank {bank!r}"
            answer = self.endpoint.call("POST", self._bank_path(bank, "/memories/recall"), body,
                                        timeout_s=request.timeout_s, what=what)  # fmt: skip
            return to_hits(bank, _dict(answer, what))

        calls = [(f"bank {bank!r}", _bind(recall_from, bank)) for bank in banks]
        answers, failures = gather(calls, request.timeout_s)
        if not answers:
            raise all_failed(NAME, "recall", failures)
        hits = [hit for _, found in answers for hit in found]
        hits.sort(key=lambda hit: -hit.score)
        kept = hits[: request.limit]
        return PartialHits(kept, failures) if failures else kept

    def selected_banks(self, options: dict[str, Any]) -> list[str]:
        """The banks a query searches: the hook's ``bank`` (one or a list) when every
        one is configured by the user, else all configured banks. A bank the user did
        not configure is refused (reference-engine.md (h): host configuration wins)."""
        if "bank" not in options:
            return self.banks
        wanted = strings(options["bank"], "bank", NAME)
        refused = [bank for bank in wanted if bank not in self.banks]
        if refused:
            raise BackendError(
                f"hindsight: bank {refused[0]!r} is not one the user configured "
                f"({', '.join(self.banks)}); a hook can only choose among them"
            )
        return wanted

    def recall_body(self, request: SearchRequest) -> dict[str, Any]:
        """The JSON body of ``POST …/memories/recall`` for ``request`` (module table)."""
        options = request.options
        body: dict[str, Any] = {}
        filters = self._tag_filter(request, body)
        body["query"] = hints(
            request.text,
            entities=request.entities,
            resources=[r for r in request.resources if r not in request.files],
            files=request.files,
            tags=[] if filters else request.tags,
        )
        if "memory_types" in options:
            body["types"] = memory_types(options["memory_types"])
        budget = choice(options["budget"], "budget", BUDGETS, NAME) if "budget" in options else None
        body["budget"] = budget or budget_for(request.priority) or self.budget or "mid"
        max_tokens = _positive(options.get("max_tokens"), "backends.hindsight.max_tokens")
        if max_tokens or self.max_tokens:
            body["max_tokens"] = min(t for t in (max_tokens, self.max_tokens) if t)
        for key in PASSTHROUGH:
            if key in options:
                body[key] = options[key]
        # Results name their entities only when entities are included (tested on 1.1.0);
        # the runtime's exclusions need those names. The entity observations that come
        # with them are not used, so that block is cut to one token.
        body["include"] = {"entities": {"max_tokens": 1}}
        return body

    def _tag_filter(self, request: SearchRequest, body: dict[str, Any]) -> bool:
        """Put the tag filter into ``body``; True when the hook's tags filter (then
        they are not also query hints). Core tags filter only when the hook's
        ``backends.hindsight`` says so (``tags`` or ``tags_match``): otherwise they are
        hints, never an access filter (reference-engine.md (i))."""
        options = request.options
        hook_tags: list[str] = []
        if "tags" in options or "tags_match" in options:
            hook_tags = strings(options.get("tags", request.tags), "tags", NAME)
        match = choice(options.get("tags_match", "any_strict"), "tags_match", TAGS_MATCH, NAME)
        if self.required_tags and hook_tags:
            body["tag_groups"] = [
                {"tags": self.required_tags, "match": "all_strict"},
                {"tags": hook_tags, "match": match},
            ]
        elif self.required_tags:
            body.update(tags=self.required_tags, tags_match="all_strict")
        elif hook_tags:
            body.update(tags=hook_tags, tags_match=match)
        return bool(hook_tags)

    def remember(self, draft: Draft) -> str:
        """Retain ``draft`` verbatim into ``bank`` as one document (synchronously);
        returns ``"<bank>/<document id>"``. Entities are sent by name only (types are
        never guessed); the host's required tags are added so the memory can be
        recalled."""
        import uuid  # remember only: not on the hook path

        document = f"memhooks-{uuid.uuid4().hex}"
        metadata = {"memhooks_project": draft.project, "memhooks_scope": draft.scope}
        if draft.files:
            metadata["memhooks_files"] = json.dumps(draft.files)
        if draft.kind:
            metadata["memhooks_kind"] = draft.kind
        if draft.source:
            metadata["memhooks_source"] = draft.source
        tags = list(dict.fromkeys([*draft.tags, *self.required_tags]))
        item: dict[str, Any] = {
            "content": draft.text,
            "document_id": document,
            "metadata": metadata,
        }
        if draft.created_at:
            item["timestamp"] = draft.created_at
        if draft.entities:
            item["entities"] = [{"text": name} for name in draft.entities]
        if tags:
            item["tags"] = tags
        self.endpoint.call(
            "POST", self._bank_path(self.bank, "/memories"), {"items": [item], "async": False},
            timeout_s=self.timeout, what=f"retain into bank {self.bank!r}",
        )  # fmt: skip
        return f"{self.bank}/{document}"

    def synthesize(self, request: SearchRequest) -> str | None:
        """The hook's configured mental models (those the user listed), then a
        ``reflect`` answer when the hook asks for ``strategy: reflect`` and the user
        allows it. ``None`` when neither applies: nothing is claimed."""
        options = request.options
        deadline = time.monotonic() + request.timeout_s
        parts = self._mental_models(options, deadline)
        if options.get("strategy") == "reflect" and self.reflect:
            recall = self.recall_body(request)
            body = {k: v for k, v in recall.items() if k in REFLECT}
            if "memory_types" in options:
                body["fact_types"] = memory_types(options["memory_types"])
            answer = self.endpoint.call(
                "POST", self._bank_path(self.bank, "/reflect"), body,
                timeout_s=deadline - time.monotonic(), what=f"reflect on bank {self.bank!r}",
            )  # fmt: skip
            text = _dict(answer, "reflect").get("text")
            if isinstance(text, str) and text.strip():
                parts.append(text.strip())
        return "\n\n".join(parts) or None

    def _mental_models(self, options: dict[str, Any], deadline: float) -> list[str]:
        if "mental_models" not in options or not self.mental_models:
            return []
        named = set(strings(options["mental_models"], "mental_models", NAME))
        parts = []
        for model_id in self.mental_models:
            what = f"mental model {model_id!r}"
            model = _dict(
                self.endpoint.call(
                    "GET",
                    self._bank_path(self.bank, f"/mental-models/{segment(model_id)}"),
                    params={"detail": "content"},
                    timeout_s=deadline - time.monotonic(),
                    what=what,
                ),
                what,
            )
            if {model_id, model.get("name")} & named and model.get("content"):
                parts.append(f"{model.get('name') or model_id}:\n{model['content']}")
        return parts


def _bind(function: Any, argument: Any) -> Any:
    return lambda: function(argument)


def memory_types(value: Any) -> list[str]:
    """``backends.hindsight.memory_types`` validated: a subset of :data:`TYPES`."""
    types = strings(value, "memory_types", NAME)
    wrong = [t for t in types if t not in TYPES]
    if wrong:
        raise BackendError(f"hindsight: memory type {wrong[0]!r} is not one of {', '.join(TYPES)}")
    return types


def to_hits(bank: str, response: dict[str, Any]) -> list[Hit]:
    """Hits of one recall response (a ``RecallResponse`` as a dict). The id is
    ``"<bank>/<memory id>"`` so provenance names the bank; scope, files and kind come
    back from the metadata ``remember`` wrote, when there is any."""
    results = response.get("results")
    if not isinstance(results, list):
        raise BackendError(f"hindsight: malformed recall response from bank {bank!r}")
    hits = []
    for position, result in enumerate(results):
        if not isinstance(result, dict) or not isinstance(result.get("text"), str):
            raise BackendError(f"hindsight: malformed recall result from bank {bank!r}")
        metadata = result.get("metadata") or {}
        final = (result.get("scores") or {}).get("final")
        hits.append(
            Hit(
                f"{bank}/{result['id']}",
                result["text"],
                float(final) if isinstance(final, (int, float)) else 1.0 / (position + 1),
                scope=metadata.get("memhooks_scope"),
                files=_json_list(metadata.get("memhooks_files")),
                created_at=result.get("mentioned_at") or result.get("occurred_start"),
                kind=metadata.get("memhooks_kind") or result.get("type"),
                tags=list(result.get("tags") or []),
                entities=list(result.get("entities") or []),
            )
        )
    return hits


def _dict(value: Any, what: str) -> dict[str, Any]:
    """A JSON answer that must be an object."""
    if not isinstance(value, dict):
        raise BackendError(f"hindsight: malformed answer to {what} ({type(value).__name__})")
    return value


def _json_list(value: Any) -> list[str]:
    try:
        items = json.loads(value) if isinstance(value, str) else []
    except ValueError:
        return []
    return [i for i in items if isinstance(i, str)] if isinstance(items, list) else []


def _positive(value: Any, key: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BackendError(f"hindsight: {key} must be a positive integer")
    return value


__all__ = ["HindsightBackend", "budget_for"]
