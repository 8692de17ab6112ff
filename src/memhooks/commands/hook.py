"""``memhooks hook [--agent NAME] [--role R]... [EVENT]``: serve one agent hook call.

Reads the host's JSON payload on stdin and writes only the host's response on stdout
(see :mod:`memhooks.hook`). Always exits 0 and writes at most one line on stderr, each
of its notes starting with its stable code (:mod:`memhooks.hook.reply`):
a hook must never block or break the agent (Claude Code reads exit 2 as "erase the
prompt"). An internal deadline (``MEMHOOKS_HOOK_TIMEOUT_MS``, default 3000) answers
with the host's no-op before any host's own timeout.

This module is the console script's fast path (``memhooks.cli.main`` sends ``hook``
here before building the full parser): it imports only what one call uses.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping
    from typing import BinaryIO, NoReturn, TextIO

    from ..hook.reply import Reply

PREFIX = "memhooks hook: "


def main(argv: list[str]) -> int:
    """Entry point from :func:`memhooks.cli.main` with the arguments after ``hook``."""
    parsed = parse_argv(argv)
    if parsed is None:
        from ..hook.reply import coded

        sys.stderr.write(f"{PREFIX}{coded('MH040', f'bad arguments {argv!r}; {USAGE}')}\n")
        return 0
    agent, event, roles = parsed
    return serve(agent, event, roles, exiting=True)


def process(argv: list[str]) -> NoReturn:
    """The hook process :mod:`memhooks.__main__` runs (:func:`memhooks.fast.prepare` put
    the shims in place): :func:`main`, then the process ends with its status. It has
    written its reply and committed its state (and then the docstring-free bytecode of
    what it loaded, where that was missing: :func:`memhooks.fast.bytecode.keep_stripped`),
    so it ends without the interpreter's teardown (closing the state file checkpoints
    its WAL, ~1 ms; module and object teardown more); SQLite keeps what was committed
    either way."""
    from ..paths import keep_resolved

    keep_resolved()  # one call in this process: each path resolved once
    code = main(argv)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        from ..fast.bytecode import keep_stripped

        keep_stripped()  # after the reply: the calls to come load no docstrings
    finally:
        os._exit(code)


def run(args: argparse.Namespace) -> int:
    """The argparse path (``python -m memhooks hook`` through the full parser)."""
    return serve(args.agent, args.event, args.role, exiting=True)


def parse_argv(argv: list[str]) -> tuple[str | None, str | None, list[str]] | None:
    """(agent, event, roles), or None when the arguments need the full parser."""
    agent: str | None = None
    event: str | None = None
    roles: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg in ("--agent", "--role"):
            value = next(args, None)
            if value is None:
                return None
            if arg == "--agent":
                agent = value
            else:
                roles.append(value)
        elif arg.startswith("--agent="):
            agent = arg[len("--agent=") :]
        elif arg.startswith("--role="):
            roles.append(arg[len("--role=") :])
        elif arg.startswith("-") or event is not None:
            return None
        else:
            event = arg
    return agent, event, roles


def serve(
    agent: str | None,
    event: str | None,
    roles: list[str],
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    env: Mapping[str, str] | None = None,
    *,
    exiting: bool = False,
) -> int:
    """One hook call, start to finish, under the internal deadline. Returns 0.
    ``exiting``: the process ends right after (:func:`memhooks.hook.handle`)."""
    from ..agents.registry import noop
    from ..hook.deadline import Watchdog, budget_ms, missed, started_ago, window
    from ..hook.handler import PAYLOAD, handle
    from ..hook.payload import read_payload
    from ..hook.reply import Reply, coded

    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    env = os.environ if env is None else env
    if env.get("MEMHOOKS_ROOT"):  # one that is ignored says so to the CLI, not to hosts
        import warnings

        from ..errors import MemhooksWarning

        warnings.filterwarnings("ignore", category=MemhooksWarning)
    started = time.monotonic()
    ms, warning = budget_ms(env)
    # The deadline counts the process's own start too (the host waited through it).
    before = started_ago() if exiting else 0.0
    seconds = window(ms, before)
    fallback = noop(agent, event) if agent else ""
    if _is_tty(stdin):
        _emit(
            stdout,
            stderr,
            Reply(fallback, coded(PAYLOAD, f"no payload: stdin is a terminal; {USAGE}")),
        )
        return 0

    def expire() -> None:
        slow = f" ({before:.1f} s of it starting Python and memhooks)" if before >= 0.5 else ""
        _emit(
            stdout,
            stderr,
            Reply(
                fallback,
                missed(f"gave up after the {ms} ms deadline{slow}; nothing added"),
            ),
        )

    dog = Watchdog(seconds, expire).start()
    saved, sys.stdout = sys.stdout, sys.stderr  # a stray print must never corrupt the response
    try:
        raw, problem = read_payload(stdin)
        reply = handle(
            raw,
            agent=agent,
            native_event=event,
            roles=roles,
            env=env,
            time_s=seconds - (time.monotonic() - started),
            exiting=exiting,
            claim=dog.claim,  # the ledger stands only for a reply that wins the output
        )
        if problem:
            reply.add_note(coded(PAYLOAD, problem))
    finally:
        sys.stdout = saved
    if warning:
        reply.note = f"{warning}; {reply.note}" if reply.note else warning
    if dog.claim():
        dog.cancel()
        _emit(stdout, stderr, reply)
    return 0


USAGE = "usage: memhooks hook [--agent NAME] [--role R]... [EVENT] < payload.json"


def _is_tty(stdin: BinaryIO) -> bool:
    try:
        return stdin.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _emit(stdout: TextIO, stderr: TextIO, reply: Reply) -> None:
    text = reply.stdout
    note = reply.note
    try:
        if text:
            text = text if text.endswith("\n") else text + "\n"
            raw = getattr(stdout, "buffer", None)  # UTF-8 whatever the locale says
            if raw is not None:
                stdout.flush()
                raw.write(text.encode("utf-8"))
                raw.flush()
            else:
                stdout.write(text)
                stdout.flush()
        if note:
            from ..terminal import visible

            # One line, whatever a path or a hook in it holds (untrusted text).
            stderr.write(PREFIX + visible(" ".join(str(note).split())) + "\n")
            stderr.flush()
    except (BrokenPipeError, OSError):
        pass
