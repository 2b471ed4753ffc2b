"""The lab's reports for people and programs: a run's figures and proposed counts, as a table or JSON.

This module reads its inputs through small protocols and imports nothing else of the lab,
so it can move to the presentation layer in one piece.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

from ..cards import Shoe
from ..exact import decimal_text
from ..layout import text_table
from ..puntobanco.rules import RuleSet
from . import shoe_json, shoe_rules_header
from .formats import write_format


class FiguresLike(Protocol):
    """What a table row reads of one strategy's figures on one bet (see :class:`exactodds.lab.results.Figures`)."""

    @property
    def units(self) -> Fraction: ...
    @property
    def ev(self) -> Fraction: ...
    @property
    def bets_per_shoe(self) -> Fraction: ...
    @property
    def coups_per_shoe(self) -> Fraction: ...
    @property
    def average_edge(self) -> Fraction | None: ...
    @property
    def efficiency(self) -> Fraction | None: ...
    def units_se_text(self, places: int) -> str: ...
    def ev_se_text(self, places: int) -> str: ...


class PlayLike(Protocol):
    """What the advantage-play table reads of one cell (see :class:`exactodds.lab.advantage.PlayFigures`)."""

    @property
    def bets_per_100(self) -> Fraction: ...
    @property
    def ev_per_100(self) -> Fraction: ...
    @property
    def ev_per_100_se(self) -> float: ...
    @property
    def sd_per_100(self) -> float: ...
    @property
    def sd_per_shoe(self) -> float: ...
    @property
    def n0_coups(self) -> Fraction | None: ...
    @property
    def di(self) -> float | None: ...
    @property
    def bankroll(self) -> float | None: ...
    @property
    def house_edge(self) -> Fraction | None: ...


class ProposalLike(Protocol):
    """What the proposals report reads of a proposed count (see :class:`exactodds.lab.proposals.CountProposal`)."""

    @property
    def bet(self) -> str: ...
    @property
    def level(self) -> int: ...
    @property
    def balanced(self) -> bool: ...
    @property
    def correlation(self) -> str: ...
    @property
    def break_even(self) -> Fraction | None: ...
    def tags_text(self) -> str: ...


def json_text(data: Any) -> str:
    """A report's JSON, as every lab report writes it."""
    return json.dumps(data, indent=2) + "\n"


def result_table(
    header: str,
    progress: str,
    figures: Mapping[tuple[str, str], FiguresLike],
    counts: Sequence[str],
    places: int,
) -> str:
    """A run as a table: the plan's header, the shoes done, each count's line, then one row per strategy and bet."""
    lines = [header, progress]
    if not figures:
        return "\n".join(lines) + "\n"
    first = next(iter(figures.values()))
    lines[-1] += f" · {decimal_text(first.coups_per_shoe, 2)} coups per shoe"
    lines += counts
    rows = []
    for (strategy, bet), f in figures.items():
        edge = f.average_edge
        rows.append([
            strategy, bet,
            decimal_text(f.units, places), f.units_se_text(places),
            decimal_text(f.ev, places), f.ev_se_text(places),
            decimal_text(f.bets_per_shoe, 2),
            "—" if edge is None else decimal_text(edge * 100, 2) + "%",
            "" if f.efficiency is None else decimal_text(f.efficiency * 100, 1) + "%",
        ])  # fmt: skip
    headers = ["strategy", "bet", "units/shoe", "± SE", "EV/shoe", "± SE", "bets/shoe", "edge when betting",
               "efficiency"]  # fmt: skip
    lines += ["", text_table(headers, rows, "llrrrrrrr")]
    lines += ["", "units/shoe: mean net win per shoe, 1 unit per bet; EV/shoe: mean of the exact EVs of the bets"
              " placed; efficiency: a count's EV/shoe over perfect play's."]  # fmt: skip
    return "\n".join(lines) + "\n"


def play_table(figures: Mapping[tuple[str, str], PlayLike], shoes: int, ror: Fraction, places: int) -> str:
    """The advantage-play figures (estimates) as a table, beside each bet's exact house edge, then the definitions."""
    rows = []
    for (strategy, bet), f in figures.items():
        cells = _play_cells(f, places)
        edge = "" if f.house_edge is None else decimal_text(f.house_edge * 100, 4) + "%"
        rows.append([strategy, bet, *cells[:4], f"{f.sd_per_shoe:.2f}", *cells[4:], edge])
    risk = decimal_text(ror * 100, 2).rstrip("0").rstrip(".") + "%"
    headers = ["strategy", "bet", "bets/100", "EV/100", "± SE", "SD/100", "SD/shoe", "N0 (coups)", "DI",
               f"bankroll {risk} RoR", "house edge (exact)"]  # fmt: skip
    notes = [
        f"Advantage play: estimates from {shoes:,} shoes, not exact figures; per coup dealt (bet or not),"
        " 1 unit a bet.",
        "EV/100: win rate per 100 coups (the exact EVs of the bets placed); SD: of the units won;"
        " N0 = (SD/EV)^2 in coups;",
        "DI = 1000·EV/SD per coup (Schlesinger, Blackjack Attack); bankroll: units for that risk of ruin"
        " betting 1 unit,",
        "-ln(RoR)·Var/(2·EV) (—: EV <= 0, ruin certain); house edge: exact, every coup without a count.",
    ]  # fmt: skip
    return "\n".join(["", text_table(headers, rows, "llrrrrrrrrr"), "", *notes]) + "\n"


def _play_cells(f: PlayLike, places: int) -> list[str]:
    n0, di, bankroll = f.n0_coups, f.di, f.bankroll
    return [
        decimal_text(f.bets_per_100, 2), decimal_text(f.ev_per_100, places), f"{f.ev_per_100_se:.{places}f}",
        f"{f.sd_per_100:.2f}", "—" if n0 is None else f"{round(n0):,}", "—" if di is None else f"{di:.1f}",
        "—" if bankroll is None else f"{bankroll:,.0f}",
    ]  # fmt: skip


