"""The benchmark's clone, its history import at the split and the hook as installed, kept
in a work folder outside the repository so a second run starts where the first left.

Layout of ``WORK`` (one work folder per repository)::

    WORK/clone/                       git clone of the repository (the sessions' root)
    WORK/imports/SPLIT-CODE/          memories.sqlite3 + import.json: `memhooks history
                                      import` at SPLIT by the memhooks whose history and
                                      store code hash to CODE
    WORK/runs/LABEL/                  one run: meta.json, results.jsonl (one line per
                                      task, appended as each ends), home/ (the hook's HOME)

Everything runs the product's own commands (``memhooks init``, ``history import``,
``agents install``, ``memories export``) with a sandboxed ``HOME``: nothing here knows
how the store or the installed settings are laid out beyond what those commands write.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator

from repo_session import git

BIN = os.path.dirname(sys.executable)
#: What ``git clean`` keeps between tasks: the project's root hook and the installed
#: host settings (both written once by the product, not by the task).
KEEP = ("/MEMHOOKS.md", "/.claude")


def sandbox_env(home: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A user's environment with ``home`` as HOME: no ``MEMHOOKS_*`` or ``XDG_*`` of
    ours leaks in, so every default (store, state, settings) is under ``home``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MEMHOOKS_", "XDG_", "CLAUDE_"))}  # fmt: skip
    env["HOME"] = home
    env.update(extra or {})
    os.makedirs(home, exist_ok=True)
    return env


def memhooks(args: list[str], env: dict[str, str], cwd: str) -> str:
    """Standard output of the ``memhooks`` command of this interpreter's environment."""
    done = subprocess.run([os.path.join(BIN, "memhooks"), *args], env=env, cwd=cwd,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(
            f"memhooks {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}"
        )
    return done.stdout


def code_hash(*parts: str) -> str:
    """12 hex digits over the memhooks package's ``.py`` files under ``parts`` (all of
    it when none): which import (or which hook) a cached result came from."""
    import memhooks

    top = os.path.dirname(memhooks.__file__)
    digest = hashlib.sha256()
    for part in parts or ("",):
        for folder, dirs, names in sorted(os.walk(os.path.join(top, part))):
            dirs.sort()
            for name in sorted(n for n in names if n.endswith(".py")):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, top).encode() + b"\0")
                with open(path, "rb") as fp:
                    digest.update(fp.read())
    return digest.hexdigest()[:12]


def clone(work: str, repo: str) -> str:
    """``WORK/clone``, cloned from ``repo`` (a repository or a bundle) when missing.

    The clone names no commit later than the one checked out: its only ref is its
    branch (``main``), which :func:`checkout` moves to each task's parent, with no
    remote-tracking refs, tags or reflogs (an agent working at the parent has no ref to
    the future, whatever ``git log --all`` the product runs). The later commits stay in
    the object store for the tasks that check them out by hash (``gc.auto 0``: git
    never prunes them).
    """
    root = os.path.realpath(os.path.join(work, "clone"))
    if not os.path.isdir(os.path.join(root, ".git")):
        os.makedirs(work, exist_ok=True)
        shutil.rmtree(root + ".tmp", ignore_errors=True)
        subprocess.run(["git", "clone", "-q", "--no-checkout", repo, root + ".tmp"], check=True)
        for key, value in (("gc.auto", "0"), ("core.logAllRefUpdates", "false")):
            git(root + ".tmp", "config", key, value)
        git(root + ".tmp", "remote", "remove", "origin")
        git(root + ".tmp", "remote", "add", "origin", repo)  # the remote, none of its refs
        branch = git(root + ".tmp", "symbolic-ref", "HEAD").decode().strip()
        for ref in git(root + ".tmp", "for-each-ref", "--format=%(refname)").decode().split():
            if ref != branch:
                git(root + ".tmp", "update-ref", "-d", ref)
        shutil.rmtree(os.path.join(root + ".tmp", ".git", "logs"), ignore_errors=True)
        os.replace(root + ".tmp", root)  # a clone interrupted half-way is redone
    return root


@contextlib.contextmanager
def lock(work: str) -> Iterator[None]:
    """Hold ``WORK/lock``: a second run on the same work folder is an error, not a
    clone checked out under the first one's feet."""
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "lock"), "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"another run is using {work}") from None
        yield


def checkout(root: str, commit: str, hook: str | None = None) -> None:
    """The clone's branch (its only ref: :func:`clone`) at ``commit``, checked out with
    nothing else in the tree (the last task's edits and anything the hook wrote are
    gone) but the project's root hook, rewritten as ``hook``."""
    branch = git(root, "symbolic-ref", "--short", "HEAD").decode().strip()
    git(root, "checkout", "-q", "-f", "-B", branch, commit)
    git(root, "clean", "-fdq", *(f"-e{p}" for p in KEEP))
    if hook is not None:
        with open(os.path.join(root, "MEMHOOKS.md"), "w", encoding="utf-8") as fp:
            fp.write(hook)


def imported(work: str, root: str, split: str) -> tuple[str, dict]:
    """(store file, import report) of ``memhooks history import`` at ``split``, run once
    per split and memhooks history/store code; ``memhooks init`` enables the project
    first, as a user does."""
    folder = os.path.join(work, "imports", f"{split[:12]}-{code_hash('history', 'store')}")
    store = os.path.join(folder, "memories.sqlite3")
    report_file = os.path.join(folder, "import.json")
    if os.path.exists(report_file):
        with open(report_file, encoding="utf-8") as fp:
            return store, json.load(fp)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    env = sandbox_env(os.path.join(folder, "home"))
    checkout(root, split)
    if not os.path.exists(os.path.join(root, "MEMHOOKS.md")):
        memhooks(["init"], env, root)
    report = json.loads(
        memhooks(["history", "import", "--store", store, "--format", "json"], env, root)
    )
    report["future_commits"] = len(future(root, split, exported(store, env, root)))
    with open(report_file + ".tmp", "w", encoding="utf-8") as fp:
        json.dump(report, fp, indent=2)
    os.replace(report_file + ".tmp", report_file)  # written last: its presence means done
    return store, report


def exported(store: str, env: dict[str, str], root: str) -> list[dict]:
    """Every memory of ``store`` as ``memhooks memories export`` writes it."""
    out = memhooks(["memories", "export", "--store", store], env, root)
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def future(root: str, split: str, memories: list[dict]) -> list[str]:
    """Ids of the memories whose commit is not in ``split``'s history (none, or the
    store knows what an agent at the split could not)."""
    known = set(git(root, "rev-list", split).decode().split())
    return [m["id"] for m in memories
            if m.get("source", "").startswith("git:") and m["source"][4:] not in known]  # fmt: skip


def install(root: str, env: dict[str, str]) -> list[dict]:
    """``memhooks agents install --agent claude-code --project`` in ``root`` (afresh);
    the handlers it wrote: ``[{event, matcher, command, timeout}]``."""
    shutil.rmtree(os.path.join(root, ".claude"), ignore_errors=True)
    memhooks(["agents", "install", "--agent", "claude-code", "--project"], env, root)
    with open(os.path.join(root, ".claude", "settings.local.json"), encoding="utf-8") as fp:
        settings = json.load(fp)
    handlers = []
    for event, groups in settings.get("hooks", {}).items():
        for group in groups:
            for hook in group.get("hooks", []):
                if hook.get("type") == "command":
                    handlers.append({"event": event, "matcher": group.get("matcher") or "",
                                     "command": hook["command"], "timeout": hook.get("timeout", 600)})  # fmt: skip
    return handlers
