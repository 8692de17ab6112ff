"""The generic protocol as a command: ``generic_command.py STORE.json [--sleep S]
[--child PIDFILE] [--fail MESSAGE]``. Reads one request on stdin, answers on stdout;
memories live in STORE.json. ``--child`` starts a sleeping child first (its pid in
PIDFILE) so a test can see that a timeout kills the whole process group."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generic_support import answer


def main(argv: list[str]) -> int:
    store, options = argv[0], argv[1:]
    if "--child" in options:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open(options[options.index("--child") + 1], "w", encoding="utf-8") as fp:
            fp.write(str(child.pid))
    if "--sleep" in options:
        time.sleep(float(options[options.index("--sleep") + 1]))
    if "--fail" in options:
        print("something went wrong first", file=sys.stderr)
        print(options[options.index("--fail") + 1], file=sys.stderr)
        return 3
    request = json.load(sys.stdin)
    memories = []
    if os.path.exists(store):
        with open(store, encoding="utf-8") as fp:
            memories = json.load(fp)
    reply = answer(memories, request)
    with open(store, "w", encoding="utf-8") as fp:
        json.dump(memories, fp)
    json.dump(reply, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
