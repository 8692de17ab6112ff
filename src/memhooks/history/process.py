"""Running ``git``: its output streamed as NUL-separated tokens, its failures as MH032.

Settings from the user's git configuration that would change what ``git log`` prints are
overridden on the command line; no pager, no credential prompt, English messages.
"""

from __future__ import annotations

import io
import os
import subprocess
import tempfile

from .. import git
from ..errors import fail

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import IO

#: Options that pin down what ``git log`` prints whatever the user configured.
_CONFIG = (
    "-c", "log.showSignature=false",
    "-c", "i18n.logOutputEncoding=UTF-8",
    "-c", "diff.relative=false",
    "-c", "log.showRoot=true",
)  # fmt: skip
_CHUNK = 1 << 16


def tokens(cwd: str, args: list[str], stdin: Iterable[str] | None = None) -> Iterator[bytes]:
    """Run ``git ARGS`` in ``cwd`` and yield its NUL-separated output as it streams.

    ``stdin`` lines are written first (git reads them all before it prints). Raises
    DiagnosticError MH032 when git is missing or exits non-zero (git's first error line
    in the message). Stopping early kills the process."""
    with tempfile.TemporaryFile() as errors:
        proc = _start(cwd, args, errors, stdin is not None)
        try:
            if stdin is not None:
                assert proc.stdin is not None
                _feed(proc.stdin, stdin)
            stdout = proc.stdout
            assert isinstance(stdout, io.BufferedReader)  # Popen's default buffering
            rest = b""
            while True:
                chunk = stdout.read1(_CHUNK)
                if not chunk:
                    break
                parts = (rest + chunk).split(b"\0")
                rest = parts.pop()
                for part in parts:
                    if part:
                        yield part
            if rest:
                yield rest
            code = proc.wait()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        if code != 0:
            errors.seek(0)
            raise _git_failed(cwd, args, errors.read().decode("utf-8", "replace"), code)


def _feed(pipe: IO[bytes], lines: Iterable[str]) -> None:
    try:
        buffer: list[str] = []
        for line in lines:
            buffer.append(line)
            if len(buffer) >= 4096:
                pipe.write(("\n".join(buffer) + "\n").encode("ascii", "replace"))
                buffer.clear()
        if buffer:
            pipe.write(("\n".join(buffer) + "\n").encode("ascii", "replace"))
    except BrokenPipeError:
        pass  # git stopped reading: its exit status says why
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


def _start(cwd: str, args: list[str], errors: IO[bytes], stdin: bool) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            ["git", *_CONFIG, *args],
            cwd=cwd,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
            env=_environment(),
        )
    except OSError as exc:
        raise _no_git(cwd, exc) from None


def run(
    cwd: str, args: list[str], *, stdin: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run ``git ARGS`` in ``cwd`` to the end, ``stdin`` as its input; text output.
    Raises DiagnosticError MH032 when git is missing or (with ``check``) fails."""
    try:
        done = subprocess.run(
            ["git", *_CONFIG, *args],
            cwd=cwd,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            env=_environment(),
            check=False,
        )
    except OSError as exc:
        raise _no_git(cwd, exc) from None
    if check and done.returncode != 0:
        raise _git_failed(cwd, args, done.stderr, done.returncode)
    return done


def output(cwd: str, args: list[str]) -> list[str]:
    """The lines ``git ARGS`` prints in ``cwd`` (MH032 when it fails)."""
    return run(cwd, args).stdout.splitlines()


def _environment() -> dict[str, str]:
    return git.environment()  # no pager, no credential prompt, git's messages in English


def _no_git(cwd: str, exc: OSError) -> Exception:
    if isinstance(exc, FileNotFoundError) and not os.path.isdir(cwd):
        return fail("MH032", f"cannot read the git history: no folder {cwd}", cwd)
    return fail(
        "MH032",
        f"cannot read the git history: git could not be run ({exc.strerror or exc})",
        cwd,
        help="install git and put it on PATH",
    )


def _git_failed(cwd: str, args: list[str], stderr: str, code: int) -> Exception:
    said = next((line.strip() for line in stderr.splitlines() if line.strip()), "")
    said = said.removeprefix("fatal: ").removeprefix("error: ")
    # a revision git does not know: the work tree and git are fine (newcomer24: the
    # catalogue's "run it in a git work tree …" sent people looking in the wrong place)
    unknown = "unknown revision" in said or "bad revision" in said
    return fail(
        "MH032",
        f"cannot read the git history: git {args[0]} failed: {said or f'exit status {code}'}",
        cwd,
        **({"help": _UNKNOWN_REVISION} if unknown else {}),
    )


_UNKNOWN_REVISION = (
    "name a branch, tag or commit this repository has (`git branch -a`, `git tag`, "
    "`git log --oneline` list them)"
)
