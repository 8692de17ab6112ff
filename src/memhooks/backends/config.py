"""The user's memory-backend configuration: which backend is active, and its settings.

One TOML file in the user's configuration directory — never in a project, so a cloned
repository cannot pick where memories go (seed 000: "namespace presence does not select
a backend")::

    # $XDG_CONFIG_HOME/memhooks/config.toml   (~/.config/memhooks/config.toml)
    backend = "mem0"

    [backends.mem0]
    user_id = "alice"

``MEMHOOKS_CONFIG`` names another file. The file is read with :mod:`tomllib` (Python
3.11+) or its backport ``tomli`` (3.10). The environment wins over the file:

* ``MEMHOOKS_BACKEND`` — the active backend;
* ``MEMHOOKS_<NAME>_<KEY>`` — setting ``<key>`` of backend ``<name>``
  (``MEMHOOKS_MEM0_API_KEY`` → ``backends.mem0.api_key``);
* a vendor's own variable that an adapter lists in its ``ENV`` mapping
  (``MEM0_API_KEY``) — weaker than ``MEMHOOKS_*``, stronger than the file.

``MEMHOOKS_TEST_*`` variables belong to memhooks' own test scripts
(``MEMHOOKS_TEST_HINDSIGHT_URL``, ``MEMHOOKS_TEST_MEM0_VENV`` …) and are never read as
settings, whatever backend names come to exist (:data:`TEST_PREFIX`).

An environment value is a string, except ``true``/``false`` (booleans) and a value that
starts with ``{`` or ``[`` (JSON). An invalid file or value is MH028 naming the file and
line (or the variable) and what to fix. Secrets are never rendered:
:func:`memhooks.backends.secrets.display` shows ``set`` for them. A relative path in the
file (:data:`PATHS`) is taken from the file's folder (:meth:`Config.resolve`), a relative
store variable from the project root (:mod:`memhooks.store.location`)."""

from __future__ import annotations

import os
import sys

from ..errors import HomeError, fail
from ..settings import TEST_PREFIX  # the test scripts' variables: never settings
from . import CONFIG_VAR, NO_CONFIG, config_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

#: Top-level keys of the file: name -> (type, what it holds)
TOP_LEVEL = {"backend": (str, "the active backend"), "backends": (dict, "one table per backend")}
#: backend name -> its settings naming a file or folder (relative: :meth:`Config.resolve`).
PATHS: dict[str, tuple[str, ...]] = {"embedded": ("path",), "mem0": ("path",)}


class Config:
    """The parsed file: ``path``, ``exists``, ``backend`` (the file's choice or
    ``None``), ``tables`` (backend name -> its table) and the raw ``text`` (for lines)."""

    __slots__ = ("backend", "exists", "path", "tables", "text")

    def __init__(self, path: str, text: str | None, data: dict[str, Any]) -> None:
        self.path = path
        self.exists = text is not None
        self.text = text or ""
        self.backend: str | None = data.get("backend")
        self.tables: dict[str, dict[str, Any]] = data.get("backends", {})

    def line(self, table: str | None = None, key: str | None = None) -> int | None:
        """1-based line of ``key`` in ``[backends.<table>]`` (or of the table header, or
        of a top-level ``key``); ``None`` when it cannot be told (inline tables)."""
        return find_line(self.text, table, key)

    def resolve(self, value: str) -> str:
        """``value``, a path the file gives, made absolute (``~`` expanded) from the file's
        folder — what its author saw (store22: from the process folder, ``remember`` in
        ``src/pkg`` wrote ``src/pkg/mem.db`` into the repository; recall found nothing)."""
        return os.path.normpath(os.path.join(os.path.dirname(self.path), os.path.expanduser(value)))


def load(known: Iterable[str], env: Mapping[str, str] | None = None) -> Config:
    """Read and check the configuration file. ``known``: the backend names that exist.
    A missing default file is an empty configuration. Raises DiagnosticError MH028 for a
    file ``MEMHOOKS_CONFIG`` names that does not exist, a file that cannot be read or
    parsed, an unknown key or backend, or a value of the wrong type."""
    try:
        path = config_path(env)
    except HomeError:  # no home folder: no configuration file in it
        return Config("", None, {})
    try:
        with open(path, "rb") as fp:
            raw = fp.read()
    except FileNotFoundError:
        if (os.environ if env is None else env).get(CONFIG_VAR):
            # a variable naming a file that is not there is a typo, not "no configuration"
            raise fail("MH028", NO_CONFIG[0], path, help=NO_CONFIG[1]) from None
        return Config(path, None, {})
    except OSError as exc:
        raise fail(
            "MH028", f"cannot read the memhooks configuration: {exc.strerror}", path
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise fail("MH028", "the memhooks configuration is not UTF-8 text", path) from None
    data = _parse(text, path)
    config = Config(path, text, {})
    _check(data, config, sorted(known))
    return Config(path, text, data)


def _parse(text: str, path: str) -> dict[str, Any]:
    import re

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = re.search(r"\(at line (\d+), column (\d+)\)", message)
        reason = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "", message)
        line, column = (int(where[1]), int(where[2])) if where else (None, None)
        if "(at end of document)" in message:
            line = text.count("\n") + 1
        raise fail(
            "MH028",
            f"the memhooks configuration is not valid TOML: {reason}",
            path,
            line,
            column,
            help="fix the TOML syntax (https://toml.io); strings need quotes, tables `[backends.NAME]`",
        ) from None


