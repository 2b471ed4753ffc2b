"""A JSON-lines log reviewed by several processes, with the verdict one process gives, byte for byte.

Each shoe is read, checked, priced and settled whole by one worker (:func:`worker_of` its id: a shoe's records
all go to the same worker, so a worker's :class:`~exactodds.review.Reviewer` sees its shoes exactly as one process
would). The main process reads the log, hands out its lines in rounds of :data:`ROUND` lines, and takes back what
happened in each round: shoes closed and bad lines, each with the line it happened at. A round's events, sorted by
that line, are the order one process meets them, so the main process adds them to the verdict (:class:`~.Sink`)
in that order: the same sums, the same findings in the same order, the same EVs in the same order for the
permutation test, the same CSV rows, the same first error. The shoes still open at the end close in the order they
started, as one process closes them. A CSV log, or a log too short to be worth the workers' start, is reviewed in
one process.
"""

from __future__ import annotations

import math
import os
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..errors import ExactOddsError, shown
from ..game import Settings
from ..paytable import Bet
from ..workers import die_with_parent, orphaned, spawning
from .log import is_csv, numbered_records, peek, records
from .tally import ShoeTally
from .verdict import PERMUTATIONS, Verdict

#: Lines a round hands out: enough that a round's messages cost little beside its work, few enough to keep a round's
#: closed shoes (their tallies: some 15 kB a shoe of 100 wagers, pickled; more with the wagers kept) in a few MB.
ROUND = 8192
#: Rounds a worker may be behind: it always has the next round's lines while the main process adds the last one's.
AHEAD = 2
#: A log's first line that opens with a shoe's id as its first key is routed without being parsed here.
_FIRST_KEY = re.compile(r'\s*\{\s*"shoe"\s*:\s*"([^"\\]*)"')
#: The key of an event at the end of the log: after every line, in the order the shoes started.
END = math.inf
#: What happened, as a worker tells it: when (the line, or :data:`END`), its order then (the event's place among the
#: worker's, or at the end the shoe's start line), the line it names, and a bad line's error or a shoe closed.
Event = tuple[float, int, int, "str | ShoeTally"]


def worker_of(shoe: str, jobs: int) -> int:
    """The worker that reviews the shoe with this id (the same in every process and run).

    >>> worker_of("T7-0412", 2) == worker_of("T7-0412", 2), worker_of("a", 1)
    (True, 0)
    """
    return zlib.crc32(shoe.encode("utf-8", "surrogatepass")) % jobs


def shoe_id(text: str) -> str | None:
    """The id of the shoe a log's line names, or ``None`` where it names none (its worker then tells why).

    >>> shoe_id('{"shoe": "T7", "end": true}'), shoe_id('{"end": true, "shoe": "T\\\\u0037"}'), shoe_id("[1]")
    ('T7', 'T7', None)
    """
    found = _FIRST_KEY.match(text)
    if found is not None:
        return found.group(1)
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    shoe = data.get("shoe") if isinstance(data, dict) else None
    return shoe if isinstance(shoe, str) else None


def review_lines(
    lines: Iterable[str], settings: Settings | None = None, file_bets: Sequence[Bet] = (), *, jobs: int = 1,
    skip_bad: bool = False, seed: int = 0, permutations: int = PERMUTATIONS,
    shoe_done: Callable[[ShoeTally], None] | None = None, keep_wagers: bool = False,
) -> Verdict:
    """The verdict on a log's lines, by ``jobs`` processes (a CSV log, or ``jobs`` 1, in this one): the verdict of
    :func:`~exactodds.review.review`, whatever ``jobs``. Each worker adds up its closed shoes' wagers itself
    (:func:`~exactodds.review.tally.shoe_tally`) and sends the sums, so that this process only merges them.

    >>> log = ['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 1, "player": "2 3 9", "banker": "3 4"}',
    ...        '{"shoe": "a", "coup": 1, "who": "x", "bet": "banker", "stake": "10", "net": "9.5"}']
    >>> review_lines(log).wagers
    1
    """
    from . import Reviewer, Sink, review

    first, everything = peek(lines)
    if jobs <= 1 or not first or is_csv(first):  # a CSV log, or none: one process
        return review(records(everything), settings, file_bets, skip_bad=skip_bad, seed=seed,
                      permutations=permutations, shoe_done=shoe_done, keep_wagers=keep_wagers)
    reviewer = Reviewer(settings, file_bets)  # its refusals (a game without the review) before any worker starts
    verdict = Verdict(seed=seed, permutations=permutations, rebate=reviewer.rebate)
    sink = Sink(verdict, skip_bad, shoe_done)
    with _Workers(jobs, settings, file_bets, keep_wagers) as workers:
        for happened in workers.rounds(enumerate(everything, 1)):
            happened.sort(key=lambda event: (event[0], event[1]))
            for _, _, line, payload in happened:
                if isinstance(payload, str):
                    sink.bad(line, payload)
                else:
                    sink.done(payload)
    return verdict


