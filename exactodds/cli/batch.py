"""The command of many exact prices, for every game: ``batch``, a line of JSON in and out per shoe (one shoe is
:mod:`.odds`)."""

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
from ..present.odds_json import FIELDS as FIELD_NAMES
from ..present.odds_json import JsonLayout, parse_fields
from ..request import Setup
from .options import bet_option, game_setup, option, output_options

if TYPE_CHECKING:  # the batch machinery is imported when the command runs, not when it is listed
    from ..batch import GameLine

#: Output lines written at once (whole lines only; every line before a bad one is written before its error).
_WRITE_EVERY = 256


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


def _emit(lines: list[str]) -> None:
    """Write lines of JSON to the standard output, and flush them: as ``click.echo`` does, without its search of the
    text for terminal colours to strip (JSON escapes every control character, so it holds none) and its copy of the
    text for the newline, a tenth of a batch's time."""
    stream = sys.stdout
    stream.write("\n".join(lines))
    stream.write("\n")
    stream.flush()


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
                    _emit(out)
                    out.clear()
                if not skip_bad:
                    raise ExactOddsError(f"line {number}: {err}") from None
                skipped += 1
                click.echo(f"skipped line {number}: {err}", err=True)
                continue
            out.append(text)
            if len(out) >= _WRITE_EVERY:
                _emit(out)
                out.clear()
            priced += 1
            if progress and priced % 1000 == 0:
                click.echo(f"\r{priced:,} shoes priced", err=True, nl=False)
        if out:
            _emit(out)
        if progress and priced >= 1000:
            click.echo(f"\r{priced:,} shoes priced", err=True)
        if skipped:
            click.echo(f"{skipped} bad line{'s' if skipped != 1 else ''} skipped", err=True)
