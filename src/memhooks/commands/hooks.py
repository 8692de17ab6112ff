"""``memhooks hooks [list] [--cwd DIR] [--format human|json]`` and ``memhooks hooks share
[PATH ...] [--cwd DIR]``: the project's hook files and whether git has them
(:mod:`memhooks.maintain.local`).

Each hook file is ``shared`` (git tracks it), ``local`` (memhooks made it and keeps it out
of git in this clone), ``new`` (neither: it shows in ``git status``) or, outside a git
work tree, ``not in git``. ``share`` takes local hook files — the named ones (files, or
folders: those below them), else all of the project — out of the exclude block, so they
show in ``git status`` for review; ``git add`` and commit them to give them to everyone.
"""

from __future__ import annotations

import argparse
import json
import os

from .. import git
from ..listing.discover import list_hooks
from ..local_hooks import local_hooks, with_local
from ..maintain.local import share
from ..paths import is_within
from ..protocol.root import resolve_target
from ..terminal import visible

SHARED = "shared"
LOCAL = "local"
NEW = "new"
OUTSIDE = "not in git"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``memhooks hooks`` (``p``: its parser)."""
    acts = p.add_subparsers(dest="action", metavar="ACTION")
    listing = acts.add_parser("list", help="every hook file and whether git has it (the default)")
    share = acts.add_parser("share", help="let git see hook files memhooks made, for review")
    share.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="hook files or folders (default: every local hook file)",
    )
    for q in (p, listing, share):
        q.add_argument(
            "--cwd",
            default=argparse.SUPPRESS,
            metavar="DIR",
            help="a folder of the project (default: .)",
        )
    for q in (p, listing):
        q.add_argument("--format", choices=("human", "json"), default=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    root = resolve_target(getattr(args, "cwd", ".")).root
    if getattr(args, "action", None) == "share":
        return _share(root, args.paths)
    hooks = statuses(root)
    if getattr(args, "format", "human") == "json":
        print(
            json.dumps(
                {"root": root, "hooks": [{"path": p, "status": s} for p, s in hooks]}, indent=2
            )
        )
        return 0

    print(visible(f"memhooks hooks: {len(hooks)} hook file(s) in {root}"))
    for path, status in hooks:
        hint = {LOCAL: "  (made by memhooks, kept out of git: `memhooks hooks share` to commit it)",
                NEW: "  (shows in `git status`)"}.get(status, "")  # fmt: skip
        print(visible(f"  {status:6}  {path}{hint}"))
    return 0


def statuses(root: str) -> list[tuple[str, str]]:
    """``(root-relative path, status)`` of every hook file of the project, sorted."""
    in_git = git.find_repository(root) is not None
    hooks = list_hooks(root, use_git=in_git)
    local = set(local_hooks(root))
    hooks = with_local(root, root, hooks)
    rels = [os.path.relpath(p, root).replace(os.sep, "/") for p in hooks]
    if not in_git:
        return [(rel, OUTSIDE) for rel in rels]
    done = git.run(root, *git.QUOTEPATH, "ls-files", "-z", "--", *rels) if rels else None
    tracked = set(done.stdout.split("\0")) if done is not None and done.returncode == 0 else set()
    return [
        (rel, SHARED if rel in tracked else LOCAL if path in local else NEW)
        for rel, path in zip(rels, hooks)
    ]


def _share(root: str, paths: list[str]) -> int:
    local = local_hooks(root)
    if paths:
        named = [os.path.realpath(p) for p in paths]
        wanted = [h for h in local if any(is_within(h, n) for n in named)]
    else:
        wanted = local
    shared = share(root, wanted)
    if not shared:
        print("memhooks hooks: no local hook file to share" + (" there" if paths else ""))
        return 0
    print(
        f"Shared {len(shared)} hook file(s): git shows them now; review them, then `git add` and commit:"
    )
    for path in shared:
        print(visible(f"  {os.path.relpath(path, root)}"))
    return 0
