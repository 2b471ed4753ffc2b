"""Plots (PNG or SVG, byte-deterministic): the registry of kinds, ``PLOTS``.

Each kind is a function from a :class:`~.base.PlotRequest` to a matplotlib ``Figure``;
``PLOTS`` maps the kind's name (``exactodds plot KIND``) to it, and
:func:`~.base.render_plot` turns it into bytes. matplotlib is imported only inside the
functions that draw, so importing this package stays cheap. Modules of plots:
:mod:`.odds_plots` (``eor``, ``decks``) and :mod:`.lab_plots` (``shoe-ev``, ``threshold``).
"""

from __future__ import annotations

from .base import IMAGE_FORMATS, REPORT_EXTRA, PlotFunction, PlotRequest, figure_bytes, new_figure, render_plot, require
from .lab_plots import shoe_ev_plot, threshold_plot
from .odds_plots import decks_plot, eor_plot

#: Every kind of plot by name.
PLOTS: dict[str, PlotFunction] = {"eor": eor_plot, "decks": decks_plot, "shoe-ev": shoe_ev_plot, "threshold": threshold_plot}

__all__ = [
    "IMAGE_FORMATS",
    "PLOTS",
    "REPORT_EXTRA",
    "PlotFunction",
    "PlotRequest",
    "figure_bytes",
    "new_figure",
    "render_plot",
    "require",
]
