"""Effects of removal rendered as a table, Markdown, CSV or JSON (the ``eor`` report and the ``eor/`` tables)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..analysis import BetFigures
from ..eor import DEFAULT_TAG_LEVELS, EOR_SCALE, EffectOfRemoval
from ..exact import decimal_text, fraction_text
from ..layout import markdown_heading, markdown_table, text_table
from ..rebate import Rebate
from . import csv_text, shoe_json, shoe_rules_header
from .formats import Format, write_format

_X1E7_PLACES = 1


def _x1e7(value: Fraction | None) -> str:
    return "—" if value is None else decimal_text(value * EOR_SCALE, _X1E7_PLACES)


def _tag_rows(eor: EffectOfRemoval, levels: Sequence[int]) -> list[list[str]]:
    rows = []
    for effects in eor.bets:
        for level in levels:
            tags = eor.tags(effects.bet.id, level)
            if tags is None:
                # Every EOR is 0: no card tells anything about this bet.
                rows.append([effects.bet.id, "any", *("0" for _ in eor.removals), "—", "—"])
                break
            rows.append(
                [
                    effects.bet.id,
                    str(level),
                    *(str(t) for t in tags.tags),
                    "yes" if tags.balanced else f"no ({tags.deck_sum:+d})",
                    tags.correlation_text(4),
                ]
            )
    return rows


_VALUE_NOTE = (
    "One row per value: a ten stands for all 0-valued cards (T, J, Q, K), except in the pair bets, "
    "which depend on rank (use rows by rank for those)."
)


def render_eor_text(
    eor: EffectOfRemoval, places: int = 10, *, markdown: bool = False, levels: Sequence[int] = DEFAULT_TAG_LEVELS
) -> str:
    """The EOR report for people: EV change ×10^7 per card removed and bet, then the suggested tags."""
    table = markdown_table if markdown else text_table
    labels = [r.label for r in eor.removals]

    def heading(text: str) -> list[str]:
        return [f"## {text}", ""] if markdown else [text + ":"]

    header = shoe_rules_header(eor.shoe, eor.rules)
    lines = [markdown_heading(1, header) if markdown else header, ""]
    order = ", ".join(labels) if len(labels) <= 4 else f"{', '.join(labels[:3])}, …, {', '.join(labels[-2:])}"
    lines += heading(f"EV of the full shoe, and its change ×10^7 when one card is removed (in the order {order},"
                     " that of a count's tags)")
    rows = [["EV, full shoe", *(decimal_text(b.ev, places) for b in eor.bets)]]
    if eor.rebate is not None:
        rebate = eor.rebate
        rows.append(["EV with rebate", *(decimal_text(b.figures.with_rebate(rebate).ev_with_rebate, places)
                                         for b in eor.bets)])
    for i, removal in enumerate(eor.removals):
        rows.append([f"less one {removal.label}", *(_x1e7(b.effects[i]) for b in eor.bets)])
    lines.append(table(["card removed", *(b.bet.id for b in eor.bets)], rows, "l" + "r" * len(eor.bets)))
    if eor.by == "value":
        lines += ["", _VALUE_NOTE]
    if eor.rebate is not None:
        lines += ["", _REBATE_NOTE.format(eor.rebate.text())]
    lines.append("")
    lines += heading("Suggested linear-count tags (EOR rounded to ±level; tag > 0: removing the card helps the bet)")
    headers = ["bet", "level", *labels, "balanced", "betting corr."]
    lines.append(table(headers, _tag_rows(eor, levels), "ll" + "r" * len(labels) + "lr"))
    return "\n".join(lines) + "\n"


_REBATE_NOTE = (
    "EV with rebate: the full shoe's EV with the {}; the effects of removal and the tags are those of the EV"
    " (the EV with the rebate of every depleted shoe is in the CSV and JSON)."
)


EOR_CSV_COLUMNS = [
    "bet",
    "removed",
    "cards",
    "ev",
    "ev_decimal",
    "eor",
    "eor_decimal",
    "eor_x1e7",
    "hits",
    "orderings",
]


#: The columns a rebate adds (``--rebate``): each row's EV with the rebate, exact and as a decimal.
EOR_REBATE_CSV_COLUMNS = ["rebate_ev", "rebate_ev_decimal"]


def _rebate_cells(figures: BetFigures | None, rebate: Rebate | None, places: int) -> list[str]:
    """The rebate columns of one row: none without a rebate, blank where the shoe holds no such card."""
    if rebate is None:
        return []
    if figures is None:
        return ["", ""]
    ev = figures.with_rebate(rebate).ev_with_rebate
    return [fraction_text(ev), decimal_text(ev, places)]


def render_eor_csv(eor: EffectOfRemoval, places: int = 10) -> str:
    """One row per bet and card removed (plus the full shoe), with exact EV and EOR (and the EV with a rebate)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EOR_CSV_COLUMNS + (EOR_REBATE_CSV_COLUMNS if eor.rebate is not None else []))
    for b in eor.bets:
        writer.writerow(
            [
                csv_text(b.bet.id),
                "",
                eor.shoe.size,
                fraction_text(b.ev),
                decimal_text(b.ev, places),
                "0",
                "0",
                "0",
                _hits(b.figures),
                b.figures.orderings,
                *_rebate_cells(b.figures, eor.rebate, places),
            ]
        )
        for removal, figures, effect in zip(eor.removals, b.depleted, b.effects):
            if figures is None or effect is None:
                writer.writerow([csv_text(b.bet.id), removal.label, removal.cards, "", "", "", "", "", "", "",
                                 *_rebate_cells(None, eor.rebate, places)])
                continue
            writer.writerow(
                [
                    csv_text(b.bet.id),
                    removal.label,
                    removal.cards,
                    fraction_text(figures.ev),
                    decimal_text(figures.ev, places),
                    fraction_text(effect),
                    decimal_text(effect, places + 4),
                    _x1e7(effect),
                    _hits(figures),
                    figures.orderings,
                    *_rebate_cells(figures, eor.rebate, places),
                ]
            )
    return out.getvalue()


