"""An analysis summed up one line a bet, as the published tables lay it out (``odds --summary``): the report's
summary table, from the same :class:`~.sheet.BetSheet` figures, as text, Markdown or CSV."""

from __future__ import annotations

import csv
import io

from ..analysis import GLI_GAMES, Analysis
from ..errors import ExactOddsError
from ..exact import grouped, short_text
from ..layout import markdown_heading, markdown_table, text_table
from ..present import csv_text, shoe_rules_header
from .sheet import Z_SCORES, bet_sheets, summary_headers, summary_rows

#: The formats of the summary (a view for people and spreadsheets; ``--format json`` holds every figure already).
SUMMARY_FORMATS = ("table", "markdown", "csv")
NOTE = ("House edge per hand counts a push as a hand; per resolved bet leaves pushes out. RTP = 1 + EV. VI 95%:"
        f" the volatility index {short_text(Z_SCORES[95])}·SD. Top award: the largest pay and how rarely it is paid;"
        f" GLI-11 asks that an advertised award be hit at least once in {grouped(GLI_GAMES)} games unless its odds"
        " are displayed.")


def check_format(fmt: str) -> None:
    """Refuse a format the summary has not (checked before the pricing).

    >>> check_format("csv"), check_format("table")
    (None, None)
    """
    if fmt not in SUMMARY_FORMATS:
        raise ExactOddsError(f"--summary is a table for people or a spreadsheet ({', '.join(SUMMARY_FORMATS)}):"
                             " --format json holds every figure of every bet already")


def render_summary(analysis: Analysis, fmt: str = "table", places: int = 4) -> str:
    """One row a bet: house edge per hand and per resolved bet (and with a rebate), RTP, hit frequency, SD, VI, the
    top award and how often it is hit; percentages to ``places`` decimals.

    >>> from exactodds.cards import Shoe
    >>> from exactodds.puntobanco.odds import analyze
    >>> print(render_summary(analyze(Shoe.standard(8), bets=["tie"]), "csv", 2).splitlines()[1][:40])
    tie,8 to 1,14.36%,14.36%,85.64%,9.52%,2.
    """
    check_format(fmt)
    headers = summary_headers(analysis.rebate is not None, None)
    rows = summary_rows(bet_sheets(analysis, None), None, places)
    align = "l" + "r" * (len(headers) - 1)
    header = shoe_rules_header(analysis.shoe, analysis.rules)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows([csv_text(row[0]), *row[1:]] for row in rows)
        return out.getvalue()
    if fmt == "markdown":
        return f"{markdown_heading(1, header)}\n\n{markdown_table(headers, rows, align)}\n\n{NOTE}\n"
    return f"{header}\n\n{text_table(headers, rows, align)}\n\n{NOTE}\n"
