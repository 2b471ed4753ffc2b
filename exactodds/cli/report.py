"""The commands that write files for people: ``report`` (the math report, a par sheet) and ``plot``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from ..errors import ExactOddsError, shown, unknown_name
from ..files import write_atomic
from ..plot import EXACT_KINDS, KINDS, PlotRequest, render_plot, require
from ..present.formats import IMAGE_FORMATS, REPORT_FORMATS
from ..report import Mix, make_report, output_format, parse_min_rtp, render_report, write_report
from ..report.model import Cover, parse_date
from ..request import Setup
from .options import bet_option, command_line, game_setup, setup_line
from .progress import progress_line
from .types import STDOUT, Choice, OutputPath, WholeNumber

if TYPE_CHECKING:
    from ..report.lab import LabOptions

#: The libraries each format needs (all in the ``report`` extra).
_NEEDS = {"xlsx": ("openpyxl",), "pdf": ("reportlab", "matplotlib"), "html": ("matplotlib",), "md": ()}


def _libraries(fmt: str) -> None:
    """Import the libraries of the output's format, once every argument is checked and before the work."""
    for module in _NEEDS[fmt]:
        require(module)


_OUTPUT_HELP = "The file to write, atomically; its extension gives the format: {}."


@click.command(name="report")
@game_setup(own={"strategy": "strategies"})
@bet_option("report", default="the game's default bets, punto banco's core bets", every="every bet the shoe can price")
@click.option(
    "--mix", "mix_text", metavar="BET=W,…",
    help="The table's bet mix, e.g. banker=0.45,player=0.40,tie=0.15 (shares of hands, summing to exactly 1):"
    " the blended hold and its band (one bet per hand, chosen by the mix).",
)
@click.option("--min-rtp", "min_rtp_text", metavar="RTP", help="Flag every bet whose return to player is below RTP,"
              " e.g. 90% (a jurisdiction's minimum).")
@click.option(
    "--lab-shoes", type=WholeNumber(1), default=None, metavar="N",
    help="Add the lab's advantage-play figures (estimates): deal N shoes and play the report's bets (default: off).",
)
@click.option("--seed", type=WholeNumber(), default=None, help="Seed of the lab's shuffles (default: a random one,"
              " stated in the report).")
@click.option(
    "--strategy", "strategies", multiple=True, metavar="NAME",
    help="The lab's strategy: perfect, count (--tags/--threshold) or always (repeatable; as simulate).",
)
@click.option("--tags", "tags", multiple=True, metavar="[BET=]TAGS", help="The lab's count tags (as simulate).")
@click.option("--threshold", "thresholds", multiple=True, metavar="[BET=]TC",
              help="The lab's count threshold (as simulate).")
@click.option("--ror", default=None, metavar="RISK", help="Risk of ruin the lab's bankroll is sized for (default 5%).")
@click.option("--title", default=None, metavar="TEXT", help="The report's title (default: Math report: and its bets),"
              " also in the document's metadata.")
@click.option("--operator", default=None, metavar="TEXT", help="The operator the report is for, under the title.")
@click.option("--prepared-by", "prepared_by", default=None, metavar="TEXT",
              help="Who prepared the report, under the title and as the document's author.")
@click.option("--date", "date_text", default=None, metavar="YYYY-MM-DD",
              help="The report's date, under the title (default: the day it is made).")
@click.option(
    "--output", "output", type=OutputPath(dash=True), required=True, metavar="FILE",
    help="- for the standard output, in the format of --format. "
    + _OUTPUT_HELP.format(", ".join(f".{f}" for f in REPORT_FORMATS)),
)
@click.option("--format", "document_format", type=Choice(REPORT_FORMATS), default=None,
              help="The format of the report written to the standard output (--output -; default md); with a file,"
              " its extension's.")
@click.pass_context
def report_command(
    ctx: click.Context,
    setup: Setup,
    mix_text: str | None,
    min_rtp_text: str | None,
    lab_shoes: int | None,
    seed: int | None,
    strategies: tuple[str, ...],
    tags: tuple[str, ...],
    thresholds: tuple[str, ...],
    ror: str | None,
    title: str | None,
    operator: str | None,
    prepared_by: str | None,
    date_text: str | None,
    output: Path | str,
    document_format: str | None,
) -> None:
    """Write the math report (par sheet) of bets: pay tables, exact odds, edge, volatility, hold bands, cross-checks."""
    fmt = _format_of(output, document_format)  # (the path itself is checked as the command line is read)
    cover = Cover(_one_line("--title", title), _one_line("--operator", operator),
                  _one_line("--prepared-by", prepared_by), parse_date(date_text) if date_text is not None else "")
    mix = None if mix_text is None else Mix.parse(mix_text)
    min_rtp = None if min_rtp_text is None else parse_min_rtp(min_rtp_text)
    lab = _lab_options(lab_shoes, seed, strategies, tags, thresholds, ror)
    _libraries(fmt)
    report = make_report(setup.game, setup.settings, setup.shoe, setup.bets, mix=mix, min_rtp=min_rtp,
                         command=command_line(ctx), setup=setup_line(ctx), lab=lab, cover=cover)
    for warning in setup.favourable(report.analysis):
        click.echo(f"Warning: {warning}", err=True)
    total = len(report.sheets)
    # A PDF of the whole catalog lays out 86 bets and draws their plots: a minute, told on a terminal.
    with progress_line(lambda done, _: f"report: {done:,} of {total:,} bets laid out" if done < total else
                       f"report: {total:,} bets laid out; writing the {fmt} file") as show:
        if output == STDOUT:
            data = render_report(report, fmt, show)
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            write_report(report, cast(Path, output), show)
    agreed = sum(c.agrees for c in report.published)
    click.echo(
        f"{'the standard output' if output == STDOUT else output}: {fmt} report of {len(report.sheets)}"
        f" bet{'s' if len(report.sheets) != 1 else ''} · {report.stamp}"
        f" · cross-checks: {report.check.summary}, published {agreed}/{len(report.published)} agree"
        + ("" if report.lab is None else f" · lab: {report.lab.result.shoes_done:,} shoes,"
           f" seed {report.lab.result.plan.seed}"),
        err=True,
    )


