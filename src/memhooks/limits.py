"""The most bytes memhooks reads whole from outside: a hook payload on stdin (Hermes sends
the whole conversation) and one answer of a memory backend (a list of memories, not a
data dump). Past it, the input is refused with a message naming the limit."""

#: 16 MiB.
MAX_READ_BYTES = 16 * 1024 * 1024
