"""The ``exactodds`` command line: a thin layer over the public API."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .analysis import analyze, resolve_bets
from .batch import BadLine, price_rows
from .bets import Bet, bet_catalog
from .cli_options import (
    OutputPath,
    WholeNumber,
    build_rules,
    build_shoe,
    find_tables_dir,
    output_options,
    rules_options,
    shoe_and_rules,
)
from .eor import DEFAULT_TAG_LEVELS, EOR_BY, EorBy, effect_of_removal
from .errors import ExactOddsError
from .given import Given
from .layout import one_line
from .render import SIMULATION_FORMATS, Format
from .render.eor import render_eor
from .render.odds import FIELDS, JsonLayout, parse_fields, render
from .rules import RULE_SETS, RuleSet
from .userdefs import facts_help
from .version import __version__

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    from .lab import SimulationResult


class _Stopped(Exception):  # noqa: N818 - a signal carried past click's own handling, not an error
    """Ctrl-C or the end of the input, carried past click (which would print a blank line first)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


#: Commands defined in modules of their own, imported when they run or are listed (``--help``):
#: their imports (the report's checks and published figures, the solver, the tracker) are not
#: start-up's, which stays some 20 ms shorter for every other command. Name: (module, attribute).
LAZY_COMMANDS = {
    "solve": ("cli_games", "solve_command"),
    "big-table": ("cli_games", "big_table_command"),
    "edge-sort": ("cli_info", "edge_sort_command"),
    "track": ("cli_track", "track_command"),
    "report": ("cli_report", "report_command"),
    "plot": ("cli_report", "plot_command"),
}


