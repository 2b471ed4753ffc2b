"""The band search: every pay table on a grid whose house edge lies in a band, from exact counts, by bounds.

A bet's EV is linear in its pays: with n orderings and each outcome's count c, EV·n = Σ c·pay.
Free outcome j pays ``low + step·i_j`` (i_j = 0 … I on the grid), the others their fixed pays
(sum F). So the edge lies in [L, H] exactly when the integer S = Σ c_j·i_j lies in
[⌈(−H·n − F − low·C)/step⌉, ⌊(−L·n − F − low·C)/step⌋] (C = Σ c_j): the search is over
integers, and no candidate is priced by the engine.

The free outcomes are taken in order of their pays in the file, highest first. The outcomes
before the last two are enumerated in Python, each bounded by the interval its partial sum
leaves reachable (the remaining outcomes range from pay ``low`` to their highest allowed
pay); the last but one is one numpy array per prefix, and the last is solved directly: for
each row, the interval of its index is [⌈(lo − P)/c⌉, ⌊(hi − P)/c⌋] within its range. Those
floors are taken in float64 with an error bound, and any within the bound of an integer is
taken again in integers, so every interval is exact. ``searched`` is the exact number of pay
tables in the band (the sum of the intervals' lengths). Of them the ``top`` nearest the band's
middle (then the least volatile: the least variance, taken in integers; then the lowest pays) are kept
in a bounded heap, each row giving only the candidates within the heap's current radius.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import ExactOddsError

#: The most free outcomes a search takes.
MAX_FREE = 4
#: The most pays a free outcome runs over.
MAX_GRID = 10**9
#: The most rows (pay tables of every free outcome but the last) a search walks.
MAX_ROWS = 10**7
#: Relative rounding of float64, with room for the few operations behind each value.
_EPS = 2.0**-48


@dataclass(frozen=True)
class Grid:
    """The pays a free outcome runs over: ``low``, ``low + step``, … up to ``high``.

    >>> g = Grid(Fraction(1), Fraction(1, 2), Fraction(3))
    >>> g.size, g.pay(4)
    (5, Fraction(3, 1))
    """

    low: Fraction
    step: Fraction
    high: Fraction

    @property
    def size(self) -> int:
        """How many pays the grid holds."""
        return (self.high - self.low) // self.step + 1

    def pay(self, index: int) -> Fraction:
        """The pay at ``index``."""
        return self.low + self.step * index


@dataclass(frozen=True)
class Problem:
    """A search: the outcome counts of the bet (``orderings`` in all), its pays, which are free, and the band.

    ``means`` are the expected pays of the outcomes (a fixed outcome's multiplier included); ``free`` the
    indices of the free outcomes; ``ranks`` each free outcome's rank for ``monotone`` (0 for the highest pay in
    the file: an outcome of a lower rank never pays less than one of a higher rank).
    """

    counts: tuple[int, ...]
    orderings: int
    means: tuple[Fraction, ...]
    free: tuple[int, ...]
    ranks: tuple[int, ...]
    grid: Grid
    low: Fraction
    high: Fraction
    monotone: bool = False
    #: The expected squared pays of the outcomes (a multiplier's included); ``None``: each mean squared.
    squares: tuple[Fraction, ...] | None = None

    @property
    def fixed_square_sum(self) -> Fraction:
        """Σ count·E[X² | outcome] over the outcomes that are not free."""
        squares = self.squares or tuple(m * m for m in self.means)
        return sum((Fraction(c) * q for k, (c, q) in enumerate(zip(self.counts, squares)) if k not in self.free),
                   Fraction(0))

    @property
    def fixed_sum(self) -> Fraction:
        """F = Σ count·mean over the outcomes that are not free."""
        return sum((Fraction(c) * m for k, (c, m) in enumerate(zip(self.counts, self.means)) if k not in self.free),
                   Fraction(0))

    def s_bound(self, edge: Fraction) -> Fraction:
        """The value of S = Σ c_j·i_j at which the house edge is exactly ``edge``."""
        total = sum(self.counts[k] for k in self.free)
        return (-edge * self.orderings - self.fixed_sum - self.grid.low * total) / self.grid.step

    def edge_of(self, pays: Sequence[Fraction]) -> Fraction:
        """The exact house edge with the free outcomes paying ``pays`` (in the order of ``free``)."""
        ev = self.fixed_sum + sum((self.counts[k] * p for k, p in zip(self.free, pays)), Fraction(0))
        return -ev / self.orderings

    def reachable(self) -> tuple[Fraction, Fraction]:
        """The lowest and highest house edge of any pay table on the grid (all at the top pay, all at the low)."""
        k = len(self.free)
        return self.edge_of([self.grid.high] * k), self.edge_of([self.grid.low] * k)


@dataclass(frozen=True)
class Found:
    """What a search finds: how many pay tables lie in the band, and the best ``top`` as grid indices."""

    searched: int
    #: Per table kept, the grid index of each free outcome (in the order of ``Problem.free``), best first.
    tables: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class _Level:
    """One free outcome in the search's order: its place in ``Problem.free``, its count and rank."""

    slot: int
    count: int
    rank: int


