"""The ``exactodds`` command line: a thin layer over the public API."""

from __future__ import annotations

import functools
import inspect
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, cast

import click

from .analysis import analyze, resolve_bets
from .batch import BadLine, price_lines
from .bets import Bet, bet_catalog
from .cards import Shoe
from .eor import DEFAULT_TAG_LEVELS, EOR_BY, EorBy, effect_of_removal
from .errors import ExactOddsError
from .render import FORMATS, SIMULATION_FORMATS, Format
from .render.eor import render_eor
from .render.odds import render, render_json
from .rules import PUNTO_BANCO, RULE_SETS, RuleSet, find_rules, parse_commission, parse_pays
from .userdefs import facts_help, load_bets, load_rules
from .version import __version__

F = TypeVar("F", bound=Callable[..., Any])


class _LabNames:
    """Transitional: the names the ``simulate`` and ``tags`` bodies read as ``xo.…``, the card-counting lab's
    imported on first use (it needs numpy, which no other command pays for). Goes when those bodies import
    from the lab themselves."""

    def __getattr__(self, name: str) -> Any:
        if name == "ExactOddsError":
            return ExactOddsError
        if name == "DEFAULT_TAG_LEVELS":
            return DEFAULT_TAG_LEVELS
        from . import simulation

        return getattr(simulation, name)


if TYPE_CHECKING:
    from . import simulation as _lab

    class xo:  # noqa: N801 - what the type checker sees of the names above
        ExactOddsError = ExactOddsError
        DEFAULT_TAG_LEVELS = DEFAULT_TAG_LEVELS
        SimulationPlan: TypeAlias = _lab.SimulationPlan
        SimulationResult: TypeAlias = _lab.SimulationResult
        count_systems = staticmethod(_lab.count_systems)
        load_result = staticmethod(_lab.load_result)
        propose_counts = staticmethod(_lab.propose_counts)
        random_seed = staticmethod(_lab.random_seed)
        render_proposals = staticmethod(_lab.render_proposals)
        save_result = staticmethod(_lab.save_result)
        saved_seed = staticmethod(_lab.saved_seed)
        simulate = staticmethod(_lab.simulate)
else:
    xo = _LabNames()


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


# Option bundles: each option is declared once, here, and every command that takes a shoe
# or rules takes them all the same way (with the same help).


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
    """The options that pick the rules and add bets: ``--rules``, ``--commission``, ``--tie-pays``, ``--rules-file``
    and ``--bets-file``.

    The command sees the files already read: its ``rules_name`` is the rule set of ``--rules-file`` (else the
    name given by ``--rules``), and its ``bet_ids`` hold the bets of ``--bets-file`` (see :func:`choose_bets`);
    a command without ``bet_ids`` receives them as ``file_bets``.
    """
    names = ", ".join(r.name for r in RULE_SETS)
    wants = inspect.signature(func).parameters

    @functools.wraps(func)
    def resolved(*args: Any, **kwargs: Any) -> Any:
        rules_file: Path | None = kwargs.pop("rules_file")
        bets_files: tuple[Path, ...] = kwargs.pop("bets_files")
        if rules_file is not None:
            ctx = click.get_current_context()
            if ctx.get_parameter_source("rules_name") is not click.core.ParameterSource.DEFAULT:
                raise ExactOddsError("give either --rules or --rules-file, not both (a rules file may name its base)")
            kwargs["rules_name"] = load_rules(rules_file)
        file_bets = bets_from_files(bets_files)
        if "bet_ids" in wants:
            kwargs["bet_ids"] = choose_bets(kwargs["bet_ids"], file_bets)
        else:
            kwargs["file_bets"] = file_bets
        return func(*args, **kwargs)

    wrapped: Any = resolved
    wrapped = click.option(
        "--bets-file",
        "bets_files",
        type=click.Path(dir_okay=False, path_type=Path),
        multiple=True,
        metavar="FILE",
        help="Bets defined in a TOML file (repeatable): --bet ID picks one; with no --bet naming one, every bet of"
        " the files comes after any --bet.",
    )(wrapped)
    wrapped = click.option(
        "--rules-file",
        "rules_file",
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="FILE",
        help="Rules from a TOML file (draw charts, commission, Tie pay, pay overrides); see examples/.",
    )(wrapped)
    wrapped = click.option("--tie-pays", metavar="X", help="Tie pays X to 1 (default from the rule set, 8).")(wrapped)
    wrapped = click.option(
        "--commission", metavar="RATE", help="Banker commission: 5%, 4%, 2.5%, 0.05 or 1/20."
    )(wrapped)
    wrapped = click.option(
        "--rules", "rules_name", default="punto-banco", show_default=True, help=f"Rule set: {names}."
    )(wrapped)
    return cast(F, wrapped)


