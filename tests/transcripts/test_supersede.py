"""Later decisions win (memhooks.transcripts.supersede): the amendment rule (5) on the
development set's pieces, where it must tell an amendment from a new rule on the same code."""

from __future__ import annotations

from pathlib import Path

from transcript_support import copy_devset

from memhooks.store import Memory, MemoryStore
from memhooks.transcripts import import_transcripts
from memhooks.transcripts.supersede import Weights, supersedes
from memhooks.workspace import locate


def test_an_amendment_supersedes_the_rule_it_changes_and_nothing_else(
    devset: tuple[Path, Path], tmp_path: Path, store_path: str
) -> None:
    project, home = copy_devset(devset, tmp_path)
    where = locate(str(project))
    with MemoryStore(store_path) as store:
        import_transcripts(store, where, env={"HOME": str(home)})
        every = [m for m in store.list(where.project, limit=None, include_obsolete=True)]
    weights = Weights(every)
    live = {m.text.split("Where it ended:\nuser: ")[1][:30]: _copy(m, obsolete=False) for m in every}
    merge = live["OK. We decided: merge overlapp"]
    merge5 = live["From now on merge incident win"]
    blips60 = live["No, keep the checker as it is."]
    # "From now on" + both conclusions name merge_windows + one topic, weakly (.32).
    assert supersedes(merge5, merge, weights)
    # "From now on" too, both name downtime_minutes — but ignoring blips is another rule
    # than merging (.24: under the bar), and the 5-minute merge is not the blip rule.
    assert not supersedes(blips60, merge, weights)
    assert not supersedes(merge5, blips60, weights)
    # Without the amendment phrase, the weak overlap is no supersession.
    plain = _copy(merge5, text=merge5.text.replace("From now on merge", "Merge"))
    assert not supersedes(plain, merge, weights)


def _copy(memory: Memory, **changes: object) -> Memory:
    """``memory`` as it was before any supersession, with ``changes``."""
    fields = {**memory.to_json(), "superseded_by": None, **changes}
    return Memory(**fields)  # type: ignore[arg-type]
