"""Every agent payload sample through ``memhooks event``: the right generated cues, or none.

The samples are the copies in ``tests/agents/data/payloads``; what each must produce is
``data/payload_anchors.json``. The samples' project paths are rewritten onto a temporary
project (a ``.git`` directory and a root hook) that holds every file the sample names,
read or written, so a read or a ``pre_tool`` event really had a file it could anchor.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from clikit import run_in_process, run_subprocess

from memhooks.maintain.cues import auto_cue_text, file_name, is_auto

AGENT_DATA = Path(__file__).parents[1] / "agents" / "data"
SPEC = json.loads((Path(__file__).parent / "data" / "payload_anchors.json").read_text("utf-8"))
NAMED = json.loads((AGENT_DATA / "expected.json").read_text("utf-8"))
ROOT_HOOK = "---\nschema: memhooks/v2\ninherits: true\n---\n"
ANCHORED = sorted(k for k, v in SPEC["anchors"].items() if v)


def project(tmp_path: Path, sample: str) -> tuple[Path, bytes]:
    """A temporary project for ``sample``: (root, the payload rewritten onto it)."""
    root = Path(os.path.realpath(tmp_path)) / "acme"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    for _action, path, *old in NAMED[sample]["files"]:
        for name in [path, *old]:
            rel = relative(name)
            if rel is not None:
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text("x\n", encoding="utf-8")
    raw = (AGENT_DATA / "payloads" / sample).read_text("utf-8")
    for prefix in SPEC["projects"]:  # longest first in the data file
        raw = raw.replace(prefix, str(root))
    return root, raw.encode("utf-8")


def relative(path: str) -> str | None:
    for prefix in SPEC["projects"]:
        if path.startswith(prefix + "/"):
            return path[len(prefix) + 1 :]
    return None


def hooks(root: Path) -> dict[str, str]:
    """Root-relative path -> text of every hook in the project."""
    return {
        os.path.relpath(os.path.join(d, "MEMHOOKS.md"), root): Path(d, "MEMHOOKS.md").read_text(
            "utf-8"
        )
        for d, _dirs, files in os.walk(root)
        if "MEMHOOKS.md" in files
    }


def cues(text: str) -> dict[str, list[str]]:
    """Generated cues of a hook: scope directory -> file resource names."""
    from memhooks.maintain.roundtrip import load_hook

    _doc, tree = load_hook(text, "h")
    out = {}
    for query in tree.get("recall_queries") or []:
        if is_auto(query):
            scope = query["query"].rsplit("[scope: ", 1)[1].rstrip("]")
            assert query["query"] == auto_cue_text(scope)
            out[scope] = [n for n in map(file_name, query["resources"]) if n]
    return out


def test_every_sample_has_an_expectation() -> None:
    samples = {
        str(p.relative_to(AGENT_DATA / "payloads"))
        for p in (AGENT_DATA / "payloads").rglob("*.json")
    }
    assert sorted(SPEC["anchors"]) == sorted(samples & set(NAMED))
    assert len(ANCHORED) >= 28


def directory_anchors(sample: str) -> dict[str, list[str]]:
    """The cues ``sample`` makes with the ``directory`` anchor: those of its data file but
    the root folder's (the root hook gets no generated cue: issue 22 item 1)."""
    return {d: files for d, files in SPEC["anchors"][sample].items() if d != "."}


@pytest.mark.parametrize("sample", sorted(SPEC["anchors"]))
def test_sample_directory_anchoring(sample: str, tmp_path: Path) -> None:
    root, payload = project(tmp_path, sample)
    expected = directory_anchors(sample)
    code, stdout, stderr = run_in_process(["event"], root, {}, payload)
    assert (code, stdout) == (0, "")
    if expected:
        assert stderr == f"MemHooks maintained {len(expected)} hook file(s).\n"
    elif SPEC["anchors"][sample]:  # only the root's: nothing to write
        assert stderr == ""
    elif sample in SPEC["unrecognised"]:
        assert stderr.count("\n") == 1 and "not recognised" in stderr
    else:
        assert stderr == ""
    found = {path: cues(text) for path, text in hooks(root).items()}
    want: dict[str, Any] = {"MEMHOOKS.md": {}}
    for directory, files in expected.items():
        want[os.path.join(directory, "MEMHOOKS.md") if directory != "." else "MEMHOOKS.md"] = {
            directory: files
        }
    assert found == want
    if not expected:
        assert (root / "MEMHOOKS.md").read_text("utf-8") == ROOT_HOOK


@pytest.mark.parametrize("sample", ANCHORED[::4])
def test_sample_nearest_anchoring(sample: str, tmp_path: Path) -> None:
    """With ``nearest`` every cue lands in the root hook (the only hook) and no hook is made."""
    root, payload = project(tmp_path, sample)
    code, _out, err = run_in_process(["event", "--anchor", "nearest"], root, {}, payload)
    assert (code, err) == (0, "MemHooks maintained 1 hook file(s).\n")
    assert {p: cues(t) for p, t in hooks(root).items()} == {"MEMHOOKS.md": SPEC["anchors"][sample]}


@pytest.mark.parametrize(
    "sample", ["real/claude-code-PostToolUse.json", "real/codex-PostToolUse.json"]
)
def test_real_samples_through_the_entry_point(sample: str, tmp_path: Path) -> None:
    """Both write a file at the root: with ``nearest`` its cue goes into the root hook;
    with ``directory`` (the default) the root gets no generated cue."""
    root, payload = project(tmp_path, sample)
    code, out, err = run_subprocess(["event", "--anchor", "nearest"], root, {}, payload)
    assert (code, out, err) == (0, "", "MemHooks maintained 1 hook file(s).\n")
    assert cues((root / "MEMHOOKS.md").read_text("utf-8")) == SPEC["anchors"][sample]
    root, payload = project(tmp_path / "again", sample)
    assert run_subprocess(["event"], root, {}, payload) == (0, "", "")
    assert (root / "MEMHOOKS.md").read_text("utf-8") == ROOT_HOOK
