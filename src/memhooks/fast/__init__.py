"""Speed shims: code that bends the standard library to keep the agent hook's start
cheap. Each is listed, with what it saves, the benchmark case that shows it and the test
that holds it equal to the standard way, in this folder's ``README.md`` — the ledger.
Code that bends the standard library lives here or nowhere.

:func:`prepare` is where a memhooks process run by :mod:`memhooks.__main__` puts them in
place: here, not in ``__main__.py``, because a hook command that names that file has it
compiled from source on every call, while this package is imported anyway, from its
bytecode, on the way to :mod:`.bytecode` (~1 M instructions a call less than when
``__main__.py`` held it: ``bench/bench_hook_instructions.py``, a served read 43.5 →
42.4 M).

:func:`caught` names :mod:`memhooks.errors`' classes in an ``except`` clause without
importing them before something was raised.

Only ``sys`` is imported here.
"""

import sys


class LateSite:
    """The last meta path finder under ``-S``: on the first top-level import nothing else
    found, runs the site module's setup (site-packages, ``.pth`` files) and looks again;
    then it leaves the meta path. So every import works as with site (a dependency kept
    in site-packages, or put there by a ``.pth`` file, as for an editable install), only
    later and only when needed. A standard library module the standard finders did not
    find is not in site-packages either (``msvcrt``, which ``subprocess`` tries first on
    every platform): it is not found, as with site, and the setup waits
    (``sys.stdlib_module_names``)."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if path is not None or name in sys.stdlib_module_names:
            return None  # a submodule (its package's path decides) or a standard module
        sys.meta_path.remove(cls)
        import site
        from importlib.machinery import PathFinder

        site.main()
        return PathFinder.find_spec(name, None, target)


def prepare(argv: list[str]) -> bool:
    """Put the shims in place for a memhooks process run with ``argv`` (by
    :mod:`memhooks.__main__`, or the ``memhooks`` command: :mod:`memhooks.console`): without the
    site module, :class:`LateSite` goes last on the meta path; memhooks' modules load
    straight from their bytecode (:class:`.bytecode.Finder`) without the import system's
    module locks (:func:`.bytecode.shortcut`) — every command (``validate --all``, a
    fresh process in CI and pre-commit, loads ~80). True for the ``hook`` command, which
    also reads them docstring-free where a call before it wrote that (in
    :func:`memhooks.dirs.cache_dir`: no other command reads those — a command's help may
    be a docstring) and runs without the cyclic garbage collector."""
    import gc

    from . import bytecode

    if sys.flags.no_site:
        sys.meta_path.append(LateSite)
    # memhooks' own modules straight from their bytecode (README.md)
    sys.meta_path.insert(0, bytecode.Finder)
    bytecode.shortcut()  # and without the import system's locks
    if argv[1:2] != ["hook"] or {"-h", "--help"} & set(argv):
        gc.enable()  # __main__ turned it off until the command was known
        return False
    # their docstring-free files in memhooks' cache folder (every hook call loads dirs)
    from .. import dirs

    try:
        bytecode.use_stripped(f"{dirs.cache_dir()}/bytecode")
    except OSError:  # HomeError: no home to keep a cache in — the standard files only
        pass
    # A hook process lives at most its deadline with a bounded payload: what cycles it
    # leaves go at its exit. The cyclic collector's passes over the objects its imports
    # create cost ~1 ms of CPU per call (bench A/B, 31 rounds: 27.0 vs 28.0 ms). __main__
    # turns it off from its first line (the passes during os's own imports were ~0.4 M
    # instructions more, callgrind); off here too for a caller that did not.
    gc.disable()
    return True


def caught(*kinds: str | type[Exception]) -> tuple[type[Exception], ...]:
    """The classes ``kinds`` for an ``except`` clause — a name is a class of
    :mod:`memhooks.errors`, a class stands as given: ``except caught("StoreError",
    sqlite3.DatabaseError) as exc:``. Python evaluates a clause's classes only when an
    exception reaches it, so a call that raises nothing never loads the error tree (its
    classes: ~1.3 M instructions of a hook call, callgrind, bf47425) and what the clause
    does not name passes through untouched, as with the classes imported at the top.
    Raises AttributeError for a name :mod:`memhooks.errors` does not define."""
    from memhooks import errors

    return tuple(getattr(errors, k) if isinstance(k, str) else k for k in kinds)
