"""What a backend may offer beyond search: one small protocol per optional capability
(httpx's transports declare what they can do the same way; :class:`.base.Backend` is the
one required protocol).

``isinstance(backend, Counts)`` is true when the adapter defines every method of
``Counts``: a capability is declared by defining its method, never by registering or
inheriting, and an adapter that lacks one simply does not offer it (nothing is faked).
To a type checker each is a ``runtime_checkable`` ``typing.Protocol``; at run time the
same check costs no ``typing`` import on the hook's path (~2.5 ms under ``python -S``,
measured with ``-X importtime``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol as Capability
    from typing import runtime_checkable as capability

    from ..store.memory import Draft
    from .base import Health, SearchRequest
else:

    class _Checked(type):
        """``isinstance(backend, C)``: ``backend`` has a callable for each of ``C``'s
        methods, as ``typing.runtime_checkable`` checks a protocol's members."""

        def __instancecheck__(cls, backend: object) -> bool:
            return all(callable(getattr(backend, name, None)) for name in cls.METHODS)

    class Capability(metaclass=_Checked):
        METHODS: tuple[str, ...] = ()

        def __init_subclass__(cls) -> None:
            cls.METHODS = tuple(n for n, v in vars(cls).items() if callable(v) and n[0] != "_")

    def capability(cls):
        return cls


@capability
class ChecksHealth(Capability):
    """Does it answer (``memhooks backends check``)."""

    def health(self) -> Health: ...


@capability
class Remembers(Capability):
    """Write one memory, return its backend id (``memhooks remember``; never called
    because a hook loaded). Raises BackendError."""

    def remember(self, draft: Draft) -> str: ...


@capability
class Synthesizes(Capability):
    """A backend-side synthesis (Hindsight reflect, Honcho dialectic), only when the
    user's configuration enables it; None when it has nothing to say."""

    def synthesize(self, request: SearchRequest) -> str | None: ...


@capability
class Counts(Capability):
    """How many memories a project has (an empty store told from a search that found
    nothing). Raises MemhooksError (the embedded store's StoreError)."""

    def count(self, project: str) -> int: ...


@capability
class AnchorsFiles(Capability):
    """Root-relative files directly in ``folder`` that memories not in ``besides``
    touched (commits' too unless not ``commits``), at most ``limit`` (tool-time recall
    per file). Raises MemhooksError."""

    def anchored_files(
        self, project: str, folder: str, *, besides: set[str], limit: int, commits: bool = True
    ) -> list[str]: ...


@capability
class Adopts(Capability):
    """Move what was kept under a project's earlier ids (``aliases``) to its id; how many
    moved (the embedded store). Raises MemhooksError (StoreError)."""

    def adopt(self, project: str, aliases: tuple[str, ...]) -> int: ...


@capability
class FrequentWords(Capability):
    """The share of ``project``'s memories (0.0 to 1.0) holding each word of ``text``, so
    the prompt-time floor can tell words that say nothing of any one memory (in more
    than a third) and common ones (in more than 1 %) from rare ones
    (:mod:`memhooks.recall.floor`); ``{}`` when the store is too small to tell. Counting
    may stop above a third: a word in more reads as just above it. Raises MemhooksError."""

    def word_shares(self, project: str, text: str) -> dict[str, float]: ...


#: Every optional capability (what an adapter offers: ``[c for c in CAPABILITIES if
#: isinstance(backend, c)]``).
CAPABILITIES = (ChecksHealth, Remembers, Synthesizes, Counts, AnchorsFiles, Adopts, FrequentWords)
