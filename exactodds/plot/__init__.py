"""Plots (PNG and SVG), drawn with matplotlib loaded only when a plot is made; ``PLOTS`` names each kind.

Each entry of :data:`PLOTS` is a function ``(output, **options) -> Path`` that computes
its figures, draws them and writes ``output`` (``.png`` or ``.svg``) atomically; the
same options and seed give a byte-identical file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .lab_plots import shoe_ev_plot, threshold_plot

#: Plot kinds by name: ``exactodds plot KIND``.
PLOTS: dict[str, Callable[..., Path]] = {
    "shoe-ev": shoe_ev_plot,
    "threshold": threshold_plot,
}

__all__ = ["PLOTS", "shoe_ev_plot", "threshold_plot"]


def plot(kind: str, output: str | Path, **options: Any) -> Path:
    """Draw the plot ``kind`` into ``output`` (see :data:`PLOTS`)."""
    from ..errors import ExactOddsError

    if kind not in PLOTS:
        raise ExactOddsError(f"unknown plot {kind!r}: plots are {', '.join(PLOTS)}")
    return PLOTS[kind](output, **options)
