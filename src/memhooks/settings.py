"""Every ``MEMHOOKS_*`` environment variable: its default, range and policy, in one table.

=============================== ========= ============================================
variable                        default   range and meaning
=============================== ========= ============================================
``MEMHOOKS_MAX_CHARS``          8000      1–1,000,000: characters of context injected at
                                          prompt time (within the host's cap), and of
                                          :func:`memhooks.bound_context`
``MEMHOOKS_MAX_GUIDANCE_CHARS`` 6000      1–100,000: characters of one guidance item
``MEMHOOKS_AUTO_PATHS``         12        1–256: file resources per generated cue
``MEMHOOKS_TOOL_MAX_CHARS``     2000      1–1,000,000: characters of one tool-time
                                          delivery
``MEMHOOKS_SESSION_MAX_CHARS``  8000      0–1,000,000: characters of all of a session's
                                          tool-time deliveries between compactions; the
                                          last quarter (one delivery at most) is the
                                          edits' owners' (``memhooks.hook.call``)
``MEMHOOKS_HOOK_TIMEOUT_MS``    3000      100–60,000: the hook's internal deadline
``MEMHOOKS_TOOL_RECALL``        on        ``on``/``off`` (``1``/``0``, ``true``/``false``,
                                          ``yes``/``no``): tool-time recall
``MEMHOOKS_LINE_RECALL``        on        ``on``/``off``: line-level recall in the hook
                                          (the owners of lines read and about to be
                                          replaced: ``memhooks.hook.lines``)
``MEMHOOKS_RELEVANCE_FLOOR``    on        ``on``/``off``: the prompt-time relevance floor
                                          (``memhooks.recall.floor``)
``MEMHOOKS_CACHE``              on        ``0``/``false``/``no``/``off`` turn the caches
                                          off; any other value is on
``MEMHOOKS_ANCHOR``             directory ``directory`` or ``nearest``: which hook a
                                          generated cue goes in
``MEMHOOKS_MAINTAIN``           all       ``all``, ``local`` or ``off``: which hook files
                                          agent events edit (``local``: only those
                                          memhooks made and keeps out of git)
``MEMHOOKS_SEARCH``             bm25      ``bm25`` or ``hybrid``: the embedded store's
                                          search (:func:`given`: an invalid value is a
                                          store error when the store searches,
                                          :func:`memhooks.store.semantic.mode`)
``MEMHOOKS_ROOT``               —         an existing folder: the project root
``MEMHOOKS_STORE``              —         the embedded store's file (below
                                          ``MEMHOOKS_EMBEDDED_PATH``: :func:`store_variable`)
``MEMHOOKS_STATE_DIR``          —         an absolute folder: the session state
``MEMHOOKS_CONFIG``             —         the backend configuration file (relative:
                                          to the project root, as ``MEMHOOKS_STORE``)
``MEMHOOKS_BACKEND``            —         the active backend
``MEMHOOKS_ROLES``              —         comma-separated roles
``MEMHOOKS_ROLE_MAP``           —         ``FIELD:VALUE=ROLE[,ROLE];...``
``MEMHOOKS_<BACKEND>_<KEY>``    —         one backend setting (``backends/config.py``):
                                          a key of that backend's table
                                          (``backends.registry.KEYS``)
``MEMHOOKS_LAUNCHER_FALLBACK``  —         set by the launcher for the memhooks it hands
                                          over to (``install/launcher.py``), not by users
``MEMHOOKS_TEST_*`` and the     —         memhooks' own test and bench scripts'
other :data:`SCRIPTS`                     switches: never settings
=============================== ========= ============================================

**Any other** ``MEMHOOKS_*`` **variable** is no setting: most likely a misspelt one, which
would otherwise do nothing without a word. :func:`unknown` finds them (a scan of the
environment's names against this table, no more, on every call); :func:`unknown_note`
says which setting was probably meant (:mod:`difflib`, loaded only then). A command
warns (MH038: a typo must not stop work); the agent hook says it on stderr once per
session (``memhooks.hook.call.HookCall.once``).

**Policy for an invalid value** (one rule, DEVELOPERS.md): a command raises
DiagnosticError MH028 naming the variable; the agent hook fails open — it notes the
variable on stderr and uses the default (:func:`integer` and :func:`switch` with
``notes``). ``MEMHOOKS_CACHE`` has no invalid value.

The numeric ranges and the guidance default are the reference engine's
(``shared/spec/reference-engine.md`` (a) and (e)); its 24,000-character default for the
whole plan context is not ours: what memhooks injects is recall, 8,000 characters by
default, the same in the hook, ``memhooks recall`` and :func:`memhooks.bound_context`.

Only ``os`` is imported (``memhooks.errors`` only to raise): the hook reads these.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

#: name -> (default, lowest, highest) of every integer setting.
INTEGERS = {
    "MEMHOOKS_MAX_CHARS": (8000, 1, 1_000_000),
    "MEMHOOKS_MAX_GUIDANCE_CHARS": (6000, 1, 100_000),
    "MEMHOOKS_AUTO_PATHS": (12, 1, 256),
    "MEMHOOKS_TOOL_MAX_CHARS": (2000, 1, 1_000_000),
    "MEMHOOKS_SESSION_MAX_CHARS": (8000, 0, 1_000_000),
    "MEMHOOKS_HOOK_TIMEOUT_MS": (3000, 100, 60_000),
}
#: name -> default of every on/off setting.
SWITCHES = {
    "MEMHOOKS_TOOL_RECALL": True,
    "MEMHOOKS_LINE_RECALL": True,
    "MEMHOOKS_RELEVANCE_FLOOR": True,
    "MEMHOOKS_CACHE": True,
}
#: name -> (default, choices) of every setting with named values.
CHOICES = {
    "MEMHOOKS_ANCHOR": ("directory", ("directory", "nearest")),
    "MEMHOOKS_MAINTAIN": ("all", ("all", "local", "off")),
    "MEMHOOKS_SEARCH": ("bm25", ("bm25", "hybrid")),
}
#: Settings that name a place or a list, read where they are used.
PATHS = ("MEMHOOKS_ROOT", "MEMHOOKS_STORE", "MEMHOOKS_STATE_DIR", "MEMHOOKS_CONFIG")
TEXTS = ("MEMHOOKS_BACKEND", "MEMHOOKS_ROLES", "MEMHOOKS_ROLE_MAP")
#: The variables that name the embedded store's file, first set wins, as
#: :class:`~memhooks.backends.embedded.EmbeddedBackend` reads them: its own ``path``
#: setting's (``MEMHOOKS_<NAME>_<KEY>``, :mod:`memhooks.backends.config`), then
#: ``MEMHOOKS_STORE`` (:func:`store_variable`); a relative one is made absolute by
#: :func:`memhooks.store.location.rooted`.
STORE_VARS = ("MEMHOOKS_EMBEDDED_PATH", "MEMHOOKS_STORE")
#: The variables whose relative value is taken from the project root, not from the
#: folder the process runs in (:func:`relative_paths`, :mod:`memhooks.store.location`):
#: the store's file, the backend configuration file and Mem0's local folder (its
#: ``path`` setting: it was taken from the process folder, polish23), one rule for every
#: place a variable names.
ROOTED = (*STORE_VARS, "MEMHOOKS_CONFIG", "MEMHOOKS_MEM0_PATH")
#: Variables memhooks sets for itself, never a user setting.
INTERNAL = ("MEMHOOKS_LAUNCHER_FALLBACK",)
#: Prefixes of the variables of memhooks' own test and bench scripts: never read as
#: settings (``MEMHOOKS_TEST_HINDSIGHT_URL``, ``MEMHOOKS_E2E_AGENTS``, …).
TEST_PREFIX = "MEMHOOKS_TEST_"
SCRIPTS = (TEST_PREFIX, "MEMHOOKS_E2E", "MEMHOOKS_FAULTS", "MEMHOOKS_STRESS_",
           "MEMHOOKS_RECORD_IMPORT_SETS")  # fmt: skip
#: Every setting's name (the backends' ``MEMHOOKS_<BACKEND>_<KEY>`` are a pattern:
#: :func:`unknown`).
KNOWN = frozenset({*INTEGERS, *SWITCHES, *CHOICES, *PATHS, *TEXTS, *INTERNAL})
#: Words of a switch.
ON = ("on", "1", "true", "yes")
OFF = ("off", "0", "false", "no")
#: Switches any value but an :data:`OFF` word turns on (no invalid value).
LENIENT = frozenset({"MEMHOOKS_CACHE"})


def default(name: str) -> int:
    """The default of integer setting ``name``."""
    return INTEGERS[name][0]


def integer(name: str, env: Mapping[str, str] | None = None, notes: list[str] | None = None) -> int:
    """The integer value of setting ``name`` (see the table; unset or blank: its default).
    Invalid: with ``notes`` (the hook), a line is added and the default used; else
    DiagnosticError MH028 naming the variable is raised."""
    env = os.environ if env is None else env
    default, low, high = INTEGERS[name]
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if low <= value <= high:
        return value
    invalid(
        name, f"an integer from {low} to {high}", env[name], default, notes, "set it within range"
    )
    return default


def switch(name: str, env: Mapping[str, str] | None = None, notes: list[str] | None = None) -> bool:
    """Whether on/off setting ``name`` is on (see the table); invalid as :func:`integer`."""
    env = os.environ if env is None else env
    value = (env.get(name) or "").strip().lower()
    if not value:
        return SWITCHES[name]
    if value in OFF:
        return False
    if value in ON or name in LENIENT:
        return True
    invalid(name, "`on` or `off`", value, SWITCHES[name], notes, "set it to `on` or `off`")
    return SWITCHES[name]


def given(name: str, env: Mapping[str, str] | None = None) -> str:
    """The value of choice setting ``name`` as given, lower-cased (unset or blank: its
    default), not checked: for the reader whose invalid value is its own error
    (``MEMHOOKS_SEARCH``: the store's, when it searches)."""
    env = os.environ if env is None else env
    return (env.get(name) or "").strip().lower() or CHOICES[name][0]


def choice(name: str, env: Mapping[str, str] | None = None, notes: list[str] | None = None) -> str:
    """The named value of setting ``name`` (see the table); invalid as :func:`integer`."""
    env = os.environ if env is None else env
    default, choices = CHOICES[name]
    value = given(name, env)
    if value in choices:
        return value
    named = " or ".join(f"`{c}`" for c in choices)
    invalid(name, f"one of {', '.join(choices)}", env[name], default, notes, f"set it to {named}")
    return default


def relative_paths(env: Mapping[str, str]) -> list[str]:
    """The variables of :data:`ROOTED` that ``env`` sets to a relative path (one
    starting with ``~`` counts as absolute): a look at three values, cheap enough for
    every hook call; :func:`memhooks.store.location.rooted` says where they point."""
    return [
        name
        for name in ROOTED
        if (value := env.get(name)) and not value.startswith("~") and not os.path.isabs(value)
    ]


def store_variable(env: Mapping[str, str]) -> str | None:
    """The first of :data:`STORE_VARS` that ``env`` sets, or None: the variable the
    embedded store's file is taken from, by every path that chooses the store —
    recall, the hook (:func:`memhooks.backends.plain_store`), ``remember`` and
    ``history import`` (:func:`memhooks.store.location.default_path`; fix6 found them
    reading ``MEMHOOKS_STORE`` alone)."""
    return next((name for name in STORE_VARS if env.get(name)), None)


def unknown(env: Mapping[str, str] | None = None) -> list[str]:
    """The ``MEMHOOKS_*`` names of ``env`` that are not in the table, nor one of the
    test scripts' :data:`SCRIPTS`, sorted: a scan of the names, cheap enough for every
    hook call. A backend's ``MEMHOOKS_<BACKEND>_<KEY>`` is among them: which names those
    are is the backends' fact (:func:`memhooks.backends.registry.unknown_settings`, the
    whole answer, imported only when this one is not empty)."""
    env = os.environ if env is None else env
    return sorted(
        name
        for name in env
        if name.startswith("MEMHOOKS_") and name not in KNOWN and not name.startswith(SCRIPTS)
    )


def unknown_note(name: str, backends: Iterable[str] = ()) -> str:
    """One line saying that ``name`` is no setting and was ignored, with the setting —
    of this table, or one of ``backends``, the backends' variables
    (:func:`memhooks.backends.registry.variables`) — it most resembles
    (:func:`difflib.get_close_matches`), if any."""
    import difflib

    # the words after the shared prefix (which alone makes every name look close)
    words = {known.removeprefix("MEMHOOKS_"): known for known in sorted({*KNOWN, *backends})}
    close = difflib.get_close_matches(name.removeprefix("MEMHOOKS_"), words, n=1)
    meant = f"; did you mean {words[close[0]]}?" if close else "; unset it"
    return f"{name} is not a memhooks setting (ignored){meant}"


def invalid(
    name: str, what: str, raw: str, default: object, notes: list[str] | None, fix: str
) -> None:
    """The table's policy for an invalid value of setting ``name`` (``raw``; it must be
    ``what``): DiagnosticError MH028 naming the variable, whose help is ``unset NAME or
    <fix>``, is raised; with ``notes`` (the hook) the same message and help are added as
    one line instead (:func:`memhooks.errors.coded`), saying that ``default`` is used
    meanwhile. Also for the settings read where they are used (:data:`PATHS`,
    :data:`TEXTS`)."""
    from .errors import coded, fail  # an invalid value only

    message, help = f"{name} must be {what} (got {raw!r})", f"unset {name} or {fix}"
    if notes is None:
        raise fail("MH028", message, name, help=help)
    # one coded note of the hook's stderr line (hook/reply.py), as the CLI says it
    note = coded("MH028", f"{message}; {help}; using {_said(default)} meanwhile")
    if note not in notes:
        notes.append(note)


def _said(value: object) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)
