"""Lucky Draw Baccarat priced exactly (the rules and the counting convention: :mod:`exactodds.luckydraw`).

The player decides on what he sees: his two cards and the dealer's upcard. ``optimal`` draws
where the exact conditional EV of drawing, with the three seen cards removed from the shoe, is
greater than that of standing; ``total`` takes one decision per player total and upcard, the best
such chart (each cell decided by the sum of the gains of drawing over the hands it holds). On
equal terms the player stands (no second stake for nothing).

>>> from exactodds.exact import decimal_text
>>> game = lucky_draw(Shoe.standard(8))
>>> decimal_text(game.ev, 6), game.count("win-lucky-9") // 2
('-0.017931', 134129168192512)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..cards import Shoe
from ..errors import ExactOddsError, shown
from . import (
    BET_ID,
    LOSE_DRAW,
    LOSE_STAND,
    OUTCOMES,
    STRATEGIES,
    TIE_DRAW,
    TIE_STAND,
    WIN_7,
    WIN_8,
    WIN_9,
    WIN_DRAW,
    WIN_STAND,
    nets,
)

#: The outcome of a win after drawing, by the player's three-card total (any other total: ``win-on-draw``).
_LUCKY = {9: WIN_9, 8: WIN_8, 7: WIN_7}


@dataclass(frozen=True, order=True)
class Hand:
    """What the player sees when he decides: the values of his two cards (low first) and of the dealer's upcard.

    >>> Hand((7, 3), 9)
    Hand(cards=(3, 7), upcard=9)
    >>> Hand((7, 3), 9).total
    0
    """

    cards: tuple[int, int]
    upcard: int

    def __post_init__(self) -> None:
        values = (*self.cards, self.upcard)
        if len(self.cards) != 2 or not all(type(v) is int and 0 <= v <= 9 for v in values):
            raise ExactOddsError(f"a hand is two card values and an upcard, each 0-9, not {self.cards}, {self.upcard}")
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    @property
    def total(self) -> int:
        """The player's two-card total."""
        return sum(self.cards) % 10


@dataclass(frozen=True)
class Cell:
    """The coups that start with one seen hand: each outcome's count if the player stands, and if he draws.

    ``stand`` and ``draw`` are full count tuples (in the order of :data:`OUTCOMES`; the other
    choice's outcomes are 0), both out of the same number of orderings, ``deals``.
    """

    hand: Hand
    stand: tuple[int, ...]
    draw: tuple[int, ...]

    @property
    def deals(self) -> int:
        """The ordered six-card draws that start with this hand (the player's cards in either order)."""
        return sum(self.stand)

    def ev(self, draws: bool, pay_table: int = 1) -> Fraction:
        """The exact EV per Enter bet of standing or drawing, given the three seen cards."""
        counts = self.draw if draws else self.stand
        return Fraction(sum(n * c for n, c in zip(nets(pay_table), counts)), self.deals)

    def gain(self, pay_table: int = 1) -> Fraction:
        """What drawing gains over standing, summed over this hand's deals (net units times orderings)."""
        return sum((n * (d - s) for n, d, s in zip(nets(pay_table), self.draw, self.stand)), Fraction(0))


def _dealer_finals(shoe: Sequence[int], upcard: int, left: int) -> list[int]:
    """Ordered (hole card, dealer's third card) draws from ``shoe`` (``left`` cards), by the dealer's final total.

    A dealer who stands on two cards is counted once for each of the ``left - 1`` cards that could complete the pair.
    """
    finals = [0] * 10
    for hole, holes in enumerate(shoe):
        if not holes:
            continue
        two = (upcard + hole) % 10
        if two >= 5:
            finals[two] += holes * (left - 1)
            continue
        for third, n in enumerate(shoe):
            n -= third == hole
            if n > 0:
                finals[(two + third) % 10] += holes * n
    return finals


def _settle(player: int, finals: Sequence[int]) -> tuple[int, int, int]:
    """(win, lose, tie) counts of a player total against the dealer's final totals."""
    win = sum(finals[:player])
    tie = finals[player]
    return win, sum(finals) - win - tie, tie


