"""Whether capture is on: the user's opt-in, read on every hook call.

The switch is a small JSON file in the user's configuration directory, never in the
project: a repository cannot turn capture on for whoever clones it (seed 000, "loading a
hook never writes memories")::

    <config dir>/memhooks/capture.json
    {"version": 1, "user": true, "projects": {"github.com/acme/api": false}}

``<config dir>/memhooks`` is :func:`memhooks.dirs.config_dir`. A project's own entry wins over the user-wide one; with neither,
capture is off.

Why a file and not a row in the store: when capture was never turned on — the common
case — a hook pays one failed ``open`` and no database (measured: 2 µs; reading an
existing file 10 µs; opening the store and reading one row 320 µs).
"""

from __future__ import annotations

import os

from . import config_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..errors import MemhooksError

VERSION = 1
PROJECT = "project"
USER = "user"
DEFAULT = "default"


def load(path: str | None = None, *, strict: bool = False) -> dict[str, object]:
    """The settings as ``{"user": bool | None, "projects": {id: bool}}``.

    A missing file is "nothing turned on". An unreadable or malformed file is also
    "off" on the hook path; with ``strict`` it raises :class:`MemhooksError` naming
    the file, so ``memhooks capture`` never overwrites what it cannot read.
    """
    path = config_path() if path is None else path
    try:
        with open(path, encoding="utf-8") as fp:
            import json  # only when there is a file: the hook's fast path must not load re

            data = json.load(fp)
    except FileNotFoundError:
        return {"user": None, "projects": {}}
    except (OSError, ValueError) as exc:
        if strict:
            raise _error(
                f"cannot read the capture settings {path}: {exc}; fix or delete the file"
            ) from None
        return {"user": None, "projects": {}}
    if not isinstance(data, dict):
        if strict:
            raise _error(f"the capture settings {path} must hold a JSON object")
        data = {}
    user = data.get("user")
    projects = data.get("projects")
    return {
        "user": user if isinstance(user, bool) else None,
        "projects": {
            k: v
            for k, v in (projects if isinstance(projects, dict) else {}).items()
            if isinstance(k, str) and isinstance(v, bool)
        },
    }


def anything_on(settings: Mapping[str, object]) -> bool:
    """Whether capture is on anywhere: when not, no project needs to be located."""
    projects = settings.get("projects")
    return settings.get("user") is True or (
        isinstance(projects, dict) and any(v is True for v in projects.values())
    )


def effective(
    settings: Mapping[str, object], project: str, aliases: Iterable[str] = ()
) -> tuple[bool, str]:
    """(on, where it was decided: ``project``, ``user`` or ``default``) for ``project``.

    A setting saved under one of the project's earlier ids (``aliases``: the ``origin``
    URL or path ids of :class:`memhooks.store.Identity`) still decides, so a project that
    turned capture off stays off when its id moved to the root commit."""
    projects = settings.get("projects")
    if isinstance(projects, dict):
        for name in (project, *aliases):
            if name in projects:
                return bool(projects[name]), PROJECT
    user = settings.get("user")
    if isinstance(user, bool):
        return user, USER
    return False, DEFAULT


def switch(on: bool, level: str, project: str | None = None, path: str | None = None) -> str:
    """Turn capture on or off for ``project`` (``level="project"``) or for every project
    of the user (``level="user"``); return the settings path written.

    Written atomically (temp file, rename). Raises MemhooksError when the existing
    file is unreadable or cannot be replaced.
    """
    path = config_path() if path is None else path
    settings = load(path, strict=True)
    if level == USER:
        settings["user"] = on
    else:
        if not project:
            raise _error("turning capture on for a project needs the project's id")
        projects = dict(settings["projects"])  # type: ignore[call-overload]
        projects[project] = on
        settings["projects"] = dict(sorted(projects.items()))
    body = {"version": VERSION, **{k: v for k, v in settings.items() if v is not None}}
    import json

    _write(path, json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    return path


def _write(path: str, text: str) -> None:
    from .. import atomicfile  # only to write: every hook call reads these settings

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomicfile.write(path, text)
    except OSError as exc:
        raise _error(f"cannot write the capture settings {path}: {exc.strerror or exc}") from None


def _error(message: str) -> MemhooksError:
    # memhooks.errors is imported only to raise: every hook call reads these settings
    # (a tool event that changes nothing need not load it; ~0.2 ms of a ~10 ms start)
    from ..errors import MemhooksError

    return MemhooksError(message)
