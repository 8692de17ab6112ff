"""Every line a hook writes on stderr carries a stable code for each of its notes, in one
format — ``memhooks hook: MHnnn <what>; MHnnn <what>`` — the code a command gives the same
problem (last newcomer trial: only an invalid hook's MH000 had one; a payload that is not
JSON, a misspelt setting, an unusable store said nothing a user could look up). The cases
are data (``data/stderr_codes.json``); each runs a hook process as a host runs it, on a
recorded payload, and still exits 0 with the host's no-op or answer."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hook_support import payload

from memhooks.agents.registry import _MODULES
from memhooks.catalogue import CATALOGUE
from memhooks.hook.reply import Reply, is_coded

CASES = json.loads((Path(__file__).parent / "data" / "stderr_codes.json").read_text(encoding="utf-8"))["cases"]


def _run(case: dict[str, object], root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    settings = {k: str(v).replace("{root}", str(root)) for k, v in dict(case.get("settings") or {}).items()}  # type: ignore[call-overload]
    if "payload" in case:
        stdin = payload(str(case["payload"]), root).encode()
    elif "raw_hex" in case:
        stdin = bytes.fromhex(str(case["raw_hex"]))
    else:
        stdin = str(case["raw"]).encode()
    argv = [sys.executable, "-m", "memhooks", "hook", *case["args"]]  # type: ignore[misc]
    if not case.get("open_stdin"):
        return subprocess.run(argv, input=stdin, env={**env, **settings}, cwd=root,
                              capture_output=True, timeout=60, check=False)  # fmt: skip
    # a host that sent part of an event and holds stdin open: the deadline answers
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env={**env, **settings}, cwd=root) as proc:  # fmt: skip
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.flush()
        out, err = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
        proc.stdin.close()
        return subprocess.CompletedProcess(argv, proc.wait(timeout=60), out, err)


@pytest.mark.parametrize("case", CASES, ids=[str(c["id"]) for c in CASES])
def test_each_hook_stderr_line_starts_each_note_with_its_code(
    case: dict[str, object], project: Path, env: dict[str, str]
) -> None:
    done = _run(case, project, env)
    assert done.returncode == 0
    stderr = done.stderr.decode()
    assert stderr.count("\n") == 1 and stderr.endswith("\n")  # one line
    line = stderr[:-1]
    if "stderr" in case:
        agents = ", ".join(sorted(_MODULES))
        assert line == str(case["stderr"]).replace("{root}", str(project)).replace("{agents}", agents)
    else:
        assert line.startswith(str(case["stderr_start"]))
    code = line.split()[2]
    assert code in CATALOGUE and str(case["id"]).startswith(code)
    assert code not in done.stdout.decode()  # the model is told in its words; the code is the user's


def test_every_code_the_hook_line_alone_carries_is_covered() -> None:
    """MH039-MH043 name only the hook's line (no command renders them): each has a case."""
    page = (Path(__file__).parents[2] / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    hook_only = set(re.findall(r"^\| (MH\d{3}) \| [^|]+ \| [^|]+ \| the agent hook:", page, re.MULTILINE))
    assert hook_only == {"MH039", "MH040", "MH041", "MH042", "MH043"}
    covered = {str(c["id"]).split()[0] for c in CASES}
    assert hook_only - covered == {"MH042"}  # a bug's code: test_hook_units' crash anywhere


def test_a_note_given_no_code_gets_the_code_of_an_unforeseen_failure() -> None:
    """The one place a note joins the line (Reply.add_note) leaves none without a code."""
    reply = Reply("", "MH038 coded")
    reply.add_note("said without a code")
    reply.add_note(None)
    assert reply.note == "MH038 coded; MH042 said without a code"
    assert Reply("", "MHx bad").note == "MH042 MHx bad"


def test_a_partial_recall_is_said_with_the_deadlines_code(project: Path) -> None:
    # review6: the partial answer's MH043 could become MH042 (a stray note's) unnoticed;
    # a hook whose queries the deadline left unsearched is a deadline, not a failure
    import os

    from memhooks.agents import NormalizedEvent
    from memhooks.hook.call import HookCall
    from memhooks.hook.deliver import deliver, recall
    from memhooks.recall.runtime import SKIPPED

    event = NormalizedEvent("claude-code", "user_prompt", native_event="UserPromptSubmit",
                            cwd=str(project), session_id="partial", prompt="invoice totals")  # fmt: skip
    call = HookCall(event, dict(os.environ))
    try:
        result = recall(call, call.folder, prompt="invoice totals")
        assert result is not None and result.partial() is None and result.queries
        result.queries[-1]["status"] = SKIPPED  # the deadline came before the last query
        reply = deliver(call, result, target="", tool_time=False)
    finally:
        call.close()
    # review7: and what to do about it, as the catalogue's MH043 says (the model is not told)
    assert reply.note == f"MH043 {result.partial()}; {CATALOGUE['MH043'][2]}"
    assert "a partial answer" in str(reply.context) and "MEMHOOKS_HOOK" not in str(reply.context)


def test_notes_are_coded_by_the_one_helper_not_spelt() -> None:
    # review7: nine notes spelt "MH0xx …" by hand (and maintenance rebuilt one_line);
    # a note's code goes through coded() or one_line(), so the shape has one home
    import ast

    from memhooks import errors
    from memhooks.hook import deadline, reply

    assert reply.coded("MH040", "x y") == errors.coded("MH040", "x y") == "MH040 x y"
    assert deadline.ADVICE == CATALOGUE["MH043"][2]  # what the hook's MH043 note advises
    spelt = []
    for path in sorted((Path(errors.__file__).parent).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings
        for node in ast.walk(tree):
            first = node.values[0] if isinstance(node, ast.JoinedStr) and node.values else node
            text = first.value if isinstance(first, ast.Constant) and id(node) not in prose else None
            if isinstance(text, str) and re.match(r"MH\d{3} ", text):
                spelt.append(f"{path.name}:{node.lineno}: {text[:40]}")
    assert spelt == []


def test_a_note_is_coded_only_by_mh_three_digits_and_a_space() -> None:
    # review7: nothing held the space after the code — a note starting "MH0123" or
    # "MH038:" would pass for coded, and reach the stderr line without a code of its own
    assert is_coded("MH038 coded") and not is_coded("MH038")
    for stray in ("MH0123 four digits", "MH038: a colon", "MH03x not digits", "mh038 lower"):
        assert not is_coded(stray)
        assert Reply("", stray).note == f"MH042 {stray}"
