"""The reference tables: par sheets, house edge by decks, effect of removal, coup breakdowns, closed forms.

:func:`generate_tables` makes every file of the ``tables/`` folder in memory (bytes,
identical on every run and machine: exact arithmetic, decimals by integer rounding,
tables laid out by hand, ``\\n`` line ends); :func:`write_tables` writes them
atomically (a temporary file in the same folder, then a rename) and
:func:`check_tables` says which committed files are stale, missing or extra.
Nothing here prints: progress goes to an optional callback.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from .analysis import Analysis, BetFigures, analyze
from .bets import Bet
from .cards import Shoe
from .coup import CoupState
from .engine import enumerate_coups
from .eor import effect_of_removal, render_eor
from .errors import ExactOddsError
from .exact import decimal_text, fraction_text, grouped, one_in_text, percent_text, short_text
from .files import TEMP_SUFFIX, write_atomic
from .infinite import INFINITE_ORDERINGS, analyze_infinite, infinite_coups
from .layout import markdown_table
from .report import analysis_json, shoe_rules_header
from .rules import EZ, PUNTO_BANCO, SUPER_6, RuleSet

#: The rule sets and deck counts of the par sheets.
PAR_RULES: tuple[RuleSet, ...] = (PUNTO_BANCO, EZ, SUPER_6)
#: The side-bet catalog is priced under these rules (its bets do not read the commission or the Tie pay).
SIDE_RULES = PUNTO_BANCO
SIDE_NAME = "side-bets"
PAR_DECKS = (1, 2, 4, 6, 8)
#: The deck counts of the house-edge tables (plus the infinite shoe).
HOUSE_EDGE_DECKS = tuple(range(1, 13))
#: The deck counts of the effect-of-removal tables.
EOR_DECKS = (6, 8)
#: The deck counts of the coup breakdowns by winner and total (cards per coup uses HOUSE_EDGE_DECKS).
COUP_DECKS = PAR_DECKS
#: Decimal places: in Markdown (for people) and in CSV/JSON (for programs).
MD_PLACES = 10
DATA_PLACES = 16
#: The first line of the generated index; a folder whose README.md starts otherwise is not overwritten.
INDEX_TITLE = "# exactodds reference tables"
REGENERATE = "exactodds tables"
#: File suffixes the generator writes (the only extra files :func:`write_tables` removes).
_OWNED_SUFFIXES = (".md", ".csv", ".json")

Progress = Callable[[str], None]


def _decks_name(decks: int) -> str:
    return f"{decks}-deck{'s' if decks != 1 else ''}"


def _decks_text(decks: int) -> str:
    return _decks_name(decks).replace("-", " ")


def _whole_decks(shoe: Shoe) -> int | None:
    """The number of standard decks the shoe is, or ``None`` when it is not whole decks."""
    first = shoe.counts[0]
    if first and first % 4 == 0 and all(n == first for n in shoe.counts):
        return first // 4
    return None


def _csv(rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows(rows)
    return out.getvalue()


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


class _Cache:
    """Analyses already made in this run, so each (shoe, rules) is priced once."""

    def __init__(self) -> None:
        self._analyses: dict[tuple[Shoe, RuleSet, bool], Analysis] = {}

    def analysis(self, shoe: Shoe, rules: RuleSet, *, side: bool = False) -> Analysis:
        """The core bets of ``rules`` on ``shoe`` or, with ``side``, the side-bet catalog."""
        key = (shoe, rules, side)
        if key not in self._analyses:
            self._analyses[key] = analyze(shoe, rules, side_bet_ids() if side else None)
        return self._analyses[key]


def side_bet_ids() -> list[str]:
    """The ids of the side-bet catalog beyond the core bets, in catalog order."""
    from .bets import side_catalog

    return [bet.id for bet in side_catalog()]


# Par sheets ---------------------------------------------------------------------------------

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


def par_sheet_markdown(analysis: Analysis, places: int = MD_PLACES, *, title: str | None = None) -> str:
    """A par sheet for people: per bet, every outcome with its pay, count, probability, return and 1 in N."""
    shoe, rules = analysis.shoe, analysis.rules
    header = shoe_rules_header(shoe, rules)
    lines = [
        f"# Par sheet: {title or rules.name}, {shoe.describe()}",
        "",
        header,
        "",
        f"Combinations are ordered six-card draws out of ({shoe.size})P6 = {grouped(analysis.orderings)}"
        " (see README.md). Pays are net, to 1 (-1: the stake is lost; 0: a push).",
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
    return "\n".join(lines) + "\n"


def par_sheet_csv(analysis: Analysis, places: int = DATA_PLACES) -> str:
    """A par sheet for programs: one row per bet outcome, then the bet's Totals row with its footer figures.

    Rows are built by column name, so a value can never land under another column's header.

    >>> from exactodds.analysis import analyze
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


