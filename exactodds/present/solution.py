"""Chemin de fer solutions for people: the value, the Player's choice at 5 and the Banker's chart.

The chart has one row per Banker hand (his two-card total in model A1, his two card values
in B2 and B3) and one column per Player's third card (0-9, a ten or face card being 0) or
``stood``. A cell reads ``D`` (draw), ``S`` (stand) or the drawing probability of a mixed
cell; a ``*`` marks a pure cell where the Banker departs from the punto banco table. Cells
that cannot occur are blank.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from ..analysis import Analysis
from ..chemindefer.model import COLUMNS, punto_banco_draws
from ..chemindefer.solution import GameSolution, solution_json
from ..exact import decimal_text, fraction_text, percent_text
from ..layout import text_table
from ..puntobanco.bigtable import FiveChoice, OptionFigures
from ..puntobanco.rules import STANDARD_TABLEAU
from . import shoe_json, shoe_rules_header
from .formats import write_format

#: Column order of the chart: the Player stood, then his third card 0-9.
CHART_COLUMNS: tuple[str, ...] = ("stood", *(c for c in COLUMNS if c != "stood"))


def _hand_total(hand: str) -> int:
    return sum(int(v) for v in hand.split(",")) % 10


def _cell(solution: GameSolution, hand: str, column: str) -> str:
    draw = solution.banker.get((hand, column))
    if draw is None:
        return ""
    if 0 < draw < 1:
        return decimal_text(draw, 3)
    table = punto_banco_draws(_hand_total(hand), 10 if column == "stood" else int(column))
    mark = "" if bool(draw) == table else "*"
    return ("D" if draw else "S") + mark


def banker_chart(solution: GameSolution) -> str:
    """The Banker's strategy as a chart of hands × Player third cards (``D``, ``S``, a probability; ``*``: a departure).

    >>> from exactodds.chemindefer.solution import solve
    >>> print(banker_chart(solve(model="A1")).splitlines()[8])
    6     0.375  S  S  S  S  S  S  D  D  S  S
    """
    hands: list[str] = []
    for hand, _ in solution.banker:
        if hand not in hands:
            hands.append(hand)
    rows = [[hand, *(_cell(solution, hand, c) for c in CHART_COLUMNS)] for hand in hands]
    return text_table(["hand", *CHART_COLUMNS], rows, "l" + "l" * len(CHART_COLUMNS))


def _player_text(solution: GameSolution) -> str:
    parts = []
    for hand, p in solution.player.items():
        mixed = f"draw with probability {fraction_text(p)} ≈ {decimal_text(p, 6)}"
        shown = "draw" if p == 1 else "stand" if p == 0 else mixed
        parts.append(f"{hand}: {shown}" if solution.model == "B3" else shown)
    return "; ".join(parts)


def render_solution_text(solution: GameSolution, places: int = 10) -> str:
    """A solution for people: the game, the value or the equilibria, the Player's choice at 5, the Banker's chart."""
    shoe = "infinite deck (cards drawn with replacement)" if solution.shoe is None else solution.shoe.describe()
    if solution.shoe is not None:
        from ..puntobanco.rules import PUNTO_BANCO

        shoe = shoe_rules_header(solution.shoe, PUNTO_BANCO).split(" · ")[0]
    commission = f"{fraction_text(solution.commission * 100)}% commission" if solution.commission else "no commission"
    lines = [f"chemin de fer · model {solution.model} · {shoe} · {commission}", ""]
    if solution.value is not None:
        lines.append(
            f"value (Banker's expected payoff per coup): {fraction_text(solution.value)}"
            f" ≈ {decimal_text(solution.value, places)}"
        )
    lines += [
        f"Banker EV {decimal_text(solution.banker_ev, places)} · Player EV {decimal_text(solution.player_ev, places)}"
        f" · {'unique' if solution.unique else 'not unique'}"
        + (f" · {len(solution.equilibria)} equilibria" if len(solution.equilibria) > 1 else ""),
        f"Player at 5: {_player_text(solution)}",
    ]
    for hand, column, draw in solution.mixed:
        lines.append(f"Banker mixes: {hand} against {column}: draw with probability {fraction_text(draw)}"
                     f" ≈ {decimal_text(draw, 6)}")
    departures = [f"{hand} v {column}: {action}" for hand, column, action in _deviations(solution)]
    lines.append("Banker departs from punto banco: " + ("; ".join(departures) if departures else "nowhere"))
    lines += ["", "Banker's strategy (D draw, S stand, a probability: mixed; * not the punto banco table):", ""]
    lines.append(banker_chart(solution))
    return "\n".join(lines) + "\n"


def _deviations(solution: GameSolution) -> list[tuple[str, str, str]]:
    return [(d["hand"], d["player_third"], d["action"]) for d in solution_json(solution)["banker"]["deviations"]]


def render_solution(solution: GameSolution, fmt: str = "table", places: int = 10) -> str:
    """A solution as ``table`` text or the pinned ``json`` object."""
    return write_format("game", fmt, {
        "table": lambda: render_solution_text(solution, places),
        "json": lambda: json.dumps(solution_json(solution), indent=2) + "\n",
    })


def probability_text(value: Fraction) -> str:
    """A drawing probability as the chart prints it.

    >>> probability_text(Fraction(859, 2288))
    '0.375'
    """
    return decimal_text(value, 3)


def render_option(
    figures: OptionFigures, chart: tuple[FiveChoice, ...], fmt: str = "table", places: int = 10
) -> str:
    """The big table's option on 5: the bets under each policy, what the option is worth, and the holder's chart."""
    return write_format("game", fmt, {
        "table": lambda: _option_text(figures, chart, places),
        "json": lambda: _option_json(figures, chart),
    })


def _policies(figures: OptionFigures) -> dict[str, Analysis]:
    return {"draw": figures.draw, "stand": figures.stand, "best": figures.best}


def _option_json(figures: OptionFigures, chart: tuple[FiveChoice, ...]) -> str:
    shoe, rules = figures.draw.shoe, figures.rules.with_player_five("best")
    policies = _policies(figures)
    data: dict[str, Any] = {
        "rules": rules.as_dict(),
        "shoe": shoe_json(shoe),
        "house_edge": {
            policy: {b.bet.id: fraction_text(b.house_edge) for b in analysis.bets}
            for policy, analysis in policies.items()
        },
        "worth": fraction_text(figures.worth),
        "chart": [
            {"player": f"{c.player[0]},{c.player[1]}", "banker": f"{c.banker[0]},{c.banker[1]}",
             "action": "stand" if c.stands else "draw", "gain": fraction_text(c.gain)}
            for c in chart
        ],
    }  # fmt: skip
    return json.dumps(data, indent=2) + "\n"


def _option_text(figures: OptionFigures, chart: tuple[FiveChoice, ...], places: int) -> str:
    shoe, rules = figures.draw.shoe, figures.rules.with_player_five("best")
    policies = _policies(figures)
    pct = max(places - 2, 0)
    rows = [
        [policy, *(percent_text(b.house_edge, pct) for b in analysis.bets)] for policy, analysis in policies.items()
    ]
    fives = [f"{a},{b}" for a, b in dict.fromkeys(c.player for c in chart)]
    hands = list(dict.fromkeys(c.banker for c in chart))
    by_cell = {(f"{c.player[0]},{c.player[1]}", c.banker): c for c in chart}

    def cell(five: str, hand: tuple[int, int]) -> str:
        choice = by_cell.get((five, hand))
        return "" if choice is None else ("S" if choice.stands else "D")

    chart_rows = [[f"{a},{b}", *(cell(five, (a, b)) for five in fives)] for a, b in hands]
    mini = "draw: the mini table; " if rules.tableau == STANDARD_TABLEAU else ""  # not under another chart (Gold's)
    lines = [
        shoe_rules_header(shoe, rules),
        "",
        f"House edge per hand by the Player's choice on 5 ({mini}best: the holder, seeing the"
        " four cards, picks what is better for the Player bet):",
        "",
        text_table(["player 5", *(b.bet.id for b in figures.draw.bets)], rows, "l" + "r" * len(figures.draw.bets)),
        "",
        f"The option is worth {percent_text(figures.worth, pct)} of a unit to the Player bet"
        f" (exact: {fraction_text(figures.worth)}).",
        "",
        "The holder's choice on 5 by his two cards (columns) and the Banker's (rows): S stand, D draw.",
        "",
        text_table(["banker", *fives], chart_rows, "l" * (len(fives) + 1)),
    ]
    return "\n".join(lines) + "\n"
