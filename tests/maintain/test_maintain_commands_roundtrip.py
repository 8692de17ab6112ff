"""What people wrote survives ``note``, ``event``, ``remove`` and ``prune``.

Each sample hook (comments, odd quoting, block scalars, tricky bodies ...) in a line-ending
/ BOM variant, with mode 0640, goes through a note, an event anchoring a new file, the
note's removal and — once the file is deleted — a prune. After every step the original
lines are still there in order (edits only insert), the BOM, line endings and mode bits
are kept; at the end the file is byte for byte the original.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from clikit import run_in_process
from maintain_support import HOOKS, VARIANTS, sample

CASES = [(name, "bom-crlf") for name in HOOKS] + [
    (name, variant) for name in ("commented.md", "quoting.md") for variant in ("lf", "cr")
]
NOTE = "Which decisions about this module were reverted, and why?"


def is_subsequence(needles: list[str], haystack: list[str]) -> bool:
    rest = iter(haystack)
    return all(line in rest for line in needles)


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_round_trip_through_the_commands(name: str, variant: str, tmp_path: Path) -> None:
    root = Path(os.path.realpath(tmp_path)) / "proj"
    (root / ".git").mkdir(parents=True)
    hook = root / "MEMHOOKS.md"
    original = sample(name, variant)
    hook.write_bytes(original.encode("utf-8"))
    hook.chmod(0o640)
    (root / "fresh.py").write_text("x\n", encoding="utf-8")
    payload = json.dumps({"hook_event_name": "post_edit", "cwd": str(root), "files": ["fresh.py"]})

    steps = [
        (["note", "--query", NOTE, "--priority", "0.6", "--tag", "history"], ""),
        (["event"], payload),
        (["remove", "--query", NOTE], ""),
        (["prune"], ""),
    ]
    for argv, stdin in steps:
        if argv[0] == "prune":
            (root / "fresh.py").unlink()
        code, _out, err = run_in_process(argv, root, {}, stdin.encode())
        assert code == 0, err
        text = hook.read_bytes().decode("utf-8")
        assert stat.S_IMODE(hook.stat().st_mode) == 0o640
        as_lf = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        assert VARIANTS[variant](as_lf) == text, "BOM and line endings are kept"
        if name != "auto_cues.md":  # that sample's stale generated cues are pruned on purpose
            lines = text.splitlines(keepends=True)
            assert is_subsequence(original.splitlines(keepends=True), lines), argv
    if name == "auto_cues.md":
        pruned = (Path(__file__).parent / "data" / "pruned_auto_cues.md").read_text("utf-8")
        assert text == VARIANTS[variant](pruned)
    else:
        assert text == original
    assert sorted(os.listdir(root)) == [".git", "MEMHOOKS.md"]


@pytest.mark.parametrize("variant", ["lf", "bom-crlf"])
def test_a_commented_empty_list_survives_note_then_remove(variant: str, tmp_path: Path) -> None:
    """``recall_queries: []  # none yet``: ``note`` must rewrite that one line (a block
    list cannot follow ``[]``), keeping the comment; ``remove`` gives the original bytes
    back (issue 13 item 11). The other samples only ever gain lines."""
    root = Path(os.path.realpath(tmp_path)) / "proj"
    (root / ".git").mkdir(parents=True)
    hook = root / "MEMHOOKS.md"
    original = VARIANTS[variant](
        (Path(__file__).parent / "data" / "empty_list_comment.md").read_text("utf-8")
    )
    hook.write_bytes(original.encode("utf-8"))
    code, _out, err = run_in_process(["note", "--query", NOTE], root, {}, b"")
    assert code == 0, err
    noted = hook.read_bytes().decode("utf-8")
    newline = "\r\n" if variant == "bom-crlf" else "\n"
    assert noted == original.replace(
        f"recall_queries: []  # none yet{newline}",
        f"recall_queries:     # none yet{newline}  - query: {NOTE}{newline}",
    )
    code, _out, err = run_in_process(["remove", "--query", NOTE], root, {}, b"")
    assert code == 0, err
    assert hook.read_bytes().decode("utf-8") == original
