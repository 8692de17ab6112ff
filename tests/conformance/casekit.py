"""Build and run golden conformance cases (``tests/conformance/cases/*.yaml``).

A case file holds ``cases:``, a list of mappings::

    name: crlf-fences              # unique within the file
    rule: what the case proves     # one line, for the reader
    git: [".", "sub"]              # directories to ``git init`` (optional)
    git_add: ["a/MEMHOOKS.md"]     # paths to ``git add`` from the tree root (optional)
    tree:                          # path (relative, ``/``-separated) -> entry
      MEMHOOKS.md: "---\\nschema: memhooks/v2\\n---\\n"   # a string: the file's UTF-8 text
      a/MEMHOOKS.md: {latin1: "...\\xe9..."}           # exact bytes (each char one byte)
      b/MEMHOOKS.md: {symlink: ../MEMHOOKS.md}         # a symlink (target verbatim)
      c/MEMHOOKS.md: {fifo: true}                       # a named pipe
      d: {dir: true}                                    # an empty directory
      e/MEMHOOKS.md: {size: 300000, text: "---\\n"}     # sparse file of that size
      f: {deep: 20}                                     # 20 nested 250-char directories;
                                                        # {deep} = the first one past PATH_MAX
      g/MEMHOOKS.md: {text: "...", mode: 0}             # chmod after the tree is built
    argv: [memhooks, validate, --all]
    stdin: '{"hook_event_name": "post_tool_call"}'   # text on stdin (default: none)
    cwd: a                         # relative to the tree root (default ".")
    env: {MEMHOOKS_ROOT: "{root}/a"}
    subprocess: true               # run ``python -m memhooks`` instead of cli.main
    needs_non_root: true           # skip when running as root (permission cases)
    fixed_root: true               # build at /tmp/mhconf-XXXXXXXX (budget cases: output
                                   # size depends on the length of the root path)
    expect:
      exit: 1
      stdout: |                    # exact text; or stdout_json: <value>
        ...
      stderr: ""                   # exact text; or stderr_json: <value>
      stderr_contains: "..."       # only for argparse usage errors, whose wording
                                   # belongs to Python and to other subcommands
      files: {a/MEMHOOKS.md: "..."}  # exact UTF-8 text of files after the run
      absent: [b/MEMHOOKS.md]      # paths that must not exist after the run

``{root}`` in expectations and env values is the canonical path of the tree root;
``{deep}`` is the first directory of a ``deep`` entry whose absolute path is too long
for the OS (its depth depends on how long the temporary directory's path is).
A missing ``stdout``/``stderr`` expectation means "must be empty". JSON expectations are
compared by value and by key order.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

CASES_DIR = Path(__file__).parent / "cases"
SRC = Path(__file__).resolve().parents[2] / "src"
CASE_KEYS = {
    "name",
    "rule",
    "git",
    "git_add",
    "tree",
    "argv",
    "stdin",
    "cwd",
    "env",
    "subprocess",
    "needs_non_root",
    "fixed_root",
    "expect",
}
EXPECT_KEYS = {
    "exit",
    "stdout",
    "stdout_json",
    "stdout_contains",
    "stderr",
    "stderr_json",
    "stderr_contains",
    "files",
    "absent",
}
#: ``fixed_root`` cases live at ``/tmp/mhconf-XXXXXXXX``: a root path of known length, for
#: outputs whose content depends on how many characters the paths take (budgets).
FIXED_ROOT_LENGTH = len("/tmp/mhconf-") + 8
ENTRY_KEYS = {"text", "latin1", "symlink", "fifo", "dir", "size", "deep", "mode"}


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    """(id, case) for every case, ids ``<file stem>/<name>``, in file order."""
    yaml = YAML(typ="safe", pure=True)
    out = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        doc = yaml.load(path.read_text(encoding="utf-8"))
        for case in doc["cases"]:
            unknown = set(case) - CASE_KEYS
            assert not unknown, f"{path.name}: {case.get('name')}: unknown keys {unknown}"
            assert not set(case["expect"]) - EXPECT_KEYS, (
                f"{path.name}: {case['name']}: bad expect keys"
            )
            out.append((f"{path.stem}/{case['name']}", case))
    ids = [i for i, _ in out]
    assert len(ids) == len(set(ids)), "case names must be unique within a file"
    return out


def build_tree(root: Path, case: dict[str, Any]) -> dict[str, str]:
    """Create the case's tree (and git repositories) under ``root``; returns the extra
    placeholders (``{deep}``) the tree defines."""
    chmods = []
    placeholders = {}
    for rel, entry in (case.get("tree") or {}).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(entry, str):
            entry = {"text": entry}
        assert not set(entry) - ENTRY_KEYS, f"{rel}: unknown entry keys {set(entry) - ENTRY_KEYS}"
        if "symlink" in entry:
            os.symlink(entry["symlink"], path)
        elif entry.get("fifo"):
            os.mkfifo(path)
        elif entry.get("dir"):
            path.mkdir(exist_ok=True)
        elif "deep" in entry:
            placeholders["{deep}"] = _deep(path, entry["deep"])
        elif "latin1" in entry:
            path.write_bytes(entry["latin1"].encode("latin-1"))
        else:
            path.write_bytes(entry.get("text", "").encode("utf-8"))
            if "size" in entry:
                os.truncate(path, entry["size"])
        if "mode" in entry:
            chmods.append((path, entry["mode"]))
    for directory in case.get("git") or ():
        (root / directory).mkdir(parents=True, exist_ok=True)
        _git(root / directory, "init", "-q")
    if case.get("git_add"):
        _git(root, "add", "--", *case["git_add"])
    for path, mode in chmods:
        os.chmod(path, mode)
    return placeholders


def _deep(path: Path, levels: int) -> str:
    """Nested directories whose full path exceeds PATH_MAX (made with dir fds); returns
    the canonical path of the first one the OS cannot name."""
    path.mkdir()
    too_long = os.path.realpath(path)
    while len(os.fsencode(too_long)) < 4096:
        too_long = os.path.join(too_long, "d" * 250)
    fd = os.open(path, os.O_RDONLY)
    try:
        for _ in range(levels):
            os.mkdir("d" * 250, dir_fd=fd)
            nxt = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nxt
    finally:
        os.close(fd)
    return too_long


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def substitute(value: Any, placeholders: dict[str, str]) -> Any:
    """Replace each placeholder (``{root}``, ``{deep}``) in every string of ``value``."""
    if isinstance(value, str):
        for name, text in placeholders.items():
            value = value.replace(name, text)
        return value
    if isinstance(value, list):
        return [substitute(v, placeholders) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, placeholders) for k, v in value.items()}
    return value


def run_in_process(
    argv: list[str], cwd: Path, env: dict[str, str], stdin: str = ""
) -> tuple[int, str, str]:
    """Run ``memhooks.cli.main`` with redirected streams; (exit, stdout, stderr)."""
    from contextlib import redirect_stderr, redirect_stdout

    from memhooks import cli
    from memhooks.protocol import cache

    cache.clear_memory()
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    try:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
        os.environ.update(env)
        os.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # argparse usage errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        cache.clear_memory()
    return code, out.getvalue(), err.getvalue()


def run_subprocess(
    argv: list[str], cwd: Path, env: dict[str, str], stdin: str = ""
) -> tuple[int, str, str]:
    """Run ``python -m memhooks`` as a real process; (exit, stdout, stderr)."""
    full_env = {**os.environ, **env}
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), full_env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "memhooks", *argv],
        cwd=cwd,
        env=full_env,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def ordered(value: Any) -> str:
    """A JSON dump that keeps key order, for comparing order as well as content."""
    return json.dumps(value, ensure_ascii=False)
