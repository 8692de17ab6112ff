"""Near-miss field names: what an unknown key in a hook most likely meant.

Used by the unknown-field warnings (MH002, MH005, MH007, MH014, MH022): a key that is a
known misplacement (``roles:`` at the top level belongs under a recall query's ``when``)
or a misspelling of a real field of that level gets "did you mean `…`?" (issue 13 item
18). Unknown keys are rare and the common case imports nothing: ``difflib`` is loaded
only once a key is neither a field nor a known misplacement.
"""

from __future__ import annotations

import difflib

#: Level -> the field names a key there may be a misspelling of (as written in hooks).
FIELDS = {
    "top": ("schema", "inherits", "scope", "sensitivity", "recall_queries", "entities",
            "resources", "tags", "exclude", "backends"),
    "query": ("query", "priority", "when", "entities", "resources", "tags", "backends"),
    "when": ("roles",),
    "entity": ("name", "type", "salience"),
    "resource": ("name", "kind", "salience"),
}  # fmt: skip

#: Level -> normalized key -> (what to suggest, as shown after "did you mean", help). Keys people write for a field that
#: lives elsewhere or under another name; difflib would miss most of them.
MOVED: dict[str, dict[str, tuple[str, str]]] = {
    "top": {
        "roles": ("`when.roles`", "roles limit one recall query: `- query: …` with `when: {roles: [reviewer]}`"),
        "role": ("`when.roles`", "roles limit one recall query: `- query: …` with `when: {roles: [reviewer]}`"),
        "when": ("`when.roles`", "`when` belongs to one recall query: `- query: …` with `when: {roles: [reviewer]}`"),
        "priority": ("`recall_queries[].priority`", "priority ranks one recall query: `- query: …` with `priority: 0.8`"),
        "exclusions": ("`exclude`", "rename it to `exclude`"),
        "exclusion": ("`exclude`", "rename it to `exclude`"),
        "excludes": ("`exclude`", "rename it to `exclude`"),
        "excluded": ("`exclude`", "rename it to `exclude`"),
        "queries": ("`recall_queries`", "rename it to `recall_queries`"),
        "recall": ("`recall_queries`", "rename it to `recall_queries`"),
        "backend": ("`backends`", "rename it to `backends`"),
        "providers": ("`backends`", "rename it to `backends`"),
    },
    "query": {
        "roles": ("`when.roles`", "write the roles under `when`: `when: {roles: [reviewer]}`"),
        "role": ("`when.roles`", "write the roles under `when`: `when: {roles: [reviewer]}`"),
        "exclude": ("the top-level `exclude`", "exclusions apply to the whole hook: list them in the top-level `exclude`"),
        "exclusions": ("the top-level `exclude`", "exclusions apply to the whole hook: list them in the top-level `exclude`"),
        "text": ("`query`", "rename it to `query`"),
        "weight": ("`priority`", "rename it to `priority` (0.0 to 1.0)"),
        "backend": ("`backends`", "rename it to `backends`"),
    },
    "when": {
        "role": ("`roles`", "rename it to `roles` (a list)"),
    },
    "entity": {
        "kind": ("`type`", "entities have a `type`; `kind` is for resources"),
    },
    "resource": {
        "type": ("`kind`", "resources have a `kind`; `type` is for entities"),
        "path": ("`name`", "a resource's path is its `name`"),
    },
}  # fmt: skip


def did_you_mean(key: object, level: str) -> tuple[str, str] | None:
    """(suggestion, help) for unknown ``key`` at ``level`` (a key of :data:`FIELDS`), or
    None when nothing is close; the suggestion is shown as ``did you mean <it>?``
    (``"`when.roles`"``). Case, ``-`` and spaces are ignored."""
    if not isinstance(key, str):
        return None
    normal = key.strip().lower().replace("-", "_").replace(" ", "_")
    moved = MOVED.get(level, {}).get(normal)
    if moved is not None:
        return moved
    fields = FIELDS[level]
    if normal in fields:  # a real field written in another case: `Tags`, `Recall-Queries`
        return f"`{normal}`", f"rename it to `{normal}`"
    if len(normal) < 3:
        return None

    close = difflib.get_close_matches(normal, fields, n=1, cutoff=0.75)
    return (f"`{close[0]}`", f"rename it to `{close[0]}`") if close else None