def _cell(shoe: tuple[int, ...], hand: Hand) -> Cell:
    """The counts of the coups that start with ``hand`` in a shoe of these value counts (it must hold the hand)."""
    left = list(shoe)
    seen = 2 if hand.cards[0] != hand.cards[1] else 1  # the player's two cards come in either order
    for value in (*hand.cards, hand.upcard):
        seen *= left[value]
        left[value] -= 1
    rest = sum(left)
    stand = [0] * 9
    win, lose, tie = _settle(hand.total, _dealer_finals(left, hand.upcard, rest))
    # Standing leaves one of the six cards unused: each of the rest - 2 cards completes the draw.
    stand[WIN_STAND], stand[LOSE_STAND], stand[TIE_STAND] = (seen * n * (rest - 2) for n in (win, lose, tie))
    draw = [0] * 9
    for third, n in enumerate(left):
        if not n:
            continue
        left[third] -= 1
        total = (hand.total + third) % 10
        win, lose, tie = _settle(total, _dealer_finals(left, hand.upcard, rest - 1))
        left[third] += 1
        lucky = _LUCKY.get(total, WIN_DRAW)
        draw[lucky] += seen * n * win
        draw[LOSE_DRAW] += seen * n * lose
        draw[TIE_DRAW] += seen * n * tie
    return Cell(hand, tuple(stand), tuple(draw))


def hands() -> Iterator[Hand]:
    """Every hand the player may see: 55 pairs of card values by 10 upcards, in order.

    >>> sum(1 for _ in hands()), next(hands())
    (550, Hand(cards=(0, 0), upcard=0))
    """
    for low in range(10):
        for high in range(low, 10):
            for upcard in range(10):
                yield Hand((low, high), upcard)


def _deals(values: Sequence[int], hand: Hand) -> bool:
    """Whether a shoe of these value counts holds the three cards of ``hand``."""
    seen = (*hand.cards, hand.upcard)
    return all(seen.count(value) <= values[value] for value in seen)


@lru_cache(maxsize=8)
def cells(values: tuple[int, ...]) -> tuple[Cell, ...]:
    """The cell of every hand a shoe of these value counts can deal (hands it cannot deal are left out).

    >>> from exactodds.cards import Shoe
    >>> shoe = Shoe.standard(8)
    >>> sum(cell.deals for cell in cells(shoe.value_counts())) == shoe.orderings()
    True
    """
    return tuple(_cell(values, hand) for hand in hands() if _deals(values, hand))


def cell(shoe: Shoe, hand: Hand) -> Cell:
    """The coups on ``shoe`` that start with ``hand``, counted alone: what standing and drawing are worth there.

    >>> from exactodds.cards import Shoe
    >>> seen = cell(Shoe.standard(8), Hand((0, 9), 0))
    >>> seen.ev(draws=False) < seen.ev(draws=True)
    True
    """
    if not _deals(shoe.value_counts(), hand):
        raise ExactOddsError(f"the shoe cannot deal {hand.cards[0]},{hand.cards[1]} against {hand.upcard}")
    return _cell(shoe.value_counts(), hand)


