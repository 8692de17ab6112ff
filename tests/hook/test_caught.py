"""``memhooks.fast.caught``: an ``except`` clause that names memhooks' error classes loads
the error tree only when something reached it, and catches what the classes imported at
the top would catch — nothing more, nothing less (the state file, the store's
connection, the store's choice and the hook call's state and session catch with it)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from memhooks.errors import HomeError, MemhooksError, StoreError
from memhooks.fast import caught

PROGRAM = """
import sys
from memhooks.fast import caught
try:
    pass
except caught("StoreError"):
    raise SystemExit("caught nothing raised")
print("memhooks.errors" in sys.modules)
try:
    from memhooks.errors import StoreError as Raised  # as a failing call would
    raise Raised("the state file cannot be used")
except caught("StoreError") as exc:
    print(type(exc).__name__, exc)
"""


def test_a_clause_that_nothing_reached_loads_no_error_tree() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          check=True, timeout=60)  # fmt: skip
    assert done.stdout.splitlines() == ["False", "StoreError the state file cannot be used"]


@pytest.mark.parametrize(
    ("raised", "kinds", "is_caught"),
    [
        (StoreError("x"), ("StoreError",), True),
        (StoreError("x"), ("MemhooksError",), True),  # a subclass, as isinstance says
        (HomeError("x"), ("MemhooksError", OSError), True),
        (FileNotFoundError("x"), ("MemhooksError", OSError), True),  # a class as given
        (sqlite3.DatabaseError("x"), ("StoreError", sqlite3.DatabaseError), True),
        (MemhooksError("x"), ("StoreError",), False),
        (ValueError("x"), ("StoreError", sqlite3.DatabaseError), False),
        (KeyboardInterrupt(), ("MemhooksError", OSError), False),
    ],
)
def test_it_catches_what_the_classes_imported_would(
    raised: BaseException, kinds: tuple[str | type[Exception], ...], is_caught: bool
) -> None:
    def clause() -> str:
        try:
            raise raised
        except caught(*kinds) as exc:
            assert exc is raised
            return "caught"

    if is_caught:
        assert clause() == "caught"
    else:
        with pytest.raises(type(raised)) as passed:
            clause()
        assert passed.value is raised  # the same object, untouched


def test_a_name_the_error_tree_does_not_define_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="StoreErorr"):
        caught("StoreErorr")
