"""The store's commands as a user meets them: an interrupted or killed import, an empty
file, an unenabled folder, long lists, one spelling of ``--format``."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from memhooks.cli import main
from memhooks.store import MemoryStore, project_id
from memhooks.store.connection import CommittedInterrupt, write

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An enabled project (a root hook, no git) with a folder ``src``."""
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    return project


def lines_file(path: Path, count: int) -> Path:
    path.write_text("".join(json.dumps({"text": f"fact {n}"}) + "\n" for n in range(count)))
    return path


# -- item 15: Ctrl-C -----------------------------------------------------------------


def test_ctrl_c_during_the_import_transaction_imports_nothing(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.store import rows

    store = tmp_path / "s.sqlite3"
    data = lines_file(tmp_path / "in.jsonl", 5)
    real_insert, calls = rows.insert, []

    def insert_then_interrupt(conn: sqlite3.Connection, memory: object) -> None:
        real_insert(conn, memory)  # type: ignore[arg-type]
        calls.append(1)
        if len(calls) == 3:  # SIGINT arrives as this exception, here mid-transaction
            raise KeyboardInterrupt

    monkeypatch.setattr(rows, "insert", insert_then_interrupt)
    argv = ["memories", "import", str(data), "--cwd", str(root), "--store", str(store)]
    assert main(argv) == 130
    assert capsys.readouterr() == ("", "interrupted; nothing imported\n")
    with MemoryStore(store) as opened:
        assert opened.count(project_id(str(root))) == 0  # the three inserted rows rolled back


def test_sigint_while_reading_the_input_is_one_line_and_exit_130(
    root: Path, tmp_path: Path
) -> None:
    store = tmp_path / "s.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "memhooks", "memories", "import", "-", "--cwd", str(root),
         "--store", str(store)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # A test run started in the background by a shell without job control ignores
        # SIGINT, and a child inherits that (Python then installs no handler): restore
        # the default so the child is interrupted as in a terminal.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509  (no threads started yet)
    )  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write(b'{"text": "half of the input"}\n')
    proc.stdin.flush()
    wchan = Path(f"/proc/{proc.pid}/wchan")
    deadline = time.monotonic() + 30
    try:
        # Blocked reading the pipe = inside the import, past interpreter start-up.
        while "pipe" not in (wchan.read_text() if wchan.exists() else ""):
            if time.monotonic() > deadline or not wchan.exists():
                pytest.skip("cannot see where the process waits (/proc/PID/wchan)")
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (130, b"", b"interrupted; nothing imported\n")
    assert not store.exists()


