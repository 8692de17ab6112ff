"""What blame said about one file version, kept in the state directory between calls.

One file per (work tree, path): ``<state dir>/blame/<key>.json``, lines of JSON
(:func:`save`). It holds the commit HEAD named and the file's stat when it was saved,
the file's lines, and for each line what is known of its owner: not blamed yet,
uncommitted, or (origin, line there). Blaming a range fills in those lines; a later
blame of other lines adds to them.

What invalidates what (:func:`memhooks.lines.ownership.owners` applies it):

* the same HEAD and the same stat: the entry answers as it is (no process, no read of
  the file but this one);
* the file changed (an edit): its new lines are compared with the version blame saw
  (the *base*: the text the entry was made from, kept aside once an edit is followed),
  never with the previous edit — lines kept keep the base's owners, so an edit undone
  gets them back. Changed and new lines are uncommitted when the base is HEAD's own
  version of the file (``committed``: what blame of the working tree would then say,
  without running it); when it is not (the file was already edited when first blamed),
  they are left to blame, which is the only one to know whether they are HEAD's;
* HEAD moved (a commit, a checkout): when git says the path did not change between the
  two commits the entry is kept under the new HEAD, else it is dropped.

A cache file is rebuilt from git at any time: an unreadable or foreign one is a miss.

Over 300 lines on purpose: one entry and its file's format (:data:`FORMAT`: the owners
packed, the other parts a row a line (:class:`Rows`), the text beside it), read, written
and answered here — a warm pre-tool edit
loads this module alone of the cache, and each module more on its way costs every
telling edit (issue 20 item 7: ~0.15 M instructions a module, callgrind).
"""

from __future__ import annotations

import os
import time

from .. import cachefile, filestate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from .said import Ahead, Said

# 3: filestate key; 4: owners as ints; 5: base; 6: a shallow edge is a boundary; 7: texts
# follow history.message (mapping FORMAT 2; tests/lines/test_cache_format.py ties them);
# 8: mapping FORMAT 3 (low-signal reasons); 9: head names the shallow edge (blame_key);
# 10: typing and lint passes reshape code (history.signal.reshapes: walked past);
# 11: surface verdicts judge a unit with its nesting (lines.surface_diff); 12: worded;
# 13: previous owners follow each line's text (lines.origin), not git's --ignore-rev;
# 14: owners packed in one string (:func:`pack`), read a line at a time; 15: the notes'
# low-signal verdicts follow history.signal's bookkeeping-message rule (8c39834); 16: a
# CRLF file's kept text read back as saved (ddccf4a: its entries had called committed
# lines uncommitted, and saved that); 17: lines of JSON, a row a line (:func:`save`);
# 18: the notes' whitespace verdicts judge a hunk line for line (lines.delta.changed);
# 19: a body that says "no functional change" reshapes code (history.unchanged); 20: not
# on a condition, of a part, in the negative or as a question (56913f6); 21: "…, but
# refactors …" is one; 22: a line written afresh by a hunk that rewrote nothing has no
# previous owner (lines.origin.rewrote); 23: a line of keywords alone is followed in
# its own hunk only (lines.origin.KEYWORDS); 24: a revert's previous owners are those
# of the version it put back (lines.said.REVERTS); 25: a line's own hunk before a
# shorter line elsewhere holding the same words (lines.origin); 26: previous owners
# kept line by line, one story an owner (lines.story).
FORMAT = 26

#: The parts of an entry kept one row a line, each read a row at a time (:class:`Rows`):
#: the origins (one ``[hash, path, previous hash, previous path]`` a line), and the
#: mappings — commits, previous owners (``before``) and notes — one ``[key, value]`` a
#: line (a note that is a mapping, one ``[name, key, value]`` a line of its items).
SECTIONS = ("origins", "commits", "before", "notes")


