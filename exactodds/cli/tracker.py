"""The ``track`` command: follow a live shoe card by card, with the exact EV of every chosen bet after each step.

On a terminal it is an interactive prompt (prompt_toolkit, imported only then). When the
standard input or output is not a terminal, or with ``--script FILE|-``, it reads the same
commands line by line and writes one JSON object per step: a Unix filter, for tests and pipes.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

import click

from ..errors import ExactOddsError
from ..files import bounded_lines
from ..present.tracker import header, panel, step_json
from ..request import Setup
from ..tracker import MAX_FILE, MAX_LINE, TRACK_PRECISION, Step, Tracker
from .options import bet_option, game_setup, output_options


@click.command(name="track")
@game_setup(need="by-rank")
@bet_option("follow", default="the game's default bets that need no suits (punto banco's core bets)",
            every="every bet that needs no suits but those on the dealt cards, e.g. 3-giving-8, which go by id")
@click.option(
    "--script", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="FILE|-",
    help="Read the commands from FILE (- for stdin) and write one JSON line per step. Without a terminal on"
    " stdin and stdout, the commands are read from stdin this way.",
)
@output_options(formats=(), places=TRACK_PRECISION)
def track_command(setup: Setup, script: str | None, precision: int) -> None:
    """Follow a live shoe: type the cards as they are dealt, see every bet's exact EV for the next coup."""
    stdout = _stdout()  # a closed stdin or stdout is one line at once, before the pricer is built
    if script is None and not (sys.stdin is not None and sys.stdin.isatty() and stdout.isatty()):
        script = "-"
    with contextlib.ExitStack() as stack:
        lines = None if script is None else stack.enter_context(script_lines(script))
        tracker = Tracker(setup.shoe, bets=setup.bets, game=setup.game, settings=setup.settings)
        first = tracker.first_step()  # builds the pricer, once for the session
        if lines is None:
            _interactive(tracker, first, precision)
        else:
            _run_script(tracker, first, lines, precision)


@contextlib.contextmanager
def script_lines(script: str) -> Iterator[Iterator[str]]:
    """The lines of a script file (``-``: the standard input), opened and checked at once, read with bounds as they
    come (:func:`exactodds.files.bounded_lines`): a line of at most :data:`~exactodds.tracker.MAX_LINE` bytes, a
    regular file of at most :data:`~exactodds.tracker.MAX_FILE` bytes; a pipe or a terminal may go on for ever, a line
    at a time."""
    with bounded_lines(script, MAX_LINE, MAX_FILE, "a script file", "a script holds commands, one a line") as lines:
        yield lines


def _run_script(tracker: Tracker, first: Step, lines: Iterable[str], places: int) -> None:
    """One JSON line for the starting shoe, then one per command (blank lines and # comments are skipped)."""
    start = step_json(first, places)
    start["header"] = header(tracker.state, tracker.rules)
    _emit(start)
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        step = tracker.step(line)
        _emit(step_json(step, places))
        if step.quit:
            break


def _stdout() -> TextIO:
    """The standard output; a closed one is a one-line error (the shell's ``>&-`` leaves ``sys.stdout`` None)."""
    if sys.stdout is None:
        raise ExactOddsError("cannot write the standard output: it is closed")
    return sys.stdout


def _emit(data: dict[str, Any]) -> None:
    stdout = _stdout()
    click.echo(json.dumps(data, ensure_ascii=False), file=stdout)
    stdout.flush()  # a pipe sees each step at once


def _interactive(tracker: Tracker, first: Step, places: int) -> None:
    """The prompt on a terminal: print the figures after each step; bad input is one line, never an exit."""
    from prompt_toolkit import PromptSession, print_formatted_text
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.styles import Style

    style = Style.from_dict({
        "favourable": "bold fg:ansigreen reverse",
        "banker": "fg:ansired",  # the scoreboard's colours: Banker and a derived road's red, Player and blue
        "player": "fg:ansiblue",
        "ties": "underline",
        "pending": "fg:ansiyellow",
        "error": "bold fg:ansired",
        "figures": "bold",
        "prompt": "bold",
    })

    def show(fragments: list[tuple[str, str]]) -> None:
        print_formatted_text(FormattedText(fragments), style=style, end="")

    show([("bold", header(tracker.state, tracker.rules) + "\n"),
          ("", "Type the cards as they are dealt (help: the commands; quit: leave).\n")])
    show(panel(first, places))
    session: PromptSession[str] = PromptSession()
    while True:
        try:
            line = session.prompt(FormattedText([("class:prompt", "track> ")]), style=style)
        except KeyboardInterrupt:  # Ctrl-C drops the line typed so far, as in a shell
            continue
        except EOFError:  # Ctrl-D leaves
            break
        try:
            step = tracker.step(line)
        except Exception as err:  # noqa: BLE001 - a live session is never lost to a bug: say it, keep the shoe
            show([("class:error", f"! unexpected error, nothing was changed: {type(err).__name__}: {err}\n")])
            continue
        if step.quit:
            break
        if step.error is not None:
            show([("class:error", f"! {step.error}\n")])
            continue
        if step.message == "":  # a blank line or a comment
            continue
        if step.message == tracker.help:
            show([("", tracker.help + "\n")])
            continue
        if step.message:
            show([("", step.message + "\n")])
        show(panel(step, places))
