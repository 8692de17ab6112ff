"""A setting the hook cannot use is said on stderr, in one line, and the hook goes on
with the rest (DEVELOPERS.md: no failure of memhooks is silent; the policy of
``memhooks.settings``): a misspelt ``MEMHOOKS_*`` variable once per session, with the
setting it resembles; an invalid value of a setting read where it is used (a relative
``MEMHOOKS_STATE_DIR``, a malformed ``MEMHOOKS_ROLE_MAP`` rule) on each call that reads
it, as every invalid value."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hook_support import MARKER

CLI = [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"]


def _call(
    project: Path, env: dict[str, str], session: str, event: str = "UserPromptSubmit"
) -> subprocess.CompletedProcess[str]:
    payload: dict[str, object] = {"hook_event_name": event, "session_id": session, "cwd": str(project),
                                  "prompt": "which release constraints apply?"}  # fmt: skip
    if event == "PostToolUse":
        path = str(project / "src" / "acme" / "billing.py")
        payload.update(tool_name="Read", tool_input={"file_path": path},
                       tool_response={"type": "text", "file": {"filePath": path}})  # fmt: skip
    return subprocess.run(CLI, input=json.dumps(payload), env=env, cwd=project,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip


def test_a_misspelt_setting_is_said_once_a_session_with_the_one_meant(
    project: Path, env: dict[str, str]
) -> None:
    env = {**env, "MEMHOOKS_TOOL_RECAL": "off"}
    line = (
        "memhooks hook: MH038 MEMHOOKS_TOOL_RECAL is not a memhooks setting (ignored);"
        " did you mean MEMHOOKS_TOOL_RECALL?\n"
    )
    first = _call(project, env, "s1")
    assert first.returncode == 0 and MARKER in first.stdout  # recall goes on
    assert first.stderr == line
    again = [_call(project, env, "s1", event) for event in ("UserPromptSubmit", "PostToolUse")]
    assert [done.stderr for done in again] == ["", ""]
    assert all(done.returncode == 0 for done in again)
    # a tool event that opens a new session says it there too
    assert _call(project, env, "s2", "PostToolUse").stderr == line


#: Settings and the one line the hook says of them (``""``: nothing), recall going on.
SAID = [
    pytest.param(
        {"MEMHOOKS_MEM0_USER_ID": "alice", "MEMHOOKS_TEST_MEM0_VENV": "/v"}, "",
        id="backend and test-script variables are not unknown"),
    # Any MEMHOOKS_<BACKEND>_* passed by its prefix: MEMHOOKS_EMBEDDED_PAHT did nothing
    # without a word (final review); each backend's keys are a table now.
    pytest.param(
        {"MEMHOOKS_EMBEDDED_PAHT": "x"},
        "MH038 MEMHOOKS_EMBEDDED_PAHT is not a memhooks setting (ignored);"
        " did you mean MEMHOOKS_EMBEDDED_PATH?",
        id="a misspelt backend variable is said with the one meant"),
    pytest.param(
        {"MEMHOOKS_STATE_DIR": "relative/state"},
        "MH028 MEMHOOKS_STATE_DIR must be an absolute folder (got 'relative/state');"
        " unset MEMHOOKS_STATE_DIR or set it to an absolute path; using the default folder meanwhile",
        id="a relative state dir is said and the default folder used"),
    pytest.param(
        {"MEMHOOKS_ROLE_MAP": "garbage;permission_mode:plan=architect"},
        "MH028 MEMHOOKS_ROLE_MAP must be `FIELD:VALUE=ROLE[,ROLE]` rules separated by `;`"
        " (got 'garbage'); unset MEMHOOKS_ROLE_MAP or fix the rule; using the other rules meanwhile",
        id="a malformed role map rule is said and the others kept"),
    # Said by `memhooks recall` (MH028) but not by the hook (review of issue 20/21).
    pytest.param(
        {"MEMHOOKS_RELEVANCE_FLOOR": "-1"},
        "MH028 MEMHOOKS_RELEVANCE_FLOOR must be `on` or `off` (got '-1');"
        " unset MEMHOOKS_RELEVANCE_FLOOR or set it to `on` or `off`; using on meanwhile",
        id="an invalid relevance floor is said and the floor kept on"),
]  # fmt: skip


@pytest.mark.parametrize(("settings", "said"), SAID)
def test_a_setting_is_said_in_one_line_and_recall_goes_on(
    project: Path, env: dict[str, str], settings: dict[str, str], said: str
) -> None:
    before = sorted(project.iterdir())
    done = _call(project, {**env, **settings}, "s3")
    assert done.returncode == 0 and MARKER in done.stdout
    assert done.stderr == (f"memhooks hook: {said}\n" if said else "")
    assert sorted(project.iterdir()) == before  # nothing made in the working folder


def test_a_served_tool_call_pays_nothing_for_the_settings_said(
    project: Path, env: dict[str, str]
) -> None:
    # a stray variable is said by the session's first calls; a tool call served before
    # loads the modules it loads without it (no backend registry, no difflib; the
    # shortcut settles it before the root is looked for, and so before any notice)
    from import_set_support import STEADY, loaded

    def third_call(settings: dict[str, str], session: str) -> list[str]:
        said = [
            _call(project, {**env, **settings}, session, event).stderr
            for event in ("UserPromptSubmit", "PostToolUse")
        ]
        served = _call(
            project, {**env, **settings, **STEADY}, session, "PostToolUse"
        )
        assert served.returncode == 0
        said += [line for line in served.stderr.splitlines() if not line.startswith("import time:")]
        assert bool("".join(said)) is bool(settings)  # said once, by the first call
        return loaded(served.stderr, ("sqlite3",))

    settings = {"MEMHOOKS_TOOL_RECAL": "off"}
    assert third_call(settings, "s6") == third_call({}, "s7")
