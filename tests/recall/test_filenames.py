"""Files of the target folder named by the prompt (memhooks.recall.filenames) and how the
runtime hands them to the backend."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from memhooks.backends.fake import FakeBackend
from memhooks.recall import recall
from memhooks.recall.filenames import listing, named_files, stem, tokens

FOLDER = ["session.py", "tokens.py", "oauth_google.py", "oauth_apple.py", "README.md", "Makefile"]


def test_tokens_are_lowercase_alphanumeric_runs_with_plurals_folded() -> None:
    assert tokens("Make login Sessions last longer") == {
        "make",
        "login",
        "session",
        "last",
        "longer",
    }
    assert tokens("t0003-attributes.sh: fix it") == {"t0003", "attribute", "sh", "fix", "it"}
    assert tokens("class access") == {"class", "access"}  # a double s is not a plural


def test_stem_drops_the_last_extension_only() -> None:
    assert [stem(n) for n in ("a.tar.gz", ".gitignore", "Makefile", "x.")] == ["a.tar", ".gitignore", "Makefile", "x"]  # fmt: skip


def test_a_prompt_names_a_file_by_its_words() -> None:
    assert named_files("make login sessions last longer", FOLDER) == {"session.py": 1.0}
    assert named_files("rotate the refresh tokens", FOLDER) == {"tokens.py": 1.0}
    assert named_files("update the makefile", FOLDER) == {"Makefile": 1.0}
    assert named_files("nothing in common here", FOLDER) == {}
    assert named_files("", FOLDER) == {} and named_files("session", []) == {}


def test_a_word_shared_by_many_names_weighs_less() -> None:
    # "oauth" is in two of six names, "google" in one: the prompt word "oauth" alone
    # covers log(1+6/2) of log(1+6/2)+log(1+6/1) — under half, so no file is named.
    assert named_files("fix oauth", FOLDER) == {}
    share = math.log(4) / (math.log(4) + math.log(7))
    assert share < 0.5
    found = named_files("google oauth sign-in", FOLDER)
    assert found == {"oauth_google.py": 1.0}
    assert named_files("google sign-in", FOLDER) == {"oauth_google.py": round(1 - share, 4)}


def test_small_words_of_a_prompt_never_name_a_file() -> None:
    assert named_files("how to do it", ["to.c", "do.c", "it.c"]) == {}


def test_listing_holds_files_only_sorted_and_bounded(tmp_path: Path) -> None:
    for name in ("b.py", "a.py", "c.md"):
        (tmp_path / name).write_text("x")
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "a.py", tmp_path / "link.py")
    os.symlink(tmp_path / "missing", tmp_path / "dangling.py")
    assert listing(str(tmp_path)) == ["a.py", "b.py", "c.md", "link.py"]
    assert listing(str(tmp_path), limit=6) == listing(str(tmp_path))  # 6 entries: all
    assert listing(str(tmp_path), limit=5) == []  # too many to list: none, not some
    assert listing(str(tmp_path / "nowhere")) == []


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    auth = root / "backend" / "auth"
    auth.mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["What constraints apply?"]\n---\n'
    )
    (auth / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["How do tokens rotate?"]\n---\n'
    )
    for name in ("session.py", "tokens.py"):
        (auth / name).write_text("x\n")
    return root


def test_the_runtime_passes_the_target_folders_named_files(project: Path) -> None:
    backend = FakeBackend()
    recall(
        str(project / "backend" / "auth"), prompt="make login sessions last longer", backend=backend
    )
    assert len(backend.requests) == 2
    for request in backend.requests:
        assert request.named_files == {"backend/auth/session.py": 1.0}
        assert request.scopes == ["backend/auth", "backend", ""]


def test_no_prompt_or_no_routing_names_no_files(project: Path) -> None:
    backend = FakeBackend()
    recall(str(project / "backend" / "auth"), backend=backend)
    recall(str(project / "backend" / "auth"), prompt="sessions", routing=False, backend=backend)
    assert backend.requests and all(r.named_files == {} for r in backend.requests)


def test_active_files_reach_the_backend_on_their_own(project: Path) -> None:
    backend = FakeBackend()
    tokens_py = project / "backend" / "auth" / "tokens.py"
    recall(str(project / "backend" / "auth"), prompt="x", files=[str(tokens_py)], backend=backend)
    assert all(r.active_files == ["backend/auth/tokens.py"] for r in backend.requests)


def test_an_active_file_outside_the_project_is_ignored_with_a_note(
    project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x\\n")
    backend = FakeBackend()
    result = recall(
        str(project / "backend" / "auth"),
        prompt="x",
        files=[str(outside), str(project / "backend" / "auth" / "missing.py")],
        backend=backend,
    )
    assert all(r.active_files == [] for r in backend.requests)
    missing = project / "backend" / "auth" / "missing.py"
    assert [n for n in result["notes"] if n.startswith("active file")] == [
        f"active file {str(path)!r} ignored: not a file inside the project root {project}"
        for path in (outside, missing)
    ]


def test_a_prompt_in_a_folder_whose_hooks_ask_nothing_is_still_routed(tmp_path: Path) -> None:
    # Right after `memhooks init` a hook has no queries: the prompt is the only query,
    # and it is routed by the folder like any other.
    root = tmp_path / "proj"
    auth = root / "backend" / "auth"
    auth.mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    (auth / "session.py").write_text("x\n")
    backend = FakeBackend()
    recall(str(auth), prompt="make sessions last longer", backend=backend)
    [request] = backend.requests
    assert request.text == request.prompt == "make sessions last longer"
    assert request.scopes == ["backend/auth", "backend", ""]
    assert request.named_files == {"backend/auth/session.py": 1.0}


def test_words_split_as_the_regular_expression_splits() -> None:
    """recall.wording.words avoids re on the hook path: the split is findall's, exactly."""
    import random
    import re

    from memhooks.recall.wording import words

    pattern = re.compile(r"[^\W_]+")
    rnd = random.Random(11)
    alphabet = "aZ9_-./ \t\n\u00e9\u2014\u2019\u4e2d\u0663\u00b2\u200b"
    samples = ["invoice_totals.py", "some\u2014thing", "caf\u00e9 \u4e2d\u6587", ""]
    samples += ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12))) for _ in range(5000)]
    assert [words(s) for s in samples] == [pattern.findall(s) for s in samples]


def test_a_prompt_names_an_entry_of_a_folder_by_all_its_words(tmp_path: Path) -> None:
    # what makes a prompt not vague for the floor (memhooks.recall.floor.vague):
    # iproute2's "tc: ...", "bridge", "Makefile"
    from memhooks.recall.filenames import names_entry

    for folder in ("tc", "bash-completion", ".git"):
        (tmp_path / folder).mkdir()
    for name in ("Makefile", "README.devel"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    assert names_entry("tc: tidy up the table", [str(tmp_path)])
    assert names_entry("update the makefile", [str(tmp_path)])
    assert names_entry("fix the bash completion", [str(tmp_path)])
    assert names_entry("rewrite the README", [str(tmp_path)])  # its last extension off
    assert not names_entry("fix the bash prompt", [str(tmp_path)])  # one word of two
    assert not names_entry("Tidy up the table", [str(tmp_path)])
    assert not names_entry("the git history", [str(tmp_path)])  # a dot-name is not said
    assert not names_entry("tc: tidy up", [str(tmp_path / "missing")])
