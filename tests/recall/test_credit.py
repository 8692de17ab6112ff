""" "recalled by" names the cue that found the memory (issue 22 item 5): a query whose own
words or file cues match it — never the generic generated question a prompt-made match
merely ran beside. A memory only the prompt found says nothing: the model has its prompt
(issue 20, lane prompt20: the prompt repeated with every memory)."""

from __future__ import annotations

import json
from pathlib import Path

from memhooks.maintain.cues import auto_cue_text
from memhooks.recall import context, recall
from memhooks.store import MemoryStore, project_id

HOOK = """---
schema: memhooks/v2
recall_queries:
  - "How are invoice totals rounded?"
  - query: '{auto}'
    resources:
      - name: billing/tax.py
        kind: file
    tags: [memhooks:auto]
---
"""


def _project(tmp_path: Path, queries: list[str], memory: str) -> tuple[Path, str]:
    """A project whose root hook asks ``queries``, and a store holding ``memory`` (id
    ``m``) for it: (its root, the store's path)."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    listed = "".join(f"  - {json.dumps(q)}\n" for q in queries)
    (root / "MEMHOOKS.md").write_text(
        f"---\nschema: memhooks/v2\nrecall_queries:\n{listed}---\n", encoding="utf-8"
    )
    store = str(tmp_path / "store.sqlite3")
    with MemoryStore(store) as s:
        s.add(project_id(str(root)), memory, id="m")
    return root, store


def test_each_memory_credits_the_cue_that_matched(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "billing").mkdir()
    (root / "billing" / "tax.py").write_text("RATE = 0\n", encoding="utf-8")
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    (root / "billing" / "MEMHOOKS.md").write_text(
        HOOK.format(auto=auto_cue_text("billing")), encoding="utf-8"
    )
    store = str(tmp_path / "store.sqlite3")
    project = project_id(str(root))
    with MemoryStore(store) as s:
        s.add(
            project,
            "Invoice totals are rounded half-even, per the 2021 audit",
            scope="billing",
            id="rounding",
        )
        s.add(
            project,
            "The tax rate table is loaded once at start",
            scope="billing",
            files=["billing/tax.py"],
            id="tax",
        )
        s.add(
            project, "Refunds are issued within 14 days of a dispute", scope="billing", id="refunds"
        )
    prompt = "when are refunds issued after a dispute, and when is the tax table loaded"
    result = recall(str(root / "billing"), prompt=prompt, store_path=store)
    body = json.loads(str(context(result)).split("\n", 2)[2])
    by = {m["id"]: m.get("recalled_by") for m in body["memories"]}
    assert "refunds" in by and by["refunds"] is None  # only the prompt's words reach it
    assert by["tax"].startswith("What prior decisions")  # the generated cue: its file matched
    assert (
        by.get("rounding", "How are invoice totals rounded?") == "How are invoice totals rounded?"
    )
    credits = {m["id"]: [b["matched"] for b in m["recalled_by"]] for m in result["memories"]}
    assert credits["refunds"][0] == "prompt" and credits["tax"][0] == "query"


def test_a_query_is_credited_by_the_words_rule_recall_compares_prose_by(tmp_path: Path) -> None:
    # credit compares words as memhooks.words does everywhere else: "merging" and "merge"
    # are one word (credit's own stemmer kept "merg" and "merge" apart: "the prompt")
    root, store = _project(
        tmp_path, ["Why does merging stall?"], "A merge of the ledger waits on the nightly lock"
    )
    result = recall(str(root), prompt="the nightly ledger lock", store_path=store)
    body = json.loads(str(context(result)).split("\n", 2)[2])
    assert {m["id"]: m["recalled_by"] for m in body["memories"]} == {"m": "Why does merging stall?"}


def test_a_shared_number_credits_no_query_and_the_summary_counts_prompt_finds(
    tmp_path: Path,
) -> None:
    # the README's demo: "Why is the backend pinned to PostgreSQL 15?" was listed as what
    # recalled "Access tokens must expire after 15 minutes", and every memory the prompt
    # found listed every query searched beside it (newcomer24)
    from memhooks.recall.summary import text

    root, store = _project(
        tmp_path,
        ["Why is the backend pinned to PostgreSQL 15?", "Which releases were rolled back?"],
        "Access tokens expire after 15 minutes at most",
    )
    result = recall(str(root), prompt="how long do access tokens live", store_path=store)
    (memory,) = result["memories"]
    assert {b["matched"] for b in memory["recalled_by"]} == {"prompt"}
    shown = text(result)
    assert "PostgreSQL" not in shown and "rolled back" not in shown
    searched = len(memory["recalled_by"])
    assert f"    returned by {searched} quer" in shown and "searched with the prompt" in shown
