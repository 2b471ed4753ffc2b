"""Coup breakdowns: the winning side by final total, and the number of cards per coup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..cards import Shoe
from ..exact import decimal_text, fraction_text, grouped
from ..layout import markdown_table
from ..puntobanco.coup import CoupState
from ..puntobanco.infinite import INFINITE_ORDERINGS, infinite_coups
from ..puntobanco.rules import PUNTO_BANCO
from .common import (
    COUP_DECKS,
    DATA_PLACES,
    HOUSE_EDGE_DECKS,
    MD_PLACES,
    _csv,
    _decks_text,
    _json,
)
from .house_edge import INFINITE_LABEL

WINNERS = ("player", "banker", "tie")
#: What the coup tables are made from, for one shoe: its label (decks, or ∞), its cards (None: the infinite
#: shoe), the count of each coup state and the orderings they are out of.
CoupSource = tuple[str, int | None, Mapping[CoupState, int], int]


def winner_by_total(counts: Mapping[CoupState, int]) -> dict[int, dict[str, int]]:
    """Counts by the winning hand's final total (9 down to 0) and the winner (``player``, ``banker``, ``tie``).

    >>> from exactodds.puntobanco.engine import enumerate_coups
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

    >>> from exactodds.puntobanco.engine import enumerate_coups
    >>> cards_per_coup(enumerate_coups(Shoe.standard(1)).counts)[4]
    5570551296
    """
    table = dict.fromkeys((4, 5, 6), 0)
    for state, n in counts.items():
        table[state.cards] += n
    return table


def _coup_sources() -> list[CoupSource]:
    """(label, cards, counts, orderings) for each deck count of the coup tables, then the infinite shoe.

    The counts come from the compiled evaluator (:func:`~exactodds.puntobanco.compiled.coup_distribution`);
    the tests check them against the reference walk :func:`~exactodds.puntobanco.engine.enumerate_coups`.
    """
    from ..puntobanco.compiled import coup_distribution

    sources: list[CoupSource] = []
    for decks in HOUSE_EDGE_DECKS:
        shoe = Shoe.standard(decks)
        counts = coup_distribution(shoe, PUNTO_BANCO.tableau).counts
        sources.append((str(decks), shoe.size, counts, shoe.orderings()))
    sources.append((INFINITE_LABEL, None, infinite_coups(PUNTO_BANCO.tableau), INFINITE_ORDERINGS))
    return sources


_COUP_NOTE = (
    "These depend only on the drawing rules (the tableau), which punto-banco and ez share, not on commission or pays."
)


def coup_files(sources: Sequence[CoupSource]) -> dict[str, str]:
    """The coup breakdowns: winning side by final total, and the number of cards per coup."""
    return {**_winner_by_total_files(sources), **_cards_per_coup_files(sources)}


def _winner_by_total_files(sources: Sequence[CoupSource]) -> dict[str, str]:
    """``coups/winner-by-total``: the draws by winner and winning total, on the shoes of COUP_DECKS and the infinite."""
    wanted = {str(d) for d in COUP_DECKS} | {INFINITE_LABEL}
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
        md += _winner_by_total_section(label, cards, table, orderings)
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
    return {
        "coups/winner-by-total.md": "\n".join(md) + "\n",
        "coups/winner-by-total.csv": _csv(csv_rows),
        "coups/winner-by-total.json": _json({"rows": data_rows}),
    }


def _winner_by_total_section(
    label: str, cards: int | None, table: dict[int, dict[str, int]], orderings: int
) -> list[str]:
    """One shoe's section of ``winner-by-total.md``: its counts by winner and total, then their probabilities."""
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
    return [
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


def _cards_per_coup_files(sources: Sequence[CoupSource]) -> dict[str, str]:
    """``coups/cards-per-coup``: the probability that a coup uses 4, 5 or 6 cards, for every shoe of ``sources``."""
    md_rows = []
    csv_rows: list[list[object]] = [
        ["decks", "cards", "cards_per_coup", "count", "orderings", "probability", "probability_decimal"]
    ]
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
    md = [
        "# Number of cards per coup",
        "",
        "Probability that a coup uses 4, 5 or 6 cards, for d decks and the infinite shoe (∞).",
        "Exact counts and fractions are in the CSV and JSON files beside this one.",
        _COUP_NOTE,
        "",
        markdown_table(["decks", "4 cards", "5 cards", "6 cards"], md_rows, "rrrr"),
    ]
    return {
        "coups/cards-per-coup.md": "\n".join(md) + "\n",
        "coups/cards-per-coup.csv": _csv(csv_rows),
        "coups/cards-per-coup.json": _json({"rows": data_rows}),
    }
