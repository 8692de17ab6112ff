"""The ``exclude`` phrases of the chain of a file's folder, for line-level recall (issue
20 item 5), kept between hook calls (issue 20 item 7).

Resolving the chain (:func:`memhooks.protocol.resolve.resolve`) loads the protocol's
parser, merge and plan modules and finds the root again: ~0.6 ms of a warm pre-tool
edit that tells (callgrind: ~3.3 M of its ~96 M instructions, ``bench_lines_hook``
``edit_far``), for phrases that change only when a hook file does. What it found is
kept in the state folder, one small JSON file per folder (``chains/<key>.json``): the
root it found, the :func:`memhooks.filestate.key` of each hook file of the chain from
that root down (None where there is none), ``MEMHOOKS_ROOT`` as it named a folder
then (canonical: a relative value is read from the process's folder), and the
phrases. It stands while every one of those is the same and the root is found the same
way: still the top of the folder's work tree (:func:`memhooks.git.is_top`: no ``.git``
made between), or ``MEMHOOKS_ROOT``'s; a root found by another rule is not kept, nor
a hook file changed within the racy window (:data:`memhooks.filestate.RACY_NS`). Roles do not select
exclusions (they stay at plan level: :mod:`memhooks.protocol.plan`), so they are not
part of it. An invalid hook of the chain is left out of it, as the prompt's recall and
``memhooks why`` leave it out (the rest of the chain's phrases apply: they were all
dropped, polish23), and kept with it is the coded stderr note naming it
(``MH000 skipped an invalid hook: … (path:line:col); what to do``), said once a session
(:meth:`memhooks.hook.call.HookCall.once`, :func:`memhooks.session.keys.invalid_hook`):
the edit said nothing of it (newcomer10). A chain that cannot be resolved at all (no root)
has none, resolved again next time.
"""

from __future__ import annotations

import os

from .. import cachefile, filestate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .call import HookCall

#: Bump with :data:`memhooks.protocol.cache.FORMAT` (what parsing a hook yields), or
#: when merging the chain's phrases changes (``tests/lines/test_hook_exclusions.py`` ties them).
#: 2: the invalid hooks left out (``skipped``: [root-relative path, stderr note]).
FORMAT = 2
#: The folder, in the state folder, of the kept chains.
FOLDER = "chains"


def exclusions(call: HookCall, top: str, rel: str) -> list[str]:
    """The ``exclude`` phrases of the chain of the folder of ``rel`` (a file of the work
    tree ``top``): as kept (module docstring), else resolved and kept; an invalid hook of
    the chain left out, and said on ``call``'s stderr line once a session."""
    folder = os.path.dirname(os.path.join(top, *rel.split("/")))
    file = os.path.join(call.state_dir, FOLDER, cachefile.key_name(folder) + ".json")
    # MEMHOOKS_ROOT as resolve() reads it: canonical, so a relative value (read from the
    # process's folder) or a swapped link names the root it names now
    value = os.environ.get("MEMHOOKS_ROOT", "")
    explicit = os.path.realpath(value) if value else ""
    kept = _kept(file, folder, explicit)
    if kept is None:
        phrases, skipped, where = _resolved(folder, call.roles)
        if where is not None:
            _keep(file, folder, explicit, *where, phrases, skipped)
        kept = phrases, skipped
    if kept[1]:
        from ..session import keys

        for hook, note in kept[1]:
            call.once(keys.invalid_hook(hook), note)
    return kept[0]


def _kept(file: str, folder: str, explicit: str) -> tuple[list[str], list[list[str]]] | None:
    """(the phrases, the invalid hooks' [path, note]) kept in ``file`` for ``folder``
    while they stand, else None."""
    from ..fast.jsonfast import loads

    try:
        data = loads(cachefile.read(file))
        if (
            not isinstance(data, dict)
            or data["format"] != FORMAT
            or data["folder"] != folder
            or data["root_env"] != explicit
        ):
            return None
        if data["git"]:
            from ..git import is_top

            if not is_top(data["root"], folder):
                return None
        for path, known in data["hooks"]:
            if not filestate.stands(path, known):  # a hook file edited, added or removed
                return None
        phrases, skipped = data["exclude"], data["skipped"]
        if not isinstance(phrases, list) or not isinstance(skipped, list):
            return None
        return [str(p) for p in phrases], [[str(h), str(n)] for h, n in skipped]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _resolved(
    folder: str, roles: list[str]
) -> tuple[list[str], list[list[str]], tuple[str, str] | None]:
    """(the phrases of ``folder``'s chain, its invalid hooks left out as [root-relative
    path, stderr note], (the root they were resolved from, the rule that found it): None
    when there is none to key what was found by)."""
    from ..protocol.resolve import resolve_at
    from ..protocol.root import resolve_target

    try:
        plan = resolve_at(resolve_target(folder), roles, skip_invalid=True)
    except Exception:  # noqa: BLE001 - no root, an unsafe target: resolved again next time
        return [], [], None
    skipped = []
    if plan.skipped:
        from ..errors import DiagnosticError, one_line

        for d in plan.skipped:
            hook = os.path.relpath(d.path, plan.root) if os.path.isabs(d.path) else d.path
            note = one_line(DiagnosticError([d]), "skipped an invalid hook: ")
            skipped.append([hook.replace(os.sep, "/"), note])
    return list(plan.exclude), skipped, (plan.root, plan.reason)


def _keep(
    file: str,
    folder: str,
    explicit: str,
    root: str,
    reason: str,
    phrases: list[str],
    skipped: list[list[str]],
) -> None:
    """Keep ``phrases`` for ``folder`` with the keys of its chain's hook files, unless
    one changed too recently for its key to be trusted, or the root was found by a rule
    other than git's or ``MEMHOOKS_ROOT``'s."""
    from ..fast.jsonfast import dumps
    from ..protocol import HOOK_NAME
    from ..protocol.root import REASON_ENV, REASON_GIT, chain_directories

    if reason not in (REASON_ENV, REASON_GIT):
        return

    hooks: list[list[object]] = []
    for directory in chain_directories(root, folder):
        path = os.path.join(directory, HOOK_NAME)
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            hooks.append([path, None])
            continue
        except (OSError, ValueError):
            return
        if filestate.racy(st):
            return
        hooks.append([path, list(filestate.key(st))])
    data = {"format": FORMAT, "folder": folder, "root_env": explicit, "root": root,
            "git": reason == REASON_GIT, "hooks": hooks, "exclude": phrases, "skipped": skipped}  # fmt: skip
    cachefile.write(file, dumps(data, separators=(",", ":")), mode=0o700)
