"""A hook process loads memhooks' modules from docstring-free bytecode files that the
calls before it wrote in memhooks' cache folder (memhooks.fast.bytecode: STRIPPED,
keep_stripped): the same code, assertions included, with every docstring None — and
never a file that is not current, nor one written where Python writes no bytecode."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memhooks.fast.bytecode import STRIPPED
from memhooks.fast.stripped import stripped

#: Modules a hook call loads through the finder (not memhooks.fast's own, loaded before).
NAMES = ["memhooks.hook.reply", "memhooks.lines.cache", "memhooks.session.keys"]
#: Imports ``argv[2:]`` the way ``argv[1]`` says, then writes the docstring-free files of
#: what the finder loaded from standard ones (as a hook process does once it replied),
#: and prints what it loaded and how.
PROBE = """
import json, sys
from memhooks.fast import bytecode
if sys.argv[1] == "finder":
    sys.meta_path.insert(0, bytecode.Finder)
    bytecode.use_stripped(sys.argv[2])
for name in sys.argv[3:]:
    __import__(name)
out = {}
for name in sys.argv[3:]:
    m = sys.modules[name]
    out[name] = {
        "cached": m.__cached__, "spec_cached": m.__spec__.cached, "doc": m.__doc__,
        "docs": sorted(k for k, v in vars(m).items() if getattr(v, "__doc__", None)
                       and getattr(v, "__module__", None) == name),
        "names": sorted(k for k in vars(m) if not k.startswith("__")),
    }
out["written"] = bytecode.keep_stripped()
print(json.dumps(out))
"""


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the package with its standard bytecode written, as after an install."""
    from hook_support import installed_copy

    return installed_copy(tmp_path)


def _probe(top: Path, way: str, *, write: bool = True, timeout: float = 120) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(top)
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run([sys.executable, "-c", PROBE, way, str(top / "cache"), *NAMES], env=env,
                          capture_output=True, text=True, check=True, timeout=timeout)  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _stripped_file(top: Path, name: str) -> Path:
    """Where a module's docstring-free file is kept: the layout of ``sys.pycache_prefix``
    (the source's absolute folder under the prefix, ``top / "cache"`` here)."""
    module = top / Path(*name.split("."))
    tag = sys.implementation.cache_tag
    return Path(f"{top / 'cache'}{module.parent}") / f"{module.name}.{tag}.opt-{STRIPPED}.pyc"


def test_the_next_call_loads_the_written_files_the_same_modules_without_docstrings(
    package: Path,
) -> None:
    standard = _probe(package, "standard", write=False)
    first = _probe(package, "finder")
    assert first.pop("written") >= len(NAMES)  # and their packages
    assert all(_stripped_file(package, name).is_file() for name in NAMES)
    second = _probe(package, "finder")
    assert second.pop("written") == 0
    for name in NAMES:
        ours, theirs = second[name], standard[name]
        assert ours["names"] == theirs["names"], name  # the same code ran
        assert theirs["doc"] and theirs["docs"], name  # what it had to lose
        assert ours["doc"] is None and ours["docs"] == [], name
        assert ours["cached"] == ours["spec_cached"] == str(_stripped_file(package, name))
        assert first[name]["doc"] == theirs["doc"]  # the first call read the standard file


def test_a_stale_file_is_not_read_and_is_written_again(package: Path) -> None:
    _probe(package, "finder")
    source = package / "memhooks" / "session" / "keys.py"
    source.write_text(source.read_text(encoding="utf-8") + "\nEDITED = 1\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(source)], env=env,
                   check=True, capture_output=True)  # fmt: skip
    again = _probe(package, "finder")
    keys = again["memhooks.session.keys"]
    assert "EDITED" in keys["names"] and keys["doc"]  # the standard file, current
    assert again["written"] == 1
    assert "EDITED" in _probe(package, "finder")["memhooks.session.keys"]["names"]


def test_nothing_is_written_where_python_writes_no_bytecode(package: Path) -> None:
    out = _probe(package, "finder", write=False)
    assert out["written"] == 0
    assert not any(_stripped_file(package, name).exists() for name in NAMES)


def test_a_file_that_cannot_be_written_leaves_nothing_behind(package: Path) -> None:
    blocked = _stripped_file(package, NAMES[0])
    # os.replace onto a folder with a file in it fails, as on a read-only one (root
    # writes those); an empty folder would be replaced (memhooks.cachefile.write)
    blocked.mkdir(parents=True)
    (blocked / "kept").write_text("mine", encoding="utf-8")
    out = _probe(package, "finder")
    assert out["memhooks.hook.reply"]["doc"]  # read from the standard file
    assert blocked.is_dir() and not _stripped_file(package, NAMES[-1]).exists()  # it stopped there
    left = [p.name for p in package.rglob(f"*.opt-{STRIPPED}.pyc.*")]
    assert left == []  # no temporary file stays


