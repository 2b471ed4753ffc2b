"""What each closed shoe adds to a review's verdict, added up exactly: per bettor and bet, and per table.

A shoe is tallied where it closed (:func:`shoe_tally`: in a review's worker process, when the log is reviewed on many
cores) and merged into the verdict by :meth:`~exactodds.review.verdict.Verdict.add_tally`. Every money figure is a sum
of fractions kept as numerators by denominator (:class:`ExactSum`), so that merging two sums is adding integers, in
any order, and the one reduction is made when the verdict is read.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import NamedTuple

from ..rebate import Rebate
from .shoes import ClosedShoe, Finding, PricedWager

#: A bettor's result on his bet at a coup he was at the table, by the coup's cards (one byte a coup:
#: :attr:`Tally.result`), each named by :data:`RESULTS`.
NOT_BET, WON, LOST, PUSHED = 0, 1, 2, 3
RESULTS = ("not bet", "won", "lost", "pushed")


class ExactSum:
    """A sum of many fractions, exact and cheap: the numerators added per denominator (a log's shoe states share a few
    hundred orderings), reduced once when read.

    >>> total = ExactSum()
    >>> total.add(1, 3); total.add(1, 6); total.add(2, 3)
    >>> total.value()
    Fraction(7, 6)
    """

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: dict[int, int] = {}

    def add(self, numerator: int, denominator: int) -> None:
        """Add numerator / denominator."""
        parts = self.parts
        parts[denominator] = parts.get(denominator, 0) + numerator

    def merge(self, parts: dict[int, int]) -> None:
        """Add another sum's parts (numerators by denominator)."""
        mine = self.parts
        for denominator, numerator in parts.items():
            mine[denominator] = mine.get(denominator, 0) + numerator

    def value(self) -> Fraction:
        """The sum, reduced."""
        return parts_value(self.parts)


