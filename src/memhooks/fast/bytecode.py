"""memhooks' own modules loaded straight from their bytecode files in a hook process: a
meta path finder and loader (PEP 451) that :func:`memhooks.fast.prepare` puts
first on :data:`sys.meta_path` for the ``hook`` command.

The standard path-based finder and source loader do the same job in frozen Python code:
for every module a directory cache, a spec built through path hooks, the source's
``stat``, the bytecode file read and checked, module locks. :class:`Finder` maps a
``memhooks.*`` name to its two files (the package's own folder, found from this file:
never the user's working folder), reads the bytecode file, ``stat`` s the source, and
uses the bytecode only when the standard loader would (the running interpreter's magic
number, timestamp-checked, the source's modified time and size as recorded). Anything
else — no bytecode file yet, a stale or hash-checked one, a name with no file — returns
None, and the standard finders load it as always (and write its bytecode). Measured:
~20-40 us less per module (re-importing one in a process), 5-11% less CPU per hook call
(a served read: 36 modules; a later prompt: ~90), paired runs (docs/performance.md).

It reads a module's docstring-free bytecode first (:data:`STRIPPED`, PEP 488's name
for another flavour of bytecode: ``why.cpython-311.opt-nodoc.pyc``), kept in memhooks'
cache folder in the layout of Python's own ``sys.pycache_prefix`` (PEP 3147 — never
beside the package, where ``pip uninstall`` would leave them), the standard file when
there is none that is current; :func:`keep_stripped` has the missing ones written when
the hook call is over (:mod:`.stripped`). A hook process never reads a docstring, and
they are about a quarter of the bytecode it loads: the pages their strings filled were
~72 of a telling pre-tool edit's page faults (1,495 → 1,423, ``perf stat``; ~6.6 µs
each on the bench machine), for no instructions to speak of. The rest of the code is
the standard file's, assertions included (``-OO`` drops those: ours check cache data).

:func:`shortcut` then has the import system hand memhooks' modules to
:func:`_find_and_load`, which loads them as the standard step does but without its
locks, which serve threads. A process that loads :mod:`threading` goes the standard way
again. The one other thread a hook process runs is the deadline's watchdog
(:class:`memhooks.hook.deadline.Watchdog`, on :mod:`_thread`): when it fires it imports
:mod:`memhooks.terminal` alone, which imports nothing, and ends the process — two threads
running that module's body at once make two copies of its functions, never a module
half-made (``tests/hook/test_bytecode_finder.py`` holds it).

Over 300 lines on purpose: the finder, its loader and the loading step that calls them
are one mechanism every hook call runs, and a module more would cost each call what a
module costs (~0.1 M instructions, callgrind).
"""

from __future__ import annotations

import _imp
import os
import sys

from ..limits import MAX_READ_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from importlib.machinery import ModuleSpec
    from importlib.readers import FileReader
    from types import CodeType, ModuleType
    from typing import Any

#: The folder holding the ``memhooks`` package.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_TAG = sys.implementation.cache_tag
_MAGIC: bytes = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
_SPEC: Callable[..., ModuleSpec] = sys.modules["_frozen_importlib"].ModuleSpec
_MODULE: Callable[[str], ModuleType] = type(sys)
_OPTIMIZE = sys.flags.optimize
_CODE = type((lambda: None).__code__)
#: A FIFO in a file's place opens at once and reads empty: not current (one waited: newcomer17).
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
#: Bytes asked of one ``read``: more than any of memhooks' bytecode files (43 KB at most).
CHUNK = 1 << 16
#: Bytes of a bytecode file's header (PEP 552): magic, flags, source mtime, source size.
HEADER = 16
#: The optimization tag (PEP 488) of a module's bytecode without docstrings, and the end
#: of its file's name, written by :func:`memhooks.fast.stripped.keep` under :data:`_PREFIX`.
STRIPPED = "nodoc"
SUFFIX = f".{_TAG}.opt-{STRIPPED}.pyc"
#: Where docstring-free bytecode files live, as ``sys.pycache_prefix`` lays files out:
#: this prefix, then the source's folder (``<cache>/bytecode/…/memhooks/hook/``); set by
#: :func:`use_stripped`, and None (none read, none written) until then — or while that
#: folder is not this user's alone (:func:`ours`): code run from it is code we wrote.
_PREFIX: str | None = None
#: Whether that folder is there to read from (while it is not, each module would cost
#: two opens that fail: a read-only disk, say).
_READABLE = False
#: Modules loaded from their standard bytecode in this process whose docstring-free file
#: is missing or stale: ``(that file, the standard file's header, the code)``
#: (:func:`keep_stripped` writes them).
PENDING: list[tuple[str, bytes, CodeType]] = []


