"""The ``exactodds`` command line: a thin layer over the public API."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

import exactodds as xo

F = TypeVar("F", bound=Callable[..., Any])


class _Stopped(Exception):  # noqa: N818 - a signal carried past click's own handling, not an error
    """Ctrl-C or the end of the input, carried past click (which would print a blank line first)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OneLineErrors(click.Group):
    """A click group whose bad input ends as one ``Error: …`` line on stderr and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Stopped("interrupted") from None
        except EOFError:
            raise _Stopped("the input ended unexpectedly") from None

    def main(
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
        except UnicodeDecodeError:  # an input file (or stdin) that is not text
            _fail("cannot read the input: it is not UTF-8 text")
        except OSError as err:  # a file that cannot be read or written: still one line, no traceback
            where = f" ({err.filename})" if err.filename else ""
            _fail(f"{err.strerror or err}{where}")
        except _Stopped as stop:
            _fail(stop.message, 130 if stop.message == "interrupted" else 2)
        except click.Abort:
            _fail("interrupted", 130)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


class WholeNumber(click.ParamType):  # type: ignore[type-arg]
    """An integer option written in ASCII digits only (``int()`` would also take ``٨`` or ``1_0``), within bounds."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text, re.ASCII):
                self.fail(f"{text[:30]!r} is not a whole number written in digits 0-9", param, ctx)
            if len(text.lstrip("+-0")) > 101:
                self.fail(f"a number of {len(text.lstrip('+-0')):,} digits is too large", param, ctx)
            number = int(text)
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            low = "" if self.low is None else f" at least {self.low}"
            high = "" if self.high is None else f" at most {self.high}"
            joined = " and".join(part for part in (low, high) if part)
            self.fail(f"{number} is out of range: give a whole number{joined}", param, ctx)
        return number

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str | None:
        if self.low is not None and self.high is not None:
            return f"INTEGER RANGE {self.low}-{self.high}"
        return None


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
    func = click.option("--decks", type=WholeNumber(), default=None, help="Standard 52-card decks (default 8).")(
        func
    )
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
        "--precision", type=WholeNumber(0, 60), default=10, show_default=True, help="Decimal places."
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


def file_options(func: F) -> F:
    """The options that read bets and rules from TOML files: ``--bets-file`` and ``--rules-file``."""
    func = click.option(
        "--rules-file",
        "rules_file",
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="FILE",
        help="Rules from a TOML file (draw charts, commission, Tie pay, pay overrides); see examples/.",
    )(func)
    func = click.option(
        "--bets-file",
        "bets_files",
        type=click.Path(dir_okay=False, path_type=Path),
        multiple=True,
        metavar="FILE",
        help="Bets defined in a TOML file (repeatable); they are priced after any --bet.",
    )(func)
    return func


def rules_with_file(
    ctx: click.Context, rules_name: str, commission: str | None, tie_pays: str | None, rules_file: Path | None
) -> xo.RuleSet:
    """The rules of ``--rules-file`` (then ``--commission``/``--tie-pays``), else those of ``--rules``."""
    if rules_file is None:
        return build_rules(rules_name, commission, tie_pays)
    if ctx.get_parameter_source("rules_name") is not click.core.ParameterSource.DEFAULT:
        raise xo.ExactOddsError("give either --rules or --rules-file, not both (a rules file may name its base)")
    from .userdefs import load_rules

    rules = load_rules(rules_file)
    if commission is not None:
        rules = rules.with_commission(xo.parse_commission(commission))
    if tie_pays is not None:
        rules = rules.with_tie_pays(xo.parse_pays(tie_pays, "tie pay"))
    return rules


