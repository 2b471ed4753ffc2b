"""Presentation: an exact analysis rendered as a table, Markdown, CSV or JSON.

Decimals are made here, from the exact values, at the very end.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .analysis import Analysis, BetFigures
from .cards import Shoe
from .exact import decimal_text, fraction_text, grouped, percent_text
from .rules import RuleSet

FORMATS = ("table", "markdown", "csv", "json")
#: The formats of the card-counting lab's reports (simulate, tags).
SIMULATION_FORMATS = ("table", "json")
DEFAULT_PRECISION = 10


def shoe_rules_header(shoe: Shoe, rules: RuleSet) -> str:
    """The one-line rules-and-shoe header that starts every table and report (its one definition).

    >>> from exactodds.rules import PUNTO_BANCO
    >>> shoe_rules_header(Shoe.standard(8).remove("7"), PUNTO_BANCO).split(" · ")[0]
    '415 cards'
    >>> shoe_rules_header(Shoe.standard(6), PUNTO_BANCO).split(" · ")[0]
    '6 decks (312 cards)'
    """
    described = shoe.describe()
    if not described.endswith(" cards"):
        described += f" ({shoe.size:,} cards)"
    return f"{described} · {rules.header()}"


def header_line(analysis: Analysis) -> str:
    """The header of an analysis: :func:`shoe_rules_header` of its shoe and rules.

    >>> from exactodds import analyze
    >>> header_line(analyze(Shoe.standard(8), bets=["tie"]))
    '8 decks (416 cards) · punto-banco · banker 0.95:1 (5% commission) · tie 8:1 · EZ push: off'
    """
    return shoe_rules_header(analysis.shoe, analysis.rules)


def bet_json(figures: BetFigures, places: int = DEFAULT_PRECISION) -> dict[str, Any]:
    """One bet's figures as JSON-ready values: exact rationals as ``n/d``, counts as integer strings."""
    return {
        "description": figures.bet.description,
        "outcomes": [
            {
                "outcome": o.outcome.id,
                "event": o.outcome.event.name,
                "net": fraction_text(o.outcome.net),
                "count": str(o.count),
                "probability": fraction_text(o.probability),
                "probability_decimal": decimal_text(o.probability, places),
                "return": fraction_text(o.contribution),
                "return_decimal": decimal_text(o.contribution, places),
            }
            for o in figures.outcomes
        ],
        "ev": fraction_text(figures.ev),
        "house_edge": fraction_text(figures.house_edge),
        "variance": fraction_text(figures.variance),
        "hit_frequency": fraction_text(figures.hit_frequency),
        "ev_decimal": decimal_text(figures.ev, places),
        "house_edge_decimal": decimal_text(figures.house_edge, places),
        "variance_decimal": decimal_text(figures.variance, places),
        "sd_decimal": figures.sd_text(places),
        "hit_frequency_decimal": decimal_text(figures.hit_frequency, places),
    }


def analysis_json(analysis: Analysis, places: int = DEFAULT_PRECISION) -> dict[str, Any]:
    """The whole analysis in the stable JSON contract (see the README)."""
    return {
        "rules": analysis.rules.as_dict(),
        "shoe": {"cards": analysis.shoe.size, "counts": analysis.shoe.as_dict(), "suited": analysis.shoe.suited},
        "orderings": str(analysis.orderings),
        "bets": {figures.bet.id: bet_json(figures, places) for figures in analysis.bets},
    }


def render_json(analysis: Analysis, places: int = DEFAULT_PRECISION, *, indent: int | None = 2) -> str:
    """The JSON contract as text (one line when ``indent`` is None)."""
    separators = (",", ":") if indent is None else None
    return json.dumps(analysis_json(analysis, places), indent=indent, separators=separators)


def _summary(figures: BetFigures, places: int) -> str:
    pct = max(places - 2, 0)
    return (
        f"EV {decimal_text(figures.ev, places)} · house edge {percent_text(figures.house_edge, pct)} · "
        f"SD {figures.sd_text(min(places, 6))} · hit frequency {percent_text(figures.hit_frequency, pct)}"
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


def render_text(analysis: Analysis, places: int = DEFAULT_PRECISION, *, markdown: bool = False) -> str:
    """The report for people: a header line, then per bet its outcomes, EV, house edge and SD."""
    from tabulate import tabulate  # imported here so JSON output never pays for it

    fmt = "github" if markdown else "simple"
    lines = [("# " if markdown else "") + header_line(analysis)]
    lines.append(f"{'' if markdown else ''}orderings (ordered six-card draws): {grouped(analysis.orderings)}")
    for figures in analysis.bets:
        lines.append("")
        title = f"{figures.bet.id}: {figures.bet.description}"
        lines.append(f"## {title}" if markdown else title)
        if markdown:
            lines.append("")
        table = tabulate(
            _rows(figures, places),
            headers=_HEADERS,
            tablefmt=fmt,
            disable_numparse=True,
            colalign=("left", "left", "left", "right", "right", "right"),
        )
        lines.append(table)
        if markdown:
            lines.append("")
        lines.append(_summary(figures, places))
    return "\n".join(lines) + "\n"


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


def render_csv(analysis: Analysis, places: int = DEFAULT_PRECISION) -> str:
    """One row per bet outcome; the bet's EV, house edge and SD repeated on each of its rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for figures in analysis.bets:
        summary = [decimal_text(figures.ev, places), decimal_text(figures.house_edge, places), figures.sd_text(places)]
        for o in figures.outcomes:
            writer.writerow(
                [
                    figures.bet.id,
                    o.outcome.id,
                    fraction_text(o.outcome.net),
                    o.count,
                    fraction_text(o.probability),
                    decimal_text(o.probability, places),
                    decimal_text(o.contribution, places),
                    *summary,
                ]
            )
    return out.getvalue()


def render(analysis: Analysis, fmt: str = "table", places: int = DEFAULT_PRECISION) -> str:
    """Render in one of :data:`FORMATS`."""
    if fmt == "json":
        return render_json(analysis, places) + "\n"
    if fmt == "csv":
        return render_csv(analysis, places)
    if fmt == "markdown":
        return render_text(analysis, places, markdown=True)
    return render_text(analysis, places)
