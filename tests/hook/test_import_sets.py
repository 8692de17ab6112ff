"""The hook's import set, per event kind: the modules one hook process loads are the
product's speed (a fresh interpreter per prompt and tool call), so each kind of call is
held to the set recorded in ``data/import_sets.json``. Lazy imports are allowed on these
paths only; a change that adds a module to one of them updates the file on purpose:

    MEMHOOKS_RECORD_IMPORT_SETS=1 .venv/bin/python -m pytest tests/hook/test_import_sets.py

Every call runs as the installed command runs it (``memhooks.install.command.argv``), in
one Claude Code session of the small project of ``hook_support``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from import_set_support import assert_recorded, loaded

from memhooks.install import command

DATA = Path(__file__).parent / "data" / "import_sets.json"
#: Read at collection: the suite's sandbox (conftest.py) takes every ``MEMHOOKS_*`` away.
RECORD = bool(os.environ.get("MEMHOOKS_RECORD_IMPORT_SETS"))
#: Modules outside memhooks whose presence is part of the record (the costly ones).
WATCHED = (
    "argparse", "json.decoder", "platformdirs", "re", "ruamel", "sqlite3", "subprocess",
    "threading", "typing", "yaml",
)  # fmt: skip


@pytest.fixture(scope="module")
def import_sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    sets = _import_sets(tmp_path_factory.mktemp("imports"), relative=False)
    if RECORD:
        DATA.write_text(json.dumps(sets, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return sets


@pytest.fixture(scope="module")
def relative_sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The same calls with ``MEMHOOKS_STORE=../store.sqlite3`` (relative to the project
    root: docs/quickstart.md and the README's demo export one), each hook process
    started in ``src/acme`` — where that value names no file — so every call that
    reads the store finds it only by the root rule (:mod:`memhooks.store.location`)."""
    return _import_sets(tmp_path_factory.mktemp("imports-relative"), relative=True)


def _import_sets(base: Path, *, relative: bool) -> dict[str, list[str]]:
    """The modules each kind of call loads, in one session of :func:`make_project`'s
    project (its store named absolute, or ``relative`` to the root)."""
    from hook_support import make_project

    root, store = make_project(base)  # its hooks old enough for the parsed-hook cache
    outside = base / "elsewhere"
    outside.mkdir()
    env = {
        "HOME": str(base), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "XDG_CACHE_HOME": str(base / "cache"), "MEMHOOKS_STATE_DIR": str(base / "state"),
        "MEMHOOKS_STORE": os.path.relpath(store, root) if relative else str(store),
        "PYTHONPROFILEIMPORTTIME": "1",
        "PYTHONDONTWRITEBYTECODE": "1",  # import_set_support.STEADY
        "MEMHOOKS_HOOK_TIMEOUT_MS": "30000",  # a loaded machine must not reach the deadline's path
    }  # fmt: skip

    def call(
        payload: dict[str, object], cwd: Path = root, settings: dict[str, str] | None = None
    ) -> list[str]:
        body = {
            "session_id": "imports-1",
            "cwd": str(cwd),
            "transcript_path": "/dev/null",
            **payload,
        }
        started = root / "src" / "acme" if relative and cwd == root else cwd
        done = subprocess.run(command.argv("claude-code"), input=json.dumps(body), text=True, capture_output=True,
                              env={**env, **(settings or {})}, cwd=str(started), timeout=60, check=False)  # fmt: skip
        assert done.returncode == 0
        notes = [line for line in done.stderr.splitlines() if not line.startswith("import time:")]
        assert notes == [], notes
        return loaded(done.stderr, WATCHED)

    def read(rel: str) -> dict[str, object]:
        path = str(root / rel)
        return {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": path},
                "tool_response": {"type": "text", "file": {"filePath": path}}}  # fmt: skip

    prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "How are invoice totals rounded?"}
    out: dict[str, list[str]] = {}
    out["no_project"] = call(prompt, outside)
    out["session_start"] = call({"hook_event_name": "SessionStart", "source": "startup"})
    call(prompt)  # fills the caches (the parsed hooks, the search lists)
    out["user_prompt"] = call({**prompt, "prompt": "Which release constraints apply to billing?"})
    # a new session's first prompt: its memories are delivered (the relevance floor runs)
    out["user_prompt_recalls"] = call({**prompt, "session_id": "imports-2"})
    # the same with the floor turned off: its modules are not loaded
    floor_off = {"MEMHOOKS_RELEVANCE_FLOOR": "off"}
    out["user_prompt_floor_off"] = call({**prompt, "session_id": "imports-4"}, settings=floor_off)
    out["pre_tool"] = call(
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": str(root / "src" / "acme" / "billing.py")},
        }
    )
    out["post_tool_recall"] = call(read("src/acme/billing.py"))
    out["post_tool_read_new"] = call(
        read("src/acme/MEMHOOKS.md")
    )  # not told yet: its lines' owners
    out["post_tool_served"] = call(read("src/acme/MEMHOOKS.md"))  # told: the shortcut settles it
    out["post_command_served"] = call(
        {
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "wc -l src/acme/billing.py"},
        }
    )
    # line-level recall off (a session that never had it): a served read reads no tool
    # input for lines (memhooks.lines.tools), as before line-level recall
    off = {"session_id": "imports-3"}
    lines_off = {"MEMHOOKS_LINE_RECALL": "off"}
    call({**prompt, **off}, settings=lines_off)
    call({**read("src/acme/billing.py"), **off}, settings=lines_off)
    out["post_tool_served_lines_off"] = call(
        {**read("src/acme/billing.py"), **off}, settings=lines_off
    )
    new = root / "src" / "acme" / "discount.py"
    new.write_text("RATE = 0.1\n", encoding="utf-8")
    out["post_edit_maintained"] = call({"hook_event_name": "PostToolUse", "tool_name": "Write",
                                        "tool_input": {"file_path": str(new), "content": "RATE = 0.1\n"}})  # fmt: skip
    out["pre_compact"] = call({"hook_event_name": "PreCompact", "trigger": "auto"})
    out["session_end"] = call({"hook_event_name": "SessionEnd", "reason": "exit"})
    return out