def _hits(figures: BetFigures) -> str:
    """The orderings in which the bet wins something, a multiplier's share weighted (an exact fraction then)."""
    return fraction_text(sum((o.count * o.outcome.chance(1) for o in figures.outcomes), Fraction(0)))


def eor_json(eor: EffectOfRemoval, places: int = 10, levels: Sequence[int] = DEFAULT_TAG_LEVELS) -> dict[str, Any]:
    """The EORs as JSON-ready values: exact rationals as ``n/d`` strings, counts as integer strings."""
    bets: dict[str, Any] = {}
    for b in eor.bets:
        rows = []
        for removal, figures, effect in zip(eor.removals, b.depleted, b.effects):
            row: dict[str, Any] = {"removed": removal.label, "cards": removal.cards}
            if figures is not None and effect is not None:
                row.update(
                    {
                        "ev": fraction_text(figures.ev),
                        "ev_decimal": decimal_text(figures.ev, places),
                        "eor": fraction_text(effect),
                        "eor_decimal": decimal_text(effect, places + 4),
                        "eor_x1e7": _x1e7(effect),
                        "hits": _hits(figures),
                        "orderings": str(figures.orderings),
                    }
                )
                if eor.rebate is not None:
                    row["rebate"] = figures.with_rebate(eor.rebate).as_json()
            rows.append(row)
        tags: dict[str, Any] = {}
        for level in levels:
            t = eor.tags(b.bet.id, level)
            tags[str(level)] = (
                None
                if t is None
                else {
                    "tags": dict(zip((r.label for r in eor.removals), t.tags)),
                    "unit": fraction_text(t.unit),
                    "deck_sum": t.deck_sum,
                    "balanced": t.balanced,
                    "betting_correlation": t.correlation_text(6),
                }
            )
        bets[b.bet.id] = {
            "ev": fraction_text(b.ev),
            "ev_decimal": decimal_text(b.ev, places),
            "hits": _hits(b.figures),
            "orderings": str(b.figures.orderings),
            **({} if eor.rebate is None else {"rebate": b.figures.with_rebate(eor.rebate).as_json()}),
            "effects": rows,
            "tags": tags,
        }
    return {
        "rules": eor.rules.as_dict(),
        "shoe": shoe_json(eor.shoe, suited=False),
        "by": eor.by,
        "scale": str(EOR_SCALE),
        "bets": bets,
    }


def render_eor(
    eor: EffectOfRemoval, fmt: Format = "table", places: int = 10, levels: Sequence[int] = DEFAULT_TAG_LEVELS
) -> str:
    """Effects of removal as ``table``, ``markdown``, ``csv`` or ``json``.

    >>> from exactodds.cards import Shoe
    >>> from exactodds.eor import effect_of_removal
    >>> render_eor(effect_of_removal(Shoe.standard(8), bets=["tie"]), "csv").splitlines()[2][:14]
    'tie,A,32,-7011'
    """
    return write_format("analysis", fmt, {
        "table": lambda: render_eor_text(eor, places, levels=levels),
        "markdown": lambda: render_eor_text(eor, places, markdown=True, levels=levels),
        "csv": lambda: render_eor_csv(eor, places),
        "json": lambda: json.dumps(eor_json(eor, places, levels), indent=2, ensure_ascii=False) + "\n",
    })
