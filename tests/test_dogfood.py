"""Our own hooks and the shipped example must stay valid."""

from __future__ import annotations

from pathlib import Path

import pytest

import memhooks

REPO = Path(__file__).resolve().parent.parent


def test_this_repository_root_hook_validates_without_findings() -> None:
    assert memhooks.validate(str(REPO / "MEMHOOKS.md")) == []


def test_the_example_project_validates_and_resolves(monkeypatch: pytest.MonkeyPatch) -> None:
    shop = REPO / "examples" / "shop"
    monkeypatch.setenv("MEMHOOKS_ROOT", str(shop))
    assert memhooks.validate(str(shop), all_hooks=True) == []
    plan = memhooks.resolve(shop / "backend" / "auth", roles=["reviewer"])
    assert [Path(s).relative_to(shop).as_posix() for s in plan.sources] == [
        "MEMHOOKS.md",
        "backend/MEMHOOKS.md",
        "backend/auth/MEMHOOKS.md",
    ]
    webhooks = memhooks.resolve(shop / "backend" / "payments" / "webhooks")
    assert [o["reason"] for o in webhooks.data["omitted_queries"]] == ["inheritance_cut"] * 6
