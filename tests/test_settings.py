"""One table of MEMHOOKS_* settings: one default each, and one policy for an invalid
value — a command fails with MH028, the hook notes it and goes on with the default."""

from __future__ import annotations

import inspect
import os
import pathlib
import re

import pytest

from memhooks import settings
from memhooks.agents import NormalizedEvent
from memhooks.backends.registry import BACKENDS, KEYS, unknown_settings, variables
from memhooks.errors import DiagnosticError
from memhooks.hook.call import HookCall
from memhooks.mcp import tools
from memhooks.protocol.budget import bound_context, bound_view
from memhooks.recall import DEFAULT_BUDGET


def test_the_prompt_budget_has_one_default_for_the_hook_recall_and_the_library() -> None:
    call = HookCall(NormalizedEvent("hermes", "user_prompt", native_event="pre_llm_call"), {})
    assert call.prompt_budget() == DEFAULT_BUDGET == settings.default("MEMHOOKS_MAX_CHARS") == 8000
    # the MCP recall tool wrote its own 8000 beside the table (and protocol.budget kept a
    # dead 24,000 and its own 6,000 for one guidance item): one home, the table
    assert inspect.signature(tools.recall).parameters["budget"].default == DEFAULT_BUDGET
    guidance = inspect.signature(bound_view).parameters["max_guidance_chars"].default
    assert guidance == settings.default("MEMHOOKS_MAX_GUIDANCE_CHARS")


def test_an_invalid_value_fails_a_command_and_is_a_note_in_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMHOOKS_MAX_CHARS", "lots")
    with pytest.raises(DiagnosticError) as caught:
        bound_context({"sources": ["x"]})
    assert caught.value.diagnostic.code == "MH028"
    call = HookCall(NormalizedEvent("hermes", "user_prompt", native_event="pre_llm_call"), {"MEMHOOKS_MAX_CHARS": "lots"})
    assert call.prompt_budget() == 8000
    # review7: the note says what to do, as the command's MH028 does
    assert call.notes == [("MH028 MEMHOOKS_MAX_CHARS must be an integer from 1 to 1000000 (got 'lots');"
                          " unset MEMHOOKS_MAX_CHARS or set it within range; using 8000 meanwhile")]  # fmt: skip


@pytest.mark.parametrize(("raw", "on"), [("", True), ("off", False), ("0", False), ("yes", True), ("maybe", True)])
def test_switches(raw: str, on: bool) -> None:
    notes: list[str] = []
    assert settings.switch("MEMHOOKS_TOOL_RECALL", {"MEMHOOKS_TOOL_RECALL": raw}, notes) is on
    said = ("MH028 MEMHOOKS_TOOL_RECALL must be `on` or `off` (got 'maybe'); unset MEMHOOKS_TOOL_RECALL"
            " or set it to `on` or `off`; using on meanwhile")  # fmt: skip
    assert notes == ([said] if raw == "maybe" else [])
    assert settings.switch("MEMHOOKS_CACHE", {"MEMHOOKS_CACHE": raw}) is on  # no invalid value: never raises


def test_every_setting_the_package_reads_is_in_the_table() -> None:
    source = pathlib.Path(settings.__file__).parent
    named = {m for p in source.rglob("*.py") for m in re.findall(r"\bMEMHOOKS_[A-Z_]*[A-Z]\b", p.read_text(encoding="utf-8"))}
    table = {*settings.INTEGERS, *settings.SWITCHES, *settings.CHOICES, *settings.PATHS, *settings.TEXTS, *settings.INTERNAL}
    # backend settings are a pattern (MEMHOOKS_<BACKEND>_<KEY>), documented in backends/config.py
    prefixes = "|".join([*(name.upper() for name in BACKENDS), "TEST"])
    backend = {n for n in named if re.match(rf"MEMHOOKS_({prefixes})_", n)}
    fragments = {"MEMHOOKS_MEM", "MEMHOOKS_GENERIC", "MEMHOOKS_TEST"}
    assert named - backend - fragments - set(settings.SCRIPTS) <= table == settings.KNOWN
    # and none of them is "unknown" to the hook's and the commands' check (MH038)
    assert unknown_settings({name: "1" for name in named - fragments}) == []


