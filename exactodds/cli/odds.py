"""The commands of exact prices: ``odds`` (one shoe), ``batch`` (many), and the listings of what they price
(``bets``, ``facts``, ``rules``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from ..analysis import Analysis
from ..batch import BadLine, GameLine, PricedRow, game_rows, price_rows
from ..errors import ExactOddsError
from ..family.deal import GameRules, SettingValue
from ..family.pricing import find_game_bets, game_bets, game_settings, price_game
from ..layout import one_line
from ..present.formats import Format
from ..present.odds import render
from ..present.odds_json import FIELDS, JsonLayout, parse_fields
from ..puntobanco.bets import bet_catalog
from ..puntobanco.events import Bet
from ..puntobanco.given import Given
from ..puntobanco.odds import analyze, resolve_bets
from ..puntobanco.rules import RULE_SETS, RuleSet
from ..puntobanco.userdefs import facts_help
from ..rebate import Rebate

if TYPE_CHECKING:
    from ..variants import Variant

from .options import Setup, bet_option, game_rules_options, game_shoe_and_rules, output_options, rebate_options


@click.command(name="odds")
@game_shoe_and_rules
@bet_option("price", default="the core bets (another game: every bet of it)",
            every="every bet of the catalog this shoe can price, see `exactodds bets`")
@click.option(
    "--given",
    "given_text",
    metavar="EXPR",
    help='Price every bet given an event about the dealt cards, e.g. "P1 in 6789 and B1 = K" (positions P1 B1 P2'
    " B2 P3 B3: the six cards of the draw in deal order, P3 and B3 the fifth and sixth out of the shoe; in, not in,"
    " =, != joined by 'and').",
)
@rebate_options
@output_options()
def odds(setup: Setup, given_text: str | None, rebate: Rebate | None, fmt: Format, precision: int) -> None:
    """Exact probability, EV, house edge and SD of every bet for one shoe (with --given: conditional on an event)."""
    if setup.game is not None:
        _no_rebate(setup.game, rebate)
        click.echo(render(_game_analysis(setup, given_text), fmt, precision), nl=False)
        return
    given = None if given_text is None else Given.parse(given_text)
    analysis = replace(analyze(setup.shoe, setup.rules, setup.bets, given=given), rebate=rebate)
    click.echo(render(analysis, fmt, precision), nl=False)


def _no_rebate(game: Variant, rebate: Rebate | None) -> None:
    """Refuse a rebate on a game with a deal of its own: its basis names punto banco's Banker bet."""
    if rebate is not None:
        raise ExactOddsError(f"--rebate prices punto banco's bets; {game.name} is priced without a rebate")


def _game_analysis(setup: Setup, given_text: str | None) -> Analysis:
    """The bets of a game with a deal of its own, priced on the setup's shoe under its settings."""
    assert setup.game is not None and setup.game.deal is not None
    if given_text is not None:
        raise ExactOddsError(f"--given reads punto banco's six cards; {setup.game.name} deals its own")
    bets = None if setup.bets is None else [b for b in setup.bets if isinstance(b, str)]
    return price_game(setup.game.deal, setup.shoe, bets, setup.settings)


@click.command(name="bets")
@game_rules_options
def list_bets(
    rules: RuleSet, file_bets: tuple[Bet, ...], game: Variant | None, settings: dict[str, SettingValue] | None
) -> None:
    """List the bets with their ids: the core bets of the rule set, the side-bet catalog, then those of --bets-file
    (with --game, the bets of that game)."""
    if game is not None and game.deal is not None:
        bets = game_bets(game.deal, settings)
        click.echo(one_line(GameRules(game.deal, tuple(game_settings(game.deal, settings).items())).header()))
        for game_bet in bets.values():
            mark = "*" if game_bet.suited else " "
            click.echo(one_line(f" {mark}{game_bet.bet.id:<16} {game_bet.bet.description}"))
        if any(b.suited for b in bets.values()):
            click.echo("(* needs a shoe with suits)")
        return
    click.echo(one_line(rules.header()))  # a listing line per bet, whatever its texts say
    core = bet_catalog(rules)
    for bet in core.values():
        click.echo(one_line(f"  {bet.id:<14} {bet.description}"))
    click.echo("side-bet catalog (--bet ID, or --bet all for every bet; * needs a shoe with suits):")
    for bet in bet_catalog(rules, full=True).values():
        if bet.id not in core:
            mark = "*" if bet.needs_suits else " "
            click.echo(one_line(f" {mark}{bet.id:<20} {bet.description}"))
    if file_bets:
        click.echo("from --bets-file (--bet ID):")
        for bet in file_bets:
            mark = "*" if bet.needs_suits else " "
            click.echo(one_line(f" {mark}{bet.id:<20} {bet.description}"))


