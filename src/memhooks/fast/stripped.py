"""Docstring-free bytecode for the hook process (:mod:`.bytecode` reads it first):
:func:`stripped` makes a module's code without its docstrings, :func:`keep` writes it
for the calls to come (and :func:`forget_gone` drops the files of installations that are
gone). Loaded only by a hook call that loaded a module whose file was missing or stale —
after an install or an upgrade — once it replied.
"""

from __future__ import annotations

import marshal
import opcode
import os
import sys

from .. import cachefile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType

_CO_OPTIMIZED = 0x1  # inspect.CO_OPTIMIZED: a function's code (not a module's or class body's)
#: Whether a function's first constant is its docstring: always through 3.13 (None when it
#: has none); from 3.14 when its flags say it has one (``CO_HAS_DOCSTRING``).
_FUNCTION_DOC: Callable[[int], bool] = (
    (lambda flags: bool(flags & 0x4000000)) if sys.version_info >= (3, 14) else (lambda flags: True)
)


def keep(pending: list[tuple[str, bytes, CodeType]], prefix: str, suffix: str) -> int:
    """Write the docstring-free bytecode file of each module of ``pending`` (``(that
    file, the standard file's header, the code as loaded)``:
    :data:`memhooks.fast.bytecode.PENDING`), for the hook calls to come: the code, its
    docstrings None (:func:`stripped`), behind the standard file's header (the same
    source time and size: stale when the source changes, as that file is). Each file is
    whole or absent (:func:`memhooks.cachefile.write`, folders made ``0700``); the first
    that cannot be written ends it — the standard loader's rules for its own files (the
    caller writes nothing where Python writes no bytecode, nor in a folder that is not
    this user's alone). Returns how many were written (~0.1 ms a module). Then, when it
    wrote any (an install or an upgrade), the files under the folder ``prefix`` kept for
    installations that are gone go (:func:`forget_gone`; ``suffix``: the end of their
    names, :data:`memhooks.fast.bytecode.SUFFIX`)."""
    written = 0
    for path, header, code in pending:
        if not cachefile.write(path, header + marshal.dumps(stripped(code)), mode=0o700):
            break
        written += 1
    if written:
        forget_gone(prefix, suffix)
    return written


def forget_gone(prefix: str, suffix: str) -> None:
    """Remove the docstring-free files kept under the folder ``prefix`` for memhooks
    packages that are no longer there — a virtualenv deleted, a checkout moved: each
    installation's files are a tree of their own, ~1.6 MB, laid out by the package's
    absolute folder — and the folders left empty above them. A package's tree is a
    folder named ``memhooks`` holding docstring-free files of its own (the package's
    ``__init__`` never has one: it is imported before the cache folder is known,
    newcomer19), gone when its ``__init__.py`` is; nothing outside ``prefix`` is
    touched, and no symbolic link is followed."""
    for folder, folders, files in os.walk(prefix):
        if os.path.basename(folder) != "memhooks" or not any(f.endswith(suffix) for f in files):
            continue
        folders.clear()  # a package's tree: not below it
        package = folder[len(prefix) :]
        if os.path.isfile(os.path.join(package, "__init__.py")):
            continue
        import shutil  # only to remove one: it loads functools, collections, bz2, ...

        shutil.rmtree(folder, ignore_errors=True)
        parent = os.path.dirname(folder)
        while len(parent) > len(prefix):
            try:
                os.rmdir(parent)  # only while empty
            except OSError:
                break
            parent = os.path.dirname(parent)


def stripped(code: CodeType) -> CodeType:
    """``code`` and the code objects in it with their docstrings None — what ``-OO``
    drops of them, and nothing else (CPython's compiler, ``compiler_function`` and
    ``compiler_body``): a function's is its first constant (None there when it has
    none), a module's and a class body's the constant stored as ``__doc__``. A
    constant the code also loads stays (the compiler keeps equal constants once)."""
    load_const, store_name = opcode.opmap["LOAD_CONST"], opcode.opmap["STORE_NAME"]
    consts = [stripped(c) if isinstance(c, type(code)) else c for c in code.co_consts]
    loads: dict[int, int] = {}  # constant -> how many instructions load it
    stored: list[int] = []  # constants stored as __doc__ as soon as loaded
    raw, extended, loaded = code.co_code, 0, None
    for at in range(0, len(raw), 2):
        op, arg = raw[at], raw[at + 1] | extended
        if op == opcode.EXTENDED_ARG:
            extended = arg << 8
            continue
        extended = 0
        if op in opcode.hasconst:
            loads[arg] = loads.get(arg, 0) + 1
        elif op == store_name and loaded is not None and code.co_names[arg] == "__doc__":
            stored.append(loaded)
        loaded = arg if op == load_const else None
    if code.co_flags & _CO_OPTIMIZED:  # a function
        docs = [0] if _FUNCTION_DOC(code.co_flags) and not loads.get(0) else []
    else:
        docs = [k for k in stored if loads.get(k) == 1]
    for k in docs:
        if k < len(consts) and isinstance(consts[k], str):
            consts[k] = None
    return code.replace(co_consts=tuple(consts))
