"""The files of the target folder that the prompt names: a folder cue built from names.

A prompt often names what it is about by file name — ``"mingw: drop a bogus
declaration"``, ``"t0003: fix the poison test"``, ``"make login sessions last longer"``
in a folder holding ``session.py``. Matched against every file name, such words are
noise (``commit`` is part of dozens of names); matched against the names of *the folder
the agent works in*, they point at a few files, and the memories about those files are
the ones the work will need. Measured on ``shared/bench/git`` (495 tasks): boosting
memories about the prompt-named files of the task's folder lifts recall@5 from .414 to
about .47 while the same matching over the whole tree reaches only .45 (bench/recall_quality.py,
docs/recall.md).

A file name is split into words (its name without the last extension, runs of letters
and digits, lower-cased, a plural ``s`` dropped); a word weighs ``log(1 + n / df)``
where ``n`` is the number of files in the folder and ``df`` how many of their names hold
the word. A file is *named* when the prompt holds words carrying at least half of its
name's weight; its score is that share (0.5 to 1.0).

Pure functions plus one directory listing; nothing here reads a file's contents.
"""

from __future__ import annotations

import os

from ..paths import relative
from ..protocol.text import bound_prompt
from .runtime import folder_of
from .wording import singular, words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

#: Folders with more entries than this name no files: the hook lists and splits the
#: names on every prompt (2,000 names: ~2 ms; measured, see named_files).
MAX_ENTRIES = 2000
#: A file is named when the prompt covers at least this share of its name's weight.
MIN_SHARE = 0.5
# Words too common in prompts to name a file (``to.c`` is not named by "how to").
_SKIP = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "if", "in",
    "into", "is", "it", "of", "on", "or", "the", "this", "to", "with",
})  # fmt: skip


def tokens(text: str) -> set[str]:
    """The lower-cased words of ``text``, each without a plural ``s``
    (:mod:`.wording`: ``sessions`` -> ``session``; ``class`` stays)."""
    return {singular(word) for word in words(text.lower())}


def stem(name: str) -> str:
    """A file name without its last extension (``a.tar.gz`` -> ``a.tar``; ``.gitignore``
    and ``Makefile`` keep their whole name)."""
    dot = name.rfind(".")
    return name[:dot] if dot > 0 else name


def listing(directory: str, limit: int = MAX_ENTRIES) -> list[str]:
    """Names of the regular files (symlinks to files included) directly in ``directory``,
    sorted; ``[]`` when it cannot be listed or holds more than ``limit`` entries (which
    names could be matched would otherwise depend on the file system's order; a folder
    that large gets the folder boost alone)."""
    names: list[str] = []
    try:
        with os.scandir(directory) as entries:
            for count, entry in enumerate(entries, 1):
                if count > limit:
                    return []
                try:
                    if entry.is_file():
                        names.append(entry.name)
                except OSError:
                    continue
    except OSError:
        return []
    names.sort()
    return names


def named_files(prompt: str, names: list[str]) -> dict[str, float]:
    """``{name: share}`` for the names in ``names`` (files of one folder) that ``prompt``
    names; ``share`` in [:data:`MIN_SHARE`, 1] is the weight of the name's words the
    prompt holds over the weight of all of them (see the module docstring)."""
    wanted = tokens(bound_prompt(prompt)) - _SKIP
    if not wanted or not names:
        return {}
    words = _name_words(names)
    frequency: dict[str, int] = {}  # (no collections.Counter: the hook's imports)
    for found in words:
        for token in found:
            frequency[token] = frequency.get(token, 0) + 1
    total = len(names)
    weight: dict[str, float] = {}
    out: dict[str, float] = {}
    for name, found in zip(names, words):
        if found.isdisjoint(wanted):
            continue
        import math  # here: most prompts name no file of the folder (a hook's imports)

        for token in found:
            if token not in weight:
                weight[token] = math.log(1 + total / frequency[token])
        share = sum(weight[t] for t in found if t in wanted) / sum(weight[t] for t in found)
        if share >= MIN_SHARE:
            out[name] = round(share, 4)
    return out


def _name_words(names: list[str]) -> list[set[str]]:
    """``[tokens(stem(name)) for name in names]``: each name without its last
    ``.extension`` (unless the dot starts it, ``.gitignore``), lower-cased, as words, a
    plural ``s`` dropped. Without :mod:`re`: this runs on the hook's path."""
    out: list[set[str]] = []
    for name in names:
        dot = name.rfind(".")
        lowered = (name[:dot] if dot > 0 else name).lower()
        out.append({singular(w) if w[-1] == "s" else w for w in words(lowered)})
    return out


def named_in_folder(plan: dict[str, Any], root: str, prompt: str | None) -> dict[str, float]:
    """``{root-relative file: share}``: the files directly in the plan's target folder
    that ``prompt`` names; ``{}`` without a prompt."""
    if not prompt or not prompt.strip():
        return {}
    directory = folder_of(plan, root)
    rel = relative(directory, root)
    prefix = f"{rel}/" if rel else ""
    return {prefix + name: share for name, share in named_files(prompt, listing(directory)).items()}


def names_entry(prompt: str, folders: Iterable[str]) -> bool:
    """Whether ``prompt`` says the whole name of a folder, or of a file without its last
    extension, directly in one of ``folders`` (iproute2's root: "tc: fix the
    output", "bridge", "Makefile"), every word of it, as :func:`tokens` reads both.
    Names starting with a dot are not said; a folder holding more than
    :data:`MAX_ENTRIES` entries names nothing (as :func:`listing`). One directory
    listing per folder; nothing is read."""
    said = tokens(bound_prompt(prompt)) - _SKIP
    if not said:
        return False
    for folder in dict.fromkeys(folders):
        try:
            with os.scandir(folder) as entries:
                names = [e.name for _, e in zip(range(MAX_ENTRIES + 1), entries)]
        except OSError:
            continue
        if len(names) > MAX_ENTRIES:
            continue
        for name in names:
            if name[0] != ".":
                found = tokens(stem(name))
                if found and found <= said:
                    return True
    return False
