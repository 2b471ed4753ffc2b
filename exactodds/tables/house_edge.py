"""House edge by number of decks (1-12 and the infinite shoe), per rule set and for the side-bet catalog."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..analysis import BetFigures
from ..cards import Shoe
from ..exact import decimal_text, fraction_text, percent_text
from ..layout import markdown_table
from ..paytable import Bet
from ..puntobanco.infinite import INFINITE_ORDERINGS, analyze_infinite
from ..puntobanco.rules import RuleSet
from .common import (
    DATA_PLACES,
    HOUSE_EDGE_DECKS,
    SIDE_NAME,
    SIDE_RULES,
    _Cache,
    _csv,
    _json,
)

HOUSE_EDGE_CSV_COLUMNS = [
    "decks",
    "cards",
    "bet",
    "house_edge",
    "house_edge_decimal",
    "house_edge_per_resolved_bet",
    "house_edge_per_resolved_bet_decimal",
    "sd_decimal",
]
INFINITE_LABEL = "infinite"


def _house_edge_rows(rules: RuleSet, cache: _Cache) -> list[tuple[str, int | None, tuple[BetFigures, ...]]]:
    rows: list[tuple[str, int | None, tuple[BetFigures, ...]]] = []
    for decks in HOUSE_EDGE_DECKS:
        shoe = Shoe.standard(decks)
        rows.append((str(decks), shoe.size, cache.analysis(shoe, rules).bets))
    rows.append((INFINITE_LABEL, None, analyze_infinite(rules)))
    return rows


def _house_edge_data(
    rules: RuleSet, bets: Sequence[Bet], columns: Sequence[tuple[str, int | None, Mapping[str, BetFigures]]]
) -> tuple[list[list[object]], dict[str, Any]]:
    """The CSV rows and JSON document of a house-edge table: one column of figures per deck count.

    A bet missing from a column (a suited bet on the infinite shoe) has no CSV row there and ``null`` in JSON.
    """
    csv_rows: list[list[object]] = [[*HOUSE_EDGE_CSV_COLUMNS]]
    for label, cards, col in columns:
        for bet in bets:
            if bet.id in col:
                f = col[bet.id]
                resolved = f.house_edge_per_resolved_bet
                csv_rows.append(
                    [
                        label,
                        "" if cards is None else cards,
                        bet.id,
                        fraction_text(f.house_edge),
                        decimal_text(f.house_edge, DATA_PLACES),
                        "" if resolved is None else fraction_text(resolved),
                        "" if resolved is None else decimal_text(resolved, DATA_PLACES),
                        f.sd_text(DATA_PLACES),
                    ]
                )
    data = {
        "rules": rules.as_dict(),
        "header": rules.header(),
        "infinite_orderings": str(INFINITE_ORDERINGS),
        "rows": [
            {
                "decks": label,
                "cards": cards,
                "orderings": str(Shoe.standard(int(label)).orderings()) if cards is not None else None,
                "house_edge": {
                    bet.id: (
                        {
                            "exact": fraction_text(col[bet.id].house_edge),
                            "decimal": decimal_text(col[bet.id].house_edge, DATA_PLACES),
                            **_resolved_json(col[bet.id]),
                            "sd_decimal": col[bet.id].sd_text(DATA_PLACES),
                        }
                        if bet.id in col
                        else None
                    )
                    for bet in bets
                },
            }
            for label, cards, col in columns
        ],
    }
    return csv_rows, data


def _percent_or_dash(value: Fraction | None) -> str:
    return "—" if value is None else percent_text(value, 4)


def _resolved_json(figures: BetFigures) -> dict[str, str | None]:
    resolved = figures.house_edge_per_resolved_bet
    return {
        "per_resolved_bet_exact": None if resolved is None else fraction_text(resolved),
        "per_resolved_bet_decimal": None if resolved is None else decimal_text(resolved, DATA_PLACES),
    }


#: What the house-edge tables' figures mean (two lines of their Markdown).
_PER_HAND = (
    "House edge per hand: the loss per unit staked, a push (a Banker or Player bet on a tie) counted as a bet,",
    "rounded to 4 places of a percent. Per resolved bet (pushes excluded) it is larger: it is given below for",
    "the bets that can push, and in the CSV and JSON files.",
)


def house_edge_files(rules: RuleSet, cache: _Cache) -> dict[str, str]:
    """The house edge of every bet for 1–12 decks and the infinite shoe, as Markdown, CSV and JSON."""
    rows = _house_edge_rows(rules, cache)
    bets = [f.bet for f in rows[0][2]]
    md_rows = [
        ["∞" if label == INFINITE_LABEL else label, *(percent_text(f.house_edge, 4) for f in figures)]
        for label, _, figures in rows
    ]
    pushing = [i for i, f in enumerate(rows[0][2]) if f.push_probability > 0]
    resolved_rows = [
        [
            "∞" if label == INFINITE_LABEL else label,
            *(_percent_or_dash(figures[i].house_edge_per_resolved_bet) for i in pushing),
        ]
        for label, _, figures in rows
    ]
    resolved_table = (
        [
            "",
            "Per resolved bet (pushes excluded), for the bets that can push:",
            "",
            markdown_table(["decks", *(bets[i].id for i in pushing)], resolved_rows, "r" * (len(pushing) + 1)),
        ]
        if pushing
        else []
    )
    md = (
        "\n".join(
            [
                f"# House edge by number of decks: {rules.name}",
                "",
                rules.header(),
                "",
                *_PER_HAND,
                "∞ is the infinite shoe: every card drawn with replacement, 1/13 per rank.",
                "The exact fractions are in the CSV and JSON files beside this one.",
                "",
                markdown_table(["decks", *(b.id for b in bets)], md_rows, "r" * (len(bets) + 1)),
                *resolved_table,
                "",
                "Bets: " + "; ".join(f"`{b.id}` {b.description}" for b in bets) + ".",
            ]
        )
        + "\n"
    )
    columns = [(label, cards, {f.bet.id: f for f in figures}) for label, cards, figures in rows]
    csv_rows, data = _house_edge_data(rules, bets, columns)
    base = f"house-edge/{rules.name}"
    return {f"{base}.md": md, f"{base}.csv": _csv(csv_rows), f"{base}.json": _json(data)}


def side_house_edge_files(cache: _Cache) -> dict[str, str]:
    """The house edge of every side bet of the catalog by number of decks (a row per bet), as Markdown, CSV and JSON."""
    from ..puntobanco.bets import side_catalog

    bets = side_catalog()
    columns: list[tuple[str, int | None, dict[str, BetFigures]]] = []
    for decks in HOUSE_EDGE_DECKS:
        shoe = Shoe.standard(decks)
        figures = cache.analysis(shoe, SIDE_RULES, side=True).bets
        columns.append((str(decks), shoe.size, {f.bet.id: f for f in figures}))
    # The infinite shoe is known by rank only: bets on suited pairs have no entry there.
    # Nor do the bets on the dealt cards (the infinite shoe's walk knows coup states only).
    plain = [b for b in bets if not b.needs_suits and not b.reads_cards]
    columns.append((INFINITE_LABEL, None, {f.bet.id: f for f in analyze_infinite(SIDE_RULES, plain)}))
    labels = ["∞" if label == INFINITE_LABEL else label for label, _, _ in columns]
    md_rows = [
        [bet.id, *(percent_text(col[bet.id].house_edge, 4) if bet.id in col else "—" for _, _, col in columns)]
        for bet in bets
    ]
    md = (
        "\n".join(
            [
                "# House edge by number of decks: the side-bet catalog",
                "",
                SIDE_RULES.header(),
                "",
                *_PER_HAND,
                "Standard shoes of 1–12 decks and the infinite shoe (∞: every card drawn with replacement).",
                "The side bets read only the drawing rules, which punto-banco, ez and super-6 share.",
                "Bets on suited pairs need a shoe known by suit; the infinite shoe is known by rank only (—).",
                "Bets on the dealt cards (3-giving-8 …) are priced by the card walk; they have no ∞ entry (—).",
                "The exact fractions are in the CSV and JSON files beside this one.",
                "",
                markdown_table(["bet", *labels], md_rows, "l" + "r" * len(labels)),
                "",
                "Bets: " + "; ".join(f"`{b.id}` {b.description}" for b in bets) + ".",
            ]
        )
        + "\n"
    )
    csv_rows, data = _house_edge_data(SIDE_RULES, bets, columns)
    base = f"house-edge/{SIDE_NAME}"
    return {f"{base}.md": md, f"{base}.csv": _csv(csv_rows), f"{base}.json": _json(data)}
