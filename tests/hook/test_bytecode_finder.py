"""memhooks' own modules load in a hook process straight from their bytecode
(memhooks.fast.bytecode.Finder, put first on the meta path by memhooks.__main__), and a
module loaded that way is the module the standard import system makes; where the
bytecode is missing or stale, the standard way loads it, from its source."""

from __future__ import annotations

import json
import marshal
import os
import shutil
import subprocess
import sys
from importlib.util import MAGIC_NUMBER as MAGIC
from pathlib import Path

import pytest

import memhooks
from memhooks.fast.bytecode import CHUNK, Finder, _read

IMPORT_SETS = Path(__file__).parent / "data" / "import_sets.json"
#: Loaded by the standard way before the finder is in place (it lives in them, and
#: reads files up to memhooks.limits.MAX_READ_BYTES).
BEFORE = {"memhooks", "memhooks.fast", "memhooks.fast.bytecode", "memhooks.limits"}
#: What each process reports of a module: everything the import system sets on it, and
#: the names its code defined.
PROBE = """
import json, sys
from memhooks.fast.bytecode import Finder  # both ways: the same modules loaded before
if sys.argv[1] in ("finder", "shortcut"):
    sys.meta_path.insert(0, Finder)
if sys.argv[1] == "shortcut":
    from memhooks.fast import bytecode
    bytecode.shortcut()
for name in sys.argv[2:]:
    __import__(name)
out = {}
order = [n for n in sys.modules if n in sys.argv[2:]]
for name in sys.argv[2:]:
    m = sys.modules[name]
    s = m.__spec__
    parent, _, child = name.rpartition(".")
    out[name] = {
        "bound": getattr(sys.modules[parent], child) is m if parent else None,
        "initializing": getattr(s, "_initializing", False),
        "order": order.index(name),
        "file": m.__file__, "cached": m.__cached__, "package": m.__package__,
        "path": getattr(m, "__path__", None), "doc": m.__doc__,
        "spec": [s.name, s.origin, s.parent, s.submodule_search_locations, s.has_location, s.cached],
        "names": sorted(k for k in vars(m) if not k.startswith("__")),
        "loader": type(s.loader).__name__ if not isinstance(s.loader, type) else s.loader.__name__,
    }
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package with its bytecode written, as after an install."""
    from hook_support import installed_copy

    return installed_copy(tmp_path_factory.mktemp("site"))


