"""The commands of exact prices: ``odds`` (one shoe), ``batch`` (many), and the listings of what they price
(``games``, ``bets``, ``facts``, ``rules``), for every game."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from ..analysis import require_suits
from ..errors import ExactOddsError
from ..game import Game, Settings
from ..inputs import FIELDS
from ..paytable import Bet
from ..present.formats import LISTING_FORMATS, Format
from ..present.listings import render_bets, render_facts, render_games, render_rule_sets
from ..present.odds import render
from ..present.odds_json import FIELDS as FIELD_NAMES
from ..present.odds_json import JsonLayout, parse_fields
from ..request import Setup
from .options import bet_option, game_setup, option, output_options

if TYPE_CHECKING:  # the batch machinery is imported when `batch` runs: `odds` and the report start without it
    from ..batch import GameLine

#: Output lines written at once (whole lines only; every line before a bad one is written before its error).
_WRITE_EVERY = 256

_GIVEN_HELP = (
    'Price every bet given an event about the dealt cards, e.g. "P1 in 6789 and B1 = K" (positions P1 B1 P2 B2 P3 B3:'
    " the six cards of the draw in deal order, P3 and B3 the fifth and sixth out of the shoe; in, not in, =, !="
    " joined by 'and'); a game that can (punto banco)."
)


def _listing_format(func: Any) -> Any:
    return output_options(LISTING_FORMATS, places=None)(func)


@click.command(name="odds")
@game_setup()
@bet_option("price", default="the game's default bets (punto banco's core bets)",
            every="every bet of the game this shoe can price, see `exactodds bets`")
@click.option("--given", "given_text", metavar="EXPR", help=_GIVEN_HELP)
@output_options()
def odds(setup: Setup, given_text: str | None, fmt: Format, precision: int) -> None:
    """Exact probability, EV, house edge and SD of every bet for one shoe (with --given: conditional on an event)."""
    click.echo(render(setup.price(given=given_text), fmt, precision), nl=False)


@click.command(name="bets")
@game_setup(shoe=False)
@_listing_format
def list_bets(setup: Setup, fmt: str) -> None:
    """List a game's bets with their ids: its default bets, then the rest (punto banco: the side-bet catalog), then
    those of --bets-file."""
    click.echo(render_bets(setup.game, setup.settings, setup.file_bets, fmt), nl=False)


@click.command(name="facts")
@game_setup(shoe=False)
@_listing_format
def list_facts(setup: Setup, fmt: str) -> None:
    """List the facts that the conditions of a game's bets are written in (a --bets-file's, a --rules-file's)."""
    click.echo(render_facts(setup.game, fmt), nl=False)


@click.command(name="rules")
@game_setup(shoe=False, need="rule-sets")
@_listing_format
def list_rules(setup: Setup, fmt: str) -> None:
    """List the rule sets of a game that has them (punto banco's), with their aliases."""
    click.echo(render_rule_sets(setup.game, fmt), nl=False)


@click.command(name="games")
@_listing_format
def list_games(fmt: str) -> None:
    """List the games (the registry): their aliases, what they are, their settings and bets, what each can do."""
    from ..games import GAMES

    click.echo(render_games(GAMES, fmt), nl=False)


@click.command(name="batch")
@click.option(
    "--input", "input_file", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True,
    metavar="FILE",
    help='JSON lines, one shoe each: {"counts": {"A": 31, ...}}, {"decks": 8, "remove": "7,7,8"}, a line of'
    ' another game {"game": "ID", "decks": 6}; - for stdin.',
)
@game_setup(shoe=False)
@bet_option("price", default="the game's default bets", every="every bet that needs no suits")
@output_options(formats=())
@option(FIELDS, help_text="Write only these keys of each object, comma-separated (e.g. ev,count): "
        + ", ".join(FIELD_NAMES) + ".", multiple=False)
@click.option("--skip-bad", is_flag=True, help="Report bad lines on stderr and go on, instead of stopping.")
def batch(input_file: str, setup: Setup, precision: int, fields: str | None, skip_bad: bool) -> None:
    """Price many shoes: for each input line, the `odds --format json` object (or --fields of it), on one line.

    A line may name its game ("game"): the options price the lines of --game, and a line of another game is priced
    with its default bets at its usual settings.
    """
    chosen = None if fields is None else parse_fields(fields)
    if chosen is not None and "rebate" in chosen and setup.settings.given().get("rebate") is None:
        raise ExactOddsError("--fields rebate writes each bet's EV with a rebate: give the rate with --rebate RATE")
    lines = _Lines(setup, precision, chosen)
    # Read bytes and let price_rows decode each line: a line that is not UTF-8 is then one
    # bad line with its number, and the lines before it are still priced and written.
    if input_file == "-":
        if sys.stdin is None:  # Python's stdin when the process was started with it closed
            raise ExactOddsError("cannot read the standard input: it is closed")
        lines.write(getattr(sys.stdin, "buffer", sys.stdin), skip_bad)
    else:
        with open(input_file, "rb") as stream:
            lines.write(stream, skip_bad)


