"""An exact analysis rendered as a table, Markdown, CSV or JSON (the ``odds`` report).

The JSON contract itself is in :mod:`.odds_json`.
"""

from __future__ import annotations

import io

from ..analysis import Analysis, BetFigures, Chart
from ..exact import decimal_text, fraction_text, grouped, percent_text
from ..layout import markdown_heading, markdown_table, one_line, text_table
from ..rebate import RebateFigures
from . import DEFAULT_PRECISION, Format, csv_text, shoe_rules_header
from .formats import write_format
from .odds_json import render_json


def header_line(analysis: Analysis) -> str:
    """The header of an analysis: :func:`~exactodds.present.shoe_rules_header` of its shoe and rules.

    >>> from exactodds.puntobanco.odds import analyze
    >>> from exactodds.cards import Shoe
    >>> header_line(analyze(Shoe.standard(8), bets=["tie"]))
    '8 decks (416 cards) · punto-banco · banker 0.95:1 (5% commission) · tie 8:1 · EZ push: off'
    """
    return shoe_rules_header(analysis.shoe, analysis.rules)


def _summary(figures: BetFigures, places: int) -> str:
    pct = max(places - 2, 0)
    return (
        f"EV {decimal_text(figures.ev, places)} · house edge {percent_text(figures.house_edge, pct)} · "
        f"SD {figures.sd_text(min(places, 6))} · hit frequency {percent_text(figures.hit_frequency, pct)}"
    )


def rebate_summary(figures: RebateFigures, places: int) -> str:
    """The line of a bet's figures with a rebate, under its summary (percentages with two places fewer).

    >>> from fractions import Fraction
    >>> from exactodds.rebate import Rebate
    >>> rebate_summary(RebateFigures(Rebate(Fraction(1, 100)), Fraction(9, 10), Fraction(-1, 50)), 4)
    'rebate 1% (standard basis): effective stake 0.9000 · EV with rebate -0.0110 · house edge with rebate 1.10%'
    """
    pct = max(places - 2, 0)
    return (
        f"{figures.rebate.text()}: effective stake {decimal_text(figures.effective_stake, places)} · "
        f"EV with rebate {decimal_text(figures.ev_with_rebate, places)} · "
        f"house edge with rebate {percent_text(figures.house_edge, pct)}"
    )


def _rows(figures: BetFigures, places: int) -> list[list[str]]:
    return [
        [
            o.outcome.id,
            o.outcome.event.name,
            o.outcome.pays,
            grouped(o.count),
            decimal_text(o.probability, places),
            decimal_text(o.contribution, places),
        ]
        for o in figures.outcomes
    ]


_HEADERS = ["outcome", "event", "pays", "count", "probability", "return"]
#: Every column of the report is two characters wider than its header (the layout it has always had).
_HEADER_MARGIN = 2


def orderings_line(analysis: Analysis) -> str:
    """What every count is out of, in words and as a number (``orderings (ordered six-card draws): …``).

    >>> from exactodds.puntobanco.odds import analyze
    >>> from exactodds.cards import Shoe
    >>> orderings_line(analyze(Shoe.standard(1), bets=["tie"]))
    'orderings (ordered six-card draws): 14,658,134,400'
    """
    if analysis.counting is not None:
        return f"orderings ({analysis.counting.convention}): {grouped(analysis.orderings)}"
    what = "ordered six-card draws in which it happens" if analysis.given is not None else "ordered six-card draws"
    if analysis.policy_scale > 1:
        what += f", × {analysis.policy_scale} for the mixed policy on 5"
    return f"orderings ({what}): {grouped(analysis.orderings)}"


def render_text(analysis: Analysis, places: int = DEFAULT_PRECISION, *, markdown: bool = False) -> str:
    """The report for people: a header line, then per bet its outcomes, EV, house edge and SD."""
    table = markdown_table if markdown else text_table
    lines = [markdown_heading(1, header_line(analysis)) if markdown else header_line(analysis)]
    if analysis.given is not None and analysis.given_probability is not None:
        p = analysis.given_probability
        lines.append(
            f"given: {analysis.given.event} (probability {fraction_text(p)} = {decimal_text(p, places)});"
            " every figure below is conditional on it"
        )
    lines.append(orderings_line(analysis))
    for figures in analysis.bets:
        lines.append("")
        title = f"{figures.bet.id}: {figures.bet.description}"
        lines.append(markdown_heading(2, title) if markdown else one_line(title))
        if markdown:
            lines.append("")
        lines.append(table(_HEADERS, _rows(figures, places), "lllrrr", header_margin=_HEADER_MARGIN))
        if markdown:
            lines.append("")
        lines.append(_summary(figures, places))
        rebated = analysis.rebated(figures)
        if rebated is not None:
            lines.append(rebate_summary(rebated, places))
        notes = analysis.notes_of(figures.bet.id)
        if notes:
            lines.append(one_line(" · ".join(note.line for note in notes)))
    if analysis.chart is not None:
        lines += ["", *chart_lines(analysis.chart, markdown=markdown)]
    return "\n".join(lines) + "\n"