def bets_from_files(paths: Sequence[Path]) -> list[xo.Bet]:
    """The bets of every ``--bets-file``, each file read once however often named; an id in two files is an error."""
    from .userdefs import load_bets

    bets: list[xo.Bet] = []
    defined: dict[str, Path] = {}
    read: set[object] = set()
    for path in paths:
        try:  # the same file, by whatever name (a link, ./x, x), is read once
            info = os.stat(path)
            identity: object = (info.st_dev, info.st_ino)
        except OSError:  # load_bets says why it cannot be read
            identity = path.resolve()
        if identity in read:
            continue
        read.add(identity)
        for bet in load_bets(path):
            if bet.id in defined:
                raise xo.ExactOddsError(
                    f"the bet id {bet.id!r} is defined in two files, {defined[bet.id]} and {path}: rename one"
                )
            defined[bet.id] = path
            bets.append(bet)
    return bets


@cli.command()
@shoe_options
@rules_options
@click.option(
    "--bet",
    "bet_ids",
    multiple=True,
    metavar="ID",
    help="A bet to price (repeatable; default the core bets; 'all': every bet of the catalog this shoe can price,"
    " see `exactodds bets`).",
)
@file_options
@output_options
@click.pass_context
def odds(
    ctx: click.Context,
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str, ...],
    bets_files: tuple[Path, ...],
    rules_file: Path | None,
    fmt: str,
    precision: int,
) -> None:
    """Exact probability, EV, house edge and SD of every bet for one shoe."""
    shoe = build_shoe(decks, shoe_text, remove)
    rules = rules_with_file(ctx, rules_name, commission, tie_pays, rules_file)
    chosen: list[str | xo.Bet] = list(bet_ids)
    chosen += bets_from_files(bets_files)
    analysis = xo.analyze(shoe, rules, chosen or None)
    click.echo(xo.render(analysis, fmt, precision), nl=False)


@cli.command(name="bets")
@rules_options
def list_bets(rules_name: str, commission: str | None, tie_pays: str | None) -> None:
    """List the bets with their ids: the core bets of the rule set, then the side-bet catalog."""
    rules = build_rules(rules_name, commission, tie_pays)
    click.echo(rules.header())
    core = xo.bet_catalog(rules)
    for bet in core.values():
        click.echo(f"  {bet.id:<14} {bet.description}")
    click.echo("side-bet catalog (--bet ID, or --bet all for every bet; * needs a shoe with suits):")
    for bet in xo.bet_catalog(rules, full=True).values():
        if bet.id not in core:
            mark = "*" if bet.needs_suits else " "
            click.echo(f" {mark}{bet.id:<20} {bet.description}")


@cli.command(name="facts")
def list_facts() -> None:
    """List the coup facts that the conditions of a --bets-file or --rules-file are written in."""
    from .userdefs import facts_help

    for name, values, meaning in facts_help():
        click.echo(f"  {name:<19} {values:<30} {meaning}")


@cli.command(name="rules")
def list_rules() -> None:
    """List the rule sets with their aliases."""
    for rules in xo.RULE_SETS:
        aliases = f" (aliases: {', '.join(rules.aliases)})" if rules.aliases else ""
        click.echo(f"{rules.name}{aliases}\n  {rules.description}\n  {rules.header()}")


