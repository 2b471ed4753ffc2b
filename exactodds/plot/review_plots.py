"""The plot of a review (``review --output``): a flagged bettor's stake against the exact EV at every coup he was at the
table, each coup coloured by its result. Drawn from a review's figures, not from a :class:`~.base.PlotRequest`: it is
no kind of ``exactodds plot``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ..review.tally import LOST, NOT_BET, PUSHED, RESULTS, WON
from .base import literal, new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Each result's colour and marker, in the order drawn (the coups not bet first, under the others).
_STYLES = ((NOT_BET, "#bbbbbb", "o"), (LOST, "#d7301f", "v"), (PUSHED, "#fdae61", "s"), (WON, "#1a9850", "^"))


def stake_ev_plot(title: str, stakes: Sequence[float], evs: Sequence[float], results: Sequence[int],
                  caption: str) -> Figure:
    """One bettor's bet: per coup at the table, his stake (0 where he did not bet) against the exact EV per unit of the
    bet on the cards left before the coup (in %), coloured by the result by the coup's cards (:data:`RESULTS`).

    >>> fig = stake_ev_plot("x on tie", [0.0, 5.0, 5.0], [-0.1, 0.02, 0.03], [NOT_BET, WON, LOST], "a caption")
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['not bet (1)', 'lost (1)', 'won (1)']
    """
    figure = new_figure(8.0, 4.6)
    axes = figure.add_subplot()
    for code, colour, marker in _STYLES:
        chosen = [i for i, r in enumerate(results) if r == code]
        if not chosen:
            continue
        axes.scatter([100 * evs[i] for i in chosen], [stakes[i] for i in chosen], s=14, c=colour, marker=marker,
                     alpha=0.5 if code == NOT_BET else 0.85, linewidths=0, label=f"{RESULTS[code]} ({len(chosen):,})")
    axes.axvline(0, color="#222222", linewidth=0.8)
    axes.set_xlabel("exact EV of the bet per unit staked, on the cards left before the coup, %")
    axes.set_ylabel("stake (0: not bet)")
    axes.set_title(literal(title, 120))
    axes.grid(color="#dddddd", linewidth=0.5)
    axes.set_axisbelow(True)
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="result", title_fontsize=8)
    figure.text(0.5, 0.005, literal(caption), ha="center", va="bottom", fontsize=7, color="#444444", wrap=True)
    cast(Any, figure.get_layout_engine()).set(rect=(0, 0.06, 1, 0.94))  # room for the caption
    return figure
