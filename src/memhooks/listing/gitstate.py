"""The git facts a hook listing depends on besides the folders it walked (for
:mod:`memhooks.listing.cache`): which files git reads its rules and state from, and
which folders it ignores as a whole.

Two small git calls are started at once (``rev-parse`` for the index, ``info/exclude``
and the top level; ``config --show-origin`` for every configuration file read, includes
too) and read by :meth:`GitState.files`; :meth:`GitState.ignored` runs one more
(``ls-files --others --ignored --directory``) only when asked.
"""

from __future__ import annotations

import os

from .. import git

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..child import Child


class GitState:
    """Git's state for listing ``directory``; see the module docstring."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.calls = [
            self._start(["rev-parse", "--path-format=absolute", "--show-toplevel",
                         "--git-dir", "--git-common-dir", "--git-path", "index",
                         "--git-path", "info/exclude"]),
            self._start(["config", "-z", "--list", "--show-origin"]),
        ]  # fmt: skip

    def _start(self, argv: list[str]) -> Child | None:
        try:
            return git.spawn(self.directory, *argv)
        except OSError:
            return None

    @staticmethod
    def _output(process: Child | None) -> str | None:
        if process is None:
            return None
        try:
            return process.output((0,))
        except OSError:  # past the deadline
            process.end()
            return None

    def close(self) -> None:
        """End the calls still running (the listing is not going to be saved)."""
        for process in self.calls:
            if process is not None:
                try:
                    process.end()
                except OSError:
                    pass

    def ignored(self) -> set[str] | None:
        """Absolute paths of the folders git ignores as a whole, or None when git cannot
        answer."""
        out = self._output(
            self._start(["-c", "core.quotepath=off", "ls-files", "-z", "--others",
                         "--ignored", "--exclude-standard", "--directory"])
        )  # fmt: skip
        if out is None:
            return None
        return {
            os.path.normpath(os.path.join(self.directory, name))
            for name in out.split("\0")
            if name.endswith("/")
        }

    def files(self) -> list[str] | None:
        """The files (and folders above the listed one) whose stats the listing depends
        on besides the walked folders — present or not — or None when that cannot be
        known (git failed, or configuration came from somewhere other than a file)."""
        paths_out, config_out = (self._output(process) for process in self.calls)
        if paths_out is None or config_out is None:
            return None
        paths = paths_out.split("\n")
        if len(paths) < 5:
            return None
        top, git_dir, common_dir, index, exclude = paths[:5]
        files = [index, exclude]
        excludes_file = None
        entries = config_out.split("\0")
        for origin, entry in zip(entries[0::2], entries[1::2]):
            if not origin.startswith("file:"):
                return None  # blobs, stdin, `git -c` in GIT_CONFIG_PARAMETERS: no file to check
            files.append(os.path.join(self.directory, origin[5:]))
            name, _, value = entry.partition("\n")
            if name.lower() == "core.excludesfile":
                excludes_file = os.path.expanduser(value)
        home = os.environ.get("HOME") or os.path.expanduser("~")
        config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        if excludes_file is None:
            excludes_file = os.path.join(config_home, "git", "ignore")
        files.append(os.path.join(self.directory, excludes_file))
        # where a configuration file could appear (git-config(1) FILES)
        files += [
            os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig",
            os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig"),
            os.path.join(config_home, "git", "config"),
            os.path.join(common_dir, "config"),
            os.path.join(git_dir, "config.worktree"),
        ]
        # folders from the top level down to the listed one: their .gitignore files
        # apply too, and a new one there changes the folder
        here = os.path.normpath(self.directory)
        top = os.path.normpath(top)
        while here != top and here.startswith(top.rstrip("/") + "/"):
            here = os.path.dirname(here)
            files += [here, os.path.join(here, ".gitignore")]
        return files
