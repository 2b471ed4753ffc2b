"""Lucky Draw Baccarat priced exactly: the player's draw-or-stand decision against the dealer's upcard.

The player gets two cards face up, the dealer one up and one down. The player stands, or places a
Draw bet equal to his Enter bet and takes exactly one card; the dealer draws one card on a two-card
total of 4 or less; the higher total wins and a tie pushes both bets. The Enter bet pays 1:1; the
Draw bet pays by the player's three-card total when he wins: 9 pays 3:1, 8 pays 2:1, 7 pays 2:1
(pay table 1) or 3:2 (pay table 2), 6 or less 1:1.

The one bet, ``lucky-draw``, settles both stakes: each outcome's net is per Enter bet, the Draw
bet's result included (a win on a three-card 9 is +1 on the Enter bet and +3 on the Draw bet: +4).

Counting convention: the ordered six-card draws of :meth:`~exactodds.cards.Shoe.orderings`, as for
punto banco. The cards are dealt in the order player, player, dealer's upcard, dealer's hole card,
player's third card, dealer's third card (the order does not change any probability); a coup that
deals fewer than six cards (the player stands, or the dealer stands on his two cards) is counted
once for each ordered way to complete it to six cards with cards left in the shoe. So every count
is an integer out of N(N-1)…(N-5), the number of orderings of six cards.

The player decides on what he sees: his two cards and the dealer's upcard. ``optimal`` draws
where the exact conditional EV of drawing, with the three seen cards removed from the shoe, is
greater than that of standing; ``total`` takes one decision per player total and upcard, the best
such chart (each cell decided by the sum of the gains of drawing over the hands it holds). On
equal terms the player stands (no second stake for nothing).

:data:`GAME` is the game in the registry (``odds --game lucky-draw``): one fact, ``outcome``, counted
by :func:`count` under the settings ``pay-table`` and ``strategy``, and the chart printed after the bet
(:func:`strategy_chart`).

>>> from exactodds.cards import Shoe
>>> from exactodds.exact import decimal_text
>>> game = lucky_draw(Shoe.standard(8))
>>> decimal_text(game.ev, 6), game.count("win-lucky-9") // 2
('-0.017931', 134129168192512)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..analysis import Chart
from ..cards import Shoe
from ..errors import ExactOddsError
from ..game import Tables
from ..inputs import Input
from .dealt import DealFact, DealtGame, Pays, SettingValue

#: The bet's id, and its outcomes in the order of every count tuple of this module.
BET_ID = "lucky-draw"
OUTCOMES: tuple[str, ...] = (
    "win-lucky-9",
    "win-lucky-8",
    "win-lucky-7",
    "win-on-draw",
    "lose-on-draw",
    "tie-on-draw",
    "win-on-stand",
    "lose-on-stand",
    "tie-on-stand",
)
#: The indexes of the outcomes in the count tuples (the draw outcomes first, then the stand outcomes).
_WIN_9, _WIN_8, _WIN_7, _WIN_DRAW, _LOSE_DRAW, _TIE_DRAW, _WIN_STAND, _LOSE_STAND, _TIE_STAND = range(9)
#: The outcome of a win after drawing, by the player's three-card total (any other total: ``win-on-draw``).
_LUCKY = {9: _WIN_9, 8: _WIN_8, 7: _WIN_7}
#: What every count counts, in words (for the JSON's ``counting``).
COUNTING = (
    "ordered draws of six cards: the player's two, the dealer's upcard and hole card, the player's third, the"
    " dealer's third; a coup that deals fewer is counted once per ordered completion to six: N(N-1)…(N-5)"
)
#: The strategies priced: the choices of ``--strategy``.
STRATEGIES: tuple[str, ...] = ("optimal", "total")
#: The Draw bet's pay on a three-card 7 by pay table (every other pay is the same in both): ``--pay-table``.
LUCKY_7_PAYS: dict[int, Fraction] = {1: Fraction(2), 2: Fraction(3, 2)}
PAY_TABLES: tuple[int, ...] = tuple(LUCKY_7_PAYS)


def nets(pay_table: int = 1) -> tuple[Fraction, ...]:
    """The net of each outcome per Enter bet (Enter and Draw bets together), in the order of :data:`OUTCOMES`.

    >>> [str(n) for n in nets(2)]
    ['4', '3', '5/2', '2', '-2', '0', '1', '-1', '0']
    """
    if type(pay_table) is not int or pay_table not in LUCKY_7_PAYS:
        raise ExactOddsError(f"unknown pay table {pay_table!r}: Lucky Draw has pay tables 1 and 2")
    one = Fraction(1)
    return (one + 3, one + 2, one + LUCKY_7_PAYS[pay_table], one + 1, -2 * one, 0 * one, one, -one, 0 * one)


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
    stand[_WIN_STAND], stand[_LOSE_STAND], stand[_TIE_STAND] = (seen * n * (rest - 2) for n in (win, lose, tie))
    draw = [0] * 9
    for third, n in enumerate(left):
        if not n:
            continue
        left[third] -= 1
        total = (hand.total + third) % 10
        win, lose, tie = _settle(total, _dealer_finals(left, hand.upcard, rest - 1))
        left[third] += 1
        lucky = _LUCKY.get(total, _WIN_DRAW)
        draw[lucky] += seen * n * win
        draw[_LOSE_DRAW] += seen * n * lose
        draw[_TIE_DRAW] += seen * n * tie
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
            raise ExactOddsError(f"unknown outcome {outcome!r} of {BET_ID}: use one of {', '.join(OUTCOMES)}")
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
        raise ExactOddsError(f"unknown strategy {strategy!r}: use one of {', '.join(STRATEGIES)}")
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


def _game(shoe: Shoe, settings: Mapping[str, SettingValue]) -> LuckyDraw:
    """The bet priced under the settings' pay table and strategy (the words of ``--pay-table`` and ``--strategy``)."""
    return lucky_draw(shoe, int(str(settings["pay-table"])), str(settings["strategy"]))


