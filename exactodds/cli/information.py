"""The command about information: ``edge-sort`` (the value of knowing the High/Low class of the first cards)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import click

from ..errors import ExactOddsError
from ..present.formats import GAME_FORMATS
from ..present.information import render_edge_sort
from ..puntobanco.given import POSITIONS
from ..puntobanco.information import DEFAULT_HIGH, SORT_PRECISION, BestSort, best_sort, edge_sort
from ..request import Setup
from .options import bet_option, game_setup, output_options
from .progress import progress_line
from .types import WholeNumber

if TYPE_CHECKING:
    from ..puntobanco.edgecount import Progress


def _progress() -> AbstractContextManager[Progress | None]:
    """A count of the passes over the six-card sequences on stderr when it is a terminal, wiped at the end."""
    return progress_line(lambda done, total: f"counting: pass {done} of {total}")


@click.command(name="edge-sort")
@game_setup(need="edge-sort")
@click.option(
    "--high", metavar="RANKS", default=None,
    help=f"The ranks that are High, e.g. 6789 or T,J (the rest are Low; default {DEFAULT_HIGH}).",
)
@click.option(
    "--cards", type=WholeNumber(1, len(POSITIONS)), required=True,
    help="Known cards in deal order: 1 (P1) to 6 (P1 B1 P2 B2, then the 5th and 6th cards out of the shoe).",
)
@bet_option("compare in each state", default="player, banker, tie", note="bets that read pairs are refused")
@click.option(
    "--best-sort", "search", is_flag=True,
    help="Search every split of the ten card values (T, J, Q, K together) for the largest edge, instead of --high.",
)
@output_options(GAME_FORMATS, places=SORT_PRECISION)
def edge_sort_command(setup: Setup, high: str | None, cards: int, search: bool, fmt: str, precision: int) -> None:
    """Edge sorting: the best bet in each High/Low state of the first cards, and the edge per coup, exactly."""
    shoe, rules, bets = setup.shoe, setup.game.tableau_rules(setup.settings, "edge-sort", "edge-sort"), setup.bets
    best: BestSort | None = None
    if search:
        if high is not None:
            raise ExactOddsError("give either --high or --best-sort (which searches every High set), not both")
        with _progress() as progress:
            best = best_sort(shoe, rules, bets, cards=cards, progress=progress)
        sort = best.best
    else:
        with _progress() as progress:
            sort = edge_sort(shoe, rules, bets, high=DEFAULT_HIGH if high is None else high, cards=cards,
                             progress=progress)
    click.echo(render_edge_sort(sort, best, fmt, precision), nl=False)
