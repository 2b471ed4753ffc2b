"""The command that designs a bet: ``design`` (pay tables solved for a target house edge)."""

from __future__ import annotations

from pathlib import Path

import click

from ..betfile import BetSpec, read_bet_specs
from ..design.countability import DEFAULT_CUT_CARD
from ..design.model import Solution, Table
from ..design.output import edge_text, result_text, written_bets
from ..design.request import DEFAULT_MAX_PAY, DEFAULT_MIN_PAY, DEFAULT_STEP, DEFAULT_TOP, MAX_TOP, build_order
from ..errors import ExactOddsError
from ..exact import fraction_text
from ..files import write_atomic
from ..lab.plan import MIN_CUT_CARD
from ..present.formats import DESIGN_FORMATS
from ..puntobanco.bets import VOCABULARY, catalog_specs
from ..request import Setup
from ..tomldata import read_text
from .options import bet_option, game_setup, output_options
from .types import OutputPath, WholeNumber


@click.command(name="design")
@game_setup(decks_range=True)
@bet_option("design", required=True, note="one bet: of the catalog or of a --bets-file")
@click.option("--edge", "edge_text", required=True, metavar="LOW:HIGH|X",
              help="The house edge wanted: a band LOW:HIGH (5%:6%, 0.05:0.06), or X with --solve.")
@click.option("--free", "free_ids", multiple=True, metavar="OUTCOME",
              help="An outcome whose pay is searched (repeatable, at most 4; default every winning outcome).")
@click.option("--step", "step_text", default=DEFAULT_STEP, show_default=True, metavar="PAY",
              help="The pays' grid step.")
@click.option("--min-pay", "min_text", default=DEFAULT_MIN_PAY, show_default=True, metavar="PAY",
              help="The lowest pay searched.")
@click.option("--max-pay", "max_text", default=DEFAULT_MAX_PAY, show_default=True, metavar="PAY",
              help="The highest pay searched (at most 1,000,000).")
@click.option("--monotone", is_flag=True,
              help="Keep the free outcomes' pays in the order of their pays in the file (ties free).")
@click.option("--top", type=WholeNumber(1, MAX_TOP), default=DEFAULT_TOP, show_default=True,
              help="Pay tables listed.")
@click.option("--solve", "solve_id", metavar="OUTCOME",
              help="The exact pay of OUTCOME for the edge X, the others fixed, and the grid's pays either side.")
@click.option("--cut-card", type=WholeNumber(MIN_CUT_CARD), default=DEFAULT_CUT_CARD, show_default=True,
              help="The cut card's place, in cards from the end, for the countability figure.")
@click.option("--write", "write_path", type=OutputPath(), metavar="FILE",
              help="Write the table picked (--pick; with --solve the exact pay) as a bets file, for report or odds.")
@click.option("--pick", type=WholeNumber(1, MAX_TOP), default=1, show_default=True,
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
    order = build_order(
        click.get_current_context().params["bet_ids"], setup, edge=edge_text,
        free=free_ids, step=step_text, min_pay=min_text, max_pay=max_text, monotone=monotone, top=top,
        solve=solve_id, cut_card=cut_card, decks=deck_range, pick=pick,
    )
    notation = _notation(order.request.bet.id) if write_path is not None else None
    result = order.run()
    if isinstance(result, Solution):
        chosen: Table | None = result.exact
        comment = f"{result.outcome} pays exactly {fraction_text(result.pay)} for a house edge of"
    else:
        if write_path is not None and len(result.tables) < pick:
            raise ExactOddsError(f"--pick {pick}: only {len(result.tables)} pay table(s) in the band, nothing to write")
        chosen = result.tables[pick - 1] if result.tables else None
        band = f"{fraction_text(order.low)} to {fraction_text(order.high)}"
        comment = f"pay table {pick} of the band {band}; house edge"
    click.echo(result_text(result, fmt, precision), nl=False)
    if write_path is not None and notation is not None and chosen is not None:
        _write(write_path, notation, chosen, comment)


def _notation(bet_id: str) -> tuple[BetSpec, str]:
    """The bet as written (its file's, or the catalog's), and the id it is written under: found before any work."""
    spec = None
    for file in click.get_current_context().params["bets_file"]:
        for found in read_bet_specs(read_text(file), str(file), VOCABULARY):
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
