"""Par sheets: per bet every outcome with its pay, count, probability, return and 1 in N (Markdown, CSV, JSON)."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from ..analysis import Analysis, BetFigures
from ..cards import Shoe
from ..exact import decimal_text, fraction_text, grouped, one_in_text, percent_text, short_text
from ..game import Game
from ..layout import markdown_table
from ..present import shoe_rules_header
from ..present.odds import chart_lines
from ..present.odds_json import analysis_json
from .common import (
    DATA_PLACES,
    MD_PLACES,
    SIDE_NAME,
    _decks_name,
    _json,
    _whole_decks,
)

PAR_CSV_COLUMNS = [
    "bet",
    "outcome",
    "event",
    "pays",
    "combinations",
    "probability",
    "probability_decimal",
    "return",
    "return_decimal",
    "one_in",
    "house_edge",
    "house_edge_decimal",
    "house_edge_per_resolved_bet",
    "house_edge_per_resolved_bet_decimal",
    "variance",
    "variance_decimal",
    "sd_decimal",
]


def _par_rows(figures: BetFigures, places: int, *, grouping: bool) -> list[list[str]]:
    count = grouped if grouping else str
    rows = [
        [
            o.outcome.id,
            o.outcome.event.name,
            short_text(o.outcome.net),
            count(o.count),
            fraction_text(o.probability),
            decimal_text(o.probability, places),
            decimal_text(o.contribution, places),
            one_in_text(o.probability, 2 if grouping else places),
        ]
        for o in figures.outcomes
    ]
    total = sum(o.count for o in figures.outcomes)
    probability = Fraction(total, figures.orderings)
    rows.append(
        [
            "Totals",
            "",
            "",
            count(total),
            fraction_text(probability),
            decimal_text(probability, places),
            decimal_text(figures.ev, places),
            "",
        ]
    )
    return rows


def _resolved_line(figures: BetFigures, places: int) -> list[str]:
    """The house edge per resolved bet (pushes excluded), for a bet that can push."""
    resolved = figures.house_edge_per_resolved_bet
    if figures.push_probability == 0 or resolved is None:
        return []
    return [
        f"- House edge per resolved bet (pushes excluded): {percent_text(resolved, places - 2)}"
        f" (exact: {fraction_text(resolved)})"
    ]


def par_sheet_markdown(
    analysis: Analysis, places: int = MD_PLACES, *, title: str | None = None
) -> str:
    """A par sheet for people: per bet, every outcome with its pay, count, probability, return and 1 in N."""
    shoe, rules = analysis.shoe, analysis.rules
    header = shoe_rules_header(shoe, rules)
    if analysis.counting is not None:
        what = f"{analysis.counting.convention}, N = {shoe.size}: {grouped(analysis.orderings)}"
    else:
        what = f"ordered six-card draws out of ({shoe.size})P6 = {grouped(analysis.orderings)} (see README.md)"
    lines = [
        f"# Par sheet: {title or rules.name}, {shoe.describe()}",
        "",
        header,
        "",
        f"Combinations are {what}. Pays are net, to 1 (-1: the stake is lost; 0: a push).",
    ]
    if title == SIDE_NAME:
        lines += [
            "",
            "The side bets read only the drawing rules (shared by punto-banco, ez and super-6), not the commission"
            " or the Tie pay. Bets on suited pairs (perfect-pair…) are priced on the suited shoe of whole decks;"
            " Perfect Pairs counts published over unordered two-card hands have the same probabilities.",
        ]
    headers = ["Outcome", "Event", "Pays", "Combinations", "Probability (exact)", "Probability", "Return", "1 in N"]
    for figures in analysis.bets:
        lines += [
            "",
            f"## {figures.bet.id}: {figures.bet.description}",
            "",
            markdown_table(headers, _par_rows(figures, places, grouping=True), "llrrrrrr"),
            "",
            f"- House edge per hand (pushes count as bets): {percent_text(figures.house_edge, places - 2)}"
            f" (exact: {fraction_text(figures.house_edge)})",
            *_resolved_line(figures, places),
            f"- Variance: {decimal_text(figures.variance, places)} (exact: {fraction_text(figures.variance)})",
            f"- Standard deviation: {figures.sd_text(places)}",
            f"- Hit frequency: {percent_text(figures.hit_frequency, places - 2)}"
            f" (1 in {one_in_text(figures.hit_frequency)})",
            f"- Rules: {header}",
        ]
    if analysis.chart is not None:
        lines += ["", *chart_lines(analysis.chart, markdown=True)]
    return "\n".join(lines) + "\n"


def par_sheet_csv(analysis: Analysis, places: int = DATA_PLACES) -> str:
    """A par sheet for programs: one row per bet outcome, then the bet's Totals row with its footer figures.

    Rows are built by column name, so a value can never land under another column's header.

    >>> from exactodds.puntobanco.odds import analyze
    >>> from exactodds.cards import Shoe
    >>> rows = list(csv.DictReader(io.StringIO(par_sheet_csv(analyze(Shoe.standard(8), bets=["player"]), 4))))
    >>> rows[2]["outcome"], rows[2]["return"], rows[2]["return_decimal"], rows[3]["house_edge_per_resolved_bet_decimal"]
    ('lose', '-8954111587648/19524993263685', '-0.4586', '0.0136')
    """
    rows: list[dict[str, str]] = []
    for figures in analysis.bets:
        for o in figures.outcomes:
            rows.append(
                {
                    "bet": figures.bet.id,
                    "outcome": o.outcome.id,
                    "event": o.outcome.event.name,
                    "pays": short_text(o.outcome.net),
                    "combinations": str(o.count),
                    "probability": fraction_text(o.probability),
                    "probability_decimal": decimal_text(o.probability, places),
                    "return": fraction_text(o.contribution),
                    "return_decimal": decimal_text(o.contribution, places),
                    "one_in": "" if o.probability == 0 else decimal_text(1 / o.probability, places),
                }
            )
        total = sum(o.count for o in figures.outcomes)
        probability = Fraction(total, figures.orderings)
        resolved = figures.house_edge_per_resolved_bet
        rows.append(
            {
                "bet": figures.bet.id,
                "outcome": "total",
                "combinations": str(total),
                "probability": fraction_text(probability),
                "probability_decimal": decimal_text(probability, places),
                "return": fraction_text(figures.ev),
                "return_decimal": decimal_text(figures.ev, places),
                "house_edge": fraction_text(figures.house_edge),
                "house_edge_decimal": decimal_text(figures.house_edge, places),
                "house_edge_per_resolved_bet": "" if resolved is None else fraction_text(resolved),
                "house_edge_per_resolved_bet_decimal": "" if resolved is None else decimal_text(resolved, places),
                "variance": fraction_text(figures.variance),
                "variance_decimal": decimal_text(figures.variance, places),
                "sd_decimal": figures.sd_text(places),
            }
        )
    out = io.StringIO()
    writer = csv.DictWriter(out, PAR_CSV_COLUMNS, restval="", extrasaction="raise", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def par_sheet_json(analysis: Analysis, places: int = DATA_PLACES) -> dict[str, Any]:
    """A par sheet as JSON: the analysis JSON contract, plus the header, 1 in N per outcome and a totals entry."""
    data = analysis_json(analysis, places)
    out: dict[str, Any] = {
        "header": shoe_rules_header(analysis.shoe, analysis.rules),
        "decks": _whole_decks(analysis.shoe),
    }
    out.update(data)
    for figures in analysis.bets:
        entry = out["bets"][figures.bet.id]
        for o, item in zip(figures.outcomes, entry["outcomes"]):
            item["one_in_decimal"] = "" if o.probability == 0 else decimal_text(1 / o.probability, places)
        total = sum(o.count for o in figures.outcomes)
        resolved = figures.house_edge_per_resolved_bet
        entry["house_edge_per_resolved_bet"] = None if resolved is None else fraction_text(resolved)
        entry["house_edge_per_resolved_bet_decimal"] = None if resolved is None else decimal_text(resolved, places)
        entry["totals"] = {
            "count": str(total),
            "probability": fraction_text(Fraction(total, figures.orderings)),
            "return": fraction_text(figures.ev),
            "return_decimal": decimal_text(figures.ev, places),
        }
    return out


def game_par_files(game: Game, decks: int) -> dict[str, str]:
    """The par sheet of a game with a deal of its own (every bet, its usual pays) at ``decks`` decks, in three formats.

    >>> from exactodds.games import find_game
    >>> sorted(game_par_files(find_game("dragon-tiger"), 8))[0]
    'par/dragon-tiger-8-decks.csv'
    """
    analysis = game.price(Shoe.standard(decks), None, game.settings_of({}))
    base = f"par/{game.name}-{_decks_name(decks)}"
    return {
        f"{base}.md": par_sheet_markdown(analysis),
        f"{base}.csv": par_sheet_csv(analysis),
        f"{base}.json": _json(par_sheet_json(analysis)),
    }
