"""The one small protocol every memory backend adapter satisfies.

A backend answers one search per effective recall query. The recall runtime
(:mod:`memhooks.recall`) does everything backend-neutral around it: ordering by priority,
exclusions, de-duplication, the character budget and provenance. Seeds ``000`` and
``003``: retrieval only — a backend is never asked to write because a hook loaded — and
provider-native options come only from that provider's own ``backends.<provider>``
namespace (:attr:`SearchRequest.options`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol
else:
    Protocol = object


class SearchRequest:
    """One backend search.

    ``text``: the recall query (raw text); ``prompt``: the user's prompt or ``None``;
    ``entities``/``tags``: cue names and labels; ``files``: root-relative file cues (the
    query's ``kind: file`` resources plus the host's active files); ``scopes``:
    root-relative folders from the target up to the root (``""`` = root), nearest first;
    ``auto``: the query is a generated folder cue whose text carries no topic;
    ``limit``: how many hits to return at most (the runtime over-fetches to make room for
    exclusions); ``options``: this provider's merged ``backends.<provider>`` mapping;
    ``project``: the project id; ``timeout_s``: seconds this call may take;
    ``priority``: the query's priority (0..1) or ``None`` — importance under context
    pressure, never a relevance score; ``resources``: the names of all the query's
    resources, whatever their kind (a ``viking://`` URI, a document name, …);
    ``active_files``: the host's active files alone (root-relative, also in ``files``);
    ``named_files``: ``{root-relative file: share 0.5..1}``, the target folder's files the
    prompt names by file name (:mod:`memhooks.recall.filenames`; empty without a prompt);
    ``anchored``: tool time — only memories anchored to the target folder (``scopes[0]``)
    or to ``active_files`` are wanted, ranked by ``prompt`` and the query (a backend that
    cannot restrict its search may ignore it: recall filters the hits); ``commits``:
    False when history memories (a commit's) are not wanted — line-level recall tells
    the commits that own the lines instead (the anchored search at tool time, the symbol
    cue's search) — so they must not take the places of the others (a backend that
    cannot tell may ignore it: recall filters them).
    """

    __slots__ = (
        "active_files",
        "anchored",
        "auto",
        "commits",
        "entities",
        "files",
        "limit",
        "named_files",
        "options",
        "priority",
        "project",
        "prompt",
        "resources",
        "scopes",
        "tags",
        "text",
        "timeout_s",
    )

    def __init__(
        self,
        text: str,
        *,
        prompt: str | None = None,
        entities: list[str] | None = None,
        tags: list[str] | None = None,
        files: list[str] | None = None,
        scopes: list[str] | None = None,
        auto: bool = False,
        limit: int = 10,
        options: dict[str, Any] | None = None,
        project: str = "",
        timeout_s: float = 2.0,
        priority: float | None = None,
        resources: list[str] | None = None,
        active_files: list[str] | None = None,
        named_files: dict[str, float] | None = None,
        anchored: bool = False,
        commits: bool = True,
    ) -> None:
        self.anchored = anchored
        self.commits = commits
        self.text = text
        self.prompt = prompt
        self.entities = entities or []
        self.tags = tags or []
        self.files = files or []
        self.scopes = scopes or []
        self.auto = auto
        self.limit = limit
        self.options = options or {}
        self.project = project
        self.timeout_s = timeout_s
        self.priority = priority
        self.resources = resources or []
        self.active_files = active_files or []
        self.named_files = named_files or {}


#: What a backend knows of a memory besides its ``id`` and ``text``, in recall-v1 order:
#: the fields a :class:`Hit` carries and a recalled memory keeps
#: (:class:`memhooks.recall.Recalled`), each a keyword argument of both.
MEMORY_FIELDS = ("scope", "files", "kind", "tags", "entities", "created_at", "commit")


class Hit:
    """One memory a backend returned: ``id``, ``text``, ``score`` (the backend's own
    relevance, higher is better, not comparable across backends), and what it knows of
    ``scope`` (root-relative folder), ``files``, ``created_at`` (ISO 8601), ``kind``,
    ``tags``, ``entities``, ``obsolete`` and ``commit`` (the full hash of the git commit
    the memory was made of, :mod:`memhooks.store.commits`)."""

    __slots__ = ("id", "obsolete", "score", "text", *MEMORY_FIELDS)

    def __init__(
        self,
        id: str,
        text: str,
        score: float,
        *,
        scope: str | None = None,
        files: list[str] | None = None,
        created_at: str | None = None,
        kind: str | None = None,
        tags: list[str] | None = None,
        entities: list[str] | None = None,
        obsolete: bool = False,
        commit: str | None = None,
    ) -> None:
        self.id = id
        self.text = text
        self.score = score
        self.scope = scope
        self.files = files or []
        self.created_at = created_at
        self.kind = kind
        self.tags = tags or []
        self.entities = entities or []
        self.obsolete = obsolete
        self.commit = commit

    def __repr__(self) -> str:
        return f"Hit({self.id!r}, score={self.score:.4f})"


class PartialHits(list[Hit]):
    """A search answer some of whose sources failed: the hits of the sources that
    answered (a ``list[Hit]``, best first, like any answer) and ``failures``, one
    ``(source, message)`` per source that did not — a Hindsight bank, a mental model —
    in the order the sources were asked.

    The contract between an adapter and the recall runtime: a source is one request an
    adapter makes for one search. An adapter whose search asks several sources asks each
    one under its own cap (``SearchRequest.timeout_s``), keeps what the healthy ones
    returned, and

    * returns a plain list when every source answered;
    * returns ``PartialHits`` when some answered and some failed (timed out, reset,
      refused, HTTP error, malformed answer);
    * raises :class:`memhooks.errors.BackendError` naming every source when none answered.

    The runtime reads ``failures`` with :func:`failures_of` (any list works; a plain one
    has none) and reports the query as ``partial`` with the failures in its ``error``.
    """

    def __init__(self, hits: list[Hit], failures: list[tuple[str, str]]) -> None:
        super().__init__(hits)
        self.failures = list(failures)


def failures_of(hits: list[Hit]) -> list[tuple[str, str]]:
    """``(source, message)`` of every source a search answer says failed (see
    :class:`PartialHits`); ``[]`` for a plain list."""
    return list(getattr(hits, "failures", None) or [])


class Health:
    """The answer of a health check: ``ok`` (bool), ``detail`` (one line for people),
    ``ms`` (how long the check took, milliseconds)."""

    __slots__ = ("detail", "ms", "ok")

    def __init__(self, ok: bool, detail: str, ms: float = 0.0) -> None:
        self.ok = ok
        self.detail = detail
        self.ms = ms


class Backend(Protocol):
    """A memory system memhooks can recall from.

    Required: ``name`` (the provider namespace it reads, ``backends.<name>``);
    ``search(request)`` → hits best first, raising :class:`memhooks.errors.BackendError`
    on failure or when ``request.timeout_s`` passes (a search over several sources that
    lost only some of them returns :class:`PartialHits`); ``close()``.

    Optional capabilities are the small protocols of :mod:`.capabilities`
    (``ChecksHealth``, ``Remembers``, ``Synthesizes``, ``Counts``, ``AnchorsFiles``,
    ``Adopts``): ``isinstance(backend, Counts)`` is true when the adapter defines that
    method (an adapter that lacks one simply does not offer it; nothing is faked).

    Every adapter opens the same way, by :func:`memhooks.backends.registry.open_backend`:
    a classmethod ``open(settings: Mapping) -> Backend`` taking the user's settings for
    that backend (configuration file + environment; the embedded store's file is its
    ``path``).
    """

    name: str

    def search(self, request: SearchRequest) -> list[Hit]: ...

    def close(self) -> None: ...
