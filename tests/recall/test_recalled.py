"""A recalled memory is a small immutable record (issue 21 step 4): what recall, the
keep-test and the hook's delivery read, none of them can change."""

from __future__ import annotations

import pytest

from memhooks.backends.base import Hit
from memhooks.recall import Recalled
from memhooks.recall.anchoring import Anchor

BY_QUERY = {"query": "invoice rounding", "source": "/p/billing/MEMHOOKS.md", "matched": "query"}


def _memory(anchored_by: str | None = None) -> Recalled:
    return Recalled(
        "billing-cents",
        "Invoice amounts are integer cents.",
        scope="billing",
        files=["billing/invoice.py"],
        kind="decision",
        recalled_by=[BY_QUERY],
        anchored_by=anchored_by,
    )


def test_a_recalled_memory_is_changed_only_by_a_copy() -> None:
    memory = _memory()
    with pytest.raises(AttributeError):
        setattr(memory, "text", "rewritten")  # noqa: B010  (as an attribute assignment)
    cut = memory.replace(text="Invoice amounts…")
    assert (cut.text, memory.text) == ("Invoice amounts…", "Invoice amounts are integer cents.")
    assert cut.files is memory.files and cut.recalled_by == memory.recalled_by
    with pytest.raises(TypeError, match="no field 'txt'"):
        memory.replace(txt="typo")


def test_the_recall_v1_entry_round_trips() -> None:
    plain = _memory().to_dict()
    assert "anchored_by" not in plain and plain["recalled_by"] == [BY_QUERY]
    anchored = _memory(anchored_by="touched billing/invoice.py").to_dict()
    assert anchored["anchored_by"] == "touched billing/invoice.py"
    for entry in (plain, anchored):
        assert Recalled.from_dict(entry).to_dict() == entry


def test_every_field_of_a_recalled_memory_survives_the_round_trip() -> None:
    # every field set (none left at its default), so a field from_dict or to_dict
    # forgets is lost here
    entry = {
        "id": "billing-cents",
        "text": "Invoice amounts are integer cents.",
        "scope": "billing",
        "files": ["billing/invoice.py"],
        "kind": "decision",
        "tags": ["money"],
        "entities": ["Invoice"],
        "created_at": "2026-12-02T04:00:00Z",
        "commit": "0c263d7c36ff" + "0" * 28,
        "recalled_by": [BY_QUERY],
        "anchored_by": "touched billing/invoice.py",
    }
    assert list(entry) == [*Recalled.__slots__]  # recall-v1 order, nothing missing
    memory = Recalled.from_dict(entry)
    assert {name: getattr(memory, name) for name in Recalled.__slots__} == {**entry, "recalled_by": (BY_QUERY,)}
    assert memory.to_dict() == entry
    assert Recalled.of(Hit(**{k: v for k, v in entry.items() if k not in ("recalled_by", "anchored_by")}, score=1.0), [BY_QUERY], "touched billing/invoice.py").to_dict() == entry


def test_the_anchor_says_why_and_leaves_the_memory_as_it_was() -> None:
    memory = _memory()
    before = memory.to_dict()
    # lines20: a note "touched" nothing; it is anchored to the file (a commit touched it)
    assert Anchor(["billing"], [], [])(memory) == "anchored to billing/invoice.py"
    assert Anchor(["billing"], ["billing/invoice.py"], [])(memory) == "anchored to billing/invoice.py"
    commit = memory.replace(commit="0c263d7c36ff" + "0" * 28)
    assert Anchor(["billing"], [], [])(commit) == "touched billing/invoice.py"
    assert Anchor(["tax"], [], ["/p/billing/MEMHOOKS.md"])(memory) == ""  # its hook
    assert Anchor(["tax"], [], [])(memory) is None
    assert memory.to_dict() == before