class _Workers:
    """The worker processes and their queues: lines out in rounds, events back."""

    def __init__(self, jobs: int, settings: Settings | None, file_bets: Sequence[Bet], keep_wagers: bool) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.jobs = jobs
        # A queue each way per worker: a worker a round ahead of another must not have its answer taken for the other's.
        self.inboxes: list[Any] = [context.Queue() for _ in range(jobs)]
        self.outboxes: list[Any] = [context.Queue() for _ in range(jobs)]
        # The workers ignore Ctrl-C (the main process stops them): started with SIGINT held, which they inherit.
        self.processes = [context.Process(target=_work, args=(self.inboxes[k], self.outboxes[k], settings,
                                                              tuple(file_bets), keep_wagers, os.getpid()),
                                          daemon=True)
                          for k in range(jobs)]
        try:
            with spawning():
                for process in self.processes:
                    process.start()
        except BaseException:  # a Ctrl-C held while they started, raised now: the workers stopped before it goes on
            self.__exit__()
            raise

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        for queue in (*self.inboxes, *self.outboxes):
            queue.cancel_join_thread()
            _unstick(queue)
        for process in self.processes:
            if process.pid is None:  # never started
                continue
            if process.is_alive():
                process.terminate()
            process.join(timeout=5)
        for queue in (*self.inboxes, *self.outboxes):
            queue.close()

    def rounds(self, numbered: Iterable[tuple[int, str]]) -> Iterator[list[Event]]:
        """Each round's events (key, order, event), the rounds in order; the last holds the shoes closed at the end."""
        sent = received = 0
        share: list[list[tuple[int, str]]] = [[] for _ in range(self.jobs)]
        count = 0
        workers: dict[str, int] = {}  # each shoe's worker, found once (a log holds few shoes at a time)
        for number, text in numbered:
            shoe = None if not text or text.isspace() else shoe_id(text)
            worker = 0  # a line naming no shoe: the first worker says why
            if shoe is not None:
                found = workers.get(shoe)
                if found is None:
                    if len(workers) > 4096:
                        workers = {}
                    found = workers[shoe] = worker_of(shoe, self.jobs)
                worker = found
            share[worker].append((number, text))
            count += 1
            if count == ROUND:
                self._send(share)
                share, count, sent = [[] for _ in range(self.jobs)], 0, sent + 1
                while sent - received > AHEAD:
                    yield self._receive()
                    received += 1
        if count:
            self._send(share)
            sent += 1
        for inbox in self.inboxes:
            inbox.put(None)  # the end of the log
        sent += 1
        while received < sent:
            yield self._receive()
            received += 1

    def _send(self, share: list[list[tuple[int, str]]]) -> None:
        for inbox, lines in zip(self.inboxes, share):
            inbox.put(lines)

    def _receive(self) -> list[Event]:
        """One round's events from every worker."""
        import queue

        events: list[Event] = []
        for outbox in self.outboxes:
            while True:
                try:
                    status, payload = outbox.get(timeout=1.0)
                    break
                except queue.Empty:  # a worker killed (out of memory, a signal) sends nothing: not waited for
                    dead = [p.exitcode for p in self.processes if not p.is_alive()]
                    if dead:
                        raise ExactOddsError(f"a worker of the review stopped (exit code {dead[0]}): review the log"
                                             " with --workers 1") from None
            if status == "crash":  # a fault of the program, not of the log: its last line, and how to go on
                last = payload.strip().splitlines()[-1] if payload.strip() else "no message"
                raise ExactOddsError(f"a worker of the review failed ({shown(last, 80)}): review the log with"
                                     " --workers 1")
            events += payload
        return events


def _unstick(queue: Any, wait: float = 0.5) -> None:
    """Free a queue's buffer lock that a Ctrl-C left held by this thread, so that closing the queue (now, or by
    multiprocessing's clean-up at exit) does not wait for it for ever.

    ``Queue.put`` takes that lock by ``with``; Python runs a signal's handler right after the lock's acquire returns,
    before the ``with`` holds it, and a KeyboardInterrupt raised there leaves the lock taken with nothing to give it
    back (the queue's feeder thread takes it only for a moment, never for ``wait`` seconds).

    >>> import multiprocessing
    >>> queue = multiprocessing.get_context("spawn").Queue()
    >>> queue._notempty.acquire()  # as a Ctrl-C in put() leaves it
    True
    >>> _unstick(queue, 0.01)
    >>> queue._notempty.acquire(timeout=0.01) and queue._notempty.release() is None
    True
    """
    lock = getattr(queue, "_notempty", None)  # CPython's Queue: a threading.Condition over a plain Lock
    if lock is None:
        return
    # Taken within ``wait`` (by this call, which gives it back) or not (held for ever: given back for the Ctrl-C).
    lock.acquire(timeout=wait)
    lock.release()


def _work(inbox: Any, results: Any, settings: Settings | None, file_bets: tuple[Bet, ...], keep_wagers: bool,
          parent: int) -> None:  # pragma: no cover - runs in worker processes
    """A worker: its share of each round's lines reviewed, what happened sent back; at the end, its open shoes. It
    dies with its parent (a parent killed outright sends no end)."""
    import queue

    from . import Reviewer, events

    die_with_parent(parent)
    try:
        reviewer = Reviewer(settings, file_bets, keep_wagers)
        while True:
            try:
                lines = inbox.get(timeout=1.0)
            except queue.Empty:
                if orphaned(parent):
                    return
                continue
            if lines is None:
                break
            happened: list[Event] = []
            for line, event in events(reviewer, numbered_records(lines)):
                happened.append((line, len(happened), line, event))
            results.put(("ok", happened))
        starts = sorted((shoe.start.line, shoe_id) for shoe_id, shoe in reviewer.open.items())
        results.put(("ok", [(END, line, line, reviewer.tally(reviewer.close(shoe_id))) for line, shoe_id in starts]))
    except BaseException:  # noqa: BLE001 - told to the main process, which raises it
        import traceback

        results.put(("crash", traceback.format_exc()))
