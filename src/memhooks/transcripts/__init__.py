"""Memories from the agents' own transcripts (``memhooks transcripts import``).

The hosts keep every session on disk (Claude Code, Codex, Gemini CLI, Copilot CLI; any
other tool through the plain chat format). This package reads the current project's
sessions there, cuts each into decision-sized pieces (runs of exchanges around one
topic), anchors each piece to the code it was about (files read and edited, paths and
names mentioned), renders it conclusion first, and stores one memory per piece; a later
piece on the same anchors and topic marks an earlier one superseded. Not to be confused
with :mod:`memhooks.session`, the hook's ledger of what it delivered to a running session.

Public API::

    import_transcripts(store, workspace, *, env, hosts=None, chats=(), dry_run=False)
        -> ImportReport
    READERS                                   # host name -> reader module
    Transcript, Message, ToolUse              # what a reader returns

Modules: ``model`` (the records), ``lines`` (tolerant JSONL reading), ``tooluse`` (a
host's tool call), one reader per host (``claude_code``, ``codex``, ``gemini_cli``,
``copilot_cli``) and ``chat`` (the plain format), ``hosts`` (the registry), ``anchors``
(files, paths, symbols), ``segment`` (exchanges and pieces), ``render`` (a piece as a
memory), ``supersede`` (later decisions win), ``state`` (what was imported from where),
``importer`` (the import itself). The library never prints.
"""

from __future__ import annotations

from .hosts import READERS
from .importer import ImportReport, import_transcripts
from .model import Message, ToolUse, Transcript

__all__ = ["READERS", "ImportReport", "Message", "ToolUse", "Transcript", "import_transcripts"]
