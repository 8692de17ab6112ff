"""Command-line entry point: the command line read, and the command it names run.

Each subcommand lives in ``memhooks.commands.<name>`` as ``run(args) -> exit code`` and
is imported only when used. Exit codes: 0 success, 1 failure (diagnostics on stderr),
2 usage errors (bad flags or flag values); a closed stdout (`| head`) is no failure.

``memhooks hook`` runs as a fresh process on every prompt of every agent, so
:func:`main` sends it to its own small parser before argparse is even imported; a plain
``validate`` or ``explain`` command line is read without argparse
(:func:`_plain_arguments`), and anything else by :mod:`memhooks.parser`, loaded then.
"""

from __future__ import annotations

import os
import sys
import warnings
from types import SimpleNamespace

from .commands import arguments
from .errors import (
    BackendError,
    Diagnostic,
    DiagnosticError,
    HomeError,
    MemhooksError,
    MemhooksWarning,
    UsageError,
    store_diagnostic,
)
from .settings import relative_paths, store_variable, unknown, unknown_note

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _plain_arguments(argv: list[str]) -> Any:
    """The namespace argparse would give a plain ``validate`` or ``explain`` command line,
    without importing or building argparse (~3 ms of a ~20 ms ``explain``): only exact
    flags (``--all``, ``--strict``), ``--format`` with one of its choices (``--format X``
    or ``--format=X``), and positionals that do not start with ``-`` (``explain``'s in
    one run, as argparse requires). Anything else — help, abbreviations, ``--``, other
    options, a value argparse would refuse — is None, and argparse reads it."""
    if not argv or argv[0] not in ("validate", "explain"):
        return None
    command = argv[0]
    validate = command == "validate"
    choices = ("human", "json", "sarif") if validate else arguments.FORMATS
    values: dict[str, Any] = {"command": command, "format": "human"}
    flags = {"--all": "all", "--strict": "strict"} if validate else {}
    positionals: list[str] = []
    runs = 0  # runs of consecutive positionals
    previous_positional = False
    at = 1
    while at < len(argv):
        token = argv[at]
        at += 1
        positional = False
        if token in flags:
            values[flags[token]] = True
        elif token == "--format" and at < len(argv) and argv[at] in choices:
            values["format"] = argv[at]
            at += 1
        elif token.startswith("--format=") and token[9:] in choices:
            values["format"] = token[9:]
        elif not token.startswith("-"):
            positionals.append(token)
            positional = True
            runs += not previous_positional
        else:
            return None
        previous_positional = positional
    if validate:
        if len(positionals) > 1:
            return None
        values.update(
            path=positionals[0] if positionals else ".",
            all=values.get("all", False),
            strict=values.get("strict", False),
        )
    else:
        if runs > 1:
            return None
        values.update(paths=positionals, role=[], file=[], budget=None)
    return SimpleNamespace(**values)


#: A command line a command does not take (argparse's usage errors, a
#: :class:`~memhooks.errors.UsageError`): ours, the reference's (clap's) have no code.
USAGE = "MH044"
#: An optional extra a command needs is not installed (``memhooks mcp``): exit status 2.
EXTRA_MISSING = "MH046"


def usage_diagnostic(exc: UsageError, command: str) -> Diagnostic:
    """How a command reports ``exc``: its code (:data:`USAGE` unless it has its own), its
    message, located at the argument at fault — named alone, as a flag or a setting is
    (``--> --priority``) — or at ``command`` (``memhooks sessions``) when no argument is
    known; its help, or where ``command``'s help says what it takes. A blank argument is
    the argument still, quoted as typed (``--> ''``: ``memories show ''`` pointed at
    ``memhooks memories``)."""
    help = exc.help or f"`{command} --help` says what it takes"
    where = command if exc.argument is None else exc.argument
    if not where.strip():
        where = f"'{where}'"
    return Diagnostic(exc.code or USAGE, str(exc), where, help=help)


def command_diagnostic(exc: MemhooksError, command: str) -> Diagnostic | None:
    """How ``command`` (``memhooks memories``) reports ``exc``, an error of ours no more
    specific handler took: an unusable store's MH037 at its path
    (:func:`memhooks.errors.store_diagnostic`); no HOME to find memhooks' folders under (MH037) or a
    backend's failure (MH039, with the catalogue's help: ``memhooks backends check``) at
    the command, as a usage error no one argument is at fault for (the message says what
    to do); an optional extra not installed (MH046, the message names its ``pip install``:
    exit status 2) at the command too; None for the rest — a request the store could not
    do that no code names, an error without a code."""
    store = store_diagnostic(exc)
    extra = exc.code == EXTRA_MISSING  # commands.mcp.ExtraMissingError
    if store is not None or not (extra or isinstance(exc, (HomeError, BackendError))):
        return store
    assert exc.code is not None
    told = None if exc.code in ("MH039", "MH046") else ""  # the catalogue's help, or the message's
    return Diagnostic(exc.code, str(exc), command, help=told)


def _shown(args: SimpleNamespace | object) -> str:
    """The command as its help is asked for: ``memhooks why``, ``memhooks agents install``."""
    action = getattr(args, "action", None)
    return f"memhooks {getattr(args, 'command', '')}" + (f" {action}" if action else "")


