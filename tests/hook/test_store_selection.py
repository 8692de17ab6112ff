"""The hook does not skip recall when the config file selects a non-embedded backend."""

from __future__ import annotations

from pathlib import Path

from memhooks.hook.handler import store_available


def test_missing_embedded_store_means_nothing_to_recall(tmp_path: Path) -> None:
    env = {"MEMHOOKS_STORE": str(tmp_path / "none.sqlite3"), "MEMHOOKS_CONFIG": str(tmp_path / "absent.toml")}
    assert store_available(env) is False


def test_config_file_choosing_another_backend_keeps_recall_on(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('backend = "generic"\n[backends.generic]\nurl = "http://127.0.0.1:9/search"\n', encoding="utf-8")
    env = {"MEMHOOKS_STORE": str(tmp_path / "none.sqlite3"), "MEMHOOKS_CONFIG": str(config)}
    assert store_available(env) is True
