"""Run golden maintenance CLI cases (``data/cli.yaml``): a tree, argv, stdin, and the exact
stdout, stderr, exit status and files afterwards.

A case::

    name: note-enriches                # unique
    rule: what it proves               # one line
    git: true                          # a `.git` directory at the root (default true)
    tree:                              # path -> text | {symlink: T} | {dir: true} | {text: .., mode: 0o640}
      MEMHOOKS.md: "---\\nschema: memhooks/v2\\n---\\n"
    argv: [note, --query, "Why?"]      # after `memhooks`
    cwd: sub                           # relative to the root (default ".")
    stdin: '{"hook_event_name": ...}'  # text on standard input (default empty)
    env: {MEMHOOKS_AUTO_PATHS: "2"}
    subprocess: true                   # run `python -m memhooks` (default: in process)
    expect:
      exit: 0
      stdout: "..."                    # exact; missing means empty; or stdout_json / stderr_json
      stderr: "..."                    # exact; or stderr_contains (argparse wording)
      files: {MEMHOOKS.md: "..."}      # exact text of files afterwards
      unchanged: [MEMHOOKS.md]         # byte-identical to the tree's version
      absent: [sub/MEMHOOKS.md]        # must not exist
      only: [MEMHOOKS.md, sub]         # the complete listing of the tree afterwards (no debris)

``{root}`` in texts and env values is the canonical tree root; ``{name}`` its base name.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

import memhooks

DATA = Path(__file__).parent / "data"
CASE_KEYS = {"name", "rule", "git", "tree", "argv", "cwd", "stdin", "env", "subprocess", "expect"}
EXPECT_KEYS = {
    "exit", "stdout", "stderr", "stdout_json", "stderr_json", "stderr_contains",
    "files", "unchanged", "absent", "only",
}  # fmt: skip


def load_cases(name: str = "cli.yaml") -> list[dict[str, Any]]:
    cases = YAML(typ="safe", pure=True).load((DATA / name).read_text(encoding="utf-8"))["cases"]
    for case in cases:
        assert not set(case) - CASE_KEYS, f"{case['name']}: unknown keys {set(case) - CASE_KEYS}"
        assert not set(case["expect"]) - EXPECT_KEYS, f"{case['name']}: bad expect keys"
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    return cases


def build(root: Path, case: dict[str, Any]) -> dict[str, bytes]:
    """Create the case's tree under ``root``; returns the bytes of every file written."""
    if case.get("git", True):
        (root / ".git").mkdir()
    written = {}
    modes = []
    for rel, entry in (case.get("tree") or {}).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(entry, str):
            entry = {"text": entry}
        if "symlink" in entry:
            os.symlink(entry["symlink"], path)
        elif entry.get("dir"):
            path.mkdir(exist_ok=True)
        else:
            data = substitute(entry.get("text", ""), root).encode("utf-8")
            path.write_bytes(data)
            written[rel] = data
        if "mode" in entry:
            modes.append((path, entry["mode"]))
    for path, mode in modes:
        os.chmod(path, mode)
    return written


def substitute(value: Any, root: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{root}", str(root)).replace("{name}", root.name)
    if isinstance(value, list):
        return [substitute(v, root) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, root) for k, v in value.items()}
    return value


def run(root: Path, case: dict[str, Any]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of the case's command."""
    argv = [str(a) for a in substitute(case["argv"], root)]
    cwd = root / case.get("cwd", ".")
    env = {k: str(v) for k, v in substitute(case.get("env") or {}, root).items()}
    stdin = substitute(case.get("stdin", ""), root).encode("utf-8")
    if case.get("subprocess"):
        return run_subprocess(argv, cwd, env, stdin)
    return run_in_process(argv, cwd, env, stdin)


def run_subprocess(
    argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes = b""
) -> tuple[int, str, str]:
    full = dict(os.environ)
    full.update(env)
    src = str(Path(memhooks.__file__).resolve().parent.parent)
    full["PYTHONPATH"] = os.pathsep.join(filter(None, [src, full.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "memhooks", *argv],
        cwd=cwd,
        env=full,
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def run_in_process(
    argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes = b""
) -> tuple[int, str, str]:
    from memhooks import cli

    saved_env, saved_cwd, saved_stdin = dict(os.environ), os.getcwd(), sys.stdin
    out, err = io.StringIO(), io.StringIO()
    try:
        os.environ.update(env)
        os.chdir(cwd)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # argparse usage errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return code, out.getvalue(), err.getvalue()


def check(
    root: Path, case: dict[str, Any], before: dict[str, bytes], result: tuple[int, str, str]
) -> None:
    code, stdout, stderr = result
    expect = substitute(case["expect"], root)
    assert code == expect.get("exit", 0), (stdout, stderr)
    for stream, actual in (("stdout", stdout), ("stderr", stderr)):
        if f"{stream}_json" in expect:
            assert json.loads(actual) == expect[f"{stream}_json"]
        elif f"{stream}_contains" in expect:
            assert expect[f"{stream}_contains"] in actual
        else:
            assert actual == expect.get(stream, "")
    for rel, text in (expect.get("files") or {}).items():
        actual = (root / rel).read_bytes().decode("utf-8")
        assert actual == text, rel
    for rel in expect.get("unchanged") or ():
        assert (root / rel).read_bytes() == before[rel], rel
    for rel in expect.get("absent") or ():
        assert not os.path.lexists(root / rel), rel
    if "only" in expect:
        listing = sorted(
            os.path.relpath(os.path.join(d, n), root)
            for d, dirs, files in os.walk(root)
            for n in dirs + files
            if ".git" not in os.path.relpath(os.path.join(d, n), root).split(os.sep)
        )
        assert listing == sorted(expect["only"])
