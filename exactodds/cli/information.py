"""The commands about information: ``edge-sort`` (the value of knowing the High/Low class of the first cards),
``peek`` (some of the first four cards shown, then a raise), and ``fit-rtp`` (what a lit-card game's advertised RTPs
say of the laws it does not publish)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import click

from ..errors import ExactOddsError
from ..games.lit.options import FAMILY_LIT_COUNT, FAMILY_MULTIPLIERS, FIT_FEE, FIT_PRECISION, GRID, RTP
from ..inputs import DECKS, GAME, REMOVE, SHOE_TEXT
from ..present.formats import GAME_FORMATS
from ..present.information import render_edge_sort
from ..puntobanco.given import POSITIONS
from ..puntobanco.information import DEFAULT_HIGH, SORT_PRECISION, BestSort, best_sort, edge_sort
from ..puntobanco.peek import PEEK_FEE, PEEK_PRECISION, PEEK_RTP, REVEAL
from ..request import Setup
from .options import bet_option, game_setup, option, output_options
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


@click.command(name="peek")
@game_setup(need="peek")
@option(REVEAL)
@option(PEEK_FEE)
@option(PEEK_RTP)
@output_options(GAME_FORMATS, places=PEEK_PRECISION)
def peek_command(setup: Setup, reveal: str | None, peek_fee: str, rtp: tuple[str, ...], fmt: str,
                 precision: int) -> None:
    """Peek Baccarat: each set of the first four cards shown, with the best raise (keep, double or triple), the exact
    RTP of the Player and Banker bets and how often they are raised; with --reveal, the game under that law."""
    from ..puntobanco.peek import peek_answer

    rules = setup.game.tableau_rules(setup.settings, "peek", "peek")
    click.echo(peek_answer(setup.shoe, rules, reveal, peek_fee, rtp, fmt, precision), nl=False)


@click.command(name="fit-rtp")
@option(GAME, help_text="The lit-card game (default the first with the capability lit-law): one that `exactodds"
        " games` lists with it.", metavar="GAME")
@option(DECKS)
@option(SHOE_TEXT)
@option(REMOVE)
@option(FAMILY_LIT_COUNT)
@option(FAMILY_MULTIPLIERS)
@option(FIT_FEE)
@option(RTP, required=True)
@option(GRID)
@output_options(GAME_FORMATS, places=FIT_PRECISION)
def fit_rtp(game: str | None, decks: int | None, shoe: str | None, remove: str | None, lit_count: str | None,
            multipliers: str | None, fee: str | None, rtp: tuple[str, ...], grid: int, fmt: str,
            precision: int) -> None:
    """The laws of a one-parameter family (p in the probabilities of --multipliers or --lit-count) that give every
    advertised RTP of a lit-card game, exactly: each bet's range of p, the range that gives all of them (or none: a
    finding), and what it pins down."""
    from ..games import find_game, with_capability
    from ..games.lit.inverse import fit_answer
    from ..request import read_setup
    from .progress import progress_line

    chosen = find_game(game) if game else with_capability("lit-law")[0]
    chosen.require("lit-law", "fit-rtp")
    setup = read_setup({GAME.name: chosen.name, DECKS.name: decks, SHOE_TEXT.name: shoe, REMOVE.name: remove},
                       need="lit-law", tool="fit-rtp")
    with progress_line(lambda done, total: f"fitting: q {done + 1} of {total}") as progress:
        text = fit_answer(chosen, setup.shoe, lit_count, multipliers, fee, rtp, grid,  # type: ignore[arg-type]
                          fmt, precision, progress)
    click.echo(text, nl=False)
