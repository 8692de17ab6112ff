"""With a prompt, the embedded backend ranks by the prompt and uses the folder as a cue on
top: memories about files in the target folder, about files the prompt names there, and
about the host's active files move up (docs/recall.md, "How the folder routes")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memhooks.backends.base import SearchRequest
from memhooks.backends.embedded import EmbeddedBackend
from memhooks.store import MemoryStore

pytestmark = pytest.mark.usefixtures("fresh_search_cache")

PROJECT = "github.com/acme/shop"
DATA = Path(__file__).parent / "data"
PROMPT = "raise the session timeout"
AUTH = ["backend/auth", "backend", ""]


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[EmbeddedBackend]:
    path = str(tmp_path / "memories.sqlite3")
    with MemoryStore(path) as store, (DATA / "routing_memories.jsonl").open() as fp:
        store.import_jsonl(PROJECT, fp)
    opened = EmbeddedBackend.open({"path": path})
    yield opened
    opened.close()


def ids(backend: EmbeddedBackend, **kwargs: object) -> list[str]:
    kwargs.setdefault("prompt", PROMPT)
    kwargs.setdefault("auto", True)
    req = SearchRequest("", project=PROJECT, timeout_s=60, limit=5, **kwargs)  # type: ignore[arg-type]
    return [hit.id for hit in backend.search(req)]


def test_without_a_folder_the_prompt_alone_ranks(backend: EmbeddedBackend) -> None:
    assert ids(backend) == ["r1", "r4", "r3", "r2", "r5"]


def test_memories_about_files_in_the_target_folder_move_up(backend: EmbeddedBackend) -> None:
    # r3 and r2 touched backend/auth/*.py; r5 touched backend/auth/tokens.py too, but its
    # prompt match is too weak for a folder boost alone to lift it past r1 and r4.
    assert ids(backend, scopes=AUTH) == ["r3", "r2", "r1", "r4", "r5"]


def test_a_file_deeper_down_is_not_a_file_in_the_folder(backend: EmbeddedBackend) -> None:
    # From backend/, backend/auth/*.py are files of a subfolder: no boost, prompt order.
    assert ids(backend, scopes=["backend", ""]) == ids(backend)


def test_a_file_the_prompt_names_moves_its_memories_further(backend: EmbeddedBackend) -> None:
    named = {"backend/auth/tokens.py": 1.0}
    assert ids(backend, scopes=AUTH, named_files=named)[:2] == ["r2", "r3"]
    # At a share of 0.5 the name counts half: r2 (0.5 + 0.25) still passes r3 (0.5).
    assert ids(backend, scopes=AUTH, named_files={"backend/auth/tokens.py": 0.5})[:2] == [
        "r2",
        "r3",
    ]


def test_an_active_file_outweighs_the_folder(backend: EmbeddedBackend) -> None:
    assert ids(backend, scopes=AUTH, active_files=["frontend/app.js"])[0] == "r4"


def test_a_hand_written_query_is_routed_too(backend: EmbeddedBackend) -> None:
    plain = ids(backend, auto=False)
    routed = ids(backend, auto=False, scopes=AUTH)
    assert plain[0] == "r1" and routed[:2] == ["r3", "r2"]


def test_scores_say_why_and_stay_sorted(backend: EmbeddedBackend) -> None:
    req = SearchRequest("", prompt=PROMPT, auto=True, scopes=AUTH, project=PROJECT, timeout_s=60, limit=5)  # fmt: skip
    hits = backend.search(req)
    scores = [hit.score for hit in hits]
    assert scores == sorted(scores, reverse=True)
    plain = {h.id: h.score for h in backend.search(SearchRequest("", prompt=PROMPT, auto=True, project=PROJECT, timeout_s=60))}  # fmt: skip
    assert {h.id: h.score for h in hits}["r2"] == pytest.approx(plain["r2"] * 1.5)


def test_all_generated_cues_of_one_target_share_one_search(
    backend: EmbeddedBackend, searches: list[str]
) -> None:
    first = ids(backend, scopes=AUTH, files=["backend/auth/tokens.py"])
    for cue_files in (["backend/x.py"], ["README.md"], []):  # the ancestors' cues
        assert ids(backend, scopes=AUTH, files=cue_files) == first
    assert searches == [PROMPT]


def test_a_hand_written_querys_resource_names_expand_its_words_unless_files(
    backend: EmbeddedBackend,
) -> None:
    # No word of the query is in r5's text; "README" is in its files. A document
    # resource named "README" expands the words; a file resource is a cue, not words.
    def search(**kwargs: object) -> list[str]:
        req = SearchRequest("who decided this?", project=PROJECT, timeout_s=60, **kwargs)  # type: ignore[arg-type]
        return [hit.id for hit in backend.search(req)]

    assert search() == []
    assert search(resources=["README"]) == ["r5"]
    assert search(resources=["README.md"], files=["README.md"], prompt=PROMPT) == ids(backend)


def test_the_prompt_as_its_own_query_is_one_list_routed_by_the_folder(
    backend: EmbeddedBackend,
) -> None:
    req = SearchRequest(PROMPT, prompt=PROMPT, scopes=AUTH, project=PROJECT, timeout_s=60, limit=5)
    assert [hit.id for hit in backend.search(req)] == ids(backend, scopes=AUTH)
