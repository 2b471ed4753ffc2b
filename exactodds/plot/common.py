"""What every plot shares: the formats, a deterministic save, and the caption naming the source."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ..errors import ExactOddsError
from ..files import write_atomic
from ..version import __version__

#: The formats a plot is written in, by file extension.
PLOT_FORMATS = ("png", "svg")
#: Fixed so that SVG element ids (hashed from this salt) are the same on every run.
SVG_HASH_SALT = "exactodds"
#: Pixels per inch of a PNG.
DPI = 120


def plot_format(output: str | Path) -> str:
    """The format of a plot file, from its extension (``.png`` or ``.svg``).

    >>> plot_format("edge.SVG")
    'svg'
    """
    suffix = Path(output).suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        raise ExactOddsError(f"a plot is written as .png or .svg, not {Path(output).name!r}")
    return suffix


def new_figure(height_ratios: tuple[int, ...] = (3, 1)) -> tuple[Any, Any]:
    """A figure (no pyplot state) with panels stacked on a shared x axis, and the panels."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8.0, 6.0), layout="constrained")
    axes = figure.subplots(len(height_ratios), 1, sharex=True, gridspec_kw={"height_ratios": list(height_ratios)})
    return figure, axes


#: Characters per line of a caption.
CAPTION_WIDTH = 150


def caption(figure: Any, text: str) -> None:
    """The source of a plot, in small type under it (the panels make room for it)."""
    import textwrap

    lines = textwrap.wrap(f"{text} · exactodds {__version__}", CAPTION_WIDTH)
    room = 0.012 + 0.02 * len(lines)
    figure.get_layout_engine().set(rect=(0, room, 1, 1 - room))
    figure.text(0.01, 0.008, "\n".join(lines), fontsize=7, color="0.35", ha="left", va="bottom")


def figure_bytes(figure: Any, fmt: str) -> bytes:
    """The figure as PNG or SVG bytes, the same on every run (no date, fixed SVG ids)."""
    import matplotlib

    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    with matplotlib.rc_context({"svg.hashsalt": SVG_HASH_SALT, "svg.fonttype": "path"}):
        figure.savefig(buffer, format=fmt, dpi=DPI, metadata=metadata)
    return buffer.getvalue()


def save_figure(figure: Any, output: str | Path) -> Path:
    """Write the figure to ``output`` (its extension gives the format), atomically."""
    path = Path(output)
    write_atomic(path, figure_bytes(figure, plot_format(path)))
    return path
