"""Root-relative locations: the canonical spelling of a memory's scope and files.

A scope is a directory relative to the project root, written with ``/`` and no
leading ``./`` or trailing ``/``; the root itself is ``""``. Files follow the same
rules but may not be the root. Spelling is canonical so that equality in SQL
(``scope IN (...)``) means "the same folder".
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

ROOT = ""


def normalize_scope(value: object) -> str:
    """``"./src//api/"`` -> ``"src/api"``; ``""``, ``"."`` and ``"./"`` -> ``""`` (the root).

    Backslashes are read as separators. Raises :class:`TypeError` for a
    non-string, :class:`ValueError` for an absolute path or one that climbs
    above the root with ``..``.
    """
    if not isinstance(value, str):
        raise TypeError(f"a scope must be a string, got {type(value).__name__}")
    return _normalize(value, "scope")


def normalize_file(value: object) -> str:
    """A root-relative file path in canonical form (see :func:`normalize_scope`); never ``""``."""
    if not isinstance(value, str):
        raise TypeError(f"a file path must be a string, got {type(value).__name__}")
    path = _normalize(value, "file path")
    if path == ROOT:
        raise ValueError(f"file path {value!r} names the project root, not a file")
    return path


def normalize_files(values: object) -> list[str]:
    """A list of file paths, each normalized, duplicates dropped, order kept."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
        raise TypeError("`files` must be a list of root-relative paths")
    out: list[str] = []
    for value in values:
        path = normalize_file(value)
        if path not in out:
            out.append(path)
    return out


def usable_files(files: Iterable[str]) -> list[str]:
    """``files`` as root-relative store paths, leaving out what cannot be one (a hook
    may name anything)."""
    wanted = []
    for path in files:
        try:
            wanted.append(normalize_file(path))
        except (TypeError, ValueError):
            continue
    return wanted


def ancestor_scopes(scope: str) -> list[str]:
    """The scope and every directory above it, nearest first: ``"a/b"`` -> ``["a/b", "a", ""]``.

    ``scope`` must already be canonical. This is the folder cue the recall runtime
    passes to ``candidates_by_scope`` / ``search(scopes=...)``.
    """
    out = [scope]
    while scope:
        scope = scope.rpartition("/")[0]
        out.append(scope)
    return out


def _normalize(value: str, what: str) -> str:
    text = value.strip().replace("\\", "/")
    if text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        raise ValueError(f"{what} {value!r} is absolute; give it relative to the project root")
    parts: list[str] = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise ValueError(f"{what} {value!r} climbs above the project root")
            parts.pop()
            continue
        if any(not ch.isprintable() for ch in part):
            try:
                part.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    f"{what} {value!r} is not valid Unicode (bytes that were not UTF-8)"
                ) from None
            raise ValueError(f"{what} {value!r} contains control characters")
        parts.append(part)
    return "/".join(parts)
