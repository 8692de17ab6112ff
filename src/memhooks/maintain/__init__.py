"""Hook maintenance: the writer behind ``init``, ``note``, ``remove``, ``prune``,
``event`` and ``migrate`` (docs/maintenance.md).

Modules, from the bottom up: :mod:`.atomic` (atomic replace), :mod:`.lock` (per-hook
lock), :mod:`.nodes` / :mod:`.roundtrip` (comment-preserving YAML edits), :mod:`.edit`
and :mod:`.cues` (what an edit means), :mod:`.targets` (which hook, and may we write),
:mod:`.update` (the locked read-modify-validate-write cycle), :mod:`.touched` (event
path filter), and one module per command: :mod:`.enable`, :mod:`.notes`, :mod:`.prune`,
:mod:`.events`, :mod:`.migrate` (with :mod:`.legacy` for v1 body blocks).

Nothing is imported here, so ``from memhooks.maintain.events import maintain`` in an
agent hook loads only what an event needs (YAML only once a hook is edited).
"""