def _python(top: Path, program: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``program`` run by a fresh interpreter that imports memhooks from ``top``."""
    env = {**os.environ, "PYTHONPATH": str(top), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-c", program, *args], env=env,
                          capture_output=True, text=True, check=False, timeout=120)  # fmt: skip


def _probe(top: Path, way: str, names: list[str]) -> dict[str, dict[str, object]]:
    done = _python(top, PROBE, way, *names)
    done.check_returncode()
    result: dict[str, dict[str, object]] = json.loads(done.stdout)
    return result


def test_every_module_a_hook_loads_is_the_same_through_the_finder(package: Path) -> None:
    sets = json.loads(IMPORT_SETS.read_text(encoding="utf-8"))
    names = sorted({n for kind in sets.values() for n in kind if n.startswith("memhooks")})
    standard = _probe(package, "standard", names)
    ours = _probe(package, "finder", names)
    assert {n for n, m in ours.items() if m["loader"] != "Finder"} == BEFORE & set(names)
    for name in names:
        assert {**ours[name], "loader": None} == {**standard[name], "loader": None}, name
        assert str(ours[name]["file"]).startswith(str(package / "memhooks"))


def test_every_module_a_hook_loads_is_the_same_through_the_shortcut(package: Path) -> None:
    """Loaded without the import system's locks (memhooks.fast.bytecode.shortcut, as in
    a hook process), each module is the one the standard way makes: the same attributes
    and names, bound on its parent, done initialising, in the same place in sys.modules."""
    sets = json.loads(IMPORT_SETS.read_text(encoding="utf-8"))
    names = sorted({n for kind in sets.values() for n in kind if n.startswith("memhooks")})
    finder = _probe(package, "finder", names)
    ours = _probe(package, "shortcut", names)
    assert ours == finder
    assert all(m["bound"] is not False and m["initializing"] is False for m in ours.values())


def test_the_shortcut_leaves_a_module_that_raised_out_and_threads_to_the_standard_way(
    package: Path, tmp_path: Path
) -> None:
    (package / "memhooks" / "raises_on_import.py").write_text(
        "import memhooks.limits\nraise RuntimeError('broken on purpose')\n", encoding="utf-8"
    )
    probe = (
        "import sys\nimport memhooks\nfrom memhooks.fast import bytecode\n"
        "sys.meta_path.insert(0, bytecode.Finder)\nbytecode.shortcut()\n"
        "seen = []\nstandard = bytecode._STANDARD\n"
        "bytecode._STANDARD = lambda n, i: (seen.append(n), standard(n, i))[1]\n"
        "ours = lambda: [n for n in seen if n.startswith('memhooks')]\n"
        "for _ in range(2):\n"
        "    try:\n        import memhooks.raises_on_import\n"
        "    except RuntimeError as exc:\n        print('raised', exc)\n"
        "print('memhooks.raises_on_import' in sys.modules, hasattr(memhooks, 'raises_on_import'))\n"
        "import memhooks.words\nprint(ours())\n"
        "import threading\nimport memhooks.paths\nprint(ours())\n"
        "print(memhooks.paths.__spec__.loader is bytecode.Finder)\n"
    )
    import compileall

    assert compileall.compile_file(str(package / "memhooks" / "raises_on_import.py"), quiet=1)
    env = {**os.environ, "PYTHONPATH": str(package), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    assert done.stdout.splitlines() == [
        "raised broken on purpose",  # raised each time: not left half-made in sys.modules
        "raised broken on purpose",
        "False False",
        "[]",  # loaded by the shortcut itself
        "['memhooks.paths']",  # threading loaded: the standard way, with its locks
        "True",  # which asks the finder all the same
    ]


def test_a_stale_or_missing_bytecode_file_is_left_to_the_standard_way(package: Path) -> None:
    stale = package / "memhooks" / "limits.py"
    stale.write_text(stale.read_text(encoding="utf-8") + "\nEDITED = 1\n", encoding="utf-8")
    os.utime(stale, (0, 0))  # an older time too: only "as recorded" counts
    (package / "memhooks" / "paths.py").rename(package / "memhooks" / "paths2.py")
    (package / "memhooks" / "paths2.py").rename(package / "memhooks" / "paths.py")
    for cached in (package / "memhooks" / "__pycache__").glob("paths.*.pyc"):
        cached.unlink()
    out = _probe(package, "finder", ["memhooks.limits", "memhooks.paths", "memhooks.dirs"])
    assert out["memhooks.limits"]["loader"] == "SourceFileLoader"
    assert "EDITED" in out["memhooks.limits"]["names"]  # the source's code ran, not the old bytecode
    assert out["memhooks.paths"]["loader"] == "SourceFileLoader"
    assert out["memhooks.dirs"]["loader"] == "Finder"


def test_only_memhooks_names_are_looked_for() -> None:
    for name in ("json", "memhooksx", "memhook", "site", "memhooks.no_such_module"):
        assert Finder.find_spec(name) is None, name


def test_package_resources_read_through_the_finder(package: Path) -> None:
    """importlib.resources (the installer's check payloads, the skill) works for a package
    the finder loaded: without a resource reader it raised "Can't open orphan path"."""
    probe = (
        "import sys\nfrom memhooks.fast.bytecode import Finder\nsys.meta_path.insert(0, Finder)\n"
        "import memhooks.install\nfrom importlib import resources\n"
        "assert memhooks.install.__spec__.loader is Finder\n"
        "print(len((resources.files('memhooks.install') / 'check_payloads.json').read_bytes()))"
    )
    done = _python(package, probe)
    assert done.returncode == 0, done.stderr
    payloads = package / "memhooks" / "install" / "check_payloads.json"
    assert int(done.stdout) == payloads.stat().st_size


def test_optimized_interpreters_are_left_to_the_standard_way(package: Path) -> None:
    """Under -O the standard loader runs the .opt-1 bytecode (no assertions); the finder's
    plain bytecode would run them."""
    env = {**os.environ, "PYTHONPATH": str(package), "PYTHONDONTWRITEBYTECODE": "1"}
    probe = "from memhooks.fast.bytecode import Finder; print(Finder.find_spec('memhooks.errors'))"
    done = subprocess.run([sys.executable, "-O", "-c", probe], env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    assert done.stdout.strip() == "None"
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    assert "Finder" in done.stdout


def test_no_name_of_ours_is_both_a_module_and_a_package() -> None:
    """The finder tries ``name.py`` first, the path finder ``name/__init__.py``: the same
    module either way only while no name is both."""
    top = Path(memhooks.__file__).parent
    both = [p for p in top.rglob("__init__.py") if p.parent.with_suffix(".py").exists()]
    assert both == []


def test_a_tree_moved_after_compiling_names_its_new_files(package: Path, tmp_path: Path) -> None:
    """Tracebacks name the files where they are now, as the source loader's do."""
    moved = tmp_path / "moved"
    shutil.copytree(package, moved)  # copy2: the sources' times, so the bytecode stays current
    probe = (
        "import sys\nfrom memhooks.fast.bytecode import Finder\nsys.meta_path.insert(0, Finder)\n"
        "import memhooks.errors as m\nassert m.__spec__.loader is Finder\n"
        "print(m._is_file.__code__.co_filename)"
    )
    env = {**os.environ, "PYTHONPATH": str(moved), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                          check=True, timeout=120)  # fmt: skip
    assert done.stdout.strip() == str(moved / "memhooks" / "errors.py")


def test_a_bytecode_file_larger_than_one_read_is_read_whole(tmp_path: Path) -> None:
    # the finder asks one read of CHUNK bytes (no fstat); a file of that size or more
    # reads on to its end (file sizes in bytes, header included)
    for size in (CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 5):
        source = tmp_path / f"m{size}.py"
        source.write_text("X = 1\n", encoding="utf-8")
        st = os.stat(source)
        header = MAGIC + b"\0" * 4 + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
        body = header + (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
        cached = tmp_path / f"m{size}.pyc"
        cached.write_bytes((body + bytes(range(256)) * (size // 256 + 1))[:size])
        found = _read(str(source), str(cached))
        assert found is not None and found[1] == cached.read_bytes()


def test_the_watchdog_thread_imports_only_a_module_that_imports_nothing() -> None:
    # the shortcut loads without the import system's locks; the hook's one other thread
    # (hook.deadline.Watchdog) imports memhooks.terminal when it fires: a module that
    # imports nothing can never be met half-made by that thread (newcomer29)
    import ast

    import memhooks.terminal
    from memhooks.commands import hook

    tree = ast.parse(Path(memhooks.terminal.__file__).read_text(encoding="utf-8"))
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [getattr(n, "module", None) for n in imports] == ["__future__"]
    emit = ast.parse(Path(hook.__file__).read_text(encoding="utf-8"))
    fired = next(f for f in ast.walk(emit) if isinstance(f, ast.FunctionDef) and f.name == "_emit")
    lazily = [n.module for n in ast.walk(fired) if isinstance(n, ast.ImportFrom)]
    assert lazily == ["terminal"]


def test_python_v_names_the_modules_the_shortcut_loads(package: Path) -> None:
    probe = (
        "import sys\nfrom memhooks.fast import bytecode\n"
        "sys.meta_path.insert(0, bytecode.Finder)\nbytecode.shortcut()\nimport memhooks.words\n"
    )
    env = {**os.environ, "PYTHONPATH": str(package), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-v", "-c", probe], env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    assert "import 'memhooks.words' # <class 'memhooks.fast.bytecode.Finder'>" in done.stderr


def test_a_standard_bytecode_file_holding_no_code_fails_as_the_standard_loader_says(
    tmp_path: Path,
) -> None:
    """newcomer29: a damaged standard bytecode file (its header current) whose rest loads
    as something else than code raised TypeError "not code" through the finder, where
    Python raises ImportError "Non-code object in ..." — the same error either way now."""
    from hook_support import installed_copy

    top = installed_copy(tmp_path)
    [cached] = (top / "memhooks" / "__pycache__").glob("terminal.*.pyc")
    cached.write_bytes(cached.read_bytes()[:16] + marshal.dumps(7))
    program = (
        "import sys\nfrom memhooks.fast.bytecode import Finder\n"
        "if sys.argv[1] == 'finder': sys.meta_path.insert(0, Finder)\n"
        "try:\n    import memhooks.terminal\n"
        "except Exception as exc:\n    print(type(exc).__name__, exc, exc.name, exc.path)\n"
    )
    said = [_python(top, program, way).stdout for way in ("standard", "finder")]
    assert said[0].startswith("ImportError Non-code object in ")
    assert said[1] == said[0]