class OneLineErrors(click.Group):
    """A click group whose bad input ends as one ``Error: …`` line on stderr and exit code 2.

    It also knows the commands of :data:`LAZY_COMMANDS`, imported on first use.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in LAZY_COMMANDS:
            from importlib import import_module

            module, attribute = LAZY_COMMANDS[cmd_name]
            command = getattr(import_module(f".{module}", __package__), attribute)
            self.add_command(command, cmd_name)
        return command

    def all_commands(self) -> dict[str, click.Command]:
        """Every command by name, the lazy ones imported (for the docs and the tests)."""
        ctx = click.Context(self)
        return {name: command for name in self.list_commands(ctx) if (command := self.get_command(ctx, name))}

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
        except ExactOddsError as err:
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


def _fail(message: str, code: int = 2) -> None:
    first = " ".join(message.strip().split("\n")[0].split())
    click.echo(f"Error: {first}", err=True)
    sys.exit(code)


@click.group(cls=OneLineErrors, invoke_without_command=True)
@click.version_option(__version__, prog_name="exactodds")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Exact baccarat (punto banco) odds from any finite shoe.

    With no command, prints the full report for 8 fresh decks of punto banco.
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(odds)


@cli.command()
@shoe_and_rules
@click.option(
    "--bet",
    "bet_ids",
    multiple=True,
    metavar="ID",
    help="A bet to price (repeatable; default the core bets; 'all': every bet of the catalog this shoe can price,"
    " see `exactodds bets`).",
)
@click.option(
    "--given",
    "given_text",
    metavar="EXPR",
    help='Price every bet given an event about the dealt cards, e.g. "P1 in 6789 and B1 = K" (positions P1 B1 P2'
    " B2 P3 B3: the six cards of the draw in deal order, P3 and B3 the fifth and sixth out of the shoe; in, not in,"
    " =, != joined by 'and').",
)
@output_options()
def odds(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str | RuleSet,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str | Bet, ...],
    given_text: str | None,
    fmt: Format,
    precision: int,
) -> None:
    """Exact probability, EV, house edge and SD of every bet for one shoe (with --given: conditional on an event)."""
    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    given = None if given_text is None else Given.parse(given_text)
    analysis = analyze(shoe, rules, bet_ids or None, given=given)
    click.echo(render(analysis, fmt, precision), nl=False)


@cli.command(name="bets")
@rules_options
def list_bets(rules_name: str | RuleSet, commission: str | None, tie_pays: str | None, file_bets: list[Bet]) -> None:
    """List the bets with their ids: the core bets of the rule set, the side-bet catalog, then those of --bets-file."""
    rules = build_rules(rules_name, commission, tie_pays)
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


@cli.command(name="facts")
def list_facts() -> None:
    """List the coup facts that the conditions of a --bets-file or --rules-file are written in."""
    for name, values, meaning in facts_help():
        click.echo(f"  {name:<20} {values:<30} {meaning}")


@cli.command(name="rules")
def list_rules() -> None:
    """List the rule sets with their aliases."""
    for rules in RULE_SETS:
        aliases = f" (aliases: {', '.join(rules.aliases)})" if rules.aliases else ""
        click.echo(f"{rules.name}{aliases}\n  {rules.description}\n  {rules.header()}")


@cli.command()
@click.option(
    "--input", "input_file", type=click.Path(dir_okay=False, allow_dash=True), default="-", show_default=True,
    metavar="FILE",
    help='JSON lines, one shoe each: {"counts": {"A": 31, ...}}, {"decks": 8, "remove": "7,7,8"}; - for stdin.',
)
@rules_options
@click.option(
    "--bet", "bet_ids", multiple=True, metavar="ID",
    help="A bet to price (repeatable; default the core bets; 'all': every bet that needs no suits).",
)
@output_options(formats=())
@click.option(
    "--fields", "fields_text", default=None, metavar="KEYS",
    help="Write only these keys of each object, comma-separated (e.g. ev,count): " + ", ".join(FIELDS) + ".",
)
@click.option("--skip-bad", is_flag=True, help="Report bad lines on stderr and go on, instead of stopping.")
def batch(
    input_file: str,
    rules_name: str | RuleSet,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str | Bet, ...],
    precision: int,
    fields_text: str | None,
    skip_bad: bool,
) -> None:
    """Price many shoes: for each input line, the `odds --format json` object (or --fields of it), on one line."""
    rules = build_rules(rules_name, commission, tie_pays)
    bets = resolve_bets(rules, bet_ids or None, suits=False)  # lines may be known by rank only
    layout = JsonLayout(rules, bets, precision, None if fields_text is None else parse_fields(fields_text))
    # Read bytes and let price_rows decode each line: a line that is not UTF-8 is then one
    # bad line with its number, and the lines before it are still priced and written.
    if input_file == "-":
        if sys.stdin is None:  # Python's stdin when the process was started with it closed
            raise ExactOddsError("cannot read the standard input: it is closed")
        _batch_lines(getattr(sys.stdin, "buffer", sys.stdin), rules, bets, layout, skip_bad)
    else:
        with open(input_file, "rb") as stream:
            _batch_lines(stream, rules, bets, layout, skip_bad)


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
    from .tables import check_tables, ensure_tables_dir, generate_tables, write_tables

    directory = output if output is not None else find_tables_dir()
    if check and not directory.is_dir():
        raise ExactOddsError(f"there is no tables folder to check at {directory}")
    if not check:
        ensure_tables_dir(directory)  # refuse a foreign folder before the work, not after
    progress = None if check else _progress
    files = generate_tables(progress, parallel=True)
    if check:
        status = check_tables(directory, files)
        if not status.ok:
            for line in status.lines():
                click.echo(line, err=True)
            raise click.ClickException(
                f"{directory} is out of date ({status.summary()}): run `exactodds tables` to regenerate it"
            )
        return
    before = write_tables(directory, files, progress)
    changed = len(before.stale) + len(before.missing)
    click.echo(
        f"{directory}: {len(files)} files, {changed} written, {len(files) - changed} unchanged,"
        f" {len(before.extra)} extra",
        err=True,
    )


def _progress(message: str) -> None:
    click.echo(message, err=True)


@cli.command()
@shoe_and_rules
@click.option(
    "--bet", "bet_ids", multiple=True, metavar="ID",
    help="A bet (repeatable; default the core bets; 'all': every bet that needs no suits).",
)
@click.option(
    "--by",
    type=click.Choice(EOR_BY),
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
@output_options()
def eor(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str | RuleSet,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str | Bet, ...],
    by: EorBy,
    levels: tuple[int, ...],
    fmt: Format,
    precision: int,
) -> None:
    """Effect of removal: the exact change in each bet's EV when one card leaves the shoe, and count tags."""
    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    result = effect_of_removal(shoe, rules, bet_ids or None, by=by)
    click.echo(render_eor(result, fmt, precision, levels or DEFAULT_TAG_LEVELS), nl=False)


