"""Value of information: the best bet, and the edge per coup, when the class (High/Low) of the first cards is known.

Edge sorting: a player who can tell "High" cards from "Low" ones before they are dealt
knows the *information state* of the coup, the High/Low pattern of its first K cards in
deal order (P1, B1, P2, B2, then the fifth and sixth cards out of the shoe: the third
cards when drawn, the Player's first). In each state he bets the bet with the best EV
given the state, or nothing when no bet has a positive EV. The edge per coup is
Σ P(state) · max(0, best EV | state), exactly.

The count is one exact pass over the ordered six-card draw. Cards are grouped into
*kinds*, (baccarat value, class) pairs: ranks 1-9 are each one value, so only the
ten-valued ranks T, J, Q, K can fall into two kinds. A sequence of six kinds k1..k6 is
dealt in Π_k (c_k)_{m_k} orderings (c_k cards of kind k, m_k of the six of that kind),
and its coup is read from :func:`~exactodds.puntobanco.rules.deal_table` by the values alone: the
deal is not written again here. Summing the orderings and each bet's net win over the
last 6 − K positions gives, per kind sequence of the first K cards, one integer per bet;
a High/Low split then only groups those sums. :mod:`exactodds.puntobanco.edgecount` does both, for
every split at once and in int64 at any shoe size (its docstring has the proof), which
is how ``best_sort`` tries all 511 splits of the ten values in about the time of one.

Because every ordered six-card draw is counted once, Σ P(state) · EV(bet | state) is
the bet's unconditional EV exactly (the law of total probability), as the tests check
against :func:`~exactodds.puntobanco.odds.analyze`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from math import lcm
from typing import TYPE_CHECKING, Any

from ..betfile import ALL_BETS
from ..cards import RANKS, VALUE_RANKS, Rank, Shoe
from ..errors import ExactOddsError, shown
from ..inputs import PRECISION, Input
from ..paytable import Bet as AnyBet
from .coup import ALL_STATES
from .events import Bet
from .facts import state_indices
from .given import POSITIONS
from .odds import resolve_bets
from .rules import PUNTO_BANCO, RuleSet, deal_table

if TYPE_CHECKING:  # the type only: the counting loads numpy, which start-up does without
    from .edgecount import Progress

#: The bets compared in each state unless others are named.
DEFAULT_BETS = ("player", "banker", "tie")
#: Jacobson's High set for edge sorting at baccarat.
DEFAULT_HIGH = "6789"
#: Why edge sorting refuses a bet that reads pairs, and one that reads the dealt cards or has a multiplier.
READS_PAIRS = "reads pairs (the ranks of the first cards), which the High/Low states do not follow"
READS_CARDS = "reads the dealt cards or has a multiplier: edge-sort prices coup states"

# The inputs of edge sorting, declared once for the command's options and the request's keys.
HIGH = Input("high", "text", f"The ranks that are High, e.g. 6789 or T,J (the rest are Low; default {DEFAULT_HIGH}).",
             metavar="RANKS")
CARDS = Input("cards", "whole", "Known cards in deal order: 1 (P1) to 6 (P1 B1 P2 B2, then the 5th and 6th cards out"
              " of the shoe).", low=1, high=len(POSITIONS))
BEST_SORT = Input("best-sort", "flag", "Search every split of the ten card values (T, J, Q, K together) for the largest"
                  " edge, instead of --high.")
#: The decimal places of the table's percents (the JSON's figures are exact fractions, which it leaves as they are).
SORT_PRECISION = replace(PRECISION, help="Decimal places of percents.", default=4)


@dataclass(frozen=True)
class InfoState:
    """One information state: the High/Low pattern of the known cards, its probability, and each bet's EV given it.

    >>> s = InfoState("HL", Fraction(1, 4), (Fraction(1, 10), Fraction(-1, 5)), 0)
    >>> s.ev, s.value
    (Fraction(1, 10), Fraction(1, 40))
    """

    pattern: str
    probability: Fraction
    #: EV(bet | state) for each bet compared, in the order given.
    evs: tuple[Fraction, ...]
    #: The index of the best bet when its EV is positive, else ``None`` (no bet).
    best: int | None

    @property
    def ev(self) -> Fraction | None:
        """The best bet's EV given the state, or ``None`` when no bet is favourable."""
        return None if self.best is None else self.evs[self.best]

    @property
    def value(self) -> Fraction:
        """This state's share of the edge: P(state) · max(0, best EV)."""
        return Fraction(0) if self.best is None else self.probability * self.evs[self.best]


