"""The command line's parser: argparse, and the table of every subcommand's flags, read
top to bottom as ``memhooks --help`` lists them (pre-commit's ``main.py`` has the same
shape); and the usage errors argparse finds, each naming the argument at fault
(:class:`CommandLineError`, reported by :func:`memhooks.cli.usage_diagnostic` as MH044).

:mod:`memhooks.cli` loads it only for a command line its plain reader does not take
(:func:`memhooks.cli._plain_arguments`): a warm ``validate --all``, a fresh process in CI
and pre-commit, loads neither argparse nor this table.

Over 300 lines on purpose: the table is one piece, a line per flag.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from . import __version__
from .commands import arguments
from .errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn


def parse(argv: list[str]) -> argparse.Namespace:
    """argparse's namespace for the command line ``argv`` (only the subcommand it names
    is built: help and typos get them all). Raises :class:`CommandLineError` for one no
    parser takes, with the ``prog`` and ``usage`` of the deepest command it names. A
    ``--`` before the command ends the options there are none of: the command follows
    (``memhooks -- validate``; newcomer30: "invalid choice: '--'")."""
    if argv[:1] == ["--"] and argv[1:2] and argv[1] in {name for name, _, _ in COMMANDS}:
        argv = argv[1:]
    only = argv[0] if argv and argv[0] in {name for name, _, _ in COMMANDS} else None
    parser = build_parser(only)
    try:
        return parser.parse_args(argv)
    except CommandLineError as error:
        exc = unknown_before_command(error, parser, argv)
        if exc.prog == parser.prog:
            # the top parser finds the arguments no parser took (`why PATH --json`,
            # `history import --bad`): the deepest command named says what it takes
            named = deepest(parser, argv)
            exc.prog, exc.usage = named.prog, named.format_usage()
        raise exc from None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The CLI's parser; with ``only`` (a command name) just that subcommand's parser is
    built, so running one command does not pay for all of them (spec performance notes:
    building every subcommand was ~63 % of ``explain --format json``)."""
    parser = _Parser(
        prog="memhooks",
        description="Directory-scoped memory recall routing for AI coding agents (MEMHOOKS.md, memhooks/v2).",
    )
    parser.add_argument("--version", action="version", version=f"memhooks {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, summary, add in COMMANDS:
        if only is None or name == only:
            if summary is None:
                add(sub)
            else:
                add(sub.add_parser(name, help=summary, description=summary))
    return parser


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter reading the terminal width itself (:func:`_columns`):
    argparse's own imports ``shutil`` (and with it bz2, lzma, fnmatch; ~1.5 ms) on every
    ``add_argument``, to format help that is almost never printed."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
        **kw: Any,
    ) -> None:
        width = _columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width, **kw)


class _Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with :class:`_Formatter`, raising its usage errors."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        kw.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kw)

    def error(self, message: str) -> NoReturn:
        # argparse prints its usage errors itself, without a code: raised instead,
        # memhooks.cli reports them as every usage error (MH044)
        raise CommandLineError(message, self.prog, self.format_usage())


class CommandLineError(UsageError):
    """A usage error argparse found (``message``, its English text) in the command line
    of ``prog`` (``memhooks why``), whose ``usage`` line is printed before it. The
    argument at fault is read from the text argparse makes of it — ``argument --format:
    …``, ``unrecognized arguments: --nope``, ``the following arguments are required:
    PATH``, ``ambiguous option: --st …`` —; ``prog`` otherwise."""

    def __init__(self, message: str, prog: str, usage: str) -> None:
        match = re.match(_ARGUMENT, message)
        argument = match and next(group for group in match.groups() if group)
        super().__init__(message, argument=argument or prog)
        self.prog, self.usage = prog, usage


#: The argument argparse names in its usage errors (``argparse.ArgumentError``'s
#: ``argument X: …``, and the messages ``parse_args`` makes itself). A pattern compiled
#: when a usage error is raised: compiled at import it was ~0.2 ms of every command.
_ARGUMENT = (
    r"argument (\S+?): |unrecognized arguments: (\S+)"
    r"|the following arguments are required: ([^,]+)|ambiguous option: ([^\s=]+)"
)