def scan_table(
    header: str,
    shoes: int,
    sections: Sequence[tuple[str, str, PlayLike, Sequence[tuple[str, PlayLike]], str, str | None]],
    ror: Fraction,
    places: int,
) -> str:
    """A threshold scan: per bet (id, tags, perfect play, (threshold, figures) rows, best by win rate, by DI)."""
    risk = decimal_text(ror * 100, 2).rstrip("0").rstrip(".") + "%"
    headers = ["TC >=", "bets/100", "EV/100", "± SE", "SD/100", "N0 (coups)", "DI", f"bankroll {risk} RoR",
               "efficiency", ""]  # fmt: skip
    lines = [header, f"{shoes:,} shoes, every threshold on the same shoes"]
    for bet, tags, perfect, rows, best, best_di in sections:
        edge = perfect.house_edge
        lines += ["", f"{bet}: tags {tags} · house edge without a count "
                      f"{'—' if edge is None else decimal_text(edge * 100, 4) + '%'} (exact)"]  # fmt: skip
        table = [["perfect", *_play_cells(perfect, places), "100.0%", ""]]
        for threshold, f in rows:
            efficiency = "" if perfect.ev_per_100 <= 0 else decimal_text(f.ev_per_100 / perfect.ev_per_100 * 100, 1)
            table.append([threshold, *_play_cells(f, places), efficiency and efficiency + "%",
                          "<- best" if threshold == best else ""])  # fmt: skip
        edge_note = " It is at an end of the range scanned: scan further." if best in (rows[0][0], rows[-1][0]) else ""
        lines += [text_table(headers, table, "lrrrrrrrrl"), f"Best threshold for {bet}: true count >= {best}"
                  f" (highest estimated win rate).{edge_note}"]  # fmt: skip
        if best_di is not None and best_di != best:
            lines.append(f"Highest DI (win rate per unit of risk): true count >= {best_di}.")
    lines += ["", f"Estimates from {shoes:,} shoes, not exact figures; per coup dealt, 1 unit per bet; N0, DI"
              " and bankroll as in simulate's advantage-play table."]  # fmt: skip
    return "\n".join(lines) + "\n"


def render_proposals(
    shoe: Shoe, rules: RuleSet, proposals: Sequence[ProposalLike], fmt: str = "table", bets: Sequence[str] = (),
    setup: str = "",
) -> str:
    """Proposed counts as a table (the tags column in the ``--tags`` format) or JSON.

    ``bets`` are the bets asked for: those with no proposal are named, not silently left out
    (a pair bet's effects of removal are all 0 on a shoe of equal ranks: no linear count tracks it).
    ``setup``: the command line's options of the game, shoe, settings and bets files, which the table's ``Try:``
    command takes so that it plays the same game.
    """
    without = [b for b in dict.fromkeys(bets) if b not in {p.bet for p in proposals}]
    return write_format("lab", fmt, {
        "table": lambda: _proposals_table(shoe, rules, proposals, without, setup),
        "json": lambda: _proposals_json(shoe, rules, proposals, without),
    })


def _proposals_json(shoe: Shoe, rules: RuleSet, proposals: Sequence[ProposalLike], without: list[str]) -> str:
    data = {
        "rules": rules.as_dict(),
        "shoe": shoe_json(shoe, suited=False),
        "counts": [
            {
                "bet": p.bet,
                "level": p.level,
                "tags": p.tags_text(),
                "balanced": p.balanced,
                "betting_correlation": p.correlation,
                "break_even_true_count": None if p.break_even is None else decimal_text(p.break_even, 2),
            }
            for p in proposals
        ],
        "without_count": without,
    }
    return json_text(data)


def _proposals_table(shoe: Shoe, rules: RuleSet, proposals: Sequence[ProposalLike], without: list[str],
                     setup: str = "") -> str:
    rows = [
        [p.bet, str(p.level), p.tags_text(), "yes" if p.balanced else "no", p.correlation,
         "—" if p.break_even is None else decimal_text(p.break_even, 1)]
        for p in proposals
    ]  # fmt: skip
    headers = ["bet", "level", "tags (A,2,…,9,T/J/Q/K)", "balanced", "betting corr.", "break-even TC"]
    lines = [shoe_rules_header(shoe, rules), "",
             text_table(headers, rows, "llllrr"), "",
             "Tags: exact effects of removal rounded to ±level (tag > 0: removing the card helps the bet)."
             " Break-even TC: the true count where a linear model puts the bet at EV 0, a first threshold to try.",
             ]  # fmt: skip
    if without:
        lines.append(f"No count for {', '.join(without)}: no tags at these levels (a removal by value changes"
                     " its EV by 0 or too little to round to them).")  # fmt: skip
    best: dict[str, ProposalLike] = {}
    for p in proposals:  # per bet, the best correlated tags
        if p.bet not in best or Fraction(p.correlation) > Fraction(best[p.bet].correlation):
            best[p.bet] = p
    if best:
        prefix = len(best) > 1
        parts = []
        for p in best.values():
            threshold = "0" if p.break_even is None else str(max(math.ceil(p.break_even), 0))
            name = f"{p.bet}=" if prefix else ""
            parts.append(f"--bet {p.bet}")
            parts.append(f"--tags {name}{p.tags_text()} --threshold {name}{threshold}")
        words = ["exactodds simulate", setup, *sorted(parts, key=lambda x: not x.startswith("--bet"))]
        lines.append("Try: " + " ".join(word for word in words if word))
    return "\n".join(lines) + "\n"
