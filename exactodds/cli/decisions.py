"""The commands about decisions: ``solve`` (a game solved between its two sides: chemin de fer) and ``big-table``
(the Player's option on 5)."""

from __future__ import annotations

import click

from ..errors import ExactOddsError
from ..games import with_capability
from ..present.formats import GAME_FORMATS
from ..request import Setup
from .options import game_setup, output_options


@click.command(name="solve")
@game_setup(need="solve", default=with_capability("solve")[0])
@output_options(GAME_FORMATS)
def solve_command(setup: Setup, fmt: str, precision: int) -> None:
    """Solve a game between its two sides exactly (chemin de fer): the value, the Player's choice at 5 and the
    Banker's strategy in every cell."""
    model, commission = setup.settings["model"], setup.settings["commission"] or 0
    if model == "A1" and setup.shoe_given:
        raise ExactOddsError("model A1 is the infinite deck: give no --decks, --shoe or --remove")
    from ..chemindefer.solution import solve
    from ..present.solution import render_solution

    shoe = None if model == "A1" else setup.shoe
    solution = solve(game=setup.game.name, model=model, shoe=shoe, commission=commission)
    click.echo(render_solution(solution, fmt, precision), nl=False)


@click.command(name="big-table")
@game_setup(need="big-table")
@output_options(GAME_FORMATS)
def big_table_command(setup: Setup, fmt: str, precision: int) -> None:
    """The Player's option on 5 at the big table: the bets when the holder draws, stands or chooses, and his chart.

    It prices the three policies itself, so --player-5 is refused; the bets of --bets-file are priced under each.
    """
    if setup.settings.given().get("player-5") is not None:
        raise ExactOddsError(
            "big-table prices the Player's 5 drawn, stood and chosen side by side: give no --player-5"
            " (odds --player-5 prices one policy)"
        )
    from ..present.solution import render_option
    from ..puntobanco.bigtable import option_figures, player_five_chart

    rules = setup.game.tableau_rules(setup.settings, "big-table", "big-table")
    figures = option_figures(setup.shoe, rules, setup.file_bets)  # type: ignore[arg-type]
    click.echo(render_option(figures, player_five_chart(setup.shoe, rules), fmt, precision), nl=False)