class Finder:
    """Finds and loads ``memhooks`` and its submodules from their bytecode files (see the
    module docstring); a class used as-is, as :mod:`importlib` uses its own finders."""

    @classmethod
    def find_spec(
        cls, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of ``name`` when it is memhooks' and its bytecode is current, else
        None (the standard finders then decide). None under ``-O``/``PYTHONOPTIMIZE``: the
        standard loader then runs the ``.opt-N`` bytecode, without assertions."""
        if _OPTIMIZE or not name.startswith("memhooks") or (len(name) > 8 and name[8] != "."):
            return None
        head, _, stem = name.rpartition(".")
        folder = f"{ROOT}/{head.replace('.', '/')}" if head else ROOT
        # A module before a package (most names are modules: one failed open fewer); the
        # path finder looks for a package first, which differs only where both exist — no
        # name of ours is both (tests/hook/test_bytecode_finder.py).
        found = _located(folder, stem)
        if found is None:
            return None
        source, package, cached, data, write = found
        if not data:
            return None  # not current: the standard loader decides
        spec = _SPEC(name, cls, origin=source, is_package=package)
        spec.has_location = True
        spec.cached = cached
        if package:
            spec.submodule_search_locations = [os.path.dirname(source)]
        spec.loader_state = (data, write)
        return spec

    @staticmethod
    def create_module(spec: ModuleSpec) -> ModuleType:
        """The module object (PEP 451) with ``__file__``, ``__cached__`` and a package's
        ``__path__`` already set from ``spec``, as the import system then sets them
        (``importlib._bootstrap._init_module_attrs`` keeps what a module has): it looks
        each one up first, and on a new module each lookup raises and formats an
        AttributeError — ~21k instructions a module, ~2 M on a prompt (callgrind)."""
        module = _MODULE(spec.name)
        module.__file__ = spec.origin
        vars(module)["__cached__"] = spec.cached  # (typeshed's ModuleType has no __cached__)
        if spec.submodule_search_locations is not None:
            module.__path__ = spec.submodule_search_locations
        return module

    @staticmethod
    def exec_module(module: ModuleType) -> None:
        """Run the module's code from the bytecode :meth:`find_spec` read."""
        import marshal  # built in, and already loaded by the import system itself

        spec = module.__spec__
        assert spec is not None
        (data, write), spec.loader_state = spec.loader_state, None
        try:  # a flipped byte may load as something else than code (newcomer20)
            if type(code := marshal.loads(memoryview(data)[HEADER:])) is not _CODE:
                # the standard loader's words for it (importlib's _compile_bytecode)
                raise ImportError(f"Non-code object in {spec.cached!r}", name=spec.name,
                                  path=spec.cached)  # fmt: skip
        except (EOFError, ValueError, ImportError):
            if not (spec.cached or "").endswith(SUFFIX):
                raise  # the standard file damaged: as the standard loader does
            code = _instead(spec, module)
        _imp._fix_co_filename(code, spec.origin)  # type: ignore[attr-defined]  # as the source loader: a moved tree
        if write and not sys.dont_write_bytecode:
            PENDING.append((write, bytes(data[:HEADER]), code))
        exec(code, module.__dict__)  # noqa: S102 - our own bytecode

    @staticmethod
    def get_resource_reader(name: str) -> FileReader:
        """The files beside package ``name``'s ``__init__.py``, for :mod:`importlib.resources`
        (the standard source loader's reader, :class:`importlib.readers.FileReader`)."""
        from importlib.readers import FileReader
        from types import SimpleNamespace

        spec = sys.modules[name].__spec__
        assert spec is not None
        located: Any = SimpleNamespace(path=spec.origin)  # all FileReader reads of a loader
        return FileReader(located)


def _instead(spec: ModuleSpec, module: ModuleType) -> CodeType:
    """The code of ``spec``'s module when its docstring-free file is damaged past its
    current header: the file goes (the next call writes it again) and the standard
    loader gives the code. Raises what that loader raises."""
    from importlib.machinery import SourceFileLoader

    try:
        os.unlink(str(spec.cached))
    except OSError:
        pass
    spec.cached = vars(module)["__cached__"] = _standard_file(str(spec.origin))
    code = SourceFileLoader(spec.name, str(spec.origin)).get_code(spec.name)
    if code is None:
        raise ImportError(f"no code for {spec.name}", name=spec.name)
    return code


def _standard_file(source: str) -> str:
    """``source``'s standard bytecode file (``…/__pycache__/stem.cpython-311.pyc``)."""
    folder, _, name = source.rpartition("/")
    return f"{folder}/__pycache__/{name[:-3]}.{_TAG}.pyc"


def _located(folder: str, stem: str) -> tuple[str, bool, str, bytes, str] | None:
    """``(source, is a package, bytecode file, its bytes, docstring-free file to write
    or "")`` of module or package ``stem`` in ``folder``, or None: no bytecode file. The
    docstring-free file of a module, then of a package (while their folder can be read);
    else their standard files (a stale docstring-free file: its kind's standard file)."""
    named = ((f"{folder}/{stem}.py", False), (f"{folder}/{stem}/__init__.py", True))
    kinds = [(source, _standard_file(source), package) for source, package in named]
    if _READABLE:
        for source, pyc, package in kinds:
            found = _read(source, _stripped_file(source))
            if found is not None and found[1]:
                return source, package, *found, ""
            if found is not None:  # stale: the standard file, and a new one written after
                found = _read(source, pyc)
                return None if found is None else (source, package, *found, _stripped_file(source))
    for source, pyc, package in kinds:
        found = _read(source, pyc)
        if found is not None:
            return source, package, *found, _stripped_file(source)
    return None


def _stripped_file(source: str) -> str:
    """The docstring-free bytecode file of ``source`` under :data:`_PREFIX` (``""``:
    none is kept)."""
    return "" if _PREFIX is None else f"{_PREFIX}{source[:-3]}{SUFFIX}"


def _read(source: str, cached: str) -> tuple[str, bytes] | None:
    """``(cached, its bytes)`` when the bytecode file ``cached`` and ``source`` exist —
    the bytes empty when they are not :func:`current` — else None. One ``os.read`` of
    :data:`CHUNK` bytes (no ``fstat``), not ``io.open_code``'s buffered file: ~17k
    instructions a module (callgrind; an ``open_code`` hook, PEP 578, is set from C only)."""
    try:
        fd = os.open(cached, _READ)
        try:
            data = os.read(fd, CHUNK)
            if len(data) == CHUNK:  # a file of CHUNK bytes or more: the rest, to its end
                parts = [data]  # at most MAX_READ_BYTES: /dev/zero in its place (newcomer20)
                while len(parts) * CHUNK < MAX_READ_BYTES and (more := os.read(fd, CHUNK)):
                    parts.append(more)
                data = b"".join(parts)
        finally:
            os.close(fd)
        st = os.stat(source)
    except OSError:
        return None
    return cached, data if current(data, st) else b""


def current(data: bytes, st: os.stat_result) -> bool:
    """Whether bytecode file contents ``data`` are what the standard source loader would
    run for a source with status ``st`` (``importlib._bootstrap_external``: this
    interpreter's magic number, flags 0 = timestamp-checked, the source's modified time in
    whole seconds and its size, each modulo 2**32)."""
    return (
        len(data) > HEADER
        and data[:4] == _MAGIC
        and data[4:8] == b"\0\0\0\0"
        and int.from_bytes(data[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
        and int.from_bytes(data[12:16], "little") == st.st_size & 0xFFFFFFFF
    )


def use_stripped(prefix: str) -> None:
    """Read and write docstring-free bytecode files under the folder ``prefix``
    (absolute; :data:`_PREFIX`), :func:`memhooks.fast.prepare` names memhooks' cache
    folder: where it and the folder holding it are this user's and nobody else may write
    in them, or ``prefix`` is not there yet (:func:`keep_stripped` makes it so) — another
    user able to put a file or a folder there would have the hook run it (Python's own
    ``PYTHONPYCACHEPREFIX`` checks nothing)."""
    global _PREFIX, _READABLE
    prefix = prefix.rstrip("/")
    mine = private(prefix)
    _PREFIX = prefix if mine is not False else None
    _READABLE = bool(mine)


def private(prefix: str) -> bool | None:
    """Whether the folder ``prefix`` and the folder holding it are each :func:`ours` —
    whoever may write in the one holding it may put another folder in its place; None
    when either is not there yet."""
    holder = ours(os.path.dirname(prefix))
    return holder if not holder else ours(prefix)


def ours(folder: str) -> bool | None:
    """Whether ``folder`` is a real folder owned by this user that no one else may write
    in (its group may, when it is this user's group); None when there is nothing there."""
    import stat

    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o002:
        return False
    # group-writable for this user's group only (umask 002, a group of one's own)
    return not st.st_mode & 0o020 or st.st_gid == os.getegid()


def keep_stripped() -> int:
    """Have the docstring-free files of :data:`PENDING` written
    (:func:`memhooks.fast.stripped.keep`, loaded only then: after an install or an
    upgrade, a hook's first calls) under :data:`_PREFIX`, made ``0700`` when missing and
    used only while it is this user's alone (:func:`private`); how many were. Called once a
    hook call has replied (:func:`memhooks.commands.hook.process`)."""
    pending = PENDING[:]
    PENDING.clear()
    if not pending or _PREFIX is None:
        return 0
    try:
        os.makedirs(_PREFIX, mode=0o700, exist_ok=True)
    except OSError:
        return 0
    if not private(_PREFIX):
        return 0
    from .stripped import keep

    return keep(pending, _PREFIX, SUFFIX)



#: The import system's own module-loading step (``importlib._bootstrap._find_and_load``),
#: which :func:`_find_and_load` hands every name it does not load itself.
_BOOTSTRAP = sys.modules["_frozen_importlib"]
_STANDARD: Callable[[str, Callable[..., ModuleType]], ModuleType] = _BOOTSTRAP._find_and_load


def _find_and_load(name: str, import_: Callable[..., ModuleType]) -> ModuleType:
    """Load memhooks' module ``name`` as ``importlib._bootstrap._find_and_load`` does —
    its parent first, then the module made from :class:`Finder`'s spec with the
    attributes the import system sets, in :data:`sys.modules` while its code runs (and
    out of it when that raises), bound on its parent — without the per-module lock, the
    global import lock and the walk of the meta path. Those serve threads; a process
    that has loaded :mod:`threading`, a name already in :data:`sys.modules` (a module
    being initialised, or None), a name not memhooks' or a module the finder leaves to
    the standard way go to :data:`_STANDARD` unchanged. The interpreter's C import calls
    this by name on ``importlib._bootstrap`` (CPython ``Python/import.c``,
    ``import_find_and_load``), after its own look in :data:`sys.modules` and its audit
    event; :func:`shortcut` puts it there. Raises what the module's code raises."""
    if "threading" in sys.modules or name in sys.modules or sys.meta_path[0] is not Finder:
        return _STANDARD(name, import_)
    parent, _, child = name.rpartition(".")
    if parent and parent not in sys.modules:
        import_(parent)
        if name in sys.modules:  # the parent's code imported it
            return sys.modules[name]
    spec = Finder.find_spec(name)
    if spec is None:
        return _STANDARD(name, import_)
    module = Finder.create_module(spec)
    module.__loader__ = Finder
    module.__package__ = spec.parent
    module.__spec__ = spec
    # as _load_unlocked: "initializing" while its code runs (a circular import reads it),
    # and the parent's spec names the child meanwhile (its error messages read that)
    outer = sys.modules[parent].__spec__ if parent else None
    spec._initializing = True  # type: ignore[attr-defined]
    if outer is not None:
        outer._uninitialized_submodules.append(child)  # type: ignore[attr-defined]
    try:
        sys.modules[name] = module
        try:
            Finder.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        module = sys.modules.pop(name)  # its code may have put another in its place
        sys.modules[name] = module
        _BOOTSTRAP._verbose_message("import {!r} # {!r}", name, Finder)  # python -v
    finally:
        spec._initializing = False  # type: ignore[attr-defined]
        if outer is not None:
            outer._uninitialized_submodules.pop()  # type: ignore[attr-defined]
    if parent:
        setattr(sys.modules[parent], child, module)
    return module


def shortcut() -> None:
    """Have the import system load memhooks' modules through :func:`_find_and_load` in
    this process (a hook process: :func:`memhooks.fast.prepare`). Measured: ~48 k
    instructions a module less — a telling pre-tool edit's 72 modules 70.8 → 67.3 M, a
    served read 43.5 → 41.9 M (callgrind, docs/performance.md)."""
    _BOOTSTRAP._find_and_load = _find_and_load
