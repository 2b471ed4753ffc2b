"""A design as people and programs read it: the table, the JSON, and the chosen pay table as a bets file.

Each pay table shows its pays, the exact house edge per hand (and per resolved bet where the
bet pushes), the hit frequency, the SD, the volatility index at 95%, the top award as 1 in N
with the GLI-11 check (:mod:`exactodds.report.sheet`, the math report's own figures) and its
countability (:mod:`.countability`; a game without the capability ``countability`` shows it as
not applicable, ``—`` in the table and ``null`` in the JSON, and says why under the table).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..betfile import BetSpec, bet_specs_text
from ..errors import ExactOddsError
from ..exact import decimal_text, fraction_text, one_in_text, percent_text, short_text
from ..game import Game
from ..layout import one_line, text_table
from ..present import shoe_rules_header
from ..present.formats import write_format
from ..report.sheet import BetSheet, volatility_index_text
from ..request import Toml
from .model import Design, Request, Solution, Table

#: What the countability column is, under every table.
COUNTABILITY_NOTE = (
    "countability: perfect play's gain per shoe (units, 1 unit a bet), normal approximation from the exact effects"
    " of removal, cut card {cut} (an estimate)."
)
#: What the countability column is for a game without the figure.
NO_COUNTABILITY_NOTE = (
    "countability: not applicable (—): {game} lacks the capability 'countability', the lab's count by the effects of"
    " removal."
)
#: Said under the tables of a game that decides as it deals (a chart): the counts were priced under its settings.
DECISIONS_NOTE = (
    "decisions: the game's chart as its settings price it (exactodds odds prints it), held whatever the pays designed."
)


def table_json(table: Table, free: tuple[str, ...], places: int) -> dict[str, Any]:
    """One pay table as JSON: exact figures as ``n/d`` strings, roots and estimates as decimal strings."""
    f = table.figures
    sheet = BetSheet(f)
    pushes = f.push_probability > 0
    resolved = f.house_edge_per_resolved_bet
    return {
        "pays": {o.id: fraction_text(o.net) for o in f.bet.outcomes},
        "house_edge": fraction_text(f.house_edge),
        "house_edge_per_resolved_bet": fraction_text(resolved) if pushes and resolved is not None else None,
        "hit_frequency": fraction_text(f.hit_frequency),
        "sd_decimal": f.sd_text(places),
        "vi95_decimal": volatility_index_text(f.variance, 95, places),
        "top_award_one_in": one_in_text(sheet.top_award.probability, places),
        "countability": None if table.countability is None else f"{table.countability:.{places}f}",
        **({"edge_by_decks": {str(d): fraction_text(e) for d, e in table.by_decks}} if table.by_decks else {}),
    }


def design_text(design: Design, fmt: str, places: int) -> str:
    """The design as ``table`` or ``json``."""
    return write_format("design", fmt, {
        "table": lambda: _design_table(design, places),
        "json": lambda: _json({
            "bet": design.request.bet.id,
            "target": {"low": fraction_text(design.low), "high": fraction_text(design.high)},
            "free": list(design.free),
            "searched": design.searched,
            "tables": [table_json(t, design.free, places) for t in design.tables],
        }),
    })


def solution_text(solution: Solution, fmt: str, places: int) -> str:
    """The solution of one pay as ``table`` or ``json``."""
    free = (solution.outcome,)

    def one(table: Table | None) -> dict[str, Any] | None:
        return None if table is None else table_json(table, free, places)

    return write_format("design", fmt, {
        "table": lambda: _solution_table(solution, places),
        "json": lambda: _json({
            "bet": solution.request.bet.id,
            "outcome": solution.outcome,
            "target": fraction_text(solution.target),
            "pay": fraction_text(solution.pay),
            "below": one(solution.below),
            "above": one(solution.above),
        }),
    })


def result_text(result: Design | Solution, fmt: str, places: int) -> str:
    """A band's tables (:func:`design_text`) or a solved pay (:func:`solution_text`), as ``table`` or ``json``."""
    return design_text(result, fmt, places) if isinstance(result, Design) else solution_text(result, fmt, places)


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2) + "\n"


def _rows(labels: list[str], tables: tuple[Table, ...], free: tuple[str, ...], places: int) -> list[list[str]]:
    rows = []
    for label, t in zip(labels, tables):
        f = t.figures
        sheet = BetSheet(f)
        pays = {o.id: o for o in f.bet.outcomes}
        resolved = f.house_edge_per_resolved_bet
        rows.append([
            label,
            *(short_text(pays[i].net) for i in free),
            percent_text(f.house_edge, places),
            percent_text(resolved, places) if f.push_probability > 0 and resolved is not None else "—",
            percent_text(f.hit_frequency, places),
            f.sd_text(places),
            volatility_index_text(f.variance, 95, places),
            one_in_text(sheet.top_award.probability, 2),
            "yes" if sheet.top_award_meets_gli else "NO",
            "—" if t.countability is None else f"{t.countability:.{places}f}",
        ])
    return rows


