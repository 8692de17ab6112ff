"""The walk of :mod:`memhooks.listing.candidates`'s child: it lists the hook candidates
below a directory onto a pipe, then becomes git checking them against the ignore rules.

The child is this process forked (no other thread runs), which calls :func:`walk`, or,
when threads forbid a fork, a fresh isolated interpreter running this file::

    python -I -S walker.py TOP LIMIT HOOK_NAME MOST RECORD(0|1) GIT_ARGV...

(its records then on standard output). Either way it imports nothing but ``os`` (and
``fcntl`` for a large pipe): no package, no ``site``, so it runs from any installed copy
and costs what a bare interpreter does.

Records, each ending in NUL: "R" + a regular hook file's path relative to ``top``
("/"-separated) as it finds one; then "E" when the walk is complete and found nothing,
or "G" and it becomes git (exec) checking the candidates against the ignore rules, its
answer on the same pipe; or a verdict that ends it early: "S" (an entry named like a
hook that is not a regular file), "N" (a hook in a folder holding ``.git``), "M" (past
the folder or candidate limit, more than a pipe holds, or a path git would read as
pathspec magic or a wildcard), "X" (a folder could not be read).

With ``record``, a walk that completes first writes what the listing cache records of
the folders it read (:mod:`memhooks.listing.cache`), before "E", "G" or "M": the
record "F" + ``b"%d %d %d" % (folders, text bytes, stats bytes)``, NUL, then that many
bytes: the folders' paths relative to ``top`` (``""`` for ``top``) and then
"OWNER:PATH" for each file watched in them (``.gitignore``; a nested repository's
``.git`` and ``.git/HEAD``; OWNER the index of its folder), joined by NUL; then each
folder's (inode, mtime, ctime) ``lstat``-ed just before it was read, as 8-byte signed
little-endian integers. No "F" when a folder turned out not to be one (a symlink put in
its place) or a value does not fit.
"""

import os
import sys


def walk(top: str, limit: int, hook: str, most: int, record: bool, git: list[str], fd: int) -> None:
    """Walk ``top`` (at most ``limit`` folders, never through a symlink, skipping
    ``.git``) writing the records above to ``fd``; with candidates found, exec ``git``
    (an argv reading paths on its standard input) with its output on ``fd``. With
    ``record``, a complete walk also writes the folders it read (the record "F").
    It makes ``top`` the working folder (run it in a process of its own, as the fork and
    the spawned file do; ``git`` must then be a path that does not depend on it).
    Returns only when it does not exec."""

    def write(data: bytes) -> None:
        while data:
            data = data[os.write(fd, data) :]

    stack = [(".", "")]  # (the path to read, relative to top: the working folder)
    nested: set[str] = set()  # folders below top holding a ".git" entry
    found: list[str] = []
    candidates: list[str] = []
    count = 0
    # what the listing cache records (memhooks.listing.folders.walk's, in its order)
    folders: list[str] = []
    stats: list[int] | None = [] if record else None
    watched: list[str] = []

    def flush() -> None:
        if found:
            write(b"".join(b"R" + os.fsencode(rel) + b"\0" for rel in found))
            found.clear()

    try:  # paths relative to the top from here on: shorter lookups (~2 ms for 5,000)
        os.chdir(top)
    except OSError:
        write(b"X\0")
        return
    while stack:
        path, rel = stack.pop()
        count += 1
        if count > limit:
            write(b"M\0")
            return
        if stats is not None:  # its stats before its names (a later change shows)
            try:
                st = os.lstat(rel or top)
            except OSError:
                st = None
            if st is None or st.st_mode & 0o170000 != 0o040000:  # not a folder: no record
                stats = None
            else:
                stats += (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
                owner = str(len(folders))
                folders.append(rel)
        here = None
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    name = entry.name
                    if entry.is_dir(follow_symlinks=False):
                        if name == hook:
                            write(b"S\0")
                            return
                        if name != ".git":  # in the order folders.walk reads them
                            below = rel + "/" + name if rel else name
                            stack.append((below, below))
                            if name != ".gitignore":
                                continue
                    elif name == hook:
                        if not entry.is_file(follow_symlinks=False):
                            write(b"S\0")
                            return
                        here = rel + "/" + name if rel else name
                        continue
                    if name == ".git" and rel:
                        nested.add(rel)
                    elif name != ".gitignore":
                        continue
                    if stats is not None:  # the files whose change changes git's listing
                        at = rel + "/" + name if rel else name
                        watched.append(owner + ":" + at)
                        if name == ".git":  # a nested repository's HEAD: whether git enters
                            watched.append(owner + ":" + at + "/HEAD")
        except OSError:
            write(b"X\0")
            return
        if here is not None:
            up = rel
            while up:
                if up in nested:  # a hook in a nested repository: git decides as before
                    write(b"N\0")
                    return
                up = up.rpartition("/")[0]
            found.append(here)
            candidates.append(here)
            if len(found) >= 16:
                flush()
    flush()
    if stats is not None:
        # array, when the fork has it loaded already (~1 ms less for 5,000 folders;
        # importing it would load collections.abc)
        arrays = sys.modules.get("array")
        try:
            if arrays is not None and arrays.array("q").itemsize == 8:
                packed = arrays.array("q", stats)
                if sys.byteorder != "little":
                    packed.byteswap()
                raw = packed.tobytes()
            else:
                raw = b"".join(value.to_bytes(8, "little", signed=True) for value in stats)
        except OverflowError:  # past what the listing's array holds: no record
            raw = b""
        if raw:
            text = os.fsencode("\0".join(folders + watched))
            block = b"F%d %d %d\0" % (len(folders), len(text), len(raw)) + text + raw
            if len(block) > 1 << 15:
                _widen(fd, len(block))  # not to wait here for the parent, busy parsing
            write(block)
    if not candidates:
        write(b"E\0")
        return
    data = b"".join(os.fsencode(rel) + b"\0" for rel in candidates)
    # check-ignore takes its paths as pathspecs (no --literal-pathspecs): a leading ":" is
    # magic, and a wildcard could match a tracked path, which it then does not check
    if (
        len(candidates) > most
        or len(data) > 1 << 20
        or any(
            rel[0] == ":" or "*" in rel or "?" in rel or "[" in rel or "\\" in rel
            for rel in candidates
        )
    ):
        write(b"M\0")
        return
    # git reads the candidates on its standard input: a pipe filled before the exec
    into, out = os.pipe()
    if len(data) > 1 << 16:
        _widen(out, 1 << 20)
    os.set_blocking(out, False)
    try:
        while data:
            data = data[os.write(out, data) :]
    except BlockingIOError:  # more than the pipe holds
        write(b"M\0")
        return
    os.close(out)
    write(b"G\0")
    os.dup2(into, 0)
    if fd != 1:
        os.dup2(fd, 1)
        os.dup2(os.open(os.devnull, os.O_RDWR), 2)
    os.execvp(git[0], git)


def _widen(fd: int, size: int) -> None:
    """Make the pipe ``fd`` hold ``size`` bytes more than it holds (Linux; 1 MiB at
    most, what an unprivileged process may ask), if it can."""
    try:
        import fcntl

        held = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, min(held + size, 1 << 20))
    except (ImportError, AttributeError, OSError):
        pass


if __name__ == "__main__":
    argv = sys.argv
    walk(argv[1], int(argv[2]), argv[3], int(argv[4]), argv[5] == "1", argv[6:], 1)