def shoe_and_rules(func: F) -> F:
    """The shoe, rules and files options of every command that prices bets on a shoe (:func:`shoe_options`,
    :func:`rules_options`)."""
    return shoe_options(rules_options(func))


def output_options(
    formats: Sequence[str] = FORMATS, *, places: tuple[int, int, int] | None = (0, 60, 10)
) -> Callable[[F], F]:
    """The output options of a report: ``--format`` (one of ``formats``, none if empty) and ``--precision``
    (``places`` = lowest, highest, default; none if ``None``)."""

    def add(func: F) -> F:
        if places is not None:
            low, high, default = places
            func = click.option(
                "--precision", type=WholeNumber(low, high), default=default, show_default=True, help="Decimal places."
            )(func)
        if formats:
            func = click.option(
                "--format", "fmt", type=click.Choice(formats), default=formats[0], show_default=True,
                help="Output format.",
            )(func)
        return func

    return add


def build_shoe(decks: int | None, shoe_text: str | None, remove: str | None) -> Shoe:
    """The shoe the options describe."""
    if decks is not None and shoe_text is not None:
        raise ExactOddsError("give either --decks or --shoe, not both")
    shoe = Shoe.parse(shoe_text) if shoe_text is not None else Shoe.standard(8 if decks is None else decks)
    return shoe.remove(remove) if remove else shoe


def build_rules(rules_name: str | RuleSet, commission: str | None, tie_pays: str | None) -> RuleSet:
    """The rule set the options describe: the named one (or that of ``--rules-file``), its commission and Tie pay."""
    rules = find_rules(rules_name) if isinstance(rules_name, str) else rules_name
    if commission is not None:
        rules = rules.with_commission(parse_commission(commission))
    if tie_pays is not None:
        rules = rules.with_tie_pays(parse_pays(tie_pays, "tie pay"))
    return rules


def choose_bets(bet_ids: Sequence[str], file_bets: Sequence[Bet]) -> tuple[str | Bet, ...]:
    """The bets of ``--bet``, an id defined in a ``--bets-file`` standing for that bet; then, unless ``--bet``
    named one of them, every bet of the files (as ``odds`` has always priced them).

    >>> from dataclasses import replace
    >>> from exactodds.bets import find_bet
    >>> mine = replace(find_bet("dragon-7", PUNTO_BANCO), id="my-dragon-7")
    >>> [b if isinstance(b, str) else b.id for b in choose_bets(["banker"], [mine])]
    ['banker', 'my-dragon-7']
    >>> choose_bets(["my-dragon-7"], [mine]) == (mine,)
    True
    """
    # An id of the catalog stays the catalog's: a file bet of the same id is then an error (two different bets
    # with one id), never a silent stand-in.
    catalog = bet_catalog(PUNTO_BANCO, full=True)
    defined = {bet.id: bet for bet in file_bets if bet.id not in catalog}
    chosen: tuple[str | Bet, ...] = tuple(defined.get(i.strip(), i) for i in bet_ids)
    if not any(isinstance(b, Bet) for b in chosen):
        chosen += tuple(file_bets)
    return chosen


def bets_from_files(paths: Sequence[Path]) -> list[Bet]:
    """The bets of every ``--bets-file``, each file read once however often named; an id in two files is an error."""
    bets: list[Bet] = []
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
                raise ExactOddsError(
                    f"the bet id {bet.id!r} is defined in two files, {defined[bet.id]} and {path}: rename one"
                )
            defined[bet.id] = path
            bets.append(bet)
    return bets


_PROJECT_NAME = re.compile(r'^\s*name\s*=\s*["\']exactodds["\']\s*$', re.MULTILINE)


def find_tables_dir(start: Path | str | None = None) -> Path:
    """The ``tables`` folder of the exactodds checkout containing ``start`` (default: the current folder).

    Looks from ``start`` upward for a ``pyproject.toml`` of the project named ``exactodds``.
    """
    here = Path.cwd() if start is None else Path(start)
    here = here.resolve()
    for folder in (here, *here.parents):
        project = folder / "pyproject.toml"
        if project.is_file() and _PROJECT_NAME.search(project.read_text(encoding="utf-8", errors="replace")):
            return folder / "tables"
    raise ExactOddsError(
        f"no exactodds checkout (a pyproject.toml naming exactodds) in {here} or above; use --output DIR"
    )


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
@output_options()
def odds(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str | RuleSet,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str | Bet, ...],
    fmt: Format,
    precision: int,
) -> None:
    """Exact probability, EV, house edge and SD of every bet for one shoe."""
    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    analysis = analyze(shoe, rules, bet_ids or None)
    click.echo(render(analysis, fmt, precision), nl=False)


