"""Secret scrubbing on realistic (fake) secret shapes, before anything is stored."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from capture_support import memories, raw_bytes

from memhooks.agents import NormalizedEvent
from memhooks.capture import observe, scrub
from memhooks.session.location import state_path

DATA = json.loads((Path(__file__).parent / "data" / "secrets.json").read_text("utf-8"))


@pytest.mark.parametrize("case", DATA["redact"], ids=lambda c: c["kind"])
def test_secret_is_replaced_by_its_kind(case: dict[str, str]) -> None:
    text, count = scrub(case["text"])
    assert case["secret"] not in text
    assert f"[REDACTED:{case['kind']}]" in text
    assert count >= 1


@pytest.mark.parametrize("text", DATA["keep"])
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert scrub(text) == (text, 0)


def test_assignments_keep_the_name_and_drop_the_value() -> None:
    assert scrub("DB_PASSWORD=hunter2-fake and PORT=5432") == (
        "DB_PASSWORD=[REDACTED:secret-assignment] and PORT=5432",
        1,
    )
    assert scrub("postgres://app:Fake-Passw0rd@db:5432/app")[0] == (
        "postgres://app:[REDACTED:connection-string]@db:5432/app"
    )


def test_nothing_secret_reaches_the_store_or_the_capture_state(
    claude: Callable[..., NormalizedEvent], store_path: str, project: Path, capture_on: str
) -> None:
    secret = "ghp_FAKEfakeFAKEfakeFAKEfakeFAKEfake0000"
    prompt = f"Never paste tokens like {secret} into issues, and never commit .env files."
    observe(claude("UserPromptSubmit", prompt=prompt), store_path=store_path, now=1000.0)
    observe(
        claude(
            "PostToolUseFailure",
            tool_name="Bash",
            tool_input={"command": "git push"},
            error=f"remote: Invalid token {secret}\nfatal: Authentication failed",
        ),
        store_path=store_path,
        now=1010.0,
    )
    stored = memories(store_path, project)
    assert [m.kind for m in stored] == ["constraint"]
    assert secret not in stored[0].text and "[REDACTED:github-token]" in stored[0].text
    assert secret.encode() not in raw_bytes(store_path)
    # the session's capture record (prompt, failed command) is the state file's
    state = state_path()
    assert b"git push" in raw_bytes(state) and secret.encode() not in raw_bytes(state)
