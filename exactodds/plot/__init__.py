"""Plots (PNG or SVG, byte-deterministic): the registry of kinds, ``PLOTS``.

Each kind is a function from a :class:`~.base.PlotRequest` to a matplotlib ``Figure``;
``PLOTS`` maps the kind's name (``exactodds plot KIND``) to it, and
:func:`~.base.render_plot` turns it into bytes. matplotlib is imported only inside the
functions that draw, and the modules of plots (and the lab, and numpy, that they need)
only when ``PLOTS`` is first read, so importing this package (as the CLI does at start-up)
stays cheap. Modules of plots: :mod:`.odds_plots` (``eor``, ``decks``) and
:mod:`.lab_plots` (``shoe-ev``, ``threshold``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import REPORT_EXTRA, PlotFunction, PlotRequest, figure_bytes, new_figure, render_plot, require

#: The kinds of plot, in the order they are listed.
KINDS = ("eor", "decks", "shoe-ev", "threshold")
if TYPE_CHECKING:
    PLOTS: dict[str, PlotFunction]


def __getattr__(name: str) -> dict[str, PlotFunction]:
    """``PLOTS``, every kind of plot by name: its modules are imported on first use (PEP 562)."""
    if name != "PLOTS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .lab_plots import shoe_ev_plot, threshold_plot
    from .odds_plots import decks_plot, eor_plot

    plots: dict[str, PlotFunction] = {"eor": eor_plot, "decks": decks_plot, "shoe-ev": shoe_ev_plot,
                                      "threshold": threshold_plot}
    assert tuple(plots) == KINDS
    globals()["PLOTS"] = plots
    return plots

__all__ = [
    "KINDS",
    "PLOTS",
    "REPORT_EXTRA",
    "PlotFunction",
    "PlotRequest",
    "figure_bytes",
    "new_figure",
    "render_plot",
    "require",
]
