"""A commit is named once per answer (precision lane, last newcomer: requests'
``cookies.py`` Read 1–40 named the formatting commit and the cookie-jar move in both
lines of one answer — behind the typing pass, then the formatting commit's own line with
the cookie-jar move behind it again). ``data/named_once_story.json`` scales it down."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import built_story

PATH = "cookies.py"


@pytest.fixture(scope="module")
def cookies(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return built_story(tmp_path_factory, "named_once_story.json")


def test_memhooks_why_names_each_commit_once(cookies: tuple[Path, dict[str, str]]) -> None:
    repo, hashes = cookies
    done = subprocess.run([sys.executable, "-m", "memhooks", "why", PATH], cwd=repo,
                          capture_output=True, text=True, check=True)  # fmt: skip
    heads = [line for line in done.stdout.splitlines() if line.startswith(PATH)]
    for label in ("jar", "format", "timegm", "types"):
        assert "\n".join(heads).count(f'{hashes[label][:12]} "') == 1, label
    assert hashes["format"][:12] not in heads[0]
    # the formatting commit keeps its own line for the fix only it brings — named there,
    # not behind the typing pass, where nothing that says more stands behind it; the
    # cookie-jar move, before it too, by its id alone (named above: newcomer24)
    assert heads[1] == (
        f'{PATH} 3, 5: {hashes["format"][:12]} "Apply black formatting (#6095)" (2022-04-29);'
        f' before it {hashes["jar"][:12]} (named above),'
        f' {hashes["timegm"][:12]} "Use calendar.timegm when calculating cookie expiration" '
        "(2014-01-12)"
    )