# House edge by decks ------------------------------------------------------------------------

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
    from .bets import side_catalog

    bets = side_catalog()
    columns: list[tuple[str, int | None, dict[str, BetFigures]]] = []
    for decks in HOUSE_EDGE_DECKS:
        shoe = Shoe.standard(decks)
        figures = cache.analysis(shoe, SIDE_RULES, side=True).bets
        columns.append((str(decks), shoe.size, {f.bet.id: f for f in figures}))
    # The infinite shoe is known by rank only: bets on suited pairs have no entry there.
    plain = [b for b in bets if not b.needs_suits]
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


# Coup breakdowns -----------------------------------------------------------------------------

WINNERS = ("player", "banker", "tie")


def winner_by_total(counts: Mapping[CoupState, int]) -> dict[int, dict[str, int]]:
    """Counts by the winning hand's final total (9 down to 0) and the winner (``player``, ``banker``, ``tie``).

    >>> table = winner_by_total(enumerate_coups(Shoe.standard(8)).counts)
    >>> table[6]["banker"]
    269232304455680
    """
    table = {total: dict.fromkeys(WINNERS, 0) for total in range(9, -1, -1)}
    for state, n in counts.items():
        winner = state.winner
        total = state.banker_total if winner == "banker" else state.player_total
        table[total][winner] += n
    return table


def cards_per_coup(counts: Mapping[CoupState, int]) -> dict[int, int]:
    """Counts by the number of cards the coup used (4, 5 or 6).

    >>> cards_per_coup(enumerate_coups(Shoe.standard(1)).counts)[4]
    5570551296
    """
    table = dict.fromkeys((4, 5, 6), 0)
    for state, n in counts.items():
        table[state.cards] += n
    return table


def _coup_sources() -> list[tuple[str, int | None, Mapping[CoupState, int], int]]:
    """(label, cards, counts, orderings) for each deck count of the coup tables, then the infinite shoe."""
    sources: list[tuple[str, int | None, Mapping[CoupState, int], int]] = []
    for decks in HOUSE_EDGE_DECKS:
        shoe = Shoe.standard(decks)
        sources.append((str(decks), shoe.size, enumerate_coups(shoe, PUNTO_BANCO.tableau).counts, shoe.orderings()))
    sources.append((INFINITE_LABEL, None, infinite_coups(PUNTO_BANCO.tableau), INFINITE_ORDERINGS))
    return sources


_COUP_NOTE = (
    "These depend only on the drawing rules (the tableau), which punto-banco and ez share, not on commission or pays."
)