@cli.command(name="bets")
@rules_options
def list_bets(rules_name: str | RuleSet, commission: str | None, tie_pays: str | None, file_bets: list[Bet]) -> None:
    """List the bets with their ids: the core bets of the rule set, the side-bet catalog, then those of --bets-file."""
    rules = build_rules(rules_name, commission, tie_pays)
    click.echo(rules.header())
    core = bet_catalog(rules)
    for bet in core.values():
        click.echo(f"  {bet.id:<14} {bet.description}")
    click.echo("side-bet catalog (--bet ID, or --bet all for every bet; * needs a shoe with suits):")
    for bet in bet_catalog(rules, full=True).values():
        if bet.id not in core:
            mark = "*" if bet.needs_suits else " "
            click.echo(f" {mark}{bet.id:<20} {bet.description}")
    if file_bets:
        click.echo("from --bets-file (--bet ID):")
        for bet in file_bets:
            mark = "*" if bet.needs_suits else " "
            click.echo(f" {mark}{bet.id:<20} {bet.description}")


@cli.command(name="facts")
def list_facts() -> None:
    """List the coup facts that the conditions of a --bets-file or --rules-file are written in."""
    for name, values, meaning in facts_help():
        click.echo(f"  {name:<19} {values:<30} {meaning}")


@cli.command(name="rules")
def list_rules() -> None:
    """List the rule sets with their aliases."""
    for rules in RULE_SETS:
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
@output_options(formats=())
@click.option("--skip-bad", is_flag=True, help="Report bad lines on stderr and go on, instead of stopping.")
def batch(
    input_file: str,
    rules_name: str | RuleSet,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str | Bet, ...],
    precision: int,
    skip_bad: bool,
) -> None:
    """Price many shoes: for each input line, the `odds --format json` object, on one line."""
    rules = build_rules(rules_name, commission, tie_pays)
    bets = resolve_bets(rules, bet_ids or None)
    # Read bytes and let price_lines decode each line: a line that is not UTF-8 is then one
    # bad line with its number, and the lines before it are still priced and written.
    if input_file == "-":
        if sys.stdin is None:  # Python's stdin when the process was started with it closed
            raise ExactOddsError("cannot read the standard input: it is closed")
        _batch_lines(getattr(sys.stdin, "buffer", sys.stdin), rules, bets, precision, skip_bad)
    else:
        with open(input_file, "rb") as stream:
            _batch_lines(stream, rules, bets, precision, skip_bad)


