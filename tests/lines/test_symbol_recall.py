"""Symbols as cues: the names of the code an edit replaces find the memories that name
them, anchored to the file or not — and nothing that merely shares a word, names a
longer identifier, or names only what too many memories name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from storyrepo import build, story

from memhooks.backends.embedded import EmbeddedBackend
from memhooks.recall.symbol_recall import COMMON, Cue, find
from memhooks.store import MemoryStore, identify
from memhooks.store.memory import Draft
from memhooks.symbols import symbols_at

PATH = "uptime/incidents.py"
DECISION = (
    "Incident windows less than 5 minutes apart are one outage: MERGE_GAP_S is 300 s and"
    " merge_windows compares with <, as agreed with support."
)


@pytest.fixture
def uptime(tmp_path: Path) -> Path:
    repo = tmp_path / "uptime"
    build(repo, story("uptime_story.json"))
    return repo.resolve()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    opened = MemoryStore(str(tmp_path / "store.sqlite3"))
    yield opened
    opened.close()


def history_imported(repo: Path, store: MemoryStore, tmp_path: Path) -> None:
    """``memhooks history import`` of ``repo`` into ``store``, as a user runs it."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "MEMHOOKS_STORE": store.path, "MEMHOOKS_STATE_DIR": str(tmp_path / "st")}
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "memhooks", "history", "import"], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr


def cue_at(repo: Path, lines: list[tuple[int, int]]) -> Cue:
    text = (repo / PATH).read_text(encoding="utf-8")
    cue = Cue.of(PATH, symbols_at(PATH, text, lines))
    assert cue is not None
    return cue


def found(store: MemoryStore, repo: Path, cue: Cue, **options: object) -> list[str]:
    memories = find(EmbeddedBackend(store), identify(str(repo)).id, cue, **options)  # type: ignore[arg-type]
    return [m.text for m in memories]


def test_an_edit_inside_a_function_finds_the_note_that_names_it_and_not_what_shares_words(
    store: MemoryStore, uptime: Path
) -> None:
    project = identify(str(uptime)).id
    store.remember(
        Draft(DECISION, project=project, kind="decision")
    )  # no file: reachable by the names only
    store.remember(
        Draft("Merge windows of the release calendar are announced in ops.", project=project)
    )
    store.remember(Draft("MERGE_GAP_S_V2 is planned for the streaming pipeline.", project=project))
    store.remember(Draft("We merge windows nightly; see the downtime report.", project=project))
    cue = cue_at(uptime, [(22, 22)])
    assert cue.names == {"merge_windows": 3, "MERGE_GAP_S": 2} and cue.stem == "incidents"
    assert found(store, uptime, cue) == [DECISION]


def test_a_conversation_piece_comes_through_the_names_it_lists_as_entities(
    store: MemoryStore, uptime: Path
) -> None:
    project = identify(str(uptime)).id
    piece = "Conversation: customers saw one outage reported twice; we sort, then join."
    store.remember(
        Draft(piece, project=project, kind="conversation", entities=["merge_windows"],
              files=["uptime/other.py"])
    )  # fmt: skip
    memories = find(EmbeddedBackend(store), project, cue_at(uptime, [(22, 22)]))
    assert [m.text for m in memories] == [piece]
    assert memories[0].anchored_by == "names merge_windows in uptime/incidents.py"


def test_a_name_too_many_memories_name_does_not_count(store: MemoryStore, uptime: Path) -> None:
    project = identify(str(uptime)).id
    for n in range(COMMON):
        store.remember(Draft(f"main() of tool {n} prints the report", project=project))
    rare = "downtime_minutes rounds down to whole minutes (the SLA counts whole minutes)."
    store.remember(Draft(rare, project=project))
    cue = cue_at(uptime, [(35, 35)])  # inside main, calling downtime_minutes
    assert list(cue.names) == ["main", "downtime_minutes"]
    assert found(store, uptime, cue) == [rare]


def test_what_the_session_has_or_an_exclusion_names_is_left_out(
    store: MemoryStore, uptime: Path
) -> None:
    project = identify(str(uptime)).id
    memory, _ = store.remember(Draft(DECISION, project=project))
    cue = cue_at(uptime, [(22, 22)])
    assert found(store, uptime, cue, delivered={memory.id}) == []
    assert found(store, uptime, cue, exclude=lambda: ["agreed with support"]) == []
    store.mark_obsolete(memory.id, None, project=project)
    assert found(store, uptime, cue) == []