def _format_of(output: Path | str, given: str | None) -> str:
    """The report's format: ``--format``'s for the standard output (default Markdown), else the file's extension's,
    which a ``--format`` given too must agree with."""
    if output == STDOUT:
        return given or "md"
    fmt = output_format(cast(Path, output), REPORT_FORMATS)
    if given is not None and given != fmt:
        raise ExactOddsError(f"--format {given} and the extension of {shown(str(output), 40)!r} disagree: give one")
    return fmt


def _one_line(name: str, text: str | None) -> str | None:
    """A line of the cover as given: one line of printable text, at most 200 characters (it is data in every format,
    never a new line of one)."""
    if text is None:
        return None
    if not text.strip() or len(text) > 200 or not text.isprintable():
        raise ExactOddsError(f"{name} is one line of printable text, at most 200 characters")
    return text.strip()


def _lab_options(
    shoes: int | None, seed: int | None, strategies: tuple[str, ...], tags: tuple[str, ...],
    thresholds: tuple[str, ...], ror: str | None,
) -> LabOptions | None:
    """The lab's options of a report, or None without --lab-shoes (then no lab option may be given)."""
    from ..lab.advantage import parse_ror
    from ..report.lab import LabOptions

    if shoes is None:
        if seed is not None or strategies or tags or thresholds or ror is not None:
            raise ExactOddsError("--seed, --strategy, --tags, --threshold and --ror set up the lab: give --lab-shoes N")
        return None
    return LabOptions(shoes, seed, strategies, tags, thresholds, None if ror is None else parse_ror(ror))


@click.command(name="plot", help=f"Draw a plot as {' or '.join(f.upper() for f in IMAGE_FORMATS)}, the same bytes every"
               " time. KIND: " + ", ".join(f"{kind} ({what})" for kind, what in KINDS.items()) + ".")
@click.argument("kind", metavar="KIND")
@game_setup()
@bet_option("plot", default="the game's for the plot: punto banco's dragon-7, for decks banker, player and tie",
            note="only decks takes more than one")
@click.option("--seed", type=WholeNumber(), default=None, help="Seed of the simulated shoes (shoe-ev, threshold).")
@click.option("--shoes", type=WholeNumber(1), default=None, help="How many shoes to simulate (shoe-ev, threshold).")
@click.option(
    "--param", "params", multiple=True, metavar="KEY=VALUE",
    help="A dealing or count option of the lab plots: tags, thresholds, cut-card, burn (repeatable).",
)
@click.option(
    "--output", "output", type=OutputPath(), required=True, metavar="FILE",
    help=_OUTPUT_HELP.format(", ".join(f".{f}" for f in IMAGE_FORMATS)),
)
def plot_command(
    kind: str,
    setup: Setup,
    seed: int | None,
    shoes: int | None,
    params: tuple[str, ...],
    output: Path,
) -> None:
    """Draw a plot of one of the kinds of the registry (:data:`exactodds.plot.KINDS`, which the help lists)."""
    if kind not in KINDS:
        raise unknown_name("plot", kind, sorted(KINDS))
    options: dict[str, str] = {}
    for item in params:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ExactOddsError(f"--param {shown(item)!r}: write KEY=VALUE, e.g. thresholds=0:8:1")
        options[key.strip()] = value.strip()
    if kind in EXACT_KINDS and (options or seed is not None or shoes is not None):
        raise ExactOddsError(f"plot {kind} is exact, not simulated: it takes no --seed, --shoes or --param")
    fmt = output_format(output, IMAGE_FORMATS)  # matplotlib is imported by the plot once it has checked its options
    request = PlotRequest(setup.game, setup.settings, setup.shoe, setup.bets or (), seed=seed, shoes=shoes,
                          params=options)
    write_atomic(output, render_plot(kind, request, fmt))
