"""The registry of plots: every kind by name (``PLOTS``, its modules imported on first use) and :func:`render_plot`.

The modules of plots import :mod:`.base`, and this module imports them only when a plot is
drawn or ``PLOTS`` is read, so importing the registry (as the CLI does at start-up) stays cheap.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..errors import ExactOddsError, shown
from .base import DECKS, PlotFunction, PlotRequest, figure_bytes

#: The kinds of plot, in the order they are listed, each with what it draws (the command's help and the docs say it).
KINDS: dict[str, str] = {
    "eor": "the effect of removal of each rank on one bet",
    "decks": f"house edge by number of decks, {DECKS[0]}-{DECKS[-1]}, and infinite for a game that prices it",
    "shoe-ev": "a bet's exact EV through simulated shoes",
    "threshold": "the lab's win rate against the count threshold",
}
#: The kinds drawn from exact figures; the others are drawn from the lab's simulated shoes (a seed, shoes, params).
EXACT_KINDS = ("eor", "decks")
if TYPE_CHECKING:
    PLOTS: dict[str, PlotFunction]


@cache
def _plots() -> dict[str, PlotFunction]:
    """Every kind of plot by name, from the modules that draw them."""
    from .lab_plots import shoe_ev_plot, threshold_plot
    from .odds_plots import decks_plot, eor_plot

    plots: dict[str, PlotFunction] = {"eor": eor_plot, "decks": decks_plot, "shoe-ev": shoe_ev_plot,
                                      "threshold": threshold_plot}
    assert tuple(plots) == tuple(KINDS)
    return plots


def __getattr__(name: str) -> dict[str, PlotFunction]:
    """``PLOTS``, every kind of plot by name: its modules are imported on first use (PEP 562)."""
    if name != "PLOTS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _plots()


def render_plot(kind: str, request: PlotRequest, fmt: str) -> bytes:
    """Draw the plot ``kind`` for ``request`` as ``fmt`` bytes; an unknown kind is an error.

    >>> from exactodds.cards import Shoe
    >>> from exactodds.games import DEFAULT
    >>> render_plot("pie", PlotRequest(DEFAULT, DEFAULT.settings_of({}), Shoe.standard(8)), "png")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown plot 'pie': use one of ...
    """
    plots = _plots()
    if kind not in plots:
        raise ExactOddsError(f"unknown plot {shown(kind)!r}: use one of {', '.join(sorted(plots))}")
    return figure_bytes(plots[kind](request), fmt)