@dataclass(frozen=True)
class EdgeSort:
    """The information states of one shoe, split and number of known cards, and the edge they give.

    >>> sort = edge_sort(Shoe.standard(1), cards=1)
    >>> [s.pattern for s in sort.states], sort.bet_of(sort.states[1]), f"{float(sort.edge):.4f}"
    (['L', 'H'], 'player', '0.0714')
    """

    shoe: Shoe
    rules: RuleSet
    bets: tuple[Bet, ...]
    high: frozenset[Rank]
    cards: int
    #: The states of positive probability, the most likely first (then by pattern).
    states: tuple[InfoState, ...]

    @property
    def edge(self) -> Fraction:
        """The edge per coup: Σ P(state) · max(0, best EV | state)."""
        return sum((s.value for s in self.states), Fraction(0))

    @property
    def high_text(self) -> str:
        """The High ranks as one string in rank order, e.g. ``6789``."""
        return high_text(self.high)

    def bet_of(self, state: InfoState) -> str | None:
        """The id of the bet made in ``state`` (``None``: no bet)."""
        return None if state.best is None else self.bets[state.best].id

    def own_edges(self, known: int | None = None) -> tuple[Fraction, ...]:
        """Each bet's edge per coup when it alone is bet, in the states where its EV is positive, seeing the class of
        the first ``known`` of the sort's cards (default all of them): Σ P(state) · max(0, its EV | state), exactly.

        A state of fewer cards joins those of more that begin with its pattern (the law of total probability), so
        one sort of four cards gives the edges of one card too.

        >>> sort = edge_sort(Shoe.standard(1), bets=["banker", "player"], cards=4)
        >>> alone = tuple(edge_sort(Shoe.standard(1), bets=[b], cards=1).edge for b in ("banker", "player"))
        >>> sort.own_edges(1) == alone
        True
        """
        known = self.cards if known is None else known
        if not 1 <= known <= self.cards:
            raise ExactOddsError(f"the sort knows {self.cards} cards: the edges of 1 to {self.cards}, not {known}")
        joined: dict[str, list[Fraction]] = {}
        for state in self.states:
            weighted = joined.setdefault(state.pattern[:known], [Fraction(0)] * len(self.bets))
            for i, ev in enumerate(state.evs):
                weighted[i] += state.probability * ev
        return tuple(sum((max(Fraction(0), w[i]) for w in joined.values()), Fraction(0)) for i in range(len(self.bets)))


@dataclass(frozen=True)
class BestSort:
    """The most valuable split of the ten card values into High and Low, and every split's edge, best first."""

    best: EdgeSort
    #: (High ranks, edge) for each of the 511 splits, largest edge first.
    ranking: tuple[tuple[str, Fraction], ...]


def high_text(high: frozenset[Rank]) -> str:
    """The ranks of a High set in rank order.

    >>> high_text(parse_high("9,8,7,6"))
    '6789'
    """
    return "".join(r.value for r in RANKS if r in high)


def parse_high(text: str) -> frozenset[Rank]:
    """Read a High set of ranks: ``6789``, ``6,7,8,9`` or ``TJQK`` (``10`` for T); empty, all ranks or a repeat refused.

    >>> sorted(r.value for r in parse_high("t,J,10"))
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: rank T is named twice in the High set t,J,10
    >>> high_text(parse_high(" 6 7 8 9 "))
    '6789'
    """
    compact = "".join(text.replace(",", " ").split()).replace("10", "T")
    ranks = [Rank.parse(ch) for ch in compact]
    seen: set[Rank] = set()
    for rank in ranks:
        if rank in seen:
            raise ExactOddsError(f"rank {rank.value} is named twice in the High set {text.strip()[:40]}")
        seen.add(rank)
    if not seen:
        raise ExactOddsError("the High set is empty: name the High ranks, e.g. 6789")
    if len(seen) == len(RANKS):
        raise ExactOddsError("the High set holds every rank, so nothing would be Low: leave at least one rank out")
    return frozenset(seen)


def _check_cards(cards: int) -> None:
    if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= len(POSITIONS):
        raise ExactOddsError(
            f"the known cards are 1 to {len(POSITIONS)} ({', '.join(POSITIONS)} in deal order), not"
            f" {shown(repr(cards))}"
        )