def _check(data: dict[str, Any], config: Config, known: list[str]) -> None:
    for key, value in data.items():
        if key not in TOP_LEVEL:
            raise _bad(
                config,
                None,
                key,
                f"unknown key `{key}`",
                "the file understands `backend` and `[backends.NAME]` tables",
            )
        kind, what = TOP_LEVEL[key]
        if not isinstance(value, kind):
            raise _bad(
                config,
                None,
                key,
                f"`{key}` must be {'a string' if kind is str else 'a table'}",
                f"`{key}` holds {what}",
            )
    backend = data.get("backend")
    if backend is not None and backend not in known:
        raise _bad(
            config,
            None,
            "backend",
            f"unknown backend {backend!r}",
            f"use one of: {', '.join(known)}",
        )
    for name, table in data.get("backends", {}).items():
        if name not in known:
            raise _bad(
                config,
                name,
                None,
                f"unknown backend table `[backends.{name}]`",
                f"backend tables are named after a backend: {', '.join(known)}",
            )
        if not isinstance(table, dict):
            raise _bad(
                config,
                name,
                None,
                f"`backends.{name}` must be a table",
                f"write `[backends.{name}]` followed by `key = value` lines",
            )


def _bad(config: Config, table: str | None, key: str | None, message: str, help: str) -> Exception:
    line = config.line(table, key) if table or key else None
    return fail("MH028", message, config.path, line, help=help)


def find_line(text: str, table: str | None, key: str | None) -> int | None:
    """See :meth:`Config.line`. A plain scan: headers ``[backends.NAME]`` (quoted names
    too) and ``key =`` lines; dotted keys and inline tables are not followed."""
    import re

    current: str | None = None
    header = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        match = re.match(r"\[\s*backends\s*\.\s*(\"[^\"]*\"|'[^']*'|[\w-]+)\s*\]", stripped)
        if match:
            current = match[1].strip("\"'")
            if current == table and key is None:
                return number
            header = number if current == table else header
            continue
        if stripped.startswith("["):
            current = "\x00"  # some other table
            continue
        if (
            key is not None
            and current == table
            and re.match(rf"['\"]?{re.escape(key)}['\"]?\s*=", stripped)
        ):
            return number
    return header


class Settings(dict[str, "Any"]):
    """One backend's settings: a plain ``dict`` to the adapter, plus where each value
    came from (``origins``: key -> ``(path or variable, line or None)``) so an adapter
    can report a bad value with :meth:`invalid`."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.origins: dict[str, tuple[str, int | None]] = {}

    def put(self, key: str, value: Any, origin: tuple[str, int | None]) -> None:
        self[key] = value
        self.origins[key] = origin

    def source(self, key: str) -> str:
        """Where ``key`` came from, for people: ``file:line``, a variable, or ``default``."""
        if key not in self.origins:
            return "default"
        path, line = self.origins[key]
        return f"{path}:{line}" if line else path

    def invalid(self, key: str, message: str, help: str | None = None) -> Exception:
        """MH028 about setting ``key``, at the file line or variable it came from."""
        path, line = self.origins.get(key, (f"backends.{self.name}.{key}", None))
        return fail(
            "MH028",
            f"backends.{self.name}.{key}: {message}",
            path,
            line,
            help=help or f"fix `{key}` in [backends.{self.name}] or its environment variable",
        )


def env_prefix(name: str) -> str:
    """``MEMHOOKS_<NAME>_`` for backend ``name``."""
    # no re here: this runs on every hook call (a word character is alnum or "_")
    return "MEMHOOKS_" + "".join(c if c.isalnum() or c == "_" else "_" for c in name).upper() + "_"


def settings_for(
    name: str,
    config: Config,
    aliases: Mapping[str, Iterable[str]] | None = None,
    env: Mapping[str, str] | None = None,
) -> Settings:
    """Backend ``name``'s settings: its file table, overlaid by the vendor variables in
    ``aliases`` (setting key -> variable names, first set wins), overlaid by
    ``MEMHOOKS_<NAME>_<KEY>`` variables. The file's :data:`PATHS` via :meth:`Config.resolve`."""
    env = os.environ if env is None else env
    out = Settings(name)
    for key, value in config.tables.get(name, {}).items():
        if key in PATHS.get(name, ()) and isinstance(value, str) and value:
            value = config.resolve(value)
        out.put(key, value, (config.path, config.line(name, key)))
    for key, names in (aliases or {}).items():
        var = next((v for v in names if env.get(v)), None)
        if var is not None:
            out.put(key, _env_value(var, env[var]), (var, None))
    prefix = env_prefix(name)
    for var in sorted(env):
        if var.startswith(TEST_PREFIX):
            continue
        if var.startswith(prefix) and len(var) > len(prefix) and env[var] != "":
            out.put(var[len(prefix) :].lower(), _env_value(var, env[var]), (var, None))
    return out


def _env_value(var: str, raw: str) -> Any:
    text = raw.strip()
    if text in ("true", "false"):
        return text == "true"
    if text[:1] in ("{", "["):
        try:
            import json

            return json.loads(text)
        except ValueError as exc:
            raise fail(
                "MH028",
                f"{var} is not valid JSON: {exc}",
                var,
                help=f"set {var} to a JSON object or array, or to a plain string that does not start with {{ or [",
            )
    return raw
