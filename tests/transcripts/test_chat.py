"""The plain chat format: what a line needs, what it may add, and the errors that name the place."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.errors import DiagnosticError
from memhooks.transcripts.chat import read_all


def test_lines_become_sessions_with_times_and_files(tmp_path: Path) -> None:
    path = tmp_path / "week.jsonl"
    path.write_text(
        '{"role": "user", "text": "Never log tokens.", "time": "2026-11-30T12:00:00+01:00"}\n'
        '{"role": "assistant", "text": "Removed the log line.", "files": ["auth/tokens.py"]}\n'
        "\n"
        '{"role": "user", "text": "Other chat", "session": "b"}\n'
    )
    first, second = read_all(str(path), "/root")
    assert (first.session, second.session) == ("week", "b")
    assert first.messages[0].at == "2026-11-30T11:00:00Z" and first.cwd == "/root"
    assert first.messages[1].tools[0].paths == ["auth/tokens.py"]


@pytest.mark.parametrize(
    ("line", "column", "says"),
    [
        ('{"role": "user", "text": "x"', 29, "not JSON"),
        ('["user", "x"]', 1, "a line must be a JSON object"),
        ('{"role": "system", "text": "x"}', 1, '`role` must be "user" or "assistant"'),
        ('{"role": "user", "text": "  "}', 1, "`text` must be a non-blank string"),
        (
            '{"role": "user", "text": "x", "time": "yesterday"}',
            1,
            "`time` 'yesterday' is not an ISO 8601",
        ),
        ('{"role": "user", "text": "x", "files": "a.py"}', 1, "`files` must be a list of paths"),
    ],
)
def test_a_bad_line_is_mh034_at_its_place(
    tmp_path: Path, line: str, column: int, says: str
) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text('{"role": "user", "text": "fine"}\n' + line + "\n")
    with pytest.raises(DiagnosticError) as caught:
        read_all(str(path), "/root")
    found = caught.value.diagnostic
    assert (found.code, found.path, found.line, found.column) == ("MH034", str(path.resolve()), 2, column)
    assert says in found.message
