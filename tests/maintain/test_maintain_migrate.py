"""``memhooks migrate``: memhooks/v1 hooks (``data/v1/*.md``) become the v2 files next to
them (``*.v2.md``); comments stay; the result validates; a dry run writes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clikit import run_in_process
from maintain_support import VARIANTS

from memhooks.protocol.hookfile import validate_text

V1 = Path(__file__).parent / "data" / "v1"
SAMPLES = sorted(p.stem for p in V1.glob("*.md") if not p.stem.endswith(".v2"))
HOOK = "services/payments/MEMHOOKS.md"


def project(tmp_path: Path, text: str) -> Path:
    root = Path(os.path.realpath(tmp_path)) / "shop"
    (root / ".git").mkdir(parents=True)
    (root / HOOK).parent.mkdir(parents=True)
    (root / HOOK).write_bytes(text.encode("utf-8"))
    return root


@pytest.mark.parametrize("variant", ["lf", "bom-crlf"])
@pytest.mark.parametrize("sample", SAMPLES)
def test_migrates_to_the_expected_v2_file(sample: str, variant: str, tmp_path: Path) -> None:
    legacy = VARIANTS[variant]((V1 / f"{sample}.md").read_text("utf-8"))
    root = project(tmp_path, legacy)
    (root / HOOK).chmod(0o640)
    code, out, err = run_in_process(["migrate", "--all"], root, {})
    assert (code, err) == (0, "")
    assert out.endswith("Migrated 1 hook file(s); 0 already memhooks/v2; 0 failed.\n")
    text = (root / HOOK).read_bytes().decode("utf-8")
    assert text == VARIANTS[variant]((V1 / f"{sample}.v2.md").read_text("utf-8"))
    assert [d for d in validate_text(text, HOOK) if d.is_error] == []
    assert (root / HOOK).stat().st_mode & 0o777 == 0o640
    # a second run leaves the v2 file alone
    assert run_in_process(["migrate", "--all"], root, {})[1] == (
        f"already memhooks/v2: {HOOK}\nMigrated 0 hook file(s); 1 already memhooks/v2; 0 failed.\n"
    )
    assert (root / HOOK).read_bytes().decode("utf-8") == text


def test_every_sample_comment_survives() -> None:
    for sample in SAMPLES:
        legacy = (V1 / f"{sample}.md").read_text("utf-8")
        migrated = (V1 / f"{sample}.v2.md").read_text("utf-8")
        comments = [
            line.split("#", 1)[1]
            for line in legacy.split("\n---", 1)[0].splitlines()
            if " #" in line or line.startswith("#")
        ]
        assert all(c in migrated for c in comments), sample


def test_dry_run_prints_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    legacy = (V1 / "legacy_02.md").read_text("utf-8")
    root = project(tmp_path, legacy)
    code, out, _err = run_in_process(["migrate", "services", "--dry-run"], root, {})
    assert code == 0
    assert out.startswith(f"--- a/{HOOK}\n+++ b/{HOOK}\n@@ ")
    assert "\n-schema: memhooks/v1\n" in out and "\n+schema: memhooks/v2\n" in out
    assert out.endswith(
        f"would migrate: {HOOK} (schema memhooks/v2; bank, knowledge_pages -> backends.hindsight; "
        "2 legacy anchor(s) -> generated cue; 2 legacy note(s) -> recall_queries)\n"
        "Would migrate 1 hook file(s); 0 already memhooks/v2; 0 failed.\n"
    )
    assert (root / HOOK).read_text("utf-8") == legacy
    assert sorted(os.listdir(root / "services" / "payments")) == ["MEMHOOKS.md"]


def test_kept_blocks_are_reported(tmp_path: Path) -> None:
    root = project(tmp_path, (V1 / "kept_block.md").read_text("utf-8"))
    code, out, _err = run_in_process(["migrate", HOOK], root, {})
    assert code == 0
    assert (
        "  note: legacy notes block kept as guidance: the notes block's JSON does not parse" in out
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "---\nschema: memhooks/v1\nbank: a\nbackends:\n  hindsight:\n    bank: b\n---\n",
            "error[MH016]: cannot migrate `bank`: `backends.hindsight.bank` is already set to something else",
        ),
        (
            "---\nschema: memhooks/v1\nbackends: [x]\nbank: a\n---\n",
            "error[MH000]: `backends` must be a mapping",
        ),
        (
            "---\nschema: memhooks/v1\nrecall_queries:\n  - query: q\n    priority: 7\n---\n",
            "error[MH004]: query priority must be a number from 0.0 to 1.0 (found 7)",
        ),
        ("---\nschema: [memhooks/v1\n---\n", "error[MH000]: invalid YAML frontmatter"),
    ],
)
def test_files_that_cannot_be_migrated_are_left_alone(
    tmp_path: Path, text: str, message: str
) -> None:
    root = project(tmp_path, text)
    code, out, err = run_in_process(["migrate", "--all"], root, {})
    assert code == 1
    assert err.startswith(message), err
    assert out.endswith("Migrated 0 hook file(s); 0 already memhooks/v2; 1 failed.\n")
    assert (root / HOOK).read_text("utf-8") == text


def test_already_migrated_value_is_not_a_conflict(tmp_path: Path) -> None:
    root = project(
        tmp_path, "---\nschema: memhooks/v1\nbank: a\nbackends:\n  hindsight:\n    bank: a\n---\n"
    )
    assert run_in_process(["migrate", "--all"], root, {})[0] == 0
    assert (root / HOOK).read_text(
        "utf-8"
    ) == "---\nschema: memhooks/v2\nbackends:\n  hindsight:\n    bank: a\n---\n"
