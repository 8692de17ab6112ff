"""Hook commands run the interpreter on memhooks/__main__.py, not the console script
(pip's wrapper imports re first: about half a bare interpreter's start per hook call)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import memhooks
from memhooks.install import command

#: The folder memhooks is imported from (for an editable install, not site-packages).
SRC = os.path.dirname(os.path.dirname(os.path.abspath(memhooks.__file__)))


def test_this_installations_cli_becomes_the_interpreter_on_main() -> None:
    script = os.path.join(os.path.dirname(sys.executable), "memhooks")
    program = command.hook_program([script])
    assert program[0] == os.path.abspath(sys.executable)
    assert program[1] == "-S"  # no site module: __main__.py finds its package itself
    assert program[2].endswith(os.path.join("memhooks", "__main__.py")) and os.path.isfile(program[2])
    assert command.hook_program(["/opt/bin/memhooks"]) == ["/opt/bin/memhooks"]  # someone else's


def test_the_command_is_ours_and_serves_a_hook(tmp_path: Path) -> None:
    line = command.shell("claude-code", exe=[os.path.join(os.path.dirname(sys.executable), "memhooks")])
    assert "__main__.py" in line and command.is_ours(line)
    assert not command.is_ours("python3 /opt/other/__main__.py hook --agent x")
    payload = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path), "session_id": "s", "prompt": "x"})
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run(shlex.split(line), input=payload, text=True, capture_output=True, env=env, cwd="/", timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")  # no project here: the no-op


def test_run_as_a_file_the_package_folder_shadows_nothing(tmp_path: Path) -> None:
    main = command.hook_program()[-1]
    probe = subprocess.run([sys.executable, main, "--version"], capture_output=True, text=True, timeout=60, check=False)
    assert probe.returncode == 0 and probe.stdout.startswith("memhooks ")


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "billing").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\nrecall_queries:\n  - totals\n---\n")
    return project


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
        "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
    }


def test_without_site_a_prompt_hook_imports_no_site_module(tmp_path: Path) -> None:
    project = _project(tmp_path)
    payload = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project), "session_id": "s1", "prompt": "why are the totals rounded?"})
    done = subprocess.run(command.argv("claude-code"), input=payload, text=True, capture_output=True, env={**_env(tmp_path), "PYTHONPROFILEIMPORTTIME": "1"}, cwd="/", timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-500:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert {"memhooks.hook.reactions", "memhooks.recall"} <= imported  # the probe saw the recall...
    # ...and none of these (functools: memhooks.fast.sqlite imports the C module without it)
    assert not imported & {"site", "_distutils_hack", "memhooks.cli", "functools"}


def test_without_site_dependencies_in_site_packages_still_import(tmp_path: Path) -> None:
    # A cue written into a hand-written hook (a comment: not the generated form) needs
    # ruamel.yaml, which lives in site-packages (for an editable install, not next to the
    # package): the late site setup must find it.
    project = _project(tmp_path)
    hook = project / "billing" / "MEMHOOKS.md"
    hook.write_text("---\nschema: memhooks/v2\n# kept by people\nrecall_queries:\n  - totals\n---\n")
    os.utime(hook, (1, 1))  # outside the parsed-hook cache's racy window
    written = project / "billing" / "invoice.py"
    written.write_text("TOTAL = 2\n")
    payload = json.dumps({
        "hook_event_name": "PostToolUse", "cwd": str(project), "session_id": "s2", "tool_name": "Write",
        "tool_input": {"file_path": str(written), "content": "TOTAL = 2\n"}, "tool_response": {"filePath": str(written)},
    })
    env = {**_env(tmp_path), "PYTHONPROFILEIMPORTTIME": "1"}
    done = subprocess.run(command.argv("claude-code"), input=payload, text=True, capture_output=True, env=env, cwd="/", timeout=60, check=False)
    assert done.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert {"site", "ruamel.yaml"} <= imported  # found through the late site setup
    said = [line for line in done.stderr.splitlines() if not line.startswith("import time:")]
    assert [line for line in said if "does not exist: nothing to recall" not in line] == []  # a store not made yet: said once
    text = hook.read_text()
    assert "billing/invoice.py" in text and "# kept by people" in text


def test_without_site_a_standard_module_that_is_missing_leaves_the_late_setup_alone() -> None:
    # subprocess tries `import msvcrt` on every platform; the late site setup ran for it,
    # ~11 M instructions of any hook call that ran git (callgrind). A standard module the
    # standard finders did not find is still not found, and one outside the standard
    # library still runs the setup.
    probe = (
        "import sys, memhooks.fast as f; f.prepare(['memhooks', 'hook'])\n"
        "import subprocess\n"
        "try:\n    import msvcrt\nexcept ModuleNotFoundError: print('msvcrt missing')\n"
        "print('site' in sys.modules)\n"
        "try:\n    import memhooks_no_such_module\nexcept ModuleNotFoundError: print('none')\n"
        "print('site' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": SRC})  # fmt: skip
    assert done.stdout.split("\n") == ["msvcrt missing", "False", "none", "True", ""]


def test_a_hook_command_whose_script_is_gone_is_not_runnable(tmp_path: Path) -> None:
    # Python exits 2 on a missing script, which Claude Code and Gemini CLI read as "block
    # this prompt": status must say the hook would not run.
    main = tmp_path / "memhooks" / "__main__.py"
    main.parent.mkdir()
    main.write_text("")
    line = shlex.join([sys.executable, "-S", str(main), "hook", "--agent", "claude-code"])
    assert command.runnable(line)
    main.unlink()
    assert not command.runnable(line)


def test_only_this_installations_own_entry_points_become_main_py() -> None:
    python = os.path.abspath(sys.executable)
    assert command.hook_program([python, "-m", "memhooks"])[1:2] == ["-S"]
    assert command.hook_program([python, "-m", "othertool"]) == [python, "-m", "othertool"]


def test_the_collector_stays_off_for_a_hook_call_alone_and_every_command_gets_the_shims() -> None:
    # __main__ turns the cyclic collector off on its first line (a hook call's speed:
    # fast/__init__.py); prepare() keeps it off only for a hook call — the MCP server and
    # a history import are long-running commands that must not run without it. Every
    # command loads memhooks' modules through the finder without the import system's
    # locks (bytecode.shortcut: a process that loads threading, as the MCP server does,
    # goes the standard way from then on)
    probe = (
        "import gc, sys; gc.disable(); from memhooks.fast import prepare, bytecode; "
        "import _frozen_importlib as b; standard = b._find_and_load; "
        "print(prepare(sys.argv), gc.isenabled(), b._find_and_load is not standard, "
        "sys.meta_path[0] is bytecode.Finder)"
    )
    for argv, seen in ((["hook", "--agent", "claude-code"], "True False True True"),
                       (["mcp"], "False True True True"),
                       (["hook", "--help"], "False True True True"),
                       (["history", "import"], "False True True True")):  # fmt: skip
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert done.stdout.strip() == seen, (argv, done.stderr[-300:])
    main = Path(command.hook_program()[-1]).read_text(encoding="utf-8")
    assert main.index("gc.disable()") < main.index("import os")  # before os's imports


def test_the_memhooks_command_puts_the_shims_in_place_before_the_cli() -> None:
    # pip's console script calls memhooks.console.main: validate --all, a fresh process
    # in CI and pre-commit, loads its ~80 modules through the finder (bench_engine)
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="memhooks")
    assert script.value == "memhooks.console:main"
    probe = (
        "import sys; sys.argv = ['memhooks', 'hooks', 'list', '--help']\n"
        "from memhooks.console import main\nfrom memhooks.fast import bytecode\n"
        "assert 'memhooks.cli' not in sys.modules\n"
        "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
        "print(code, sys.meta_path[0] is bytecode.Finder, 'memhooks.cli' in sys.modules,"
        " file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert done.stderr.strip().splitlines()[-1] == "0 True True", done.stderr[-300:]
