"""Hook maintenance from the hook: the cue updates an edit calls for, recorded in the
journal first (:mod:`memhooks.session.journal`), then applied under the hook lock — in
this call, or by the next call of the project when this one's deadline came first
(issue 13 item 3: an update the hook accepted is never dropped)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..errors import DiagnosticError
    from .call import HookCall


def maintain_edit(call: HookCall) -> tuple[list[str] | None, str | None]:
    """Hook maintenance for the files the event wrote, deleted or renamed, through the
    journal (:mod:`memhooks.session.journal`): recorded first, then applied. Returns the
    hook files written and a coded note, or ``(None, None)`` when the root hook does not
    validate: no update is accepted and the call answers the host's no-op, the root
    hook's diagnostic said once a session for each version of the file
    (:func:`_broken_root`)."""
    from ..errors import DiagnosticError
    from ..maintain.events import changed_paths, maintain

    if not changed_paths(call.event):
        return [], None
    settings = call.maintain_settings
    try:
        hooks = maintain(call.event, call.folder, env=settings, dry=True)
    except DiagnosticError as exc:
        _broken_root(call, exc)
        return None, None
    if not hooks:
        return [], None  # already in its cue (most edits): nothing to record or lock
    from ..errors import StoreError, one_line
    from ..session import journal

    assert call.root is not None
    work: dict[str, object] = {
        "folder": call.folder,
        "files": [f.as_list() for f in call.event.files],
        "settings": settings,
        "who": _who(call),  # told once if the update has to wait for a broken hook file
    }
    if call.ledgerless or call.state_problem is not None:
        # No state file to journal in durably (HookCall.state: none, or one in a
        # temporary folder): applied now, under the hook files' own locks.
        return _at_once(work, hooks, None)
    try:
        journal.accept(call.state, call.root, work)
    except StoreError as exc:  # the state file took no row (a full disk, say): apply now
        return _at_once(work, hooks, one_line(exc))
    try:
        written, notes = journal.drain(
            call.state, call.root, apply_works, call.deadline - 0.1, who=_who(call)
        )
    except StoreError as exc:  # journaled: the next hook call of the project applies it
        return (
            [],
            f"{one_line(exc)}; the accepted hook update is journaled and applied by the next hook call",
        )
    return written, "; ".join(notes) or None  # each coded (journal.drain)


def _broken_root(call: HookCall, exc: DiagnosticError) -> None:
    """Say ``exc`` — the root hook's own diagnostics: invalid YAML or schema (MH000,
    MH001...), not a regular file (MH029); only the root hook is read before an update
    is accepted — once a session for each version of the root hook
    (:func:`memhooks.session.keys.invalid_hook` with its :func:`memhooks.filestate.key`):
    it was said on every edit of the session (newcomer15), while a broken hook of a
    folder is said once. A fixed root that breaks again is another version: said again.
    Re-raises ``exc`` when a diagnostic names another file, or none."""
    import os

    from ..errors import one_line
    from ..filestate import key_of
    from ..protocol import HOOK_NAME
    from ..session import keys

    assert call.root is not None
    path = os.path.join(call.root, HOOK_NAME)
    if any(d.path != path for d in exc.diagnostics):
        raise exc
    version = key_of(path)
    rel = HOOK_NAME + ("@" + ",".join(map(str, version)) if version is not None else "")
    what = "the root hook is invalid, so no hook update is accepted and edits are not served: "
    call.once(keys.invalid_hook(rel), one_line(exc, what))


def _at_once(
    work: dict[str, object], hooks: list[str], why: str | None
) -> tuple[list[str], str | None]:
    """Apply ``work`` now, without a journal (``why``: the journal's failure as a coded
    note, :func:`memhooks.errors.one_line`, if any). Issue 22 item 3: an accepted update
    is applied, journaled, or reported lost with its hook files (``hooks``) — never
    dropped in silence."""
    from ..errors import MemhooksError, one_line

    # ``why``: the state file's failure (MH037); the update's own, its code (MH031…)
    try:
        written = apply_works([work])
    except MemhooksError as exc:
        lost = one_line(exc, f"hook update for {', '.join(hooks)} lost: ")
        return [], f"{why}; {lost}" if why else lost
    return written, f"{why}; the hook update was applied at once" if why else None


def apply_pending(call: HookCall) -> None:
    """Apply maintenance earlier hook calls accepted but could not finish (their deadline
    came first): the next call of the project does it. It waits for the applier lock
    :data:`PENDING_WAIT_S` at most: whoever holds it applies what is pending, and the
    prompt's own recall must not wait behind a long edit."""
    import time

    from ..session import journal

    assert call.root is not None
    if journal.pending(call.state, call.root):
        wait = time.monotonic() + PENDING_WAIT_S
        _written, notes = journal.drain(
            call.state, call.root, apply_works, call.deadline - 0.5, wait_until=wait, who=_who(call)
        )
        call.notes.extend(notes)


def _who(call: HookCall) -> str:
    """The session a journal row comes from (:func:`memhooks.session.journal.drain`)."""
    return f"{call.host}\x1f{call.event.session_id or ''}"


#: Most seconds a call waits for another call's applier lock to apply pending updates.
PENDING_WAIT_S = 0.05


def apply_works(works: list[dict[str, object]]) -> list[str]:
    """Apply journal entries (:func:`memhooks.maintain.events.maintain`), one pass per
    distinct folder and settings; returns the hook files written. Raises as ``maintain``
    does (:class:`~memhooks.protocol.hookfile.InvalidHookError` once the other hooks are
    written).
    The applier of the hook's journal, and of ``memhooks maintain``."""
    from ..agents.base import POST_EDIT as EDIT
    from ..agents.base import FileChange, NormalizedEvent
    from ..maintain.events import maintain

    groups: dict[str, tuple[str, dict[str, str], list[FileChange]]] = {}
    for work in works:
        settings = dict(work.get("settings") or {})  # type: ignore[call-overload]
        folder = str(work["folder"])
        key = repr((folder, sorted(settings.items())))
        group = groups.setdefault(key, (folder, settings, []))
        for action, path, *old in work.get("files") or ():  # type: ignore[attr-defined]
            group[2].append(FileChange(path, action, *old))
    written: list[str] = []
    for folder, settings, files in groups.values():
        event = NormalizedEvent("journal", EDIT, cwd=folder, files=files)
        for path in maintain(event, folder, env=settings):
            if path not in written:
                written.append(path)
    return written