def _usage_error(exc: UsageError, command: str, fmt: str) -> int:
    """Report a usage error of ``command`` (:func:`usage_diagnostic`) in ``fmt``; exit
    status 2."""
    from .report import print_errors

    print_errors([usage_diagnostic(exc, command)], fmt)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (130 after Ctrl-C, as shells report SIGINT)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["hook"] and not {"-h", "--help"} & set(argv):
        from .commands.hook import main as hook_main

        return hook_main(argv[1:])
    try:
        code = _dispatch(argv)
    except KeyboardInterrupt as exc:
        # One line, not a traceback. A command that knows what the interruption left
        # says so in the exception (``KeyboardInterrupt("nothing imported")``).
        said = str(exc)
        print(f"interrupted{'; ' + said if said else ''}", file=sys.stderr)
        return 130
    try:
        sys.stdout.flush()  # what is still buffered: a closed pipe is met here, not at exit
    except BrokenPipeError:
        _reader_gone()  # the command's own status stands
    return code


def _reader_gone() -> None:
    """stdout's reader went away: what is left to print goes nowhere, and Python's flush
    at exit does not complain (``Exception ignored … BrokenPipeError``, exit 120)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (a test's captured stdout)
        pass


def _warning_line(python: Callable[..., None]) -> Callable[..., None]:
    """A ``warnings.showwarning`` printing a :class:`~memhooks.errors.MemhooksWarning` as
    its diagnostic (``warning[MH028]: … --> MEMHOOKS_ROOT``); any other as ``python`` does."""

    def show(message: Warning | str, category: type[Warning], *args: Any, **kw: Any) -> None:
        if not isinstance(message, MemhooksWarning):
            return python(message, category, *args, **kw)
        from .report import print_errors

        code, where = message.code, message.where
        print_errors([Diagnostic(code, str(message), where, severity="warning")], "human")

    return show


def _unknown_settings(fmt: str) -> None:
    """MH038 on stderr for each ``MEMHOOKS_*`` variable that is no setting
    (:func:`memhooks.backends.registry.unknown_settings`): a warning, the command goes
    on. A scan of the environment's names unless one is not in the table."""
    if not unknown():
        return
    from .backends.registry import unknown_settings, variables

    odd = unknown_settings()
    if odd:
        from .report import print_errors

        meant = variables()
        print_errors([Diagnostic("MH038", unknown_note(name, meant), name) for name in odd], fmt)


def _rooted_store_paths() -> None:
    """A relative ``MEMHOOKS_STORE``, ``MEMHOOKS_EMBEDDED_PATH``, ``MEMHOOKS_CONFIG`` or
    ``MEMHOOKS_MEM0_PATH`` (:data:`memhooks.settings.ROOTED`) made absolute for
    the whole command, and the processes it starts, against the project root found from
    the working folder (:func:`memhooks.store.location.rooted`: the hook's rule too).
    Nothing to do, and nothing loaded, when none is relative."""
    if not relative_paths(os.environ):
        return
    from .store.location import rooted

    try:
        folder = os.getcwd()
    except OSError:  # the working folder was removed: the command says so itself
        return
    os.environ.update(rooted(os.environ, folder))


def _configured_store(args: Any) -> None:
    """``--store``'s default, where a command has one: the embedded store file the
    configuration file names (``[backends.embedded] path``), as recall opens it
    (:func:`memhooks.backends.registry.configured_path`) — else ``remember``, ``history
    import`` and the other commands that open the store themselves took the default file
    (review7). Nothing read when ``--store`` or a store variable is given, or there is
    no configuration file; nothing chosen when the file cannot be read or names an
    unknown backend — the command says that itself, as before, or does not need it
    (review8: ``capture off`` refused, and ``backends check`` and recall's JSON lost
    their result, to an error raised here)."""
    if getattr(args, "store", "") is not None or store_variable(os.environ):
        return
    from .backends import config_path

    try:
        if not os.path.isfile(config_path()):
            return
    except HomeError:
        return  # no home folder: no configuration file in it
    from .backends.registry import configured_path

    try:
        path = configured_path(os.environ, getattr(args, "backend", None))
    except MemhooksError:
        return  # recall, remember and backends check say it where they read it
    if isinstance(path, str):
        args.store = path


def _dispatch(argv: list[str]) -> int:
    args = _plain_arguments(argv)
    if args is None:
        # argparse and every command's flags only now: a plain command line (a warm
        # `validate --all`) loads neither (~0.2 ms, bench_engine validate_warm)
        from .parser import CommandLineError, format_asked, parse

        try:
            args = parse(argv)
        except CommandLineError as exc:
            fmt = format_asked(argv)
            if fmt != "json":
                sys.stderr.write(exc.usage)
            return _usage_error(exc, exc.prog, fmt)
    module = __import__(f"memhooks.commands.{args.command}", fromlist=["run"])
    try:
        with warnings.catch_warnings():
            # each of our warnings once, as one line; any other keeps Python's form
            warnings.simplefilter("default", MemhooksWarning)
            warnings.showwarning = _warning_line(warnings.showwarning)
            _unknown_settings(getattr(args, "format", "human"))
            _rooted_store_paths()
            _configured_store(args)
            return int(module.run(args))
    except UsageError as exc:
        return _usage_error(exc, _shown(args), getattr(args, "format", "human"))
    except DiagnosticError as exc:
        from .report import print_errors

        print_errors(exc.diagnostics, getattr(args, "format", "human"))
        return 1
    except MemhooksError as exc:
        # coded, as every diagnostic (it printed `error: …` without a code: polish23)
        diagnostic = command_diagnostic(exc, _shown(args))
        if diagnostic is None:  # no code says it
            print(f"error: {exc}", file=sys.stderr)
            return 1
        from .report import print_errors

        print_errors([diagnostic], getattr(args, "format", "human"))
        return 2 if exc.code == EXTRA_MISSING else 1
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): it has what it wanted, so stop quietly
        # with success (it was exit 1: newcomer10) — a closed stdout is not an error
        _reader_gone()
        return 0
    except OSError as exc:
        print(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 1
