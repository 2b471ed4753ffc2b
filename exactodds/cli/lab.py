"""The commands of the card-counting lab: ``eor`` (the exact effects of removal), ``tags`` (a count proposed
from them) and ``simulate`` (shuffled shoes dealt and played by exact EV, by a count, or always)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..eor import DEFAULT_TAG_LEVELS, EOR_BY, EorBy, removal_effects
from ..present.eor import render_eor
from ..present.formats import SIMULATION_FORMATS, Format
from ..request import Setup
from .options import bet_option, game_setup, output_options, setup_line
from .types import Choice, OutputPath, WholeNumber

if TYPE_CHECKING:
    from ..lab import SimulationResult

#: What ``--bet all`` means to the lab.
_LAB_ALL = "every bet the lab can simulate"


@click.command(name="eor")
@game_setup(need="by-rank")
@bet_option("measure", default="the game's default bets", every="every bet that needs no suits")
@click.option(
    "--by",
    type=Choice(EOR_BY),
    default=None,
    help="One row per value 0-9 (a ten for 0) or one per rank (pair bets depend on rank); default the game's"
    " (punto banco: value; a game whose ranks differ, such as Dragon Tiger: rank).",
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
def eor(setup: Setup, by: EorBy | None, levels: tuple[int, ...], fmt: Format, precision: int) -> None:
    """Effect of removal: the exact change in each bet's EV when one card leaves the shoe, and count tags."""
    result = removal_effects(setup.game, setup.settings, setup.shoe, setup.bets, by=by)
    click.echo(render_eor(result, fmt, precision, levels or DEFAULT_TAG_LEVELS), nl=False)


@click.command(name="simulate")
@game_setup(need="simulate", own={"strategy": "strategies"})
@bet_option("play", default="dragon-7 and panda-8", every=_LAB_ALL, note="each is judged on its own EV")
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
    setup: Setup,
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
    from ..lab import Session
    from ..lab.advantage import parse_ror
    from ..lab.plan import DEFAULT_BETS
    from ..lab.scan import scan_options

    risk = parse_ror(ror)
    scanned, thresholds = scan_options(scan, thresholds, output)
    rules = setup.game.tableau_rules(setup.settings, "simulate", "simulate")
    session = Session.from_options(
        setup.shoe, rules, bets=setup.bets or DEFAULT_BETS, strategies=strategies,
        tags=tags, thresholds=thresholds, shoes=shoes, cut_card=cut_card, burn=burn, seed=seed, workers=workers,
        scheduler=scheduler, output=output, resume=resume, rebate=setup.settings.given().get("rebate"),
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


@click.command(name="tags")
@game_setup(need="tags")
@bet_option("count", every=_LAB_ALL, required=True)
@click.option(
    "--level", "levels", type=WholeNumber(1, 9), multiple=True, metavar="L",
    help="Largest tag ±L (repeatable; default 1 2 3 4).",
)
@output_options(SIMULATION_FORMATS, places=None)
def tags(setup: Setup, levels: tuple[int, ...], fmt: str) -> None:
    """Propose a linear count for each bet from its exact effects of removal (use with simulate --tags)."""
    from ..lab import propose_counts, render_proposals, simulated_bets

    rules = setup.game.tableau_rules(setup.settings, "tags", "tags")
    chosen = simulated_bets(rules, setup.bets or ())  # `all`: every bet the lab can count
    proposals = propose_counts(setup.shoe, rules, chosen, levels or DEFAULT_TAG_LEVELS)
    click.echo(render_proposals(setup.shoe, rules, proposals, fmt, [b.id for b in chosen],
                                setup_line(click.get_current_context())), nl=False)
