"""The commands of exact prices, for every game: ``odds``, one shoe (many shoes are :mod:`.batch`; the listings of what
they price, :mod:`.listings`); and ``fit-rtp``, the laws of a lit-card game that give the RTPs it advertises."""

from __future__ import annotations

from typing import Any

import click

from ..inputs import DECKS, GAME, REMOVE, SHOE_TEXT
from ..present.formats import GAME_FORMATS, Format
from ..present.odds import render
from ..request import Setup
from .options import bet_option, game_setup, option, output_options
from .types import WholeNumber

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
@output_options()
def odds(setup: Setup, given_text: str | None, fmt: Format, precision: int) -> None:
    """Exact probability, EV, house edge and SD of every bet for one shoe (with --given: conditional on an event)."""
    click.echo(render(setup.price(given=given_text), fmt, precision), nl=False)


@click.command(name="fit-rtp")
@option(GAME, help_text="The lit-card game (default the first with the capability lit-law): one that `exactodds"
        " games` lists with it.", metavar="GAME")
@option(DECKS)
@option(SHOE_TEXT)
@option(REMOVE)
@click.option("--lit-count", "lit_count", metavar="LAW", help='The lit count or its law, with p in its probabilities'
              ' to fit them (e.g. "1:p,2:1-p"); default the game\'s.')
@click.option("--multipliers", metavar="LAW", help='The multipliers\' law, with p in its probabilities to fit them'
              ' (e.g. "2:1-p,3:p"); default the game\'s.')
@click.option("--fee", metavar="RATE", help="The fee on every bet, e.g. 20% (default the game's).")
@click.option("--rtp", "rtps", multiple=True, metavar="BET=RTP", required=True,
              help="An advertised RTP as printed, e.g. player=98.9% (repeatable; bets: player, banker, tie, pair,"
              " player-pair, banker-pair). It stands for every value that rounds to it.")
@click.option("--grid", "grid", type=WholeNumber(1, 1000), default=20, show_default=True, metavar="N",
              help="With a second parameter q in the laws (2:1-p-q,3:p,8:q): q on N + 1 values from 0 to 1.")
@output_options(GAME_FORMATS, places=(1, 15, 10))
def fit_rtp(game: str | None, decks: int | None, shoe: str | None, remove: str | None, lit_count: str | None,
            multipliers: str | None, fee: str | None, rtps: tuple[str, ...], grid: int, fmt: str,
            precision: int) -> None:
    """The laws of a one-parameter family (p in the probabilities of --multipliers or --lit-count) that give every
    advertised RTP of a lit-card game, exactly: each bet's range of p, the range that gives all of them (or none: a
    finding), and what it pins down."""
    import json

    from ..exact import parse_rate
    from ..fitting import read_advertised
    from ..games import find_game, with_capability
    from ..games.lit.inverse import fit_grid, fit_rtps
    from ..request import read_setup

    chosen = find_game(game) if game else with_capability("lit-law")[0]
    chosen.require("lit-law", "fit-rtp")
    setup = read_setup({GAME.name: chosen.name, DECKS.name: decks, SHOE_TEXT.name: shoe, REMOVE.name: remove},
                       need="lit-law", tool="fit-rtp")
    advertised = read_advertised(rtps)
    rate = None if fee is None else parse_rate(fee, "fee", "20% or 1/5")
    texts = f"{lit_count or ''},{multipliers or ''}"
    two = any(ch == "q" for item in texts.split(",") for ch in item.partition(":")[2])
    found: Any = (fit_grid(chosen, setup.shoe, lit_count, multipliers, rate, advertised, grid)  # type: ignore[arg-type]
                  if two else fit_rtps(chosen, setup.shoe, lit_count, multipliers, rate, advertised))  # type: ignore[arg-type]
    click.echo(json.dumps(found.as_json()) if fmt == "json" else found.text(precision), nl=fmt == "json")
