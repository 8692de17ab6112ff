"""Which lines of which files a tool call reads or is about to replace, from its input —
one table per kind of tool, every host's names in it (pure: nothing read from disk).

Reads (issue 20 item 2) give ``(path, ranges)``; an empty ``ranges`` is the whole file.
Sources: Claude Code ``Read {file_path, offset, limit}`` (offset: the 1-based line to
start at; 2,000 lines by default — code.claude.com/docs/en/tools-reference); Gemini CLI
``read_file {file_path, offset (0-based), limit}`` or ``{start_line, end_line}``;
OpenCode ``read {filePath, offset (0-based), limit}``; Hermes ``read_file {path, offset
(1-based), limit}``; Copilot CLI ``view {path, view_range: [first, last]}`` (``-1``: to
the end); Cline ``read_file``, Kiro ``fs_read``: whole files. Shell reads (Codex has no
read tool) are :mod:`.shell`'s, bounded like a Read: ``cat``/``nl`` of a whole file give
the lines a Read without a limit gives (:data:`READ_LINES`; a cold ``cat`` of iproute2's
large files blamed every line, p50 959 ms against 388 bounded,
``bench/bench_shell_read.py``).

Edits (issue 20 item 3) give :class:`Change` records: the text an edit replaces (Claude
Code ``Edit``/``MultiEdit``, Gemini ``replace``, Copilot and Kiro ``str_replace``,
Hermes ``patch``, OpenCode ``edit``, Cline ``replace_in_file`` SEARCH blocks, the old
side of an ``apply_patch`` hunk), or the new content of a whole-file write (Claude
``Write``, Gemini ``write_file``, Copilot ``create``, Cline ``write_to_file``, …).
"""

from __future__ import annotations

#: The default number of lines a Read without ``limit`` returns (Claude Code).
READ_LINES = 2000
#: The tools that read a file: name -> (path keys, offset key, offset base, limit key).
READ_TOOLS: dict[str, tuple[tuple[str, ...], str, int, str]] = {
    "Read": (("file_path",), "offset", 1, "limit"),
    "read_file": (("file_path", "path", "absolute_path"), "offset", 0, "limit"),
    "read": (("filePath", "file_path", "path"), "offset", 0, "limit"),
    "view": (("path",), "", 0, ""),
    "fs_read": (("path",), "", 0, ""),
}
#: Hosts whose ``read_file`` counts lines from 1 (the others count from 0).
ONE_BASED_READ = frozenset({"hermes"})
#: Shell tools: name -> the key of the command.
SHELL_TOOLS = dict.fromkeys(
    ("Bash", "run_shell_command", "terminal", "execute_command", "execute_bash", "bash", "shell"),
    "command",
)
#: The commands a shell read starts with (:func:`.shell.shell_reads`); the hook's tool-event
#: shortcut sends a command starting with one of them the whole way when it names a file
#: the session was not told about.
SHELL_READERS = frozenset(("sed", "nl", "head", "tail", "cat"))
#: Edit tools replacing one text: name -> (path keys, old keys, all-occurrences key, new
#: keys).
REPLACE_TOOLS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str, tuple[str, ...]]] = {
    "Edit": (("file_path",), ("old_string",), "replace_all", ("new_string",)),
    "replace": (("file_path",), ("old_string",), "allow_multiple", ("new_string",)),
    "edit": (("filePath", "path", "file_path"), ("oldString", "old_str", "old_string"), "replaceAll", ("newString", "new_str", "new_string")),
    "str_replace": (("path",), ("old_str",), "", ("new_str",)),
    "str_replace_editor": (("path",), ("old_str",), "", ("new_str",)),
    "patch": (("path",), ("old_string",), "replace_all", ("new_string",)),
    "fs_write": (("path",), ("old_str",), "", ("new_str",)),
    "replace_string_in_file": (("filePath",), ("oldString",), "", ("newString",)),
}  # fmt: skip
#: Whole-file writes: name -> (path keys, content keys).
WRITE_TOOLS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Write": (("file_path",), ("content",)),
    "write_file": (("file_path", "path"), ("content",)),
    "write": (("filePath", "file_path"), ("content",)),
    "create": (("path",), ("file_text",)),
    "write_to_file": (("path",), ("content",)),
    "createFile": (("filePath",), ("content",)),
}