def _nets_by_ending(bet: Bet) -> dict[tuple[int, ...], set[Fraction]]:
    """The bet's net wins for each ending of a coup (the totals and the numbers of cards): one net each, unless the
    bet reads the pair flags."""
    endings = _endings()
    by_ending: dict[tuple[int, ...], set[Fraction]] = {}
    for outcome in bet.outcomes:  # each outcome's states read once from its bit set: faster than settling each
        for ending in {endings[i] for i in state_indices(outcome.event.mask)}:
            by_ending.setdefault(ending, set()).add(outcome.net)
    return by_ending


@cache
def _endings() -> tuple[tuple[int, ...], ...]:
    """The ending of each coup state (its totals and numbers of cards), by its index in ``ALL_STATES``."""
    return tuple(tuple(state[:4]) for state in ALL_STATES)


def refusal(bet: Bet) -> str | None:
    """Why edge sorting refuses ``bet`` (it reads the dealt cards, has a multiplier, or reads pairs), or ``None``.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> refusal(find_bet("player-pair", PUNTO_BANCO)) == READS_PAIRS, refusal(find_bet("dragon-7", PUNTO_BANCO))
    (True, None)
    """
    if bet.reads_cards or any(o.multiplier is not None for o in bet.outcomes):
        return READS_CARDS
    if any(len(n) > 1 for n in _nets_by_ending(bet).values()):
        return READS_PAIRS
    return None


def _scaled_nets(bets: Sequence[Bet], rules: RuleSet) -> tuple[list[int], list[Any]]:
    """Each bet's net win for each entry of the deal table, as integers times the bet's scale.

    A bet is priced here only if its net depends on the totals and card counts alone: the
    kinds of this module know values, not ranks, so a bet that reads the pair flags is refused.
    """
    table = deal_table(rules.tableau)
    scales, nets = [], []
    for bet in bets:
        by_ending = _nets_by_ending(bet)
        if any(len(n) > 1 for n in by_ending.values()):
            raise ExactOddsError(
                f"bet {bet.id} {READS_PAIRS}: compare bets settled by the totals and the numbers of cards, e.g."
                " player, banker, tie"
            )
        scale = lcm(*(o.net.denominator for o in bet.outcomes))
        scales.append(scale)
        scaled = {ending: int(next(iter(net)) * scale) for ending, net in by_ending.items()}
        nets.append([scaled[ending] for ending in table])
    return scales, nets


def _states(grouped: Any, scales: Sequence[int], orderings: int) -> tuple[InfoState, ...]:
    """The states of positive probability from one split's sums (row 0 the orderings, then each bet's)."""
    cards = grouped.ndim - 1
    if sum(int(w) for w in grouped[0].flat) != orderings:  # pragma: no cover - every draw is in one state
        raise AssertionError("edge sort: the states' orderings do not add up to the shoe's")
    states = []
    for index in itertools.product((1, 0), repeat=cards):
        weight = int(grouped[(0, *index)])
        if weight == 0:
            continue
        evs = tuple(Fraction(int(grouped[(1 + b, *index)]), scale * weight) for b, scale in enumerate(scales))
        top = max(evs)
        best = evs.index(top) if top > 0 else None
        states.append(InfoState("".join("H" if c else "L" for c in index), Fraction(weight, orderings), evs, best))
    states.sort(key=lambda s: (-s.probability, s.pattern))
    return tuple(states)


def _prepare(shoe: Shoe, rules: RuleSet, bets: Sequence[str | AnyBet] | None, cards: int) -> tuple[Bet, ...]:
    _check_cards(cards)
    if rules.player_five == "best":
        raise ExactOddsError(
            "edge sorting deals by the tableau, and the holder's choice on 5 (the big table) depends on the whole"
            " shoe: fix it with --player-5 draw or stand"
        )
    named = DEFAULT_BETS if bets is None else bets
    chosen = resolve_bets(rules, named, suits=shoe.suited)
    if ALL_BETS in named:  # "all": the bets it can price
        chosen = tuple(b for b in chosen if not b.reads_cards)
    for bet in chosen:
        if bet.reads_cards or any(o.multiplier is not None for o in bet.outcomes):
            raise ExactOddsError(f"bet {bet.id} {READS_CARDS}")
    if not chosen:
        raise ExactOddsError("name at least one bet to compare")
    return chosen