@click.command(name="facts")
def list_facts() -> None:
    """List the coup facts that the conditions of a --bets-file or --rules-file are written in."""
    for name, values, meaning in facts_help():
        click.echo(f"  {name:<20} {values:<30} {meaning}")


@click.command(name="rules")
def list_rules() -> None:
    """List the rule sets with their aliases."""
    for rules in RULE_SETS:
        aliases = f" (aliases: {', '.join(rules.aliases)})" if rules.aliases else ""
        click.echo(f"{rules.name}{aliases}\n  {rules.description}\n  {rules.header()}")


@click.command(name="games")
def list_games() -> None:
    """List the games (the registry): their aliases, what they are, and how each is priced."""
    from ..variants import GAMES

    for game in GAMES:
        aliases = f" (aliases: {', '.join(game.aliases)})" if game.aliases else ""
        click.echo(f"{game.name}{aliases}\n  {game.description}")
        if game.deal is not None:
            deal = game.deal
            settings = ", ".join(s.option for s in deal.settings) or "none"
            decks = f"{deal.decks} deck{'s' if deal.decks != 1 else ''}"
            click.echo(f"  deals {deal.cards} cards a coup from {decks} (--decks, --shoe); settings: {settings}")
            click.echo(f"  bets: {', '.join(game.bets() if game.bets else ())}")
            click.echo(f"  exactodds odds --game {game.name}")
            continue
        if game.rule_sets:
            click.echo(f"  rule sets (--rules): {', '.join(r.name for r in game.rule_sets)}; bets: exactodds bets")
        if game.models:
            click.echo(f"  information models (solve --model): {', '.join(game.models)}")
        if game.commands:
            click.echo(f"  decisions: exactodds {', exactodds '.join(game.commands)}")


@click.command(name="batch")
@click.option(
    "--input", "input_file", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True,
    metavar="FILE",
    help='JSON lines, one shoe each: {"counts": {"A": 31, ...}}, {"decks": 8, "remove": "7,7,8"}, a line of'
    ' another game {"game": "ID", "decks": 6}; - for stdin.',
)
@game_rules_options
@bet_option("price", default="the core bets", every="every bet that needs no suits")
@rebate_options
@output_options(formats=())
@click.option(
    "--fields", "fields_text", default=None, metavar="KEYS",
    help="Write only these keys of each object, comma-separated (e.g. ev,count): " + ", ".join(FIELDS) + ".",
)
@click.option("--skip-bad", is_flag=True, help="Report bad lines on stderr and go on, instead of stopping.")
def batch(
    input_file: str,
    rules: RuleSet,
    bets: tuple[str | Bet, ...] | None,
    rebate: Rebate | None,
    precision: int,
    fields_text: str | None,
    skip_bad: bool,
    game: Variant | None,
    settings: dict[str, SettingValue] | None,
) -> None:
    """Price many shoes: for each input line, the `odds --format json` object (or --fields of it), on one line.

    A line may name its game ("game"); the options price the lines of --game, and a line of another game is priced
    with every bet of it at its usual pays.
    """
    fields = None if fields_text is None else parse_fields(fields_text)
    if fields is not None and "rebate" in fields and rebate is None:
        raise ExactOddsError("--fields rebate writes each bet's EV with a rebate: give the rate with --rebate RATE")
    games = _GameLines(game, bets, settings or {}, precision, fields, rebate is not None)
    if game is None:
        chosen = resolve_bets(rules, bets, suits=False)  # lines may be known by rank only
        layout = JsonLayout(rules, chosen, precision, fields, rebate)
    else:
        _no_rebate(game, rebate)
        games.layout(game.name)  # the bets named, checked before any line is read
        chosen, layout = (), None
    # Read bytes and let price_rows decode each line: a line that is not UTF-8 is then one
    # bad line with its number, and the lines before it are still priced and written.
    if input_file == "-":
        if sys.stdin is None:  # Python's stdin when the process was started with it closed
            raise ExactOddsError("cannot read the standard input: it is closed")
        _batch_lines(getattr(sys.stdin, "buffer", sys.stdin), rules, chosen, layout, skip_bad, games)
    else:
        with open(input_file, "rb") as stream:
            _batch_lines(stream, rules, chosen, layout, skip_bad, games)


