"""Hook maintenance driven by agent events: generated cues for the files agents touch.

:func:`maintain` is what ``memhooks event`` and the agent hook (``memhooks hook``) run
after a tool wrote, deleted or renamed files; ``bench/recall_quality.py`` replays git
history through it. Steps (``shared/spec/reference-engine.md`` (f), with the
normalization layer of :mod:`memhooks.agents` in front, so every host's payload counts,
not only the reference's literal ``post_tool_call``):

1. only ``post_edit`` — and ``post_tool`` / ``post_command`` that report written,
   deleted or renamed files — are acted on; reads, prompts and ``pre_tool`` never are;
   ``memhooks event`` (``strict``) also takes every explicit path field of a reference
   ``post_tool_call`` payload, whatever the tool, as the reference does;
2. the root is found once, from the event's ``cwd`` as given (else its first workspace
   root, else the process's working directory) by
   :func:`memhooks.protocol.root.resolve_target`; a project without a root hook is left
   alone;
3. the paths are filtered (:mod:`.touched`) and grouped by directory; only if some
   survived (or with ``strict``) is the root hook checked (it must validate) and YAML
   loaded at all;
4. each group's generated cue (``[scope: <dir>]``, tagged ``memhooks:auto``, at most
   ``MEMHOOKS_AUTO_PATHS`` file resources) goes to the group's **anchor** hook — per
   ``MEMHOOKS_ANCHOR`` (:data:`memhooks.settings.CHOICES`) — after that hook's stale auto resources are
   pruned; groups sharing an anchor are written together, under one lock. With the
   ``directory`` anchor the root folder gets no generated cue (issue 22 item 1): the root
   hook is the project's own, usually committed, and every folder inherits it, so a cue
   there would search the root's files on every recall and show in ``git status``
   after every session;
5. a hook file about to be created is first kept out of git (:mod:`.local`), so a session
   leaves ``git status`` as the agent's own edits made it — and one git has (committed,
   then deleted by someone) is not created again (:func:`.local.deleted`).

Writes per hook are independent: a failure leaves earlier hooks written, and a hook
file that does not validate as read is passed over — the other hooks are written — and
reported at the end (:class:`~memhooks.protocol.hookfile.InvalidHookError`, all such
hooks' diagnostics).

Over 300 lines on purpose: :func:`maintain` is the five steps above in their order, and
the helpers below are each one of its steps; the filters, targets and the write itself
already live in :mod:`.touched`, :mod:`.targets` and :mod:`.update`.
"""

from __future__ import annotations

import os
import stat

from .. import filestate
from ..agents.base import DELETED, POST_COMMAND, POST_EDIT, POST_TOOL, READ, NormalizedEvent
from ..errors import Diagnostic, DiagnosticError
from ..protocol import HOOK_NAME
from ..protocol.hookfile import InvalidHookError
from ..protocol.root import resolve_target
from .targets import enabled, file_exists_in, nearest_hook, root_hook
from .touched import Touched, directory_rel

#: ``MEMHOOKS_ANCHOR`` values. ``directory``: the cue of directory D lives in
#: ``D/MEMHOOKS.md``, created when needed (the reference's behaviour).
#: ``nearest``: it goes into the nearest existing hook at or above D; no hook is created.

TYPE_CHECKING = False  # YAML is loaded only once some path survived the filter
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from ..protocol.cache import HookCache
    from ..protocol.hookfile import ParsedHook

_MAINTAINED = (POST_EDIT, POST_TOOL, POST_COMMAND)
#: The environment maintenance reads (root discovery's HOME included): the agent hook
#: keeps these with an update it accepts, so a later call applies it as this one would.
SETTINGS = ("MEMHOOKS_ROOT", "MEMHOOKS_AUTO_PATHS", "MEMHOOKS_ANCHOR", "MEMHOOKS_MAINTAIN", "HOME")
#: Largest hook the agent hook (``strict=False``) edits. A round-trip edit costs ~20 µs
#: per byte on a loaded 2-core machine (two loads, three dumps: 64 KiB ≈ 1.5 s), and the
#: hook answers within 3 s (``MEMHOOKS_HOOK_TIMEOUT_MS``); ``memhooks event``, ``note``
#: and ``prune`` edit hooks up to the 256 KiB file limit. Reading is not bounded by
#: this: a 255 KB hook is read in ~0.1 s.
MAX_HOOK_EDIT_BYTES = 64 * 1024
_VALID_ROOTS: dict[str, filestate.Key] = {}