def edge_sort(
    shoe: Shoe,
    rules: RuleSet = PUNTO_BANCO,
    bets: Sequence[str | AnyBet] | None = None,
    *,
    high: str | frozenset[Rank] = DEFAULT_HIGH,
    cards: int = 1,
    progress: Progress | None = None,
) -> EdgeSort:
    """Every information state of the first ``cards`` cards under a High set of ranks, with its best bet, exactly.

    ``progress(done, total)``, when given, is called after each pass over the six-card sequences.

    >>> sort = edge_sort(Shoe.standard(8), cards=1)
    >>> f"{float(sort.edge):.5%}", [(s.pattern, sort.bet_of(s)) for s in sort.states]
    ('6.76475%', [('L', 'banker'), ('H', 'player')])
    """
    chosen = _prepare(shoe, rules, bets, cards)
    high_set = parse_high(high) if isinstance(high, str) else frozenset(high)
    if not high_set or len(high_set) == len(RANKS):
        raise ExactOddsError("the High set must hold some ranks but not all of them")
    from .edgecount import split_sums  # numpy, loaded here, not at start-up: the CLI imports this module

    scales, nets = _scaled_nets(chosen, rules)
    counts, values, is_high = [], [], []
    for value, ranks in enumerate(VALUE_RANKS):
        for cls in (False, True):
            c = sum(shoe.count(r) for r in ranks if (r in high_set) == cls)
            if c:  # an empty kind deals no card: leaving it out keeps the enumeration small
                counts.append(c)
                values.append(value)
                is_high.append(cls)
    sums = split_sums(counts, values, cards, [[1] * len(nets[0]), *nets], [is_high], progress)
    return EdgeSort(shoe, rules, chosen, high_set, cards, _states(sums[..., 0], scales, shoe.orderings()))


def best_sort(
    shoe: Shoe,
    rules: RuleSet = PUNTO_BANCO,
    bets: Sequence[str | AnyBet] | None = None,
    *,
    cards: int = 4,
    progress: Progress | None = None,
) -> BestSort:
    """The split of the ten card values into High and Low that gives the largest edge with ``cards`` known cards.

    The ten-valued ranks T, J, Q, K stay together. A split and its complement give the
    same states with H and L swapped, hence the same edge; of the 1,022 non-trivial
    splits, the 511 searched are those with the ten-valued cards Low. The sums of every
    split are made in one pass per row (:func:`~exactodds.puntobanco.edgecount.split_sums`).

    >>> best = best_sort(Shoe.standard(1), cards=1)
    >>> best.best.high_text, len(best.ranking)
    ('6789', 511)
    """
    import numpy as np

    from .edgecount import split_sums

    chosen = _prepare(shoe, rules, bets, cards)
    scales, nets = _scaled_nets(chosen, rules)
    present = [v for v, c in enumerate(shoe.value_counts()) if c]  # a value the shoe lacks deals no card
    counts = [shoe.value_counts()[v] for v in present]
    masks = range(1, 2**9)
    splits = [[bool(v and (mask >> (v - 1)) & 1) for v in present] for mask in masks]
    sums = split_sums(counts, present, cards, [[1] * len(nets[0]), *nets], splits, progress)
    common = lcm(*scales)
    factors = np.array([common // s for s in scales], dtype=object).reshape((len(scales),) + (1,) * (cards + 1))
    # P(state)·EV(bet | state) = (bet's scaled sum in the state) / (scale · orderings): the state's weight
    # cancels, so the edge's numerator over common · orderings is an integer sum.
    best_bet = (sums[1:] * factors).max(axis=0)
    numerators = np.maximum(best_bet, 0).reshape(-1, len(splits)).sum(axis=0)
    scored = sorted(((int(num), i) for i, num in enumerate(numerators)), key=lambda item: -item[0])
    denominator = common * shoe.orderings()

    def ranks_of(mask: int) -> frozenset[Rank]:
        return frozenset(r for v, ranks in enumerate(VALUE_RANKS) if v and (mask >> (v - 1)) & 1 for r in ranks)

    ranking = tuple((high_text(ranks_of(masks[i])), Fraction(num, denominator)) for num, i in scored)
    top = scored[0][1]
    states = _states(sums[..., top], scales, shoe.orderings())
    best = EdgeSort(shoe, rules, chosen, ranks_of(masks[top]), cards, states)
    if best.edge != ranking[0][1]:  # pragma: no cover - two routes to one number; a mismatch is a bug
        raise AssertionError(f"best sort: edge {best.edge} against {ranking[0][1]}")
    return BestSort(best, ranking)
