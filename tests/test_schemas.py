"""Every versioned JSON output validates against the JSON Schema shipped in the package."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from memhooks.cli import main

NAMES = ("plan-v1", "runtime-view-v1", "recall-v1", "diagnostics")
SHOP = Path(__file__).resolve().parent.parent / "examples" / "shop"


def _schemas() -> dict[str, dict[str, Any]]:
    folder = resources.files("memhooks") / "schemas"
    return {
        name: json.loads((folder / f"{name}.schema.json").read_text(encoding="utf-8"))
        for name in NAMES
    }


SCHEMAS = _schemas()
REGISTRY = Registry().with_resources(
    (s["$id"], Resource.from_contents(s)) for s in SCHEMAS.values()
)


def check(name: str, value: Any) -> None:
    Draft202012Validator(SCHEMAS[name], registry=REGISTRY).validate(value)


@pytest.fixture
def shop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("MEMHOOKS_ROOT", str(SHOP))
    monkeypatch.setenv("MEMHOOKS_STORE", str(tmp_path / "store.sqlite3"))
    return SHOP


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    main(argv)
    return json.loads(capsys.readouterr().out)


def test_schemas_are_valid_draft_2020_12() -> None:
    for schema in SCHEMAS.values():
        Draft202012Validator.check_schema(schema)


def test_explain_plan_matches_plan_v1(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("backend/auth", "backend/payments/webhooks", "frontend/checkout"):
        check(
            "plan-v1",
            run_json(
                ["explain", str(shop / folder), "--format", "json", "--role", "reviewer"], capsys
            ),
        )


def test_runtime_views_match(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    single = run_json(
        [
            "explain",
            str(shop / "backend"),
            "--file",
            str(shop / "backend/auth/tokens.py"),
            "--format",
            "json",
        ],
        capsys,
    )
    multi = run_json(
        [
            "explain",
            str(shop / "backend/auth"),
            str(shop / "frontend/checkout"),
            "--format",
            "json",
        ],
        capsys,
    )
    check("runtime-view-v1", single)
    check("runtime-view-v1", multi)
    assert "contexts" in multi and "contexts" not in single


def test_recall_result_matches_recall_v1(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["memories", "import", "--cwd", str(shop), str(shop / "memories.jsonl")])
    capsys.readouterr()
    result = run_json(
        ["recall", str(shop / "backend/auth"), "--prompt", "sessions", "--format", "json"], capsys
    )
    check("recall-v1", result)
    assert result["memories"]


def test_diagnostics_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v1\nbank: x\nrecall_queries: [{priority: 2}]\n---\n",
        encoding="utf-8",
    )
    found = run_json(["validate", str(tmp_path / "MEMHOOKS.md"), "--format", "json"], capsys)
    check("diagnostics", found)
    assert {d["code"] for d in found} >= {"MH001", "MH016", "MH003", "MH004"}
    main(["explain", str(tmp_path), "--format", "json"])
    check("diagnostics", json.loads(capsys.readouterr().err))
