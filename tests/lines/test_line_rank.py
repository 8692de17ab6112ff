"""Read-time ranking of line owners: by lines owned and by the prompt, above a floor,
a few per file; a low-signal owner only with what it replaced."""

from __future__ import annotations

from memhooks.recall.line_rank import rank
from memhooks.recall.why import Explanation, Why
from memhooks.recall.why_commit import Commit


def owner(name: str, lines: list[tuple[int, int]], message: str, *, low: bool = False,
          before: bool = False, when: int = 0, initial: bool = False,
          files: int = 1) -> Explanation:  # fmt: skip
    commit = Commit(name * 40, message.split("\n")[0], when, message)
    commit.low_signal = "reshapes" if low else None
    commit.files = files
    explanation = Explanation(commit, lines)
    explanation.initial = initial
    if before:
        explanation.before = [(Commit("f" * 40, "fix: the reason", 0, "fix: the reason"), 3)]
    return explanation


def read_of(total: int, *explanations: Explanation) -> Why:
    why = Why("a.py", [(1, total)])
    why.total = total
    why.explanations = list(explanations)
    return why


def names(found: list[Explanation]) -> list[str]:
    return [e.commit.hash[0] for e in found]


def test_owners_rank_by_lines_owned_and_three_at_most() -> None:
    why = read_of(100, owner("a", [(1, 10)], "a"), owner("b", [(11, 50)], "b"),
                  owner("c", [(51, 70)], "c"), owner("d", [(71, 100)], "d"))  # fmt: skip
    assert names(rank(why)) == ["b", "d", "c"]


def test_a_sliver_of_a_large_read_is_noise_unless_the_prompt_names_its_subject() -> None:
    sliver = owner("s", [(5, 6)], "cap the retry budget of the gateway")
    why = read_of(1000, owner("a", [(1, 900)], "initial import"), sliver)
    assert names(rank(why)) == ["a"]
    assert names(rank(why, "why is the retry budget capped?")) == ["s", "a"]


def test_a_low_signal_owner_comes_only_with_what_it_replaced() -> None:
    why = read_of(20, owner("p", [(1, 10)], "perf: simplify", low=True),
                  owner("q", [(11, 20)], "style: reformat", low=True, before=True))  # fmt: skip
    assert names(rank(why)) == ["q"]


def test_ties_go_to_the_newer_commit() -> None:
    why = read_of(20, owner("o", [(1, 10)], "x", when=1), owner("n", [(11, 20)], "y", when=2))
    assert names(rank(why)) == ["n", "o"]


def test_the_first_commit_tells_nothing_unless_the_prompt_is_about_it() -> None:
    start = owner("i", [(1, 180)], "test project", initial=True)
    fix = owner("f", [(181, 200)], "fix: round invoice totals half up")
    why = read_of(200, start, fix)
    assert names(rank(why)) == ["f"]
    assert names(rank(why, "why does the test project set this up?")) == ["i", "f"]


def test_a_sweeping_commit_is_not_told_at_a_read() -> None:
    # a commit across many files owning the read lines in many places, or a low-signal
    # one across many files even with what it replaced: a mechanical pass
    spread = [(n, n) for n in range(10, 30, 3)]  # 7 separate lines
    why = read_of(100, owner("t", spread, "Add inline types", files=20),
                  owner("f", [(1, 5)], "feat: cap the budget"),
                  owner("s", [(40, 90)], "style: reformat", low=True, before=True, files=39))  # fmt: skip
    assert names(rank(why)) == ["f"]


def test_a_sweep_is_known_by_its_places_in_the_whole_file_not_in_the_lines_read() -> None:
    # reviewer: requests' "Add inline types" owns auth.py in 29 places, and 2-3 of any
    # 30 lines read: told at every ranged read once the whole file was blamed
    types = owner("t", [(289, 290), (304, 305)], "Add inline types to Requests (#7272)",
                  files=20)  # fmt: skip
    fix = owner("f", [(291, 299)], "Fix infinite loop on wrong Digest Authentication")
    assert names(rank(read_of(30, types, fix))) == ["f", "t"]  # the file's spread unknown
    types.places = 29
    assert names(rank(read_of(30, types, fix))) == ["f"]


def test_a_commit_across_many_files_that_owns_a_block_is_a_feature() -> None:
    # one block of this file (a function moved in, an option wired through the tools),
    # or a scattered change of a few files (json output, on iproute2): ranked as any other
    why = read_of(100, owner("w", [(10, 30)], "tc: add the mpls action", files=40),
                  owner("j", [(n, n) for n in range(10, 60, 5)], "ip: json output", files=3))  # fmt: skip
    assert names(rank(why)) == ["w", "j"]