def _columns() -> int:
    """Terminal columns as ``shutil.get_terminal_size()`` finds them: ``$COLUMNS``, else
    the terminal of standard output, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            stdout = sys.__stdout__  # None without a console (pythonw)
            columns = os.get_terminal_size(stdout.fileno()).columns if stdout else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


# fmt: off
# The parser table (module docstring): one line per flag, read as ``--help`` lists them.
def _validate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", default=".", help="a hook file, or a directory to scan (default: .)")
    p.add_argument("--all", action="store_true", help="scan the whole project root of PATH")
    p.add_argument("--strict", action="store_true", help="fail (exit 1) on warnings too, and when no hook is found")
    p.add_argument("--format", choices=("human", "json", "sarif"), default="human")


def _explain_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH", help="target files or folders (default: .)")
    p.add_argument("--role", action="append", default=[], type=arguments.nonblank, metavar="ROLE", help="an active role (repeatable)")
    p.add_argument("--file", action="append", default=[], type=arguments.nonblank, metavar="FILE", help="an active file; its folder joins the plan (repeatable)")
    p.add_argument("--budget", type=arguments.budget, metavar="CHARS", help="print the bounded context as injected, at most CHARS characters")
    p.add_argument("--format", choices=arguments.FORMATS, default="human")


def _init_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", default=".", help="a folder of the project (default: .)")
    p.add_argument("--format", choices=arguments.FORMATS, default="human", help="error output format")


def _note_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--query", required=True, help="the recall query text")
    p.add_argument("--cwd", default=".", help="the folder the note is about (default: .)")
    p.add_argument("--priority", type=float, metavar="F", help="0.0 to 1.0; ranks queries under a tight budget")
    p.add_argument("--role", action="append", default=[], metavar="R", help="only for this role (repeatable)")
    p.add_argument("--entity", action="append", default=[], metavar="E", help="a name, or a JSON object {name, type, salience} (repeatable)")
    p.add_argument("--resource", action="append", default=[], metavar="R", help="a name, or a JSON object {name, kind, salience} (repeatable)")
    p.add_argument("--tag", action="append", default=[], metavar="T", help="a tag (repeatable)")
    p.add_argument("--backends", default="{}", metavar="JSON", help="provider routing as a JSON object, e.g. '{\"mem0\": {\"top_k\": 8}}'")
    p.add_argument("--format", choices=arguments.FORMATS, default="human", help="error output format")


def _remove_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--query", required=True, help="the recall query text (whitespace-normalized match)")
    p.add_argument("--cwd", default=".", help="the folder whose nearest hook is edited (default: .)")
    p.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    p.add_argument("--format", choices=arguments.FORMATS, default="human", help="json: the reference's compact summary line; also the error format")


def _prune_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", default=".", help="a hook file, or a directory to scan (default: .)")
    p.add_argument("--all", action="store_true", help="every hook of the project root of PATH")
    p.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    p.add_argument("--format", choices=arguments.FORMATS, default="human", help="json: the reference's compact summary line; also the error format")


def _event_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--agent", metavar="NAME", help="the host that sent the payload (default: detected)")
    p.add_argument("--anchor", choices=("directory", "nearest"), help="where a folder's cue goes (default: MEMHOOKS_ANCHOR, else directory)")
    p.add_argument("--format", choices=arguments.FORMATS, default="human", help="error output format")


def _maintain_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", default=".", help="a folder of the project (default: .)")
    p.add_argument(
        "--format",
        choices=arguments.FORMATS,
        default="human",
        help="json: one object with the hooks written and what still waits; also the error format",
    )


def _migrate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", default=".", help="a hook file, or a directory to scan (default: .)")
    p.add_argument("--all", action="store_true", help="every hook of the project root of PATH")
    p.add_argument("--dry-run", action="store_true", help="print a unified diff; write nothing")
    p.add_argument("--format", choices=arguments.FORMATS, default="human")


def _recall_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", default=".", help="the folder or file being worked on (default: .)")
    p.add_argument("--prompt", help="the user's request; searched alongside every recall query")
    p.add_argument("--file", action="append", default=[], type=arguments.nonblank, metavar="FILE", help="an active file (repeatable)")
    p.add_argument("--role", action="append", default=[], type=arguments.nonblank, metavar="ROLE", help="an active role (repeatable)")
    p.add_argument("--budget", type=arguments.budget, metavar="CHARS", help="characters the injected context may use (default: 8000; 2000 with --tool-time)")
    p.add_argument("--tool-time", action="store_true", help="recall as the agent hook does right after a tool touched PATH (and the --file files): only the memories anchored to that folder or those files")
    p.add_argument("--backend", metavar="NAME", help="memory backend (default: MEMHOOKS_BACKEND, else the config file's, else embedded)")
    arguments.store_option(p)
    p.add_argument("--format", choices=("human", "json", "context"), type=arguments.format_name, default="human")


def _remember_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", type=arguments.nonblank, help="what to remember")
    p.add_argument("--cwd", default=".", help="the folder the memory is about (default: .)")
    p.add_argument("--kind", help="open label, e.g. decision, failure, workaround, constraint")
    p.add_argument("--tag", action="append", default=[], help="a tag (repeatable)")
    p.add_argument("--entity", action="append", default=[], help="an entity name (repeatable)")
    p.add_argument("--file", action="append", default=[], type=arguments.nonblank, help="a related file, relative to the current directory (repeatable)")
    p.add_argument("--replaces", metavar="ID", help="the id of an older memory this one replaces: it is kept, marked superseded, and left out of recall")
    p.add_argument("--backend", metavar="NAME", help="write to this backend (default: the configured one, else the embedded store)")
    arguments.store_option(p)


def _memories_arguments(p: argparse.ArgumentParser) -> None:
    acts = p.add_subparsers(dest="action", metavar="ACTION")
    acts.required = True
    a = acts.add_parser("list", help="memories of the project, newest first")
    arguments.project_options(a)
    a.add_argument("--scope", help="only memories scoped exactly to this root-relative folder")
    a.add_argument("--limit", type=arguments.count, default=100, help="at most this many (0: all; default 100)")
    a.add_argument("--all", action="store_true", help="include obsolete memories")
    a.add_argument("--format", choices=arguments.FORMATS, type=arguments.format_name, default="human")
    a = acts.add_parser("search", help="full-text search (BM25)")
    arguments.project_options(a)
    a.add_argument("text")
    a.add_argument("--limit", type=arguments.positive, default=10, help="at most this many hits (default 10)")
    a.add_argument("--all", action="store_true", help="include obsolete memories")
    a.add_argument("--format", choices=arguments.FORMATS, type=arguments.format_name, default="human")
    a = acts.add_parser("show", help="one memory as JSON")
    arguments.project_options(a)
    a.add_argument("id")
    a = acts.add_parser("forget", help="delete one memory, or every memory of one agent session")
    arguments.project_options(a)
    a.add_argument("id", nargs="?", help="the memory's id")
    a.add_argument("--session", metavar="ID", help="instead: every memory imported or captured from this agent session (its id, or its first 8+ characters)")
    a = acts.add_parser("import", help="load JSON Lines (a line needs only `text`)")
    arguments.project_options(a)
    a.add_argument("file", help="a .jsonl file, or - for standard input")
    a = acts.add_parser("export", help="write JSON Lines")
    arguments.project_options(a)
    a.add_argument("file", nargs="?", help="output file (default: standard output)")
    a.add_argument("--salvage", action="store_true", help="from a damaged store: every memory still readable, read row by row")


def _history_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .commands import history

    history.add_parser(sub)


def _transcripts_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .commands import transcripts

    transcripts.add_parser(sub)


def _backends_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("list", "check"))
    p.add_argument("--backend", metavar="NAME", help="check: this backend (default: the configured one)")
    p.add_argument("--timeout", type=arguments.seconds, default=10.0, metavar="SECONDS", help="check: seconds a probe search may take (default: 10)")
    arguments.store_option(p)
    p.add_argument("--format", choices=arguments.FORMATS, type=arguments.format_name, default="human")


def _hook_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("event", nargs="?", help="the host's event name, for hosts whose payload names none (Copilot CLI)")
    p.add_argument("--agent", metavar="NAME", help="the host that calls (default: detected from the payload)")
    p.add_argument("--role", action="append", default=[], type=arguments.nonblank, metavar="ROLE", help="an active role (repeatable; also MEMHOOKS_ROLES)")


def _capture_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("on", "off", "status", "process"))
    level = p.add_mutually_exclusive_group()
    level.add_argument("--project", dest="level", action="store_const", const="project", help="this project only (default)")
    level.add_argument("--user", dest="level", action="store_const", const="user", help="every project of this user")
    p.add_argument("--cwd", default=".", help="a folder of the project (default: .)")
    arguments.store_option(p)
    p.add_argument("--format", choices=arguments.FORMATS, default="human")


def _mcp_arguments(p: argparse.ArgumentParser) -> None:
    arguments.store_option(p)


def _agents_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("install", "uninstall", "status", "check"))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--agent", action="append", default=[], metavar="NAME", help="an agent host (repeatable; default for install: the hosts found on this machine)")
    which.add_argument("--all", action="store_true", help="every supported agent host")
    level = p.add_mutually_exclusive_group()
    level.add_argument("--project", dest="level", action="store_const", const="project", help="this project's config (fires only where the host reads it: see docs/agents.md)")
    level.add_argument("--user", dest="level", action="store_const", const="user", help="the user's config in the home directory (default: fires wherever the host starts)")
    p.add_argument("--cwd", default=".", help="a folder of the project (default: .)")
    p.add_argument("--role", action="append", default=[], type=arguments.nonblank, metavar="ROLE", help="a role the installed hooks pass on (repeatable)")
    p.add_argument("--via", choices=("plugin", "shell"), help="hermes: in-process plugin (default) or shell hooks")
    p.add_argument("--capture", action="store_true", help="also wire the events opt-in capture uses (commands, turn end, compaction, session end); with uninstall: remove only those")
    p.add_argument("--mcp", action="store_true", help="also register the MCP server `memhooks mcp` in the host's MCP config; with uninstall: remove only that")
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    p.add_argument("--format", choices=arguments.FORMATS, default="human")


def _hooks_arguments(p: argparse.ArgumentParser) -> None:
    from .commands.hooks import add_arguments

    add_arguments(p)


def _sessions_arguments(p: argparse.ArgumentParser) -> None:
    from .commands.sessions import add_arguments

    add_arguments(p)


def _why_arguments(p: argparse.ArgumentParser) -> None:
    from .commands.why import add_arguments

    add_arguments(p)


#: (name, one-line help, adds its arguments) of every subcommand, in ``--help`` order;
#: with no help, the function adds the whole subcommand itself.
COMMANDS: tuple[tuple[str, str | None, Callable[[Any], None]], ...] = (
    ("validate", "check MEMHOOKS.md files against the memhooks/v2 rules", _validate_arguments),
    ("explain", "resolve the hook chain for folders and print the retrieval plan", _explain_arguments),
    ("init", "enable MemHooks: create the project's root MEMHOOKS.md", _init_arguments),
    ("note", "add or enrich a recall query in the nearest MEMHOOKS.md", _note_arguments),
    ("remove", "remove a recall query from the nearest MEMHOOKS.md", _remove_arguments),
    ("prune", "drop generated cues' file resources that no longer exist", _prune_arguments),
    ("event", "maintain generated cues from one agent hook payload on stdin", _event_arguments),
    ("maintain", "apply the hook updates agent hooks accepted and could not apply yet", _maintain_arguments),
    ("migrate", "convert memhooks/v1 hooks to memhooks/v2 in place", _migrate_arguments),
    ("recall", "recall the memories that matter in a folder, within a budget", _recall_arguments),
    ("remember", "record a memory in the embedded store, scoped to a folder", _remember_arguments),
    ("memories", "list, show, search, forget, import or export stored memories", _memories_arguments),
    ("history", None, _history_parser),  # adds its own parser
    ("transcripts", None, _transcripts_parser),  # adds its own parser
    ("backends", "list the memory backends and their settings, or check that one answers", _backends_arguments),
    ("hook", "serve one agent hook call: payload on stdin, the host's response on stdout", _hook_arguments),
    ("capture", "opt in or out of capturing what agents learn; process captured state", _capture_arguments),
    ("mcp", "serve memhooks' tools to an agent over MCP (stdio); needs memhooks[mcp]", _mcp_arguments),
    ("agents", "install, uninstall, inspect or check memhooks' hooks in agent hosts", _agents_arguments),
    ("sessions", "what the hook delivered to agents, per session (list, show)", _sessions_arguments),
    ("hooks", "the project's hook files and whether git has them; share those memhooks made", _hooks_arguments),
    ("why", "the commits that explain lines of a file, and what they replaced", _why_arguments),
)
# fmt: on


def format_asked(argv: list[str]) -> str:
    """The ``--format`` a command line argparse refused asks for (``json``: its usage
    error is JSON too), else ``human``; what follows ``--`` is no option (``why --
    --format`` names a file, newcomer23)."""
    argv = _before_dashes(argv)
    for at, token in enumerate(argv):
        value = argv[at + 1] if token == "--format" and at + 1 < len(argv) else None
        if token.startswith("--format="):
            value = token.partition("=")[2]
        if value == "json":
            return "json"
    return "human"


def deepest(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The parser of the deepest command ``argv`` names under ``parser`` (``history
    import``): each level's subcommands' action holds their parsers by name."""
    for word in argv:
        for action in parser._actions:
            if isinstance(action.choices, dict) and word in action.choices:
                parser = action.choices[word]
                break
    return parser


