"""What a tool or command reported back: output, error text, exit code, success.

Only fields the host actually sent are read; nothing is inferred from wording
(the capture feature needs real output and errors, never made-up ones).
"""

from __future__ import annotations

from .fields import boolean, first_text, integer, joined, mapping, text

OUTPUT_KEYS = ("stdout", "output", "llmContent", "textResultForLlm", "result")
EXIT_KEYS = ("exit_code", "exitCode", "exit")


class Outcome:
    """``output``, ``error``, ``exit_code`` and ``success``; each None when not reported."""

    __slots__ = ("error", "exit_code", "output", "success")

    def __init__(
        self,
        output: str | None = None,
        error: str | None = None,
        exit_code: int | None = None,
        success: bool | None = None,
    ) -> None:
        self.output = output
        self.error = error
        self.exit_code = exit_code
        self.success = success


def read(value: object) -> Outcome:
    """A tool response: a string is output; an object is read by its common keys.

    Object keys: output from ``stdout``/``output``/``llmContent``/``textResultForLlm``/
    ``result`` (strings or lists of strings), ``stderr`` appended;
    ``error`` (a string or ``{"message"}``); ``exit_code``/``exitCode``/``exit``;
    ``success`` (bool or ``"true"``), or Copilot's ``resultType``. A JSON string
    holding an object (Cursor ``tool_output``) is decoded first.
    """
    decoded = mapping(value)
    if decoded is None:
        found = joined(value)
        return Outcome(output=found)
    output = None
    for key in OUTPUT_KEYS:
        output = joined(decoded.get(key))
        if output is not None:
            break
    stderr = text(decoded.get("stderr"))
    if stderr is not None:
        output = stderr if output is None else output + "\n" + stderr
    exit_code = None
    for key in EXIT_KEYS:
        exit_code = integer(decoded.get(key))
        if exit_code is not None:
            break
    success = boolean(decoded.get("success"))
    result_type = text(decoded.get("resultType"))
    if success is None and result_type is not None:
        success = result_type == "success"
    return Outcome(output, error_text(decoded.get("error")), exit_code, success)


def error_text(value: object) -> str | None:
    """An error as a string: itself, or the ``message`` of an error object."""
    found = text(value)
    if found is not None:
        return found
    return first_text(mapping(value), "message")


def codex_shell(value: object) -> Outcome:
    """Codex tool responses are text that starts ``Exit code: N`` when a process ran."""
    found = text(value)
    if found is None:
        return read(value)
    exit_code = None
    if found.startswith("Exit code: "):
        exit_code = integer(found[len("Exit code: ") :].split("\n", 1)[0])
    success = None if exit_code is None else exit_code == 0
    return Outcome(output=found, exit_code=exit_code, success=success)
