"""A lab run as the command line makes one: seed recovery, resume, local workers or a Dask cluster, saving as it goes.

:class:`Session` picks the executor (this process, the lab's pool of ``workers`` local
processes, or a Dask scheduler), continues the run saved in ``output`` when asked,
saves it there every 10 seconds and at the end, and keeps a late Ctrl-C from cutting
short the save or the report (see :meth:`Session.__enter__`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ..cards import Shoe
from ..errors import ExactOddsError
from ..files import check_output
from ..puntobanco.rules import PUNTO_BANCO, RuleSet
from .persist import load_result, save_result, saved_seed
from .plan import SimulationPlan, random_seed
from .results import SimulationResult
from .run import simulate

if TYPE_CHECKING:
    from .scan import ScanResult

#: The most local worker processes one run starts.
MAX_WORKERS = 1024
#: Seconds between two saves of a run to its output file.
SAVE_EVERY = 10.0


class Session:
    """One run of a plan: where it is saved, whether it resumes, and what computes it.

    ``workers`` local processes (default: every core; 1 computes in this process) or the
    Dask scheduler at ``scheduler``. With ``output`` the run is written there as it goes;
    with ``resume`` too, a run already saved there is continued.

    >>> plan = SimulationPlan.from_options(Shoe.standard(8), bets=["dragon-7"], shoes=20, seed=5)
    >>> Session(plan, workers=1).run().complete
    True
    """

    def __init__(
        self,
        plan: SimulationPlan,
        *,
        output: str | os.PathLike[str] | None = None,
        resume: bool = False,
        workers: int | None = None,
        scheduler: str | None = None,
    ) -> None:
        if resume and output is None:
            raise ExactOddsError("--resume continues the run in --output FILE: give --output")
        if workers is not None and workers < 1:
            raise ExactOddsError(f"use at least one worker, not {workers}")
        if workers is not None and workers > MAX_WORKERS:
            raise ExactOddsError(f"use at most {MAX_WORKERS:,} local workers, not {workers:,}")
        self.plan = plan
        self.output = None if output is None else Path(output)
        self.resume = resume
        self.workers = workers
        self.scheduler = scheduler
        #: Shoes done before this session (those of the run resumed), and the seconds it took.
        self.first = 0
        self.seconds = 0.0
        self.result: SimulationResult | None = None
        self._previous_handler: Any = None
        self._guarded = False

    @classmethod
    def from_options(
        cls,
        shoe: Shoe,
        rules: RuleSet = PUNTO_BANCO,
        *,
        seed: int | None = None,
        output: str | os.PathLike[str] | None = None,
        resume: bool = False,
        workers: int | None = None,
        scheduler: str | None = None,
        **plan_options: Any,
    ) -> Session:
        """A session from option values (see :meth:`SimulationPlan.from_options` for ``plan_options``).

        Resuming without a seed takes the seed of the run saved in ``output``; otherwise no
        seed means a random one. The options are checked first, and the output file before
        any shoe is dealt.
        """
        plan = SimulationPlan.from_options(shoe, rules, seed=0 if seed is None else seed, **plan_options)
        if resume and output is None:
            raise ExactOddsError("--resume continues the run in --output FILE: give --output")
        if output is not None:
            check_output(output)  # now, not after a run whose results could not be saved
        if seed is None:
            resuming = resume and output is not None and Path(output).exists()
            # The run's chunk count bounds what reading the file may build.
            found = saved_seed(output, plan.chunk_count) if resuming and output is not None else None
            plan = dataclasses.replace(plan, seed=random_seed() if found is None else found)
        return cls(plan, output=output, resume=resume, workers=workers, scheduler=scheduler)

    def run(self, progress: Callable[[SimulationResult], None] | None = None) -> SimulationResult:
        """Run (or continue) the plan; ``progress`` sees the result at the start and after each chunk."""
        output = self.output
        previous = load_result(output, self.plan) if self.resume and output is not None and output.exists() else None
        start = time.perf_counter()
        self.first = previous.shoes_done if previous is not None else 0
        last_save = [start]

        def tick(result: SimulationResult) -> None:
            if progress is not None:
                progress(result)
            now = time.perf_counter()
            if output is not None and now - last_save[0] >= SAVE_EVERY:
                save_result(result, output)
                last_save[0] = now

        if progress is not None:
            progress(previous if previous is not None else SimulationResult(self.plan))
        todo = self.plan.chunk_count - (len(previous.done) if previous is not None else 0)
        with self._executor(todo) as executor:
            result = simulate(self.plan, executor, progress=tick, resume=previous)
        self.seconds = time.perf_counter() - start
        self.result = result
        if output is not None:
            save_result(result, output)
        return result

    def scan(self, thresholds: Sequence[Fraction]) -> ScanResult:
        """Scan the plan's count over ``thresholds`` on this session's workers or cluster (nothing is saved)."""
        from .scan import scan_thresholds

        if self.output is not None:
            raise ExactOddsError("a threshold scan writes no run file: drop --output and --resume")
        start = time.perf_counter()
        with self._executor(self.plan.chunk_count) as executor:
            result = scan_thresholds(self.plan, thresholds, executor)
        self.seconds = time.perf_counter() - start
        return result

    @contextlib.contextmanager
    def _executor(self, todo: int) -> Iterator[Any]:
        """What computes the chunks: a Dask client, the lab's pool, or None (this process)."""
        if self.scheduler is not None:
            with _dask_client(self.scheduler) as client:
                yield client
            return
        count = min(self.workers or os.cpu_count() or 1, todo)  # no more processes than chunks
        if count <= 1:
            yield None
            return
        from .pool import LabPool

        with LabPool(count) as pool:  # leaving it kills what is still under way: a stopped run goes at once
            yield pool

    def summary(self) -> str:
        """The shoes this session dealt, how long it took, and the rate."""
        dealt = (self.result.shoes_done if self.result is not None else 0) - self.first
        rate = f"{dealt / self.seconds:,.0f} shoes/s" if self.seconds > 0 else ""
        return f"{dealt:,} shoes in {self.seconds:,.1f} s ({rate})"

    # Once the run is over, a (second) Ctrl-C must not cut short the save or the one Error line, nor raise
    # while the process exits (Python resets its own handlers to the default then, so a Ctrl-C would kill it).

    def __enter__(self) -> Session:
        """Ignore Ctrl-C outside the run itself (which handles it) until the block ends.

        Leaving the block by SystemExit after an interrupted run (its report said and done)
        keeps Ctrl-C ignored through the exit; any other way out restores the handler.
        """
        if threading.current_thread() is threading.main_thread():
            import signal

            self._previous_handler = signal.signal(signal.SIGINT, _late_interrupt)
            self._guarded = True
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc_val: BaseException | None, exc_tb: TracebackType | None
    ) -> None:
        if not self._guarded:
            return
        import signal

        self._guarded = False
        interrupted = self.result is not None and self.result.interrupted
        if interrupted and exc_type is not None and issubclass(exc_type, SystemExit):
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # kept through the exit: everything is saved and said
        else:
            signal.signal(signal.SIGINT, self._previous_handler)


def _late_interrupt(signum: int, frame: Any) -> None:
    """Ctrl-C after the run: ignored, the save and the report are quick and come first."""


@contextlib.contextmanager
def _dask_client(address: str) -> Iterator[Any]:
    import importlib

    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:  # pragma: no cover - depends on the environment
        raise ExactOddsError("--scheduler needs Dask distributed: pip install 'exactodds[dask]'") from None
    try:
        client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as err:
        raise ExactOddsError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    try:
        yield client
    finally:
        client.close()
