"""Cutting a session into pieces: one topic per piece, follow-ups kept, stable as it grows."""

from __future__ import annotations

from pathlib import Path

from memhooks.transcripts.anchors import Place
from memhooks.transcripts.model import Message, ToolUse, Transcript
from memhooks.transcripts.segment import segment, subject
from memhooks.words import content_words


def _session(root: Path, *turns: tuple[str, list[ToolUse], str]) -> Transcript:
    t = Transcript("claude-code", "s", "s.jsonl", str(root))
    for n, (said, tools, reply) in enumerate(turns):
        t.messages.append(Message("user", said, f"2026-01-01T00:00:{n:02d}Z"))
        t.messages.append(Message("assistant", reply, None, tools))
    return t


def _read(root: Path, name: str) -> list[ToolUse]:
    return [ToolUse("Read", "read", [str(root / name)])]


def test_a_new_topic_on_other_files_starts_a_new_piece(project: Path) -> None:
    (project / "README.md").write_text("# x\n")
    t = _session(
        project,
        (
            "Downtime is double counted when incident windows overlap.",
            _read(project, "incidents.py"),
            "The windows overlap.",
        ),
        (
            "Merge overlapping windows first.",
            [ToolUse("Edit", "edit", [str(project / "incidents.py")])],
            "Done.",
        ),
        (
            "Add a test.",
            [ToolUse("Edit", "edit", [str(project / "tests/test_incidents.py")])],
            "Added.",
        ),
        (
            "Rewrite the introduction of the readme for newcomers to the project.",
            _read(project, "README.md"),
            "Rewritten.",
        ),
    )
    pieces = segment(t, Place(str(project), str(project), str(project)))
    assert [[e.index for e in p.exchanges] for p in pieces] == [[0, 1, 2], [3]]
    assert pieces[0].exchanges[2].edited == ["tests/test_incidents.py"]


def test_the_user_saying_the_topic_changes_starts_a_new_piece(project: Path) -> None:
    t = _session(
        project,
        (
            "Look at incidents.py please, the downtime sums look wrong.",
            _read(project, "incidents.py"),
            "They double count.",
        ),
        ("Unrelated: what does incidents.py import?", _read(project, "incidents.py"), "Nothing."),
    )
    assert len(segment(t, Place(str(project), str(project), str(project)))) == 2


def test_earlier_pieces_do_not_change_when_the_session_grows(project: Path) -> None:
    turns = [
        (
            "Downtime is double counted when windows overlap.",
            _read(project, "incidents.py"),
            "Yes.",
        ),
        ("Unrelated: set up continuous integration with a workflow running pytest.", [], "Added."),
        ("Use Python 3.12 in that workflow configuration for continuous integration.", [], "Done."),
    ]
    place = Place(str(project), str(project), str(project))
    shorter = [
        [e.index for e in p.exchanges] for p in segment(_session(project, *turns[:2]), place)
    ]
    longer = [[e.index for e in p.exchanges] for p in segment(_session(project, *turns), place)]
    assert longer[: len(shorter) - 1] == shorter[:-1] and longer[-1][0] == shorter[-1][0]


def test_paths_outside_the_project_are_not_anchors(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n")
    (project / "link.py").symlink_to(outside)
    t = _session(
        project,
        (
            "Read these",
            [ToolUse("Read", "read", [str(outside), str(project / "link.py"), "../x.py"])],
            "ok",
        ),
    )
    (piece,) = segment(t, Place(str(project), str(project), str(project)))
    assert piece.exchanges[0].read == []


def test_words_and_subjects() -> None:
    assert content_words("Merging the overlapping windows") == {"merg", "overlap", "window"}
    assert subject("tests/test_sla.py") == subject("uptime/sla.py") == "sla"


def test_a_piece_with_nothing_said_is_not_stored(project: Path) -> None:
    # Newcomer trial #1: "Fix it." / "FAKE-LLM-OK: done." around an edit was stored,
    # tagged a decision for its edit, and ranked second for a prompt saying "fix".
    from memhooks.transcripts.render import substantive

    edit = [ToolUse("Edit", "edit", [str(project / "incidents.py")])]
    place = Place(str(project), str(project), str(project))
    hollow = segment(_session(project, ("Fix it.", edit, "FAKE-LLM-OK: done.")), place)
    assert [substantive(p) for p in hollow] == [False]
    # Path words are no content: "look at incidents.py" names only the file.
    named = segment(_session(project, ("Look at incidents.py", edit, "Done.")), place)
    assert [substantive(p) for p in named] == [False]
    # A short rule is content; so is a plain request with its answer.
    rule = segment(_session(project, ("Never use eval.", edit, "")), place)
    typos = segment(
        _session(
            project, ("Fix the typos in incidents.py.", edit, "Fixed two typos: merge and window.")
        ),
        place,
    )
    assert [substantive(p) for p in rule + typos] == [True, True]