def maintain(
    event: NormalizedEvent,
    folder: str,
    *,
    env: Mapping[str, str] | None = None,
    strict: bool = False,
    dry: bool = False,
    learned: dict[str, Any] | None = None,
) -> list[str]:
    """Update the hooks for the files ``event`` reports written, deleted or renamed.

    ``dry``: write nothing; return the hooks that would be written, decided as the real
    run decides what to skip — from the hooks' plain data, without YAML or a lock (the
    agent hook asks first, and skips its journal when nothing would change).
    ``learned`` (with ``dry``): filled with what a "nothing would change" answer rested
    on, so the next write in the folder is decided by stat alone (:mod:`.settled`); left
    empty when that cannot be re-checked so (another anchor, a root not found by git, a
    racy hook, a hook that would change).

    ``env`` (default ``os.environ``) supplies ``MEMHOOKS_ROOT``, ``MEMHOOKS_AUTO_PATHS``
    (1–256, default 12) and ``MEMHOOKS_ANCHOR`` (``directory`` | ``nearest``, default
    :mod:`memhooks.settings`); the last two are read only once some path survived the
    filter, so a bad value never breaks an event with nothing to do. ``folder`` is the
    working folder the caller decided (the hook: :attr:`memhooks.hook.call.HookCall.folder`;
    ``memhooks event``: :func:`memhooks.agents.folder.named_folder`); relative paths of the
    event are joined to it.

    ``strict`` is the ``memhooks event`` contract (spec (f)), for a caller that is not
    fail-open: the explicit path fields of a reference ``post_tool_call`` payload count
    whatever the tool (:mod:`.path_fields`), and for every post-tool event the working
    folder must exist and an enabled project's root hook must validate even when nothing
    is left to anchor. Without it (the agent hook) an event that names no changed file
    costs nothing: no root, no YAML.

    Returns the absolute paths of the hook files written, in the order written.
    Raises DiagnosticError: MH024 for a missing event ``cwd`` or unusable
    ``MEMHOOKS_ROOT``; MH028 for a bad setting; MH029 for a symlinked or special hook, or
    a working folder whose symlinks lead out of its project; the root hook's own errors
    when it exists but is invalid (:class:`~memhooks.protocol.hookfile.InvalidHookError`,
    before anything is written); MH000/MH001/... for a hook to be written that is
    invalid as read (InvalidHookError too, once the other hooks are written); MH031 when
    a write or the lock fails.
    """
    env = os.environ if env is None else env
    paths = changed_paths(event)
    if strict:
        if event.event not in _MAINTAINED:
            return []
        from .path_fields import explicit_paths

        paths += [p for p in explicit_paths(event.raw) if p not in paths]
    elif not paths:
        return []
    base = os.path.abspath(folder)
    where = resolve_target(base, env, "event cwd")
    root = where.root
    if not enabled(root):
        return []
    if strict:
        _require_valid_root(root)
    touched = Touched(root)
    for path in paths:
        touched.add(path, where.directory)
    if not touched.groups:
        return []
    from ..protocol import cache

    store = cache.for_root(root)  # what resolve() reads too: one read for the whole event
    root_st = _lstat(os.path.join(root, HOOK_NAME)) if learned is not None else None
    _require_valid_root(root, store)
    from ..settings import choice, integer

    max_paths = integer("MEMHOOKS_AUTO_PATHS", env)
    anchor = choice("MEMHOOKS_ANCHOR", env)
    if learned is not None:
        from .settled import learn_root

        # only a dry run with the `directory` anchor is re-checked by stat (.settled)
        settings = {k: env.get(k) for k in SETTINGS}
        recordable = dry and anchor == "directory"
        if not (recordable and learn_root(learned, where, base, root_st, settings)):
            learned = None
    written = []
    exists = file_exists_in(root)
    too_big = []
    create = anchor == "directory"
    plan = _plan(touched, anchor)
    if create:
        plan.pop(os.path.join(root, HOOK_NAME), None)  # step 4: never the root's
    kept = _maintained(root, plan, choice("MEMHOOKS_MAINTAIN", env))
    if create:  # a committed hook someone deleted is not made again (.local.deleted)
        kept = _not_deleted(root, kept)
    if len(kept) < len(plan):
        plan = kept
        if learned is not None:
            learned.clear()  # a hook left alone is not an answer that stat can re-check
            learned = None
    try:
        pending = []
        for hook, cues in plan.items():
            if _unchanged(
                hook, cues, exists, max_paths, create=create, store=store, learned=learned
            ):
                continue
            if dry:
                written.append(hook)
            elif not strict and _size(hook) > MAX_HOOK_EDIT_BYTES:
                too_big.append(hook)
            else:
                pending.append((hook, cues))
        unlisted = (
            _keep_local(root, [hook for hook, _ in pending if not os.path.lexists(hook)])
            if pending
            else []
        )
        invalid: list[Diagnostic] = []
        for hook, cues in pending:
            try:
                if _apply(hook, cues, exists, max_paths, create=create):
                    written.append(hook)
            except InvalidHookError as exc:  # the others are written all the same
                invalid += exc.diagnostics
    finally:
        store.save()
    problems = [_too_big(hook) for hook in too_big] + unlisted
    if problems:
        raise DiagnosticError(invalid + problems)
    if invalid:
        raise InvalidHookError(invalid)  # waits for the fix (memhooks.session.journal)
    return written


