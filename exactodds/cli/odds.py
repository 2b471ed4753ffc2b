"""The command of exact prices, for every game: ``odds``, one shoe (many shoes are :mod:`.batch`; the listings of what
they price, :mod:`.listings`)."""

from __future__ import annotations

import click

from ..present.formats import Format
from ..present.odds import render
from ..request import Setup
from .options import bet_option, game_setup, output_options

_GIVEN_HELP = (
    'Price every bet given an event about the dealt cards, e.g. "P1 in 6789 and B1 = K" (positions P1 B1 P2 B2 P3 B3:'
    " the six cards of the draw in deal order, P3 and B3 the fifth and sixth out of the shoe; in, not in, =, !="
    " joined by 'and'); a game that can (punto banco)."
)


@click.command(name="odds")
@game_setup()
@bet_option("price", default="the game's default bets (punto banco's core bets)",
            every="every bet of the game this shoe can price, see `exactodds bets`")
@click.option("--given", "given_text", metavar="EXPR", help=_GIVEN_HELP)
@click.option("--summary", is_flag=True, help="One line a bet, as the published tables: house edge per hand and per"
              " resolved bet, RTP, hit frequency, SD, VI, the top award and how rarely it is hit (--precision: the"
              " percentages' decimals, less 2); --format table, markdown or csv.")
@output_options()
def odds(setup: Setup, given_text: str | None, summary: bool, fmt: Format, precision: int) -> None:
    """Exact probability, EV, house edge and SD of every bet for one shoe (with --given: conditional on an event)."""
    if summary:  # its formats checked before the pricing
        from ..report.summary import check_format

        check_format(fmt)
    analysis = setup.price(given=given_text)
    for warning in setup.favourable(analysis):
        click.echo(f"Warning: {warning}", err=True)
    if summary:
        from ..report.summary import render_summary

        click.echo(render_summary(analysis, fmt, max(precision - 2, 0)), nl=False)
        return
    click.echo(render(analysis, fmt, precision), nl=False)
