"""A broken ``MEMHOOKS.md`` in the chain of a file an edit tells about (polish23 item 1,
newcomer10: the hook answered with stderr empty): the rest of the chain's ``exclude``
phrases still apply, as ``memhooks why`` and the prompt skip only the broken hook, and
stderr names the broken hook, coded and located — once a session, as the other notes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_hook_exclusions import write_hook
from test_hook_lines import DECISION, PAYLOADS, context

BROKEN = b"---\nschema: memhooks/v2\nrecall_queries: [unclosed\n---\n"


def _hook(project: dict[str, object], session: str) -> tuple[str, str]:
    raw = json.dumps(PAYLOADS["claude-pre-edit"]).replace("{root}", str(project["root"]))
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=raw.replace("{session}", session), capture_output=True, text=True, check=False,
        env=project["env"], cwd=project["root"],  # type: ignore[arg-type]
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return context(done.stdout), done.stderr


def test_the_rest_of_the_chain_still_excludes_and_stderr_names_the_broken_hook_once(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    root = Path(str(project["root"]))
    write_hook(root, ["measured attempt budget"])
    (root / "retryx" / "MEMHOOKS.md").write_bytes(BROKEN)
    told, stderr = _hook(project, "a")
    assert told and hashes["decision"][:12] not in told  # the root's phrase still applies
    assert stderr.startswith("memhooks hook: ") and stderr.count("\n") == 1  # one line
    assert "MH000 skipped an invalid hook: invalid YAML frontmatter: " in stderr
    assert f"({root / 'retryx' / 'MEMHOOKS.md'}:3:17)" in stderr
    assert "; fix the YAML at this position" in stderr
    assert "MH000" not in _hook(project, "a")[1]  # once a session: a host may show each line
    assert "MH000 skipped an invalid hook" in _hook(project, "b")[1]  # and in each session
    (root / "retryx" / "MEMHOOKS.md").unlink()
    write_hook(root, [])
    told, stderr = _hook(project, "c")
    assert f'before it {hashes["decision"][:12]} "{DECISION}"' in told and "MH000" not in stderr
