"""The ``exactodds`` command line: a thin layer over the public API."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

import exactodds as xo

F = TypeVar("F", bound=Callable[..., Any])


class OneLineErrors(click.Group):
    """A click group whose bad input ends as one ``Error: …`` line on stderr and exit code 2."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as err:
            _fail(err.format_message())
        except click.ClickException as err:
            _fail(err.format_message(), err.exit_code)
        except xo.ExactOddsError as err:
            _fail(str(err))
        except click.Abort:
            _fail("interrupted", 130)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


def _fail(message: str, code: int = 2) -> None:
    first = " ".join(message.strip().split("\n")[0].split())
    click.echo(f"Error: {first}", err=True)
    sys.exit(code)


def shoe_options(func: F) -> F:
    """The options that describe a shoe: ``--decks``, ``--shoe`` and ``--remove``."""
    func = click.option("--remove", "remove", metavar="CARDS", help='Cards already seen, e.g. "7,7,8,K".')(func)
    func = click.option(
        "--shoe", "shoe_text", metavar="COUNTS", help='Explicit counts, e.g. "A=32,2=32,…" (unlisted ranks hold 0).'
    )(func)
    func = click.option("--decks", type=int, default=None, help="Standard 52-card decks (default 8).")(func)
    return func


def rules_options(func: F) -> F:
    """The options that pick the rules: ``--rules``, ``--commission``, ``--tie-pays``."""
    names = ", ".join(r.name for r in xo.RULE_SETS)
    func = click.option("--tie-pays", metavar="X", help="Tie pays X to 1 (default from the rule set, 8).")(func)
    func = click.option("--commission", metavar="RATE", help="Banker commission: 5%, 4%, 2.5%, 0.05 or 1/20.")(func)
    func = click.option("--rules", "rules_name", default="punto-banco", show_default=True, help=f"Rule set: {names}.")(
        func
    )
    return func


def output_options(func: F) -> F:
    """The output options shared by every report: ``--format`` and ``--precision``."""
    func = click.option(
        "--precision", type=click.IntRange(0, 60), default=10, show_default=True, help="Decimal places."
    )(func)
    func = click.option(
        "--format", "fmt", type=click.Choice(xo.FORMATS), default="table", show_default=True, help="Output format."
    )(func)
    return func


def build_shoe(decks: int | None, shoe_text: str | None, remove: str | None) -> xo.Shoe:
    """The shoe the options describe."""
    if decks is not None and shoe_text is not None:
        raise xo.ExactOddsError("give either --decks or --shoe, not both")
    shoe = xo.Shoe.parse(shoe_text) if shoe_text is not None else xo.Shoe.standard(8 if decks is None else decks)
    return shoe.remove(remove) if remove else shoe


def build_rules(rules_name: str, commission: str | None, tie_pays: str | None) -> xo.RuleSet:
    """The rule set the options describe."""
    rules = xo.find_rules(rules_name)
    if commission is not None:
        rules = rules.with_commission(xo.parse_commission(commission))
    if tie_pays is not None:
        rules = rules.with_tie_pays(xo.parse_pays(tie_pays, "tie pay"))
    return rules


@click.group(cls=OneLineErrors, invoke_without_command=True)
@click.version_option(xo.__version__, prog_name="exactodds")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Exact baccarat (punto banco) odds from any finite shoe.

    With no command, prints the full report for 8 fresh decks of punto banco.
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(odds)


@cli.command()
@shoe_options
@rules_options
@click.option("--bet", "bet_ids", multiple=True, metavar="ID", help="A bet to price (repeatable; default all).")
@output_options
def odds(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str, ...],
    fmt: str,
    precision: int,
) -> None:
    """Exact probability, EV, house edge and SD of every bet for one shoe."""
    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    analysis = xo.analyze(shoe, rules, bet_ids or None)
    click.echo(xo.render(analysis, fmt, precision), nl=False)


@cli.command(name="bets")
@rules_options
def list_bets(rules_name: str, commission: str | None, tie_pays: str | None) -> None:
    """List the bets of a rule set with their ids."""
    rules = build_rules(rules_name, commission, tie_pays)
    click.echo(rules.header())
    for bet in xo.bet_catalog(rules).values():
        click.echo(f"  {bet.id:<14} {bet.description}")


