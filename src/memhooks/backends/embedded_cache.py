"""Ranked lists of the embedded store, reused while the store does not change.

The recall hook runs the same hook queries on every prompt; only the prompt is new.
Each list (the row ids a search ranked, best first) is kept under a key naming the
search, for one *state* of the store — its random file id and the generation that every
memory insert, update and delete increments (``store_state``, schema version 2) — and
dropped as soon as the state moves on. Two layers: a dict for this process (a host that
calls :func:`memhooks.recall.recall` repeatedly) and one JSON file per store under
``$XDG_CACHE_HOME/memhooks/search/`` (a fresh hook process). Lists depend only on the
store's contents and on :data:`signature` (the ranking settings), so a reused list is
the list a new search would compute. ``MEMHOOKS_CACHE=0`` turns both layers off.
"""

from __future__ import annotations

import os

from .. import cachefile
from ..dirs import cache_dir
from ..fast import jsonfast
from ..paths import resolved
from ..settings import switch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FORMAT = 1
#: Most lists kept per store; past it the layer starts afresh (a cache, not an archive).
MAX_LISTS = 512
MAX_WORDS = 4096
#: Keys that start with this are kept in the process layer only.
VOLATILE = "~"

State = tuple[str, int]
_PROCESS: dict[str, tuple[State, str, dict[str, list[int]], dict[str, int], dict[str, Any]]] = {}


class ListCache:
    """The reusable lists of the store at ``path`` in ``state``, for ranking settings
    ``signature``. Read with :meth:`get`, add with :meth:`remember`, fill
    ``frequencies`` (word -> document count) freely, then :meth:`save`."""

    def __init__(self, path: str, state: State, signature: str) -> None:
        self.enabled = switch("MEMHOOKS_CACHE")
        self.on_disk = self.enabled and path != ":memory:"
        self.path = path if path == ":memory:" else resolved(path)
        self.state = state
        self.signature = signature
        self.lists: dict[str, list[int]] = {}
        self.frequencies: dict[str, int] = {}
        #: Other things worth keeping for this state in this process (never written).
        self.objects: dict[str, Any] = {}
        #: Keys of the lists the file held for an earlier state of the store.
        self.stale: list[str] = []
        self._new = False
        self._words = 0
        if not self.enabled:
            return
        memo = _PROCESS.get(self.path)
        if memo is not None and memo[0] == state and memo[1] == signature:
            self.lists, self.frequencies, self.objects = memo[2], memo[3], memo[4]
        else:
            self._load()
            _PROCESS[self.path] = (state, signature, self.lists, self.frequencies, self.objects)
        self._words = len(self.frequencies)

    def file(self) -> str:
        return os.path.join(cache_dir(), "search", f"{cachefile.key_name(self.path)}.json")

    def get(self, key: str) -> list[int] | None:
        found = self.lists.get(key)
        if isinstance(found, list) and all(type(pk) is int for pk in found):
            return found
        return None

    def remember(self, key: str, ranked: list[int]) -> None:
        """Keep ``ranked`` under ``key``; a key that starts with :data:`VOLATILE` stays in
        this process (a prompt's list: prompts rarely repeat), others go to disk too."""
        if len(self.lists) >= MAX_LISTS:
            self.lists.clear()
        self.lists[key] = ranked
        self._new = self._new or not key.startswith(VOLATILE)

    def save(self, state: State) -> None:
        """Write new lists to the file if the store is still in the state they were
        computed in. Failures are ignored (a cache)."""
        if not self.enabled or state != self.state:
            _PROCESS.pop(self.path, None)
            return
        if not self.on_disk or (not self._new and len(self.frequencies) == self._words):
            return
        if len(self.frequencies) > MAX_WORDS:
            self.frequencies.clear()
        lists = {key: value for key, value in self.lists.items() if not key.startswith(VOLATILE)}
        blob = {"format": FORMAT, "store": self.path, "signature": self.signature,
                "state": list(self.state), "lists": lists, "frequencies": self.frequencies}  # fmt: skip
        cachefile.write(self.file(), jsonfast.dumps(blob, separators=(",", ":")))
        self._new = False
        self._words = len(self.frequencies)

    def _load(self) -> None:
        if not self.on_disk:
            return
        try:
            blob: Any = jsonfast.loads(cachefile.read(self.file()))
        except (OSError, ValueError):
            return
        if not (
            isinstance(blob, dict)
            and blob.get("format") == FORMAT
            and blob.get("store") == self.path
            and blob.get("signature") == self.signature
            and isinstance(blob.get("lists"), dict)
            and isinstance(blob.get("frequencies"), dict)
        ):
            return
        if blob.get("state") != list(self.state):
            # Lists of an earlier state: useless as lists, but they say which searches
            # the hooks run (memhooks.backends.embedded.refresh recomputes them).
            self.stale = [key for key in blob["lists"] if isinstance(key, str)]
            return
        self.lists = blob["lists"]
        self.frequencies = blob["frequencies"]


def clear_memory() -> None:
    """Forget the process layer (tests)."""
    _PROCESS.clear()