def search(problem: Problem, top: int) -> Found:
    """Every pay table of the grid in the band, counted exactly; the ``top`` nearest its middle kept.

    >>> p = Problem((1, 9), 10, (Fraction(0), Fraction(-1)), (0,), (0,), Grid(Fraction(1), Fraction(1), Fraction(20)),
    ...             Fraction(0), Fraction(1, 5))
    >>> found = search(p, 2)
    >>> found.searched, found.tables
    (3, ((7,), (6,)))
    """
    order = sorted(range(len(problem.free)), key=lambda s: (problem.ranks[s], s))
    levels = [_Level(s, problem.counts[problem.free[s]], problem.ranks[s]) for s in order]
    if any(level.count == 0 for level in levels):
        raise ExactOddsError("a free outcome never happens on this shoe: its pay cannot move the edge")
    if len(levels) == 1:  # one free outcome: a row of one, before it
        levels.insert(0, _Level(-1, 0, levels[0].rank))
    grid_rows(problem.grid, len(problem.free))
    lo_s, hi_s = problem.s_bound(problem.high), problem.s_bound(problem.low)
    walk = _Walk(problem, levels, math.ceil(lo_s), math.floor(hi_s), lo_s + hi_s, top)
    walk.prefixes(0, 0, ())
    return Found(walk.searched, tuple(entry[3] for entry in sorted(walk.heap, reverse=True)))


def grid_rows(grid: Grid, free: int) -> int:
    """The rows (pay tables of every free outcome but the last) a search of ``free`` outcomes walks on ``grid``;
    a grid too fine, or a walk too long, is refused before any work.

    >>> grid_rows(Grid(Fraction(1), Fraction(1), Fraction(100)), 3)
    10000
    """
    size = grid.size
    if size > MAX_GRID:
        raise ExactOddsError(f"the grid holds {size:,} pays per outcome (at most {MAX_GRID:,}): raise --step")
    rows = int(size ** (free - 1))
    if rows > MAX_ROWS:
        raise ExactOddsError(
            f"the search would walk {rows:,} pay tables of the first {free - 1} free outcomes (at most"
            f" {MAX_ROWS:,}): raise --step, lower --max-pay or fix an outcome's pay"
        )
    return rows


