"""Bad inputs under the maintenance commands: nothing is damaged, the error has a code.

Failed writes (injected: a full disk, a refused temporary file), a read-only directory,
unsafe hook and lock paths, special files, oversized hooks, and dry runs that must not
wait for (or take) the lock.
"""

from __future__ import annotations

import errno
import json
import os
import time
from pathlib import Path

import pytest
from clikit import run_in_process
from maintain_support import worker

from memhooks.maintain import atomic

ROOT_HOOK = (
    "---\nschema: memhooks/v2\ninherits: true\n# keep me\nrecall_queries: [A, B]\n---\nBody.\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = Path(os.path.realpath(tmp_path)) / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    (root / "app.py").write_text("x\n", encoding="utf-8")
    return root


def event(root: Path, *names: str) -> bytes:
    return json.dumps(
        {"hook_event_name": "post_edit", "cwd": str(root), "files": list(names)}
    ).encode()


def failing(code: int):  # type: ignore[no-untyped-def]
    def fail(*_args: object, **_kw: object) -> None:
        raise OSError(code, os.strerror(code))

    return fail


COMMANDS = [
    (["note", "--query", "C"], b""),
    (["remove", "--query", "A"], b""),
    (["event", "--anchor", "nearest"], None),  # the root gets a cue only when nearest
]


@pytest.mark.parametrize(("argv", "stdin"), COMMANDS, ids=[c[0][0] for c in COMMANDS])
@pytest.mark.parametrize(
    ("function", "code", "message", "advice"),
    [
        (
            "write",
            errno.ENOSPC,
            "could not write the hook: No space left on device",
            "free some disk space and run the command again",
        ),
        (
            "replace",
            errno.EIO,
            "could not write the hook: Input/output error",
            "check the file system and run the command again",
        ),
    ],
)
def test_injected_write_errors_leave_the_hook_intact(
    root: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: bytes | None,
    function: str, code: int, message: str, advice: str,
) -> None:  # fmt: skip
    monkeypatch.setattr(atomic.os, function, failing(code))
    status, out, err = run_in_process(
        argv, root, {}, event(root, "app.py") if stdin is None else stdin
    )
    monkeypatch.undo()
    assert (status, out) == (1, "")
    assert err == f"error[MH031]: {message}\n  --> {root}/MEMHOOKS.md:1:1\n  help: {advice}\n"
    assert (root / "MEMHOOKS.md").read_text("utf-8") == ROOT_HOOK
    assert sorted(os.listdir(root)) == [".git", "MEMHOOKS.md", "app.py"]


def test_refused_temporary_file_as_json(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = os.open

    def refuse_temps(path: str, *args: object, **kw: object) -> int:
        if os.path.basename(path).endswith(".tmp"):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(path, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic.os, "open", refuse_temps)
    status, _out, err = run_in_process(["note", "--query", "C", "--format", "json"], root, {})
    monkeypatch.undo()
    assert status == 1
    assert json.loads(err) == [
        {
            "code": "MH031",
            "severity": "error",
            "message": "could not create a temporary file next to the hook: Permission denied",
            "path": f"{root}/MEMHOOKS.md",
            "help": "check that you may write to the hook's directory",
        }
    ]
    assert (root / "MEMHOOKS.md").read_text("utf-8") == ROOT_HOOK


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores permissions")
def test_read_only_directory(root: Path) -> None:
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("", encoding="utf-8")
    os.chmod(root / "src", 0o555)
    try:
        status, _out, err = run_in_process(["event"], root, {}, event(root, "src/a.py"))
    finally:
        os.chmod(root / "src", 0o755)
    assert status == 1
    assert err.startswith("error[MH031]: could not create a temporary file next to the hook")
    assert not (root / "src" / "MEMHOOKS.md").exists()


def test_symlinked_local_hook_is_refused_and_its_target_untouched(root: Path) -> None:
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("", encoding="utf-8")
    target = root / "elsewhere.md"
    target.write_text(ROOT_HOOK, encoding="utf-8")
    (root / "src" / "MEMHOOKS.md").symlink_to(target)
    status, _out, err = run_in_process(["event"], root, {}, event(root, "src/a.py"))
    assert status == 1
    assert err.startswith("error[MH029]: hook and lock paths must be regular files")
    assert target.read_text("utf-8") == ROOT_HOOK


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_fifo_hook_is_refused_without_hanging(root: Path) -> None:
    (root / "pkg").mkdir()
    os.mkfifo(root / "pkg" / "MEMHOOKS.md")
    status, _out, err = run_in_process(["note", "--query", "Q", "--cwd", "pkg"], root, {})
    assert status == 1
    assert err.startswith(
        f"error[MH029]: hook and lock paths must be regular files, not symlinks or special files\n  --> {root}/pkg/MEMHOOKS.md"
    )


def test_symlinked_legacy_lock_file_is_refused(root: Path) -> None:
    (root / ".MEMHOOKS.md.lock").symlink_to(root / "app.py")
    status, _out, err = run_in_process(["note", "--query", "C"], root, {})
    assert status == 1
    assert err.startswith(
        f"error[MH029]: hook and lock paths must be regular files, not symlinks or special files\n  --> {root}/.MEMHOOKS.md.lock"
    )
    assert (root / "MEMHOOKS.md").read_text("utf-8") == ROOT_HOOK


def test_oversized_hook_is_not_parsed_or_written(root: Path) -> None:
    big = "---\nschema: memhooks/v2\n---\n" + "x" * (256 * 1024)
    (root / "MEMHOOKS.md").write_text(big, encoding="utf-8")
    status, _out, err = run_in_process(["event"], root, {}, event(root, "app.py"))
    assert status == 1
    assert "error[MH036]: hook is 262172 bytes; the limit is 262144 bytes" in err
    assert (root / "MEMHOOKS.md").read_text("utf-8") == big


@pytest.mark.skipif(os.name != "posix", reason="flock")
def test_dry_runs_neither_take_nor_wait_for_the_lock(root: Path, tmp_path: Path) -> None:
    (root / "MEMHOOKS.md").write_text(
        ROOT_HOOK.replace(
            "recall_queries: [A, B]",
            "recall_queries:\n  - query: a\n    resources: [{name: gone.py, kind: file}]\n    tags: [memhooks:auto]",
        ),
        encoding="utf-8",
    )
    before = (root / "MEMHOOKS.md").read_bytes()
    holder = worker("hold", str(root / "MEMHOOKS.md"))
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        started = time.monotonic()
        assert run_in_process(["prune", "--dry-run", "--format", "json"], root, {})[1] == (
            '{"hooks_changed":1,"resources_removed":1,"queries_removed":1,"dry_run":true}\n'
        )
        assert run_in_process(["remove", "--query", "a", "--dry-run", "--format", "json"], root, {})[1] == (
            '{"changed":true,"dry_run":true}\n'
        )
        assert time.monotonic() - started < 5
    finally:
        holder.kill()
        holder.communicate()
    assert (root / "MEMHOOKS.md").read_bytes() == before
    assert sorted(os.listdir(root)) == [".git", "MEMHOOKS.md", "app.py"]
