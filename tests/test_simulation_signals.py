"""The lab under signals, in real processes: Ctrl-C (twice), the parent killed, and what stderr shows.

Each test starts ``python -m exactodds simulate`` with two local workers in its own session
(so a signal to the process group is what a terminal's Ctrl-C sends), waits until both
workers are running, and then signals it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="process-group signals and /proc: Linux")

ROOT = Path(__file__).resolve().parent.parent
RUN = [sys.executable, "-m", "exactodds", "simulate", "--shoes", "1000000", "--workers", "2", "--seed", "1",
       "--bet", "dragon-7"]  # fmt: skip
#: Generous for a loaded 2-core machine; an unloaded one takes well under a second each.
START_TIMEOUT = 30
EXIT_TIMEOUT = 8


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, their children, …), from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            # The command name (field 2) may hold spaces and parentheses: the fields after the last ")" are safe.
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie waiting for its reaper is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def workers_of(pid: int) -> set[int]:
    found = set()
    for child in descendants(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            continue
    return found


def start(quiet: bool = True, stderr: int = subprocess.PIPE,
          args: list[str] | None = None) -> tuple[subprocess.Popen[bytes], set[int]]:
    """Start a long run (the lab's, or ``args``); return it once its two workers exist, with every process below it."""
    if args is None:
        args = RUN + ["--quiet"] if quiet else RUN
    # faulthandler: a run that does not end is made to print where each of its threads is (:func:`still_running`).
    process = subprocess.Popen(args, cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE, stderr=stderr,
                               env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    deadline = time.monotonic() + START_TIMEOUT
    while len(workers_of(process.pid)) < 2:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the run did not start its workers: {process.communicate()}")
        time.sleep(0.05)
    # No wait: a signal must find the run whether its workers are starting, importing or dealing.
    return process, descendants(process.pid)


def still_running(process: subprocess.Popen[bytes], why: str) -> None:
    """Fail the test with where each of the run's threads was (its faulthandler's dump on SIGABRT), every process of
    its group killed."""
    os.kill(process.pid, signal.SIGABRT)
    try:
        _, stderr = process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        stderr = b"(no dump)"
    with contextlib.suppress(ProcessLookupError):  # the workers, where they outlived it
        os.killpg(process.pid, signal.SIGKILL)
    pytest.fail(f"{why}; its threads were at:\n{stderr.decode(errors='replace')[-4000:]}")


def gone_within(pids: set[int], seconds: float) -> set[int]:
    """The processes of ``pids`` still alive after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    left = {p for p in pids if alive(p)}
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = {p for p in left if alive(p)}
    return left


def test_two_quick_ctrl_c_end_the_run_at_once_with_one_error_line_and_no_worker_left():
    process, below = start()
    os.killpg(process.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    try:
        stdout, stderr = process.communicate(timeout=EXIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        still_running(process, "a second Ctrl-C left the run hanging")
    assert process.returncode == 130  # not killed by the second SIGINT while Python shuts down
    # Exactly one line on stderr: no traceback from a worker, no blank line, no timing line.
    left = gone_within(below, 5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers left behind after Ctrl-C"
    assert re.fullmatch(rb"Error: interrupted[^\n]*\n", stderr), stderr


def test_workers_die_with_their_parent():
    process, below = start()
    assert len(below) >= 2
    os.kill(process.pid, signal.SIGKILL)
    process.wait(EXIT_TIMEOUT)  # not communicate(): workers left behind would hold its pipes open
    process.stdout.close()  # type: ignore[union-attr]
    process.stderr.close()  # type: ignore[union-attr]
    left = gone_within(below, 5)
    for pid in left:  # do not leave them behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers outlived their killed parent"


def read_all(fd: int, seconds: float) -> bytes:
    """What a terminal's other side wrote, until it is closed (a process left behind keeps it open: stop then)."""
    import select

    out = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not select.select([fd], [], [], 0.1)[0]:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: every writer is gone
            break
        if not chunk:
            break
        out += chunk
    return out


def test_an_interrupted_run_wipes_its_progress_bar_and_prints_one_error_line():
    """On a terminal the bar's line is cleared, not ended by a blank line, before the Error line."""
    import pty

    main, side = pty.openpty()
    try:
        process, below = start(stderr=side, quiet=False)
        os.close(side)
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.communicate(timeout=EXIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            for pid in {process.pid, *below}:
                os.kill(pid, signal.SIGKILL)
            pytest.fail("Ctrl-C did not end the run")
        screen = read_all(main, EXIT_TIMEOUT)
    finally:
        os.close(main)
    for pid in gone_within(below, 5):  # never leave a process behind, even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert process.returncode == 130
    assert b"simulating" in screen  # the bar was shown
    # After the bar is wiped ("\r" and erase to the end of the line) comes the one Error line, and nothing else.
    tail = screen.rsplit(b"\x1b[K", 1)[1].replace(b"\x1b[?25h", b"")
    assert re.fullmatch(rb"Error: interrupted[^\r\n]*\r?\n", tail), screen[-300:]
    assert b"\n\r\n" not in screen and b"\n\n" not in screen
