"""One chunk of a run: shuffle, deal, price every coup exactly, play each strategy, and total the chunk exactly.

The EV before a coup is exact: the cards the coup will use are a uniformly random
ordering of the unseen cards, so the EV given what the player has seen is the EV of the
unseen composition, which the lab's pricer gives exactly (no float in the sign).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from .counts import DECK
from .dealer import DealtChunk, deal_chunk, shuffled_shoes
from .plan import ChunkWork, SimulationPlan
from .pricing import ev_numerators, pricing
from .results import EV_BITS, Totals


@lru_cache(maxsize=1)
def _blas_controller() -> Any:
    """The process's BLAS libraries, found once (finding them costs a few ms, once per chunk otherwise)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _limit_blas() -> Any:
    return _blas_controller().limit(limits=1, user_api="blas")


@dataclass(frozen=True)
class PricedChunk:
    """A chunk dealt and priced: its coups (grouped by shoe) and the exact EV of every bet before each coup.

    ``num[i, b] / (orderings[i] · scale)`` is bet b's exact EV before coup i; ``ev`` is the
    same in fixed point (units of 2^-EV_BITS), ``starts`` the first coup of each shoe.
    """

    dealt: DealtChunk
    num: np.ndarray
    orderings: np.ndarray
    scale: int
    ev: np.ndarray
    starts: np.ndarray
    remaining: np.ndarray


def price_chunk(work: ChunkWork, index: int) -> PricedChunk:
    """Shuffle, deal and price chunk ``index`` of ``work`` (a pure function of both)."""
    with _limit_blas():
        dealt = deal_chunk(work, shuffled_shoes(work, index))
        num, orderings, scale = ev_numerators(work.tableau, work.pays, dealt.before)
    # Each coup's EV in fixed point: deterministic float64 rounding of the exact ratio.
    ev = np.rint(num.astype(np.float64) / (orderings.astype(np.float64)[:, None] * scale) * 2.0**EV_BITS).astype(
        np.int64
    )
    starts = np.flatnonzero(np.r_[True, dealt.shoe[1:] != dealt.shoe[:-1]])
    return PricedChunk(dealt, num, orderings, scale, ev, starts, dealt.before.sum(axis=1))


def simulate_chunk(plan: SimulationPlan | ChunkWork, index: int) -> Totals:
    """Shuffle, deal and price chunk ``index`` of ``plan``; return its exact totals.

    A pure function of (plan, index): any worker, anywhere, gives the same totals.
    """
    work = plan.work() if isinstance(plan, SimulationPlan) else plan
    priced = price_chunk(work, index)
    dealt, num, remaining = priced.dealt, priced.num, priced.remaining
    layout = pricing(work.tableau, work.pays)[0]
    full = np.array(work.counts, dtype=np.int64)
    bet_ids = work.pays.ids
    totals = Totals(dealt.shoes, len(dealt.shoe))
    for strategy in work.strategies:
        combined_won = np.zeros(dealt.shoes, dtype=np.int64)
        combined_ev = np.zeros(dealt.shoes, dtype=np.int64)
        combined_bets = 0
        for i, bet_id in enumerate(bet_ids):
            system = work.systems[i]
            if strategy == "always":
                bet = np.ones(len(dealt.shoe), dtype=bool)
            elif strategy == "perfect":
                bet = num[:, i] > 0
            else:
                assert system is not None  # the plan gives every bet a count under the count strategy
                bet = at_threshold(system.threshold, running_count(system.tags, full, dealt.before), remaining)
            placed, won, evs = bet_totals(priced, layout.pay[i], i, bet)
            totals.cells[(strategy, bet_id)] = cell(placed, won, evs)
            combined_won += won
            combined_ev += evs
            combined_bets += placed
        if len(bet_ids) > 1:
            totals.cells[(strategy, "combined")] = cell(combined_bets, combined_won, combined_ev)
    return totals


def running_count(tags: tuple[int, ...], full: np.ndarray, before: np.ndarray) -> np.ndarray:
    """The running count before each coup: the tags of the full shoe less those of the cards unseen."""
    array = np.array(tags, dtype=np.int64)
    result: np.ndarray = int(full @ array) - before @ array
    return result


def bet_totals(priced: PricedChunk, pay: np.ndarray, i: int, bet: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Bet number ``i`` placed where ``bet`` is true: the bets placed, and per shoe the units won and the EVs summed."""
    won = np.add.reduceat(np.where(bet, pay[priced.dealt.state], 0), priced.starts)
    evs = np.add.reduceat(np.where(bet, priced.ev[:, i], 0), priced.starts)
    return int(np.count_nonzero(bet)), won, evs


def at_threshold(threshold: Fraction, running: np.ndarray, remaining: np.ndarray) -> np.ndarray:
    """Where the true count reaches ``threshold``: 52 · running · d >= n · remaining, for threshold n/d, exactly.

    In int64 when no product can overflow, else on Python integers (a threshold such as 1e-17).

    >>> at_threshold(Fraction(1, 10**17), np.array([0, 1]), np.array([400, 400])).tolist()
    [False, True]
    """
    left, right = DECK * threshold.denominator, threshold.numerator
    if left * int(np.abs(running).max(initial=0)) < 2**62 and abs(right) * int(remaining.max(initial=0)) < 2**62:
        result: np.ndarray = left * running >= right * remaining
        return result
    return np.array([left * r >= right * u for r, u in zip(running.tolist(), remaining.tolist())], dtype=bool)


def cell(placed: int, won: np.ndarray, evs: np.ndarray) -> list[int]:
    """One cell of :class:`Totals`: bets placed, units won and EVs, with the sums of their per-shoe squares."""
    won_list, ev_list = won.tolist(), evs.tolist()
    return [placed, sum(won_list), sum(x * x for x in won_list), sum(ev_list), sum(x * x for x in ev_list)]
