"""Lucky Draw Baccarat: the player's draw-or-stand decision against the dealer's upcard, as data.

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

This package holds the game's outcomes, pays and strategies (what its declaration in the registry,
:mod:`exactodds.games.lucky_draw`, is made of); its exact solver is :mod:`.solver`, loaded when a
shoe is priced.

>>> OUTCOMES[WIN_7], str(nets(2)[WIN_7])
('win-lucky-7', '5/2')
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import ExactOddsError, shown

#: The bet's id, and its outcomes in the order of every count tuple of the solver.
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
WIN_9, WIN_8, WIN_7, WIN_DRAW, LOSE_DRAW, TIE_DRAW, WIN_STAND, LOSE_STAND, TIE_STAND = range(9)
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
        raise ExactOddsError(f"unknown pay table {shown(repr(pay_table))}: Lucky Draw has pay tables 1 and 2")
    one = Fraction(1)
    return (one + 3, one + 2, one + LUCKY_7_PAYS[pay_table], one + 1, -2 * one, 0 * one, one, -one, 0 * one)
