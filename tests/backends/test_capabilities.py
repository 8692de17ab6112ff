"""Optional capabilities are declared by the methods an adapter defines, and read with
isinstance (backends.capabilities): what each adapter offers, as memhooks sees it."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.backends.capabilities import CAPABILITIES
from memhooks.backends.embedded import EmbeddedBackend
from memhooks.backends.fake import FakeBackend
from memhooks.backends.registry import BACKENDS, backend_class
from memhooks.store import MemoryStore


def offered(backend: object) -> set[str]:
    return {c.__name__ for c in CAPABILITIES if isinstance(backend, c)}


def test_the_embedded_store_offers_what_its_store_can(tmp_path: Path) -> None:
    MemoryStore(tmp_path / "s.sqlite3").close()
    backend = EmbeddedBackend.open({"path": str(tmp_path / "s.sqlite3")})
    try:
        assert offered(backend) >= {"Counts", "AnchorsFiles", "Adopts"}
    finally:
        backend.close()


def test_the_fake_offers_only_what_it_is_given() -> None:
    assert offered(FakeBackend()) == set()
    assert offered(FakeBackend(count=lambda project: 0, synthesize=lambda request: None)) == {
        "Counts",
        "Synthesizes",
    }


@pytest.mark.parametrize("name", sorted(BACKENDS))
def test_every_capability_an_adapter_class_defines_is_callable(name: str) -> None:
    cls = backend_class(name)
    for capability in CAPABILITIES:
        for method in capability.METHODS:
            found = getattr(cls, method, None)
            assert found is None or callable(found), (name, method)
