"""A blame cache entry edited by hand is rebuilt, never read as an answer it does not
hold (newcomer11, polish23 item 4): a garbled origin row made its lines "not blamed
before the time limit" (`memhooks why`) until the file changed — they are blamed again;
an emptied ``<key>.text`` made every line "not committed yet" once the file's stat moved
— the entry is a miss. Neither costs a check on the hook's warm path: the rows are
parsed as they are answered, the text is read only when the stat moved."""

from __future__ import annotations

import os
from pathlib import Path

from memhooks.lines import cache
from memhooks.lines.ownership import owners

PATH = "retryx/retry.py"


def _owned(answer: object) -> list[tuple[str, list[tuple[int, int]]]]:
    return [(o.hash, list(o.lines)) for o in answer.owners]  # type: ignore[attr-defined]


def _file(repo: Path, state: str) -> Path:
    return Path(cache.path_of(state, str(repo), PATH))


def test_a_garbled_origin_row_is_blamed_again(repo: Path, state: str) -> None:
    first = owners(str(repo), PATH, state_dir=state)
    assert first.unknown == 0 and len(first.owners) >= 2
    file = _file(repo, state)
    header, packed, worded, rest = file.read_text(encoding="utf-8").split("\n", 3)
    row = next(line for line in rest.splitlines() if line.startswith('["'))
    garbled = row.replace('",', '" ', 1)  # same length: the header's sizes still fit
    file.write_text(f"{header}\n{packed}\n{worded}\n{rest.replace(row, garbled, 1)}", "utf-8")
    assert cache.load(str(file)).origin(0) is None  # type: ignore[union-attr]
    again = owners(str(repo), PATH, state_dir=state)
    assert again.unknown == 0  # was: its lines "not blamed before the time limit"
    assert _owned(again) == _owned(first)
    assert owners(str(repo), PATH, state_dir=state).cached  # and kept mended


def test_an_emptied_kept_text_is_a_miss(repo: Path, state: str) -> None:
    first = owners(str(repo), PATH, state_dir=state)
    assert first.uncommitted == 0
    file = _file(repo, state)
    Path(str(file)[: -len(".json")] + ".text").write_text("", encoding="utf-8")
    st = (repo / PATH).stat()
    os.utime(repo / PATH, ns=(st.st_atime_ns, st.st_mtime_ns - 10**9))  # the stat moved
    again = owners(str(repo), PATH, state_dir=state)
    assert again.uncommitted == 0  # was: every line "not committed yet"
    assert _owned(again) == _owned(first)


def test_an_owner_past_the_origin_rows_is_blamed_again(repo: Path, state: str) -> None:
    # a hex digit of the packed owners changed by hand: an origin index past the rows
    # raised IndexError (`why` exit 1; the hook MH042 on every call)
    first = owners(str(repo), PATH, state_dir=state)
    file = _file(repo, state)
    header, packed, rest = file.read_text(encoding="utf-8").split("\n", 2)
    width = len(packed) // first.size  # type: ignore[operator]
    field = packed[:width]
    assert field[0] not in ".-" and width >= 7  # line 1 is owned: origin << 24 | line
    past = f"{cache.known(0xF, cache.origin_of(int(field, 16))[1]):0{width}x}"
    file.write_text(f"{header}\n{past}{packed[width:]}\n{rest}", encoding="utf-8")
    again = owners(str(repo), PATH, state_dir=state)
    assert again.unknown == 0 and _owned(again) == _owned(first)
