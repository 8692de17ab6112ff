"""The recall runtime: exclusions, priority, budget, provenance, honesty about failures."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks.backends.base import Hit, SearchRequest
from memhooks.backends.fake import FakeBackend
from memhooks.errors import BackendError
from memhooks.recall import context, recall, text
from memhooks.recall.result import LABEL
from memhooks.store import MemoryStore, project_id

DATA = json.loads((Path(__file__).parent / "data" / "project.json").read_text(encoding="utf-8"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A git project with a 3-hook chain and a store holding the data file's memories."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    for rel, body in DATA["hooks"].items():
        (root / rel).mkdir(parents=True, exist_ok=True)
        (root / rel / "MEMHOOKS.md").write_text(body, encoding="utf-8")
    for rel in DATA["files"]:
        (root / rel).write_text("x\n", encoding="utf-8")
    store = str(tmp_path / "store.sqlite3")
    monkeypatch.setenv("MEMHOOKS_STORE", store)
    lines = [json.dumps(m) for m in DATA["memories"]]
    with MemoryStore(store) as s:
        s.import_jsonl(project_id(str(root)), lines)
    return root, store


def ids(result: dict) -> list[str]:
    return [m["id"] for m in result["memories"]]


def test_higher_priority_queries_come_first(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(str(root / "svc"))
    assert result["status"] == "ok"
    order = [m["recalled_by"][0]["priority"] for m in result["memories"]]
    weighted = [p for p in order if p is not None]
    assert weighted == sorted(weighted, reverse=True)
    assert order.index(0.9) < order.index(None) if None in order else True
    assert ids(result)[0] == "m-retry"


def test_queries_run_in_priority_order_with_unweighted_last(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(str(root / "svc" / "auth"), roles=["security"])
    assert [q["priority"] for q in result["queries"]] == [1.0, 0.9, 0.3, None]


def test_exclusions_never_leak_through_any_query(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(
        str(root / "svc" / "auth"), prompt="refresh tokens retries idempotent deploys failed"
    )
    found = ids(result)
    # text match, tag match, and the obsolete mark
    assert "m-oauth" not in found and "m-tagged" not in found and "m-old" not in found
    assert "m-rotate" in found and "m-retry" in found
    assert result["dropped"]["excluded"] >= 2


def test_role_filtered_query_is_not_run(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(str(root / "svc" / "auth"), roles=["reviewer"])
    assert "How do refresh tokens rotate?" not in [q["query"] for q in result["queries"]]


def test_provenance_names_query_source_priority_and_score(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(str(root / "svc"))
    memory = next(m for m in result["memories"] if m["id"] == "m-retry")
    assert memory["scope"] == "svc" and memory["kind"] == "decision"
    assert memory["created_at"] == "2025-01-02T03:04:05Z"
    by = memory["recalled_by"][0]
    assert by["query"] == "Why are retries idempotent?"
    assert by["source"] == str(root / "svc" / "MEMHOOKS.md")
    assert by["priority"] == 0.9 and by["score"] > 0


def test_folder_cue_finds_a_memory_the_query_words_miss(project: tuple[Path, str]) -> None:
    root, _ = project
    with_file = recall(
        str(root / "svc" / "auth"), files=[str(root / "svc/auth/tokens.py")], routing=True
    )
    assert "m-rotate" in ids(with_file)


def test_same_store_same_ranking(project: tuple[Path, str]) -> None:
    root, _ = project
    first = recall(str(root / "svc"), prompt="deploys retries")
    second = recall(str(root / "svc"), prompt="deploys retries")
    assert ids(first) == ids(second) and first["queries"][0]["hits"] == second["queries"][0]["hits"]


def test_context_is_labelled_untrusted_and_within_budget(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(str(root / "svc"), budget=600)
    injected = context(result)
    assert injected is not None and injected.startswith(LABEL)
    assert len(injected) <= 600 == result["budget"]["chars"]
    assert result["budget"]["used"] == len(injected)
    assert result["dropped"]["budget"] == len(result["dropped"]["budget_ids"]) > 0


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(st.text(min_size=1, max_size=300).filter(str.strip), min_size=1, max_size=12),
    budget=st.integers(min_value=1, max_value=3000),
)
def test_budget_is_never_exceeded_in_code_points(
    tmp_path_factory: pytest.TempPathFactory, texts: list[str], budget: int
) -> None:
    base = tmp_path_factory.mktemp("budget")
    (base / ".git").mkdir()
    (base / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["q"]\n---\nGuidance é 漢字\n', encoding="utf-8"
    )

    fixed = FakeBackend(lambda request: [Hit(f"id{i}", t, 1.0 / (i + 1)) for i, t in enumerate(texts)])
    result = recall(str(base), backend=fixed, budget=budget)
    injected = context(result)
    assert injected is None or len(injected) <= budget
    if injected:
        json.loads(injected[len(LABEL) :])


def flaky(failing: str) -> FakeBackend:
    """Fails on one query text, answers the others."""

    def answer(request: SearchRequest) -> list[Hit]:
        if request.text == failing:
            raise BackendError("connection refused")
        return [Hit("h-" + request.text, "answer to " + request.text, 1.0)]

    return FakeBackend(answer, name="flaky")


def test_one_failing_query_keeps_the_others(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(str(root / "svc"), backend=flaky("Why are retries idempotent?"))
    statuses = {q["query"]: (q["status"], q["error"]) for q in result["queries"]}
    assert statuses["Why are retries idempotent?"] == ("error", "connection refused")
    assert result["status"] == "ok" and len(result["memories"]) == 2
    assert "query error: Why are retries idempotent?: connection refused" in text(result)


def test_empty_store_says_so(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["q"]\n---\n', encoding="utf-8"
    )
    result = recall(str(tmp_path), store_path=str(tmp_path / "s.sqlite3"))
    assert result["status"] == "empty_store" and result["memories"] == []
    assert context(result) is None
    assert text(result).startswith(
        "memhooks recall: no memories recorded for this project yet (in this store)"
    )


def test_no_hooks_and_no_prompt_recalls_nothing(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    result = recall(str(tmp_path), store_path=str(tmp_path / "s.sqlite3"))
    assert result["status"] == "no_cues" and result["queries"] == []


def test_unknown_backend_is_reported_not_raised(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(str(root), backend="nonesuch")
    assert result["status"] == "no_backend"
    assert "unknown backend 'nonesuch'" in result["notes"][0]


def test_recall_cli_json_and_context(
    project: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    root, _ = project
    assert main(["recall", str(root / "svc"), "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["recall_version"] == "memhooks/recall-v1" and result["backend"] == "embedded"
    assert main(["recall", str(root / "svc"), "--format", "context", "--budget", "400"]) == 0
    out = capsys.readouterr().out.rstrip("\n")
    assert out.startswith(LABEL) and len(out) <= 400


def test_remember_then_recall_and_export(
    project: tuple[Path, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhooks.cli import main

    root, _ = project
    monkeypatch.chdir(root)
    assert (
        main(
            [
                "remember",
                "Payment webhooks arrive out of order",
                "--cwd",
                "svc",
                "--kind",
                "constraint",
                "--file",
                "svc/pay.py",
                "--tag",
                "webhooks",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("Remembered ")
    assert main(["memories", "search", "webhooks order", "--format", "json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["text"] == "Payment webhooks arrive out of order" and hits[0]["scope"] == "svc"
    assert hits[0]["files"] == ["svc/pay.py"]
    out = root / "export.jsonl"
    assert main(["memories", "export", str(out)]) == 0
    exported = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(exported) == len(DATA["memories"]) + 1


@pytest.mark.parametrize(
    "write",
    [
        ["remember", "Deploys now wait for migrations", "--cwd", "svc"],
        ["memories", "forget", "m-deploy", "--cwd", "svc"],
    ],
)
def test_a_write_leaves_the_hooks_searches_ready_for_the_next_recall(
    project: tuple[Path, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    write: list[str],
) -> None:
    from memhooks.backends import embedded_cache
    from memhooks.cli import main
    from memhooks.store import ranking

    root, _ = project
    monkeypatch.chdir(root)
    recall(str(root / "svc"), prompt="deploys")  # the hooks' queries are searched and kept
    assert main(write) == 0
    capsys.readouterr()
    embedded_cache.clear_memory()  # the next recall: a fresh hook process
    searched: list[str] = []
    real = ranking.ranked
    monkeypatch.setattr(ranking, "ranked", lambda *a, **k: searched.append(a[2]) or real(*a, **k))
    after = recall(str(root / "svc"), prompt="deploys")
    assert searched == ["deploys"]  # only the new prompt; the hooks' lists were ready
    monkeypatch.setenv("MEMHOOKS_CACHE", "0")
    assert ids(recall(str(root / "svc"), prompt="deploys")) == ids(after)


def test_remember_refuses_files_outside_the_project(
    project: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    root, _ = project
    assert main(["remember", "x", "--cwd", str(root), "--file", os.devnull]) == 2
    assert "--file must name paths inside the project root" in capsys.readouterr().err


def reflecting(asked: list[str] | None = None) -> FakeBackend:
    """Offers a synthesis only when the query's provider options ask for one."""

    def synthesize(request: SearchRequest) -> str | None:
        if asked is not None:
            asked.append(request.text)
        return "Synthesised: retries are idempotent because of the December incident."

    return FakeBackend(
        lambda request: [Hit("h-" + request.text, "a plain memory about " + request.text, 0.5)],
        name="reflecting",
        synthesize=synthesize,
    )


