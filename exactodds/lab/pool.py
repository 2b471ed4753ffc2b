"""The lab's pool of local worker processes: a :class:`concurrent.futures.Executor` that can always be stopped.

Each worker is fed tasks over its own pipe and answers on it, in order. No lock or queue
is shared between processes (a process killed while holding one would hang the rest), so
the pool can always kill its workers and go. A worker ignores Ctrl-C (only the parent
decides to stop), and dies with its parent: on Linux the kernel kills it when the thread
that started it ends, and everywhere it exits when its pipe closes or its parent changes.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import CancelledError, Executor, Future
from types import TracebackType
from typing import Any

from ..errors import ExactOddsError
from ..workers import die_with_parent, orphaned, spawning

#: Tasks a worker holds at most: the one it computes and the next, so it never waits for work.
AHEAD = 2
#: How often the reader looks at the workers when none has answered, in seconds.
_POLL = 0.05


class _Worker:
    """One worker process, the parent's end of its pipe, and its tasks in the order it answers them."""

    def __init__(self, process: Any, conn: Any) -> None:
        self.process = process
        self.conn = conn
        self.given: deque[Future[Any]] = deque()


class LabPool(Executor):
    """Up to ``workers`` local processes (started as tasks arrive), each fed over a private pipe.

    Unlike :class:`concurrent.futures.ProcessPoolExecutor`, a task already given to a worker
    can be abandoned: ``shutdown(cancel_futures=True)`` (and leaving a ``with`` block) kills
    the workers at once, which is what a run stopped by Ctrl-C needs. A worker that dies
    fails the futures it held with :class:`~exactodds.errors.ExactOddsError`.

    >>> with LabPool(2) as pool:
    ...     sorted(pool.map(abs, [-3, 1, -2]))
    [1, 2, 3]
    """

    def __init__(self, workers: int) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ExactOddsError(f"use at least one worker, not {workers!r}")
        self._max_workers = workers
        self._workers: list[_Worker] = []
        self._backlog: deque[tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = deque()
        self._lock = threading.RLock()
        self._closed = False
        self._reader: threading.Thread | None = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn(*args, **kwargs)`` in a worker process; ``fn`` and its arguments must pickle."""
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot submit a task to a pool that is shut down")
            self._backlog.append((future, fn, args, kwargs))
            if len(self._workers) < self._max_workers and all(w.given for w in self._workers):
                self._start_worker()
            self._feed()
            if self._reader is None:
                self._reader = threading.Thread(target=self._read, name="exactodds-lab-pool", daemon=True)
                self._reader.start()
        return future

    def _start_worker(self) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs, os.getpid()), daemon=True)
        # A worker starts with SIGINT held (see exactodds.workers): Ctrl-C at a terminal reaches the whole process
        # group, and only the parent must see it, to stop the workers itself. The worker is counted before a Ctrl-C
        # held meanwhile is raised, so that shutting the pool down stops it too.
        with spawning():
            try:
                process.start()
            finally:
                theirs.close()
            self._workers.append(_Worker(process, mine))

    def _feed(self) -> None:
        """Hand waiting tasks to the least busy workers, up to AHEAD each (under the lock)."""
        while self._backlog:
            worker = min(self._workers, key=lambda w: len(w.given), default=None)
            if worker is None or len(worker.given) >= AHEAD:
                return
            future, fn, args, kwargs = self._backlog.popleft()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                worker.conn.send((fn, args, kwargs))
            except Exception as err:  # a task that does not pickle, or a worker gone
                future.set_exception(err)
                continue
            worker.given.append(future)

    def _read(self) -> None:
        """The reader thread: settle each future as its worker answers; fail those of a worker that died."""
        from multiprocessing.connection import wait

        while True:
            with self._lock:
                if self._closed and not any(w.given for w in self._workers):
                    return
                conns = {w.conn: w for w in self._workers if w.given}
            if not conns:
                time.sleep(_POLL)
                continue
            try:
                ready = wait(list(conns), timeout=_POLL)
            except (OSError, ValueError):  # a pipe closed by shutdown while waiting
                continue
            for conn in ready:
                worker = conns[conn]
                try:
                    kind, payload = worker.conn.recv()
                except (EOFError, OSError):
                    self._lost(worker)
                    continue
                with self._lock:
                    if not worker.given:  # abandoned by shutdown meanwhile
                        continue
                    future = worker.given.popleft()
                    self._feed()
                if kind == "done":
                    future.set_result(payload)
                else:
                    future.set_exception(payload)

    def _lost(self, worker: _Worker) -> None:
        with self._lock:
            if worker in self._workers:
                self._workers.remove(worker)
            given, worker.given = list(worker.given), deque()
        lost = ExactOddsError("a simulation worker process died; the chunks it had are lost")
        for future in given:
            if not future.done():
                future.set_exception(lost)
        with contextlib.suppress(OSError):
            worker.conn.close()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the pool: with ``cancel_futures`` at once (tasks under way are abandoned, workers killed).

        Otherwise every task submitted is finished first (``wait`` is accepted for the
        Executor interface: the pool always waits for its workers to exit, a few seconds at most).
        """
        with self._lock:
            self._closed = True
            if cancel_futures:
                for future, *_ in self._backlog:
                    future.cancel()
                self._backlog.clear()
            pending = [task[0] for task in self._backlog] + [f for w in self._workers for f in w.given]
        if not cancel_futures:
            for future in pending:  # the reader settles them (and feeds the backlog) meanwhile
                with contextlib.suppress(BaseException):
                    future.exception()
        with self._lock:
            workers, self._workers = self._workers, []
            abandoned = [f for w in workers for f in w.given]
            for worker in workers:
                worker.given.clear()
        _end(workers, clean=not cancel_futures)
        for future in abandoned:
            if not future.done():
                future.set_exception(CancelledError())
        if self._reader is not None and self._reader is not threading.current_thread():
            self._reader.join(5)

    def __exit__(
        self, exc_type: type[BaseException] | None, exc_val: BaseException | None, exc_tb: TracebackType | None
    ) -> bool | None:
        # Whoever leaves the block is done with the pool: nothing still under way is wanted.
        self.shutdown(cancel_futures=True)
        return None


def _end(workers: list[_Worker], clean: bool) -> None:
    """Tell idle workers to exit (clean), else (or if they linger) kill them. Never waits long."""
    if clean:
        for worker in workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        deadline = time.monotonic() + 5
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.process.is_alive():
            worker.process.kill()
    for worker in workers:
        worker.process.join(5)
    for worker in workers:
        with contextlib.suppress(OSError):
            worker.conn.close()


def _serve(conn: Any, parent: int) -> None:  # pragma: no cover - runs in worker processes
    """A worker's loop: receive a task, send back its result; stop on None, on EOF, or when orphaned."""
    import pickle

    die_with_parent(parent)
    while not orphaned(parent):
        try:
            task = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if task is None:
            return
        fn, args, kwargs = task
        try:
            message: tuple[str, Any] = ("done", fn(*args, **kwargs))
        except Exception as err:  # sent to the parent, which raises it
            try:
                pickle.dumps(err)
                message = ("error", err)
            except Exception:
                message = ("error", RuntimeError(f"{type(err).__name__}: {err}"))
        try:
            conn.send(message)
        except OSError:
            return
