"""Remote URLs as earlier project ids: every clone of a repository had the same one, and no
credentials ever get in. (These repositories have no commit: the id is the path, the
normalized ``origin`` URL the alias that older stores used; see test_store_identity.py.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from store_fakes import DATA

from memhooks.store import identify, normalize_remote, project_id

REMOTES = json.loads((DATA / "remotes.json").read_text(encoding="utf-8"))
ORIGIN = "https://github.com/acme/app.git"


def remote_id(root: Path) -> str:
    """The id of ``root`` from its ``origin`` remote (no commit yet: the id itself, with
    the path as the alias whose memories it takes)."""
    identity = identify(str(root))
    assert identity.aliases == (os.path.realpath(root),)
    return identity.id


def make_repo(root: Path, config: str) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text(config, encoding="utf-8")
    return root


def origin_config(url: str) -> str:
    return (
        "[core]\n\trepositoryformatversion = 0\n"
        f'[remote "origin"]\n\turl = {url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'
        "\tfetch = +refs/tags/*:refs/tags/*\n"
    )


@pytest.mark.parametrize(("url", "expected"), REMOTES)
def test_remote_urls_normalize(url: str, expected: str) -> None:
    assert normalize_remote(url, "/work/clone") == expected


def test_credentials_never_reach_the_id(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "app", origin_config("https://bot:ghp_SECRET123@github.com/acme/app")
    )
    assert remote_id(root) == "github.com/acme/app"


def test_ssh_and_https_clones_share_one_id(tmp_path: Path) -> None:
    ssh = make_repo(tmp_path / "one", origin_config("git@github.com:acme/app.git"))
    https = make_repo(tmp_path / "two", origin_config(ORIGIN))
    assert remote_id(ssh) == remote_id(https) == "github.com/acme/app"


def test_a_root_below_the_work_tree_top_gets_its_own_id(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "mono", origin_config(ORIGIN))
    (repo / "packages" / "api").mkdir(parents=True)
    assert remote_id(repo / "packages" / "api") == "github.com/acme/app//packages/api"
    assert remote_id(repo / "packages" / ".." / "packages" / "api") == (
        "github.com/acme/app//packages/api"
    )


def test_without_origin_or_git_the_id_is_the_real_path(tmp_path: Path) -> None:
    upstream_only = make_repo(
        tmp_path / "fork", '[remote "upstream"]\n\turl = https://github.com/other/app\n'
    )
    assert project_id(str(upstream_only)) == os.path.realpath(upstream_only)
    plain = tmp_path / "plain"
    plain.mkdir()
    link = tmp_path / "link"
    link.symlink_to(plain)
    assert project_id(str(link)) == project_id(str(plain)) == os.path.realpath(plain)


def test_git_config_syntax(tmp_path: Path) -> None:
    config = (
        "# comment\n"
        '[remote "originals"]\n\turl = https://wrong.example/one\n'
        '[Remote "origin"] ; section names are case-insensitive\n'
        '\tURL = "git@github.com:acme/app.git" # trailing comment\n'
        '[remote "upstream"]\n\turl = https://wrong.example/two\n'
    )
    assert remote_id(make_repo(tmp_path / "a", config)) == "github.com/acme/app"


def test_linked_worktree_reads_the_common_config(tmp_path: Path) -> None:
    main = make_repo(tmp_path / "main", origin_config(ORIGIN))
    private = main / ".git" / "worktrees" / "feature"
    private.mkdir(parents=True)
    (private / "commondir").write_text("../..\n", encoding="utf-8")
    feature = tmp_path / "feature"
    feature.mkdir()
    (feature / ".git").write_text(f"gitdir: {private}\n", encoding="utf-8")
    assert remote_id(feature) == "github.com/acme/app"


def test_submodule_reads_its_own_config(tmp_path: Path) -> None:
    outer = make_repo(tmp_path / "outer", origin_config(ORIGIN))
    module_dir = outer / ".git" / "modules" / "lib"
    module_dir.mkdir(parents=True)
    (module_dir / "config").write_text(origin_config("git@github.com:acme/lib.git"), "utf-8")
    (outer / "lib").mkdir()
    (outer / "lib" / ".git").write_text("gitdir: ../.git/modules/lib\n", encoding="utf-8")
    assert remote_id(outer / "lib") == "github.com/acme/lib"


def test_a_broken_git_file_falls_back_to_the_path(tmp_path: Path) -> None:
    root = tmp_path / "odd"
    root.mkdir()
    (root / ".git").write_text("gitdir: /nonexistent/place\n", encoding="utf-8")
    assert project_id(str(root)) == os.path.realpath(root)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git executable")
def test_agrees_with_real_git_worktrees(tmp_path: Path) -> None:
    def git(*args: str, cwd: Path) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
            cwd=cwd,
            check=True,
            capture_output=True,
        )

    main = tmp_path / "main"
    main.mkdir()
    git("init", "-q", cwd=main)
    git("remote", "add", "origin", "git@github.com:Acme/App.git", cwd=main)
    git("commit", "-q", "--allow-empty", "-m", "start", cwd=main)
    git("worktree", "add", "-q", str(tmp_path / "wt"), cwd=main)
    worktree, checkout = identify(str(tmp_path / "wt")), identify(str(main))
    assert worktree.id == checkout.id and worktree.id.startswith("git:")
    assert worktree.aliases[0] == checkout.aliases[0] == "github.com/Acme/App"
