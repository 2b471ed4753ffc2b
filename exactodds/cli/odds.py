"""The commands of exact prices: ``odds`` (one shoe), ``batch`` (many), and the listings of what they price
(``bets``, ``facts``, ``rules``)."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import click

from ..analysis import analyze, resolve_bets
from ..batch import BadLine, price_rows
from ..bets import bet_catalog
from ..errors import ExactOddsError
from ..given import Given
from ..layout import one_line
from ..paytable import Bet
from ..rebate import Rebate
from ..render.formats import Format
from ..render.odds import render
from ..render.odds_json import FIELDS, JsonLayout, parse_fields
from ..rules import RULE_SETS, RuleSet
from ..userdefs import facts_help
from .options import Setup, bet_option, output_options, rebate_options, rules_options, shoe_and_rules


@click.command(name="odds")
@shoe_and_rules
@bet_option("price", default="the core bets",
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
    given = None if given_text is None else Given.parse(given_text)
    analysis = replace(analyze(setup.shoe, setup.rules, setup.bets, given=given), rebate=rebate)
    click.echo(render(analysis, fmt, precision), nl=False)


@click.command(name="bets")
@rules_options
def list_bets(rules: RuleSet, file_bets: tuple[Bet, ...]) -> None:
    """List the bets with their ids: the core bets of the rule set, the side-bet catalog, then those of --bets-file."""
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


@click.command(name="batch")
@click.option(
    "--input", "input_file", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True,
    metavar="FILE",
    help='JSON lines, one shoe each: {"counts": {"A": 31, ...}}, {"decks": 8, "remove": "7,7,8"}; - for stdin.',
)
@rules_options
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
) -> None:
    """Price many shoes: for each input line, the `odds --format json` object (or --fields of it), on one line."""
    chosen = resolve_bets(rules, bets, suits=False)  # lines may be known by rank only
    fields = None if fields_text is None else parse_fields(fields_text)
    if fields is not None and "rebate" in fields and rebate is None:
        raise ExactOddsError("--fields rebate writes each bet's EV with a rebate: give the rate with --rebate RATE")
    layout = JsonLayout(rules, chosen, precision, fields, rebate)
    # Read bytes and let price_rows decode each line: a line that is not UTF-8 is then one
    # bad line with its number, and the lines before it are still priced and written.
    if input_file == "-":
        if sys.stdin is None:  # Python's stdin when the process was started with it closed
            raise ExactOddsError("cannot read the standard input: it is closed")
        _batch_lines(getattr(sys.stdin, "buffer", sys.stdin), rules, chosen, layout, skip_bad)
    else:
        with open(input_file, "rb") as stream:
            _batch_lines(stream, rules, chosen, layout, skip_bad)


#: Output lines written at once (whole lines only; every line before a bad one is written before its error).
_WRITE_EVERY = 256


def _batch_lines(stream: Any, rules: RuleSet, bets: tuple[Bet, ...], layout: JsonLayout, skip_bad: bool) -> None:
    """Write the odds of each line of ``stream``; a bad line stops the run unless ``skip_bad``."""
    skipped = priced = 0
    progress = sys.stderr.isatty()  # a running count for people; nothing in logs or pipes
    out: list[str] = []
    for number, result in price_rows(stream, rules, bets, stop_at_bad=not skip_bad):
        if isinstance(result, BadLine):
            if out:
                click.echo("\n".join(out))
                out.clear()
            if not skip_bad:
                raise ExactOddsError(f"line {number}: {result.message}")
            skipped += 1
            click.echo(f"skipped line {number}: {result.message}", err=True)
            continue
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