def notes(request: Request, decided: bool) -> str:
    """What the table's last lines say: what its countability is (or why it has none), and that the game's decisions
    were held, for a game that decides as it deals.

    >>> from exactodds.design.request import build_order
    >>> from exactodds.request import read_setup
    >>> order = build_order(["tie"], read_setup({"game": "dragon-tiger", "bet": ("tie",)}), edge="1%:2%")
    >>> notes(order.request, False).split(",")[0]
    "countability: not applicable (—): dragon-tiger lacks the capability 'countability'"
    """
    game = request.game
    if game.has("countability"):
        text = COUNTABILITY_NOTE.format(cut=request.cut_card)
    else:
        text = NO_COUNTABILITY_NOTE.format(game=game.name)
    return text + ("\n" + DECISIONS_NOTE if decided else "")


def _layout(labels: list[str], tables: tuple[Table, ...], free: tuple[str, ...], places: int, note: str) -> str:
    headers = ["#", *free, "house edge", "per resolved", "hit freq.", "SD", "VI 95%", "top award 1 in", "GLI-11",
               "countability"]
    out = text_table(headers, _rows(labels, tables, free, places), "l" + "r" * (len(headers) - 1)) + "\n"
    decks = tables[0].by_decks if tables else ()
    if decks:
        by = [[label, *(percent_text(e, places) for _, e in t.by_decks)] for label, t in zip(labels, tables)]
        names = [f"{d} deck{'s' if d > 1 else ''}" for d, _ in decks]
        out += "\nhouse edge by decks:\n" + text_table(["#", *names], by, "l" + "r" * len(names)) + "\n"
    return out + "\n" + note + "\n"


def _design_table(design: Design, places: int) -> str:
    r = design.request
    grid = r.grid
    head = [
        shoe_rules_header(r.shoe, r.rules),
        one_line(f"{r.bet.id}: house edge from {percent_text(design.low, places)} to"
                 f" {percent_text(design.high, places)} · free: {', '.join(design.free)} · pays"
                 f" {short_text(grid.low)} to {short_text(grid.high)} by {short_text(grid.step)}"
                 f"{' · monotone' if r.monotone else ''}"),
        f"{design.searched:,} pay table{'s' if design.searched != 1 else ''} in the band"
        + (f"; the {len(design.tables)} nearest its middle (then the least volatile):" if design.tables else
           ": none on this grid (a finer --step or a wider band finds some)."),
    ]
    text = "\n".join(head) + "\n"
    if design.tables:
        labels = [str(k) for k in range(1, len(design.tables) + 1)]
        text += "\n" + _layout(labels, design.tables, design.free, places, notes(r, design.decided))
    return text


def _solution_table(solution: Solution, places: int) -> str:
    r = solution.request
    grid = r.grid
    head = [
        shoe_rules_header(r.shoe, r.rules),
        one_line(f"{r.bet.id}: {solution.outcome} pays exactly {fraction_text(solution.pay)}"
                 f" ({decimal_text(solution.pay, places)}) for a house edge of"
                 f" {percent_text(solution.target, places)}"),
        f"the nearest pays by {short_text(grid.step)} below and above it:",
    ]
    labels, tables = [], []
    for label, table in (("below", solution.below), ("above", solution.above)):
        if table is not None:
            labels.append(label)
            tables.append(table)
    note = notes(r, solution.decided)
    return "\n".join(head) + "\n\n" + _layout(labels, tuple(tables), (solution.outcome,), places, note)


def notation(game: Game, bet_id: str, files: Sequence[Toml]) -> tuple[BetSpec, str]:
    """The bet as written in the game's notation (its bets file's, else the game's own) and the id it is written
    under (a built-in bet's id then ``-design``, so that it does not clash with the game's); a bet the game's rules
    set, written in no notation, is refused (before any work).

    >>> from exactodds.games import find_game
    >>> spec, bet_id = notation(find_game("dragon-tiger"), "tie", ())
    >>> bet_id, [(o.id, o.pays) for o in spec.outcomes]
    ('tie-design', [('win', Fraction(8, 1)), ('lose', Fraction(-1, 1))])
    """
    spec = None
    for text, where in files:
        for found in game.read_bet_specs(text, where):
            if found.id == bet_id:
                spec = found
    built_in = game.bet_specs()
    if spec is None:
        spec = built_in.get(bet_id)
    if spec is None:
        raise ExactOddsError(f"bet {bet_id} is set by the rules of {game.name}, not written in its bet notation:"
                             " --write takes a side bet or a bet of a bets file")
    return spec, f"{bet_id}-design" if bet_id in built_in else bet_id


def written_bets(spec: BetSpec, table: Table, bet_id: str, comment: str) -> str:
    """The bets file of one pay table: the bet as written, under ``bet_id``, each outcome paying the table's pay."""
    pays = {o.id: o.net for o in table.bet.outcomes}
    if [o.id for o in spec.outcomes] != list(pays):
        raise ExactOddsError(f"bet {spec.id}: its notation and its pay table do not match")  # pragma: no cover
    changed = ", ".join(f"{o.id} {short_text(pays[o.id])}" for o in spec.outcomes if pays[o.id] != o.pays)
    outcomes = tuple(o._replace(pays=pays[o.id]) for o in spec.outcomes)
    described = f"{spec.description} (designed: {changed})" if changed else spec.description
    return bet_specs_text([spec._replace(id=bet_id, description=described, outcomes=outcomes)], comment)


def edge_text(edge: Fraction) -> str:
    """An edge as the comment of a written file gives it: exact, then as a percentage."""
    return f"{fraction_text(edge)} ({percent_text(edge, 6)})"
