"""A threshold scan: one count played at many true-count thresholds on the very same shoes, and the best of them.

Each chunk is dealt and priced once (:func:`~exactodds.lab.chunk.price_chunk`, the costly
part); every threshold then only decides where the count bets. All thresholds see the same
shoes (common random numbers), so their differences are far less noisy than those of
separate runs. The best threshold is the one with the highest estimated win rate (the mean
of the exact EVs of the bets placed): an estimate, like every figure of the lab.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import ExactOddsError, shown
from ..exact import decimal_text, fraction_text
from ..present.formats import write_format
from ..present.lab import json_text, scan_table
from .advantage import DEFAULT_ROR, PlayFigures, house_edges
from .chunk import at_threshold, bet_totals, cell, price_chunk, running_count
from .counts import parse_threshold, tags_text
from .plan import ChunkWork, SimulationPlan
from .pricing import pricing
from .results import Figures, Totals

#: The most thresholds one scan tries.
MAX_THRESHOLDS = 401


def parse_scan(text: str) -> tuple[Fraction, ...]:
    """Read the thresholds to scan: ``FROM:TO:STEP`` (both ends included) or a list ``0,1,2.5`` (exactly).

    >>> [str(t) for t in parse_scan("0:2:1/2")], [str(t) for t in parse_scan("3, 1,1")]
    (['0', '1/2', '1', '3/2', '2'], ['1', '3'])
    """
    parts = [p.strip() for p in text.split(":")]
    if len(parts) == 3:
        start, stop, step = (parse_threshold(p) for p in parts)
        if step <= 0:
            raise ExactOddsError(f"the scan's step must be above 0, not {shown(parts[2])!r}")
        if stop < start:
            raise ExactOddsError(f"the scan goes up: {shown(parts[0])} is above {shown(parts[1])}")
        count = int((stop - start) / step) + 1
        if count > MAX_THRESHOLDS:
            raise ExactOddsError(f"a scan tries at most {MAX_THRESHOLDS} thresholds, not {count:,}: take a larger step")
        values = [start + k * step for k in range(count)]
    elif len(parts) == 1:
        values = [parse_threshold(p) for p in text.split(",") if p.strip()]
        if not values:
            raise ExactOddsError("give the thresholds to scan, e.g. 0:8:1 or 0,2,4")
        if len(set(values)) > MAX_THRESHOLDS:
            raise ExactOddsError(f"a scan tries at most {MAX_THRESHOLDS} thresholds")
    else:
        raise ExactOddsError(f"malformed scan {shown(text)!r}: write FROM:TO:STEP (e.g. 0:8:1/2) or a list such as"
                             " 0,2,4")
    return tuple(sorted(set(values)))


def scan_options(
    scan: str | None, thresholds: Sequence[str], output: object
) -> tuple[tuple[Fraction, ...], tuple[str, ...]]:
    """The command line's ``--scan-threshold``: the thresholds to scan, and the ``--threshold`` texts to plan with.

    >>> scan_options("0:2:1", (), None)
    ((Fraction(0, 1), Fraction(1, 1), Fraction(2, 1)), ('0',))
    """
    if scan is None:
        return (), tuple(thresholds)
    if thresholds:
        raise ExactOddsError("--scan-threshold replaces --threshold: give one of them")
    if output is not None:
        raise ExactOddsError("a threshold scan writes no run file: drop --output and --resume")
    scanned = parse_scan(scan)
    return scanned, (fraction_text(scanned[0]),)


def _key(threshold: Fraction) -> str:
    return "count@" + fraction_text(threshold)


@dataclass(frozen=True)
class ScanWork:
    """A scan as plain picklable data: the plan's work and the thresholds."""

    work: ChunkWork
    thresholds: tuple[Fraction, ...]


def scan_chunk(scan: ScanWork, index: int) -> Totals:
    """Chunk ``index`` dealt and priced once, then played by perfect play and by the count at every threshold."""
    work = scan.work
    priced = price_chunk(work, index)
    layout = pricing(work.tableau, work.pays)[0]
    full = np.array(work.counts, dtype=np.int64)
    totals = Totals(priced.dealt.shoes, len(priced.dealt.shoe))
    for i, bet_id in enumerate(work.pays.ids):
        system = work.systems[i]
        assert system is not None  # a scan's plan counts every bet (checked by scan_thresholds)
        totals.cells[("perfect", bet_id)] = cell(*bet_totals(priced, layout.pay[i], i, priced.num[:, i] > 0))
        running = running_count(system.tags, full, priced.dealt.before)
        for threshold in scan.thresholds:
            bet = at_threshold(threshold, running, priced.remaining)
            totals.cells[(_key(threshold), bet_id)] = cell(*bet_totals(priced, layout.pay[i], i, bet))
    return totals