def parts_value(parts: dict[int, int]) -> Fraction:
    """Numerators by denominator added up exactly, over their least common multiple, and reduced once.

    >>> parts_value({3: 1, 6: 1, 4: -3})
    Fraction(-1, 4)
    """
    if not parts:
        return Fraction(0)
    common = lcm(*parts)
    return Fraction(sum(n * (common // d) for d, n in parts.items()), common)


@dataclass
class Tally:
    """One bettor's wagers on one bet: sums kept exactly, and where he was at the table for the permutation test.

    The coups he was at the table are runs of his bet's EVs in the verdict's (:attr:`Verdict.evs`), one run a shoe
    (``spans``); his stakes are kept only where he bet (``at``: the place among those coups, ``staked``, and the
    result by the coup's cards, :data:`RESULTS`): a log of a million wagers keeps a few numbers a wager.
    """

    who: str
    bet: str
    wagers: int = 0
    stake: ExactSum = field(default_factory=ExactSum)
    net: ExactSum = field(default_factory=ExactSum)
    expected: ExactSum = field(default_factory=ExactSum)
    variance: ExactSum = field(default_factory=ExactSum)
    stake_positive: ExactSum = field(default_factory=ExactSum)
    shoes: int = 0
    coups: int = 0  # coups at the table: from the bettor's first wager to his last in each shoe
    ideal: ExactSum = field(default_factory=ExactSum)  # Σ max(EV, 0) per unit over those coups
    rebate_due: ExactSum = field(default_factory=ExactSum)  # with a rebate: owed as the coups settled
    rebate_expected: ExactSum = field(default_factory=ExactSum)  # ... and expected on the cards left
    spans: array[int] = field(default_factory=lambda: array("q"))  # start, stop in the bet's EVs, a shoe each
    at: array[int] = field(default_factory=lambda: array("q"))
    staked: array[float] = field(default_factory=lambda: array("d"))
    result: bytearray = field(default_factory=bytearray)

    @cached_property
    def sums(self) -> tuple[ExactSum, ...]:
        """Its exact sums in the order of :data:`BETTOR_SUMS`, as a shoe's :class:`BettorPart` holds their parts."""
        return tuple(getattr(self, name) for name in BETTOR_SUMS)


@dataclass
class TableTally:
    """One table's shoes: wagers, stakes, and the casino's actual and expected result, exactly."""

    table: str
    shoes: int = 0
    wagers: int = 0
    stake: ExactSum = field(default_factory=ExactSum)
    net: ExactSum = field(default_factory=ExactSum)
    expected: ExactSum = field(default_factory=ExactSum)
    rebate_due: ExactSum = field(default_factory=ExactSum)
    rebate_expected: ExactSum = field(default_factory=ExactSum)

    @cached_property
    def sums(self) -> tuple[ExactSum, ...]:
        """Its exact sums in the order of :data:`TABLE_SUMS`, as a :class:`ShoeTally` holds their parts."""
        return tuple(getattr(self, name) for name in TABLE_SUMS)


#: The exact sums of a :class:`Tally` and of a :class:`TableTally` (their fields of type :class:`ExactSum`), in the
#: order a :class:`ShoeTally` holds them.
BETTOR_SUMS = tuple(f.name for f in fields(Tally) if f.type == "ExactSum")
TABLE_SUMS = tuple(f.name for f in fields(TableTally) if f.type == "ExactSum")


class BettorPart(NamedTuple):
    """One bettor's bet in one shoe, as :meth:`Verdict.add_tally` merges it: his wagers, his exact sums (parts by
    denominator, :data:`BETTOR_SUMS`), the first and last coup of his run, and each coup he staked: its place in the
    run, the stake, the result (:data:`RESULTS`)."""

    who: str
    bet: str
    wagers: int
    sums: tuple[dict[int, int], ...]
    first: int
    last: int
    at: tuple[int, ...]
    staked: tuple[float, ...]
    results: bytes


class ShoeTally(NamedTuple):
    """What one closed shoe adds to a verdict, made where it closed (a review's worker sends this, not the shoe):
    exact sums by denominator, each bet's EVs as the statistic's floats, places counted within the shoe; and its
    priced wagers when the caller keeps them (the CSV's rows), else none."""

    shoe: str
    table: str
    coups: int
    wagers: int
    findings: tuple[Finding, ...]
    bad: tuple[tuple[int, str], ...]
    evs: dict[str, array[float]]
    table_sums: tuple[dict[int, int], ...]
    bettors: tuple[BettorPart, ...]
    priced: tuple[PricedWager, ...] = ()

    @property
    def result(self) -> tuple[Fraction, Fraction, Fraction]:
        """The shoe's stake, the bettors' net and their expected net, exactly (its hold and the theoretical one)."""
        stake, net, expected = (parts_value(self.table_sums[TABLE_SUMS.index(name)])
                                for name in ("stake", "net", "expected"))
        return stake, net, expected


def shoe_tally(shoe: ClosedShoe, rebate: Rebate | None, keep_wagers: bool = False) -> ShoeTally:
    """What a closed shoe adds to a verdict (its wagers kept with ``keep_wagers``).

    >>> from exactodds.review import Reviewer
    >>> from exactodds.review.log import records
    >>> reviewer = Reviewer()
    >>> for r in records(['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 1, "player": "2 3 9", "banker": "3 4"}',
    ...                   '{"shoe": "a", "coup": 1, "who": "x", "bet": "banker", "stake": "10", "net": "9.5"}']):
    ...     _ = reviewer.feed(r)
    >>> part = shoe_tally(reviewer.close("a"), None)
    >>> part.wagers, part.bettors[0].who, part.bettors[0].at, part.bettors[0].results
    (1, 'x', (0,), b'\\x01')
    """
    # Each sum's parts (numerators by denominator) filled in place: a shoe's hundred wagers make a few thousand adds.
    table_sums: tuple[dict[int, int], ...] = tuple({} for _ in TABLE_SUMS)
    t_stake, t_net, t_expected, t_due, t_owed = table_sums
    sums: dict[tuple[str, str], tuple[dict[int, int], ...]] = {}
    wagers: dict[tuple[str, str], int] = {}
    spans: dict[tuple[str, str], tuple[int, int]] = {}
    staked: dict[tuple[str, str, int], Fraction] = {}
    settled: dict[tuple[str, str, int], Fraction] = {}
    for wager in shoe.wagers:
        placed, m = wager.wager, wager.moments
        n, d = placed.stake.numerator, placed.stake.denominator  # in lowest terms, as its square is
        key = (placed.who, placed.bet)
        mine = sums.get(key)
        if mine is None:
            mine = sums[key] = tuple({} for _ in BETTOR_SUMS)
            wagers[key] = 0
        wagers[key] += 1
        b_stake, b_net, b_expected, b_variance, b_positive, _, b_due, b_owed = mine
        net_n, net_d, e_n, e_d = placed.net.numerator, placed.net.denominator, n * m.first, d * m.scale
        adds = [(b_stake, n, d), (t_stake, n, d), (b_net, net_n, net_d), (t_net, net_n, net_d), (b_expected, e_n, e_d),
                (t_expected, e_n, e_d), (b_variance, n * n * m.spread, d * d * m.scale * m.scale)]
        if m.first > 0:
            adds.append((b_positive, n, d))
        if rebate is not None:
            r_n, r_d = wager.rebate_due.numerator, wager.rebate_due.denominator
            o_n, o_d = wager.rebate_expected.numerator, wager.rebate_expected.denominator
            adds += [(b_due, r_n, r_d), (t_due, r_n, r_d), (b_owed, o_n, o_d), (t_owed, o_n, o_d)]
        for parts, numerator, denominator in adds:
            parts[denominator] = parts.get(denominator, 0) + numerator
        coup = placed.coup
        first, last = spans.get(key, (coup, coup))
        spans[key] = (min(first, coup), max(last, coup))
        at = (*key, coup)
        staked[at] = staked[at] + placed.stake if at in staked else placed.stake
        settled[at] = settled[at] + wager.settled if at in settled else wager.settled
    # The ideal: every coup at the table with a positive EV, bet or not (choosing when counts). Each bet's positive
    # coups are found once, and each run takes those within it.
    positive = {bet: [(i + 1, first, scale) for i, (first, scale) in enumerate(column) if first > 0]
                for bet, column in shoe.evs.items()}
    for key, (first, last) in spans.items():
        ideal = sums[key][BETTOR_SUMS.index("ideal")]
        for coup, ev_first, ev_scale in positive[key[1]]:
            if first <= coup <= last:
                ideal[ev_scale] = ideal.get(ev_scale, 0) + ev_first
    places: dict[tuple[str, str], tuple[list[int], list[float], bytearray]] = {key: ([], [], bytearray()) for key in
                                                                               spans}
    for (who, bet, coup), stake in staked.items():
        at_list, stakes, results = places[who, bet]
        at_list.append(coup - spans[who, bet][0])
        stakes.append(stake.numerator / stake.denominator)  # the float nearest the stake, as float() gives
        net = settled[who, bet, coup].numerator
        results.append(WON if net > 0 else LOST if net < 0 else PUSHED)
    bettors = tuple(BettorPart(who, bet, wagers[who, bet], sums[who, bet], *spans[who, bet], tuple(places[who, bet][0]),
                               tuple(places[who, bet][1]), bytes(places[who, bet][2])) for who, bet in spans)
    evs = {bet: array("d", [first / scale for first, scale in column]) for bet, column in shoe.evs.items()}
    return ShoeTally(shoe.shoe, shoe.table, shoe.coups, len(shoe.wagers), shoe.findings, shoe.bad, evs, table_sums,
                     bettors, shoe.wagers if keep_wagers else ())
