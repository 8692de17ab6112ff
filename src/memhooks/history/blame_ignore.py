"""The commits a project asks blame to look through: its ``.git-blame-ignore-revs``.

git-blame(1) ``--ignore-revs-file``: one commit name a line (full or abbreviated, ``#``
comments), by convention formatting and spelling commits. Both the history import (a
commit's low-signal reason) and ``why`` (an owner blame should look past) read it here.
The file is read from the work tree's top folder only when it really is inside it (a
symlink out of the repository is not followed), and at most 1 MiB of it.
"""

from __future__ import annotations

import os

NAME = ".git-blame-ignore-revs"


def revs(top: str) -> frozenset[str]:
    """The commit names (lower-case hex, 7 to 64 digits) ``top``'s ignore file lists;
    empty when there is none or it cannot be read."""
    real = os.path.realpath(os.path.join(top, NAME))
    if os.path.dirname(real) != os.path.realpath(top) or not os.path.isfile(real):
        return frozenset()
    try:
        with open(real, encoding="utf-8", errors="replace") as fp:
            lines = [
                line.split("#", 1)[0].strip().lower() for line in fp.read(1 << 20).splitlines()
            ]
    except OSError:
        return frozenset()
    return frozenset(line for line in lines if 7 <= len(line) <= 64 and _is_hex(line))


def listed(commit: str, names: frozenset[str]) -> bool:
    """Whether the full hash ``commit`` is one of ``names`` (abbreviations included)."""
    return commit in names or any(commit.startswith(name) for name in names)


def _is_hex(text: str) -> bool:
    return all(ch in "0123456789abcdef" for ch in text)