@dataclass
class ScanResult:
    """A scan's exact totals and the figures made from them (estimates)."""

    plan: SimulationPlan
    thresholds: tuple[Fraction, ...]
    totals: Totals

    def figures(self, bet: str, ror: Fraction = DEFAULT_ROR) -> tuple[PlayFigures, list[PlayFigures]]:
        """Perfect play's figures on ``bet`` and the count's at each threshold, in order."""
        scale = self.plan.pays.scale
        edge = house_edges(self.plan.shoe, self.plan.rules, [b for b in self.plan.paid_bets if b.id == bet])[bet]

        def of(strategy: str) -> PlayFigures:
            return PlayFigures.of(Figures.of(self.totals, (strategy, bet), scale), ror, edge)

        return of("perfect"), [of(_key(t)) for t in self.thresholds]

    def best(self, bet: str) -> Fraction:
        """The threshold with the highest estimated win rate on ``bet`` (the lowest such one on a tie)."""
        _, rows = self.figures(bet)
        rates = [f.ev_per_shoe for f in rows]
        return self.thresholds[rates.index(max(rates))]

    def best_di(self, bet: str) -> Fraction | None:
        """The threshold with the highest desirability index (win rate per unit of risk); None if none has one."""
        _, rows = self.figures(bet)
        scored = [(f.di, -k) for k, f in enumerate(rows) if f.di is not None]
        return self.thresholds[-max(scored)[1]] if scored else None

    def as_json(self, places: int = 6, ror: Fraction = DEFAULT_ROR) -> dict[str, Any]:
        """The scan as JSON-ready values: per bet, perfect play, every threshold's figures and the best threshold."""
        bets: dict[str, Any] = {}
        for bet in self.plan.bet_ids:
            perfect, rows = self.figures(bet, ror)
            bets[bet] = {
                "tags": tags_text(self.plan.counts[bet].tags),
                "best_threshold": fraction_text(self.best(bet)),
                "best_threshold_by_di": None if (di := self.best_di(bet)) is None else fraction_text(di),
                "perfect": perfect.as_json(places),
                "thresholds": [
                    {"threshold": fraction_text(t), **f.as_json(places),
                     "efficiency": decimal_text(f.ev_per_shoe / perfect.ev_per_shoe, places)
                     if perfect.ev_per_shoe else None}
                    for t, f in zip(self.thresholds, rows)
                ],  # fmt: skip
            }
        return {
            "scan": {"shoes": self.plan.shoes, **self.plan.identity(), "thresholds": [fraction_text(t) for t in
                                                                                       self.thresholds]},
            "ror": fraction_text(ror),
            "estimates": True,
            "bets": bets,
            "totals": self.totals.as_json(),
        }  # fmt: skip

    def render(self, fmt: str = "table", places: int = 4, ror: Fraction = DEFAULT_ROR) -> str:
        """The scan as a ``table`` (one block per bet, the best threshold marked) or ``json``."""
        return write_format("lab", fmt, {
            "table": lambda: self._table(places, ror),
            "json": lambda: json_text(self.as_json(max(places, 6), ror)),
        })

    def _table(self, places: int, ror: Fraction) -> str:
        sections = []
        for bet in self.plan.bet_ids:
            perfect, rows = self.figures(bet, ror)
            sections.append((bet, tags_text(self.plan.counts[bet].tags), perfect,
                             [(fraction_text(t), f) for t, f in zip(self.thresholds, rows)],
                             fraction_text(self.best(bet)),
                             None if (di := self.best_di(bet)) is None else fraction_text(di)))  # fmt: skip
        return scan_table(self.plan.header(), self.totals.shoes, sections, ror, places)


def scan_thresholds(
    plan: SimulationPlan, thresholds: Sequence[Fraction], executor: Any = None
) -> ScanResult:
    """Play ``plan``'s count at every threshold in ``thresholds`` on the same shoes (see the module's doc).

    ``executor`` is None (this process), a :class:`concurrent.futures.Executor` or a Dask
    client. The plan's own thresholds are ignored; its tags are used.

    >>> from exactodds.cards import Shoe
    >>> plan = SimulationPlan.from_options(Shoe.standard(8), bets=["dragon-7"], shoes=20, seed=5,
    ...                                    tags=["0,0,0,-1,-1,-1,-1,2,2,0"], thresholds=["0"])
    >>> scan = scan_thresholds(plan, [Fraction(0), Fraction(4), Fraction(10**6)])
    >>> scan.totals.cells[("count@1000000", "dragon-7")][0], scan.totals.shoes
    (0, 20)
    """
    if "count" not in plan.strategies:
        raise ExactOddsError("a threshold scan needs a count: give --tags")
    if not thresholds:
        raise ExactOddsError("give at least one threshold to scan")
    scan = ScanWork(plan.work(), tuple(sorted(set(thresholds))))
    indices = range(plan.chunk_count)
    job = functools.partial(scan_chunk, scan)
    parts: Iterator[Totals]
    if executor is None:
        parts = map(job, indices)
    elif isinstance(executor, Executor):
        parts = executor.map(job, indices)
    elif callable(getattr(executor, "map", None)) and callable(getattr(executor, "gather", None)):
        parts = iter(executor.gather(executor.map(job, indices, pure=False)))
    else:
        raise ExactOddsError(
            f"an executor is a concurrent.futures.Executor or a Dask client, not {type(executor).__name__}"
        )
    totals = Totals()
    for part in parts:
        totals.add(part)  # exact integers: the order of the chunks does not matter
    return ScanResult(plan, scan.thresholds, totals)
