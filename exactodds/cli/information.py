"""The commands about information: ``edge-sort`` (the value of knowing the High/Low class of the first cards) and
``peek`` (some of the first four cards shown, then a raise)."""

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


@click.command(name="peek")
@game_setup(need="peek")
@click.option("--reveal", "reveal", metavar="LAW", help='The law of which cards are shown, e.g. "P1B1:1/2,P1P2B2:1/2"'
              ' (positions written together) or "cards=1:1/4,2:1/4,3:1/4,4:1/4" (a number of cards, each set of that'
              " many alike); not published, so none by default: each pattern's figures alone.")
@click.option("--peek-fee", "peek_fee", metavar="RATE", default="20%", show_default=True,
              help="The Peek fee on the original Player or Banker stake (none on a raise).")
@click.option("--rtp", "rtps", multiple=True, metavar="BET=RTP",
              help="An advertised RTP of the player or banker bet as printed, e.g. player=98.8% (repeatable): with p in"
              " the probabilities of --reveal (P1B1:1-p,P1P2B2:p), the laws of that family that give every one.")
@output_options(GAME_FORMATS, places=(1, 12, 4))
def peek_command(setup: Setup, reveal: str | None, peek_fee: str, rtps: tuple[str, ...], fmt: str,
                 precision: int) -> None:
    """Peek Baccarat: each set of the first four cards shown, with the best raise (keep, double or triple), the exact
    RTP of the Player and Banker bets and how often they are raised; with --reveal, the game under that law."""
    import json

    from ..exact import fraction_text, parse_rate
    from ..puntobanco.peek import PATTERNS, mixed, pattern_figures, peek_text, read_reveal_law

    rate = parse_rate(peek_fee, "Peek fee", "20% or 1/5")
    tableau = setup.game.tableau_rules(setup.settings, "peek", "peek").tableau
    if rtps:
        from ..fitting import read_advertised
        from ..puntobanco.peek import fit_reveal

        if reveal is None:
            raise ExactOddsError("--rtp fits a family of reveal laws: give it as --reveal with p, e.g."
                                 " P1B1:1-p,P1P2B2:p")
        advertised = read_advertised(rtps, "player=98.8%")
        click.echo(fit_reveal(setup.shoe, tableau, reveal, advertised, rate), nl=False)
        return
    law = read_reveal_law(reveal) if reveal is not None else ()
    if fmt != "json":
        click.echo(peek_text(setup.shoe, tableau, law, rate, precision), nl=False)
        return
    out: dict[str, object] = {"fee": fraction_text(rate), "patterns": {}}
    for pattern in PATTERNS:
        figures = {}
        for bet in ("player", "banker"):
            f = pattern_figures(setup.shoe, tableau, pattern, bet, rate)
            figures[bet] = {"return": fraction_text(f.expected_return), "paid": fraction_text(f.expected_cost),
                            "rtp": fraction_text(f.rtp), "raised": fraction_text(f.raised_share)}
        out["patterns"]["".join(pattern)] = figures  # type: ignore[index]
    if law:
        out["law"] = {"".join(p): fraction_text(c) for p, c in law}
        for bet in ("player", "banker"):
            ret, cost, raised = mixed([(c, pattern_figures(setup.shoe, tableau, p, bet, rate)) for p, c in law])
            out[bet] = {"return": fraction_text(ret), "paid": fraction_text(cost), "rtp": fraction_text(ret / cost),
                        "raised": fraction_text(raised)}
    click.echo(json.dumps(out))
