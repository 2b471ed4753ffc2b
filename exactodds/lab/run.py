"""The run loop: every chunk not yet done, computed here or on an executor, added up exactly as it comes.

Runs are split into chunks of :data:`~exactodds.lab.plan.CHUNK_SHOES` shoes; chunk i is
shuffled by its own generator seeded by ``SeedSequence([seed, i])`` and totalled in exact
integers, so the result is the same in this process, on any
:class:`concurrent.futures.Executor` (the lab's :class:`~exactodds.lab.pool.LabPool`, a
process or thread pool), on a Dask ``distributed.Client``, in any order of completion, or
stopped and resumed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor
from concurrent.futures import wait as wait_futures
from typing import Any

from ..errors import ExactOddsError
from .chunk import simulate_chunk
from .plan import ChunkWork, SimulationPlan
from .results import SimulationResult, Totals

#: How often the run looks at Ctrl-C while waiting for an executor, in seconds.
POLL = 0.2
#: Chunks kept submitted to an executor at a time, per worker it has (a few more than it computes).
_PER_WORKER = 3


class _Stop:
    """While active (in the main thread), Ctrl-C asks the run to stop instead of raising.

    The first Ctrl-C sets ``requested``: the run stops before its next chunk (the chunks
    under way on an executor are cancelled or dropped). A second one sets ``forced``, and
    raises KeyboardInterrupt only inside :meth:`breakable` code (a chunk computed in this
    process, a wait on a Dask cluster), which the caller catches; never where totals are
    being added.
    """

    def __init__(self) -> None:
        self.requested = False
        self.forced = False
        self._breakable = False
        self._previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            self.forced = True
            if self._breakable:
                self._breakable = False
                raise KeyboardInterrupt
        self.requested = True

    @contextlib.contextmanager
    def breakable(self) -> Iterator[None]:
        """Code that a second Ctrl-C may cut short with KeyboardInterrupt."""
        self._breakable = True
        try:
            if self.forced:
                raise KeyboardInterrupt
            yield
        finally:
            self._breakable = False

    def __enter__(self) -> _Stop:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


Finish = Callable[[int, Totals], None]


def simulate(
    plan: SimulationPlan,
    executor: Any = None,
    *,
    progress: Callable[[SimulationResult], None] | None = None,
    resume: SimulationResult | None = None,
) -> SimulationResult:
    """Run ``plan``: every chunk not yet done, in this process or on ``executor``.

    ``executor`` is None (each chunk in turn, here), a :class:`concurrent.futures.Executor`
    (such as :class:`~exactodds.lab.pool.LabPool`), or a Dask ``distributed.Client`` (any
    object with ``submit`` and ``gather``); the caller owns it and shuts it down. ``resume``
    continues a stopped run; ``progress`` is called after each chunk. Ctrl-C (or a
    KeyboardInterrupt from ``progress``) stops cleanly: the chunks under way are dropped,
    and the result so far is returned with ``interrupted`` set; a second Ctrl-C also cuts
    short a chunk computed in this process.

    >>> from exactodds.cards import Shoe
    >>> plan = SimulationPlan.from_options(Shoe.standard(8), bets=["dragon-7"], shoes=20, seed=5,
    ...                                    strategies=["always"])
    >>> simulate(plan).totals.shoes
    20
    """
    result = resume if resume is not None else SimulationResult(plan)
    todo = [i for i in range(plan.chunk_count) if i not in result.done]
    stop = _Stop()

    def finish(index: int, totals: Totals) -> None:
        # Ctrl-C only sets a flag here (see _Stop), so totals and the chunks done always agree.
        result.totals.add(totals)
        result.done.add(index)
        if progress is not None:
            try:
                progress(result)
            except KeyboardInterrupt:
                stop.requested = True

    work = plan.work()
    with stop:
        if executor is None:
            _run_here(work, todo, finish, stop)
        elif isinstance(executor, Executor):
            _run_executor(executor, work, todo, finish, stop)
        elif callable(getattr(executor, "submit", None)) and callable(getattr(executor, "gather", None)):
            _run_dask(executor, plan, work, todo, finish, stop)
        else:
            raise ExactOddsError(
                f"an executor is a concurrent.futures.Executor or a Dask client, not {type(executor).__name__}"
            )
    result.interrupted = stop.requested and not result.complete
    return result


def _run_here(work: ChunkWork, todo: list[int], finish: Finish, stop: _Stop) -> None:
    for index in todo:
        if stop.requested:
            return
        try:
            with stop.breakable():
                totals = simulate_chunk(work, index)
        except KeyboardInterrupt:
            if not stop.forced:
                raise
            return  # the second Ctrl-C: this chunk is dropped
        finish(index, totals)


def _window(workers: int | None) -> int:
    """How many chunks to keep submitted: enough to keep every worker busy, few enough to stop at once."""
    import os

    return _PER_WORKER * max(workers or os.cpu_count() or 1, 1)


def _run_executor(executor: Executor, work: ChunkWork, todo: list[int], finish: Finish, stop: _Stop) -> None:
    """Chunks on a concurrent.futures executor, a bounded window of them submitted at a time."""
    queue = iter(todo)
    window = _window(getattr(executor, "_max_workers", None))
    pending: dict[Any, int] = {}

    def top_up() -> None:
        while len(pending) < window and not stop.requested:
            index = next(queue, None)
            if index is None:
                return
            pending[executor.submit(simulate_chunk, work, index)] = index

    try:
        top_up()
        while pending and not stop.requested:
            done, _ = wait_futures(list(pending), timeout=POLL, return_when=FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                finish(index, future.result())  # a chunk's error is raised here, in the caller
                if stop.requested:
                    break
            top_up()
    finally:
        for future in pending:
            future.cancel()


def _run_dask(client: Any, plan: SimulationPlan, work: ChunkWork, todo: list[int], finish: Finish, stop: _Stop) -> None:
    """Chunks on a Dask cluster, under task keys that name the run exactly (a cluster never mixes two runs)."""
    import importlib

    distributed: Any = importlib.import_module("distributed")
    run = json.dumps({"shoes": plan.shoes, **plan.identity()}, sort_keys=True)
    digest = hashlib.sha256(run.encode()).hexdigest()[:16]
    try:
        threads = sum(client.nthreads().values())
    except Exception:  # a client-like object without the query: a window for a small cluster
        threads = None
    queue = iter(todo)
    window = _window(threads)
    pending: dict[Any, int] = {}

    def top_up() -> None:
        while len(pending) < window and not stop.requested:
            index = next(queue, None)
            if index is None:
                return
            future = client.submit(simulate_chunk, work, index, key=f"exactodds-{digest}-chunk-{index}", pure=False)
            pending[future] = index

    try:
        top_up()
        while pending and not stop.requested:
            try:
                with stop.breakable():
                    done = distributed.wait(list(pending), timeout=POLL, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                continue
            except KeyboardInterrupt:
                if not stop.forced:
                    raise
                return
            for future in done:
                index = pending.pop(future)
                finish(index, future.result())
                if stop.requested:
                    break
            top_up()
    finally:
        if pending:
            client.cancel(list(pending))