def _maintained(root: str, plan: dict[str, Any], keep: str) -> dict[str, Any]:
    """The part of ``plan`` (hook -> cues) that ``MEMHOOKS_MAINTAIN`` (``keep``) lets
    memhooks edit: ``all`` of it (the default: hooks written by hand, shared and
    committed are maintained in place, issue 22 item 1), only the hook files memhooks
    made and keeps out of git (``local``: :func:`.local.ours`; a shared hook stays as
    the team reviewed it), or none (``off``)."""
    if keep == "all" or not plan:
        return plan
    if keep == "off":
        return {}
    from .local import ours

    return {hook: plan[hook] for hook in ours(root, plan)}


def _not_deleted(root: str, plan: dict[str, Any]) -> dict[str, Any]:
    """``plan`` without the hook files it would create that git has (deleted by someone:
    :func:`.local.deleted`); asked only when some would be created."""
    missing = [h for h, cues in plan.items() if any(f for _d, f in cues) and not os.path.lexists(h)]
    if not missing:
        return plan
    from .local import deleted

    gone = set(deleted(root, missing))
    return {hook: cues for hook, cues in plan.items() if hook not in gone}


def _keep_local(root: str, created: list[str]) -> list[Diagnostic]:
    """Keep the hook files about to be created, and the writer's temporary files, out of
    git (:func:`.local.keep_local`) before anything is written; a failure is reported
    (as MH031, after the writes), never a reason to drop the update."""
    from .local import keep_local

    try:
        keep_local(root, created)
    except DiagnosticError as exc:
        return [
            Diagnostic(
                "MH031",
                f"could not keep {', '.join(created) or 'the hook writer’s temporary files'} "
                f"out of git: {exc.diagnostic.message}",
                exc.diagnostic.path,
                help="they were written all the same and show in `git status`; "
                "run `memhooks hooks` to see them",
            )
        ]
    return []


