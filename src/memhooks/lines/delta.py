"""What a commit did to the lines it wrote, word for word (issue 20 items 2 and 3): only
their whitespace, only words added to what they replaced, or anything else.

Line-level recall walks past an owner that did not decide what its lines say to the
owner before it. Two of the reasons come from what the commit changed, not from its
subject, and both are judged here from one diff of the file's two versions:

* **whitespace only** (:data:`SPACE`): the changed lines hold what they replaced, save
  whitespace — re-indented, re-aligned, split or joined (requests 2d4a89f5 "adding in
  pep8 fixes" re-aligned the comments of ``REDIRECT_STATI``). Such an owner is
  formatting there, whatever its subject: walked back at a read and at an edit alike.
  Whitespace inside a string literal is no layout: ``", "`` for ``","`` changes what
  the program prints or parses (:data:`LITERALS`; review8 found it called "space").
* **words added, none lost** (:data:`GAIN`): the changed lines hold every word the
  lines they replaced held, and more, none of the added ones taken from lines removed
  elsewhere in the file (a move). Lines written where nothing was replaced are not such
  a change: a refactor's new function says nothing of what it did to older lines. A commit whose subject says it reshapes code
  (:func:`memhooks.history.signal.reshapes`: "Move DigestAuth hash algorithms to use
  usedforsecurity=False", requests a044b020, added ``usedforsecurity=False`` to five
  calls) changed what those lines do there: it is no reshape, and is told as itself.

A diff hunk here is a run of lines that differ (:class:`difflib.SequenceMatcher` over
the two versions' lines, their common start and end set aside); words are ``\\w+`` runs
counted with repeats; outside C-like code (:func:`.language.language`) a line's
indentation is no whitespace (it may be code: Python). A line asked about is judged by
the hunk holding it in the commit's version — line for line in a hunk that wrote as many lines as it replaced (no
string literal across lines in it): a line holding the words of the one it replaced,
re-spaced, is :data:`SPACE` whatever the next line changed (a "tune defaults" that
re-indented line 2 and changed a value on line 3 only re-spaced line 2); an owner's
lines are :data:`SPACE` when every one is, :data:`GAIN` when every one is either and one
gains. Anything else — a line the diff does not mark
as changed, a file git cannot show as text, more work than :data:`.differ.MAX_WORK` — is not
judged so (nothing is walked past on a guess). Verdicts are kept in the file version's
notes (``notes["delta"][hash]``: ``[[first, last, kind], …]`` of the commit's version):
what a commit changed never changes.
"""

from __future__ import annotations

from .said import GAIN, NOTES, SPACE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import Counter
    from collections.abc import Callable, Mapping, Sequence

    from .ownership import Blamed, Ownership

#: Largest version of a file judged (characters).
MAX_CHARS = 400_000
#: The string literals whose whitespace is kept when a hunk's is taken away (one
#: pattern for Python and C-like code): Python's triple-quoted strings (across lines of
#: a hunk), then one-line ``"…"``, ``'…'`` (a C char) and JavaScript's or Go's ```…```,
#: escapes honoured. Linear in the hunk; an unclosed quote (a hunk that starts inside a
#: string) matches nothing, so its text is compared as code.
LITERALS = (
    r'"""(?:\\.|[^\\])*?"""'
    r"|'''(?:\\.|[^\\])*?'''"
    r'|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'"
    r"|`(?:\\.|[^`\\])*`"
)


def verdicts(
    top: str, owners: Sequence[Blamed], own: Ownership, *, deadline: float | None = None
) -> dict[str, list[list[object]]]:
    """Each of ``owners``' verdict (module docstring) by hash, in the work tree ``top``
    whose answer ``own`` keeps them with its file version: one ``git cat-file --batch``
    for those not judged before. An owner without a version before it (it created the
    file), or that cannot be judged (git failed, ``deadline`` (:func:`time.monotonic`)
    passed: asked again later) has none. Raises nothing."""
    judged = [o for o in owners if o.previous is not None and not o.boundary]
    found = kept(own, NOTES, judged, lambda wanted: _judged(top, wanted, deadline))
    return {h: v for h, v in found.items() if isinstance(v, list)}


def kept(
    own: Ownership,
    name: str,
    owners: Sequence[Blamed],
    judge: Callable[[Sequence[Blamed]], Mapping[str, object]],
) -> dict[str, object]:
    """What ``own``'s file version keeps of each of ``owners`` by hash under its note
    ``name`` (``notes[name][hash]``: this rule's and :mod:`.surface`'s verdicts), those
    not judged before asked of ``judge`` (their verdicts by hash; raises
    :class:`.blame.BlameError` when git failed or the deadline came) and kept with the
    version. One not judged now (``judge`` raised) is :data:`.cache.ABSENT`: asked again
    later. Raises nothing but what ``judge`` raises that is no BlameError."""
    from .cache import ABSENT

    found = {o.hash: own.note(name, o.hash) for o in owners}  # each read alone
    wanted = [o for o in owners if found[o.hash] is ABSENT]
    if wanted:
        # git's runner only for an owner not judged before: a judged one is the usual
        # edit, and subprocess with what it loads is ~70 M instructions of a hook call
        from .blame import BlameError

        notes = own.notes.get(name)
        whole: dict[str, object] = notes if isinstance(notes, dict) else {}
        try:
            whole.update(judge(wanted))
        except BlameError as exc:
            if not exc.ran:  # not judged: asked again later, and a person told (unrun)
                own.unrun = str(exc)
        else:
            own.notes[name] = whole
            own.keep()
            found.update((o.hash, whole.get(o.hash)) for o in wanted)
    return found


