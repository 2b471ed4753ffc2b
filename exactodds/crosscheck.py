"""What a game's pricing is set beside in a report: a second, independent count of its bets (:class:`Reference`, the
capability ``reference``) and the published figures about them (:class:`Citation`).

A :class:`~exactodds.game.Game` answers both (:meth:`~exactodds.game.Game.reference`,
:meth:`~exactodds.game.Game.published`); the report (:mod:`exactodds.report.checks`) compares them
with the game's own figures. Only the report needs them: they are made when it runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .analysis import Analysis


@dataclass(frozen=True)
class Reference:
    """A second count of a game's bets on a shoe, independent of its pricing (capability ``reference``), and how a
    report names the two counts it compares.

    >>> from exactodds.cards import Shoe
    >>> from exactodds.games import find_game
    >>> game = find_game("punto-banco")
    >>> settings = game.settings_of({})
    >>> ref = game.reference(Shoe.standard(1), game.resolve(["tie"], settings), settings)
    >>> ref.names, ref.analysis.bet("tie").outcomes[0].count
    (('compiled', 'reference'), 1372227328)
    """

    analysis: Analysis
    #: The two counts in short, the pricing's then the reference's (``compiled``, ``reference``).
    names: tuple[str, str]
    #: The two counts in words, for the report's cross-check.
    described: str
    #: What a reader of the comparison should know (bets both counts price alike), or "".
    note: str = ""


@dataclass(frozen=True)
class Citation:
    """A published figure about a bet priced on its very shoe and rules, the exact value, and whether they agree.

    >>> Citation("banker", "house_edge", "1.0579%", "1.057936%", True, "Wizard of Odds").agrees
    True
    """

    bet: str
    figure: str
    printed: str
    exact: str
    agrees: bool
    source: str
