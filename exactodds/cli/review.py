"""The command that reviews a table's log: ``review``, wager by wager, with the exact edge of every bet."""

from __future__ import annotations

import click

from ..present.formats import REVIEW_FORMATS, write_format
from ..request import Setup
from .options import game_setup, output_options
from .progress import progress_line
from .types import WholeNumber


@click.command(name="review")
@click.argument("log", type=click.Path(dir_okay=False, allow_dash=True), metavar="LOG|-")
@game_setup(shoe=False, need="review")
@click.option("--skip-bad", is_flag=True, help="Go on past a bad line (its number and error listed with the findings,"
              " and counted) instead of stopping at it.")
@click.option("--seed", type=WholeNumber(0, 2**63 - 1), default=0, show_default=True,
              help="The seed of the permutation test of the stakes against the EV (the same log, the same p-values).")
@click.option("--permutations", type=WholeNumber(99, 1_000_000), default=9_999, show_default=True,
              help="The shuffles of that test: the least p it can give is 1 / (1 + N).")
@output_options(REVIEW_FORMATS, places=None)
def review_command(setup: Setup, log: str, skip_bad: bool, seed: int, permutations: int, fmt: str) -> None:
    """Review a table's log (JSON lines or CSV; - for stdin): every coup checked against the tableau and the cards left,
    every wager priced exactly on the cards seen before its coup and settled by the cards dealt, and per bettor and
    bet the luck, the edge and whether the stakes follow the EV (--format table: the verdict; json: the verdict with
    every finding; csv: every wager, priced and settled)."""
    from ..files import bounded_lines
    from ..review import review
    from ..review.log import MAX_LINE, records
    from ..review.render import csv_header, verdict_json, verdict_text, wager_rows
    from ..review.shoes import ClosedShoe

    file_bets = setup.file_bets
    if fmt == "csv":
        click.echo(csv_header(), nl=False)
    with bounded_lines(log, MAX_LINE, None, "a log", "a log holds one record a line") as lines, \
            progress_line(lambda done, _: f"reviewing: {done:,} shoes") as progress:
        shoes = 0

        def shoe_done(shoe: ClosedShoe) -> None:
            nonlocal shoes
            shoes += 1
            if fmt == "csv":
                click.echo(wager_rows(shoe), nl=False)
            if progress is not None and shoes % 10 == 0:
                progress(shoes, 0)

        verdict = review(records(lines), setup.settings, file_bets, skip_bad=skip_bad, seed=seed,
                         permutations=permutations, shoe_done=shoe_done)
    # The CSV's rows were written as each shoe closed; the verdict is written once the log is read.
    writers = {"table": lambda: verdict_text(verdict), "json": lambda: verdict_json(verdict), "csv": lambda: ""}
    click.echo(write_format("review", fmt, writers), nl=False)