def coup_files(sources: Sequence[tuple[str, int | None, Mapping[CoupState, int], int]]) -> dict[str, str]:
    """The coup breakdowns: winning side by final total, and the number of cards per coup."""
    files: dict[str, str] = {}
    wanted = {str(d) for d in COUP_DECKS} | {INFINITE_LABEL}

    # Winning side and total.
    md = [
        "# Winning side and total",
        "",
        "Ordered six-card draws by the winner and the winning hand's final total (for a tie, the tied total),",
        "for standard shoes of d decks and the infinite shoe (every card drawn with replacement).",
        _COUP_NOTE,
    ]
    csv_rows: list[list[object]] = [
        ["decks", "total", "winner", "count", "orderings", "probability", "probability_decimal"]
    ]
    data_rows: list[dict[str, Any]] = []
    for label, cards, counts, orderings in sources:
        if label not in wanted:
            continue
        table = winner_by_total(counts)
        title = "Infinite shoe" if cards is None else f"{_decks_text(int(label))} ({cards:,} cards)"
        out_of = (
            f"out of 13^6 = {grouped(orderings)} rank sequences"
            if cards is None
            else (f"out of ({cards})P6 = {grouped(orderings)}")
        )
        md_rows = [[str(total), *(grouped(table[total][w]) for w in WINNERS)] for total in table]
        md_rows.append(["all", *(grouped(sum(table[t][w] for t in table)) for w in WINNERS)])
        prob_rows = [
            [str(total), *(decimal_text(Fraction(table[total][w], orderings), MD_PLACES) for w in WINNERS)]
            for total in table
        ]
        md += [
            "",
            f"## {title}",
            "",
            f"Counts, {out_of}:",
            "",
            markdown_table(["total", "Player wins", "Banker wins", "Ties"], md_rows, "rrrr"),
            "",
            "Probabilities:",
            "",
            markdown_table(["total", "Player wins", "Banker wins", "Ties"], prob_rows, "rrrr"),
        ]
        for total in table:
            for w in WINNERS:
                p = Fraction(table[total][w], orderings)
                csv_rows.append(
                    [label, total, w, table[total][w], orderings, fraction_text(p), decimal_text(p, DATA_PLACES)]
                )
        data_rows.append(
            {
                "decks": label,
                "cards": cards,
                "orderings": str(orderings),
                "counts": {str(total): {w: str(table[total][w]) for w in WINNERS} for total in table},
            }
        )
    files["coups/winner-by-total.md"] = "\n".join(md) + "\n"
    files["coups/winner-by-total.csv"] = _csv(csv_rows)
    files["coups/winner-by-total.json"] = _json({"rows": data_rows})

    # Number of cards per coup.
    md_rows = []
    csv_rows = [["decks", "cards", "cards_per_coup", "count", "orderings", "probability", "probability_decimal"]]
    data_rows = []
    for label, cards, counts, orderings in sources:
        by_cards = cards_per_coup(counts)
        md_rows.append(
            [
                "∞" if cards is None else label,
                *(decimal_text(Fraction(by_cards[k], orderings), MD_PLACES) for k in by_cards),
            ]
        )
        for k, n in by_cards.items():
            p = Fraction(n, orderings)
            csv_rows.append(
                [label, "" if cards is None else cards, k, n, orderings, fraction_text(p), decimal_text(p, DATA_PLACES)]
            )
        data_rows.append(
            {
                "decks": label,
                "cards": cards,
                "orderings": str(orderings),
                "counts": {str(k): str(n) for k, n in by_cards.items()},
            }
        )
    files["coups/cards-per-coup.md"] = (
        "\n".join(
            [
                "# Number of cards per coup",
                "",
                "Probability that a coup uses 4, 5 or 6 cards, for d decks and the infinite shoe (∞).",
                "Exact counts and fractions are in the CSV and JSON files beside this one.",
                _COUP_NOTE,
                "",
                markdown_table(["decks", "4 cards", "5 cards", "6 cards"], md_rows, "rrrr"),
            ]
        )
        + "\n"
    )
    files["coups/cards-per-coup.csv"] = _csv(csv_rows)
    files["coups/cards-per-coup.json"] = _json({"rows": data_rows})
    return files


# The index ------------------------------------------------------------------------------------


