"""Canonical target and project-root discovery (``shared/spec/reference-engine.md`` (c)).

:func:`resolve_target` is the one entry every command and the agent hook use. The rule
(issue 13 item 2): **the root is found from the path as given; nothing outside the
canonical root is ever read as a hook or written.** The folders above the target are
walked as the caller named them (``A/vendor`` stays below ``A`` even when ``vendor`` is a
symlink), the root found is canonicalized, and the canonical target must lie inside it:
a target whose symlinks lead out of its project is MH029, never a licence to read or
write the hooks of wherever the link points. A path whose names lie in no project at
all (no ``.git``, no hook above it) has nothing to escape from: its root is found from
where it really is, so a link from outside into a checkout keeps working.

Root selection, first match wins:

1. ``MEMHOOKS_ROOT``, when it names a readable directory that contains the target (seed
   000, "canonical root semantics": it wins *when it contains the target*); it may lie
   above a git root or below one. Otherwise it is ignored and the rules below apply: a
   variable exported for one project must not switch memory off in every other (issue
   22 item 6). Ignoring it is never silent: a :class:`~memhooks.errors.MemhooksWarning`
   says why, which the CLI prints on stderr and the agent hook leaves out;
2. the nearest ancestor-or-self holding a ``.git`` entry — a directory, or a file as in
   worktrees and submodules — which is a hard boundary for reading and writing;
3. outside git, the highest ancestor-or-self holding any ``MEMHOOKS.md`` entry, never the
   user's home directory or above it (a stray ``~/MEMHOOKS.md`` must not capture every
   non-git folder; reference weakness (l)10);
4. the target directory itself.

An ancestor that cannot be examined (permission denied) ends the upward search there.
The chosen root comes with the reason it was chosen, for ``explain``.
"""

from __future__ import annotations

import os
import stat

# memhooks.errors only to raise or warn (its classes: ~1 M instructions a hook call)
from ..git import marker
from ..paths import is_within, relative, resolved
from . import HOOK_NAME, UNSAFE

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..errors import DiagnosticError

REASON_ENV = "MEMHOOKS_ROOT"
REASON_GIT = "git"
REASON_HOOK = "highest hook"
REASON_TARGET = "target directory"


class Target:
    """A canonical target: ``target`` (absolute path as given, canonicalized),
    ``directory`` (the target, or its parent for a file), ``root`` and ``reason``."""

    __slots__ = ("directory", "reason", "root", "target")

    def __init__(self, target: str, directory: str, root: str, reason: str) -> None:
        self.target = target
        self.directory = directory
        self.root = root
        self.reason = reason

    def __repr__(self) -> str:
        return f"Target({self.target!r}, root={self.root!r}, reason={self.reason!r})"


def canonical(path: str, what: str = "target") -> str:
    """``path`` with every symlink followed (``realpath``), which must exist; MH024
    in plain words otherwise: ``the <what> does not exist``, ``… is a symlink to a path
    that does not exist``, or ``… cannot be reached: <why>`` (a folder on the way that
    may not be searched, a symlink loop)."""
    if ".." not in path.split(os.sep):  # (strict refuses "a/missing/..": left to it)
        try:  # the kept form (a hook process, memhooks.paths), each part of it there
            os.stat(real := resolved(path))
            return real
        except OSError:
            pass
    try:
        return os.path.realpath(path, strict=True)
    except OSError as exc:
        named = what if what.startswith(("the ", "-")) else f"the {what}"
        from ..errors import fail

        raise fail("MH024", f"{named} {_unreachable(path, exc)}", path) from None


def _unreachable(path: str, exc: OSError) -> str:
    """Why ``realpath(path, strict=True)`` failed, as the end of a sentence."""
    import errno

    if exc.errno == errno.ENOENT:
        if os.path.islink(path):
            return "is a symlink to a path that does not exist"
        return "does not exist"
    return f"cannot be reached: {exc.strerror or exc}"


