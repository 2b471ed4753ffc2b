"""The big table's option on 5: when the Player's holder should stand, and what the option is worth.

At the mini table the Player must draw on a two-card 5; at the big table (the rule sheets'
"modalidad" other than Mini) the holder of the Player hand may draw or stand, and with the
cards dealt face up he sees all four before choosing. Seeing them, he knows exactly what the
shoe holds for cards 5 and 6, so for each Player five (its two card values) and Banker hand
the better choice for the Player bet is an exact comparison: the orderings of cards 5 and 6
won less those lost, drawing against standing (:func:`exactodds.puntobanco.engine.best_for_player`).

:func:`player_five_chart` gives that choice for every Player five and Banker two-card hand
of a shoe, with the gain of standing where it is better; :func:`option_figures` the Player
and Banker house edges when the holder always draws, always stands, or chooses well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..analysis import Analysis
from ..cards import Shoe
from ..errors import ExactOddsError
from .engine import coup_endings
from .events import Bet
from .odds import analyze
from .rules import COMPOSITIONS, PLAYER_FIVE, PLAYER_FIVES, RuleSet, deal_table

# The holder's chart is by the Player's two-card fives (PLAYER_FIVES) and the Banker's non-natural two-card hands
# (COMPOSITIONS), by card values ascending (0 for a ten or face card): chemin de fer's decisions and cells too.


@dataclass(frozen=True)
class FiveChoice:
    """The holder's best choice for one Player five against one Banker hand, seeing the four cards.

    ``gain`` is the Player bet's EV of standing less that of drawing, given the four cards
    (positive: stand; zero or negative: draw, the mini table's rule).
    """

    player: tuple[int, int]
    banker: tuple[int, int]
    gain: Fraction

    @property
    def stands(self) -> bool:
        """Whether the holder stands (only when standing is strictly better for the Player bet)."""
        return self.gain > 0


def player_five_chart(shoe: Shoe, rules: RuleSet) -> tuple[FiveChoice, ...]:
    """For every Player five and Banker hand the shoe can deal, the holder's best choice and its gain.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> chart = player_five_chart(Shoe.standard(8), PUNTO_BANCO)
    >>> [(c.player, c.banker) for c in chart if not c.stands][:3]  # against a Banker 6 or 7 he draws
    [((0, 5), (0, 6)), ((0, 5), (0, 7)), ((0, 5), (1, 5))]
    """
    draws = deal_table(rules.tableau.with_player_five(True))
    stands = deal_table(rules.tableau.with_player_five(False))
    full = shoe.value_counts()
    size = shoe.size
    if size < 6:
        raise ExactOddsError(f"a coup needs 6 cards in the shoe; this one has {size}")
    out = []
    for player in PLAYER_FIVES:
        for banker in COMPOSITIONS:
            left = list(full)
            for v in (*player, *banker):
                left[v] -= 1
            if min(left) < 0:
                continue  # the shoe cannot deal these four cards
            banker_total = sum(banker) % 10
            won = [_won_less_lost(table, banker_total, left, size) for table in (stands, draws)]
            gain = Fraction(won[0] - won[1], (size - 4) * (size - 5))
            out.append(FiveChoice(player, banker, gain))
    return tuple(out)


def _won_less_lost(table: tuple[tuple[int, int, int, int], ...], banker: int, left: list[int], size: int) -> int:
    """Orderings of cards 5 and 6 in which a Player five wins, less those in which it loses."""
    return sum(n * ((pt > bt) - (bt > pt)) for (pt, bt, _, _), n in coup_endings(table, 5, banker, left, size))


@dataclass(frozen=True)
class OptionFigures:
    """The Player, Banker and Tie bets when the holder always draws on 5, always stands, or chooses best."""

    #: The rules the option is priced under (each policy replaces their Player's 5).
    rules: RuleSet
    draw: Analysis
    stand: Analysis
    best: Analysis

    @property
    def worth(self) -> Fraction:
        """What the option is worth to the Player bet: its EV when the holder chooses well, less when he draws."""
        return self.best.bet("player").ev - self.draw.bet("player").ev


def option_figures(shoe: Shoe, rules: RuleSet, more: Sequence[Bet] = ()) -> OptionFigures:
    """The Player, Banker and Tie bets (then the bets ``more``, of a bets file) under each policy for the Player's 5.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> figures = option_figures(Shoe.standard(8), PUNTO_BANCO)
    >>> figures.best.bet("player").house_edge_percent(4), figures.best.bet("banker").house_edge_percent(4)
    ('0.6459%', '1.6364%')
    """
    for bet in more:  # refused before the work: the holder's choice is priced on coup states, not on cards
        if bet.reads_cards:
            raise ExactOddsError(
                f"bet {bet.id} reads the dealt cards: it cannot be priced under the holder's choice on 5"
                " (odds --player-5 draw or stand prices it)"
            )
    bets: list[str | Bet] = ["player", "banker", "tie", *more]
    priced = {choice: analyze(shoe, rules.with_player_five(choice), bets) for choice in PLAYER_FIVE}
    return OptionFigures(rules, **priced)
