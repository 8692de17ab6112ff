"""What a user sees when there is no history to import, or nowhere to put it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_without_git_on_path_the_error_says_so(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(repo / "no-such-bin"))
    code, out, err = run(capsys, "history", "import", str(repo), "--store", store_path)
    assert (code, out) == (1, "")
    assert err == (
        "error[MH032]: cannot read the git history: git could not be run "
        "(No such file or directory)\n"
        f"  --> {repo}\n"  # a folder: no line and column
        "  help: install git and put it on PATH\n"
    )
    assert not os.path.exists(store_path)


def test_an_unknown_revision_quotes_git(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    code, out, err = run(
        capsys, "history", "import", str(repo), "--store", store_path, "--rev", "no-such-branch"
    )
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        "error[MH032]: cannot read the git history: git log failed: ambiguous argument "
        "'no-such-branch': unknown revision or path not in the working tree."
    )
    # the repository and git are fine: the help says what to name (newcomer24)
    assert err.splitlines()[-1] == (
        "  help: name a branch, tag or commit this repository has (`git branch -a`, "
        "`git tag`, `git log --oneline` list them)"
    )


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--rev", "--all", "must be a revision or range"),
        ("--since", "last tuesday", "must be a date such as 2024-01-31"),
        ("--max", "0", "must be from 1 to"),
    ],
)
def test_bad_options_are_usage_errors(
    capsys: pytest.CaptureFixture[str], repo: Path, flag: str, value: str, said: str
) -> None:
    assert main(["history", "import", str(repo), f"{flag}={value}"]) == 2
    err = capsys.readouterr().err
    assert f"error[MH044]: argument {flag}: {said}" in err and f"\n  --> {flag}\n" in err


def test_a_backend_without_batch_writes_is_refused_clearly(
    capsys: pytest.CaptureFixture[str], repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOOKS_BACKEND", "mem0")
    code, out, err = run(capsys, "history", "import", str(repo))
    assert (code, out) == (1, "")
    assert err == (
        "error[MH039]: history import writes thousands of memories at once under ids taken from "
        "the commits, so that a re-run adds nothing twice; the mem0 backend takes no such "
        "batch write. Import into the embedded store with --backend embedded (and recall "
        "from it with MEMHOOKS_BACKEND=embedded)\n"
        "  --> memhooks history import\n"
        "  help: check the backend's server and settings: `memhooks backends check`\n"
    )
    code, _, err = run(capsys, "history", "import", str(repo), "--store", "x.sqlite3")
    assert code == 2 and "--store names an embedded store file" in err
