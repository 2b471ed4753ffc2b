"""The math report (par sheet) of a game's bets: exact figures, regulators' figures, cross-checks, as XLSX, PDF,
HTML or Markdown.

:func:`make_report` computes everything once (:mod:`.model`, :mod:`.sheet`, :mod:`.checks`);
the writers (:mod:`.xlsx`, :mod:`.pdf`, :mod:`.text`) lay it out, the PDF, HTML and
Markdown from the same blocks (:mod:`.document`). The libraries (openpyxl, reportlab,
matplotlib) are imported only when a report is written. The same blocks and writers lay
out a review's verdict (:mod:`.review`, ``review --output``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ExactOddsError
from ..files import shown_path, write_atomic
from ..present.formats import REPORT_FORMATS, write_format

if TYPE_CHECKING:
    from .model import Report

_LAZY = {"Report": "model", "make_report": "model", "Mix": "sheet", "parse_min_rtp": "sheet"}


def __getattr__(name: str) -> Any:
    """The report's model and sheet names, imported on first use (PEP 562) so that the CLI starts fast."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def output_format(path: Path, formats: tuple[str, ...] = REPORT_FORMATS) -> str:
    """The format named by ``path``'s extension, checked before any work: one of ``formats``.

    >>> output_format(Path("par.PDF"))
    'pdf'
    >>> output_format(Path("par.doc"))
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: cannot tell the format of par.doc from its extension: use .xlsx, .pdf, .html or .md
    """
    fmt = path.suffix.lower().removeprefix(".")
    if fmt not in formats:
        named = ", ".join(f".{f}" for f in formats[:-1]) + f" or .{formats[-1]}"
        raise ExactOddsError(f"cannot tell the format of {shown_path(path)} from its extension: use {named}")
    return fmt


#: ``progress(done, total)``: the bets of a report laid out so far, told as they are (plots are drawn then).
Progress = Callable[[int, int], None]


def render_report(report: Report, fmt: str, progress: Progress | None = None) -> bytes:
    """The report as the bytes of one format (``progress`` told each bet laid out, and then the whole as done)."""
    return write_format("document", fmt, {
        "xlsx": lambda: _xlsx(report),
        "pdf": lambda: _pdf(report, progress),
        "html": lambda: _html(report, progress),
        "md": lambda: _markdown(report, progress),
    })


# Each format's libraries are imported when a report is written in it (reportlab only for a PDF).


def _xlsx(report: Report) -> bytes:
    from .xlsx import xlsx

    return xlsx(report)


def _pdf(report: Report, progress: Progress | None) -> bytes:
    from .document import build
    from .pdf import pdf

    return pdf(report, build(report, "png", progress))


def _html(report: Report, progress: Progress | None) -> bytes:
    from .document import build
    from .text import html

    return html(report, build(report, "svg", progress)).encode()


def _markdown(report: Report, progress: Progress | None) -> bytes:
    from .document import build
    from .text import markdown

    return markdown(report, build(report, "", progress)).encode()


def write_report(report: Report, path: Path, progress: Progress | None = None) -> None:
    """Write the report to ``path`` (format from its extension), atomically: the whole file or none."""
    write_atomic(path, render_report(report, output_format(path), progress))


__all__ = [
    "REPORT_FORMATS",
    "Mix",
    "Report",
    "make_report",
    "output_format",
    "parse_min_rtp",
    "render_report",
    "write_report",
]
