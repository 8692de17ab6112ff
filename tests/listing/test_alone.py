"""Whether the listing may fork is asked without ``sys._current_frames()``, which
deadlocks on some CPython releases when a garbage collection it triggers clears a
``threading.local`` (CPython gh-106883): the suite hung for good in
``test_a_corrupt_or_altered_listing_is_ignored_not_trusted`` (newcomer8), and a hook
listing hooks would have waited for its host to kill it instead of failing open."""

from __future__ import annotations

import subprocess
import sys
import threading

from memhooks.child import alone

#: The collector runs at every allocation while objects holding a threading.local die in
#: cycles: the pattern that hangs ``len(sys._current_frames())`` on 3.11.7 every time.
CHURN = """
import gc, threading
from memhooks.child import alone
class Holder:
    pass
gc.set_threshold(1, 1, 1)
for _ in range(50000):
    h = Holder(); h.local = threading.local(); h.self = h
    del h
    assert alone()
print("done")
"""


def test_asking_whether_to_fork_survives_a_collection_of_thread_locals() -> None:
    done = subprocess.run([sys.executable, "-c", CHURN], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "done\n"), done.stderr[-500:]


def test_a_thread_running_means_no_fork() -> None:
    assert alone()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not alone()
    finally:
        stop.set()
        other.join()
    assert alone()