def test_a_name_the_file_keeps_to_itself_counts_only_in_a_memory_about_that_file(
    store: MemoryStore,
) -> None:
    # C: every tool of a project may have its own static usage(); another file's is another
    project = "git:cfile"
    text = 'static void usage(void)\n{\n\tfprintf(stderr, "Usage: ip OBJECT\\n");\n}\n'
    cue = Cue.of("ip/ip.c", symbols_at("ip/ip.c", text, [(3, 3)]))
    assert cue is not None and cue.local == {"usage"}
    store.remember(
        Draft("iproute: fix usage() spacing problems", project=project, files=["ip/iproute.c"])
    )
    mine = "ip: usage() lists every object, in the order of the manual"
    store.remember(Draft(mine, project=project, files=["ip/ip.c"]))
    found = find(EmbeddedBackend(store), project, cue)
    assert [m.text for m in found] == [mine]


def test_a_second_edit_of_the_same_lines_reaches_no_further_down_the_list(
    store: MemoryStore, uptime: Path
) -> None:
    project = identify(str(uptime)).id
    notes = [f"merge_windows note {n}: windows less than 5 minutes apart merge" for n in range(3)]
    for note in notes:
        store.remember(Draft(note, project=project))
    cue = cue_at(uptime, [(22, 22)])
    first = find(EmbeddedBackend(store), project, cue)
    assert len(first) == 2
    again = find(EmbeddedBackend(store), project, cue, delivered={m.id for m in first})
    assert again == []  # the third note is not told for the same code


def test_a_commit_naming_the_function_is_left_to_the_lines_it_owns(
    store: MemoryStore, uptime: Path, tmp_path: Path
) -> None:
    from storyrepo import commit_files

    text = (
        (uptime / PATH)
        .read_text(encoding="utf-8")
        .replace("end + MERGE_GAP_S", "end + MERGE_GAP_S + 0")
    )
    commit_files(uptime, {PATH: text}, "fix: merge_windows joins windows that touch", 1767312000)
    history_imported(uptime, store, tmp_path)
    project = identify(str(uptime)).id
    assert any("merge_windows joins" in m.text for m in store.list(project))
    store.remember(Draft(DECISION, project=project))
    assert found(store, uptime, cue_at(uptime, [(22, 22)])) == [DECISION]


def test_commits_naming_the_function_neither_fill_the_search_nor_make_the_name_common(
    store: MemoryStore, uptime: Path, tmp_path: Path
) -> None:
    # newcomer25: a note naming requests' super_len was never told at an edit of
    # super_len — the ten commits that name it made the name "common" and took the
    # search's places, though the symbol cue never tells a commit
    from storyrepo import commit_files

    text = (uptime / PATH).read_text(encoding="utf-8")
    for n in range(COMMON + 2):
        text += f"# note {n}\n"
        commit_files(uptime, {PATH: text}, f"merge_windows: case {n}", 1767312000 + n)
    history_imported(uptime, store, tmp_path)
    project = identify(str(uptime)).id
    assert sum("merge_windows: case" in m.text for m in store.list(project)) == COMMON + 2
    note = "merge_windows must keep the windows sorted by their start, as support reads them."
    store.remember(Draft(note, project=project))
    assert found(store, uptime, cue_at(uptime, [(22, 22)])) == [note]


def test_the_hybrid_search_s_nearest_memories_leave_out_commits_in_their_order(
    store: MemoryStore, uptime: Path, tmp_path: Path
) -> None:
    # the semantic half of a hybrid store's search (EmbeddedBackend._text) keeps the
    # notes among its nearest memories by the store's one rule for "made of a commit"
    # (store.commits.NOT_A_COMMIT), in the order they came
    from memhooks.store import ranking

    history_imported(uptime, store, tmp_path)
    project = identify(str(uptime)).id
    note, _ = store.remember(Draft(DECISION, project=project))
    other, _ = store.remember(Draft("merge_windows is called once a minute.", project=project))
    pk = dict(store.read(lambda conn: conn.execute("SELECT id, pk FROM memories").fetchall()))
    commits = [pk[m.id] for m in store.list(project) if m.id not in (note.id, other.id)]
    pks = [pk[other.id], *commits, pk[note.id]]
    assert commits
    assert store.read(lambda conn: ranking.not_commits(conn, pks)) == [pk[other.id], pk[note.id]]
