"""User configuration: which backend is active and why, where each setting comes from,
MH028 for anything invalid (file, line, what to fix), and secrets never shown."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.backends import config as configuration
from memhooks.backends import registry, secrets
from memhooks.backends.generic import GenericBackend
from memhooks.backends.mem0 import Mem0Backend
from memhooks.cli import main
from memhooks.errors import BackendError, DiagnosticError

KNOWN = ", ".join(sorted(registry.BACKENDS))
CASES = json.loads(
    (Path(__file__).parent / "data" / "config_cases.json").read_text(encoding="utf-8")
)["cases"]


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    """The user's config file (``$XDG_CONFIG_HOME/memhooks/config.toml``)."""
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "memhooks" / "config.toml"
    path.parent.mkdir(parents=True)
    return path


def diagnostic(caught: pytest.ExceptionInfo[DiagnosticError]) -> str:
    return caught.value.diagnostic.render()


def test_selection_flag_then_env_then_file_then_default(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert registry.selection() == ("embedded", "default")
    config_file.write_text('# mine\n\nbackend = "generic"\n', encoding="utf-8")
    assert registry.selection() == ("generic", f"{config_file}:3")
    monkeypatch.setenv("MEMHOOKS_BACKEND", "mem0")
    assert registry.selection() == ("mem0", "MEMHOOKS_BACKEND")
    assert registry.selection("embedded") == ("embedded", "--backend")


def test_another_file_through_memhooks_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "elsewhere.toml"
    other.write_text('backend = "mem0"\n', encoding="utf-8")
    monkeypatch.setenv("MEMHOOKS_CONFIG", str(other))
    assert registry.selection() == ("mem0", f"{other}:1")


def test_namespaces_in_hooks_never_select_a_backend(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nrecall_queries: [q]\nbackends:\n  mem0: {top_k: 3}\n---\n",
        encoding="utf-8",
    )
    from memhooks.recall import recall

    assert recall(str(root), store_path=str(tmp_path / "s.sqlite3"))["backend"] == "embedded"


def test_settings_file_then_vendor_variable_then_memhooks_variable(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_file.write_text(
        '[backends.mem0]\nuser_id = "alice"\napi_key = "from-file"\nfilters = {agent_id = "a"}\n',
        encoding="utf-8",
    )
    found = registry.settings("mem0")
    assert found == {"user_id": "alice", "api_key": "from-file", "filters": {"agent_id": "a"}}
    assert found.source("user_id") == f"{config_file}:2"
    monkeypatch.setenv("MEM0_API_KEY", "from-vendor")
    assert registry.settings("mem0")["api_key"] == "from-vendor"
    monkeypatch.setenv("MEMHOOKS_MEM0_API_KEY", "from-memhooks")
    monkeypatch.setenv("MEMHOOKS_MEM0_PROJECT_FILTER", "false")
    monkeypatch.setenv("MEMHOOKS_MEM0_FILTERS", '{"run_id": "r"}')
    found = registry.settings("mem0")
    assert (
        found["api_key"] == "from-memhooks" and found.source("api_key") == "MEMHOOKS_MEM0_API_KEY"
    )
    assert found["project_filter"] is False and found["filters"] == {"run_id": "r"}


def test_test_script_variables_are_never_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: ``MEMHOOKS_MEM0_VENV`` made Mem0 refuse to open ("unknown setting venv").
    The test scripts' variables are ``MEMHOOKS_TEST_*`` now, and never read as settings."""
    from memhooks.backends.mem0 import Mem0Backend

    for var in ("MEMHOOKS_TEST_MEM0_VENV", "MEMHOOKS_TEST_HINDSIGHT_PORT", "MEMHOOKS_TEST_HINDSIGHT_URL"):
        monkeypatch.setenv(var, "/tmp/x")
    for name in registry.BACKENDS:
        assert not any(k.startswith(("venv", "hindsight", "mem0")) for k in registry.settings(name)), name
    monkeypatch.setenv("MEMHOOKS_MEM0_MODE", "platform")
    monkeypatch.setenv("MEMHOOKS_MEM0_API_KEY", "k")
    assert Mem0Backend.open(registry.settings("mem0")).mode == "platform"  # no "unknown setting"


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_invalid_files_are_mh028_with_file_and_line(
    config_file: Path, case: dict[str, str]
) -> None:
    config_file.write_text(case["text"], encoding="utf-8")
    with pytest.raises(DiagnosticError) as caught:
        registry.selection()
    assert diagnostic(caught) == case["rendered"].format(path=config_file, known=KNOWN)


def test_an_adapter_reports_a_bad_setting_at_its_line(config_file: Path) -> None:
    config_file.write_text(
        'backend = "mem0"\n\n[backends.mem0]\nuser_id = "a"\nmode = "cloud"\n', encoding="utf-8"
    )
    with pytest.raises(DiagnosticError) as caught:
        registry.open_backend()
    assert diagnostic(caught) == (
        "error[MH028]: backends.mem0.mode: must be one of oss, platform (got 'cloud')\n"
        f"  --> {config_file}:5:1\n"
        "  help: fix `mode` in [backends.mem0] or its environment variable"
    )


def test_a_bad_setting_from_the_environment_names_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMHOOKS_GENERIC_URL", "ftp://example.invalid/x")
    with pytest.raises(DiagnosticError) as caught:
        registry.open_backend("generic")
    assert diagnostic(caught) == (
        "error[MH028]: backends.generic.url: must be an http:// or https:// URL\n"
        "  --> MEMHOOKS_GENERIC_URL\n"  # a setting: no line and column
        "  help: fix `url` in [backends.generic] or its environment variable"
    )
    monkeypatch.setenv("MEMHOOKS_GENERIC_HEADERS", "{not json")
    with pytest.raises(DiagnosticError, match="MEMHOOKS_GENERIC_HEADERS is not valid JSON"):
        registry.settings("generic")


def test_unknown_backend_names_are_backend_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMHOOKS_BACKEND", "mem00")
    with pytest.raises(BackendError) as caught:
        registry.selected()
    assert str(caught.value) == f"unknown backend 'mem00' (from MEMHOOKS_BACKEND); known: {KNOWN}"


def test_settings_validation_without_provenance_is_a_backend_error() -> None:
    with pytest.raises(BackendError, match="set exactly one of `url` and `command`"):
        GenericBackend.open({})
    with pytest.raises(BackendError, match=r"backends\.mem0\.colour: unknown setting"):
        Mem0Backend.open({"colour": "blue"})
    with pytest.raises(BackendError, match="app_id: is a Platform id"):
        Mem0Backend({}, {"app_id": "x"})


def test_commands_report_invalid_configuration(
    config_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file.write_text("backend = \n", encoding="utf-8")
    assert main(["backends", "list"]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("error[MH028]: the memhooks configuration is not valid TOML")
        and f"{config_file}:1:" in err
    )
    (tmp_path / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    assert main(["remember", "x", "--cwd", str(tmp_path)]) == 1  # enabled: writes may run
    assert "MH028" in capsys.readouterr().err


def test_recall_with_invalid_configuration_fails_open(config_file: Path, tmp_path: Path) -> None:
    from memhooks.recall import recall

    config_file.write_text('backend = "nope"\n', encoding="utf-8")
    result = recall(str(tmp_path), prompt="anything")
    # the note says where, as the diagnostic does (newcomer6: recall gave no place)
    assert result["status"] == "no_backend" and result["notes"] == [
        (
            f"unknown backend 'nope' ({config_file}:1:1); use one of: embedded, generic,"
            " hindsight, honcho, mem0, openviking"
        )
    ]


def test_list_never_shows_secrets(
    config_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file.write_text(
        'backend = "mem0"\n[backends.mem0]\napi_key = "sk-file-SECRET"\nuser_id = "alice"\n'
        'config = {llm = {provider = "openai", config = {api_key = "sk-nested-SECRET"}}}\n'
        '[backends.generic]\nurl = "https://bob:pw-SECRET@mem.example/search?key=q-SECRET"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("MEMHOOKS_GENERIC_TOKEN", "tok-SECRET")
    assert main(["backends", "list"]) == 0
    text = capsys.readouterr().out
    assert main(["backends", "list", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "SECRET" not in text.replace("q-SECRET", "") and "SECRET" not in json.dumps(
        data
    ).replace("q-SECRET", "")
    mem0 = next(b for b in data["backends"] if b["name"] == "mem0")
    assert mem0["active"] and data["why"] == f"{config_file}:1"
    assert mem0["settings"]["api_key"] == "set"
    assert mem0["settings"]["config"] == {
        "llm": {"provider": "openai", "config": {"api_key": "set"}}
    }
    generic = next(b for b in data["backends"] if b["name"] == "generic")
    assert generic["settings"]["url"].startswith("https://***@mem.example/")
    assert (
        generic["settings"]["token"] == "set"
        and generic["sources"]["token"] == "MEMHOOKS_GENERIC_TOKEN"
    )
    assert "* mem0 " in text and '    user_id = "alice"  (' in text


def test_display_masks_by_key_at_any_depth() -> None:
    shown = secrets.display(
        {"headers": {"X": "1"}, "nested": {"client_secret": "s", "ok": "v"}, "empty_token": ""}
    )
    assert shown == {
        "headers": "set",
        "nested": {"client_secret": "set", "ok": "v"},
        "empty_token": "not set",
    }


def test_find_line_handles_quoted_tables_and_missing_keys() -> None:
    text = '[backends."mem0"]\nuser_id = "a"\n[other]\nuser_id = "b"\n[backends.generic]\n'
    assert configuration.find_line(text, "mem0", "user_id") == 2
    assert configuration.find_line(text, "mem0", "absent") == 1
    assert configuration.find_line(text, "generic", None) == 5
    assert configuration.find_line(text, "nope", "x") is None


def test_list_says_an_sdk_is_needed_for_remember_only() -> None:
    """Recall on OpenViking and Honcho needs no SDK (issue 14): a missing one is not a
    broken backend."""
    from memhooks.commands.backends import listing, render_list

    report = listing(env={})
    by_name = {b["name"]: b for b in report["backends"]}
    assert by_name["hindsight"]["missing"] == [] and by_name["hindsight"]["extra"] is None
    assert by_name["openviking"]["extra_for"] == by_name["honcho"]["extra_for"] == "remember"
    by_name["honcho"]["missing"] = ["honcho"]
    assert "honcho      missing honcho (for remember only): pip install 'memhooks[honcho]'" in render_list(report)


def test_the_embedded_store_file_is_a_setting_like_any_other(
    config_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One open for every backend: the store's file comes from the configuration file,
    MEMHOOKS_STORE (``~`` expanded), MEMHOOKS_EMBEDDED_PATH, then ``--store``, whether
    the embedded store was chosen by default or named; opening never creates it."""
    from memhooks.errors import MissingStoreError
    from memhooks.store import MemoryStore

    monkeypatch.setenv("HOME", str(tmp_path))
    paths = {name: tmp_path / f"{name}.sqlite3" for name in ("file", "home", "native", "flag")}
    for path in paths.values():
        MemoryStore(path).close()

    def opened(name: str | None = None, store_path: str | None = None) -> str:
        backend = registry.open_backend(name, store_path=store_path)
        backend.close()
        if not store_path:  # the hook's store check names the file recall opens (review7)
            assert registry.selected_store(os.environ) == backend.store.path  # type: ignore[attr-defined]
        return backend.store.path  # type: ignore[attr-defined, no-any-return]

    config_file.write_text(f'[backends.embedded]\npath = "{paths["file"]}"\n', encoding="utf-8")
    assert opened() == opened("embedded") == str(paths["file"])
    monkeypatch.setenv("MEMHOOKS_BACKEND", "embedded")
    assert opened() == str(paths["file"])  # named, the file's setting still holds
    monkeypatch.setenv("MEMHOOKS_STORE", "~/home.sqlite3")
    assert opened() == str(paths["home"])
    monkeypatch.setenv("MEMHOOKS_EMBEDDED_PATH", str(paths["native"]))
    assert opened() == str(paths["native"])
    assert opened(store_path=str(paths["flag"])) == str(paths["flag"])
    with pytest.raises(MissingStoreError):
        opened(store_path=str(tmp_path / "missing.sqlite3"))
    assert not (tmp_path / "missing.sqlite3").exists()