def test_synthesis_runs_only_when_the_query_asks_and_comes_first(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nrecall_queries:\n"
        "  - query: Why are retries idempotent?\n    backends: {reflecting: {strategy: reflect}}\n"
        "  - Which deploys failed?\n---\n",
        encoding="utf-8",
    )
    asked: list[str] = []
    result = recall(str(tmp_path), backend=reflecting(asked))
    assert asked == ["Why are retries idempotent?"]
    first = result["memories"][0]
    assert first["kind"] == "synthesis" and first["text"].startswith("Synthesised:")
    assert first["id"] == recall(str(tmp_path), backend=reflecting())["memories"][0]["id"]


def test_an_excluded_synthesis_does_not_leak(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nrecall_queries:\n"
        "  - query: Why are retries idempotent?\n    backends: {reflecting: {strategy: reflect}}\n"
        "exclude: [December incident]\n---\n",
        encoding="utf-8",
    )
    result = recall(str(tmp_path), backend=reflecting())
    assert all(m["kind"] != "synthesis" for m in result["memories"])


def test_with_a_prompt_memories_about_files_in_the_folder_rank_first(tmp_path: Path) -> None:
    """The folder is a cue on top of the prompt: equal prompt matches, the one about a
    file in the target folder first (routing on); plain BM25 order without routing."""
    root = tmp_path / "p"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    (root / "net").mkdir()
    (root / "net" / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries:\n  - query: "What prior decisions, constraints, failures, fixes, '
        'rejected approaches, and unresolved issues involve files in this directory? [scope: net]"\n'
        "    tags: [memhooks:auto]\n    resources: [{name: net/a.c, kind: file}]\n---\n",
        encoding="utf-8",
    )
    store = str(tmp_path / "s.sqlite3")
    with MemoryStore(store) as s:
        project = project_id(str(root))
        s.add(
            project,
            "timeout handling rewritten for the parser",
            id="m-elsewhere",
            files=["ui/view.c"],
        )
        s.add(project, "timeout handling rewritten for the socket", id="m-here", files=["net/b.c"])
    on = recall(str(root / "net"), prompt="timeout handling", store_path=store)
    off = recall(str(root / "net"), prompt="timeout handling", store_path=store, routing=False)
    assert ids(on)[0] == "m-here"
    assert ids(off) == ["m-elsewhere", "m-here"]


