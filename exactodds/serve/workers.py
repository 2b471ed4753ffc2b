"""The work of the requests in worker processes, so that work past the time limit is stopped there, not abandoned.

A thread cannot be stopped in Python: work given to a thread runs to its end, and a request
that asks for minutes holds a core for minutes after its answer (503) is sent. A process can be
killed. So every request that computes is sent to one of a few worker processes, and the thread
that waits for its answer kills the worker at the limit and starts another in its place: the
server's capacity comes back at the limit, whatever was asked.

Workers are forked from a *fork server* that has imported the package once (``forkserver``: the
server itself has threads, which ``fork`` must not copy), so a new worker is ready in
milliseconds. One worker is kept for light requests (an estimated cost, :attr:`Job.cost`, up to
:data:`~.costs.LIGHT`), and the others run heavy work at a lower priority, so that cheap requests
always find a worker and a core.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ..errors import ExactOddsError
from .costs import LIGHT
from .endpoints import ENDPOINTS, answer
from .replies import Reply, TooLong, error_reply, json_reply
from .tracks import Tracks


@dataclass(frozen=True)
class Job:
    """One request's work, as a worker is sent it: the endpoint (its index), the request object and path parameters."""

    endpoint: int
    data: Any
    params: dict[str, str]
    cost: int = 0


def run_job(job: Job) -> tuple[Reply, str | None, float]:
    """The reply to ``job``, for a bug its trace to log (the client gets one line), and the CPU seconds it took (its
    thread's: time the machine gave to others is not the job's).

    >>> run_job(Job(0, None, {}))[0].status
    200
    """
    began = time.thread_time()
    try:
        reply, trace = answer(ENDPOINTS[job.endpoint], job.data, job.params, Tracks()), None
    except ExactOddsError as err:
        reply, trace = error_reply(err), None
    except Exception:  # noqa: BLE001 - a bug: one line to the client, the trace to the server's log
        reply = json_reply({"error": "internal error: the server could not answer (its log says why)"}, 500)
        trace = traceback.format_exc()
    return reply, trace, time.thread_time() - began


def answer_here(job: Job) -> tuple[Reply, float]:
    """The reply to ``job`` computed in this process (a bug's trace logged, as a worker's is), and its CPU seconds.

    For work known to be quick (:class:`~.costs.Quick`): no worker can stop it at the limit.

    >>> answer_here(Job(0, None, {}))[0].status
    200
    """
    reply, trace, seconds = run_job(job)
    _log_trace(job, trace)
    return reply, seconds


def _log_trace(job: Job, trace: str | None) -> None:
    """A bug's trace, in the server's log."""
    if trace is not None:
        print(f"exactodds serve: internal error answering {ENDPOINTS[job.endpoint].path}:\n{trace}", file=sys.stderr,
              flush=True)


def _worker(connection: Connection, niceness: int) -> None:
    """A worker's life: answer each job sent, until the server closes its end or kills it."""
    # Ctrl-C reaches the whole process group: the server, not its workers, decides when they end.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        try:
            connection.send(run_job(job))
        except OSError:  # the server has gone (or given up on this worker)
            return


@dataclass(eq=False)
class Worker:
    """One worker process, the server's end of its pipe, and whether it takes heavy work."""

    process: Any
    connection: Connection
    heavy: bool

    def stop(self) -> None:
        """Kill it at once (its work, if any, is abandoned) and reap it."""
        self.process.kill()
        self.process.join()
        self.connection.close()