def changed(before: str, after: str, *, indented: bool = True) -> list[list[object]] | None:
    """The runs of lines of ``after`` (1-based, inclusive) that changed only their
    whitespace or only gained words since ``before``: ``[[first, last, kind], …]``; None
    when the comparison is past :data:`.differ.MAX_WORK`. ``indented``: a line's indentation is
    code (Python: a statement moved out of a loop changed only its indentation — review-lines
    11:31), so a run re-indented, split or joined is no whitespace-only change there."""
    from .differ import differing

    a, b = before.split("\n"), after.split("\n")
    found = differing(a, b)
    if found is None:
        return None
    from collections import Counter

    hunks = [(a[i1:i2], j1, j2) for i1, i2, j1, j2 in found]
    words = [(_words(old), _words(b[j1:j2])) for old, j1, j2 in hunks]
    lost = Counter[str]()
    for old, new in words:
        lost += old - new
    out: list[list[object]] = []
    for (old_lines, j1, j2), (old, new) in zip(hunks, words, strict=True):
        if j2 <= j1:
            continue  # a removal: no line of ``after``
        gain = bool(old_lines) and not old - new and bool((new - old) - lost)
        if old_lines and _bare(old_lines, indented) == _bare(b[j1:j2], indented):
            out.append([j1 + 1, j2, SPACE])
        elif len(old_lines) == j2 - j1 and not _multiline(old_lines + b[j1:j2]):
            # line for line: one holding the words of the line it replaced, re-spaced,
            # is whitespace-only whatever its neighbours in the hunk changed
            for n, was, now in zip(range(j1 + 1, j2 + 1), old_lines, b[j1:j2], strict=True):
                same = _bare([was], indented) == _bare([now], indented)
                _run(out, n, SPACE if same else GAIN if gain else None)
        elif gain:
            out.append([j1 + 1, j2, GAIN])
    return out


def _run(out: list[list[object]], n: int, found: str | None) -> None:
    """Add line ``n`` judged ``found`` (None: neither) to the runs ``out``."""
    if found is None:
        return
    if out and out[-1][2] == found and out[-1][1] == n - 1:
        out[-1][1] = n
    else:
        out.append([n, n, found])


def _multiline(lines: list[str]) -> bool:
    """Whether ``lines`` may hold a string literal across lines (a triple quote, a
    backtick, a line continued by a backslash): its lines are not judged one by one — a
    line inside it would be compared as code, its spaces dropped."""
    return any(
        '"""' in line or "'''" in line or "`" in line or line.endswith("\\") for line in lines
    )


def _words(lines: list[str]) -> Counter[str]:
    import re
    from collections import Counter

    return Counter(w for line in lines for w in re.findall(r"\w+", line))


def _bare(lines: list[str], indented: bool) -> str:
    """``lines`` without whitespace outside string literals (:data:`LITERALS`);
    ``indented``: each line's indentation kept."""
    if indented:
        return "\n".join(line[: len(line) - len(line.lstrip())] + _unspaced(line) for line in lines)
    return _unspaced("\n".join(lines))


def _unspaced(text: str) -> str:
    """``text`` without its whitespace, save inside the string literals it holds."""
    import re  # loaded with _words, once a hunk is judged

    out, at = [], 0
    for literal in re.finditer(LITERALS, text, re.DOTALL):
        out += ["".join(text[at : literal.start()].split()), literal.group(0)]
        at = literal.end()
    out.append("".join(text[at:].split()))
    return "".join(out)


def _judged(
    top: str, owners: Sequence[Blamed], deadline: float | None
) -> dict[str, list[list[object]] | None]:
    """Each of ``owners``' verdict (:func:`changed` of its two versions), or None (not
    judged). Raises :class:`.blame.BlameError` (git failed, or ``deadline`` passed)."""
    import time

    from .blame import show
    from .language import language

    pairs = {}
    for owner in owners:
        assert owner.previous is not None
        pairs[owner.hash] = (owner.previous, (owner.hash, owner.path))
    texts = show(top, [spec for specs in pairs.values() for spec in specs], deadline, MAX_CHARS)
    out: dict[str, list[list[object]] | None] = {}
    for hash_, (before, after) in pairs.items():
        if deadline is not None and time.monotonic() >= deadline:
            break  # not judged in time: asked again later
        old, new = texts.get(before), texts.get(after)
        indented = language(after[1]) != "c"  # outside C-like code, indentation may count
        out[hash_] = None if old is None or new is None else changed(old, new, indented=indented)
    return out