def test_a_misspelt_setting_is_unknown_and_the_note_names_the_one_meant() -> None:
    env = {
        "MEMHOOKS_TOOL_RECAL": "off", "MEMHOOKS_MAXCHARS": "100", "MEMHOOKS_ZQXJ": "1",
        "MEMHOOKS_TOOL_RECALL": "on", "MEMHOOKS_MEM0_API_KEY": "k", "MEMHOOKS_EMBEDDED_PATH": "p",
        "MEMHOOKS_TEST_HINDSIGHT_URL": "u", "MEMHOOKS_E2E_AGENTS": "claude", "PATH": "/bin",
    }  # fmt: skip
    odd = ["MEMHOOKS_MAXCHARS", "MEMHOOKS_TOOL_RECAL", "MEMHOOKS_ZQXJ"]
    assert unknown_settings(env) == odd
    # the table's cheap first cut (every hook call) leaves the backends' names to them
    assert settings.unknown(env) == sorted([*odd, "MEMHOOKS_EMBEDDED_PATH", "MEMHOOKS_MEM0_API_KEY"])
    assert settings.unknown_note("MEMHOOKS_TOOL_RECAL") == (
        "MEMHOOKS_TOOL_RECAL is not a memhooks setting (ignored); did you mean MEMHOOKS_TOOL_RECALL?"
    )
    assert settings.unknown_note("MEMHOOKS_MAXCHARS").endswith("did you mean MEMHOOKS_MAX_CHARS?")
    # the shared prefix alone is no likeness
    assert settings.unknown_note("MEMHOOKS_ZQXJ").endswith("(ignored); unset it")


def test_a_backend_variable_is_checked_against_that_backends_keys() -> None:
    """``MEMHOOKS_<BACKEND>_<KEY>`` passed by its prefix alone (final review:
    ``MEMHOOKS_EMBEDDED_PAHT=x`` said nothing in the CLI or the hook)."""
    env = {
        "MEMHOOKS_EMBEDDED_PATH": "p", "MEMHOOKS_MEM0_USER_ID": "u", "MEMHOOKS_HINDSIGHT_BANK": "b",
        "MEMHOOKS_EMBEDDED_PAHT": "x", "MEMHOOKS_HINDSIGHT_URLL": "y", "MEMHOOKS_EMBEDED_PATH": "z",
        "MEMHOOKS_GENERIC_": "w",
    }  # fmt: skip
    assert unknown_settings(env) == [
        "MEMHOOKS_EMBEDDED_PAHT", "MEMHOOKS_EMBEDED_PATH", "MEMHOOKS_GENERIC_", "MEMHOOKS_HINDSIGHT_URLL",
    ]  # fmt: skip
    meant = variables()
    assert settings.unknown_note("MEMHOOKS_EMBEDDED_PAHT", meant) == (
        "MEMHOOKS_EMBEDDED_PAHT is not a memhooks setting (ignored); did you mean MEMHOOKS_EMBEDDED_PATH?"
    )
    assert settings.unknown_note("MEMHOOKS_EMBEDED_PATH", meant).endswith("did you mean MEMHOOKS_EMBEDDED_PATH?")
    assert settings.unknown_note("MEMHOOKS_HINDSIGHT_URLL", meant).endswith("did you mean MEMHOOKS_HINDSIGHT_URL?")


