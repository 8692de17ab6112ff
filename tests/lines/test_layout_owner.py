"""An owner whose subject names a layout change, and that changed the lines an edit
replaces only in their whitespace, is formatting there: the edit is told the commit
before it (precision lane: iproute2 897772a7 "cmd: use spaces instead of tabs for usage
indentation" was told as the reason of the usage strings it re-indented). One that also
changed the code of those lines stays their owner. ``data/layout_story.json``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import built_story

from memhooks.recall.line_recall import EDIT, line_recall

PATH = "misc/nstat.c"


@pytest.fixture(scope="module")
def nstat(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return built_story(tmp_path_factory, "layout_story.json")


def test_behind_a_re_indent_the_edit_is_told_the_decision(
    nstat: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = nstat
    told = line_recall(str(repo), PATH, [(2, 9)], kind=EDIT, focus=[(5, 6)],
                       state_dir=str(tmp_path / "state"))  # fmt: skip
    assert told.text.count(f'{hashes["spaces"][:12]} "cmd: use spaces') == 1
    assert f'before it {hashes["decision"][:12]} "nstat: print JSON with -j"' in told.text
    assert "the text layout changes between kernels" in told.text


def test_memhooks_why_walks_past_the_re_indent_too(nstat: tuple[Path, dict[str, str]]) -> None:
    repo, hashes = nstat
    done = subprocess.run([sys.executable, "-m", "memhooks", "why", f"{PATH}:5-6"], cwd=repo,
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert f"before it {hashes['decision'][:12]}" in done.stdout


def test_a_layout_subject_that_changed_the_code_stays_the_owner(
    nstat: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = nstat
    told = line_recall(str(repo), PATH, [(9, 15)], kind=EDIT, focus=[(12, 12)],
                       state_dir=str(tmp_path / "state"))  # fmt: skip
    head = next(line for line in told.text.splitlines() if line.startswith(f"{PATH} 12"))
    assert (
        head
        == f'{PATH} 12: {hashes["mixed"][:12]} "nstat: fix indentation and sample twice a minute" (2022-04-15)'
    )


def test_an_owner_judged_before_is_walked_past_without_git_or_the_low_signal_rule(
    nstat: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    # The usual edit meets a layout-subject owner judged by an earlier call (its verdict
    # is kept with the file version): loading git's runner (subprocess, and the site
    # module's late setup behind its `import msvcrt`) and the low-signal rule's patterns
    # (re, enum) for it doubled a telling edit's instructions (143 -> 75 M, callgrind,
    # iproute2 misc/ss.c).
    import json
    import os
    import shutil

    from import_set_support import STEADY, loaded

    from memhooks.install import command

    repo, hashes = nstat
    root = tmp_path / "repo"
    shutil.copytree(repo, root, symlinks=True)
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    hookfile_age = os.stat(root / "MEMHOOKS.md").st_mtime - 60  # old enough to be cached
    os.utime(root / "MEMHOOKS.md", (hookfile_age, hookfile_age))
    env = {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000", **STEADY}  # fmt: skip
    old = "".join((root / PATH).read_text(encoding="utf-8").splitlines(keepends=True)[4:6])
    edit = {"hook_event_name": "PreToolUse", "tool_name": "Edit", "cwd": str(root),
            "tool_input": {"file_path": str(root / PATH), "old_string": old,
                           "new_string": old.replace("-s", "-S")}}  # fmt: skip

    def call(session: str) -> tuple[list[str], str]:
        done = subprocess.run(command.argv("claude-code"), input=json.dumps({**edit, "session_id": session}),
                              text=True, capture_output=True, cwd=root, env=env, timeout=60,
                              check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return loaded(done.stderr, ("re", "enum", "subprocess", "site")), done.stdout

    first, told = call("judges")  # the owner judged now: git shows both versions
    assert {"subprocess", "memhooks.lines.blame"} <= set(first)
    again, told = call("later")
    assert f"before it {hashes['decision'][:12]}" in told
    assert not {"subprocess", "re", "enum", "site", "memhooks.lines.blame",
                "memhooks.history.signal"} & set(again)  # fmt: skip


def test_the_background_blame_judges_every_owner_ahead_of_the_edit(
    nstat: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    # issue 20 item 7: what each owner did to the file is judged before it is told; an
    # edit outside the lines a Read judged ran git cat-file and a diff for it inside the
    # hook (2.1 -> 2.9x a bare interpreter, bench_lines_hook edit_far). The Read's
    # background process judges the whole file's owners, the layout rule's too.
    from memhooks.lines import owners, said, surface, warm

    repo, hashes = nstat
    state = str(tmp_path / "state")
    assert warm.main([str(repo), PATH, state, "30"]) == 0
    own = owners(str(repo), PATH, state_dir=state)
    judged = {o.hash for o in own.owners if o.previous is not None and not o.boundary}
    assert hashes["spaces"] in judged
    assert judged <= set(own.notes[said.NOTES])
    assert set(own.notes[surface.NOTES]) == {hashes["spaces"], hashes["mixed"]}  # layout subjects