class Change:
    """What one edit replaces in ``path`` (as the tool named it): ``olds`` (texts it replaces,
    in order; ``replace_all``: every occurrence; ``unique``: one found twice replaces nothing,
    the tool refuses it) with ``news`` (what each becomes, where the tool says: None when it
    does not; one per old text, else ValueError), or ``content`` (a whole-file write)."""

    __slots__ = ("content", "news", "olds", "path", "replace_all", "unique")

    def __init__(
        self,
        path: str,
        olds: list[str] | None = None,
        content: str | None = None,
        replace_all: bool = False,
        news: list[str | None] | None = None,
        unique: bool = False,
    ) -> None:
        self.path, self.unique = path, unique
        self.olds = olds or []
        self.news: list[str | None] = news if news is not None else [None] * len(self.olds)
        if len(self.news) != len(self.olds):
            raise ValueError("a Change has one new text (or None) for each old text")
        self.content = content
        self.replace_all = replace_all

    def replaced(self, text: str, *, narrow: bool = True) -> list[tuple[int, int]]:
        """The lines of the current file ``text`` this change replaces (sorted, merged;
        ±3: :func:`.ranges.around`); with the new text, not those an old text keeps line
        for line — context the agent copied (:func:`.ranges.narrowed`) — unless ``narrow``
        is False (where its old texts stand, whole: no difflib, more lines never fewer)."""
        from .ranges import around, changed_lines, edit_lines, narrowed

        if self.content is not None:
            return changed_lines(text, self.content, context=0)
        found: list[tuple[int, int]] = []
        every, once = self.replace_all, self.unique
        for old, new in zip(self.olds, self.news, strict=True):  # paired as they are made
            spans = edit_lines(text, old, replace_all=every, unique=once, context=0)
            found += [r for span in spans for r in narrowed(span, old, new)] if narrow else spans
        return around(found, text, 0)

    def __repr__(self) -> str:
        what = f"content={len(self.content)} chars" if self.content is not None else self.olds
        return f"Change({self.path!r}, {what})"


def reads(
    tool: str, args: dict[str, object], host: str = ""
) -> list[tuple[str, list[tuple[int, int]]]]:
    """``(path, ranges)`` for each file the tool call ``tool`` with ``args`` reads."""
    spec = READ_TOOLS.get(tool)
    if spec is not None:
        path = _clean(_first(args, spec[0]))
        if not path:
            return []
        return [(path, _read_range(tool, args, spec, host))]
    key = SHELL_TOOLS.get(tool)
    command = args.get(key) if key else None
    if not isinstance(command, str):
        return []
    from .shell import shell_reads  # a shell command: its words read as the shell would

    # a whole file paged through is bounded as a Read without a limit is
    return [(path, ranges or [(1, READ_LINES)]) for path, ranges in shell_reads(command)]


def _read_range(
    tool: str, args: dict[str, object], spec: tuple[tuple[str, ...], str, int, str], host: str
) -> list[tuple[int, int]]:
    if tool == "view":
        window = args.get("view_range")
        if (
            isinstance(window, list)
            and len(window) == 2
            and all(isinstance(n, int) for n in window)
        ):
            first, last = window
            return [(max(1, first), last if last >= first else 10**9)]
        return []
    start_line, end_line = _int(args.get("start_line")), _int(args.get("end_line"))
    if start_line is not None:
        return [(max(1, start_line), end_line if end_line is not None else 10**9)]
    offset, limit = _int(args.get(spec[1])), _int(args.get(spec[3]))
    if offset is None and limit is None:
        return [] if tool != "Read" else [(1, READ_LINES)]
    base = 1 if host in ONE_BASED_READ else spec[2]
    first = max(1, (offset or base) - base + 1)
    return [(first, first + (limit or READ_LINES) - 1)]


