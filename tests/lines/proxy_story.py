"""``pkg/proxy.py``: six functions added one commit each, largest first (rule_0 lines
1-8, rule_1 9-15, rule_2 16-21, rule_3 22-26, rule_4 27-30, rule_5 31-33) — the story
the tests of parallel Reads and of the edit's reserve of the session budget share."""

from __future__ import annotations

import os
from pathlib import Path

from storyrepo import build

PATH = "pkg/proxy.py"
SUBJECTS = [
    "Honour no_proxy for CIDR ranges",
    "Strip credentials before matching proxy bypass hosts",
    "Resolve the proxy from the scheme of the URL",
    "Keep the port when comparing bypass entries",
    "Accept an empty no_proxy entry",
    "Read proxies from the environment once per session",
]


def function(n: int, size: int) -> str:
    body = "".join(f"    value_{n}_{i} = compute_{n}(value_{n}_{i - 1})\n" for i in range(1, size))
    return f"def rule_{n}(value_{n}_0):\n{body}"


def proxy_project(tmp_path: Path, **env: str) -> dict[str, object]:
    """The story built in ``tmp_path/repo`` with a hook at its root: ``root``, ``env``
    (a sandbox HOME and state folder, a 30 s hook deadline, and ``env``), ``hashes``
    (by label: ``readme``, ``c0``…``c5``) and ``state``."""
    repo = (tmp_path / "repo").resolve()
    commits = [{"label": "readme", "author_time": 1600000000, "message": "Add a README\n",
                "files": {"README.md": "proxies\n"}}]  # fmt: skip
    text = ""
    for n, subject in enumerate(SUBJECTS):
        text += function(n, 8 - n)
        commits.append({"label": f"c{n}", "author_time": 1600000000 + 1000 * (n + 1),
                        "message": subject + "\n", "files": {PATH: text}})  # fmt: skip
    hashes = build(repo, commits)
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    full = {**os.environ, "HOME": str(tmp_path / "home"),
            "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
            "MEMHOOKS_HOOK_TIMEOUT_MS": "30000", **env}  # fmt: skip
    return {"root": repo, "env": full, "hashes": hashes, "state": tmp_path / "state"}