class _Lines:
    """A batch's lines priced and written: its own game's with the options' bets and settings, another game's with its
    default bets at its usual settings, each game's JSON layout made once."""

    def __init__(self, setup: Setup, places: int, fields: frozenset[str] | None) -> None:
        self.setup, self.places, self.fields = setup, places, fields
        self.own = setup.game.resolve(setup.bets, setup.settings, suits=False)  # lines may be known by rank only
        self.layouts: dict[str, tuple[Game, Settings, tuple[Bet, ...], JsonLayout]] = {}
        self.layouts[setup.game.name] = (setup.game, setup.settings, self.own, self._layout(setup.game, setup.settings,
                                                                                           self.own))

    def _layout(self, game: Game, settings: Settings, bets: tuple[Bet, ...]) -> JsonLayout:
        rebate = settings.given().get("rebate")
        return JsonLayout(game.rules(settings), bets, self.places, self.fields, rebate, counting=game.counting)

    def lookup(self, name: str) -> Game | None:
        """A line's game: ``None`` for the batch's own."""
        from ..games import find_game

        found = find_game(name)
        if found is self.setup.game:
            return None
        found.require("bets", "a line of a batch")
        return found

    def line(self, game: Game, shoe: Any, counts: list[int], orderings: int) -> str:
        """A line of ``game`` priced, as one line of compact JSON (a game's chart last, when it has one)."""
        _, settings, _, layout = self.layouts[game.name]
        text = layout.line(shoe, counts, orderings)
        chart = game.chart_of(shoe, settings) if self.fields is None else None
        if chart is not None:  # the whole object: odds' JSON, its chart last
            text = text[:-1] + ',"chart":' + json.dumps(chart.as_json(), separators=(",", ":")) + "}"
        return text

    def other(self, line: GameLine) -> str:
        """A line of another game than the batch's, priced with its default bets at its usual settings."""
        game = line.game
        if game.name not in self.layouts:
            settings = game.settings_of({})
            bets = game.resolve(None, settings)
            self.layouts[game.name] = (game, settings, bets, self._layout(game, settings, bets))
        _, settings, bets, _ = self.layouts[game.name]
        require_suits(line.shoe, bets)  # its bets on suits need a line known by suit
        ((counts, orderings),) = game.count_rows([line.shoe], bets, settings)
        return self.line(game, line.shoe, counts, orderings)

    def write(self, stream: Any, skip_bad: bool) -> None:
        """Write the odds of each line of ``stream``; a bad line stops the run unless ``skip_bad``."""
        from ..batch import BadLine, GameLine, price_rows

        skipped = priced = 0
        progress = sys.stderr.isatty()  # a running count for people; nothing in logs or pipes
        out: list[str] = []
        game = self.setup.game
        rows = price_rows(stream, game, self.setup.settings, self.own, stop_at_bad=not skip_bad, games=self.lookup)
        for number, result in rows:
            try:
                if isinstance(result, BadLine):
                    raise ExactOddsError(result.message)
                text = self.other(result) if isinstance(result, GameLine) else self.line(game, *result)
            except ExactOddsError as err:  # a bad line, or a bet of another game this line's shoe cannot price
                if out:
                    click.echo("\n".join(out))
                    out.clear()
                if not skip_bad:
                    raise ExactOddsError(f"line {number}: {err}") from None
                skipped += 1
                click.echo(f"skipped line {number}: {err}", err=True)
                continue
            out.append(text)
            if len(out) >= _WRITE_EVERY:
                click.echo("\n".join(out))
                out.clear()
            priced += 1
            if progress and priced % 1000 == 0:
                click.echo(f"\r{priced:,} shoes priced", err=True, nl=False)
        if out:
            click.echo("\n".join(out))
        if progress and priced >= 1000:
            click.echo(f"\r{priced:,} shoes priced", err=True)
        if skipped:
            click.echo(f"{skipped} bad line{'s' if skipped != 1 else ''} skipped", err=True)
