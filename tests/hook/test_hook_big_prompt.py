"""A 1 MB prompt (a pasted log) is cut to what recall reads right after the payload is
decoded (issue 14: the full prompt was copied into every search key, 29.8 MB peak RSS);
the paths the kept part names still count, and a normal prompt is untouched."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hook_support import MARKER, payload

from memhooks.hook.handler import PayloadError, parse
from memhooks.protocol.text import MAX_PROMPT_CHARS, bound_prompt

HEAD = "How does billing round invoice totals in src/acme/billing.py? Log follows: "
#: ~1 MB of log lines; the cut falls inside them.
LOG = "".join(f"2026-12-01T16:{n % 60:02d} worker {n} retried the payment call\n" for n in range(20_000))

#: A generic backend (docs/backends.md) as a command: every search request is appended
#: to the log file, and one memory is found for any request.
RECORDER = """\
import json, sys
request = json.load(sys.stdin)
with open(sys.argv[1], "a", encoding="utf-8") as fp:
    fp.write(json.dumps(request) + "\\n")
json.dump({"memories": [{"id": "g1", "text": "GOLDEN-7731: totals round half-even.", "score": 1.0}]}, sys.stdout)
"""


def _prompt_payload(root: Path, prompt: str) -> bytes:
    data = json.loads(payload("real/claude-code-UserPromptSubmit.json", root))
    data["cwd"] = str(root)
    data["prompt"] = prompt
    return json.dumps(data).encode()


def test_a_megabyte_prompt_is_cut_before_search_and_its_named_file_still_routes(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    import subprocess

    recorder = tmp_path / "recorder.py"
    recorder.write_text(RECORDER, encoding="utf-8")
    searched: dict[str, list[dict[str, object]]] = {}
    for name, prompt in (("opening", HEAD), ("whole", HEAD + LOG)):
        log = tmp_path / f"{name}.jsonl"
        run_env = {**env, "MEMHOOKS_BACKEND": "generic", "MEMHOOKS_GENERIC_COMMAND": f"{sys.executable} {recorder} {log}",
                   "MEMHOOKS_STATE_DIR": str(tmp_path / name), "MEMHOOKS_HOOK_TIMEOUT_MS": "20000"}  # fmt: skip
        done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                              input=_prompt_payload(project, prompt), capture_output=True, env=run_env, timeout=120, check=False)  # fmt: skip
        assert done.returncode == 0 and done.stderr == b"", done.stderr
        assert MARKER in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
        searched[name] = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    whole = HEAD + LOG
    assert len(whole) > 1_000_000 and searched["whole"]
    for request in searched["whole"]:
        assert request["prompt"] == bound_prompt(whole)  # the backend never sees more
        assert len(request["prompt"]) <= MAX_PROMPT_CHARS and request["prompt"].startswith(HEAD)
        # the file the prompt names routes the search, as it does for the opening alone
        assert request["active_files"] == ["src/acme/billing.py"] and request["scopes"][0] == "src/acme"
    assert _without_prompt(searched["whole"]) == _without_prompt(searched["opening"])


def _without_prompt(requests: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{key: value for key, value in request.items() if key != "prompt"} for request in requests]


def test_a_megabyte_prompt_names_the_same_paths_as_its_opening(project: Path, tmp_path: Path) -> None:
    from memhooks.hook import handle
    from memhooks.session import State, state_path

    env = {"MEMHOOKS_STATE_DIR": str(tmp_path / "state"), "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    for session, prompt in (("short", HEAD), ("long", HEAD + LOG)):
        body = json.loads(_prompt_payload(project, prompt))
        body["session_id"] = session
        reply = handle(bytearray(json.dumps(body).encode()), agent="claude-code", env=env, time_s=30.0)
        assert reply.note is None, reply.note
    state = State(state_path(env))
    try:
        sql = "SELECT t.path FROM touches t JOIN sessions s ON t.key = s.key WHERE s.session = ? AND t.how = 'prompt'"
        touched = {session: sorted(row[0] for row in state.read(sql, (session,))) for session in ("short", "long")}
    finally:
        state.close()
    assert touched["long"] == touched["short"] == ["src/acme/billing.py"]


def test_the_event_keeps_only_the_cut_and_so_does_the_payload() -> None:
    prompt = HEAD + LOG
    raw = bytearray(json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": prompt}).encode())
    event = parse(raw, "claude-code")
    assert event.prompt == bound_prompt(prompt)
    assert event.raw["prompt"] is event.prompt  # type: ignore[index]  # the full prompt is not held
    assert raw == b""  # the buffer read from stdin is emptied once decoded


def test_a_hermes_message_is_cut_where_the_adapter_took_it() -> None:
    prompt = HEAD + LOG
    raw = json.dumps({"hook_event_name": "pre_llm_call", "session_id": "s", "extra": {"user_message": prompt}})
    event = parse(raw, "hermes")
    assert event.prompt == bound_prompt(prompt)
    assert event.raw["extra"]["user_message"] is event.prompt  # type: ignore[index]


def test_a_normal_prompt_and_its_payload_are_left_as_they_are() -> None:
    raw = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "  fix src/acme/billing.py  "})
    event = parse(raw, "claude-code")
    assert event.prompt == "  fix src/acme/billing.py  "
    assert event.raw["prompt"] is event.prompt  # type: ignore[index]
    edge = "word " * (MAX_PROMPT_CHARS // 5)  # exactly the bound: not cut
    assert parse(json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": edge}), "claude-code").prompt == edge


def test_a_bad_payload_in_a_buffer_is_reported_as_from_bytes_and_left_whole() -> None:
    bad = b'{"hook_event_name": "UserPromptSubmit", "prompt": '
    messages = []
    for raw in (bad, bytearray(bad)):
        try:
            parse(raw, "claude-code")
        except PayloadError as exc:
            messages.append(str(exc))
    assert len(messages) == 2 and messages[0] == messages[1] and "line 1 column" in messages[0]
    buffer = bytearray(bad)
    try:
        parse(buffer, "claude-code")
    except PayloadError:
        pass
    assert buffer == bad
    assert parse(bytearray(b" \n\t"), "claude-code").raw is None  # blank: no payload
