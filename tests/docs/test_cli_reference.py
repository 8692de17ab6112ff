"""docs/cli.md is the live ``--help`` of every command (scripts/gen_cli_docs.py writes it)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
STALE = "docs/cli.md is out of date with `memhooks --help`; regenerate it: python scripts/gen_cli_docs.py"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_cli_docs", ROOT / "scripts" / "gen_cli_docs.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def _written_by() -> str:
    found = re.search(r"\(Python (\d+\.\d+)\)", DOC)
    return found.group(1) if found else "?"


def _commands_and_options(text: str) -> tuple[list[str], set[str]]:
    headings = re.findall(r"^## `([^`]+)`$", text, flags=re.MULTILINE)
    options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))
    return headings, options


def test_cli_reference_matches_the_live_help() -> None:
    live = GEN.render()
    if _written_by() == f"{sys.version_info.major}.{sys.version_info.minor}":
        assert DOC == live, STALE
    else:  # argparse's layout differs between minor versions: compare what it lists
        assert _commands_and_options(DOC) == _commands_and_options(live), STALE


def test_every_command_has_a_section() -> None:
    from memhooks.parser import build_parser

    names = [full for full, _, _ in GEN.commands(build_parser())]
    headings, _ = _commands_and_options(DOC)
    assert headings == names, STALE
    assert {"memhooks validate", "memhooks memories export", "memhooks agents"} <= set(names)


def test_help_is_rendered_at_a_fixed_width() -> None:
    blocks = re.findall(r"```text\n(.*?)```", DOC, flags=re.DOTALL)
    assert blocks and all(len(line) <= GEN.WIDTH for block in blocks for line in block.splitlines())


def test_the_store_option_names_every_place_its_default_comes_from() -> None:
    # review8: since 76d64ed the configuration file's [backends.embedded] path is --store's
    # default (cli._configured_store); the help still said MEMHOOKS_STORE, else the data dir
    text = " ".join(GEN.render().split())
    said = re.findall(r"--store FILE embedded store file \(default: ([^)]*)\)", text)
    default = (
        "MEMHOOKS_EMBEDDED_PATH or MEMHOOKS_STORE, else the configuration file's"
        " [backends.embedded] path, else the user data directory"
    )
    assert said and set(said) == {default}
