"""Plots (PNG or SVG, byte-deterministic): the registry of kinds, ``PLOTS``.

Each kind is a function from a :class:`~.base.PlotRequest` to a matplotlib ``Figure``;
``PLOTS`` maps the kind's name (``exactodds plot KIND``) to it, and :func:`~.registry.render_plot`
turns it into bytes (both live in :mod:`.registry`). matplotlib is imported only inside the
functions that draw, and the modules of plots (and the lab, and numpy, that they need) only
when ``PLOTS`` is first read or a plot drawn, so importing this package (as the CLI does at
start-up) stays cheap. Modules of plots: :mod:`.odds_plots` (``eor``, ``decks``) and
:mod:`.lab_plots` (``shoe-ev``, ``threshold``); :mod:`.review_plots` draws a review's plot (``review --output``),
which is no kind of the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import REPORT_EXTRA, PlotFunction, PlotRequest, figure_bytes, new_figure, require
from .registry import EXACT_KINDS, KINDS, render_plot

if TYPE_CHECKING:
    PLOTS: dict[str, PlotFunction]


def __getattr__(name: str) -> dict[str, PlotFunction]:
    """``PLOTS``, every kind of plot by name, from :mod:`.registry` (its modules are imported on first use)."""
    if name != "PLOTS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .registry import PLOTS

    return PLOTS


__all__ = [
    "EXACT_KINDS",
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