def test_the_commands_say_a_misspelt_backend_variable_with_the_one_meant(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    monkeypatch.setenv("MEMHOOKS_EMBEDDED_PAHT", "x")
    assert main(["explain", str(tmp_path)]) == 0
    assert capsys.readouterr().err.startswith(
        "warning[MH038]: MEMHOOKS_EMBEDDED_PAHT is not a memhooks setting (ignored);"
        " did you mean MEMHOOKS_EMBEDDED_PATH?\n  --> MEMHOOKS_EMBEDDED_PAHT\n"
    )


def test_each_backends_keys_are_the_ones_its_docs_list() -> None:
    """One table per backend (``registry.KEYS``); docs/backends.md lists each key in the
    backend's section, so a key added to one and not the other fails here."""
    docs = (pathlib.Path(__file__).parents[1] / "docs" / "backends.md").read_text(encoding="utf-8")
    sections = {m[1].lower(): m[2] for m in re.finditer(r"^## (?:The )?(\w+)[^\n]*\n(.*?)(?=^## )", docs, re.DOTALL | re.MULTILINE)}
    for name, keys in KEYS.items():
        if name == "embedded":  # no section: its one key is the store file
            assert keys == ("path",) and "the embedded store's one key is `path`" in docs
            continue
        listed = set(re.findall(r"^\| `([a-z_]+)`|, `([a-z_]+)`", sections[name], re.MULTILINE))
        words = {w for pair in listed for w in pair if w}
        assert set(keys) <= words, (name, sorted(set(keys) - words))
    assert set(KEYS) == set(BACKENDS)


SOURCE = pathlib.Path(settings.__file__).parent
#: What a setting with a default, range or named values is; read only through the table.
TYPED = (*settings.INTEGERS, *settings.SWITCHES, *settings.CHOICES)


def _constants(text: str) -> dict[str, str]:
    """``{NAME: setting}`` of module constants naming a setting of :data:`TYPED`."""
    bound = re.findall(r"""^([A-Z][A-Z0-9_]*)\s*(?::[^=\n]*)?=\s*["'](MEMHOOKS_[A-Z_]+)["']""", text, re.MULTILINE)
    return {name: setting for name, setting in bound if setting in TYPED}


def _direct_reads(text: str, own: dict[str, str], others: dict[str, dict[str, str]]) -> list[str]:
    """The settings of :data:`TYPED` ``text`` reads straight from an environment mapping:
    by name (``os.environ.get("MEMHOOKS_X")``), through a constant of its own (``own``:
    ``env.get(ENV_VAR)``) or of another module (``others``, by module name:
    ``os.getenv(semantic.ENV_VAR)``); a write is not a read."""
    names = "|".join(TYPED)
    key = rf"""["'](?P<name>{names})["']|(?:(?P<module>\w+)\.)?(?P<constant>[A-Z][A-Z0-9_]*)\b"""
    direct = re.compile(rf"(?:environ|env|getenv)\s*(?:\.get\(|\[|\()\s*(?:{key})(?!\]\s*=[^=])")
    found = []
    for m in direct.finditer(text):
        held = own if m.group("module") is None else others.get(m.group("module"), {})
        setting = m.group("name") or held.get(m.group("constant") or "")
        if setting:
            found.append(setting)
    return found


def test_a_setting_with_a_default_is_read_only_through_the_table() -> None:
    # One parse of each value: reading one straight from the environment is a second
    # default and a second policy for a bad value (MEMHOOKS_SEARCH was parsed in three),
    # whether the name is written out or held in a constant
    texts = {p: p.read_text(encoding="utf-8") for p in SOURCE.rglob("*.py") if p.name != "settings.py"}
    held = {p: _constants(text) for p, text in texts.items()}
    by_module = {p.stem: held[p] for p in texts if held[p]}
    found = [
        f"{p.relative_to(SOURCE)}: {name}"
        for p, text in texts.items()
        for name in _direct_reads(text, held[p], by_module)
    ]
    assert found == []


def test_the_scan_finds_a_read_through_a_constant() -> None:
    source = '''ENV_VAR = "MEMHOOKS_SEARCH"\nmode = os.environ.get(ENV_VAR, "bm25")\nos.environ[ENV_VAR] = "x"\n'''
    own = _constants(source)
    assert own == {"ENV_VAR": "MEMHOOKS_SEARCH"}
    assert _direct_reads(source, own, {}) == ["MEMHOOKS_SEARCH"]
    assert _direct_reads("x = env.get(semantic.ENV_VAR)", {}, {"semantic": own}) == ["MEMHOOKS_SEARCH"]
    assert _direct_reads("x = env.get(ENV_VAR)", {}, {"semantic": own}) == []  # another ENV_VAR
    assert _direct_reads('x = os.getenv("MEMHOOKS_CACHE")', {}, {}) == ["MEMHOOKS_CACHE"]
    assert _direct_reads('x = os.getenv("MEMHOOKS_STORE")', {}, {}) == []  # no default: a path


def _defaults(rows: list[tuple[str, str]]) -> dict[str, str]:
    """``{name: default as written}`` of table rows naming settings and their defaults."""
    said = {}
    for names, default in rows:
        listed = re.findall(r"`+(MEMHOOKS_[A-Z_]+)`+", names)
        values = [v.strip(" `") for v in default.split(",")] if len(listed) > 1 else [default.strip(" `")]
        if listed and len(values) == len(listed):
            said.update((n, v) for n, v in zip(listed, values, strict=True) if n in TYPED)
    return said


def _value(name: str) -> str:
    if name in settings.INTEGERS:
        return str(settings.default(name))
    if name in settings.SWITCHES:
        return "on" if settings.SWITCHES[name] else "off"
    return settings.CHOICES[name][0]


def test_the_documented_defaults_are_the_tables() -> None:
    # the module's own table (its docstring) and every docs/ table with a default column
    module = _defaults(re.findall(r"^(``MEMHOOKS_[A-Z_]+``)\s+(\S+)", settings.__doc__ or "", re.MULTILINE))
    assert module == {name: _value(name) for name in TYPED}
    docs = pathlib.Path(__file__).parents[1] / "docs"
    for page in [*docs.glob("*.md"), docs.parent / "README.md"]:
        rows = re.findall(r"^\|\s*((?:`MEMHOOKS_[A-Z_]+`(?:,\s*)?)+)\s*\|\s*([^|]*?)\s*\|[^|\n]*\|", page.read_text(encoding="utf-8"), re.MULTILINE)
        said = {n: v.replace(",", "") for n, v in _defaults(rows).items()}
        assert said == {n: _value(n) for n in said}, page.name


def test_every_user_setting_is_documented() -> None:
    docs = pathlib.Path(__file__).parents[1] / "docs"
    text = " ".join(p.read_text(encoding="utf-8") for p in docs.glob("*.md"))
    user = (*TYPED, *settings.PATHS, *settings.TEXTS)
    assert [name for name in user if name not in text] == []


def test_a_command_warns_of_a_misspelt_setting_and_goes_on(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    (tmp_path / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    monkeypatch.setenv("MEMHOOKS_TOOL_RECAL", "off")
    assert main(["validate", str(tmp_path)]) == 0
    assert capsys.readouterr().err == (
        "warning[MH038]: MEMHOOKS_TOOL_RECAL is not a memhooks setting (ignored);"
        " did you mean MEMHOOKS_TOOL_RECALL?\n"
        "  --> MEMHOOKS_TOOL_RECAL\n"
        "  help: check the name against the settings table (docs, `memhooks.settings`), or unset it\n"
    )


def test_a_relative_state_dir_fails_a_command_with_mh028(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    monkeypatch.setenv("MEMHOOKS_STATE_DIR", "relative/state")
    assert main(["sessions"]) == 1
    assert capsys.readouterr().err.startswith(
        "error[MH028]: MEMHOOKS_STATE_DIR must be an absolute folder (got 'relative/state')\n"
    )


@pytest.mark.parametrize("kind", ["garbage", "folder"])
def test_a_store_file_a_command_cannot_use_is_mh037_at_its_path(
    kind: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    store = tmp_path / "store.sqlite3"
    if kind == "folder":
        store.mkdir()
    else:
        store.write_bytes(b"not a database" * 100)
    monkeypatch.setenv("MEMHOOKS_STORE", str(store))
    assert main(["memories", "list", "--cwd", str(tmp_path)]) == 1
    first, where, _help = capsys.readouterr().err.splitlines()
    said = "is a directory" if kind == "folder" else "is not a SQLite database"
    assert first.startswith("error[MH037]: ") and said in first
    assert where.startswith(f"  --> {store}")


def test_the_store_variables_are_read_in_the_embedded_backends_own_order() -> None:
    # review7: settings.STORE_VARS (the hook's store check, remember, history import) and
    # the embedded backend's settings (recall) each spelt the order; one may not drift
    import itertools

    from memhooks.backends import registry
    from memhooks.backends.config import Config, env_prefix
    from memhooks.backends.embedded import EmbeddedBackend
    from memhooks.settings import STORE_VARS, store_variable

    assert STORE_VARS == (env_prefix("embedded") + "PATH", *EmbeddedBackend.ENV["path"])
    none = Config("absent.toml", None, {})
    for count in range(len(STORE_VARS) + 1):
        for names in itertools.permutations(STORE_VARS, count):
            env = {name: f"/{name}.sqlite3" for name in names}
            read = registry.settings("embedded", env=env, config=none).get("path")
            var = store_variable(env)
            assert read == (env[var] if var else None), names


def test_a_memhooks_root_the_cli_ignores_is_a_coded_warning_at_the_setting(tmp_path) -> None:
    # it was `warning: MEMHOOKS_ROOT ignored: …`, with no code nor place (newcomer
    # helper-134); the agent hook says MH028 for the same setting
    import subprocess
    import sys

    project = tmp_path / "p"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_ROOT": str(tmp_path / "gone"), "HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "memhooks", "validate", str(project)],
                          capture_output=True, text=True, env=env, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("warning[MH028]: MEMHOOKS_ROOT ignored: ")
    assert lines[1] == "  --> MEMHOOKS_ROOT"
    assert lines[2].startswith("  help: ")
