"""An exact analysis rendered as a table, Markdown, CSV or JSON (the ``odds`` report and its JSON contract)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..analysis import Analysis, BetFigures
from ..exact import decimal_text, fraction_text, grouped, percent_text
from ..layout import markdown_table, text_table
from . import DEFAULT_PRECISION, Format, shoe_json, shoe_rules_header


def header_line(analysis: Analysis) -> str:
    """The header of an analysis: :func:`~exactodds.render.shoe_rules_header` of its shoe and rules.

    >>> from exactodds.analysis import analyze
    >>> from exactodds.cards import Shoe
    >>> header_line(analyze(Shoe.standard(8), bets=["tie"]))
    '8 decks (416 cards) · punto-banco · banker 0.95:1 (5% commission) · tie 8:1 · EZ push: off'
    """
    return shoe_rules_header(analysis.shoe, analysis.rules)

def _multiplier_json(outcome: Any) -> dict[str, Any]:
    """An outcome's multiplier (values, probabilities, applies, expected net), only when it has one."""
    m = outcome.multiplier
    if m is None:
        return {}
    return {
        "multiplier": {
            "values": [fraction_text(v) for v in m.values],
            "probabilities": [fraction_text(p) for p in m.probabilities],
            "applies": m.applies,
            "expected_net": fraction_text(outcome.mean),
        }
    }


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
                **_multiplier_json(o.outcome),
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
    """The whole analysis in the stable JSON contract (docs/json.md); ``policy`` when the Player's 5 is chosen."""
    data: dict[str, Any] = {
        "rules": analysis.rules.as_dict(),
        "shoe": shoe_json(analysis.shoe),
        "orderings": str(analysis.orderings),
        "bets": {figures.bet.id: bet_json(figures, places) for figures in analysis.bets},
    }
    if analysis.rules.player_five:
        data["policy"] = {"player_5": analysis.rules.player_five}
    if analysis.given is not None and analysis.given_probability is not None:
        data["given"] = {"event": analysis.given.event, "probability": fraction_text(analysis.given_probability)}
    return data


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
#: Every column of the report is two characters wider than its header (the layout it has always had).
_HEADER_MARGIN = 2


def render_text(analysis: Analysis, places: int = DEFAULT_PRECISION, *, markdown: bool = False) -> str:
    """The report for people: a header line, then per bet its outcomes, EV, house edge and SD."""
    table = markdown_table if markdown else text_table
    lines = [("# " if markdown else "") + header_line(analysis)]
    if analysis.given is not None and analysis.given_probability is not None:
        p = analysis.given_probability
        lines.append(
            f"given: {analysis.given.event} (probability {fraction_text(p)} = {decimal_text(p, places)});"
            " every figure below is conditional on it"
        )
    what = "ordered six-card draws in which it happens" if analysis.given is not None else "ordered six-card draws"
    if analysis.policy_scale > 1:
        what += f", × {analysis.policy_scale} for the mixed policy on 5"
    lines.append(f"orderings ({what}): {grouped(analysis.orderings)}")
    for figures in analysis.bets:
        lines.append("")
        title = f"{figures.bet.id}: {figures.bet.description}"
        lines.append(f"## {title}" if markdown else title)
        if markdown:
            lines.append("")
        lines.append(table(_HEADERS, _rows(figures, places), "lllrrr", header_margin=_HEADER_MARGIN))
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


def render(analysis: Analysis, fmt: Format = "table", places: int = DEFAULT_PRECISION) -> str:
    """An analysis in one of the formats: ``table``, ``markdown``, ``csv`` or ``json``.

    >>> from exactodds.analysis import analyze
    >>> from exactodds.cards import Shoe
    >>> print(render(analyze(Shoe.standard(8), bets=["tie"]), "csv", 4).splitlines()[1])
    tie,win,8,475627426473216,619306544887/6508331087895,0.0952,0.7612,-0.1436,0.1436,2.6409
    """
    if fmt == "json":
        return render_json(analysis, places) + "\n"
    if fmt == "csv":
        return render_csv(analysis, places)
    if fmt == "markdown":
        return render_text(analysis, places, markdown=True)
    return render_text(analysis, places)