def test_found_but_nothing_fits_says_over_budget(project: tuple[Path, str]) -> None:
    root, _ = project
    result = recall(str(root / "svc"), budget=50)
    assert result["status"] == "over_budget" and result["memories"] == []
    assert result["dropped"]["budget"] > 0
    assert text(result).startswith(
        f"memhooks recall: found {result['dropped']['budget']} memories, but none fits the budget"
    )


def test_recall_without_a_usable_store_says_why_first_and_exits_1(
    project: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """MH037 at the store's path, as remember and memories say it (newcomer trial:
    recall alone exited 1 with no code)."""
    from memhooks.cli import main

    root, _ = project
    broken = tmp_path / "notes.txt"
    broken.write_text("not a database\n")
    assert main(["recall", str(root / "svc"), "--prompt", "x", "--store", str(broken)]) == 1
    stdout, stderr = capsys.readouterr()
    assert stdout == ""  # said once: a failed recall's report is its diagnostic, on stderr
    assert stderr == (
        f"error[MH037]: the memory store {broken} is not a SQLite database"
        " (SQLite: file is not a database); move the file away or point MEMHOOKS_STORE /"
        f" --store at another path\n  --> {broken}\n"
        "  help: point the setting the message names at a usable file, or move the file away\n"
    )
    assert main(["memories", "list", "--cwd", str(root), "--store", str(broken)]) == 1
    assert capsys.readouterr().err == stderr  # word for word


def test_recall_in_json_keeps_its_result_and_gives_mh037_as_json(
    project: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    root, _ = project
    argv = ["recall", str(root / "svc"), "--prompt", "x", "--store", str(tmp_path), "--format", "json"]
    assert main(argv) == 1
    stdout, stderr = capsys.readouterr()
    assert json.loads(stdout)["status"] == "no_backend"
    [said] = json.loads(stderr)
    assert (said["code"], said["path"]) == ("MH037", str(tmp_path))
    assert said["message"] == f"the memory store path {tmp_path} is a directory; give the path of a file"


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["memories", "list", "--limit", "-1"], "argument --limit: must be from 0 to 1000000000"),
        (["memories", "list", "--limit", "9223372036854775808"], "argument --limit: must be from 0 to 1000000000"),
        (["memories", "search", "x", "--limit", "0"], "argument --limit: must be from 1 to 1000000000"),
        (["recall", ".", "--role", " "], "argument --role: must not be blank"),
        (["recall", ".", "--file", ""], "argument --file: must not be blank"),
        (["remember", "x", "--file", ""], "argument --file: must not be blank"),
    ],
)  # fmt: skip
def test_bad_numbers_and_blank_roles_are_usage_errors_naming_the_flag(
    argv: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    assert main(argv) == 2
    flag = error.split()[1].rstrip(":")  # coded, at the flag (MH044; they said no code)
    command = " ".join(argv[:2] if argv[0] == "memories" else argv[:1])  # the parser's
    said = f"error[MH044]: {error}\n  --> {flag}\n  help: `memhooks {command} --help` says what it takes\n"
    assert capsys.readouterr().err.endswith(said)


def test_near_copies_that_differ_in_punctuation_are_kept_once(tmp_path: Path) -> None:
    from memhooks.recall.merging import Seen

    seen = Seen()
    seen.add("a", "Deploys freeze on Fridays after the March outage")
    assert seen.duplicate_of("b", "Deploys freeze on Fridays after the March outage.") == "a"
    assert seen.duplicate_of("c", "Deploys freeze on Mondays after the March outage") is None


def test_a_reader_never_creates_the_store(
    project: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    root, _ = project
    missing = tmp_path / "typo" / "memories.sqlite3"
    result = recall(str(root / "svc"), prompt="deploys", store_path=str(missing))
    assert result["status"] == "empty_store" and result["memories"] == []
    assert result["notes"][-1] == (
        f"there is no memory store at {missing}; record a memory or import some first"
    )
    assert main(["memories", "list", "--cwd", str(root), "--store", str(missing)]) == 1
    assert "there is no memory store at" in capsys.readouterr().err
    assert not missing.parent.exists()


def test_a_store_that_fails_after_the_queries_keeps_the_result(project: tuple[Path, str]) -> None:
    root, _ = project

    def fails(*args: object) -> list[Hit]:
        raise BackendError("search failed: disk image is malformed")

    def count(project: str) -> int:
        raise BackendError("count failed too")

    result = recall(str(root / "svc"), prompt="x", backend=FakeBackend(fails, count=count))
    assert result["status"] == "failed"
    assert result["notes"][-1] == "could not count the memories: count failed too"


def test_context_format_says_why_on_stderr_when_recall_cannot_run(
    project: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    root, _ = project
    argv = ["recall", str(root / "svc"), "--format", "context", "--store", str(tmp_path)]
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == (
        f"error[MH037]: the memory store path {tmp_path} is a directory; give the path of a file\n"
        f"  --> {tmp_path}\n"
        "  help: point the setting the message names at a usable file, or move the file away\n"
    )


def test_an_empty_file_is_no_store_for_a_reader_and_stays_empty(
    project: tuple[Path, str], tmp_path: Path
) -> None:
    root, _ = project
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    result = recall(str(root / "svc"), prompt="deploys", store_path=str(empty))
    assert result["status"] == "empty_store" and empty.stat().st_size == 0


def test_a_bad_import_file_creates_no_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    (tmp_path / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "fine"}\n{"nope": 1}\n', encoding="utf-8")
    store = tmp_path / "new.sqlite3"
    assert (
        main(["memories", "import", str(bad), "--cwd", str(tmp_path), "--store", str(store)]) == 1
    )
    assert capsys.readouterr().err.startswith(
        f"error[MH045]: missing `text`; every memory needs its text\n  --> {bad}:2:1\n"
    )
    assert not store.exists()


def test_a_memory_that_is_not_there_is_an_argument_that_names_nothing(
    project: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # It was exit 1 with an uncoded `error:` (newcomer #4 asked for "not a usage error");
    # MH044 now names an argument that names nothing (`sessions show nope`), exit 2: one rule
    from memhooks.cli import main

    root, store = project
    for action in ("show", "forget"):
        assert main(["memories", action, "nope", "--cwd", str(root), "--store", store]) == 2
        assert "error[MH044]: no memory 'nope' in project" in capsys.readouterr().err


def test_duplicates_are_counted_once_per_memory(tmp_path: Path) -> None:
    root = tmp_path / "p"
    (root / ".git").mkdir(parents=True)
    for rel, query in (("", "quokka values"), ("a", "quokka plain")):
        (root / rel).mkdir(exist_ok=True)
        (root / rel / "MEMHOOKS.md").write_text(
            f'---\nschema: memhooks/v2\nrecall_queries: ["{query}"]\n---\n'
        )
    store = str(tmp_path / "s.sqlite3")
    with MemoryStore(store) as s:
        s.import_jsonl(
            project_id(str(root)),
            ['{"text": "quokka plain value"}', '{"text": "quokka plain value!"}'],
        )
    result = recall(str(root / "a"), prompt="quokka", store_path=store)
    assert len(result["memories"]) == 1 and result["dropped"]["duplicates"] == 1


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["remember", "bad \udcff byte"], "`text` is not valid Unicode at character 5"),
        (["remember", "ok", "--tag", "t\udcff"], "`tags` is not valid Unicode at character 2"),
        (["memories", "show", "id\udcff"], "is not valid Unicode at character 3"),
    ],
)
def test_command_line_bytes_that_are_not_utf8_are_an_error_not_a_traceback(
    project: tuple[Path, str], capsys: pytest.CaptureFixture[str], argv: list[str], error: str
) -> None:
    # Python hands non-UTF-8 argv bytes over as lone surrogates (surrogateescape).
    from memhooks.cli import main

    root, store = project
    assert main([*argv, "--cwd", str(root), "--store", store]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and error in err and "Traceback" not in err


def test_recall_searches_only_the_bounded_start_of_a_huge_prompt(tmp_path: Path) -> None:
    # The CLI's --prompt and the MCP tool pass a prompt straight in: a pasted megabyte is
    # cut as the hook cuts it (protocol.text.bound_prompt), so time and memory stay bounded.
    from memhooks.protocol.text import MAX_PROMPT_CHARS, bound_prompt

    (tmp_path / ".git").mkdir()
    (tmp_path / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nrecall_queries: [Which deploys failed?]\n---\n", encoding="utf-8"
    )
    backend = FakeBackend()
    huge = "why did the deploy fail " * 50_000
    recall(str(tmp_path), prompt=huge, backend=backend)
    cut = bound_prompt(huge)
    assert MAX_PROMPT_CHARS - 30 < len(cut) <= MAX_PROMPT_CHARS and huge.startswith(cut)
    assert backend.requests and {r.prompt for r in backend.requests} == {cut}
    small = FakeBackend()
    recall(str(tmp_path), prompt="why did the deploy fail", backend=small)
    assert [r.prompt for r in small.requests] == ["why did the deploy fail"]
