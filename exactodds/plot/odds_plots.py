"""The plots of exact odds: ``eor`` (the effect of removal of each rank on a bet) and ``decks`` (house edge by decks).

The values are exact (:mod:`exactodds.eor`, :mod:`exactodds.puntobanco.odds`,
:mod:`exactodds.puntobanco.infinite`); only the drawing turns them into floats, at the very end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..cards import Shoe
from ..eor import EOR_SCALE, effect_of_removal
from ..errors import ExactOddsError
from ..exact import decimal_text
from ..paytable import Bet as AnyBet
from ..present import shoe_rules_header
from ..puntobanco.infinite import analyze_infinite
from ..puntobanco.odds import analyze, resolve_bets
from ..version import __version__
from .base import PlotRequest, literal, new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The numbers of decks of the ``decks`` plot; the infinite shoe is drawn after them.
DECKS = tuple(range(1, 13))
#: The bets of the ``decks`` plot when none is named.
DEFAULT_DECKS_BETS = ("banker", "player", "tie")
_INFINITY_AT = 14  # where the infinite shoe sits on the decks axis, after a gap


def _caption(figure: Figure, text: str) -> None:
    figure.text(0.5, 0.005, literal(text), ha="center", va="bottom", fontsize=7, color="#444444", wrap=True)


def eor_plot(request: PlotRequest) -> Figure:
    """The effect of removal of one card of each rank on one bet's EV (×10^7), as bars (``--bet``, default dragon-7).

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> fig = eor_plot(PlotRequest(Shoe.standard(8), PUNTO_BANCO, ("dragon-7",)))
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()][:3]
    ['A', '2', '3']
    """
    if len(request.bets) > 1:
        raise ExactOddsError("the eor plot draws one bet: give one --bet")
    bet_id: str | AnyBet = request.bets[0] if request.bets else "dragon-7"
    eor = effect_of_removal(request.shoe, request.rules, [bet_id], by="rank")
    effects = eor.bets[0]
    labels = [r.label for r in eor.removals]
    scaled = effects.scaled(EOR_SCALE)
    heights = [0.0 if e is None else float(e) for e in scaled]
    figure = new_figure(8.0, 4.6)
    axes = figure.add_subplot()
    colours = ["#b2182b" if h > 0 else "#2166ac" for h in heights]
    axes.bar(labels, heights, color=colours, edgecolor="#222222", linewidth=0.5)
    axes.axhline(0, color="#222222", linewidth=0.8)
    for x, (h, e) in enumerate(zip(heights, scaled)):
        if e is not None:
            axes.annotate(
                f"{h:+.0f}", (x, h), ha="center", va="bottom" if h >= 0 else "top", fontsize=7,
                xytext=(0, 2 if h >= 0 else -2), textcoords="offset points",
            )
    axes.set_xlabel("rank of the card removed")
    axes.set_ylabel("change in EV per unit staked × 10⁷")
    axes.set_title(literal(f"Effect of removal: {effects.bet.id} (EV {decimal_text(effects.ev * 100, 4)}%)"))
    axes.margins(y=0.12)
    axes.grid(axis="y", color="#dddddd", linewidth=0.5)
    axes.set_axisbelow(True)
    _caption(
        figure,
        f"Exact EV(shoe less one card) − EV(shoe), ×10⁷."
        f" Shoe and rules: {shoe_rules_header(request.shoe, request.rules)}."
        f" Source: exactodds {__version__}, exhaustive enumeration.",
    )
    cast(Any, figure.get_layout_engine()).set(rect=(0, 0.06, 1, 0.94))  # room for the caption
    return figure


def decks_plot(request: PlotRequest) -> Figure:
    """Each bet's exact house edge for 1…12 fresh decks and the infinite shoe (``--bet``, default banker, player, tie).

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> fig = decks_plot(PlotRequest(Shoe.standard(8), PUNTO_BANCO, ("banker",)))
    >>> fig.axes[0].get_xticklabels()[-1].get_text()
    '∞'
    """
    rules = request.rules
    if rules.player_five == "best" or rules.player_five_draws is not None:
        raise ExactOddsError(
            "the decks plot needs one fixed tableau (the infinite shoe is walked with it): not the holder's best"
            " choice or a mixed policy on the Player's 5"
        )
    bets = resolve_bets(rules, request.bets or DEFAULT_DECKS_BETS, suits=False)
    for bet in bets:
        if bet.needs_suits:
            raise ExactOddsError(f"bet {bet.id} needs suits; the infinite shoe of the decks plot is known by rank")
    finite = [analyze(Shoe.standard(d), rules, bets) for d in DECKS]
    infinite = analyze_infinite(rules, bets)
    figure = new_figure(8.0, 4.8)
    axes = figure.add_subplot()
    markers = "osD^v<>ph*"
    for i, bet in enumerate(bets):
        edges = [float(a.bets[i].house_edge * 100) for a in finite]
        line = axes.plot(DECKS, edges, marker=markers[i % len(markers)], markersize=4, linewidth=1.2,
                         label=literal(bet.id))
        edge_inf = float(infinite[i].house_edge * 100)
        axes.plot([_INFINITY_AT], [edge_inf], marker=markers[i % len(markers)], markersize=5, color=line[0].get_color())
        axes.plot([DECKS[-1], _INFINITY_AT], [edges[-1], edge_inf], linestyle=":", color=line[0].get_color())
    axes.set_xticks([*DECKS, _INFINITY_AT], [*(str(d) for d in DECKS), "∞"])
    axes.set_xlabel("number of 52-card decks in a fresh shoe (∞: cards drawn with replacement)")
    axes.set_ylabel("house edge per hand, %")
    axes.set_title(literal(f"House edge by number of decks · {rules.name}"))
    axes.grid(color="#dddddd", linewidth=0.5)
    axes.axhline(0, color="#222222", linewidth=0.8)
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="bet", title_fontsize=8)
    _caption(
        figure,
        f"Exact house edge per hand (pushes count as hands) under {rules.header()}."
        f" Source: exactodds {__version__}, exhaustive enumeration of each shoe; ∞ from the 13⁶ rank sequences.",
    )
    cast(Any, figure.get_layout_engine()).set(rect=(0, 0.06, 1, 0.94))
    return figure
