"""What every worker process of the package does first: die with its parent.

The lab's pool and the review's workers are processes of their own; a parent killed (SIGKILL, out of memory) runs no
clean-up, so a worker waiting for its next task would wait for ever. On Linux the kernel kills it then
(``PR_SET_PDEATHSIG``); elsewhere its loop stops once its parent is gone (:func:`orphaned`).
"""

from __future__ import annotations

import contextlib
import os


def die_with_parent(parent: int) -> None:  # pragma: no cover - runs in worker processes
    """Have the kernel kill this worker when its parent dies (Linux), and exit now if it already has.

    >>> die_with_parent(os.getppid())  # the parent is alive: nothing happens
    """
    import signal
    import sys

    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    if orphaned(parent):
        os._exit(0)


def orphaned(parent: int) -> bool:
    """Whether this worker's parent has died (it was then handed to another process).

    >>> orphaned(os.getppid())
    False
    """
    return os.getppid() != parent
