"""The most bytes memhooks reads whole from outside: a hook payload on stdin (Hermes sends
the whole conversation) and one answer of a memory backend (a list of memories, not a
data dump). Past it, the input is refused with a message naming the limit. Also the
largest source file whose definitions the hook reads for the symbol cue."""

#: 16 MiB.
MAX_READ_BYTES = 16 * 1024 * 1024

#: 256 KiB: a larger file (generated code, a data dump) is not parsed for its names — a
#: 1.2 MB Python file takes ~1.8 s in ``ast.parse`` on a loaded 2-core machine, on the
#: hook's main thread, where the deadline's watchdog cannot cut it short (a newcomer's
#: 10 MB file made a Read's hook take 6.8 s against its 3 s deadline).
MAX_NAMES_CHARS = 256 * 1024
