"""A run's exact totals, the figures made from them, and the run as a result (complete or not).

Every total is an exact integer, so adding the totals of chunks is exact and order-free:
the result is the same for any number of workers, any order of completion, or a run
stopped and resumed. Bet EVs are summed in fixed point (units of 2^-EV_BITS), each coup's
EV rounded from float64, which is deterministic; the decisions use exact integers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from ..exact import decimal_text, fraction_text, sqrt_decimal_text
from ..present.formats import write_format
from ..present.lab import json_text, play_table, result_table
from .advantage import DEFAULT_ROR, PlayFigures, house_edges
from .counts import tags_text
from .plan import SimulationPlan

#: Bet EVs are summed in units of 2^-EV_BITS.
EV_BITS = 32
#: The exact totals kept per strategy and bet (and per strategy, for all bets combined).
TOTAL_FIELDS = ("bets", "won", "won_squares", "ev", "ev_squares")


@dataclass
class Totals:
    """Exact integer totals of a run or a part of it; adding them is exact and order-free.

    ``won`` is in units of 1/``scale`` of a unit staked, ``ev`` in units of 2^-32; the
    ``_squares`` fields sum the squares of the per-shoe totals (for the standard errors).
    """

    shoes: int = 0
    coups: int = 0
    #: (strategy, bet id or "combined") -> [bets, won, won_squares, ev, ev_squares]
    cells: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def add(self, other: Totals) -> None:
        """Add another part's totals to these."""
        self.shoes += other.shoes
        self.coups += other.coups
        for key, values in other.cells.items():
            mine = self.cells.setdefault(key, [0] * len(TOTAL_FIELDS))
            for i, x in enumerate(values):
                mine[i] += x

    def as_json(self) -> dict[str, Any]:
        """JSON-ready: integers as decimal strings."""
        return {
            "shoes": self.shoes,
            "coups": self.coups,
            "cells": {
                f"{s}/{b}": dict(zip(TOTAL_FIELDS, (str(x) for x in values))) for (s, b), values in self.cells.items()
            },
        }



@dataclass(frozen=True)
class Figures:
    """The results of one strategy on one bet (or on all bets combined), from exact totals.

    ``units`` is the mean net win per shoe (units staked: 1 per bet); ``ev`` the mean per
    shoe of the exact EVs of the bets placed, which estimates the same expectation with
    far less noise (each coup's luck is replaced by its exact expectation).
    """

    shoes: int
    coups: int
    bets: int
    units: Fraction
    units_variance: Fraction
    ev: Fraction
    ev_variance: Fraction
    #: EV per shoe of this strategy over that of perfect play on the same shoes (counts only).
    efficiency: Fraction | None = None
    #: The same from the units won (noisier).
    efficiency_won: Fraction | None = None

    @property
    def bets_per_shoe(self) -> Fraction:
        """Bets placed per shoe."""
        return Fraction(self.bets, self.shoes)

    @property
    def coups_per_shoe(self) -> Fraction:
        """Coups dealt per shoe."""
        return Fraction(self.coups, self.shoes)

    @property
    def average_edge(self) -> Fraction | None:
        """The mean exact EV of the bets placed (the player's edge when betting); None without bets."""
        return None if not self.bets else self.ev * self.shoes / self.bets

    def units_se_text(self, places: int) -> str:
        """The standard error of ``units`` (the variance of the per-shoe totals over the number of shoes)."""
        return sqrt_decimal_text(self.units_variance / self.shoes, places)

    def ev_se_text(self, places: int) -> str:
        """The standard error of ``ev``."""
        return sqrt_decimal_text(self.ev_variance / self.shoes, places)

    @classmethod
    def of(cls, totals: Totals, key: tuple[str, str], scale: int) -> Figures:
        """The figures of one cell of ``totals`` (wins in units of 1/``scale``)."""
        bets, won, won_sq, ev, ev_sq = totals.cells[key]
        n = totals.shoes

        def variance(total: int, squares: int, unit: int) -> Fraction:
            if n < 2:
                return Fraction(0)
            return Fraction(squares * n - total * total, n * (n - 1) * unit * unit)

        one = 2**EV_BITS
        return cls(
            shoes=n,
            coups=totals.coups,
            bets=bets,
            units=Fraction(won, n * scale),
            units_variance=variance(won, won_sq, scale),
            ev=Fraction(ev, n * one),
            ev_variance=variance(ev, ev_sq, one),
        )