def test_an_interrupt_that_lands_after_the_commit_is_not_called_a_rollback(
    tmp_path: Path,
) -> None:
    class InterruptAfterCommit(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            cursor = super().execute(sql, *args)
            if sql == "COMMIT":
                raise KeyboardInterrupt  # what Python does when SIGINT came during COMMIT
            return cursor

    path = str(tmp_path / "x.sqlite3")
    conn = sqlite3.connect(path, isolation_level=None, factory=InterruptAfterCommit)
    conn.execute("CREATE TABLE t (x)")
    with pytest.raises(CommittedInterrupt):
        write(conn, path, 1.0, lambda c: c.execute("INSERT INTO t VALUES (1)"))
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 1  # it was written
    conn.close()


# -- item 5: a 0-byte or schema-less file is a new store ------------------------------


@pytest.mark.parametrize("action", [["list"], ["search", "fact"], ["export"]])
def test_a_zero_byte_store_reads_as_empty_and_stays_untouched(
    root: Path, tmp_path: Path, action: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    store.write_bytes(b"")  # what a killed first import can leave
    assert main(["memories", *action, "--cwd", str(root), "--store", str(store)]) == 0
    assert capsys.readouterr() == ("", "")
    assert store.stat().st_size == 0 and sorted(os.listdir(tmp_path)) == ["proj", "s.sqlite3"]


def test_a_sqlite_file_without_a_schema_reads_as_empty_then_takes_the_first_write(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    conn = sqlite3.connect(store)
    conn.execute("PRAGMA journal_mode=WAL")  # a header, no tables, user_version 0
    conn.close()
    before = store.read_bytes()
    assert main(["memories", "list", "--cwd", str(root), "--store", str(store)]) == 0
    assert capsys.readouterr() == ("", "") and store.read_bytes() == before
    assert main(["remember", "kept", "--cwd", str(root / "src"), "--store", str(store)]) == 0
    assert main(["memories", "list", "--cwd", str(root), "--store", str(store)]) == 0
    assert "[src]" in capsys.readouterr().out.splitlines()[-1]


def test_a_reader_handle_on_a_zero_byte_file_writes_into_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    path.write_bytes(b"")
    with MemoryStore(path, create=False) as store:
        assert store.vacant and store.list("p") == []
        store.add("p", "written through a reader handle")
        assert not store.vacant
    with MemoryStore(path, create=False) as store:
        assert [m.text for m in store.list("p")] == ["written through a reader handle"]


def test_a_missing_store_is_still_an_error_for_readers(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.sqlite3"
    assert main(["memories", "list", "--cwd", str(root), "--store", str(missing)]) == 1
    assert capsys.readouterr().err == (  # MH037 at the store's path; the message says what to do
        f"error[MH037]: there is no memory store at {missing}; record a memory or import some first\n"
        f"  --> {missing}\n"
    )
    assert not missing.exists()


# -- item 14: one enablement rule for writes -------------------------------------------


@pytest.mark.parametrize("command", ["remember", "import"])
def test_writes_refuse_a_folder_that_is_not_enabled(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    store = tmp_path / "s.sqlite3"
    data = lines_file(tmp_path / "in.jsonl", 1)
    argv = (
        ["remember", "x", "--cwd", str(plain)]
        if command == "remember"
        else ["memories", "import", str(data), "--cwd", str(plain)]
    )
    assert main([*argv, "--store", str(store)]) == 1
    assert capsys.readouterr().err == (
        f"error[MH013]: MemHooks is not enabled at the project root `{plain}`\n"
        f"  --> {plain}/MEMHOOKS.md\n"  # missing: no line and column
        "  help: run `memhooks init` at the project root to enable MemHooks\n"
    )  # word for word what `note` says there
    assert main(["note", "--query", "q", "--cwd", str(plain)]) == 1
    assert "MemHooks is not enabled" in capsys.readouterr().err
    assert not store.exists()


@pytest.mark.parametrize("text", ["", "   "])
def test_a_blank_memory_is_a_usage_error_at_its_argument(
    text: str, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # newcomer30: exit 1 and `error: cannot record the memory: ...` with no code, where
    # `explain --role ''` is MH044 at the argument; nothing is opened or written
    store = root / "blank.sqlite3"
    assert main(["remember", text, "--cwd", str(root), "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert "error[MH044]: argument text: must not be blank\n  --> text\n" in err
    assert not store.exists()


@pytest.mark.parametrize(
    ("argv", "help_of"),
    [(["remember", "x", "--cwd"], "remember"), (["history", "import"], "history import")],
)
def test_writes_refuse_a_store_file_for_another_backend_at_the_flag(
    root: Path, tmp_path: Path, argv: list[str], help_of: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # one rule for both write commands (commands.remember.written), said at --store
    store = tmp_path / "s.sqlite3"
    assert main([*argv, str(root), "--backend", "mem0", "--store", str(store)]) == 2
    assert capsys.readouterr().err == (
        "error[MH044]: --store names an embedded store file, but the backend is mem0\n"
        "  --> --store\n"
        f"  help: `memhooks {help_of} --help` says what it takes\n"
    )
    assert not store.exists()


def test_remember_refuses_a_project_whose_root_hook_is_invalid(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\ntags: 3\n---\n", "utf-8")
    store = tmp_path / "s.sqlite3"
    assert main(["remember", "x", "--cwd", str(root), "--store", str(store)]) == 1
    assert capsys.readouterr().err.startswith("error[MH000]: `tags` must be a list")
    assert not store.exists()


# -- item 17: lists that say they are cut, one --format vocabulary ---------------------


def test_a_cut_list_says_how_many_there_are(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite3"
    data = lines_file(tmp_path / "in.jsonl", 5)
    assert main(["memories", "import", str(data), "--cwd", str(root), "--store", str(store)]) == 0
    capsys.readouterr()
    base = ["memories", "list", "--cwd", str(root), "--store", str(store)]
    assert main([*base, "--limit", "2"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2
    assert err == "memhooks: showing the newest 2 of 5 memories; --limit 0 lists them all\n"
    assert main([*base, "--limit", "2", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert len(json.loads(out)) == 2 and "2 of 5" in err  # stdout stays one JSON array
    for limit in ("5", "0"):
        assert main([*base, "--limit", limit]) == 0
        out, err = capsys.readouterr()
        assert len(out.splitlines()) == 5 and err == ""
    assert main([*base, "--limit", "1", "--scope", "."]) == 0
    assert "1 of 5" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["memories", "list"],
        ["memories", "search", "fact"],
        ["recall", ".", "--prompt", "fact"],
        ["backends", "list"],
    ],
)
def test_format_text_is_the_old_spelling_of_human(
    root: Path, tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    store = tmp_path / "s.sqlite3"
    data = lines_file(tmp_path / "in.jsonl", 2)
    assert main(["memories", "import", str(data), "--cwd", str(root), "--store", str(store)]) == 0
    monkeypatch.chdir(root)
    extra = [] if argv[0] == "backends" else ["--store", str(store)]
    outputs = []
    for spelling in ([], ["--format", "human"], ["--format", "text"]):
        capsys.readouterr()
        assert main([*argv, *extra, *spelling]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2] and outputs[0]


def test_every_format_option_offers_human_not_text() -> None:
    from memhooks.parser import build_parser

    def options(parser: object) -> list[tuple[str, tuple[str, ...]]]:
        import argparse

        assert isinstance(parser, argparse.ArgumentParser)
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += [(f"{name} {n}", c) for n, c in options(sub)]
            elif "--format" in action.option_strings:
                found.append(("", tuple(action.choices or ())))
        return found

    formats = options(build_parser())
    assert len(formats) >= 12
    assert all("human" in choices and "text" not in choices for _, choices in formats), formats


# -- item 17: validate --strict fails on warnings ---------------------------------------


def test_validate_strict_fails_on_a_warning(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\ncolour: red\n---\n", "utf-8")
    assert main(["validate", str(root)]) == 0  # warnings never fail without --strict
    assert "warning[MH002]" in capsys.readouterr().out
    assert main(["validate", str(root), "--strict"]) == 1
    assert "warning[MH002]" in capsys.readouterr().out
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, "utf-8")
    assert main(["validate", str(root), "--strict"]) == 0


def test_the_mcp_remember_tool_follows_the_same_enablement_rule(tmp_path: Path) -> None:
    from memhooks.errors import MemhooksError
    from memhooks.mcp import tools

    plain = tmp_path / "plain"
    plain.mkdir()
    store = tmp_path / "s.sqlite3"
    with pytest.raises(MemhooksError, match="MH013 MemHooks is not enabled at the project root"):
        tools.remember("x", str(plain), store_path=str(store))
    assert not store.exists()


def test_ctrl_c_in_any_command_is_one_line_and_exit_130(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks import validation as lint

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(lint, "collect", interrupted)
    from memhooks.commands import validate

    monkeypatch.setattr(validate, "collect", interrupted)
    assert main(["validate", str(root)]) == 130
    assert capsys.readouterr() == ("", "interrupted\n")


# -- newcomer13: a bad line of an import file is a coded diagnostic --------------------


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_a_bad_import_line_is_mh045_at_its_line_and_column_and_nothing_is_imported(
    root: Path, tmp_path: Path, source: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """It printed ``error: FILE:2: `text` must be a string, got a number``: no code, no
    column, nothing to do beyond the line."""
    store = tmp_path / "s.sqlite3"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "fine"}\n{"tags": [], "text": 7}\n', encoding="utf-8")
    if source == "stdin":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(bad.read_bytes())))
    named = str(bad) if source == "file" else "-"
    assert main(["memories", "import", named, "--cwd", str(root), "--store", str(store)]) == 1
    place = str(bad) if source == "file" else "<stdin>"
    assert capsys.readouterr().err == (
        "error[MH045]: `text` must be a string, got a number\n"
        f"  --> {place}:2:14\n"
        "  help: write one JSON object a line with a non-blank `text`; the other fields are"
        " optional, as `memhooks memories export` writes them (docs/cli.md); nothing of the"
        " file was imported\n"
    )
    assert not store.exists()  # every line is checked before the store is opened


@pytest.mark.parametrize(
    ("named", "message"),
    [
        ("nonexist.jsonl", "the memory file does not exist"),
        (".", "the memory file is a folder, not a file"),
    ],
)
def test_an_import_file_that_is_not_there_is_mh024_and_says_what_to_name(
    root: Path, tmp_path: Path, named: str, message: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """It printed ``error: No such file or directory: nonexist.jsonl`` (``Is a directory:
    .``): no code, no place, nothing to do (newcomer14)."""
    store = tmp_path / "s.sqlite3"
    monkeypatch.chdir(root)
    assert main(["memories", "import", named, "--store", str(store)]) == 1
    assert capsys.readouterr().err == (
        f"error[MH024]: {message}\n"
        f"  --> {named}\n"
        "  help: name a JSON Lines file of memories (`memhooks memories export` writes one),"
        " or - for stdin\n"
    )
    assert not store.exists()
