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
part of it. An invalid chain has none (validate reports it), kept the same way.
"""

from __future__ import annotations

import os

from .. import cachefile, filestate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .call import HookCall

#: Bump with :data:`memhooks.protocol.cache.FORMAT` (what parsing a hook yields), or
#: when merging the chain's phrases changes (``tests/lines/test_hook_exclusions.py`` ties them).
FORMAT = 1
#: The folder, in the state folder, of the kept chains.
FOLDER = "chains"


def exclusions(call: HookCall, top: str, rel: str) -> list[str]:
    """The ``exclude`` phrases of the chain of the folder of ``rel`` (a file of the work
    tree ``top``): as kept (module docstring), else resolved and kept; none when the
    chain is invalid."""
    folder = os.path.dirname(os.path.join(top, *rel.split("/")))
    file = os.path.join(call.state_dir, FOLDER, cachefile.key_name(folder) + ".json")
    # MEMHOOKS_ROOT as resolve() reads it: canonical, so a relative value (read from the
    # process's folder) or a swapped link names the root it names now
    value = os.environ.get("MEMHOOKS_ROOT", "")
    explicit = os.path.realpath(value) if value else ""
    kept = _kept(file, folder, explicit)
    if kept is not None:
        return kept
    phrases, where = _resolved(folder, call.roles)
    if where is not None:
        _keep(file, folder, explicit, *where, phrases)
    return phrases


def _kept(file: str, folder: str, explicit: str) -> list[str] | None:
    """The phrases kept in ``file`` for ``folder`` while they stand, else None."""
    from ..fast.jsonfast import loads

    try:
        with open(file, "rb") as fp:
            data = loads(fp.read())
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
        phrases = data["exclude"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return [str(p) for p in phrases] if isinstance(phrases, list) else None


def _resolved(folder: str, roles: list[str]) -> tuple[list[str], tuple[str, str] | None]:
    """(the phrases of ``folder``'s chain, (the root they were resolved from, the rule
    that found it): None when there is none to key what was found by)."""
    from ..protocol.resolve import resolve
    from ..protocol.root import resolve_target

    try:
        plan = resolve(folder, roles)
    except Exception:  # noqa: BLE001 - an invalid chain is validate's to report; recall goes on
        try:
            where = resolve_target(folder)
        except Exception:  # noqa: BLE001 - no root: resolved again next time
            return [], None
        return [], (where.root, where.reason)
    return list(plan.exclude), (plan.root, plan.reason)


def _keep(
    file: str, folder: str, explicit: str, root: str, reason: str, phrases: list[str]
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
            "git": reason == REASON_GIT, "hooks": hooks, "exclude": phrases}  # fmt: skip
    cachefile.write(file, dumps(data, separators=(",", ":")), mode=0o700)