#: What is known of a line's owner: None (not blamed yet), UNCOMMITTED, or
#: ``origin index << SHIFT | line number in that origin`` (one int per line). Saved
#: packed in one string (:func:`pack`), so an edit reads the few lines it asks about
#: without parsing a number per line of the file (a 6,300-line file's owners as a
#: JSON array of ints: ~0.3 ms and ~4 M instructions of a warm edit, callgrind).
UNCOMMITTED = -1
SHIFT = 24
Known = "int | None"
#: In a packed string: a line not blamed yet, an uncommitted line (each repeated to the
#: width of one line's field); any other field is its :data:`Known` value in hex.
_NOT_BLAMED = "."
_UNCOMMITTED = "-"


def known(origin: int, line: int) -> int:
    """What is known of a line owned by ``origin`` at ``line`` there."""
    return origin << SHIFT | line


def origin_of(value: int) -> tuple[int, int]:
    """``(origin index, line number there)`` of a known line's value."""
    return value >> SHIFT, value & ((1 << SHIFT) - 1)


def pack(lines: list[int | None]) -> tuple[str, int]:
    """``(packed, width)``: ``lines`` (per line, see :data:`Known`) as one string of
    ``width`` characters a line — the value in hex, zero-padded; ``.`` repeated for not
    blamed yet, ``-`` for uncommitted — so that line ``n`` is read alone
    (:func:`unpacked`)."""
    width = max((len(f"{v:x}") for v in lines if v is not None and v >= 0), default=1)
    blank, uncommitted = _NOT_BLAMED * width, _UNCOMMITTED * width
    return "".join(
        blank if v is None else uncommitted if v < 0 else f"{v:0{width}x}" for v in lines
    ), width


def unpacked(packed: str, width: int, index: int, at: int = 0) -> int | None:
    """What is known of line ``index`` (0-based) in a :func:`pack` ed string, which
    starts at ``at`` in ``packed`` (an entry's owners inside the file's text, read in
    place: :func:`load`)."""
    start = at + index * width
    first = packed[start]
    if first == _NOT_BLAMED:
        return None
    if first == _UNCOMMITTED:
        return UNCOMMITTED
    try:
        return int(packed[start : start + width], 16)
    except ValueError:  # a damaged field: not blamed yet, so blame fills it in again
        return None


