"""``memhooks why`` answers what it can and says what it could not use: a hook file of
the chain that does not parse is skipped and named (as the hook skips it), and without
a HOME the answer comes from git alone — in the text, the JSON and the MCP tool."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from test_why import why

from memhooks.mcp import tools

BROKEN = '---\nschema: memhooks/v2\nrecall:\n  queries: ["unclosed\n---\n'
SKIPPED = (
    "skipped retryx/MEMHOOKS.md:4:13: MH000 invalid YAML frontmatter: found unexpected end "
    "of stream (a quoted scalar that starts here is not closed) — its exclusions are not "
    "applied; run `memhooks validate retryx/MEMHOOKS.md`"
)


def test_a_broken_hook_file_on_the_path_is_skipped_and_named(
    repo: Path, hashes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer trial: an unclosed quote in a MEMHOOKS.md made `why` fail outright
    (repo / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nexclude: [exponential backoff]\n---\n", encoding="utf-8"
    )
    (repo / "retryx" / "MEMHOOKS.md").write_text(BROKEN, encoding="utf-8")
    done = why(repo, "retryx/retry.py:8-11")
    assert done.returncode == 0, done.stderr
    assert hashes["regression"][:12] in done.stdout
    assert done.stdout.splitlines()[-2:] == [
        SKIPPED,
        f"left out: {hashes['add'][:12]} (exponential backoff)",
    ]
    answer = json.loads(why(repo, "retryx/retry.py:8-11", "--format", "json").stdout)
    assert answer["notes"][0] == SKIPPED  # the root's exclusion still applies
    assert answer["excluded"] == [{"commit": hashes["add"], "reason": "exponential backoff"}]
    monkeypatch.chdir(repo)
    assert tools.why("retryx/retry.py", 8, 11)["notes"][0] == SKIPPED


def test_without_home_the_answer_comes_from_git_alone_and_says_so(
    repo: Path, hashes: dict[str, str]
) -> None:
    # newcomer trial: `why` with HOME unset failed; it needs no store to answer
    env = {k: v for k, v in os.environ.items() if k != "HOME" and not k.startswith("XDG_")}
    done = why(repo, "retryx/retry.py:9-10", env=env)
    assert done.returncode == 0, done.stderr
    assert f'before it {hashes["decision"][:12]} "fix: cap Retrier' in done.stdout
    assert done.stdout.splitlines()[-1] == (
        "HOME is not set: no blame cache and no memory store, so this answer is from git "
        "alone (no revert marks of imported history applied)"
    )
    answer = json.loads(why(repo, "retryx/retry.py:9-10", "--format", "json", env=env).stdout)
    assert answer["notes"] == [done.stdout.splitlines()[-1]]
    assert answer["owners"][0]["commit"] == hashes["regression"]