class _Walk:
    """The state of one search: the bounds in S, the heap of the best tables, the count so far."""

    def __init__(self, problem: Problem, levels: list[_Level], lo: int, hi: int, mid2: Fraction, top: int) -> None:
        self.problem, self.levels, self.lo, self.hi, self.mid2, self.top = problem, levels, lo, hi, mid2, top
        self.last = problem.grid.size - 1
        # The keys in integers: 2·S − mid2 over mid2's denominator, and each pay as (p0 + ps·i)/D.
        grid = problem.grid
        # The variance in integers: with every pay times M an integer, Var·n²·M² = n·(Q + Σ c·(x·M)²) − (F + Σ c·x·M)²
        # (F and Q the fixed outcomes' sums of count·mean and count·square, times M and M²).
        fixed, squares = problem.fixed_sum, problem.fixed_square_sum
        step = math.lcm(grid.low.denominator, grid.step.denominator)
        scale = math.lcm(step, fixed.denominator, squares.denominator)
        self.p0, self.ps = int(grid.low * scale), int(grid.step * scale)
        self.fixed, self.squares = int(fixed * scale), int(squares * scale * scale)
        self.real = [lv for lv in levels if lv.slot >= 0]
        self.searched = 0
        #: Entries (−distance, −variance, negated indices, indices in the order of ``Problem.free``), in
        #: integers (see :meth:`offer`): the worst kept on top.
        self.heap: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []
        self.radius = math.inf  # in grid steps of the last outcome: a row's candidates farther are not taken

    def cap(self, chosen: Sequence[int], depth: int) -> int:
        """The highest index level ``depth`` may take: under ``monotone``, none above a higher-paying outcome's."""
        if not self.problem.monotone:
            return self.last
        rank = self.levels[depth].rank
        return min([i for level, i in zip(self.levels, chosen) if level.rank < rank], default=self.last)

    def prefixes(self, depth: int, partial: int, chosen: tuple[int, ...]) -> None:
        """Walk the levels before the last two, each within the interval its partial sum leaves reachable."""
        if depth == len(self.levels) - 2:
            self.block(partial, chosen)
            return
        level = self.levels[depth]
        cap = self.cap(chosen, depth)
        rest = sum(lv.count for lv in self.levels[depth + 1:])
        first = max(0, -((partial + rest * cap - self.lo) // level.count))  # ⌈(lo − P − rest·cap)/c⌉
        final = min(cap, (self.hi - partial) // level.count)
        for i in range(first, final + 1):
            self.prefixes(depth + 1, partial + level.count * i, (*chosen, i))

    def block(self, partial: int, chosen: tuple[int, ...]) -> None:
        """The last two levels for one prefix: the last but one as an array, the last solved as intervals."""
        import numpy as np

        row, end = self.levels[-2], self.levels[-1]
        d = end.count
        row_cap = self.cap(chosen, len(self.levels) - 2) if row.slot >= 0 else 0
        end_cap = self.cap(chosen, len(self.levels) - 1)
        c = row.count
        t_hi = row_cap if c == 0 else min(row_cap, (self.hi - partial) // c)
        t_lo = 0 if c == 0 else max(0, -((partial + d * end_cap - self.lo) // c))
        if t_hi < t_lo:
            return
        t = np.arange(t_lo, t_hi + 1, dtype=np.int64)
        upper = _floors(self.hi - partial, c, d, t, -1, self.last + 1)
        lower = -_floors(partial - self.lo, -c, d, t, -self.last - 1, 1)  # ⌈(lo − P − c·t)/d⌉ = −⌊(P + c·t − lo)/d⌋
        caps = np.minimum(end_cap, t) if self.problem.monotone and row.rank < end.rank and row.slot >= 0 else end_cap
        a = np.maximum(lower, 0)
        b = np.minimum(upper, caps)
        live = a <= b
        if not live.any():
            return
        t, a, b = t[live], a[live], b[live]
        self.searched += int((b - a + 1).sum())
        self.take(partial, chosen, t, a, b)

    def take(self, partial: int, chosen: tuple[int, ...], t: Any, a: Any, b: Any) -> None:
        """Offer the heap each row's candidates within the radius (the row's nearest alone while it fills)."""
        import numpy as np

        c, d = self.levels[-2].count, self.levels[-1].count
        centre = (self.mid2 / 2 - partial) / d
        w = float(centre) - (c / d) * t.astype(np.float64)  # the fractional index of the middle, per row
        slack = 4 * _EPS * (abs(float(centre)) + (c / d) * float(t[-1]) + 1.0)
        nearest = np.clip(np.rint(w), a, b)
        far = np.abs(w - nearest)
        radius = self.radius
        if len(t) > self.top:  # the top-th nearest row bounds the radius already
            radius = min(radius, float(np.partition(far, self.top - 1)[self.top - 1]) + 2 * slack)
        if math.isinf(radius):
            first = np.maximum(a, nearest - self.top)
            final = np.minimum(b, nearest + self.top)
        else:
            first = np.maximum(a, np.ceil(w - radius - slack))
            final = np.minimum(b, np.floor(w + radius + slack))
        for k in np.nonzero(first <= final)[0].tolist():
            base = partial + c * int(t[k])
            for i in range(int(first[k]), int(final[k]) + 1):
                self.offer(base + d * i, (*chosen, int(t[k]), i))

    def offer(self, s: int, indices: tuple[int, ...]) -> None:
        """Keep the table if it is among the best ``top`` so far (by distance, then variance, then indices)."""
        free = indices if self.levels[0].slot >= 0 else indices[1:]
        mid = self.mid2
        distance = abs(2 * s * mid.denominator - mid.numerator)  # |2·S − mid2| times mid2's denominator
        pays = [(lv.count, self.p0 + self.ps * i) for lv, i in zip(self.real, free)]
        first = self.fixed + sum(c * x for c, x in pays)
        second = self.problem.orderings * (self.squares + sum(c * x * x for c, x in pays)) - first * first
        slots = [0] * len(free)
        for lv, i in zip(self.real, free):
            slots[lv.slot] = i
        entry = (-distance, -second, tuple(-i for i in slots), tuple(slots))
        if len(self.heap) < self.top:
            heapq.heappush(self.heap, entry)
        elif entry > self.heap[0]:
            heapq.heapreplace(self.heap, entry)
        else:
            return
        if len(self.heap) == self.top:
            self.radius = -self.heap[0][0] / (2 * mid.denominator * self.levels[-1].count)


def _floors(x: int, c: int, d: int, t: Any, low: int, high: int) -> Any:
    """⌊(x − c·t)/d⌋ for each t, exactly, clipped to [low, high] (outside it only the side matters).

    Taken in float64; where the value lies within its error bound of an integer it is taken again in integers.
    """
    import numpy as np

    a, rho = float(Fraction(x, d)), c / d
    v = a - rho * t.astype(np.float64)
    tol = _EPS * (abs(a) + abs(rho) * float(max(abs(int(t[0])), abs(int(t[-1])))) + 1.0)
    if tol > 0.25:  # values too large for float64 to place: every one in integers
        exact = np.array([(x - c * int(i)) // d for i in t.tolist()], dtype=object)
        return np.clip(exact, low, high).astype(np.int64)
    out = np.floor(v)
    near = np.nonzero((np.abs(v - np.rint(v)) <= tol) & (v > low - 1) & (v < high + 1))[0]
    for k in near.tolist():
        out[k] = (x - c * int(t[k])) // d
    return np.clip(out, low, high).astype(np.int64)
