"""Worker processes start with Ctrl-C held: the parent loses none, the worker never sees one (exactodds.workers)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading

import pytest

from exactodds.workers import spawning

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signal masks: POSIX")


def test_a_ctrl_c_while_workers_start_is_held_then_raised_once_they_have() -> None:
    reached = False
    with pytest.raises(KeyboardInterrupt):
        with spawning():
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # raised at once were it not held
            reached = True
    assert reached
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def test_without_a_ctrl_c_the_mask_is_put_back_as_it_was() -> None:
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    with spawning():
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before


FRESH = """
import multiprocessing, time
from exactodds.workers import spawning
context = multiprocessing.get_context("spawn")
mine, theirs = context.Pipe()  # a pipe, unlike a queue, does not start multiprocessing's resource tracker
process = context.Process(target=time.sleep, args=(30,), daemon=True)
with spawning():
    process.start()
status = open(f"/proc/{process.pid}/status").read()
process.terminate()
print(next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:")))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="/proc: Linux")
def test_the_first_worker_of_a_fresh_interpreter_starts_with_ctrl_c_blocked() -> None:
    """The first spawned process also starts multiprocessing's resource tracker, which unblocks SIGINT in the parent."""
    import subprocess

    mask = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, timeout=60, check=True)
    assert int(mask.stdout, 16) & 1 << (signal.SIGINT - 1), mask


def _report(out: object) -> None:  # runs in the spawned worker
    from exactodds.workers import die_with_parent

    blocked_at_start = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    die_with_parent(os.getppid())
    out.put((blocked_at_start, signal.getsignal(signal.SIGINT) is signal.SIG_IGN))  # type: ignore[attr-defined]


@pytest.mark.skipif(sys.platform == "win32", reason="a spawned child inherits no mask on Windows")
def test_a_worker_starts_with_ctrl_c_blocked_and_then_ignores_it() -> None:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    process = context.Process(target=_report, args=(out,))
    with spawning():
        process.start()
    try:
        assert out.get(timeout=60) == (True, True)
    finally:
        process.join(timeout=10)