def test_everyday_words_of_a_prompt_do_not_make_a_commit_answer_it() -> None:
    from memhooks.recall.line_rank import says

    assert not says("Don't fix the tests twice", "don't change the tests, just fix it")
    assert says("Cap gateway retries at the budget", "why are gateway retries capped?")


def test_a_chain_does_not_take_the_place_of_the_owner_of_more_of_the_lines_read() -> None:
    # lines20 (requests utils.py 845-860, "no_proxy is ignored when using sessions"): a
    # one-line "Split get_environ_proxies" chain, its prompt words second-hand, went
    # before a4f9a599, which owns 4 of the 16 lines read, and the cap of 3 dropped it
    prompt = "no_proxy is ignored when using sessions"
    port = owner("a", [(854, 857)], "Port bpo-39057 to Requests (#7427)")
    plain = owner("p", [(845, 847)], "consider plain ip notation of an ip in no_proxy")
    ranges = owner("r", [(848, 848)], "Added possibility to use IP ranges to no_proxy")
    split = owner("s", [(859, 859)], "Split get_environ_proxies into two methods.", low=True)
    split.before = [(Commit("9" * 40, "Use IP ranges in no_proxy", 0, "Use IP ranges in no_proxy"), 1)]
    why = read_of(16, port, plain, ranges, split)
    assert names(rank(why, prompt, narrow=True)) == ["p", "r", "a"]
    # with room for all, the chain still comes, after them
    assert names(rank(why, prompt, narrow=True, limit=4)) == ["p", "r", "a", "s"]


def test_a_chain_that_owns_more_lines_than_a_silent_owner_keeps_its_place() -> None:
    # a reshaping owner of most of the lines, with the decision behind it, before an owner
    # of fewer lines that says nothing of the prompt
    split = owner("s", [(1, 8)], "refactor: split the retry loop", low=True, before=True)
    small = owner("m", [(9, 10)], "Rename a variable in the loop")
    assert names(rank(read_of(10, small, split), "why four attempts?")) == ["s", "m"]


def test_a_chain_goes_after_a_direct_owner_that_says_the_prompt_s_words() -> None:
    # the chain owns more lines and its previous owner says the prompt too, so it scores
    # higher; but its words are second-hand: the owner that says them itself goes first
    split = owner("s", [(1, 6)], "refactor: split the retry loop", low=True)
    split.before = [(Commit("9" * 40, "fix: cap the retrier at four attempts", 0,
                            "fix: cap the retrier at four attempts"), 6)]  # fmt: skip
    keep = owner("k", [(7, 8)], "keep four attempts: the gateway's measured budget")
    why = read_of(8, split, keep)
    assert names(rank(why, "why four attempts?", limit=1)) == ["k"]
    assert names(rank(why, "why four attempts?")) == ["k", "s"]


def test_a_low_signal_owner_whose_previous_owner_is_low_signal_too_is_left_out() -> None:
    # a typing pass over a formatting pass: nothing behind it says why
    types = owner("t", [(1, 10)], "Add inline types", low=True)
    earlier = Commit("8" * 40, "style: reformat", 0, "style: reformat")
    earlier.low_signal = "reshapes"
    types.before = [(earlier, 10)]
    why = read_of(20, types, owner("f", [(11, 20)], "fix: round totals half up"))
    assert names(rank(why)) == ["f"]


def test_a_chain_that_brings_only_what_is_named_already_is_left_out() -> None:
    # newcomer6: requests auth.py 190-200 — the formatter's 2a6f290 (7 lines) and the
    # typing pass 561e4b6 (2 lines) each had only 1dbaddd behind it; the second told its
    # reshaping and nothing new, and took a place of the three
    decision = Commit("d" * 40, "for RFC-7616 add SHA-256", 0, "for RFC-7616 add SHA-256")
    formatter = owner("f", [(1, 7)], "style: reformat", low=True)
    formatter.before = [(decision, 3)]
    typing = owner("t", [(8, 9)], "Add inline types", low=True)
    first = Commit("r" * 40, "initial import", 0, "initial import")
    first.root = True  # nothing that says why: it does not make the chain bring news
    typing.before = [(decision, 2), (first, 1)]
    other = owner("o", [(10, 12)], "fix: keep the nonce per thread")
    why = read_of(12, formatter, typing, other)
    assert names(rank(why)) == ["f", "o"]
    alone = read_of(12, typing, other)  # the same chain first: it brings the decision
    assert names(rank(alone)) == ["o", "t"]
