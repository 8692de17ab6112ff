"""Child process for the lock and crash tests (run as ``python worker.py MODE HOOK ...``).

Modes:
  note HOOK TEXT       locked read-modify-write adding the note TEXT (a real maintainer write)
  hold HOOK            take the lock, print ``locked``, sleep until killed
  churn HOOK VERSIONS  print ``ready``, then rewrite HOOK forever under the lock, cycling
                       through the complete texts in the JSON file VERSIONS
"""

from __future__ import annotations

import json
import sys
import time

from memhooks.maintain.atomic import sweep_stale_temps, write_atomic
from memhooks.maintain.lock import hook_lock


def note(hook: str, text: str) -> None:
    from memhooks.maintain import edit, roundtrip
    from memhooks.protocol.hookfile import read_bytes

    with hook_lock(hook, timeout=60):
        data, _ = read_bytes(hook)
        document, tree = roundtrip.load_hook(data.decode("utf-8"), hook)
        edit.upsert_query(tree, text)
        time.sleep(0.002)  # widen the read-modify-write window so a missing lock would lose updates
        write_atomic(hook, roundtrip.render(document, tree))


def hold(hook: str) -> None:
    with hook_lock(hook, timeout=10):
        print("locked", flush=True)
        time.sleep(60)


def churn(hook: str, versions_path: str) -> None:
    with open(versions_path, encoding="utf-8") as f:
        versions = json.load(f)
    directory = hook.rsplit("/", 1)[0]
    print("ready", flush=True)
    i = 0
    while True:
        with hook_lock(hook, timeout=10):
            sweep_stale_temps(directory, older_than_s=0)
            write_atomic(hook, versions[i % len(versions)])
        i += 1


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    {"note": note, "hold": hold, "churn": churn}[mode](*args)
