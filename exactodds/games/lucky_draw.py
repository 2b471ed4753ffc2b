"""Lucky Draw Baccarat in the registry: the player sees his two cards and the dealer's upcard, then stands or doubles
his stake for one more card.

:data:`GAME` is the game (``odds --game lucky-draw``): one fact, ``outcome``, counted by
:func:`count` under the settings ``pay-table`` and ``strategy``, and the chart printed after the bet
(:func:`strategy_chart`). Its rules, pays and counting convention are :mod:`exactodds.luckydraw`;
its exact solver, :mod:`exactodds.luckydraw.solver`, is loaded when a shoe is priced.

>>> GAME.price(Shoe.standard(8), None, GAME.settings_of({"pay-table": "2"})).bet("lucky-draw").house_edge_percent(2)
'3.34%'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..analysis import Chart
from ..cards import Shoe
from ..game import Tables
from ..inputs import Input
from ..luckydraw import BET_ID, COUNTING, OUTCOMES, PAY_TABLES, STRATEGIES, WIN_7, nets
from .dealt import DealFact, DealtGame, Pays, SettingValue

if TYPE_CHECKING:
    from ..luckydraw.solver import LuckyDraw


def _game(shoe: Shoe, settings: Mapping[str, SettingValue]) -> LuckyDraw:
    """The bet priced under the settings' pay table and strategy (the words of ``--pay-table`` and ``--strategy``)."""
    from ..luckydraw.solver import lucky_draw

    return lucky_draw(shoe, int(str(settings["pay-table"])), str(settings["strategy"]))


def count(shoe: Shoe, settings: Mapping[str, SettingValue]) -> dict[str, int]:
    """Each outcome's count of ordered six-card draws under the settings, by outcome id (absent: none)."""
    return {outcome: n for outcome, n in _game(shoe, settings).by_outcome().items() if n}


def strategy_chart(shoe: Shoe, settings: Mapping[str, SettingValue]) -> Chart:
    """The chart the player plays on ``shoe`` under the settings: :meth:`~exactodds.luckydraw.solver.LuckyDraw.chart`,
    for the commands.

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
    states=lambda: OUTCOMES,
    count=count,
    bets_file="lucky-draw.toml",
    pays=(
        Pays(
            Input("pay-table", "choice", "The Draw bet's pay table: 1 (a three-card 7 pays 2:1) or 2 (3:2).",
                  metavar="TABLE", choices=tuple(map(str, PAY_TABLES))),
            "choice", ((BET_ID, OUTCOMES[WIN_7]),), tuple(nets(table)[WIN_7] for table in PAY_TABLES),
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
