"""``validate`` reads hooks through the parsed-hook cache that ``explain`` and recall use
(issue 14: warm was as slow as cold), and what it reports is the same either way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memhooks.protocol import cache, hookfile
from memhooks.protocol.resolve import resolve
from memhooks.validation import collect

GOOD = "---\nschema: memhooks/v2\nrecall_queries:\n  - q\n  - q\nx_future: 1\n---\nbody\n"
BAD = "---\nschema: memhooks/v2\nrecall_queries:\n  - query: q\n    priority: 7\n---\n"


def _project(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "p"
    (root / "a" / "b").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for rel, text in (("MEMHOOKS.md", GOOD), ("a/MEMHOOKS.md", GOOD), ("a/b/MEMHOOKS.md", BAD)):
        (root / rel).write_text(text, encoding="utf-8")
        past = time.time() - 60  # outside the cache's racy window
        os.utime(root / rel, (past, past))
    return root


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Paths of every hook parsed from bytes in this process."""
    seen: list[str] = []
    real = hookfile.parse_bytes

    def counting(data: bytes, path: str) -> hookfile.ParsedHook:
        seen.append(path)
        return real(data, path)

    monkeypatch.setattr(hookfile, "parse_bytes", counting)
    cache.clear_memory()
    yield seen
    cache.clear_memory()


def test_a_second_validate_parses_nothing_and_reports_the_same(tmp_path, parses) -> None:
    root = _project(tmp_path)
    cold = [d.to_json() for d in collect(str(root), all_hooks=True)[0]]
    assert len(parses) == 3
    cache.clear_memory()  # the next validate is a fresh process: only the disk layer
    warm = [d.to_json() for d in collect(str(root), all_hooks=True)[0]]
    assert len(parses) == 3
    assert warm == cold
    codes = [d["code"] for d in warm]
    assert codes.count("MH010") == 2 and codes.count("MH002") == 2 and "MH004" in codes


def test_validate_and_explain_share_one_cache(tmp_path, parses) -> None:
    root = _project(tmp_path)
    collect(str(root), all_hooks=True)
    cache.clear_memory()
    assert resolve(str(root / "a")).sources == [str(root / "MEMHOOKS.md"), str(root / "a" / "MEMHOOKS.md")]
    assert len(parses) == 3


def test_a_changed_hook_is_parsed_again(tmp_path, parses) -> None:
    root = _project(tmp_path)
    collect(str(root), all_hooks=True)
    hook = root / "a" / "b" / "MEMHOOKS.md"
    hook.write_text(BAD.replace("7", "0.7"), encoding="utf-8")
    past = time.time() - 30
    os.utime(hook, (past, past))
    cache.clear_memory()
    diagnostics = collect(str(root), all_hooks=True)[0]
    assert parses[3:] == [str(hook)]
    assert "MH004" not in [d.code for d in diagnostics]


def test_cached_diagnostics_print_byte_identical(tmp_path) -> None:
    root = _project(tmp_path)
    argv = [sys.executable, "-m", "memhooks", "validate", "--all", str(root), "--format"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for fmt in ("human", "json", "sarif"):
        runs = [subprocess.run([*argv, fmt], capture_output=True, text=True, env=env, check=False) for _ in "12"]
        assert runs[0].returncode == runs[1].returncode == 1
        assert runs[0].stdout == runs[1].stdout and runs[0].stderr == runs[1].stderr
    blob = json.loads(Path(cache.for_root(str(root)).file or "").read_text(encoding="utf-8"))
    assert len(blob["entries"]) == 3  # the invalid hook is cached too


def test_an_edit_that_keeps_size_and_mtime_is_read_again(tmp_path, parses) -> None:
    # `cp -p`, a checkout or an editor restoring the mtime: size and mtime alone would
    # serve the old parse (its inode change time says the file was written).
    root = _project(tmp_path)
    hook = root / "a" / "MEMHOOKS.md"
    before = resolve(str(root / "a"))
    st = os.stat(hook)
    edited = GOOD.replace("  - q\n  - q\n", "  - r\n  - r\n")
    assert len(edited) == len(GOOD)
    time.sleep(0.01)  # a later ctime on coarse clocks too
    hook.write_text(edited, encoding="utf-8")
    os.utime(hook, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(hook).st_size == st.st_size and os.stat(hook).st_mtime_ns == st.st_mtime_ns
    cache.clear_memory()
    after = resolve(str(root / "a"))
    queries = [q["query"] for q in after.data["effective_queries"]]
    assert "r" in queries and queries != [q["query"] for q in before.data["effective_queries"]]