def _batch_lines(stream: Any, rules: RuleSet, bets: tuple[Bet, ...], precision: int, skip_bad: bool) -> None:
    """Write the odds of each line of ``stream``; a bad line stops the run unless ``skip_bad``."""
    skipped = priced = 0
    progress = sys.stderr.isatty()  # a running count for people; nothing in logs or pipes
    for number, result in price_lines(stream, rules, bets, stop_at_bad=not skip_bad):
        if isinstance(result, BadLine):
            if not skip_bad:
                raise ExactOddsError(f"line {number}: {result.message}")
            skipped += 1
            click.echo(f"skipped line {number}: {result.message}", err=True)
            continue
        click.echo(render_json(result, precision, indent=None))
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
    from .tables import check_tables, ensure_tables_dir, generate_tables, write_tables

    directory = output if output is not None else find_tables_dir()
    if check and not directory.is_dir():
        raise ExactOddsError(f"there is no tables folder to check at {directory}")
    if not check:
        ensure_tables_dir(directory)  # refuse a foreign folder before the work, not after
    progress = None if check else _progress
    files = generate_tables(progress)
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
    "--output", "output", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
    help="Write the run (results and exact totals) to FILE as JSON, atomically, as it goes.",
)
@click.option("--resume", is_flag=True, help="Continue the run saved in --output FILE (if the file exists).")
@output_options(SIMULATION_FORMATS, places=(1, 12, 4))
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(
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
    fmt: str,
    precision: int,
    quiet: bool,
) -> None:
    """Deal shuffled shoes and play bets by exact EV, by a count, or always (the card-counting lab)."""
    import time

    from exactodds.simulation import check_output, simulated_bets

    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    bets = simulated_bets(rules, bet_ids or ("dragon-7", "panda-8"))
    counts = xo.count_systems([b.id for b in bets], tags, thresholds)
    chosen = strategies or (("perfect", "count") if counts else ("perfect",))
    if resume and output is None:
        raise xo.ExactOddsError("--resume continues the run in --output FILE: give --output")
    if output is not None:
        check_output(output)  # now, not after a run whose results could not be saved
    resuming = resume and output is not None and output.exists()

    def make_plan(seed: int) -> xo.SimulationPlan:
        return xo.SimulationPlan(shoe, rules, bets, shoes, seed, tuple(chosen), cut_card, burn, counts)

    if resuming and seed is None and output is not None:
        # The options are checked first; the run's chunk count then bounds what reading the file may build.
        seed = xo.saved_seed(output, make_plan(0).chunk_count)
    plan = make_plan(xo.random_seed() if seed is None else seed)
    previous = xo.load_result(output, plan) if resuming and output is not None else None
    start = time.perf_counter()
    first = previous.shoes_done if previous is not None else 0
    last_save = [start]
    # A progress bar only on a terminal: elsewhere click writes its label as a line of its own.
    bar = None if quiet or not sys.stderr.isatty() else click.progressbar(
        length=plan.shoes, label="simulating", show_eta=True, show_pos=True, file=sys.stderr
    )

    def progress(result: xo.SimulationResult) -> None:
        if bar is not None:
            bar.update(result.shoes_done - bar.pos)
        now = time.perf_counter()
        if output is not None and now - last_save[0] >= 10:
            xo.save_result(result, output)
            last_save[0] = now

    # Once the run is over, a (second) Ctrl-C must not cut short the save or the one Error line, nor raise
    # while the process exits (Python resets its own handlers to the default then, so a Ctrl-C would kill it):
    # it is ignored from the end of the run to the exit of an interrupted one (a completed one restores it).
    import signal
    import threading

    in_main = threading.current_thread() is threading.main_thread()
    previous_handler = signal.getsignal(signal.SIGINT) if in_main else None
    reported = [False]

    def late_interrupt(signum: int, frame: Any) -> None:
        pass  # the run is over: the save and the report are quick, and come first

    if in_main:
        signal.signal(signal.SIGINT, late_interrupt)  # simulate() handles Ctrl-C itself, then restores this
    if bar is not None:
        bar.__enter__()
        bar.update(first)
    ended = False
    try:
        result = xo.simulate(plan, workers=workers, scheduler=scheduler, resume=previous, progress=progress)
        ended = not result.interrupted
    except BaseException:
        if in_main:
            signal.signal(signal.SIGINT, previous_handler)
        raise
    finally:
        if bar is not None:
            # A finished bar keeps its line; a stopped one is wiped, so the one Error line stands alone.
            sys.stderr.write("\x1b[?25h\n" if ended else "\r\x1b[K\x1b[?25h")
            sys.stderr.flush()
    seconds = time.perf_counter() - start
    try:
        if output is not None:
            xo.save_result(result, output)
        click.echo(result.render(fmt, precision), nl=False)
        if result.interrupted:
            where = f"; continue with --resume --output {output}" if output is not None else ""
            click.echo(f"Error: interrupted after {result.shoes_done:,} of {plan.shoes:,} shoes{where}", err=True)
            sys.stdout.flush()
            sys.stderr.flush()
            reported[0] = True
            if in_main:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # kept through the exit: everything is saved and said
            sys.exit(130)
    except BaseException:
        if in_main and not reported[0]:
            signal.signal(signal.SIGINT, previous_handler)
        raise
    if in_main:
        signal.signal(signal.SIGINT, previous_handler)
    dealt = result.shoes_done - first
    rate = f"{dealt / seconds:,.0f} shoes/s" if seconds > 0 else ""
    click.echo(f"{dealt:,} shoes in {seconds:,.1f} s ({rate})", err=True)


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
    from exactodds.simulation import simulated_bets

    chosen = [b.id for b in simulated_bets(rules, bet_ids)]  # `all`: every bet the lab can count
    proposals = xo.propose_counts(shoe, rules, chosen, levels or xo.DEFAULT_TAG_LEVELS)
    click.echo(xo.render_proposals(shoe, rules, proposals, fmt, chosen), nl=False)


def main() -> None:
    """Entry point of the ``exactodds`` console script."""
    cli(prog_name="exactodds")
