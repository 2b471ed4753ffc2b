"""How the package starts a worker process, and what every worker does first: ignore Ctrl-C, die with its parent.

The lab's pool and the review's workers are processes of their own; a parent killed (SIGKILL, out of memory) runs no
clean-up, so a worker waiting for its next task would wait for ever. On Linux the kernel kills it then
(``PR_SET_PDEATHSIG``); elsewhere its loop stops once its parent is gone (:func:`orphaned`).

Ctrl-C at a terminal reaches the whole process group, and only the parent must act on it (it stops the workers
itself). A worker is started with SIGINT *blocked* (:func:`spawning`): a blocked signal stays blocked through fork
and exec, so not even the new interpreter's start-up can print a traceback, and the worker then ignores it. The
parent's own handler is never touched, so a Ctrl-C while a worker starts is never lost: it is held pending and raised
the moment the start is done (or, if another thread of the parent takes it, raised in the main thread as always).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator


@contextlib.contextmanager
def spawning() -> Iterator[None]:
    """Hold SIGINT pending in this thread while worker processes start, so that they inherit it blocked.

    >>> with spawning():
    ...     pass
    """
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # no signal masks (Windows): a spawned child inherits nothing
        yield
        return
    # multiprocessing starts its resource tracker with the first spawned process, and unblocks SIGINT in this thread
    # once it has: started first, it leaves the mask below alone.
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a Ctrl-C held meanwhile is raised here


def die_with_parent(parent: int) -> None:  # pragma: no cover - runs in worker processes
    """Have the kernel kill this worker when its parent dies (Linux), ignore Ctrl-C, and exit now if the parent is gone.

    >>> import signal
    >>> before = signal.getsignal(signal.SIGINT)
    >>> die_with_parent(os.getppid())  # the parent is alive: the worker lives on
    >>> _ = signal.signal(signal.SIGINT, before)
    """
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops its workers; it started this one with it blocked

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
