"""The command that reviews a table's log: ``review``, wager by wager, with the exact edge of every bet."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..present.formats import REVIEW_DOCUMENT_FORMATS, REVIEW_FORMATS, write_format
from ..request import Setup
from ..review.options import MOST_WORKERS, PARALLEL_BYTES, PERMUTATIONS, SEED, SKIP_BAD, WORKERS
from .options import game_setup, option, output_options
from .progress import progress_line
from .types import OutputPath

if TYPE_CHECKING:
    from ..review.verdict import Verdict


@click.command(name="review")
@click.argument("log", type=click.Path(dir_okay=False, allow_dash=True), metavar="LOG|-")
@game_setup(shoe=False, need="review")
@option(SKIP_BAD)
@option(SEED)
@option(PERMUTATIONS)
@option(WORKERS)
@click.option("--output", "output", type=OutputPath(), default=None, metavar="FILE",
              help="Write the verdict to FILE as a document (a plot per flagged bettor in the PDF and HTML),"
              " atomically, instead of printing it (a --format given as well is printed too); its extension gives the"
              f" format: {', '.join(f'.{f}' for f in REVIEW_DOCUMENT_FORMATS)}.")
@output_options(REVIEW_FORMATS, places=None)
def review_command(setup: Setup, log: str, skip_bad: bool, seed: int, permutations: int, workers: int | None,
                   output: Path | None, fmt: str) -> None:
    """Review a table's log (JSON lines or CSV; - for stdin): every coup checked against the tableau and the cards left,
    every wager priced exactly on the cards seen before its coup and settled by the cards dealt, and per bettor and
    bet the luck, the edge and whether the stakes follow the EV (--format table: the verdict; json: the verdict with
    every finding; csv: every wager, priced and settled; --output: the verdict as a document)."""
    from ..files import bounded_lines
    from ..review.log import MAX_LINE
    from ..review.parallel import review_lines
    from ..review.render import csv_header, verdict_json, verdict_text, wager_rows
    from ..review.tally import ShoeTally

    file_bets = setup.file_bets
    document, digest = _document_format(output), hashlib.sha256()
    # With --output the standard output holds only what a --format given asks for.
    printed = output is None or click.get_current_context().get_parameter_source("fmt") not in (
        None, click.core.ParameterSource.DEFAULT)
    rebate = setup.settings.given().get("rebate") is not None
    if fmt == "csv" and printed:
        click.echo(csv_header(rebate), nl=False)
    with bounded_lines(log, MAX_LINE, None, "a log", "a log holds one record a line") as lines, \
            progress_line(lambda done, _: f"reviewing: {done:,} shoes") as progress:
        shoes = 0

        def shoe_done(shoe: ShoeTally) -> None:
            nonlocal shoes
            shoes += 1
            if fmt == "csv" and printed:
                click.echo(wager_rows(shoe, rebate=rebate), nl=False)
            if progress is not None and shoes % 10 == 0:
                progress(shoes, 0)

        read = lines if document is None else _hashed(lines, digest.update)
        verdict = review_lines(read, setup.settings, file_bets, jobs=_workers(workers, log), skip_bad=skip_bad,
                               seed=seed, permutations=permutations, shoe_done=shoe_done,
                               keep_wagers=fmt == "csv" and printed)
    # The CSV's rows were written as each shoe closed; the verdict is written once the log is read.
    writers = {"table": lambda: verdict_text(verdict), "json": lambda: verdict_json(verdict), "csv": lambda: ""}
    if printed:
        click.echo(write_format("review", fmt, writers), nl=False)
    if output is not None and document is not None:
        _write_document(verdict, output, document, log, digest.hexdigest())


def _workers(given: int | None, log: str) -> int:
    """The processes that review the log: as given, else every core (up to :data:`MOST_WORKERS`) for a log file of
    more than :data:`~exactodds.review.options.PARALLEL_BYTES`, else one."""
    if given is not None:
        return given
    import os

    try:
        big = log != "-" and os.stat(log).st_size > PARALLEL_BYTES
    except OSError:
        big = False  # the log's reading says why
    return min(os.cpu_count() or 1, MOST_WORKERS) if big else 1


def _document_format(output: Path | None) -> str | None:
    """The format of ``--output`` (``None`` without), told by its extension, with its libraries imported: checked before
    the log is read."""
    if output is None:
        return None
    from ..report import output_format
    from ..report.review import require_libraries

    document = output_format(output, REVIEW_DOCUMENT_FORMATS)
    require_libraries(document)
    return document


def _hashed(lines: Iterable[str], update: Callable[[bytes], None]) -> Iterator[str]:
    """The lines of the log as they are read, each handed to ``update`` (a sha256's: that of the log's bytes, which
    the document gives; the lines are its bytes decoded as UTF-8, line ends kept)."""
    for line in lines:
        update(line.encode("utf-8"))
        yield line


def _write_document(verdict: Verdict, output: Path, document: str, log: str, digest: str) -> None:
    """Write the verdict to ``output`` as a document, atomically, and say so on the standard error."""
    from ..files import shown_path, write_atomic
    from ..report.review import ReviewFrame, render_review

    frame = ReviewFrame("the standard input" if log == "-" else shown_path(log), digest)
    write_atomic(output, render_review(verdict, frame, document))
    flagged = sum(b["flagged"] for b in verdict.bettors())
    click.echo(f"{output}: {document} review of {verdict.shoes:,} shoes · {verdict.coups:,} coups ·"
               f" {verdict.wagers:,} wagers · {len(verdict.findings):,} findings · {flagged:,} flagged · {frame.stamp}",
               err=True)