def unknown_before_command(
    exc: CommandLineError, parser: argparse.ArgumentParser, argv: list[str]
) -> CommandLineError:
    """``exc``, or — when the top parser missed its command and ``argv`` holds options it
    does not know before the command (``memhooks --bad``, ``memhooks --format json why
    x``) — the error that names them, and says a command's own option goes after the
    command's name: argparse looks for the command first, so it said "the following
    arguments are required: COMMAND", or took the option's value for the command
    ("invalid choice: 'json'", newcomer21), or named ``--format=json`` with no word of
    where it goes. A command's own "required" error goes to
    :func:`_dash_path`."""
    text = str(exc)
    if exc.prog != parser.prog and text.startswith("the following arguments"):
        return _dash_path(exc, deepest(parser, argv), argv)
    if exc.prog != parser.prog or not text.startswith(
        ("the following arguments", "argument COMMAND: invalid choice", "unrecognized arguments")
    ):
        return exc
    commands = next((a.choices for a in parser._actions if isinstance(a.choices, dict)), {})
    at = next((i for i, word in enumerate(argv) if word in commands), len(argv))
    unknown = _not_taken(parser, argv[:at])
    if not unknown:
        return exc
    message = f"unrecognized arguments: {' '.join(unknown)}"
    moved = [w for w in unknown if at < len(argv) and not _not_taken(commands[argv[at]], [w])]
    if moved:
        flag = moved[0].split("=")[0]
        message += f" (a command's options go after it: `memhooks {argv[at]} {flag} …`)"
    return CommandLineError(message, exc.prog, exc.usage)