def index_markdown(paths: Iterable[str]) -> str:
    """The ``tables/README.md`` index: what each file is, the counting convention, how to regenerate."""
    listed = sorted(paths)

    def files(prefix: str) -> str:
        names = [p for p in listed if p.startswith(prefix)]
        stems = sorted({p.rsplit(".", 1)[0] for p in names})
        out = []
        for stem in stems:
            kinds = [p.rsplit(".", 1)[1] for p in names if p.rsplit(".", 1)[0] == stem]
            links = " · ".join(f"[{k}]({stem}.{k})" for k in sorted(kinds, key=("md", "csv", "json").index))
            out.append(f"- `{stem}`: {links}")
        return "\n".join(out)

    return f"""{INDEX_TITLE}

Exact figures for punto banco (baccarat), generated by exactodds. Do not edit these files
by hand: regenerate them with

```
{REGENERATE}
```

and check that the committed files are current with `{REGENERATE} --check` (it exits
non-zero and names every stale, missing or extra file). Every file is deterministic:
the same code writes the same bytes on every machine.

## Counting convention

Every count is a number of **ordered six-card draws**: a coup that uses only four or five
cards is still counted over all orderings of the first six cards of the shoe, so every count
from an N-card shoe shares the denominator N(N−1)(N−2)(N−3)(N−4)(N−5) = (N)P6
(4,998,398,275,503,360 for 8 decks). This is the convention of the published exact tables.
Probabilities are exact fractions in lowest terms (`n/d`); decimals are rounded half up from
the exact values. The **infinite shoe** draws every card with replacement (1/13 per rank);
its counts are out of the 13^6 = 4,826,809 equally likely rank sequences of six cards.
Markdown files are for people; CSV and JSON files carry the same figures exactly for programs
(counts as integers, exact rationals as `n/d` strings).

## Par sheets: `par/`

For each rule set (`punto-banco`: Banker 0.95:1, Tie 8:1; `ez`: no commission, a Banker win
with a three-card 7 pushes; `super-6`: no commission, a Banker win with a total of 6 pays 1 to 2)
and 1, 2, 4, 6 and 8 decks, every core bet of the rule set: each outcome
with its pay (net, to 1), combinations, probability (exact and decimal), return (pay ×
probability) and hit frequency as 1 in N; a Totals row (the combinations sum to (N)P6, the
probability to 1, the return is the bet's EV); then house edge, variance, standard deviation,
hit frequency and the rules header. The `side-bets` sheets do the same for the side-bet catalog
(Either Pair, Perfect Pairs, Dragon Bonus, Big/Small, Egalite, naturals, Lucky 6, side totals),
which reads only the drawing rules that the three rule sets share; bets on suited pairs are
priced on the suited shoe of whole decks.

{files("par/")}

## House edge by number of decks: `house-edge/`

One table per rule set: a column per bet, a row per deck count 1–12 and a row for the infinite shoe.
`side-bets`: the side-bet catalog, a row per bet and a column per deck count (the infinite shoe is
known by rank only, so the bets on suited pairs have no entry there).

{files("house-edge/")}

## Effect of removal: `eor/`

For 6 and 8 decks and every bet, the exact change in EV when one card of each value is removed
from the full shoe, also ×10^7 as in the literature (the exact fractions, the EV of each depleted
shoe and its winning count are in the CSV and JSON files). A row per value 0–9; the value-0 row
removes a ten (T). Pair bets depend on ranks, not values; in a full shoe of whole decks removing
any one card leaves a pair bet's EV exactly unchanged, so their row is 0 throughout.

Suggested tags for a linear count, at levels 1–4 (largest tag ±level): the EORs divided by a
unit and rounded to the nearest integer (halves away from zero). Of every unit that makes the
largest tag exactly ±level, the tags kept are balanced (a 52-card deck sums to 0) if any are, and
of those the ones with the highest betting correlation (the correlation of tags and EORs over
the cards of the shoe); the balance and correlation are printed beside the tags. A positive tag
means removing the card helps the bet, so a running count of the cards *seen*, with these
tags, rises as the bet improves. This method reproduces Eliot Jacobson's published Dragon 7
(level 2) and Panda 8 (level 4) tags. `exactodds eor` prints the same for any shoe.

{files("eor/")}

## Coup breakdowns: `coups/`

By winning side and the winner's final total (1, 2, 4, 6 and 8 decks and the infinite shoe), and
the number of cards per coup (1–12 decks and the infinite shoe). Both depend only on the
drawing rules, which `punto-banco` and `ez` share.

{files("coups/")}

## Closed forms in the number of decks: `closed-forms`

For Banker wins, Player wins, Tie, Dragon 7 wins and Panda 8 wins: the count of ordered six-card
draws from d decks as an exact polynomial in d (found by exact interpolation through the
engine's counts at d = 1–7 with sympy and checked against the engine at other d), each
probability as that polynomial over (52d)(52d−1)(52d−2)(52d−3)(52d−4)(52d−5), and its limit
as d → ∞.

{files("closed-forms")}
"""


# Generation ------------------------------------------------------------------------------------