@dataclass(frozen=True)
class LuckyDraw:
    """The ``lucky-draw`` bet priced on one shoe under one pay table and strategy: each outcome's exact count.

    >>> from exactodds.cards import Shoe
    >>> game = lucky_draw(Shoe.standard(8), pay_table=2, strategy="total")
    >>> game.draws_on(Hand((2, 3), 7)), game.draws_on(Hand((3, 4), 7)), game.orderings == sum(game.counts)
    (True, False, True)
    """

    shoe: Shoe
    pay_table: int
    strategy: str
    #: The hands on which the player draws (he stands on every other).
    draws: frozenset[Hand]
    #: Each outcome's count of ordered six-card draws, in the order of :data:`OUTCOMES`.
    counts: tuple[int, ...]

    @property
    def orderings(self) -> int:
        """N(N-1)…(N-5): what every count is out of."""
        return self.shoe.orderings()

    @property
    def nets(self) -> tuple[Fraction, ...]:
        """Each outcome's net per Enter bet under this pay table."""
        return nets(self.pay_table)

    @property
    def ev(self) -> Fraction:
        """The exact expected net per Enter bet (the return; the house edge is its negative)."""
        return Fraction(sum(n * c for n, c in zip(self.nets, self.counts)), self.orderings)

    def by_outcome(self) -> dict[str, int]:
        """Each outcome's count by id, in the order of :data:`OUTCOMES`."""
        return dict(zip(OUTCOMES, self.counts))

    def count(self, outcome: str) -> int:
        """One outcome's count by id."""
        if outcome not in OUTCOMES:
            raise ExactOddsError(f"unknown outcome {shown(outcome)!r} of {BET_ID}: use one of {', '.join(OUTCOMES)}")
        return self.counts[OUTCOMES.index(outcome)]

    def draws_on(self, hand: Hand) -> bool:
        """Whether the player draws on this hand."""
        return hand in self.draws

    def chart(self) -> tuple[tuple[str, str], ...]:
        """The chart: a row per pair of card values (``"2,3"``), or per total under ``total``; by upcard 0-9.

        ``D`` draw, ``S`` stand, ``-`` a hand the shoe cannot deal.

        >>> from exactodds.cards import Shoe
        >>> lucky_draw(Shoe.standard(8), strategy="total").chart()[5]
        ('5', 'DDDDDDDDSS')
        """
        dealt = {entry.hand for entry in cells(self.shoe.value_counts())}
        if self.strategy == "total":
            rows = [(str(t), [h for h in dealt if h.total == t]) for t in range(10)]
        else:
            pairs = sorted({h.cards for h in dealt})
            rows = [(f"{a},{b}", [h for h in dealt if h.cards == (a, b)]) for a, b in pairs]
        lines = []
        for label, held in rows:
            by_upcard = {h.upcard: h in self.draws for h in held}
            letters = "".join("-" if u not in by_upcard else "D" if by_upcard[u] else "S" for u in range(10))
            lines.append((label, letters))
        return tuple(lines)


def decide(shoe: Shoe, pay_table: int = 1, strategy: str = "optimal") -> frozenset[Hand]:
    """The hands on which the player draws under ``strategy``: by the hand itself, or by its total and upcard.

    >>> from exactodds.cards import Shoe
    >>> Hand((0, 9), 0) in decide(Shoe.standard(8)), Hand((0, 9), 0) in decide(Shoe.standard(8), pay_table=2)
    (True, False)
    """
    if strategy not in STRATEGIES:
        raise ExactOddsError(f"unknown strategy {shown(strategy)!r}: use one of {', '.join(STRATEGIES)}")
    nets(pay_table)  # checks the pay table
    dealt = cells(shoe.value_counts())
    if strategy == "optimal":
        return frozenset(entry.hand for entry in dealt if entry.gain(pay_table) > 0)
    gains: dict[tuple[int, int], Fraction] = {}
    for entry in dealt:
        key = (entry.hand.total, entry.hand.upcard)
        gains[key] = gains.get(key, Fraction(0)) + entry.gain(pay_table)
    return frozenset(entry.hand for entry in dealt if gains[entry.hand.total, entry.hand.upcard] > 0)


def price(shoe: Shoe, draws: frozenset[Hand], pay_table: int = 1, strategy: str = "chart") -> LuckyDraw:
    """Price any chart: the player draws on the hands of ``draws`` and stands on the others.

    >>> from exactodds.cards import Shoe
    >>> price(Shoe.standard(8), frozenset()).ev < lucky_draw(Shoe.standard(8)).ev
    True
    """
    nets(pay_table)  # checks the pay table
    counts = [0] * len(OUTCOMES)
    for entry in cells(shoe.value_counts()):
        for i, n in enumerate(entry.draw if entry.hand in draws else entry.stand):
            counts[i] += n
    return LuckyDraw(shoe, pay_table, strategy, draws, tuple(counts))


def lucky_draw(shoe: Shoe, pay_table: int = 1, strategy: str = "optimal") -> LuckyDraw:
    """The ``lucky-draw`` bet on ``shoe`` under pay table 1 or 2, the player playing the ``optimal`` or ``total`` chart.

    >>> from exactodds.cards import Shoe
    >>> from exactodds.exact import percent_text
    >>> percent_text(-lucky_draw(Shoe.standard(8), pay_table=2).ev, 2)
    '3.34%'
    """
    return price(shoe, decide(shoe, pay_table, strategy), pay_table, strategy)