def ranges(indices: Iterable[int]) -> list[list[int]]:
    """Sorted indices as [first, last] runs.

    >>> ranges([5, 0, 1, 2])
    [[0, 2], [5, 5]]
    """
    out: list[list[int]] = []
    for i in sorted(indices):
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


@dataclass
class SimulationResult:
    """A run, complete or not: the plan, the exact totals of the chunks done, and which chunks those are."""

    plan: SimulationPlan
    totals: Totals = field(default_factory=Totals)
    done: set[int] = field(default_factory=set)
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        """Whether every chunk of the plan is done."""
        return len(self.done) == self.plan.chunk_count

    @property
    def shoes_done(self) -> int:
        """Shoes simulated so far."""
        return self.totals.shoes

    def keys(self) -> list[tuple[str, str]]:
        """(strategy, bet id or "combined") in report order."""
        bets = list(self.plan.bet_ids) + (["combined"] if len(self.plan.bet_ids) > 1 else [])
        return [(s, b) for s in self.plan.strategies for b in bets]

    def figures(self) -> dict[tuple[str, str], Figures]:
        """The figures of every strategy and bet (empty before the first chunk)."""
        if not self.totals.shoes:
            return {}
        scale = self.plan.pays.scale
        out = {key: Figures.of(self.totals, key, scale) for key in self.keys()}
        for (strategy, bet), f in list(out.items()):
            if strategy == "count":
                perfect = out[("perfect", bet)]
                out[(strategy, bet)] = replace(
                    f,
                    efficiency=f.ev / perfect.ev if perfect.ev else None,
                    efficiency_won=f.units / perfect.units if perfect.units else None,
                )
        return out

    def play_figures(self, ror: Fraction = DEFAULT_ROR) -> dict[tuple[str, str], PlayFigures]:
        """The advantage-play figures of every strategy and bet (estimates), beside each bet's exact house edge."""
        figures = self.figures()
        if not figures:
            return {}
        edges = house_edges(self.plan.shoe, self.plan.rules, self.plan.paid_bets)  # with the rebate, if any
        return {key: PlayFigures.of(f, ror, edges.get(key[1])) for key, f in figures.items()}

    def as_json(self, places: int = 6, ror: Fraction = DEFAULT_ROR) -> dict[str, Any]:
        """The run as JSON-ready values: the plan, the figures (decimal strings) and the exact totals."""
        results: dict[str, Any] = {}
        play = self.play_figures(ror)
        for (strategy, bet), f in self.figures().items():
            edge = f.average_edge
            entry: dict[str, Any] = {
                "units_per_shoe": decimal_text(f.units, places),
                "units_per_shoe_se": f.units_se_text(places),
                "ev_per_shoe": decimal_text(f.ev, places),
                "ev_per_shoe_se": f.ev_se_text(places),
                "bets_per_shoe": decimal_text(f.bets_per_shoe, places),
                "coups_per_shoe": decimal_text(f.coups_per_shoe, places),
                "average_edge": None if edge is None else decimal_text(edge, places),
            }
            if strategy == "count":
                entry["efficiency"] = None if f.efficiency is None else decimal_text(f.efficiency, places)
                entry["efficiency_won"] = None if f.efficiency_won is None else decimal_text(f.efficiency_won, places)
            entry["advantage_play"] = play[(strategy, bet)].as_json(places)
            results.setdefault(strategy, {})[bet] = entry
        return {
            "simulation": {"shoes": self.plan.shoes, **self.plan.identity()},
            "shoes_done": self.shoes_done,
            "complete": self.complete,
            "ror": fraction_text(ror),
            "results": results,
            "state": {"chunks_done": ranges(self.done), "totals": self.totals.as_json()},
        }

    def render(self, fmt: str = "table", places: int = 4, ror: Fraction = DEFAULT_ROR) -> str:
        """The results as a ``table`` for people or ``json``, with the advantage-play figures for risk of ruin ror."""
        return write_format("lab", fmt, {
            "table": lambda: self._table(places, ror),
            "json": lambda: json_text(self.as_json(max(places, 6), ror)),
        })

    def _table(self, places: int, ror: Fraction) -> str:
        shoes = self.plan.shoes
        progress = f"{self.shoes_done:,} of {shoes:,} shoes" if not self.complete else f"{shoes:,} shoes"
        counts = [f"count for {bet}: tags {tags_text(system.tags)} · bet when true count >= "
                  f"{fraction_text(system.threshold)}" for bet, system in self.plan.counts.items()]  # fmt: skip
        table = result_table(self.plan.header(), progress, self.figures(), counts, places)
        play = self.play_figures(ror)
        return table + play_table(play, self.shoes_done, ror, places) if play else table