def test_only_docstrings_go() -> None:
    source = '''"""The module's docstring."""
LOOSE = "not a docstring"

def documented(x):
    """Doubles."""
    return x * 2

def plain():
    return [s + "!" for s in ("a", "b")]

def echo():
    "said twice"
    return "said twice"

class Kind:
    """A class."""
    label = "kind"

    def method(self):
        """A method."""
        def inner():
            """Nested."""
            return 3
        assert inner() == 3
        return inner()

SAME = """one text"""
AGAIN = """one text"""
'''
    code = compile(source, "<probe>", "exec")
    before: dict[str, Any] = {}
    exec(code, before)  # noqa: S102 - the probe above
    after: dict[str, Any] = {}
    exec(stripped(code), after)  # noqa: S102
    assert before["__doc__"] and after["__doc__"] is None
    for name in ("documented", "Kind"):
        assert before[name].__doc__ and after[name].__doc__ is None
    kind = after["Kind"]
    assert kind.method.__doc__ is None and kind().method() == 3  # its assertion still runs
    assert after["documented"](4) == 8
    assert after["plain"]() == ["a!", "b!"]
    assert after["echo"]() == "said twice"  # the constant is loaded: it stays
    assert (after["LOOSE"], after["SAME"], after["AGAIN"]) == (
        "not a docstring",
        "one text",
        "one text",
    )
    assert stripped(compile("X = 1\n", "<probe>", "exec")).co_consts == (1, None)


