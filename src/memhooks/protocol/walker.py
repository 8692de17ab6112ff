"""The walk of :mod:`memhooks.protocol.candidates`'s child: it lists the hook candidates
below a directory onto a pipe, then becomes git checking them against the ignore rules.

The child is this process forked (no other thread runs), which calls :func:`walk`, or,
when threads forbid a fork, a fresh isolated interpreter running this file::

    python -I -S walker.py TOP LIMIT HOOK_NAME MOST GIT_ARGV...

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
"""

import os


def walk(top: str, limit: int, hook: str, most: int, git: list[str], fd: int) -> None:
    """Walk ``top`` (at most ``limit`` folders, never through a symlink, skipping
    ``.git``) writing the records above to ``fd``; with candidates found, exec ``git``
    (an argv reading paths on its standard input) with its output on ``fd``. Returns
    only when it does not exec."""

    def write(data: bytes) -> None:
        while data:
            data = data[os.write(fd, data) :]

    stack: list[tuple[str, bool]] = [("", False)]
    found: list[str] = []
    candidates: list[str] = []
    count = 0

    def flush() -> None:
        if found:
            write(b"".join(b"R" + os.fsencode(rel) + b"\0" for rel in found))
            found.clear()

    while stack:
        rel, nested = stack.pop()
        count += 1
        if count > limit:
            write(b"M\0")
            return
        here: list[str] = []
        below: list[str] = []
        try:
            with os.scandir(os.path.join(top, rel) if rel else top) as entries:
                for entry in entries:
                    name = entry.name
                    if entry.is_dir(follow_symlinks=False):
                        if name == hook:
                            write(b"S\0")
                            return
                        if name != ".git":
                            below.append(rel + "/" + name if rel else name)
                        elif rel:
                            nested = True
                    elif name == hook:
                        if not entry.is_file(follow_symlinks=False):
                            write(b"S\0")
                            return
                        here.append(rel + "/" + name if rel else name)
                    elif name == ".git" and rel:
                        nested = True
        except OSError:
            write(b"X\0")
            return
        if here and nested:  # a hook in a nested repository: git decides as before
            write(b"N\0")
            return
        stack += [(path, nested) for path in below]
        found += here
        candidates += here
        if len(found) >= 16:
            flush()
    flush()
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
        try:
            import fcntl

            fcntl.fcntl(out, fcntl.F_SETPIPE_SZ, 1 << 20)
        except (ImportError, AttributeError, OSError):
            pass
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


if __name__ == "__main__":
    import sys

    walk(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5:], 1)