def changes(tool: str, args: dict[str, object]) -> list[Change]:
    """What the edit tool call ``tool`` with ``args`` is about to replace."""
    spec = REPLACE_TOOLS.get(tool)
    if spec is not None:
        path, old = _clean(_first(args, spec[0])), _first(args, spec[1])
        if path and old:
            every, new = args.get(spec[2]) is True, _text(args, spec[3])  # else: found once
            return [Change(path, [old], replace_all=every, news=[new], unique=True)]
    if tool == "MultiEdit":
        path, edits = _clean(_first(args, ("file_path",))), args.get("edits")
        if path and isinstance(edits, list):
            pairs = [
                (e["old_string"], _text(e, ("new_string",)))
                for e in edits
                if isinstance(e, dict) and isinstance(e.get("old_string"), str) and e["old_string"]
            ]
            once = not any(isinstance(e, dict) and e.get("replace_all") is True for e in edits)
            return [Change(path, [o for o, _ in pairs], news=[n for _, n in pairs], unique=once)]
    if tool == "replace_in_file":
        path, diff = _clean(_first(args, ("path",))), _first(args, ("diff",))
        if not path or not diff:
            return []
        blocks = search_blocks(diff)
        return [Change(path, [o for o, _ in blocks], news=[n for _, n in blocks])]
    if tool == "apply_patch":
        patch = _first(args, ("command", "patchText", "input", "patch"))
        return patch_changes(patch) if patch else []
    spec_w = WRITE_TOOLS.get(tool)
    if spec_w is not None:
        path = _clean(_first(args, spec_w[0]))
        content = args.get(spec_w[1][0])
        if path and isinstance(content, str):
            return [Change(path, content=content)]
    return []


def shell_read(command: str) -> bool:
    """Whether ``command`` starts as a shell read (its first word, a path's last part,
    is one of :data:`SHELL_READERS`): cheap, no shell-word reading."""
    words = command.split(None, 1)
    return bool(words) and words[0].rsplit("/", 1)[-1] in SHELL_READERS


def search_blocks(diff: str) -> list[tuple[str, str | None]]:
    """The (SEARCH, REPLACE) sides of Cline's ``replace_in_file`` blocks (``-------
    SEARCH`` … ``=======`` … ``+++++++ REPLACE``; older ``<<<<<<< SEARCH`` … ``>>>>>>>
    REPLACE`` markers too); REPLACE is None when the block does not close."""
    blocks: list[tuple[str, str | None]] = []
    block: list[str] | None = None
    replace: list[str] | None = None
    for line in diff.split("\n"):
        mark = line.strip()
        if mark.endswith("SEARCH") and mark[:1] in "-<":
            block, replace = [], None
        elif mark == "=======" and block is not None:
            if block:
                blocks.append(("\n".join(block) + "\n", None))
                replace = []
            block = None
        elif mark.endswith("REPLACE") and mark[:1] in "+>" and replace is not None:
            blocks[-1] = (blocks[-1][0], "".join(f"{r}\n" for r in replace))
            replace = None
        elif block is not None:
            block.append(line)
        elif replace is not None:
            replace.append(line)
    return blocks


def patch_changes(patch: str) -> list[Change]:
    """The old sides of an ``apply_patch`` envelope's hunks, with their new sides, per
    updated file (``*** Update File: p``; ``@@`` starts a hunk; `` `` and ``-`` lines
    are the old side, `` `` and ``+`` lines the new one)."""
    out: list[Change] = []
    current: Change | None = None
    hunk: list[str] = []
    new: list[str] = []

    def close() -> None:
        if current is not None and hunk:
            current.olds.append("\n".join(hunk) + "\n")
            current.news.append("".join(f"{line}\n" for line in new))
        hunk.clear()
        new.clear()

    for line in patch.split("\n"):
        if line.startswith("*** "):
            close()
            current = None
            if line.startswith("*** Update File:"):
                current = Change(_clean(line[len("*** Update File:") :]))
                out.append(current)
        elif current is not None:
            if line.startswith("@@"):
                close()
            elif line[:1] in (" ", "-"):
                hunk.append(line[1:])
                if line[:1] == " ":
                    new.append(line[1:])
            elif line[:1] == "+":
                new.append(line[1:])
            elif line == "":
                hunk.append("")
                new.append("")
    close()
    return [c for c in out if c.olds and c.path]


def _clean(path: str) -> str:
    """``path`` read as every path of a payload (:func:`memhooks.agents.paths.clean_path`:
    backslashes become ``/`` — a host on Windows sends native separators, agent-hooks.md
    section 11 —, ``file://`` decoded; a URL or a control character: ``""``)."""
    from ..agents.paths import clean_path  # loaded already: the event's files were read so

    return (clean_path(path, None) or "") if path else ""


def _first(args: dict[str, object], keys: tuple[str, ...]) -> str:
    for key in keys:
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def _text(args: dict[str, object], keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` that holds a string (an empty one too: a deletion)."""
    for key in keys:
        value = args.get(key)
        if isinstance(value, str):
            return value
    return None


def _int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    # ASCII digits only, as `why` reads lines: isdigit() takes "٣" (it was line 3) and "²"
    text = value.strip() if isinstance(value, str) else ""
    return int(text) if text.isascii() and text.isdigit() else None