@cli.command()
@click.option(
    "--input", "input_file", type=click.Path(dir_okay=False, allow_dash=True), required=True, metavar="FILE",
    help='JSON lines, one shoe each: {"counts": {"A": 31, ...}}, {"decks": 8, "remove": "7,7,8"}; - for stdin.',
)
@rules_options
@click.option(
    "--bet", "bet_ids", multiple=True, metavar="ID",
    help="A bet to price (repeatable; default the core bets; 'all': every bet that needs no suits).",
)
@click.option("--precision", type=WholeNumber(0, 60), default=10, show_default=True, help="Decimal places.")
@click.option("--skip-bad", is_flag=True, help="Report bad lines on stderr and go on, instead of stopping.")
def batch(
    input_file: str,
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
    # Read bytes and let price_lines decode each line: a line that is not UTF-8 is then one
    # bad line with its number, and the lines before it are still priced and written.
    if input_file == "-":
        if sys.stdin is None:  # Python's stdin when the process was started with it closed
            raise xo.ExactOddsError("cannot read the standard input: it is closed")
        _batch_lines(getattr(sys.stdin, "buffer", sys.stdin), rules, bets, precision, skip_bad)
    else:
        with open(input_file, "rb") as stream:
            _batch_lines(stream, rules, bets, precision, skip_bad)


def _batch_lines(stream: Any, rules: xo.RuleSet, bets: tuple[xo.Bet, ...], precision: int, skip_bad: bool) -> None:
    """Write the odds of each line of ``stream``; a bad line stops the run unless ``skip_bad``."""
    skipped = priced = 0
    progress = sys.stderr.isatty()  # a running count for people; nothing in logs or pipes
    for number, result in xo.price_lines(stream, rules, bets, stop_at_bad=not skip_bad):
        if isinstance(result, xo.BadLine):
            if not skip_bad:
                raise xo.ExactOddsError(f"line {number}: {result.message}")
            skipped += 1
            click.echo(f"skipped line {number}: {result.message}", err=True)
            continue
        click.echo(xo.render_json(result, precision, indent=None))
        priced += 1
        if progress and priced % 1000 == 0:
            click.echo(f"\r{priced:,} shoes priced", err=True, nl=False)
    if progress and priced >= 1000:
        click.echo(f"\r{priced:,} shoes priced", err=True)
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
    if check and not directory.is_dir():
        raise xo.ExactOddsError(f"there is no tables folder to check at {directory}")
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
@click.option(
    "--bet", "bet_ids", multiple=True, metavar="ID",
    help="A bet (repeatable; default the core bets; 'all': every bet that needs no suits).",
)
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
    type=WholeNumber(1, 9),
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


@cli.command()
@shoe_options
@rules_options
@click.option(
    "--bet", "bet_ids", multiple=True, metavar="ID",
    help="A bet to play (repeatable; each is judged on its own EV; default dragon-7 and panda-8).",
)
@click.option(
    "--strategy", "strategies", multiple=True, metavar="NAME",
    help="perfect (bet when the exact EV > 0), count (--tags/--threshold) or always (repeatable;"
    " default perfect, and count when --tags is given).",
)
@click.option(
    "--tags", "tags", multiple=True, metavar="[BET=]TAGS",
    help="Count tags A,2,…,9,T,J,Q,K (13) or A,2,…,9,T/J/Q/K (10); BET= for one bet (repeatable).",
)
@click.option(
    "--threshold", "thresholds", multiple=True, metavar="[BET=]TC",
    help="Bet when the true count (running count / decks unseen) >= TC; BET= for one bet (repeatable).",
)
@click.option("--shoes", type=WholeNumber(), default=10_000, show_default=True, help="Shoes to deal.")
@click.option(
    "--cut-card", type=WholeNumber(), default=14, show_default=True, metavar="C", help="Cards behind the cut card."
)
@click.option(
    "--burn", default="0", show_default=True, metavar="N|card",
    help="Burn N cards face down after the shuffle, or 'card': show the first card and burn its value (T-K: 10).",
)
@click.option(
    "--seed", type=WholeNumber(), default=None, help="Seed of the shuffles (default: a random one, reported)."
)
@click.option("--workers", type=WholeNumber(), default=None, help="Local worker processes (default: every core).")
@click.option("--scheduler", metavar="ADDRESS", default=None, help="Run the chunks on a Dask distributed cluster.")
@click.option(
    "--output", "output", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
    help="Write the run (results and exact totals) to FILE as JSON, atomically, as it goes.",
)
@click.option("--resume", is_flag=True, help="Continue the run saved in --output FILE (if the file exists).")
@file_options
@click.option(
    "--format", "fmt", type=click.Choice(xo.SIMULATION_FORMATS), default="table", show_default=True,
    help="Output format.",
)
@click.option("--precision", type=WholeNumber(1, 12), default=4, show_default=True, help="Decimal places.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.pass_context
def simulate(
    ctx: click.Context,
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str, ...],
    strategies: tuple[str, ...],
    tags: tuple[str, ...],
    thresholds: tuple[str, ...],
    shoes: int,
    cut_card: int,
    burn: str,
    seed: int | None,
    workers: int | None,
    scheduler: str | None,
    output: Path | None,
    resume: bool,
    bets_files: tuple[Path, ...],
    rules_file: Path | None,
    fmt: str,
    precision: int,
    quiet: bool,
) -> None:
    """Deal shuffled shoes and play bets by exact EV, by a count, or always (the card-counting lab)."""
    from .lab import Session

    defined = {bet.id: bet for bet in bets_from_files(bets_files)}  # --bet may name them; all are played
    bets = [defined.get(b.strip().lower(), b) for b in bet_ids] + list(defined.values())
    session = Session.from_options(
        build_shoe(decks, shoe_text, remove), rules_with_file(ctx, rules_name, commission, tie_pays, rules_file),
        bets=bets or ("dragon-7", "panda-8"), strategies=strategies, tags=tags, thresholds=thresholds, shoes=shoes,
        cut_card=cut_card, burn=burn, seed=seed, workers=workers, scheduler=scheduler, output=output, resume=resume,
    )
    with session:  # from here to the exit, a late Ctrl-C cannot cut the save or the one Error line short
        with _ProgressBar(session.plan.shoes, quiet) as bar:
            result = session.run(bar.show)
        click.echo(result.render(fmt, precision), nl=False)
        if result.interrupted:
            where = f"; continue with --resume --output {output}" if output is not None else ""
            done = f"{result.shoes_done:,} of {session.plan.shoes:,} shoes"
            click.echo(f"Error: interrupted after {done}{where}", err=True)
            sys.stdout.flush()
            sys.stderr.flush()
            sys.exit(130)
    click.echo(session.summary(), err=True)


class _ProgressBar:
    """The run's progress bar on a terminal (elsewhere click would write its label as a line of its own)."""

    def __init__(self, length: int, quiet: bool) -> None:
        self.bar = None if quiet or not sys.stderr.isatty() else click.progressbar(
            length=length, label="simulating", show_eta=True, show_pos=True, file=sys.stderr
        )
        self.complete = False

    def show(self, result: xo.SimulationResult) -> None:
        self.complete = result.complete
        if self.bar is not None:
            self.bar.update(result.shoes_done - self.bar.pos)

    def __enter__(self) -> _ProgressBar:
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if self.bar is not None:
            # A finished bar keeps its line; a stopped one is wiped, so the one Error line stands alone.
            sys.stderr.write("\x1b[?25h\n" if exc_type is None and self.complete else "\r\x1b[K\x1b[?25h")
            sys.stderr.flush()


@cli.command()
@shoe_options
@rules_options
@click.option("--bet", "bet_ids", multiple=True, required=True, metavar="ID", help="A bet (repeatable).")
@click.option(
    "--level", "levels", type=WholeNumber(1, 9), multiple=True, metavar="L",
    help="Largest tag ±L (repeatable; default 1 2 3 4).",
)
@click.option(
    "--format", "fmt", type=click.Choice(xo.SIMULATION_FORMATS), default="table", show_default=True,
    help="Output format.",
)
def tags(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str, ...],
    levels: tuple[int, ...],
    fmt: str,
) -> None:
    """Propose a linear count for each bet from its exact effects of removal (use with simulate --tags)."""
    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    from .lab import simulated_bets

    chosen = [b.id for b in simulated_bets(rules, bet_ids)]  # `all`: every bet the lab can count
    proposals = xo.propose_counts(shoe, rules, chosen, levels or xo.DEFAULT_TAG_LEVELS)
    click.echo(xo.render_proposals(shoe, rules, proposals, fmt, chosen), nl=False)


def main() -> None:
    """Entry point of the ``exactodds`` console script."""
    cli(prog_name="exactodds")
