"""Which lines of which files a shell command pages through (:func:`shell_reads`): the
commands agents use to read a file when they have no read tool, or prefer the shell
(Codex has none) — ``sed -n 'A,Bp' FILE``, ``nl -ba FILE | sed -n 'A,Bp'``, ``head -n N
FILE``, ``tail -n N FILE``, ``cat FILE``. Reads give ``(path, ranges)`` as
:func:`memhooks.lines.tools.reads` does (an empty ``ranges``: the whole file; ``(-N,
FROM_END)``: the last N lines, :func:`from_end` once the file's size is known); anything
else reads nothing known. Loaded only for a shell tool's command: it reads shell words
with :mod:`shlex`."""

from __future__ import annotations

import shlex

#: A read range ``(-N, FROM_END)``: the last N lines of the file (``tail -n N``), made
#: lines by :func:`from_end`; negative, so never taken for lines counted from the start.
FROM_END = -1


def shell_reads(command: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """The files a shell command pages through: ``sed -n 'A,Bp' F`` (also after ``nl
    -ba F |``), ``head -n N F``, ``tail -n N F`` (:data:`FROM_END`), ``cat F``;
    anything else reads nothing known."""
    found: list[tuple[str, list[tuple[int, int]]]] = []
    for part in _statements(command):
        try:
            words = shlex.split(part)
        except ValueError:
            continue
        piped = [p for p in _split(words, "|") if p]
        if not piped:
            continue
        first = piped[0]
        name = first[0].rsplit("/", 1)[-1]
        if name == "sed":
            found += _sed(first)
        elif name in ("cat", "nl") and len(piped) == 1:
            found += [(f, []) for f in _operands(first[1:])]
        elif name == "nl" and len(piped) == 2 and piped[1][0] == "sed":
            files = _operands(first[1:])
            window = _sed_window(piped[1][1:])
            if len(files) == 1 and window:
                found.append((files[0], [window]))
        elif name == "head":
            found += _head(first)
        elif name == "tail" and len(piped) == 1:
            found += _tail(first)
    return found


def from_end(ranges: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """``ranges`` with a :data:`FROM_END` range ``(-N, FROM_END)`` made the last N
    lines of a file of ``size`` lines (none of an empty file)."""
    out = []
    for first, last in ranges:
        if last == FROM_END:
            if size < 1:
                continue
            first, last = max(1, size + first + 1), size
        out.append((first, last))
    return out


def _sed(words: list[str]) -> list[tuple[str, list[tuple[int, int]]]]:
    window = _sed_window(words[1:])
    if window is None:
        return []
    files = [w for w in words[1:] if not w.startswith("-") and not _is_script(w)]
    return [(f, [window]) for f in files]


def _sed_window(args: list[str]) -> tuple[int, int] | None:
    if "-n" not in args:
        return None
    scripts = [a for a in args if _is_script(a)]
    if len(scripts) != 1:
        return None
    body = scripts[0][:-1]
    first, _, last = body.partition(",")
    start = _number(first)
    end = (10**9 if last == "$" else _number(last)) if last else start
    if start is None or end is None:
        return None
    return (max(1, start), end)


def _is_script(word: str) -> bool:
    return word.endswith("p") and _digits(word[:-1].replace(",", "").replace("$", ""))


def _digits(word: str) -> bool:
    """``word`` is a number the tools read: ASCII digits only, as ``memhooks why`` reads
    lines — :meth:`str.isdigit` takes any script's digits (``٣``: ``sed -n ٣p`` was
    line 3, where sed reads no line) and superscripts (``²``, which ``int`` refuses: the
    hook failed, MH042)."""
    return word.isascii() and word.isdigit()


def _number(word: str) -> int | None:
    """``word`` as a line number or count (:func:`_digits`), else None."""
    return int(word) if _digits(word) else None


def _refused(word: str) -> bool:
    """``word`` is digits of another script (``٣``, ``²``): a count head and tail refuse,
    so they print nothing known."""
    return word.isdigit() and not word.isascii()


def _head(words: list[str]) -> list[tuple[str, list[tuple[int, int]]]]:
    count = 10
    files: list[str] = []
    rest = iter(words[1:])
    for word in rest:
        if word == "-n":
            given = next(rest, "").strip()
            if _refused(given):
                return []
            count = int(given) if _digits(given) and int(given) > 0 else count
        elif _refused(word[2:] if word.startswith("-n") else word[1:]):
            return []
        elif word.startswith("-n") and _digits(word[2:]):
            count = int(word[2:])
        elif word.startswith("-") and _digits(word[1:]):
            count = int(word[1:])
        elif not word.startswith("-"):
            files.append(word)
    return [(f, [(1, count)]) for f in files]


def _tail(words: list[str]) -> list[tuple[str, list[tuple[int, int]]]]:
    """``tail [-n] N F`` (the last N lines: :data:`FROM_END`) or ``tail -n +K F`` (from
    line K on); ``-f``/``-c`` read no lines known here, nor a count in another script's
    digits (tail refuses it)."""
    count, start = 10, 0
    files: list[str] = []
    rest = iter(words[1:])
    for word in rest:
        number = next(rest, "") if word == "-n" else word[2:] if word.startswith("-n") else ""
        if _refused(number.removeprefix("+")) or _refused(word[1:]):
            return []
        if number:
            if number.startswith("+") and _digits(number[1:]):
                start = int(number[1:])
            elif _digits(number):
                count = int(number)
        elif word.startswith("-") and _digits(word[1:]):
            count = int(word[1:])
        elif word.startswith("-"):
            return []  # -f follows, -c counts bytes: no lines known
        else:
            files.append(word)
    if start:
        return [(f, [(start, 10**9)]) for f in files]
    return [(f, [(-count, FROM_END)]) for f in files] if count else []


def _operands(words: list[str]) -> list[str]:
    return [w for w in words if not w.startswith("-") and w not in (">", "<")]


def _statements(command: str) -> list[str]:
    out = [command]
    for mark in ("&&", "||", ";", "\n"):
        out = [piece for part in out for piece in part.split(mark)]
    return [p.strip() for p in out if p.strip()]


def _split(words: list[str], mark: str) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    for word in words:
        if word == mark:
            groups.append([])
        else:
            groups[-1].append(word)
    return groups