def count(shoe: Shoe, settings: Mapping[str, SettingValue]) -> dict[str, int]:
    """Each outcome's count of ordered six-card draws under the settings, by outcome id (absent: none)."""
    return {outcome: n for outcome, n in _game(shoe, settings).by_outcome().items() if n}


def strategy_chart(shoe: Shoe, settings: Mapping[str, SettingValue]) -> Chart:
    """The chart the player plays on ``shoe`` under the settings: :meth:`LuckyDraw.chart`, for the commands.

    >>> strategy_chart(Shoe.standard(8), {"pay-table": "1", "strategy": "total"}).cells[8]
    ('8', 'SSSSSSSSSS')
    """
    game = _game(shoe, settings)
    held = "two cards (card values, 0 for a 10, J, Q or K)" if game.strategy == "optimal" else "total"
    return Chart(
        f"Strategy chart ({game.strategy}, pay table {game.pay_table}): the player's {held} against the dealer's"
        " upcard, 0-9",
        "cards" if game.strategy == "optimal" else "total",
        tuple(str(upcard) for upcard in range(10)),
        game.chart(),
        (("D", "draw"), ("S", "stand"), ("-", "the shoe cannot deal this hand")),
    )


GAME = DealtGame(
    name="lucky-draw",
    description="Lucky Draw Baccarat: the player sees his two cards and the dealer's upcard, then stands or doubles"
    " his stake with a Draw bet for one more card (paid more on a three-card 9, 8 or 7); priced for his best chart.",
    aliases=("lucky-draw-baccarat",),
    order=4,
    decks=8,
    tables=Tables(par_decks=(8,)),
    cards=6,
    convention=COUNTING,
    facts_of_deal=(DealFact("outcome", "how the coup ended for the player: " + ", ".join(OUTCOMES), OUTCOMES, str),),
    states=OUTCOMES,
    count=count,
    bets_file="lucky-draw.toml",
    pays=(
        Pays(
            Input("pay-table", "choice", "The Draw bet's pay table: 1 (a three-card 7 pays 2:1) or 2 (3:2).",
                  metavar="TABLE", choices=tuple(map(str, PAY_TABLES))),
            "choice", ((BET_ID, OUTCOMES[_WIN_7]),), tuple(nets(table)[_WIN_7] for table in PAY_TABLES),
        ),
        Pays(
            Input("strategy", "choice", "The player's chart: optimal (by his two cards and the upcard) or total (by"
                  " his total).", metavar="NAME", choices=STRATEGIES),
            "choice",
        ),
    ),
    chart=strategy_chart,
    stakes=2,
)
"""Lucky Draw Baccarat: 8 decks usual (its par sheet at 8, pay table 1, the optimal chart); its bet is in
``exactodds/data/lucky-draw.toml``, priced by :func:`count`."""
