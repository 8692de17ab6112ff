"""One hook event being observed: the event, where it happened, its session, the clock."""

from __future__ import annotations

import os

from ..agents.base import READ
from ..scrubber import clean
from ..session import capture_record

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from ..agents.base import NormalizedEvent
    from ..session.capture_record import CaptureRecord
    from ..workspace import Workspace

#: Caps on what a session keeps (newest kept).
MAX_PROMPTS = 20
MAX_FILES = 50
MAX_FIXES = 10
MAX_STEPS = 8


class Observation:
    """``event``; ``where`` (root, project, scope of the folder the host named); ``conn``
    (the store's, inside the capture write transaction: marks); ``ledger`` (the state
    file's, inside its write: the session's capture record and failures); ``session``
    (capture's record of the event's session, saved afterwards); ``now`` (seconds since
    the epoch)."""

    __slots__ = ("conn", "event", "ledger", "now", "session", "where")

    def __init__(
        self,
        event: NormalizedEvent,
        where: Workspace,
        conn: sqlite3.Connection,
        ledger: sqlite3.Connection,
        session: CaptureRecord,
        now: float,
    ) -> None:
        self.event = event
        self.where = where
        self.conn = conn
        self.ledger = ledger
        self.session = session
        self.now = now

    @property
    def project(self) -> str:
        return self.where.project

    def relative(self, path: str) -> str | None:
        """``path`` relative to the root (``/`` separators), or None when outside it."""
        base = (
            self.event.cwd
            if self.event.cwd and os.path.isabs(self.event.cwd)
            else self.where.directory
        )
        full = path if os.path.isabs(path) else os.path.join(base, path)
        rel = self.where.relative(full)
        if rel == "." or rel.startswith(("/", "../")) or rel == ".." or os.path.isabs(rel):
            return None
        return rel

    def changed_files(self) -> list[str]:
        """Root-relative files the event wrote, deleted or renamed (inside the root)."""
        out: list[str] = []
        for change in self.event.files:
            if change.action == READ:
                continue
            rel = self.relative(change.path)
            if rel and rel not in out:
                out.append(rel)
        return out

    def note_changes(self, files: list[str]) -> None:
        """Remember changed files in the session and as steps of pending failures."""
        for name in files:
            self.session.append("files", name, MAX_FILES)
        if not files:
            return
        for failure in capture_record.failures(self.ledger, self.session):
            for name in files:
                step = f"edited {name}"
                if step not in failure.steps:
                    failure.steps = (failure.steps + [step])[-MAX_STEPS:]
            capture_record.save_failure(self.ledger, self.session, failure)


def excerpt(text: str, limit: int) -> str:
    """``text`` scrubbed, trimmed and cut to ``limit`` characters (``…`` marks a cut)."""
    text = clean(text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def folder_of(files: list[str], fallback: str) -> str:
    """The deepest folder containing every file (root-relative), else ``fallback``."""
    if not files:
        return fallback
    parts = [f.split("/")[:-1] for f in files]
    common: list[str] = []
    for level in zip(*parts):
        if all(p == level[0] for p in level):
            common.append(level[0])
        else:
            break
    return "/".join(common)