class Entry:
    """One file version's blame: ``head`` (what it answers for besides the file:
    :func:`memhooks.lines.head.blame_key`, or ``""``), ``stat`` (the file's
    stat key when saved), ``saved_ns``, ``text`` (its lines, without newlines; kept in a
    file of its own beside the entry and read only when needed: to follow an edit),
    ``lines`` (per line, see :data:`Known`), ``origins`` (``[hash, path, previous hash
    or None, previous path or None]``), ``commits`` (hash -> ``[summary, author time,
    boundary]``), ``committed`` (whether the base — the text blame saw — is HEAD's
    version of the file, or HEAD has none: a line not in the base is then surely
    uncommitted; None when not known), ``base_lines`` (None while no edit is
    followed; else the base's owners, its text in ``base``, kept aside too),
    ``before`` (previous owners already found: ``"<hash> <path>"`` -> the
    :class:`memhooks.lines.story.Story` of that owner's lines) and ``notes`` (what
    callers keep with this file version: :attr:`memhooks.lines.Ownership.notes`); ``worded``: per line of
    ``text``, ``"1"`` when it holds a letter or a digit, else ``"0"`` (:meth:`wordless`)."""

    __slots__ = (
        "_aside", "_base", "_lines", "_packed", "_rows", "_text", "_text_file", "_whole",
        "_worded", "base_changed", "base_lines", "committed", "head", "saved_ns", "stat",
        "text_changed",
    )  # fmt: skip

    def __init__(self, head: str, stat: list[int], text: list[str] | None) -> None:
        self.head = head
        self.stat = stat
        self.saved_ns = 0
        self._text = text
        self._text_file = ""
        self.text_changed = text is not None
        self._lines: list[int | None] | None = [None] * len(text or ())
        # as loaded, while _lines is None: (the file's text, where the owners start
        # in it, their length, a line's width) — read in place, never copied out
        self._packed: tuple[str, int, int, int] = ("", 0, 0, 1)
        # each section whole (parsed, or made here), or its rows as read (_rows)
        self._whole: dict[str, Any] = {"origins": [], "commits": {}, "before": {}, "notes": {}}
        self._rows: dict[str, Rows] = {}
        self.committed: bool | None = None
        self.base_lines: list[int | None] | None = None
        self._base: list[str] | None = None
        self.base_changed = False
        self._worded: str | None = None
        self._aside: Ahead | None = None

    @property
    def lines(self) -> list[int | None]:
        """Per line of this version, what is known of its owner (:data:`Known`); the
        whole list, unpacked on first use — a caller reading a few lines asks
        :meth:`known` and :attr:`size`."""
        if self._lines is None:
            text, at, length, width = self._packed
            self._lines = [unpacked(text, width, i, at) for i in range(length // width)]
        return self._lines

    @lines.setter
    def lines(self, value: list[int | None]) -> None:
        self._lines = value

    @property
    def origins(self) -> list[list[str | None]]:
        """Per origin, ``[hash, path, previous hash or None, previous path or None]``:
        the whole list (parsed on first use; a reader of a few asks :meth:`origin`)."""
        return self._section("origins")  # type: ignore[no-any-return]

    @property
    def commits(self) -> dict[str, list[str | int | bool]]:
        """Hash -> ``[summary, author time, boundary]``, whole (:meth:`commit`: one)."""
        return self._section("commits")  # type: ignore[no-any-return]

    @property
    def before(self) -> dict[str, list[list[Any]]]:
        """Previous owners already found (class docstring), whole (:meth:`previous`: one)."""
        return self._section("before")  # type: ignore[no-any-return]

    @property
    def notes(self) -> dict[str, object]:
        """What callers keep with this file version, whole (:meth:`note`: one item)."""
        return self._section("notes")  # type: ignore[no-any-return]

    @notes.setter
    def notes(self, value: dict[str, object]) -> None:
        self._rows.pop("notes", None)
        self._whole["notes"] = value

    def origin(self, index: int) -> list[str | None] | None:
        """Origin ``index`` (see :attr:`origins`), parsing that row alone when the rest
        were not asked for; None: a row that does not parse (its lines are not known).
        Raises IndexError past the last."""
        rows = self._rows.get("origins")
        found = self.origins[index] if rows is None else rows.at(index)
        return found if isinstance(found, list) and len(found) == 4 else None

    def owner(self, known: int) -> tuple[str, str, str | None, str | None] | None:
        """(hash, path there, previous hash, previous path) of the origin of a line whose
        owner is ``known`` (a commit's: :func:`known`), or None when its row does not
        parse or is not there (a file edited by hand: :meth:`forget_damaged`)."""
        try:
            row = self.origin(origin_of(known)[0])
        except IndexError:
            return None
        if row is None or not isinstance(row[0], str) or not isinstance(row[1], str):
            return None
        return row[0], row[1], row[2], row[3]

    def forget_damaged(self, numbers: Iterable[int]) -> bool:
        """Make the lines of ``numbers`` owned through a damaged origin row
        (:meth:`owner`) not blamed yet, so they are blamed again — they were "not blamed
        before the time limit" until the file changed (newcomer11); whether there were any."""
        damaged = [n for n in numbers if (k := self.known(n)) is not None and k >= 0
                   and self.owner(k) is None]  # fmt: skip
        for n in damaged:
            self.lines[n - 1] = None
        return bool(damaged)

    def commit(self, hash_: str) -> list[str | int | bool] | None:
        """What :attr:`commits` keeps of ``hash_``, or None."""
        return self._item("commits", hash_)  # type: ignore[return-value]

    def previous(self, key: str) -> list[list[Any]] | None:
        """What :attr:`before` keeps under ``key``, or None."""
        return self._item("before", key)  # type: ignore[return-value]

    def note(self, name: str, key: str) -> object:
        """Item ``key`` of the note ``name`` when that note is a mapping that has it, else
        :data:`ABSENT` — read without parsing the other notes' items."""
        rows = self._rows.get("notes")
        if rows is None:
            found = self.notes.get(name)
            return found.get(key, ABSENT) if isinstance(found, dict) else ABSENT
        return rows.note(name, key)

    def _item(self, section: str, key: str) -> object:
        rows = self._rows.get(section)
        if rows is None:
            return self._section(section).get(key)
        found = rows.get(key)
        return None if found is ABSENT else found

    def _section(self, name: str) -> Any:
        rows = self._rows.pop(name, None)
        if rows is not None:
            self._whole[name] = rows.whole(name == "origins", name == "notes")
        return self._whole[name]

    def _saved(self, name: str) -> str:
        """Section ``name``'s rows as :func:`save` writes them."""
        rows = self._rows.get(name)
        return rows.section if rows is not None else _rows_of(name, self._whole[name])

    @property
    def size(self) -> int:
        """How many lines this version has (as blame saw them)."""
        if self._lines is None:
            _text, _at, length, width = self._packed
            return length // width
        return len(self._lines)

    def known(self, number: int) -> int | None:
        """What is known of line ``number`` (1-based, within :attr:`size`)."""
        if self._lines is None:
            text, at, _length, width = self._packed
            return unpacked(text, width, number - 1, at)
        return self._lines[number - 1]

    def places(self) -> dict[str, int]:
        """For each commit owning lines of this version as far as it was blamed (every
        line, once a whole-file blame ran), in how many separate places."""
        out: dict[str, int] = {}
        last = None
        for value in self.lines:
            owner = None if value is None or value < 0 else self.origins[origin_of(value)[0]][0]
            if owner is not None and owner != last:
                out[str(owner)] = out.get(str(owner), 0) + 1
            last = owner
        return out

    @property
    def base(self) -> list[str]:
        """The text blame saw (``text`` while no edit is followed)."""
        if self.base_lines is None:
            return self.text
        if self._base is None:
            self._base = _read_text(self._text_file[: -len(".text")] + ".base")
        return self._base

    @base.setter
    def base(self, value: list[str] | None) -> None:
        self._base = value
        self.base_changed = value is not None

    def wordless(self, numbers: Iterable[int]) -> bool:
        """Whether every line ``numbers`` (1-based) of this version holds no letter and no
        digit — blank, or punctuation alone (``}``, ``);``, ``*/``): what owns only such
        lines explains nothing (:func:`memhooks.recall.why.explain_lines`; the pre-tool
        shortcut, :mod:`memhooks.hook.told`, says the same). False when the text is not
        known. Read from :attr:`worded`, kept with the entry: a warm edit reads no text."""
        worded = self.worded
        if not worded:
            return False
        size = len(worded)
        return not any(worded[n - 1] == "1" for n in numbers if 0 < n <= size)

    @property
    def worded(self) -> str:
        """Per line of :attr:`text`, ``"1"`` when it holds a letter or a digit, else
        ``"0"`` (:func:`memhooks.lines.worded.worded`); made from the text when not kept."""
        if self._worded is None:
            from .worded import worded

            self._worded = worded(self.text)
        return self._worded

    def aside(self) -> Ahead:
        """What the background blame read ahead of this version's owners' commits, kept
        beside the entry it was loaded from (:class:`memhooks.lines.said.Ahead`; empty:
        nothing, or an entry not loaded from a file). Read once per entry, each commit's
        row parsed when asked: the pre-tool shortcut and the whole way it hands the
        entry on to both ask (~120 kB of JSON for a 6,000-line file's owners)."""
        from .said import Ahead

        if not self._text_file:
            return Ahead("")
        if self._aside is None:
            self._aside = Ahead.read(self._text_file[: -len(".text")] + ".json", self.head, FORMAT)
        return self._aside

    def said(self, hash_: str) -> Said | None:
        """What the commit ``hash_`` (full hash) said, as this version knows it: in
        :attr:`notes` (kept there by :func:`memhooks.recall.why_commit.texts` from git),
        else in what the background blame read ahead (:meth:`aside`, read only when a
        note is missing); None: neither holds it (git must be asked). The one reading
        for the pre-tool shortcut (:mod:`memhooks.hook.told`) and the whole way."""
        from .said import Said

        found = Said.of_row(self.note("commits", hash_))
        return self.aside().said(hash_) if found is None else found

    @property
    def text(self) -> list[str]:
        if self._text is None:
            self._text = _read_text(self._text_file)
        return self._text

    @text.setter
    def text(self, value: list[str]) -> None:
        self._text = value
        self._worded = None
        self.text_changed = True


def _read_text(file: str) -> list[str]:
    # newline="": each line as saved, a carriage return kept — the file's lines are
    # compared with the working file's split on "\n" alone (lines.version._lines); read
    # with universal newlines a CRLF file's lines all differed, so every committed line
    # of it was taken for uncommitted once the entry was warm (newcomer6)
    try:
        return cachefile.read(file).decode("utf-8").split("\n")[:-1]
    except (OSError, ValueError):  # not UTF-8: not what save wrote, nothing known (nc11)
        return []


def path_of(state_dir: str, top: str, path: str) -> str:
    """The cache file of ``path`` in the work tree ``top``."""
    return os.path.join(state_dir, "blame", cachefile.key_name(f"{top}\0{path}") + ".json")


#: An entry read by the pre-tool edit's shortcut (:mod:`.told`) that did not settle the
#: edit, handed to the whole way in the same process: ``{file: (its key, entry)}``.
_HANDED: dict[str, tuple[filestate.Key, Entry]] = {}


def load(file: str, *, hand_on: bool = False) -> Entry | None:
    """The entry saved in ``file``, or None (none, unreadable, another format).
    ``hand_on``: the caller only reads it, and the next load of ``file`` in this process
    takes this one while the file is unchanged (a big file's entry costs 1-3 ms to read).
    Its :data:`SECTIONS` are read a row at a time, when asked (:class:`Rows`)."""
    handed = _HANDED.pop(file, None)
    if handed is not None and filestate.key_of(file) == handed[0]:
        return handed[1]
    from ..fast.jsonfast import loads

    try:
        raw, st = cachefile.read_stat(file)
        key = filestate.key(st) if hand_on else None
        text = raw.decode("utf-8")
        end = text.find("\n")  # each part's place from the header: no scan for newlines
        data = loads(text[:end])
        if end < 0 or not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        entry = Entry(data["head"], data["stat"], None)
        entry._text_file = file[: -len(".json")] + ".text"
        entry.saved_ns = data["saved_ns"]
        size, width, sizes = data["size"], data["width"], data["sizes"]
        if not isinstance(width, int) or width < 1 or not isinstance(size, int) or size < 0:
            return None
        if not isinstance(entry.saved_ns, int) or not isinstance(entry.head, str):
            return None  # what the next call compares with the file: a miss, blamed again
        if len(sizes) != len(SECTIONS):
            return None
        packed = end + 1
        worded = _part(text, packed, size * width)  # a flag a line, as many as the owners
        at = _part(text, worded, size)
        if at + sum(sizes) != len(text):
            return None  # not the parts save wrote
        entry._lines, entry._packed = None, (text, packed, size * width, width)
        entry.committed = data["committed"]
        entry.base_lines = data["base_lines"]
        entry._worded = text[worded : worded + size]
        for name, length in zip(SECTIONS, sizes):
            if length and text[at + length - 1] != "\n":
                return None
            entry._rows[name] = Rows(text, at, at + length)
            at += length
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if key is not None:
        _HANDED[file] = (key, entry)
    return entry


def save(file: str, entry: Entry) -> bool:
    """Write ``entry`` to ``file`` whole or not at all; False when it could not be.

    The file is lines of text: a header (JSON: format, head, stat, saved_ns, the packed
    owners' width, committed, base_lines, how many lines the file has, and each
    section's size in characters: :func:`load` finds every part without a scan), the
    packed owners (:func:`pack`), :attr:`Entry.worded`, then the :data:`SECTIONS`, one
    JSON row a line (compact JSON never holds a newline): a section not asked for since
    it was read is written back as it was."""
    from ..fast.jsonfast import dumps  # json.dumps, without loading json (and re) in the hook

    entry.saved_ns = time.time_ns()
    if entry.text_changed:  # the text first: an entry never names a text not written
        text = "".join(f"{line}\n" for line in entry.text)
        if not cachefile.write(file[: -len(".json")] + ".text", text, mode=0o700):
            return False
        entry.text_changed = False
    if entry.base_lines is not None and entry.base_changed:
        base = "".join(f"{line}\n" for line in entry.base)
        if not cachefile.write(file[: -len(".json")] + ".base", base, mode=0o700):
            return False
        entry.base_changed = False
    if entry._lines is None:
        loaded, at, length, width = entry._packed
        packed = loaded[at : at + length]
    else:
        packed, width = pack(entry._lines)
    sections = [entry._saved(name) for name in SECTIONS]
    data = {
        "format": FORMAT,
        "head": entry.head,
        "stat": entry.stat,
        "saved_ns": entry.saved_ns,
        "width": width,
        "committed": entry.committed,
        "base_lines": entry.base_lines,
        "sizes": [len(section) for section in sections],
    }
    data["size"] = len(packed) // width
    header = dumps(data, separators=(",", ":"))
    body = "\n".join((header, packed, entry.worded, "".join(sections)))
    if not cachefile.write(file, body, mode=0o700):
        return False
    # saved, it reads what is kept beside it as a loaded one does (Entry.aside)
    entry._text_file = file[: -len(".json")] + ".text"
    return True


def _part(text: str, at: int, length: int) -> int:
    """Where the part of ``text`` of ``length`` characters from ``at``, which a newline
    ends, is followed by the next part. Raises ValueError when no newline ends it there."""
    if text[at + length : at + length + 1] != "\n":
        raise ValueError("a part of another length")
    return at + length + 1


#: What :meth:`Entry.note` and :meth:`Rows.get` answer for a key not kept.
ABSENT: object = object()


class Rows:
    """One of an entry's :data:`SECTIONS` as read from its file: the rows' text
    (``text[start:end]``, read in place in the file's text: a big file's entry is one
    string in memory, not one for each part — each copy of ss.c's 130 kB was page
    faults of a telling edit), one compact JSON row a line, each parsed when asked. A
    warm edit asks for a few of a big file's hundreds of origins and commits: parsing
    the whole entry of a 6,300-line file (iproute2 ``misc/ss.c``) was ~4.5 M
    instructions of a telling pre-tool edit (callgrind, bare interpreter 39 M); a row
    is found by its key's text (``["<key>",`` at a line's start), as
    :class:`memhooks.lines.said.Ahead` finds one."""

    __slots__ = ("_end", "_lines", "_start", "_text")

    def __init__(self, text: str, start: int, end: int) -> None:
        # text[start - 1] is the newline that ended the part before: a row's key is
        # found after a newline, the first row's too (:func:`load` reads parts so)
        self._text, self._start, self._end = text, start, end
        self._lines: list[str] | None = None

    @property
    def section(self) -> str:
        """The rows as read (each followed by a newline)."""
        return self._text[self._start : self._end]

    def _split(self) -> list[str]:
        start, end = self._start, self._end
        return self._text[start : end - 1].split("\n") if end > start else []

    def at(self, index: int) -> object:
        """Row ``index`` (0-based) parsed (None: a row that does not parse). Raises
        IndexError past the last."""
        from ..fast.jsonfast import loads

        if self._lines is None:
            self._lines = self._split()
        try:
            return loads(self._lines[index])
        except ValueError:
            return None

    def get(self, key: str) -> object:
        """The value of the ``[key, value]`` row, or :data:`ABSENT`."""
        from ..fast.jsonfast import dumps

        return self._after(f"\n[{dumps(key)},")

    def note(self, name: str, key: str) -> object:
        """Item ``key`` of the note ``name`` (rows ``[name, key, value]``, or the note
        whole in ``[name, null, value]``), or :data:`ABSENT`."""
        from ..fast.jsonfast import dumps

        found = self._after(f"\n[{dumps(name)},{dumps(key)},")
        if found is ABSENT:
            whole = self._after(f"\n[{dumps(name)},null,")
            found = whole.get(key, ABSENT) if isinstance(whole, dict) else ABSENT
        return found

    def whole(self, listed: bool, notes: bool) -> Any:
        """Every row: the origins' list (``listed``: a row that does not parse stands as
        nothing known, ``[None, None, None, None]``), the notes' mapping (``notes``), or
        a section's mapping (a row that does not parse is left out: asked again)."""
        from ..fast.jsonfast import loads

        rows: list[object] = []
        for line in self._split():
            try:
                rows.append(loads(line))
            except ValueError:
                rows.append(None)
        if listed:
            return [r if isinstance(r, list) and len(r) == 4 else [None] * 4 for r in rows]
        out: dict[str, Any] = {}
        for row in rows:
            if not isinstance(row, list) or len(row) != (3 if notes else 2):
                continue
            if notes and row[1] is not None:
                note = out.setdefault(str(row[0]), {})
                if isinstance(note, dict):
                    note[str(row[1])] = row[2]
            else:
                out[str(row[0])] = row[-1]
        return out

    def _after(self, prefix: str) -> object:
        at = self._text.find(prefix, self._start - 1, self._end)
        if at < 0:
            return ABSENT
        from ..fast.jsonfast import value_at

        try:
            row = value_at(self._text, at + 1)
        except ValueError:
            return ABSENT
        return row[-1] if isinstance(row, list) else ABSENT


def _rows_of(name: str, whole: Any) -> str:
    """A section's rows (:class:`Rows`) made from its whole value."""
    from ..fast.jsonfast import dumps

    def row(value: object) -> str:
        return dumps(value, separators=(",", ":")) + "\n"

    if name == "origins":
        return "".join(row(origin) for origin in whole)
    if name != "notes":
        return "".join(row([key, value]) for key, value in whole.items())
    out: list[str] = []
    for note, value in whole.items():
        if isinstance(value, dict) and value:
            out.extend(row([note, key, item]) for key, item in value.items())
        else:
            out.append(row([note, None, value]))
    return "".join(out)


def stat_key(st: os.stat_result) -> list[int]:
    """What says a file may have changed (:func:`memhooks.filestate.key`), as JSON keeps it."""
    return list(filestate.key(st))


def unchanged(entry: Entry, st: os.stat_result) -> bool:
    """Whether the file is surely as ``entry`` saw it, from its stat alone."""
    return entry.stat == stat_key(st) and st.st_mtime_ns < entry.saved_ns - filestate.RACY_NS


def settle(entry: Entry) -> None:
    """After a blame of the followed version: what it found of lines kept from the base
    is the base's too (so that a later edit, or its undoing, keeps it)."""
    if entry.base_lines is None:
        return
    from difflib import SequenceMatcher

    owners, lines = entry.base_lines, entry.lines
    matcher = SequenceMatcher(None, entry.base, entry.text, autojunk=False)
    for old, new, size in matcher.get_matching_blocks():
        for k in range(size):
            if owners[old + k] is None and lines[new + k] is not None:
                owners[old + k] = lines[new + k]
