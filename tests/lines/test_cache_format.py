"""The blame cache keeps each commit's text as history.message made it: an entry written
under an older text rule must be a miss, or people named in trailers the new rule drops
keep reaching the model from the cache (newcomer trial #4: ``memhooks why`` quoted
``Co-Authored By:`` lines after the rule dropped them)."""

from memhooks.history import mapping
from memhooks.lines import cache


def test_a_new_commit_text_rule_makes_old_cache_entries_a_miss() -> None:
    # When history.mapping.FORMAT moves (its text rule changed), bump lines.cache.FORMAT
    # and record the pair here. (10: signal.reshapes widened; the store's mapping did
    # not change, only the reasons kept in the blame cache's notes.)
    assert (mapping.FORMAT, cache.FORMAT) == (4, 26)
