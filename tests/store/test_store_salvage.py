"""A store with pages overwritten on disk: the plain export fails and says what to do,
``memories export --salvage`` writes out every memory still readable (issue 13 item 6)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from memhooks.cli import main
from memhooks.store import MemoryStore, project_id

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"
COUNT = 400


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    return root


def filled(path: Path, project: str) -> list[str]:
    """A real store of COUNT memories (several table pages) and a second project's row;
    returns the clean export lines of ``project``."""
    with MemoryStore(path) as store:
        for n in range(COUNT):
            store.add(project, f"fact number {n} about the deploy pipeline " + "x" * 200,
                      scope="src", files=[f"src/f{n}.py"], created_at=f"2025-01-01T00:{n // 60:02d}:{n % 60:02d}Z")  # fmt: skip
        store.add("someone/else", "another project's memory")
        conn = store._conn
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the main file
        import io

        out = io.StringIO()
        store.export_jsonl(project, out)
    return out.getvalue().splitlines()


def overwrite_table_pages(path: Path, how_many: int, seed: int) -> int:
    """Overwrite ``how_many`` leaf pages of the ``memories`` table with random bytes;
    return the page size."""
    conn = sqlite3.connect(path)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    leaves = [
        page
        for (page,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'memories' AND pagetype = 'leaf' ORDER BY pageno"
        )
    ]
    conn.close()
    rng = random.Random(seed)
    assert len(leaves) > 10 * how_many
    with path.open("r+b") as fp:
        for page in rng.sample(leaves[1:-1], how_many):
            fp.seek((page - 1) * size)
            fp.write(rng.randbytes(size))
    return int(size)


def test_salvage_writes_every_readable_memory_and_counts_the_rest(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    pid = project_id(str(project))
    clean = filled(store, pid)
    overwrite_table_pages(store, 2, seed=13)
    base = ["--cwd", str(project), "--store", str(store)]

    # The plain export fails, and the message says what to do.
    assert main(["memories", "export", *base]) == 1
    err = capsys.readouterr().err
    assert f"the memory store {store} is damaged" in err
    assert "`memhooks memories export --salvage FILE`" in err
    rescued = tmp_path / "rescued.jsonl"
    assert main(["memories", "export", "--salvage", str(rescued), *base]) == 0
    lines = rescued.read_text(encoding="utf-8").splitlines()
    err = capsys.readouterr().err
    lost = COUNT - len(lines)
    assert 0 < lost < COUNT // 4  # two pages' worth of rows, no more
    assert err == (
        f"Salvaged {len(lines)} memories of project {pid} to {rescued}; {lost} rows could"
        " not be read (of any project; an older export may still have them)\n"
    )
    assert set(lines) <= set(clean)  # byte for byte what the clean export had
    assert lines == [line for line in clean if line in set(lines)]  # in the same order
    # A row on a good page still reads one at a time, as search reads it: partial damage.
    assert main(["memories", "show", json.loads(lines[0])["id"], *base]) == 0
    capsys.readouterr()

    # The salvage imports into a new store as is.
    fresh = tmp_path / "fresh.sqlite3"
    assert (
        main(["memories", "import", str(rescued), "--cwd", str(project), "--store", str(fresh)])
        == 0
    )
    with MemoryStore(fresh) as opened:
        assert opened.count(pid) == len(lines)


def test_salvage_of_a_healthy_store_is_the_export(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    clean = filled(store, project_id(str(project)))
    capsys.readouterr()
    assert (
        main(["memories", "export", "--salvage", "--cwd", str(project), "--store", str(store)]) == 0
    )
    out, err = capsys.readouterr()
    assert out.splitlines() == clean and err.endswith("; every row was readable\n")
    assert [json.loads(line)["text"] for line in out.splitlines()][:1] == [
        "fact number 0 about the deploy pipeline " + "x" * 200
    ]


def test_salvage_without_a_readable_schema_is_an_error_and_writes_no_file(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    filled(store, project_id(str(project)))
    with store.open("r+b") as fp:
        fp.seek(100)
        fp.write(random.Random(1).randbytes(3000))  # the schema page
    rescued = tmp_path / "rescued.jsonl"
    argv = [
        "memories",
        "export",
        "--salvage",
        str(rescued),
        "--cwd",
        str(project),
        "--store",
        str(store),
    ]
    assert main(argv) == 1
    assert f"error[MH037]: the memory store {store} is damaged" in capsys.readouterr().err
    assert not rescued.exists()