class _GameLines:
    """The lines of games with a deal of their own in a batch: each game's name found, its bets priced, its JSON."""

    def __init__(
        self, game: Variant | None, bets: tuple[str | Bet, ...] | None, settings: dict[str, SettingValue], places: int,
        fields: frozenset[str] | None, rebate: bool = False,
    ) -> None:
        self.game, self.settings, self.places, self.fields = game, settings, places, fields
        self.rebate = rebate  # a batch with --rebate prices punto banco's lines only
        self.bets = None if bets is None else [b for b in bets if isinstance(b, str)]
        self.layouts: dict[str, tuple[JsonLayout, Any]] = {}

    def lookup(self, name: str) -> tuple[str, int] | None:
        """A line's game: ``None`` for the batch's own, else its name and usual decks (chemin de fer: an error)."""
        from ..variants import find_game

        found = find_game(name)
        if (self.game is None and found.deal is None and found.priced) or found is self.game:
            return None
        if found.deal is not None and self.rebate:
            raise ExactOddsError(f"--rebate prices punto banco's bets; {found.name} is priced without a rebate")
        if found.deal is None:
            raise ExactOddsError(
                f"a batch prices punto banco and the games with a deal of their own, not {found.name}"
                if found.priced is False else "a line of punto banco in a batch of another game: give --game per run"
            )
        return found.name, found.deal.decks

    def layout(self, name: str) -> tuple[JsonLayout, Any]:
        """The JSON layout of a game's lines, and its bets and settings (the options' for the batch's own game)."""
        if name not in self.layouts:
            from ..variants import find_game

            deal = find_game(name).deal
            assert deal is not None
            own = self.game is not None and self.game.name == name
            settings = game_settings(deal, self.settings if own else None)
            chosen = find_game_bets(deal, self.bets if own else None, settings)
            layout = JsonLayout(GameRules(deal, tuple(settings.items())), [b.bet for b in chosen], self.places,
                                self.fields, counting=deal.counting)
            self.layouts[name] = (layout, (deal, [b.bet.id for b in chosen], settings))
        return self.layouts[name]

    def line(self, line: GameLine) -> str:
        """A line of a game priced, as one line of compact JSON."""
        layout, (deal, bets, settings) = self.layout(line.game)
        analysis = price_game(deal, line.shoe, bets, settings)
        text = str(layout.line(line.shoe, [o.count for f in analysis.bets for o in f.outcomes], analysis.orderings))
        if analysis.chart is not None and self.fields is None:  # the whole object: odds' JSON, its chart last
            text = text[:-1] + ',"chart":' + json.dumps(analysis.chart.as_json(), separators=(",", ":")) + "}"
        return text


#: Output lines written at once (whole lines only; every line before a bad one is written before its error).
_WRITE_EVERY = 256


def _batch_lines(
    stream: Any, rules: RuleSet, bets: tuple[Bet, ...], layout: JsonLayout | None, skip_bad: bool, games: _GameLines
) -> None:
    """Write the odds of each line of ``stream``; a bad line stops the run unless ``skip_bad``."""
    skipped = priced = 0
    progress = sys.stderr.isatty()  # a running count for people; nothing in logs or pipes
    out: list[str] = []
    rows: Iterator[tuple[int, PricedRow | GameLine | BadLine]]
    if games.game is not None and games.game.deal is not None:
        rows = game_rows(stream, games.game.name, games.game.deal.decks, games.lookup, stop_at_bad=not skip_bad)
    else:
        rows = price_rows(stream, rules, bets, stop_at_bad=not skip_bad, games=games.lookup)
    for number, result in rows:
        if isinstance(result, BadLine):
            if out:
                click.echo("\n".join(out))
                out.clear()
            if not skip_bad:
                raise ExactOddsError(f"line {number}: {result.message}")
            skipped += 1
            click.echo(f"skipped line {number}: {result.message}", err=True)
            continue
        if isinstance(result, GameLine):
            try:
                out.append(games.line(result))
            except ExactOddsError as err:  # a bet of the game this line's shoe cannot price
                if not skip_bad:
                    if out:
                        click.echo("\n".join(out))
                    raise ExactOddsError(f"line {number}: {err}") from None
                skipped += 1
                click.echo(f"skipped line {number}: {err}", err=True)
                continue
        else:
            assert layout is not None
            out.append(layout.line(result.shoe, result.counts, result.orderings))
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
