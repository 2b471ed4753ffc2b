"""One chunk of a run: shuffle, deal, price every coup exactly, play each strategy, and total the chunk exactly.

The EV before a coup is exact: the cards the coup will use are a uniformly random
ordering of the unseen cards, so the EV given what the player has seen is the EV of the
unseen composition, which the lab's pricer gives exactly (no float in the sign).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from .counts import DECK
from .deal import deal_chunk, shuffled_shoes
from .plan import ChunkWork, SimulationPlan
from .pricing import ev_numerators, pricing
from .results import EV_BITS, Totals


def _limit_blas() -> Any:
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def simulate_chunk(plan: SimulationPlan | ChunkWork, index: int) -> Totals:
    """Shuffle, deal and price chunk ``index`` of ``plan``; return its exact totals.

    A pure function of (plan, index): any worker, anywhere, gives the same totals.
    """
    work = plan.work() if isinstance(plan, SimulationPlan) else plan
    with _limit_blas():
        dealt = deal_chunk(work, shuffled_shoes(work, index))
        num, orderings, scale = ev_numerators(work.tableau, work.pays, dealt.before)
    layout = pricing(work.tableau, work.pays)[0]
    # Each coup's EV in fixed point: deterministic float64 rounding of the exact ratio.
    ev = np.rint(num.astype(np.float64) / (orderings.astype(np.float64)[:, None] * scale) * 2.0**EV_BITS).astype(
        np.int64
    )
    starts = np.flatnonzero(np.r_[True, dealt.shoe[1:] != dealt.shoe[:-1]])
    remaining = dealt.before.sum(axis=1)
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
                tags = np.array(system.tags, dtype=np.int64)
                running = int(full @ tags) - dealt.before @ tags
                bet = at_threshold(system.threshold, running, remaining)
            won = np.add.reduceat(np.where(bet, layout.pay[i][dealt.state], 0), starts)
            evs = np.add.reduceat(np.where(bet, ev[:, i], 0), starts)
            placed = int(np.count_nonzero(bet))
            totals.cells[(strategy, bet_id)] = _cell(placed, won, evs)
            combined_won += won
            combined_ev += evs
            combined_bets += placed
        if len(bet_ids) > 1:
            totals.cells[(strategy, "combined")] = _cell(combined_bets, combined_won, combined_ev)
    return totals


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


def _cell(placed: int, won: np.ndarray, evs: np.ndarray) -> list[int]:
    won_list, ev_list = won.tolist(), evs.tolist()
    return [placed, sum(won_list), sum(x * x for x in won_list), sum(ev_list), sum(x * x for x in ev_list)]
