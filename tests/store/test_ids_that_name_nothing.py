"""An id that names nothing is a usage error, MH044 at the id as typed, with what lists
the ids (newcomer10: `memories forget/show nope`, `transcripts confirm nope` printed an
uncoded ``error:``, exit 1) — as `sessions show nope` says it; and an error of ours
without a more specific handler is printed with its code too (HOME unset: MH037)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.cli import main

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "store.sqlite3"))
    monkeypatch.chdir(project)
    assert main(["remember", "the gateway charges twice on a fifth attempt"]) == 0
    return project


@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_id_is_the_id_quoted_not_the_command(
    root: Path, capsys: pytest.CaptureFixture[str], blank: str
) -> None:
    """``memories show ''`` pointed at ``memhooks memories`` (newcomer13), ``'  '`` at a
    blank line: the argument at fault is the id, typed blank."""
    capsys.readouterr()
    assert main(["memories", "show", blank]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"error[MH044]: no memory {blank!r} in project ")
    assert err[1] == f"  --> '{blank}'"


@pytest.mark.parametrize(
    ("argv", "what", "lists"),
    [
        (["memories", "show", "nope"], "no memory 'nope'", "`memhooks memories list`"),
        (["memories", "forget", "nope"], "no memory 'nope'", "`memhooks memories list`"),
        (["memories", "forget", "--session", "nopenopenope"], "no memory of session",
         "`memhooks memories list --format json`"),
        (["transcripts", "confirm", "nope"], "no conversation piece 'nope'",
         "`memhooks transcripts superseded`"),
        (["transcripts", "undo", "nope"], "no conversation piece 'nope'",
         "`memhooks transcripts superseded`"),
        (["remember", "a new fact", "--replaces", "nope"], "--replaces 'nope'",
         "`memhooks memories list`"),
    ],
)  # fmt: skip
def test_an_id_that_names_nothing_is_mh044_at_the_id(
    root: Path, capsys: pytest.CaptureFixture[str], argv: list[str], what: str, lists: str
) -> None:
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"error[MH044]: {what}")
    typed = argv[-1]
    assert err[1] == f"  --> {typed}"  # the argument as typed, alone
    assert err[2].startswith(f"  help: {lists}")
    if argv[0] == "remember":  # nothing was remembered
        assert main(["memories", "list", "--format", "json"]) == 0
        assert [m["text"] for m in json.loads(capsys.readouterr().out)] == [
            "the gateway charges twice on a fifth attempt"
        ]


def test_a_command_without_home_says_mh037(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("HOME", "MEMHOOKS_STORE", "XDG_DATA_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr("pwd.getpwuid", lambda uid: (_ for _ in ()).throw(KeyError(uid)))
    capsys.readouterr()
    assert main(["memories", "list"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert (
        err[0].startswith("error[MH037]: HOME is not set") and err[1] == "  --> memhooks memories list"
    )
