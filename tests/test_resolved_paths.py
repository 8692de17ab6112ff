"""A path's canonical form (:func:`memhooks.paths.resolved`): asked afresh in a process
that lives long (the CLI, the MCP server), kept once a hook process asked for it
(:func:`memhooks.paths.keep_resolved`, called by the hook command only)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks import paths


@pytest.fixture
def link(tmp_path: Path) -> tuple[Path, Path, Path]:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    at = tmp_path / "link"
    at.symlink_to(first)
    return at, first, second


def test_a_long_lived_process_sees_a_link_pointed_elsewhere(
    link: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(paths, "_KEPT", None)
    at, first, second = link
    assert paths.resolved(str(at)) == os.path.realpath(first)
    at.unlink()
    at.symlink_to(second)
    assert paths.resolved(str(at)) == os.path.realpath(second)
    assert paths.inside(str(at / "x.py"), os.path.realpath(second)) == "x.py"


def test_a_hook_process_resolves_each_path_once(
    link: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(paths, "_KEPT", None)
    asked: list[str] = []
    real = os.path.realpath

    def counted(path: str) -> str:
        asked.append(path)
        return real(path)

    monkeypatch.setattr(os.path, "realpath", counted)
    paths.keep_resolved()
    at, first, _ = link
    answers = {paths.resolved(str(at)) for _ in range(3)}
    assert answers == {real(first)}
    assert asked == [str(at)]
    # what is inside the root is still decided on the canonical form
    assert paths.inside(str(at / "a.py"), real(first)) == "a.py"


def test_only_the_hook_command_keeps_resolved_paths() -> None:
    """The CLI and the MCP server run for long: a link re-pointed must be seen; the hook
    command's process lives one call."""
    program = (
        "import memhooks.paths as p, memhooks.cli, memhooks.commands.hook as h\n"
        "print(p._KEPT is None)\n"
        "h.main = lambda argv: print(p._KEPT is not None) or 0\n"
        "h.process([])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program + "raise SystemExit(3)"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.split() == ["True", "True"]  # not kept before; kept in the call
    assert done.returncode == 0  # process() ended the process with main's status


def test_the_strict_canonical_form_still_refuses_a_missing_folder_on_the_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``protocol.root.canonical`` takes the kept form when every part of it exists; a
    path through a folder that does not exist is refused as the file system refuses it
    (``open("a/missing/../b")`` fails), even where the lexical ``..`` would reach a file."""
    from memhooks.errors import DiagnosticError
    from memhooks.protocol.root import canonical

    monkeypatch.setattr(paths, "_KEPT", None)
    paths.keep_resolved()
    (tmp_path / "b").mkdir()
    assert canonical(str(tmp_path / "b")) == os.path.realpath(tmp_path / "b")
    with pytest.raises(DiagnosticError, match="MH024|does not exist"):
        canonical(str(tmp_path / "missing" / ".." / "b"))