@cli.command()
@shoe_and_rules
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
    "--output", "output", type=OutputPath(), default=None, metavar="FILE",
    help="Write the run (results and exact totals) to FILE as JSON, atomically, as it goes.",
)
@click.option("--resume", is_flag=True, help="Continue the run saved in --output FILE (if the file exists).")
@click.option("--ror", default="5%", show_default=True, metavar="RISK", help="Risk of ruin the bankroll is sized for.")
@click.option(
    "--scan-threshold", "scan", metavar="FROM:TO:STEP|LIST",
    help="Play the count (--tags) at each threshold on the same shoes and report the best (replaces --threshold).",
)
@output_options(SIMULATION_FORMATS, places=(1, 12, 4))
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str | RuleSet,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str | Bet, ...],
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
    ror: str,
    scan: str | None,
    fmt: str,
    precision: int,
    quiet: bool,
) -> None:
    """Deal shuffled shoes and play bets by exact EV, by a count, or always (the card-counting lab)."""
    from .lab import Session
    from .lab.figures import parse_ror
    from .lab.scan import scan_options

    risk = parse_ror(ror)
    scanned, thresholds = scan_options(scan, thresholds, output)
    session = Session.from_options(
        build_shoe(decks, shoe_text, remove), build_rules(rules_name, commission, tie_pays),
        bets=bet_ids or ("dragon-7", "panda-8"), strategies=strategies, tags=tags, thresholds=thresholds,
        shoes=shoes, cut_card=cut_card, burn=burn, seed=seed, workers=workers, scheduler=scheduler, output=output,
        resume=resume,
    )
    if scanned:
        click.echo(session.scan(scanned).render(fmt, precision, risk), nl=False)
        return
    with session:  # from here to the exit, a late Ctrl-C cannot cut the save or the one Error line short
        with _ProgressBar(session.plan.shoes, quiet) as bar:
            result = session.run(bar.show)
        click.echo(result.render(fmt, precision, risk), nl=False)
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

    def show(self, result: SimulationResult) -> None:
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
@shoe_and_rules
@click.option("--bet", "bet_ids", multiple=True, required=True, metavar="ID", help="A bet (repeatable).")
@click.option(
    "--level", "levels", type=WholeNumber(1, 9), multiple=True, metavar="L",
    help="Largest tag ±L (repeatable; default 1 2 3 4).",
)
@output_options(SIMULATION_FORMATS, places=None)
def tags(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str | RuleSet,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str | Bet, ...],
    levels: tuple[int, ...],
    fmt: str,
) -> None:
    """Propose a linear count for each bet from its exact effects of removal (use with simulate --tags)."""
    from .lab import propose_counts, render_proposals, simulated_bets

    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    chosen = simulated_bets(rules, bet_ids)  # `all`: every bet the lab can count
    proposals = propose_counts(shoe, rules, chosen, levels or DEFAULT_TAG_LEVELS)
    click.echo(render_proposals(shoe, rules, proposals, fmt, [b.id for b in chosen]), nl=False)


def main() -> None:
    """The command line alone: the ``exactodds`` command runs :func:`exactodds.__main__.main`, which checks more."""
    cli(prog_name="exactodds")