def _lstat(path: str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def resolve_target(
    target: str, env: Mapping[str, str] | None = None, what: str = "target"
) -> Target:
    """Canonicalize ``target`` and find its project root by the module's rule.

    ``target`` is a file or directory as the user or host named it (absolute, or
    relative to the process directory); ``what`` names it in the MH024 message
    (``target``, ``event cwd``). This is the function every command, the agent hook and
    hook maintenance call; nothing else should pick a root.

    Raises DiagnosticError: MH024 for a missing target; MH029 for a
    ``MEMHOOKS.md`` target that is not a regular file, a target that is neither a regular
    file nor a directory, or a target whose symlinks lead out of its project root.
    """
    env = os.environ if env is None else env
    if os.path.basename(os.path.normpath(target)) == HOOK_NAME:
        st = _lstat(target)
        if st is not None and not stat.S_ISREG(st.st_mode):
            from ..errors import fail

            raise fail("MH029", UNSAFE, target)
    real = canonical(target, what)
    given = os.path.abspath(target)
    st = os.stat(real)
    if stat.S_ISDIR(st.st_mode):
        directory, given_dir = real, given
    elif stat.S_ISREG(st.st_mode):
        directory, given_dir = os.path.dirname(real), os.path.dirname(given)
    else:
        from ..errors import fail

        raise fail("MH029", "target is not a regular file or directory", target)
    explicit = env_root(env)
    if explicit is not None:
        if is_within(directory, explicit):
            return Target(real, directory, explicit, REASON_ENV)
        if is_within(given_dir, explicit) or is_within(
            given_dir, os.path.abspath(env["MEMHOOKS_ROOT"])
        ):
            raise _outside(target, real, explicit)
    root, reason = _discover(given_dir, env)
    if reason == REASON_TARGET and given_dir != directory:
        # the path as named lies in no project: nothing to escape from, so the project
        # is wherever it really is (a link from outside into a checkout keeps working)
        root, reason = _discover(directory, env)
    if not is_within(directory, root):
        raise _outside(target, real, root)
    if explicit is not None:
        _ignored(f"`{explicit}` does not contain the {what} `{real}`", root, reason)
    return Target(real, directory, root, reason)


def enabled_root(folder: str, env: Mapping[str, str]) -> str | None:
    """The project root of ``folder`` (:func:`resolve_target`: found from the path as
    given; links out of the project are refused) when it holds a root hook that is a
    regular file, else None: a folder of no enabled project (the hook then does nothing).
    Raises as :func:`resolve_target` does."""
    root = resolve_target(folder, env, "the host's working folder").root
    try:
        st = os.lstat(os.path.join(root, HOOK_NAME))
    except OSError:
        return None
    return root if stat.S_ISREG(st.st_mode) else None


def _ignored(why: str, root: str | None = None, reason: str | None = None) -> None:
    """Say, as a coded warning the CLI prints once, that ``MEMHOOKS_ROOT`` was ignored, and why."""
    import warnings

    from ..errors import MemhooksWarning

    instead = f"; the project root is `{root}` ({reason})" if root else ""
    text = f"MEMHOOKS_ROOT ignored: {why}{instead}"
    warnings.warn(MemhooksWarning(text, "MH028", "MEMHOOKS_ROOT"), stacklevel=3)


def _outside(target: str, real: str, root: str) -> DiagnosticError:
    from ..errors import fail

    kind = "file" if os.path.islink(target) and os.path.isfile(real) else "folder"  # newcomer22
    return fail(
        "MH029",
        f"`{target}` resolves to `{real}`, outside its project root `{root}` (a symlink leads out)",
        target,
        help=f"work on the linked {kind} from its own project (the path it resolves to), "
        f"or replace the symlink with a real {kind}",
    )


def env_root(env: Mapping[str, str]) -> str | None:
    """The canonical ``MEMHOOKS_ROOT``; ``None`` when it is unset or empty, and when it
    cannot be a root — it names nothing, something that is not a directory, or a
    directory we may not read — with a :class:`~memhooks.errors.MemhooksWarning` saying
    which (it contains no target then, so the other rules apply)."""
    value = env.get("MEMHOOKS_ROOT")
    if not value:
        return None
    root, why = usable_root(value)
    if why is not None:
        _ignored(f"`{value}` {why}")
    return root


def usable_root(value: str) -> tuple[str | None, str | None]:
    """(the canonical folder, None) when the ``MEMHOOKS_ROOT`` value ``value`` can be a
    root, else (None, why not: it names nothing, something that is not a directory, or
    a directory we may not read — the end of a sentence). The one rule of
    :func:`env_root` and of the hook's note about the setting
    (:meth:`memhooks.hook.call.HookCall.setting_notes`)."""
    try:
        root = os.path.realpath(value, strict=True)
    except OSError as exc:
        return None, _unreachable(value, exc)
    if not os.path.isdir(root):
        return None, "is not a directory"
    if not os.access(root, os.R_OK | os.X_OK):
        return None, "may not be read (Permission denied)"
    return root, None


def ancestors(directory: str) -> list[str]:
    """``directory`` and each parent up to the filesystem root, nearest first."""
    out = [directory]
    while True:
        parent = os.path.dirname(out[-1])
        if parent == out[-1]:
            return out
        out.append(parent)


def find_root(directory: str, env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(canonical root, reason) for an absolute ``directory`` as given (its components
    may be symlinks: the walk goes up the names, not the link targets).

    ``MEMHOOKS_ROOT`` wins when it contains ``directory``; whether the canonical target
    lies inside the root is :func:`resolve_target`'s check, which callers should use.
    """
    env = os.environ if env is None else env
    explicit = env_root(env)
    if explicit is not None and is_within(resolved(directory), explicit):
        return explicit, REASON_ENV
    return _discover(directory, env)


def _discover(directory: str, env: Mapping[str, str]) -> tuple[str, str]:
    """:func:`find_root` without ``MEMHOOKS_ROOT``: git, the highest hook, the target; a work
    tree named through a link in a project that does not hold it is none (that project is,
    unless it is the home folder kept in git: ``~/code -> /data/code``)."""
    visible = []
    for candidate in ancestors(directory):
        found = marker(candidate)
        if found is None:
            break  # cannot look inside: nothing above here is ours to read
        if found:
            root = resolved(candidate)
            if root != candidate:  # named through a link: resolve_target refuses an escape
                outer, reason = _discover(os.path.dirname(candidate), env)
                claims = reason != REASON_TARGET and not is_within(root, outer)
                if claims and outer not in _homes(env):  # (a home kept in git: dotfiles)
                    return outer, reason  # (MH029, newcomer12: why linkdir/secret.c:1)
            return root, REASON_GIT
        visible.append(candidate)
    homes = _homes(env)
    highest = None
    for candidate in visible:
        if any(is_within(home, candidate) for home in homes):
            break
        if _lstat(os.path.join(candidate, HOOK_NAME)) is not None:
            highest = candidate
    if highest is not None:
        return resolved(highest), REASON_HOOK
    return resolved(directory), REASON_TARGET


def _homes(env: Mapping[str, str]) -> tuple[str, ...]:
    """The home directory as named and as canonical (the walk compares names)."""
    home = env.get("HOME") or os.path.expanduser("~")
    try:
        return (os.path.abspath(home), os.path.realpath(home))
    except (OSError, ValueError):
        return ()


def chain_directories(root: str, directory: str) -> list[str]:
    """Directories from ``root`` down to ``directory`` inclusive (root first)."""
    if not is_within(directory, root):
        return [directory]
    rel = relative(directory, root)
    dirs = [root]
    if rel:
        for part in rel.split("/"):
            dirs.append(os.path.join(dirs[-1], part))
    return dirs