def test_a_hook_call_keeps_them_in_memhooks_cache_folder_never_in_the_package(
    package: Path, tmp_path: Path
) -> None:
    """The hook command (memhooks.fast.prepare) names the folder: ``$XDG_CACHE_HOME/memhooks``
    then ``bytecode``; the installed package is left as pip wrote it (``pip uninstall``
    removes only the standard files)."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(package))
    payload = {"hook_event_name": "SessionStart", "session_id": "s", "cwd": str(home)}
    for _ in range(2):
        done = subprocess.run([sys.executable, "-S", "-m", "memhooks", "hook", "--agent",
                               "claude-code"], input=json.dumps(payload), env=env, cwd=home,
                              capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
        assert done.stderr == ""
    kept = tmp_path / "xdg" / "memhooks" / "bytecode"
    handler = (
        f"{kept}{package}/memhooks/hook/handler.{sys.implementation.cache_tag}.opt-{STRIPPED}.pyc"
    )
    assert Path(handler).is_file()
    assert list((package / "memhooks").rglob(f"*.opt-{STRIPPED}.pyc")) == []


@pytest.mark.parametrize("open_to_all", ["the folder", "the folder holding it"])
def test_a_folder_others_may_write_in_is_neither_read_nor_written(
    package: Path, open_to_all: str
) -> None:
    """Code the hook runs from it could be anyone's (or a folder put in its place, where
    the one holding it is open to all): a bytecode file planted there (here, one whose
    header matches the source) is not loaded, and nothing is kept there."""
    cache = package / "cache"
    cache.mkdir()
    (cache if open_to_all == "the folder" else package).chmod(0o777)
    planted = _stripped_file(package, NAMES[0])
    planted.parent.mkdir(parents=True)
    source = package / "memhooks" / "hook" / "reply.py"
    standard = source.parent / "__pycache__" / f"reply.{sys.implementation.cache_tag}.pyc"
    code = compile("PLANTED = 1\n", str(source), "exec")
    planted.write_bytes(standard.read_bytes()[:16] + marshal.dumps(code))
    out = _probe(package, "finder")
    assert "PLANTED" not in out[NAMES[0]]["names"]
    assert out["written"] == 0
    assert [p for p in cache.rglob("*.pyc") if p != planted] == []


@pytest.mark.parametrize("damage", ["cut", "garbage", "not code"])
def test_a_file_damaged_past_its_header_is_dropped_and_the_standard_code_runs(
    package: Path, damage: str
) -> None:
    """newcomer17: a docstring-free file cut after its (current) header, or garbage
    after it, failed every call — the hook command's own one with a traceback and no
    reply to the host; now the module runs from the standard file and the next call
    writes the file again."""
    _probe(package, "finder")
    damaged = _stripped_file(package, NAMES[0])
    header = damaged.read_bytes()[:16]
    rest = {"cut": b"\xe3", "garbage": bytes(range(7, 200)), "not code": marshal.dumps(7)}
    damaged.write_bytes(header + rest[damage])  # not code: a flipped byte did so (newcomer20)
    out = _probe(package, "finder")
    reply = out[NAMES[0]]
    assert reply["doc"] and "coded" in reply["names"]  # the standard code ran
    assert reply["cached"].endswith(f"reply.{sys.implementation.cache_tag}.pyc")
    assert not damaged.exists()  # dropped: the next call writes it again
    assert _probe(package, "finder")["written"] >= 1
    again = _probe(package, "finder")[NAMES[0]]
    assert again["doc"] is None and again["cached"] == str(damaged)  # written again, read


def test_a_group_writable_folder_of_the_users_own_group_is_used(package: Path) -> None:
    """umask 002 (a group of one's own: Debian, Ubuntu, Fedora) makes memhooks' folders
    group-writable; they were refused, and no docstring-free file was ever written."""
    cache = package / "cache"
    cache.mkdir()
    assert os.getegid() == cache.stat().st_gid
    cache.chmod(0o775)
    package.chmod(0o775)
    assert _probe(package, "finder")["written"] >= len(NAMES)
    assert _probe(package, "finder")[NAMES[0]]["doc"] is None


def test_an_endless_file_in_a_files_place_is_read_so_far_only(package: Path) -> None:
    """newcomer20: a link to /dev/zero in a file's place was read until memory ran out; it
    is read up to MAX_READ_BYTES, is not current, and the file is written over it."""
    _probe(package, "finder")
    endless = _stripped_file(package, NAMES[0])
    endless.unlink()
    endless.symlink_to("/dev/zero")
    out = _probe(package, "finder", timeout=60)
    assert out[NAMES[0]]["doc"] and "coded" in out[NAMES[0]]["names"]  # the standard code ran
    assert out["written"] >= 1 and endless.is_file() and not endless.is_symlink()


def test_a_fifo_in_a_files_place_is_not_waited_for_and_is_written_over(package: Path) -> None:
    """newcomer17: opening it waited for a writer — the hook command hung for good, before
    its deadline's watchdog had started. Now it reads empty, is not current, the standard
    code runs, and the file is written again."""
    _probe(package, "finder")
    fifo = _stripped_file(package, NAMES[0])
    fifo.unlink()
    os.mkfifo(fifo)
    out = _probe(package, "finder", timeout=30)
    assert out[NAMES[0]]["doc"] and "coded" in out[NAMES[0]]["names"]  # the standard code ran
    assert out["written"] >= 1 and fifo.is_file()
    assert _probe(package, "finder")[NAMES[0]]["doc"] is None  # and read the next time


def test_an_installation_that_is_gone_has_its_files_removed_at_the_next_install(
    package: Path, tmp_path: Path
) -> None:
    """Each installation's files are a tree of their own (~1.6 MB): a virtualenv deleted
    left its tree in the cache folder for good. The next call that writes files (after an
    install or an upgrade) removes the trees whose package folder is gone, and the
    folders they leave empty; the others stay."""
    _probe(package, "finder")
    cache = package / "cache"
    tag = sys.implementation.cache_tag
    gone = Path(f"{cache}{tmp_path}/old-venv/lib/site-packages/memhooks")
    (gone / "hook").mkdir(parents=True)  # as a hook call writes them: no __init__ (newcomer19)
    (gone / f"settings.{tag}.opt-{STRIPPED}.pyc").write_bytes(b"x")
    (gone / "hook" / f"reply.{tag}.opt-{STRIPPED}.pyc").write_bytes(b"x")
    named = Path(f"{cache}{tmp_path}/work/memhooks")  # a folder named so, not a package
    named.mkdir(parents=True)
    (named / "note").write_text("kept", encoding="utf-8")
    live = Path(f"{cache}{package}/memhooks")
    assert not (live / f"__init__.{tag}.opt-{STRIPPED}.pyc").exists()
    kept = live / f"elsewhere.{tag}.opt-{STRIPPED}.pyc"  # a live package's own file
    kept.write_bytes(b"x")
    assert _probe(package, "finder")["written"] == 0  # nothing written: nothing removed
    assert gone.is_dir()
    _stripped_file(package, NAMES[0]).unlink()
    assert _probe(package, "finder")["written"] == 1
    assert not Path(f"{cache}{tmp_path}/old-venv").exists()
    assert (named / "note").is_file() and kept.is_file()
    assert _probe(package, "finder")[NAMES[0]]["doc"] is None  # this one's files stay