def generate_tables(progress: Progress | None = None) -> dict[str, bytes]:
    """Make every file of the ``tables/`` folder: a mapping from relative path (``/``-separated) to bytes.

    Deterministic: the same code gives the same bytes. Reports each step to ``progress``.
    """
    from .closed_forms import closed_forms, render_closed_forms_json, render_closed_forms_markdown

    cache = _Cache()
    steps: list[tuple[str, Callable[[], dict[str, str]]]] = []

    def par(rules: RuleSet, decks: int, side: bool = False) -> dict[str, str]:
        analysis = cache.analysis(Shoe.standard(decks), rules, side=side)
        base = f"par/{SIDE_NAME if side else rules.name}-{_decks_name(decks)}"
        return {
            f"{base}.md": par_sheet_markdown(analysis, title=SIDE_NAME if side else None),
            f"{base}.csv": par_sheet_csv(analysis),
            f"{base}.json": _json(par_sheet_json(analysis)),
        }

    def eor(rules: RuleSet, decks: int) -> dict[str, str]:
        result = effect_of_removal(Shoe.standard(decks), rules)
        base = f"eor/{rules.name}-{_decks_name(decks)}"
        title = f"# Effect of removal: {rules.name}, {_decks_text(decks)}\n\n"
        markdown = render_eor(result, "markdown", MD_PLACES).replace("# ", "", 1)
        return {
            f"{base}.md": title + markdown,
            f"{base}.csv": render_eor(result, "csv", DATA_PLACES),
            f"{base}.json": render_eor(result, "json", DATA_PLACES),
        }

    def closed() -> dict[str, str]:
        forms = closed_forms()
        return {
            "closed-forms.md": render_closed_forms_markdown(forms),
            "closed-forms.json": render_closed_forms_json(forms),
        }

    for rules in PAR_RULES:
        for decks in PAR_DECKS:
            steps.append((f"par sheet: {rules.name}, {_decks_text(decks)}", partial(par, rules, decks)))
    for decks in PAR_DECKS:
        steps.append((f"par sheet: side bets, {_decks_text(decks)}", partial(par, SIDE_RULES, decks, True)))
    for rules in PAR_RULES:
        steps.append((f"house edge by decks: {rules.name}", partial(house_edge_files, rules, cache)))
    steps.append(("house edge by decks: side bets", partial(side_house_edge_files, cache)))
    for rules in PAR_RULES:
        for decks in EOR_DECKS:
            steps.append((f"effect of removal: {rules.name}, {_decks_text(decks)}", partial(eor, rules, decks)))
    steps.append(("coup breakdowns", lambda: coup_files(_coup_sources())))
    steps.append(("closed forms in the number of decks", closed))

    files: dict[str, str] = {}
    for i, (label, step) in enumerate(steps, 1):
        if progress is not None:
            progress(f"[{i:>2}/{len(steps) + 1}] {label}")
        files.update(step())
    if progress is not None:
        progress(f"[{len(steps) + 1:>2}/{len(steps) + 1}] index (README.md)")
    files["README.md"] = index_markdown([*files, "README.md"])
    return {path: files[path].encode("utf-8") for path in sorted(files)}


# Writing and checking --------------------------------------------------------------------------


