"""The plots of exact odds, for every game: ``eor`` (the effect of removal of each rank on a bet) and ``decks``
(house edge by decks).

The values are exact (:func:`exactodds.eor.removal_effects`, the game's :meth:`~exactodds.game.Game.price`, and
:meth:`~exactodds.game.Game.price_infinite` for a game with the capability ``infinite-shoe``); only the drawing
turns them into floats, at the very end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..cards import Shoe
from ..eor import EOR_SCALE, removal_effects
from ..errors import ExactOddsError
from ..exact import decimal_text
from ..present import shoe_rules_header
from ..version import __version__
from .base import DECKS, PlotRequest, literal, new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_INFINITY_AT = 14  # where the infinite shoe sits on the decks axis, after a gap


def _caption(figure: Figure, text: str) -> None:
    figure.text(0.5, 0.005, literal(text), ha="center", va="bottom", fontsize=7, color="#444444", wrap=True)


def eor_plot(request: PlotRequest) -> Figure:
    """The effect of removal of one card of each rank on one bet's EV (×10^7), as bars (``--bet``, default the game's:
    punto banco's dragon-7).

    >>> from exactodds.games import find_game
    >>> game = find_game("dragon-tiger")
    >>> fig = eor_plot(PlotRequest(game, game.settings_of({}), Shoe.standard(8), ("dragon-big",)))
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()][:3]
    ['A', '2', '3']
    """
    request.game.require("by-rank", "the eor plot")
    if len(request.bets) > 1:
        raise ExactOddsError("the eor plot draws one bet: give one --bet")
    bet = request.chosen("eor")[0]
    eor = removal_effects(request.game, request.settings, request.shoe, [bet], by="rank")
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
    """Each bet's exact house edge for 1…12 fresh decks, and the infinite shoe for a game that prices it (``--bet``,
    default the game's: punto banco's banker, player, tie).

    >>> from exactodds.games import find_game
    >>> game = find_game("punto-banco")
    >>> fig = decks_plot(PlotRequest(game, game.settings_of({}), Shoe.standard(8), ("banker",)))
    >>> fig.axes[0].get_xticklabels()[-1].get_text()
    '∞'
    """
    game, settings, rules = request.game, request.settings, request.rules
    bets = game.resolve(request.chosen("decks"), settings, suits=False)
    infinite = None
    if game.has("infinite-shoe"):  # first: it refuses what it cannot price before the shoes are priced
        for bet in bets:
            if bet.needs_suits:
                raise ExactOddsError(f"bet {bet.id} needs suits; the infinite shoe of the decks plot is known by rank")
        infinite = game.price_infinite(bets, settings)
    finite = [game.price(Shoe.standard(d), bets, settings) for d in DECKS]
    figure = new_figure(8.0, 4.8)
    axes = figure.add_subplot()
    markers = "osD^v<>ph*"
    for i, bet in enumerate(bets):
        edges = [float(a.bets[i].house_edge * 100) for a in finite]
        line = axes.plot(DECKS, edges, marker=markers[i % len(markers)], markersize=4, linewidth=1.2,
                         label=literal(bet.id))
        if infinite is not None:
            edge_inf = float(infinite[i].house_edge * 100)
            colour = line[0].get_color()
            axes.plot([_INFINITY_AT], [edge_inf], marker=markers[i % len(markers)], markersize=5, color=colour)
            axes.plot([DECKS[-1], _INFINITY_AT], [edges[-1], edge_inf], linestyle=":", color=colour)
    if infinite is not None:
        axes.set_xticks([*DECKS, _INFINITY_AT], [*(str(d) for d in DECKS), "∞"])
        axes.set_xlabel("number of 52-card decks in a fresh shoe (∞: cards drawn with replacement)")
    else:
        axes.set_xticks(list(DECKS), [str(d) for d in DECKS])
        axes.set_xlabel("number of 52-card decks in a fresh shoe")
    axes.set_ylabel("house edge per hand, %")
    axes.set_title(literal(f"House edge by number of decks · {rules.name}"))
    axes.grid(color="#dddddd", linewidth=0.5)
    axes.axhline(0, color="#222222", linewidth=0.8)
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="bet", title_fontsize=8)
    _caption(
        figure,
        f"Exact house edge per hand (pushes count as hands) under {rules.header()}."
        f" Source: exactodds {__version__}, exhaustive enumeration of each shoe"
        + ("; ∞ priced exactly on the infinite shoe." if infinite is not None else "."),
    )
    cast(Any, figure.get_layout_engine()).set(rect=(0, 0.06, 1, 0.94))
    return figure
