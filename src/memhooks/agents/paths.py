"""Path strings from payloads, made comparable without touching the filesystem.

Rules (issue 3 item 3; reference-engine (f) step 4 for the rejects):

* blank strings, strings with control characters, and URLs (``http(s)://``,
  ``git@``, any ``scheme:`` longer than a drive letter) are rejected;
* ``file://`` URIs are decoded to a path (``file:///C:/x`` gives ``C:/x``);
* backslashes become ``/``; empty and ``.`` segments are dropped (``..`` is kept:
  only the consumer, which may resolve symlinks, can collapse it correctly);
* a relative path is joined to the event's working directory when there is one;
  ``~``-relative paths are left alone (expanding them needs the environment).

Existence, containment in the project root and ``.git`` filtering belong to
the code that consumes these paths.
"""

from __future__ import annotations

from .fields import text


def clean_dir(value: object) -> str | None:
    """A directory the host reported (``cwd``, a workspace root), normalized, never joined."""
    return _clean(value)


def clean_path(value: object, cwd: str | None) -> str | None:
    """A file path from a payload, normalized and joined to ``cwd`` when relative."""
    path = _clean(value)
    if path is None or cwd is None or is_absolute(path) or path.startswith("~"):
        return path
    return _tidy(cwd.replace("\\", "/") + "/" + path)


def is_absolute(path: str) -> bool:
    """POSIX absolute, UNC (``//host``), or a Windows drive path (``C:/``, ``C:``)."""
    if path.startswith("/"):
        return True
    return len(path) >= 2 and path[1] == ":" and path[0].isascii() and path[0].isalpha()


def _clean(value: object) -> str | None:
    raw = text(value)
    if raw is None:
        return None
    path = raw.strip()
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
        return None
    if path[:5].lower() == "file:":
        return _from_file_uri(path)
    if path[:4].lower() == "git@" or _has_scheme(path):
        return None
    # strip again: a trailing backslash or slash may have been all that kept a space
    # at the end ("0 \\" -> "0 ")
    return _tidy(path.replace("\\", "/")).strip() or None


def _has_scheme(path: str) -> bool:
    # RFC 3986 scheme of two or more characters: one letter is a Windows drive.
    colon = path.find(":")
    if colon < 2:
        return False
    scheme = path[:colon]
    return (
        scheme[0].isascii()
        and scheme[0].isalpha()
        and all(ch.isascii() and (ch.isalnum() or ch in "+-.") for ch in scheme)
    )


def _from_file_uri(uri: str) -> str | None:
    rest = uri[5:]
    for mark in "?#":
        cut = rest.find(mark)
        if cut >= 0:
            rest = rest[:cut]
    if rest.startswith("//"):
        authority, slash, tail = rest[2:].partition("/")
        if authority.lower() in ("", "localhost"):
            rest = slash + tail
        else:
            rest = "//" + authority + slash + tail  # UNC share
    if "%" in rest:
        from urllib.parse import unquote  # only for the rare percent-encoded URI

        rest = unquote(rest)
    # file:///C:/x carries the drive after the authority's slash.
    if len(rest) >= 3 and rest[0] == "/" and rest[2] == ":" and rest[1].isalpha():
        rest = rest[1:]
    if not rest or any(ord(ch) < 32 for ch in rest):
        return None
    return _tidy(rest.replace("\\", "/"))


def _tidy(path: str) -> str:
    if path.startswith("//") and not path.startswith("///"):
        lead = "//"
    elif path.startswith("/"):
        lead = "/"
    else:
        lead = ""
    segments = [seg for seg in path.split("/") if seg not in ("", ".")]
    tidy = lead + "/".join(segments)
    return tidy or "."