KINDS = sorted(json.loads(DATA.read_text(encoding="utf-8")))


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_hook_call_loads_its_recorded_modules(
    kind: str, import_sets: dict[str, list[str]]
) -> None:
    assert_recorded(DATA, kind, import_sets[kind])


#: The kinds of call that choose no memory store: settled by the shortcut, or with
#: nothing to do (no project).
STORELESS = (
    "no_project", "post_command_served", "post_tool_served", "post_tool_served_lines_off",
    "pre_tool",
)  # fmt: skip


@pytest.mark.parametrize("kind", STORELESS)
def test_a_relative_store_costs_a_call_that_chooses_no_store_nothing(
    kind: str, relative_sets: dict[str, list[str]]
) -> None:
    # review6: rooting a relative MEMHOOKS_STORE on every call walked for the root and
    # loaded 7-9 modules more in each settled tool call; it is rooted where the store is
    # chosen (HookCall.store_env)
    assert_recorded(DATA, kind, relative_sets[kind])


def test_a_relative_store_adds_only_its_rule_where_the_store_is_chosen(
    import_sets: dict[str, list[str]], relative_sets: dict[str, list[str]]
) -> None:
    # every call ran without a note: the store was found from src/acme by the root rule
    for kind in set(KINDS) - set(STORELESS):
        added = set(relative_sets[kind]) - set(import_sets[kind])
        assert added <= {"memhooks.store.location"}, (kind, added)


def test_the_tool_shortcut_loads_no_sqlite_no_yaml_no_typing(
    import_sets: dict[str, list[str]],
) -> None:
    for kind in (
        "post_tool_served",
        "post_tool_served_lines_off",
        "post_command_served",
        "pre_tool",
        "no_project",
    ):
        assert not {"sqlite3", "ruamel", "yaml", "typing", "re", "subprocess"} & set(
            import_sets[kind]
        ), kind


def test_a_prompt_that_recalls_loads_no_re(import_sets: dict[str, list[str]]) -> None:
    # re with enum, functools and collections: ~3 ms of CPU a prompt (memhooks.words)
    assert "memhooks.recall.floor" in import_sets["user_prompt_recalls"]
    assert "re" not in import_sets["user_prompt_recalls"]


def test_a_prompt_with_the_floor_off_loads_none_of_it(import_sets: dict[str, list[str]]) -> None:
    # MEMHOOKS_RELEVANCE_FLOOR=off: the memories are delivered unjudged, and the modules
    # that read their words and names for the floor are not imported (nor the backends'
    # capabilities, asked whether the store counts the prompt's frequent words)
    floor = {"memhooks.recall.floor", "memhooks.symbols", "memhooks.symbols.mentions",
             "memhooks.backends.capabilities"}  # fmt: skip
    assert floor <= set(import_sets["user_prompt_recalls"])
    assert (
        set(import_sets["user_prompt_floor_off"]) == set(import_sets["user_prompt_recalls"]) - floor
    )


def test_a_served_read_without_line_recall_loads_nothing_of_it(
    import_sets: dict[str, list[str]],
) -> None:
    # MEMHOOKS_LINE_RECALL=off: the shortcut does not read which lines a tool read
    assert "memhooks.lines.tools" in import_sets["post_tool_served"]
    assert not [
        m for m in import_sets["post_tool_served_lines_off"] if m.startswith("memhooks.lines")
    ]


def test_a_pre_tool_call_that_edits_nothing_opens_no_state_file(
    import_sets: dict[str, list[str]],
) -> None:
    # Codex and Cline send PreToolUse for every tool (no matcher): a Read's must cost the
    # shortcut only, as before line-level recall (review: it opened the state file).
    assert not {"memhooks.fast.sqlite", "memhooks.session.state", "memhooks.hook.lines"} & set(
        import_sets["pre_tool"]
    )
