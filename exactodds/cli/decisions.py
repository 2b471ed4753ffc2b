"""The commands about decisions: ``solve`` (chemin de fer, exactly) and ``big-table`` (the Player's option on 5)."""

from __future__ import annotations

import click
from click.core import ParameterSource

from ..errors import ExactOddsError
from ..exact import parse_commission
from ..present.formats import GAME_FORMATS
from ..variants import SOLVED_GAMES, SOLVED_MODELS
from .options import Setup, build_shoe, output_options, shoe_and_rules, shoe_options
from .types import Choice


@click.command(name="solve")
@click.option(
    "--game", type=Choice(SOLVED_GAMES), default=SOLVED_GAMES[0], show_default=True, help="The game to solve."
)
@click.option(
    "--model", type=Choice(SOLVED_MODELS), default="B2", show_default=True,
    help="What each side sees: A1 infinite deck, totals; B2 the Banker his two cards, the Player his total;"
    " B3 each side his own two cards.",
)
@shoe_options
@click.option(
    "--commission", metavar="RATE", default=None,
    help="The house's commission on the Banker's wins (5%, 0.05, 1/20): a non-zero-sum game (default 0).",
)
@output_options(GAME_FORMATS)
def solve_command(
    game: str,
    model: str,
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    commission: str | None,
    fmt: str,
    precision: int,
) -> None:
    """Solve chemin de fer exactly: the value, the Player's choice at 5 and the Banker's strategy in every cell."""
    if model == "A1":
        if decks is not None or shoe_text is not None or remove is not None:
            raise ExactOddsError("model A1 is the infinite deck: give no --decks, --shoe or --remove")
        shoe = None
    else:
        shoe = build_shoe(decks, shoe_text, remove)
    rate = parse_commission(commission) if commission is not None else 0
    from ..chemindefer import solve
    from ..present.solution import render_solution

    solution = solve(game=game, model=model, shoe=shoe, commission=rate)
    click.echo(render_solution(solution, fmt, precision), nl=False)


@click.command(name="big-table")
@shoe_and_rules
@output_options(GAME_FORMATS)
def big_table_command(setup: Setup, fmt: str, precision: int) -> None:
    """The Player's option on 5 at the big table: the bets when the holder draws, stands or chooses, and his chart.

    It prices the three policies itself, so --player-5 is refused; the bets of --bets-file are priced under each.
    """
    if click.get_current_context().get_parameter_source("player_five") is not ParameterSource.DEFAULT:
        raise ExactOddsError(
            "big-table prices the Player's 5 drawn, stood and chosen side by side: give no --player-5"
            " (odds --player-5 prices one policy)"
        )
    from ..present.solution import render_option
    from ..puntobanco.bigtable import option_figures, player_five_chart

    figures = option_figures(setup.shoe, setup.rules, setup.file_bets)
    click.echo(render_option(figures, player_five_chart(setup.shoe, setup.rules), fmt, precision), nl=False)
