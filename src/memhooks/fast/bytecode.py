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
"""

from __future__ import annotations

import _imp
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from importlib.machinery import ModuleSpec
    from importlib.readers import FileReader
    from types import ModuleType
    from typing import Any

#: The folder holding the ``memhooks`` package.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_TAG = sys.implementation.cache_tag
_MAGIC: bytes = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
_SPEC: Callable[..., ModuleSpec] = sys.modules["_frozen_importlib"].ModuleSpec
_MODULE: Callable[[str], ModuleType] = type(sys)
_OPTIMIZE = sys.flags.optimize
_READ = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
#: Bytes asked of one ``read``: more than any of memhooks' bytecode files (43 KB at most).
CHUNK = 1 << 16
#: Bytes of a bytecode file's header (PEP 552): magic, flags, source mtime, source size.
HEADER = 16


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
        source = f"{folder}/{stem}.py"
        found = _read(source, f"{folder}/__pycache__/{stem}.{_TAG}.pyc")
        package = False
        if found is None:
            package = True
            source = f"{folder}/{stem}/__init__.py"
            found = _read(source, f"{folder}/{stem}/__pycache__/__init__.{_TAG}.pyc")
            if found is None:
                return None
        cached, data = found
        if not data:
            return None  # not current: the standard loader decides
        spec = _SPEC(name, cls, origin=source, is_package=package)
        spec.has_location = True
        spec.cached = cached
        if package:
            spec.submodule_search_locations = [os.path.dirname(source)]
        spec.loader_state = data
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
        data, spec.loader_state = spec.loader_state, None
        code = marshal.loads(memoryview(data)[HEADER:])
        _imp._fix_co_filename(code, spec.origin)  # type: ignore[attr-defined]  # as the source loader: a moved tree
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


def _read(source: str, cached: str) -> tuple[str, bytes] | None:
    """``(cached, its bytes)`` when the bytecode file ``cached`` and ``source`` exist —
    the bytes empty when they are not :func:`current` — else None. Read with one
    ``os.read`` of :data:`CHUNK` bytes (no ``fstat``; a larger file reads on), not through
    ``io.open_code`` as the standard loader reads it: its buffered file object cost ~15k
    instructions a module and ``fstat`` ~2k more (callgrind: ~0.7 M on a served read,
    ~1.9 M on a prompt), and a hook on ``open_code`` (PEP 578) can only be set from C
    (``PyFile_SetOpenCodeHook``, by an application embedding Python): none is in the
    hook's own interpreter."""
    try:
        fd = os.open(cached, _READ)
        try:
            data = os.read(fd, CHUNK)
            if len(data) == CHUNK:  # a file of CHUNK bytes or more: the rest, to its end
                parts = [data]
                while more := os.read(fd, CHUNK):
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
