"""The infinite shoe: every card drawn with replacement, each rank with probability 1/13.

This is the limit of an N-deck shoe as N grows: no card ever depletes the shoe. It is
walked here directly (the engine needs a finite shoe), with the same tableau and the
same counting convention: all six cards are drawn, so every count is out of 13^6
equally likely rank sequences, and a coup that uses four cards still counts every one
of the 13^2 sequences of cards 5 and 6 that follow it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from ..analysis import BetFigures, OutcomeFigures
from ..cards import RANK_POINTS, RANKS
from ..errors import ExactOddsError
from .bets import bet_catalog, find_bet
from .coup import CoupState
from .events import Bet
from .rules import PUNTO_BANCO, STANDARD_TABLEAU, RuleSet, Tableau, deal_coup

#: The number of equally likely rank sequences of six cards drawn with replacement.
INFINITE_ORDERINGS = len(RANKS) ** 6

# How many of the 13 ranks have each value 0..9 (four for value 0: T, J, Q, K).
_VALUE_WEIGHTS = tuple(sum(1 for r in RANKS if RANK_POINTS[r] == v) for v in range(10))


@lru_cache(maxsize=8)  # read-only counts: one walk per tableau and process
def infinite_coups(tableau: Tableau = STANDARD_TABLEAU) -> Mapping[CoupState, int]:
    """Count the 13^6 rank sequences of an infinite shoe by final coup state.

    Each count over :data:`INFINITE_ORDERINGS` is the exact with-replacement probability.

    >>> counts = infinite_coups()
    >>> sum(counts.values()) == INFINITE_ORDERINGS == 4826809
    True
    >>> sum(n for s, n in counts.items() if s.player_pair) * 13 == INFINITE_ORDERINGS
    True
    """
    # The first four cards by rank (the pair flags need ranks); with replacement only
    # the two-card totals and the pair flags matter for what follows.
    prefixes: dict[tuple[int, int, bool, bool], int] = defaultdict(int)
    for r1 in RANKS:
        for r2 in RANKS:
            for r3 in RANKS:
                for r4 in RANKS:
                    key = (
                        (r1.points + r3.points) % 10,
                        (r2.points + r4.points) % 10,
                        r1 == r3,
                        r2 == r4,
                    )
                    prefixes[key] += 1
    result: dict[CoupState, int] = defaultdict(int)
    for (player, banker, ppair, bpair), weight in prefixes.items():
        for v5 in range(10):
            for v6 in range(10):
                # deal_coup only reads the two-card totals, so (total, 0) stands for each hand's first two cards.
                final = deal_coup((player, banker, 0, 0, v5, v6), tableau)
                state = CoupState(*final, ppair, bpair)
                result[state] += weight * _VALUE_WEIGHTS[v5] * _VALUE_WEIGHTS[v6]
    return MappingProxyType(dict(sorted(result.items())))


def analyze_infinite(rules: RuleSet = PUNTO_BANCO, bets: Sequence[str | Bet] | None = None) -> tuple[BetFigures, ...]:
    """Price bets (default: the whole catalog of ``rules``) exactly on the infinite shoe.

    The figures are exact; their ``orderings`` is 13^6 (see :data:`INFINITE_ORDERINGS`).

    >>> banker, = analyze_infinite(bets=["banker"])
    >>> banker.house_edge_percent(4)
    '1.0640%'
    """
    chosen = _resolve(rules, bets)
    counts = infinite_coups(rules.tableau)
    figures = []
    for bet in chosen:
        by_outcome = dict.fromkeys((o.id for o in bet.outcomes), 0)
        for state, n in counts.items():
            by_outcome[bet.settle(state).id] += n
        outcomes = tuple(OutcomeFigures(o, by_outcome[o.id], INFINITE_ORDERINGS) for o in bet.outcomes)
        figures.append(BetFigures(bet, outcomes, INFINITE_ORDERINGS))
    return tuple(figures)


def _resolve(rules: RuleSet, bets: Iterable[str | Bet] | None) -> tuple[Bet, ...]:
    if bets is None:
        return tuple(bet_catalog(rules).values())
    seen: dict[str, Bet] = {}
    for b in bets:
        bet = b if isinstance(b, Bet) else find_bet(b, rules)
        if bet.needs_suits:  # the infinite shoe is walked by rank only
            raise ExactOddsError(f"bet {bet.id} needs a shoe with suits; the infinite shoe is known only by rank")
        seen.setdefault(bet.id, bet)
    return tuple(seen.values())
