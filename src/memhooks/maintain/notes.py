"""``memhooks note`` and ``memhooks remove``: hand-written recall queries.

Both act on the **nearest** hook from the working directory up to the root
(:func:`memhooks.maintain.targets.nearest_hook`) of an enabled project, never create a
hook, and compare queries by whitespace-normalized text (:mod:`memhooks.protocol.text`).
Enrichment rules are :func:`memhooks.maintain.edit.upsert_query`'s.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import fail
from ..protocol.hookfile import ParsedHook
from ..protocol.text import normalize
from .edit import Enrichment, remove_queries, upsert_query
from .targets import nearest_hook, require_enabled, root_hook, target
from .tidy import drop_emptied_queries
from .update import Change, update

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from 3.11


def note_hook(cwd: str, env: Mapping[str, str] | None = None) -> str:
    """The hook ``note``/``remove`` with ``--cwd cwd`` target (see module docstring).

    Raises DiagnosticError: MH024 for a missing ``cwd``; the not-enabled error of
    :func:`memhooks.maintain.targets.root_hook`; MH029 for an unsafe nearest hook.
    """
    resolved = target(cwd, env)
    root = require_enabled(resolved.root)
    hook = nearest_hook(resolved.directory, resolved.root)
    if hook != root:
        root_hook(resolved.root)
    # else the edit itself checks the root hook, under its lock, parsing it once
    return hook


def add_note(
    cwd: str,
    query: str,
    *,
    env: Mapping[str, str] | None = None,
    **enrich: Unpack[Enrichment],
) -> Change:
    """Add or enrich the recall query ``query`` in the nearest hook; returns the Change.

    ``enrich`` is :func:`upsert_query`'s: ``priority``, ``roles``, ``tags``,
    ``entities``/``resources`` (names or mappings), ``backends`` (a mapping of provider
    namespaces, deep-merged). Raises DiagnosticError: those of :func:`note_hook`; MH003
    for a blank query and MH006 for a blank role, whose path is the flag (``--query``,
    ``--role``) and which have no line; the hook's own errors when it is invalid; the errors the result
    would have (nothing is then written), e.g. MH026 for ``{"name": []}``; MH031.
    """
    hook = note_hook(cwd, env)
    if not normalize(query):
        # the fault is the argument, not a place in the hook: the diagnostic names the flag
        raise fail(
            "MH003",
            f"recall query must not be empty (--query {query!r}); nothing was written",
            "--query",
            help="give --query the recall query's text",
        )

    wanted: Enrichment = {
        "priority": enrich.get("priority"),
        "roles": list(enrich.get("roles", ())),
        "entities": list(enrich.get("entities", ())),
        "resources": list(enrich.get("resources", ())),
        "tags": list(enrich.get("tags", ())),
        "backends": enrich.get("backends"),
    }
    for role in wanted["roles"]:
        if not isinstance(role, str) or not role.strip():
            # the reference exits 1 here too; argparse's exit 2 would hide the hook's path
            raise fail(
                "MH006",
                f"role names must not be blank (--role {role!r}); nothing was written",
                "--role",
                help="give --role a role name, or leave it out",
            )

    def edit(parsed: ParsedHook) -> bool:
        upsert_query(parsed.tree, query, **wanted)
        return True  # unchanged output is detected by comparing the rendered text

    return update(hook, edit)


def remove_note(
    cwd: str, query: str, *, dry_run: bool = False, env: Mapping[str, str] | None = None
) -> Change:
    """Remove every query of the nearest hook whose normalized text equals ``query``'s.

    ``changed`` on the result says whether anything was (or, with ``dry_run``, would be)
    removed. A dry run takes no lock and writes nothing. Raises as :func:`note_hook`,
    plus the hook's own errors when it is invalid and MH031.
    """
    hook = note_hook(cwd, env)

    def edit(parsed: ParsedHook) -> bool:
        if remove_queries(parsed.tree, query) == 0:
            return False
        drop_emptied_queries(parsed.tree)
        return True

    return update(hook, edit, dry_run=dry_run)