def _dash_path(
    exc: CommandLineError, command: argparse.ArgumentParser, argv: list[str]
) -> CommandLineError:
    """``exc`` (a command missed its positional argument), or — when ``argv`` holds a word
    that looks like an option the command does not take (``memhooks why -dash.py``) — the
    error that names it, with ``--`` for a path that starts with a dash (argparse took it
    for an option and said "the following arguments are required", newcomer22)."""
    unknown = _not_taken(command, argv)
    if not unknown:
        return exc
    message = f"unrecognized arguments: {' '.join(unknown)}"
    if not unknown[0].startswith("--"):
        message += (
            f" (a path that starts with `-` goes after `--`: `{command.prog} -- {unknown[0]}`)"
        )
    return CommandLineError(message, exc.prog, exc.usage)


def _before_dashes(words: list[str]) -> list[str]:
    """``words`` up to a ``--``: after it nothing is an option."""
    return words[: words.index("--")] if "--" in words else words


def _not_taken(parser: argparse.ArgumentParser, words: list[str]) -> list[str]:
    """The words of ``words`` before a ``--`` that look like options ``parser`` does not
    take (``--bad``, ``--format=json`` where there is no ``--format``)."""
    words = _before_dashes(words)
    known = {flag for action in parser._actions for flag in action.option_strings}
    return [w for w in words if w.startswith("-") and w.split("=")[0] not in known]