def chart_lines(chart: Chart, *, markdown: bool = False) -> list[str]:
    r"""A game's chart after its bets: its title, what the letters mean, then a row per hand and a column per card.

    >>> print("\n".join(chart_lines(Chart("chart", "total", ("0", "1"), (("5", "DS"),), (("D", "draw"),)))))
    chart (D draw)
    total  0  1
    -----  -  -
    5      D  S
    """
    title = f"{chart.title} ({', '.join(f'{letter} {meaning}' for letter, meaning in chart.legend)})"
    table = markdown_table if markdown else text_table
    rows = [[label, *letters] for label, letters in chart.cells]
    body = table([chart.rows, *chart.columns], rows, "l" * (len(chart.columns) + 1))
    return [markdown_heading(2, title), "", body] if markdown else [one_line(title), body]


CSV_COLUMNS = [
    "bet",
    "outcome",
    "net",
    "count",
    "probability",
    "probability_decimal",
    "return_decimal",
    "ev_decimal",
    "house_edge_decimal",
    "sd_decimal",
]
#: The columns a rebate adds (``--rebate``), after :data:`CSV_COLUMNS`: the same on every row of a bet.
REBATE_CSV_COLUMNS = [
    "rebate_rate",
    "rebate_basis",
    "effective_stake",
    "effective_stake_decimal",
    "rebate_ev",
    "rebate_ev_decimal",
    "rebate_house_edge_decimal",
]


def render_csv(analysis: Analysis, places: int = DEFAULT_PRECISION) -> str:
    """One row per bet outcome; the bet's EV, house edge and SD repeated on each of its rows.

    With a rebate the :data:`REBATE_CSV_COLUMNS` follow. Under a mixed policy on 5 (P = n/d) the
    counts are d times the weighted orderings: a last column, ``count_scale``, says so on every row
    (a plain shoe's CSV has no such column).
    """
    import csv  # here, not at the top: only this format needs it, not every start-up of ``odds``

    scale = [analysis.policy_scale] if analysis.policy_scale > 1 else []
    rebate = REBATE_CSV_COLUMNS if analysis.rebate is not None else []
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS + rebate + ["count_scale"] * len(scale))
    for figures in analysis.bets:
        summary = [decimal_text(figures.ev, places), decimal_text(figures.house_edge, places), figures.sd_text(places)]
        rebated = analysis.rebated(figures)
        if rebated is not None:
            summary += [
                fraction_text(rebated.rebate.rate), rebated.rebate.basis, fraction_text(rebated.effective_stake),
                decimal_text(rebated.effective_stake, places), fraction_text(rebated.ev_with_rebate),
                decimal_text(rebated.ev_with_rebate, places), decimal_text(rebated.house_edge, places),
            ]
        for o in figures.outcomes:
            writer.writerow(
                [
                    csv_text(figures.bet.id),
                    csv_text(o.outcome.id),
                    fraction_text(o.outcome.net),
                    o.count,
                    fraction_text(o.probability),
                    decimal_text(o.probability, places),
                    decimal_text(o.contribution, places),
                    *summary,
                    *scale,
                ]
            )
    return out.getvalue()


def render(analysis: Analysis, fmt: Format = "table", places: int = DEFAULT_PRECISION) -> str:
    """An analysis in one of the formats: ``table``, ``markdown``, ``csv`` or ``json``.

    >>> from exactodds.puntobanco.odds import analyze
    >>> from exactodds.cards import Shoe
    >>> print(render(analyze(Shoe.standard(8), bets=["tie"]), "csv", 4).splitlines()[1])
    tie,win,8,475627426473216,619306544887/6508331087895,0.0952,0.7612,-0.1436,0.1436,2.6409
    """
    return write_format("analysis", fmt, {
        "table": lambda: render_text(analysis, places),
        "markdown": lambda: render_text(analysis, places, markdown=True),
        "csv": lambda: render_csv(analysis, places),
        "json": lambda: render_json(analysis, places) + "\n",
    })
