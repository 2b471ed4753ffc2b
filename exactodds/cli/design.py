"""The command that designs a bet: ``design`` (pay tables solved for a target house edge)."""

from __future__ import annotations

from pathlib import Path

import click

from ..betfile import BetSpec
from ..design.model import Solution, Table
from ..design.output import edge_text, notation, result_text, written_bets
from ..design.request import (
    CUT_CARD,
    DESIGN_PRECISION,
    EDGE,
    FREE,
    MAX_PAY_INPUT,
    MAX_TOP,
    MIN_PAY,
    MONOTONE,
    SOLVE,
    STEP,
    TOP,
    build_order,
)
from ..errors import ExactOddsError
from ..exact import fraction_text
from ..files import write_atomic
from ..present.formats import DESIGN_FORMATS
from ..request import Setup, Toml
from ..tomldata import read_text
from .options import bet_option, game_setup, option, output_options
from .progress import progress_line
from .types import STDOUT, OutputPath, WholeNumber


@click.command(name="design")
@game_setup(decks_range=True, need="fixed-pays")
@bet_option("design", required=True, note="one bet: of the game's bets or of a --bets-file")
@option(EDGE, required=True)
@option(FREE)
@option(STEP)
@option(MIN_PAY)
@option(MAX_PAY_INPUT)
@option(MONOTONE)
@option(TOP)
@option(SOLVE)
@option(CUT_CARD)
@click.option("--write", "write_path", type=OutputPath(dash=True), metavar="FILE",
              help="Write the table picked (--pick; with --solve the exact pay) as a bets file in the game's bet"
              " notation, for report or odds ('-': the standard output, which then holds the file alone).")
@click.option("--pick", type=WholeNumber(1, MAX_TOP), default=1, show_default=True,
              help="Which table of the list --write writes.")
@output_options(DESIGN_FORMATS, places=DESIGN_PRECISION)
def design_command(
    setup: Setup, deck_range: tuple[int, int] | None, edge: str, free: tuple[str, ...], step: str, min_pay: str,
    max_pay: str, monotone: bool, top: int, solve: str | None, cut_card: int, write_path: Path | str | None, pick: int,
    fmt: str, precision: int,
) -> None:
    """Pay tables for a target house edge: every table of a pay grid in a band, or one pay solved exactly.

    The bet is one of any game with bets. Each table shows its exact edge, hit frequency, SD, volatility index, top
    award and, for a game with the capability countability, its countability.
    """
    order = build_order(
        click.get_current_context().params["bet_ids"], setup, edge=edge, free=free, step=step, min_pay=min_pay,
        max_pay=max_pay, monotone=monotone, top=top, solve=solve, cut_card=cut_card, decks=deck_range, pick=pick,
    )
    written = _notation(setup, order.request.bet.id) if write_path is not None else None
    with progress_line(lambda done, total: f"designing: {100 * done // total}% of about {total:,} pricings") as shown:
        result = order.run(shown)
    if isinstance(result, Solution):
        chosen: Table | None = result.exact
        comment = f"{result.outcome} pays exactly {fraction_text(result.pay)} for a house edge of"
    else:
        if write_path is not None and len(result.tables) < pick:
            raise ExactOddsError(f"--pick {pick}: only {len(result.tables)} pay table(s) in the band, nothing to write")
        chosen = result.tables[pick - 1] if result.tables else None
        band = f"{fraction_text(order.low)} to {fraction_text(order.high)}"
        comment = f"pay table {pick} of the band {band}; house edge"
    if write_path != STDOUT:  # else the standard output is the bets file alone, ready for a pipe or a redirection
        click.echo(result_text(result, fmt, precision), nl=False)
    if write_path is not None and written is not None and chosen is not None:
        _write(write_path, written, chosen, comment)


def _notation(setup: Setup, bet_id: str) -> tuple[BetSpec, str]:
    """The bet as written in the game's notation (its file's, or the game's own), and the id it is written under:
    found before any work."""
    files = [Toml(read_text(file), str(file)) for file in click.get_current_context().params["bets_file"]]
    return notation(setup.game, bet_id, files)


def _write(path: Path | str, notation: tuple[BetSpec, str], table: Table, comment: str) -> None:
    """Write ``table`` as a bets file (or to the standard output, :data:`STDOUT`): the bet's notation with the
    table's pays."""
    spec, new_id = notation
    note = f"Written by exactodds design: bet {new_id}, {comment} {edge_text(table.figures.house_edge)}."
    text = written_bets(spec, table, new_id, note)
    if path == STDOUT:
        click.echo(text, nl=False)
        click.echo(f"wrote bet {new_id} to the standard output", err=True)
        return
    write_atomic(Path(path), text.encode("utf-8"))
    click.echo(f"wrote bet {new_id} to {path}", err=True)