@dataclass(frozen=True)
class TablesStatus:
    """How a folder differs from the generated tables (relative paths, sorted)."""

    directory: Path
    stale: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the folder holds exactly the generated files, byte for byte."""
        return not (self.stale or self.missing or self.extra)

    def lines(self) -> list[str]:
        """One line per differing file: ``stale: tables/par/…``."""
        out = []
        for kind, paths in (("stale", self.stale), ("missing", self.missing), ("extra", self.extra)):
            out += [f"{kind}: {self.directory / p}" for p in paths]
        return out

    def summary(self) -> str:
        """A one-line count of the differences."""
        parts = [f"{len(p)} {k}" for k, p in (("stale", self.stale), ("missing", self.missing), ("extra", self.extra))]
        return ", ".join(p for p in parts if not p.startswith("0 ")) or "up to date"


def _existing_files(directory: Path) -> list[str]:
    if not directory.is_dir():
        return []
    return sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file() or p.is_symlink())


def check_tables(directory: Path | str, files: Mapping[str, bytes]) -> TablesStatus:
    """Compare ``directory`` with the generated ``files`` byte for byte.

    >>> status = check_tables("/nonexistent", {"README.md": b"x"})
    >>> status.ok, status.missing
    (False, ('README.md',))
    """
    directory = Path(directory)
    stale, missing = [], []
    for path, data in sorted(files.items()):
        target = directory / path
        if not target.is_file():
            missing.append(path)
        elif target.read_bytes() != data:
            stale.append(path)
    extra = [p for p in _existing_files(directory) if p not in files]
    return TablesStatus(directory, tuple(stale), tuple(missing), tuple(extra))


def _looks_like_tables(directory: Path) -> bool:
    if not directory.exists():
        return True
    if not directory.is_dir():
        return False
    if not any(directory.iterdir()):
        return True
    index = directory / "README.md"
    return index.is_file() and index.read_bytes().startswith(INDEX_TITLE.encode())


def ensure_tables_dir(directory: Path | str) -> Path:
    """Return ``directory`` as a path if tables may be written there: new, empty, or a tables folder.

    >>> ensure_tables_dir("/nonexistent/tables").name
    'tables'
    """
    directory = Path(directory)
    if not _looks_like_tables(directory):
        raise ExactOddsError(
            f"{directory} is not empty and does not look like an exactodds tables folder "
            f"(no README.md starting {INDEX_TITLE!r}); give a new or empty folder"
        )
    if directory.is_dir():
        for folder, subfolders, names in os.walk(directory):  # os.walk does not follow links
            for name in (*subfolders, *names):
                _refuse_links(Path(folder), [name])
    return directory


def write_tables(directory: Path | str, files: Mapping[str, bytes], progress: Progress | None = None) -> TablesStatus:
    """Bring ``directory`` in line with ``files``: write what is stale or missing (atomically), remove extras.

    Refuses a non-empty folder that is not a tables folder (no generated README.md), and
    only removes extra files of the kinds it writes (``.md``, ``.csv``, ``.json`` and its
    own temporary files); other extra files are left and stay in the returned status.
    Returns what differed before writing.
    """
    directory = ensure_tables_dir(directory)
    before = check_tables(directory, files)
    _refuse_links(directory, [*before.missing, *before.stale, *before.extra])
    for path in (*before.missing, *before.stale):
        write_atomic(directory / path, files[path])
        if progress is not None:
            progress(f"wrote {directory / path}")
    for path in before.extra:
        target = directory / path
        if target.suffix in _OWNED_SUFFIXES or target.name.endswith(TEMP_SUFFIX):
            target.unlink()
            if progress is not None:
                progress(f"removed {target}")
            with contextlib.suppress(OSError):
                parent = target.parent
                while parent != directory and not any(parent.iterdir()):
                    parent.rmdir()
                    parent = parent.parent
        elif progress is not None:
            progress(f"left alone (not a generated kind of file): {target}")
    return before


def _refuse_links(directory: Path, paths: Iterable[str]) -> None:
    """Refuse to write or remove through a symbolic link below ``directory`` (a subfolder or a file).

    A link such as ``tables/eor -> elsewhere`` would make the generator write (or delete)
    files outside the tables folder; every path is checked before anything is written.
    """
    for path in paths:
        target = directory
        for part in Path(path).parts:
            target = target / part
            if target.is_symlink():
                raise ExactOddsError(
                    f"{target} is a symbolic link: the tables are written only inside {directory}, never through"
                    " a link; remove the link or give another --output folder"
                )


_PROJECT_NAME = re.compile(r'^\s*name\s*=\s*["\']exactodds["\']\s*$', re.MULTILINE)


def find_tables_dir(start: Path | str | None = None) -> Path:
    """The ``tables`` folder of the exactodds checkout containing ``start`` (default: the current folder).

    Looks from ``start`` upward for a ``pyproject.toml`` of the project named ``exactodds``.
    """
    here = Path.cwd() if start is None else Path(start)
    here = here.resolve()
    for folder in (here, *here.parents):
        project = folder / "pyproject.toml"
        if project.is_file() and _PROJECT_NAME.search(project.read_text(encoding="utf-8", errors="replace")):
            return folder / "tables"
    raise ExactOddsError(
        f"no exactodds checkout (a pyproject.toml naming exactodds) in {here} or above; use --output DIR"
    )