def _context() -> Any:
    """The way workers are started: forked from a fork server that has the package imported, where there is one."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        context.set_forkserver_preload([__name__])
    return context


#: How much less CPU a heavy worker is given when cheap work wants it (its ``nice`` increment, 0 to 19).
HEAVY_NICENESS = 10


@dataclass
class Workers:
    """``size`` worker processes; :meth:`call` runs a job in one of them within a deadline, killing it past that.

    One worker takes only light work (an estimated cost up to :data:`~.costs.LIGHT`); the others take any, and run
    at a lower priority (:data:`HEAVY_NICENESS`), so that heavy work yields the cores to cheap requests and to the
    server's own loop. A light job takes the light worker, or else any free one. Blocking: it is called from
    threads (one per request under way), never on the event loop.

    >>> workers = Workers(1, limit=30)
    >>> workers.call(Job(0, None, {}), time.monotonic() + 30).status
    200
    >>> workers.close()
    """

    size: int
    #: The time limit, in seconds, said in the refusal of work that overruns it.
    limit: float = 30
    _context: Any = field(default_factory=_context, repr=False)
    _idle: list[Worker] = field(default_factory=list, repr=False)
    _free: threading.Condition = field(default_factory=threading.Condition, repr=False)
    _every: set[Worker] = field(default_factory=set, repr=False)
    _closed: bool = False

    def __post_init__(self) -> None:
        for number in range(self.size):
            self._idle.append(self._start(heavy=number > 0 or self.size == 1))

    def _start(self, heavy: bool) -> Worker:
        """A new worker, ready for a job."""
        ours, theirs = self._context.Pipe()
        niceness = HEAVY_NICENESS if heavy and self.size > 1 else 0
        process = self._context.Process(target=_worker, args=(theirs, niceness), daemon=True,
                                        name="exactodds-worker")
        process.start()
        theirs.close()
        worker = Worker(process, ours, heavy)
        self._every.add(worker)
        return worker

    def _take(self, heavy: bool, deadline: float) -> Worker:
        """A free worker for a job (heavy: one that takes heavy work; light: the light one first), by ``deadline``."""
        with self._free:
            while True:
                fits = [w for w in self._idle if w.heavy or not heavy]
                if fits:
                    chosen = min(fits, key=lambda w: w.heavy)  # a light job: the light worker first
                    self._idle.remove(chosen)
                    return chosen
                if not self._free.wait(_left(deadline)) and _left(deadline) == 0:
                    raise too_long(self.limit)

    def _give_back(self, worker: Worker) -> None:
        """``worker`` is free again."""
        with self._free:
            self._idle.append(worker)
            self._free.notify_all()

    def call(self, job: Job, deadline: float, timed: Callable[[float], None] | None = None) -> Reply:
        """The reply to ``job``, from a free worker, by ``deadline`` (``time.monotonic()``); else :class:`TooLong`,
        the worker killed and replaced. ``timed`` is told the CPU seconds the worker took on it."""
        worker = self._take(job.cost > LIGHT, deadline)
        try:
            worker.connection.send(job)
            if worker.connection.poll(_left(deadline)):
                reply, trace, seconds = worker.connection.recv()
                self._give_back(worker)
                _log_trace(job, trace)
                if timed is not None:
                    timed(seconds)
                return reply  # type: ignore[no-any-return]
        except (EOFError, OSError):  # the worker died (killed from outside, out of memory): replaced below
            self._replace(worker)
            return json_reply({"error": "internal error: the worker answering the request stopped"}, 500)
        self._replace(worker)
        raise too_long(self.limit)

    def _replace(self, worker: Worker) -> None:
        """Kill ``worker`` and put a new one of its kind in its place (unless the server is stopping)."""
        self._every.discard(worker)
        worker.stop()
        if not self._closed:
            self._give_back(self._start(worker.heavy))

    def close(self) -> None:
        """Kill every worker, at work or not (a thread waiting for one hears at once that it is gone)."""
        self._closed = True
        for worker in list(self._every):
            worker.process.kill()
        for worker in list(self._every):
            worker.process.join()


def _left(deadline: float) -> float:
    """Seconds left before ``deadline`` (none: 0)."""
    return max(0.0, deadline - time.monotonic())


def too_long(limit: float) -> TooLong:
    """The refusal of work that did not end (or could not start) within the limit of ``limit`` seconds.

    >>> str(too_long(3)).split(":")[0]
    'the request took longer than 3 s, the most this server gives one'
    """
    return TooLong(f"the request took longer than {limit:g} s, the most this server gives one: ask for less (fewer"
                   " shoes, decks or bets), or start the server with a longer --time-limit")


def default_workers() -> int:
    """The worker processes a server starts by default: one per core, at least two (one kept for cheap requests).

    >>> default_workers() >= 2
    True
    """
    return max(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 2))