def _lstat(path: str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (OSError, ValueError):
        return None


def _size(path: str) -> int:
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0


def _too_big(hook: str) -> Diagnostic:
    return Diagnostic(
        "MH031",
        f"hook is {_size(hook)} bytes; the agent hook edits hooks of at most "
        f"{MAX_HOOK_EDIT_BYTES} bytes within its deadline, so its generated cues were not updated",
        hook,
        help="split the hook into the folders it is about, or run `memhooks prune --all` "
        "and `memhooks event` outside the agent",
    )


def changed_paths(event: NormalizedEvent) -> list[str]:
    """The paths ``event`` reports written, deleted or renamed (both names of a rename),
    in payload order; empty for events maintenance ignores."""
    if event.event not in _MAINTAINED:
        return []
    out: list[str] = []
    for change in event.files:
        if change.action == READ:
            continue
        out.append(change.path)
        if change.old_path is not None and change.action != DELETED:
            out.append(change.old_path)
    return out


def _require_valid_root(root: str, store: HookCache | None = None) -> None:
    """:func:`root_hook`, skipped while the root hook is unchanged since it last passed
    (an agent session or a history replay sends thousands of events to one project)."""
    path = os.path.join(root, HOOK_NAME)
    try:
        st = os.lstat(path)
        key: filestate.Key | None = filestate.key(st)
    except OSError:
        key = None
    if key is not None and _VALID_ROOTS.get(path) == key:
        return
    root_hook(root, store)
    if key is not None:
        _VALID_ROOTS[path] = key


def _plan(touched: Touched, anchor: str) -> dict[str, list[tuple[str, list[str]]]]:
    """hook path -> [(directory as the cue names it, existing files to add)]."""
    plan: dict[str, list[tuple[str, list[str]]]] = {}
    for directory, members in sorted(touched.groups.items()):
        additions = [rel for rel, exists in members if exists]
        if anchor == "nearest":
            hook = nearest_hook(directory, touched.root)
        else:
            hook = os.path.join(directory, HOOK_NAME)
        plan.setdefault(hook, []).append((directory_rel(touched.root, directory), additions))
    return plan


def _apply(
    hook: str,
    cues: list[tuple[str, list[str]]],
    exists: Callable[[str], bool],
    max_paths: int,
    *,
    create: bool,
) -> bool:
    """Prune ``hook``'s stale auto resources and upsert its cues; True when written.
    A missing hook is created only when ``create`` and some cue has files to add.
    A hook memhooks generated and nobody edited is written without a YAML library
    (:mod:`.fastwrite`); any other goes through the round-trip edit (:mod:`.update`)."""
    from .fastwrite import write_generated

    done = write_generated(hook, cues, exists, max_paths, create=create)
    if done is not None:
        return done
    grows = any(files for _dir, files in cues)
    from .cues import apply_cues
    from .roundtrip import new_hook_text
    from .update import update

    def edit(parsed: ParsedHook) -> bool:
        return apply_cues(parsed.tree, cues, exists, max_paths)

    new_text = new_hook_text() if create and grows else None
    return update(hook, edit, new_text=new_text).changed


def _unchanged(
    hook: str,
    cues: list[tuple[str, list[str]]],
    exists: Callable[[str], bool],
    max_paths: int,
    *,
    create: bool,
    store: HookCache,
    learned: dict[str, Any] | None = None,
) -> bool:
    """True when :func:`_apply` would certainly write nothing: the hook is missing and
    would not be created, or it is a valid regular file whose generated cues already say
    what ``cues`` would make them say (:func:`.generated.unchanged`). Decided from the
    hook's plain data (:func:`.canonical.plain_data`: the parsed-hook cache, a generated
    hook's canonical text, else libyaml): nothing is locked, no YAML is round-tripped,
    and a hook too big to edit in the agent hook is no obstacle. ``learned``: a record
    to add this hook's folder to when it is unchanged (:func:`.settled.learn_folder`)."""
    from .canonical import plain_data
    from .generated import unchanged

    try:
        st = os.lstat(hook)
    except (FileNotFoundError, NotADirectoryError):
        return not (create and any(files for _dir, files in cues))
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    data = plain_data(hook, st, store)
    if data is None or not unchanged(data, cues, exists, max_paths):
        return False
    if learned is not None:
        from .settled import learn_folder

        learn_folder(learned, hook, st, data, cues, max_paths)
    return True
