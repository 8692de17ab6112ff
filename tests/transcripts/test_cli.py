"""``memhooks transcripts import|superseded|confirm|undo`` and ``memories forget --session``,
as a user runs them (the sandboxed HOME holds the hosts' files)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import copy_devset

from memhooks.cli import main
from memhooks.store import MemoryStore, project_id


@pytest.fixture
def planted(devset: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project, home = copy_devset(devset, tmp_path)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "store.sqlite3"))
    return project


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_says_what_it_did_and_a_rerun_adds_nothing(
    planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "transcripts", "import", str(planted))
    assert code == 0
    assert "sessions read: 14 (4 claude-code, 4 codex, 3 copilot-cli, 3 gemini-cli)" in out
    assert "pieces: 15 added, 0 updated, 0 already imported" in out
    assert "2 piece(s) superseded by a later one" in out
    code, out, _ = _run(capsys, "transcripts", "import", str(planted), "--format", "json")
    assert (code, json.loads(out)["added"], json.loads(out)["unchanged_files"]) == (0, 0, 14)


def test_import_needs_an_enabled_project_but_a_dry_run_does_not(
    planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (planted / "MEMHOOKS.md").unlink()
    code, _, err = _run(capsys, "transcripts", "import", str(planted))
    assert code == 1 and "MH013" in err
    code, out, _ = _run(
        capsys, "transcripts", "import", str(planted), "--dry-run", "--agent", "codex"
    )
    assert code == 0 and "15 to add" not in out and "4 codex" in out
    assert not Path(os.environ["MEMHOOKS_STORE"]).exists()


def test_a_supersession_can_be_confirmed_or_undone(
    planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(capsys, "transcripts", "import", str(planted))
    code, out, _ = _run(
        capsys, "transcripts", "superseded", "--cwd", str(planted), "--format", "json"
    )
    rows = json.loads(out)
    assert code == 0 and len(rows) == 2 and not any(r["confirmed"] for r in rows)
    first, second = rows
    code, out, err = _run(capsys, "transcripts", "confirm", first["id"], "--cwd", str(planted))
    assert code == 0, err
    code, out, _ = _run(capsys, "transcripts", "undo", second["id"], "--cwd", str(planted))
    assert code == 0 and "live again" in out
    with MemoryStore(os.environ["MEMHOOKS_STORE"]) as store:
        project = project_id(str(planted))
        kept = store.get(second["id"], project=project)
        confirmed = store.get(first["id"], project=project)
    assert kept is not None and not kept.obsolete and "kept" in kept.tags
    assert confirmed is not None and confirmed.obsolete and "confirmed" in confirmed.tags
    # Once undone, it is not superseded again; and it is no longer among the superseded.
    assert _run(capsys, "transcripts", "undo", second["id"], "--cwd", str(planted))[0] == 2
    out = _run(capsys, "transcripts", "superseded", "--cwd", str(planted))[1]
    assert first["id"] in out and "(confirmed)" in out and second["id"] not in out


def test_forget_by_session_removes_every_piece_of_it(
    planted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(capsys, "transcripts", "import", str(planted))
    with MemoryStore(os.environ["MEMHOOKS_STORE"]) as store:
        pieces = store.list(project_id(str(planted)), limit=None, include_obsolete=True)
    session = next(
        m.source for m in pieces if m.source.startswith("transcript:claude-code:")
    ).split(":")[2]
    of_it = [m for m in pieces if m.source.endswith(session)]
    code, out, _ = _run(
        capsys, "memories", "forget", "--cwd", str(planted), "--session", session[:8]
    )
    assert code == 0 and f"Forgot {len(of_it)} memor" in out
    code, _, err = _run(
        capsys, "memories", "forget", "--cwd", str(planted), "--session", session[:8]
    )
    assert code == 1 and "no memory of session" in err
    assert _run(capsys, "memories", "forget", "--cwd", str(planted))[0] == 2