@cli.command(name="rules")
def list_rules() -> None:
    """List the rule sets with their aliases."""
    for rules in xo.RULE_SETS:
        aliases = f" (aliases: {', '.join(rules.aliases)})" if rules.aliases else ""
        click.echo(f"{rules.name}{aliases}\n  {rules.description}\n  {rules.header()}")


@cli.command()
@click.option(
    "--input", "input_file", type=click.File("r"), required=True, metavar="FILE",
    help='JSON lines, one shoe each: {"counts": {"A": 31, ...}}, {"decks": 8, "remove": "7,7,8"}; - for stdin.',
)
@rules_options
@click.option("--bet", "bet_ids", multiple=True, metavar="ID", help="A bet to price (repeatable; default all).")
@click.option("--precision", type=click.IntRange(0, 60), default=10, show_default=True, help="Decimal places.")
@click.option("--skip-bad", is_flag=True, help="Report bad lines on stderr and go on, instead of stopping.")
def batch(
    input_file: Any,
    rules_name: str,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str, ...],
    precision: int,
    skip_bad: bool,
) -> None:
    """Price many shoes: for each input line, the `odds --format json` object, on one line."""
    rules = build_rules(rules_name, commission, tie_pays)
    bets = xo.resolve_bets(rules, bet_ids or None)
    skipped = 0
    for number, result in xo.price_lines(input_file, rules, bets):
        if isinstance(result, xo.BadLine):
            if not skip_bad:
                raise xo.ExactOddsError(f"line {number}: {result.message}")
            skipped += 1
            click.echo(f"skipped line {number}: {result.message}", err=True)
            continue
        click.echo(xo.render_json(result, precision, indent=None))
    if skipped:
        click.echo(f"{skipped} bad line{'s' if skipped != 1 else ''} skipped", err=True)


@cli.command()
@click.option(
    "--output",
    "output",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="The tables folder (default: tables/ at the top of the exactodds checkout around the current folder).",
)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 naming each stale, missing or extra file.")
def tables(output: Path | None, check: bool) -> None:
    """Write the reference tables (par sheets, house edge by decks, EOR, closed forms), or check them."""
    directory = output if output is not None else xo.find_tables_dir()
    if not check:
        xo.ensure_tables_dir(directory)  # refuse a foreign folder before the work, not after
    progress = None if check else _progress
    files = xo.generate_tables(progress)
    if check:
        status = xo.check_tables(directory, files)
        if not status.ok:
            for line in status.lines():
                click.echo(line, err=True)
            raise click.ClickException(
                f"{directory} is out of date ({status.summary()}): run `exactodds tables` to regenerate it"
            )
        return
    before = xo.write_tables(directory, files, progress)
    changed = len(before.stale) + len(before.missing)
    click.echo(
        f"{directory}: {len(files)} files, {changed} written, {len(files) - changed} unchanged,"
        f" {len(before.extra)} extra",
        err=True,
    )


def _progress(message: str) -> None:
    click.echo(message, err=True)


@cli.command()
@shoe_options
@rules_options
@click.option("--bet", "bet_ids", multiple=True, metavar="ID", help="A bet (repeatable; default all).")
@click.option(
    "--by",
    type=click.Choice(xo.EOR_BY),
    default="value",
    show_default=True,
    help="One row per value 0-9 (a ten for 0) or one per rank (pair bets depend on rank).",
)
@click.option(
    "--level",
    "levels",
    type=click.IntRange(1, 9),
    multiple=True,
    metavar="L",
    help="Suggest count tags with largest tag ±L (repeatable; default 1 2 3 4).",
)
@output_options
def eor(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str, ...],
    by: str,
    levels: tuple[int, ...],
    fmt: str,
    precision: int,
) -> None:
    """Effect of removal: the exact change in each bet's EV when one card leaves the shoe, and count tags."""
    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    result = xo.effect_of_removal(shoe, rules, bet_ids or None, by=by)
    click.echo(xo.render_eor(result, fmt, precision, levels or xo.DEFAULT_TAG_LEVELS), nl=False)


def main() -> None:
    """Entry point of the ``exactodds`` console script."""
    cli(prog_name="exactodds")
