"""The command that designs a bet: ``design`` (pay tables solved for a target house edge)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import click

from ..analysis import resolve_bets
from ..betfile import BetSpec, read_bet_specs
from ..bets import catalog_specs
from ..design.model import MAX_PAY, Request, Table, design, solve
from ..design.output import design_text, edge_text, solution_text, written_bets
from ..design.search import Grid
from ..errors import ExactOddsError
from ..exact import fraction_text, parse_fraction
from ..files import write_atomic
from ..lab.plan import MIN_CUT_CARD
from ..paytable import Bet
from ..render.formats import DESIGN_FORMATS
from ..userdefs import read_text
from .options import Setup, bet_option, output_options, shoe_and_rules_over_decks
from .types import OutputPath, WholeNumber


def parse_edge(text: str) -> Fraction:
    """An edge as typed: ``5%``, ``0.05`` or ``1/20``, exactly.

    >>> parse_edge("7.6%"), parse_edge("1/20")
    (Fraction(19, 250), Fraction(1, 20))
    """
    raw = text.strip()
    try:
        return parse_fraction(raw[:-1]) / 100 if raw.endswith("%") else parse_fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed house edge {text!r}: write e.g. 5%, 0.05 or 1/20") from None


def parse_band(text: str) -> tuple[Fraction, Fraction]:
    """``LOW:HIGH`` (or one edge X, the band X:X) as two exact edges.

    >>> parse_band("5%:6%")
    (Fraction(1, 20), Fraction(3, 50))
    """
    low, colon, high = text.partition(":")
    first = parse_edge(low)
    return (first, parse_edge(high)) if colon else (first, first)


def parse_pay_option(text: str, name: str) -> Fraction:
    """A pay or a step as typed (``40``, ``1/2``, ``0.5``), above 0 and at most 10^6."""
    try:
        value = parse_fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed {name} {text!r}: write e.g. 1, 0.5 or 1/2") from None
    if value <= 0:
        raise ExactOddsError(f"{name} must be above 0, not {text}")
    if value > MAX_PAY:
        raise ExactOddsError(f"{name} must be at most {MAX_PAY:,} to 1, not {text}")
    return value


@click.command(name="design")
@shoe_and_rules_over_decks
@bet_option("design", required=True, note="one bet: of the catalog or of a --bets-file")
@click.option("--edge", "edge_text", required=True, metavar="LOW:HIGH|X",
              help="The house edge wanted: a band LOW:HIGH (5%:6%, 0.05:0.06), or X with --solve.")
@click.option("--free", "free_ids", multiple=True, metavar="OUTCOME",
              help="An outcome whose pay is searched (repeatable, at most 4; default every winning outcome).")
@click.option("--step", "step_text", default="1", show_default=True, metavar="PAY", help="The pays' grid step.")
@click.option("--min-pay", "min_text", default="1", show_default=True, metavar="PAY", help="The lowest pay searched.")
@click.option("--max-pay", "max_text", default="1000", show_default=True, metavar="PAY",
              help="The highest pay searched (at most 1,000,000).")
@click.option("--monotone", is_flag=True,
              help="Keep the free outcomes' pays in the order of their pays in the file (ties free).")
@click.option("--top", type=WholeNumber(1, 1000), default=20, show_default=True, help="Pay tables listed.")
@click.option("--solve", "solve_id", metavar="OUTCOME",
              help="The exact pay of OUTCOME for the edge X, the others fixed, and the grid's pays either side.")
@click.option("--cut-card", type=WholeNumber(MIN_CUT_CARD), default=14, show_default=True,
              help="The cut card's place, in cards from the end, for the countability figure.")
@click.option("--write", "write_path", type=OutputPath(), metavar="FILE",
              help="Write the table picked (--pick; with --solve the exact pay) as a bets file, for report or odds.")
@click.option("--pick", type=WholeNumber(1, 1000), default=1, show_default=True,
              help="Which table of the list --write writes.")
@output_options(DESIGN_FORMATS, places=(0, 30, 4))
def design_command(
    setup: Setup, deck_range: tuple[int, int] | None, edge_text: str, free_ids: tuple[str, ...], step_text: str,
    min_text: str, max_text: str, monotone: bool, top: int, solve_id: str | None, cut_card: int,
    write_path: Path | None, pick: int, fmt: str, precision: int,
) -> None:
    """Pay tables for a target house edge: every table of a pay grid in a band, or one pay solved exactly.

    Each table shows its exact edge, hit frequency, SD, volatility index, top award and countability.
    """
    low, high = parse_band(edge_text)
    step = parse_pay_option(step_text, "--step")
    grid = Grid(parse_pay_option(min_text, "--min-pay"), step, parse_pay_option(max_text, "--max-pay"))
    if grid.low > grid.high:
        raise ExactOddsError(f"--min-pay {min_text} is above --max-pay {max_text}")
    bet = _one_bet(setup)
    if pick > top:
        raise ExactOddsError(f"--pick {pick} is beyond the {top} tables listed (--top {top})")
    notation = _notation(bet.id) if write_path is not None else None
    if cut_card + 6 >= setup.shoe.size:
        raise ExactOddsError(f"the cut card {cut_card} cards from the end leaves no coup in a shoe of"
                             f" {setup.shoe.size} cards")
    request = Request(bet, setup.shoe, setup.rules, free_ids or None, grid, monotone, top, deck_range, cut_card)
    if solve_id is not None:
        if low != high:
            raise ExactOddsError("--solve takes one edge X (--edge 7.6%), not a band")
        if free_ids:
            raise ExactOddsError("--solve names the one outcome solved: give no --free with it")
        solution = solve(request, solve_id, low)
        click.echo(solution_text(solution, fmt, precision), nl=False)
        chosen: Table | None = solution.exact
        comment = f"{solve_id} pays exactly {fraction_text(solution.pay)} for a house edge of"
    else:
        result = design(request, low, high)
        if write_path is not None and len(result.tables) < pick:
            raise ExactOddsError(f"--pick {pick}: only {len(result.tables)} pay table(s) in the band, nothing to write")
        click.echo(design_text(result, fmt, precision), nl=False)
        chosen = result.tables[pick - 1] if result.tables else None
        comment = f"pay table {pick} of the band {fraction_text(low)} to {fraction_text(high)}; house edge"
    if write_path is not None and notation is not None and chosen is not None:
        _write(write_path, notation, chosen, comment)


def _one_bet(setup: Setup) -> Bet:
    """The one bet named by ``--bet`` (a bets file's other bets are not designed)."""
    named = click.get_current_context().params["bet_ids"]
    if len(named) != 1 or named[0] == "all" or setup.bets is None:
        raise ExactOddsError(f"design takes one bet (--bet ID), not {', '.join(named)}")
    return resolve_bets(setup.rules, setup.bets[:1])[0]


def _notation(bet_id: str) -> tuple[BetSpec, str]:
    """The bet as written (its file's, or the catalog's), and the id it is written under: found before any work."""
    spec = None
    for file in click.get_current_context().params["bets_files"]:
        for found in read_bet_specs(read_text(file), str(file)):
            if found.id == bet_id:
                spec = found
    catalog = catalog_specs()
    if spec is None:
        spec = catalog.get(bet_id)
    if spec is None:
        raise ExactOddsError(f"bet {bet_id} is set by the rules (--commission, --tie-pays), not by a bets file:"
                             " --write takes a side bet")
    return spec, f"{bet_id}-design" if bet_id in catalog else bet_id


def _write(path: Path, notation: tuple[BetSpec, str], table: Table, comment: str) -> None:
    """Write ``table`` as a bets file: the bet's notation with the table's pays."""
    spec, new_id = notation
    note = f"Written by exactodds design: bet {new_id}, {comment} {edge_text(table.figures.house_edge)}."
    write_atomic(path, written_bets(spec, table, new_id, note).encode("utf-8"))
    click.echo(f"wrote bet {new_id} to {path}", err=True)
