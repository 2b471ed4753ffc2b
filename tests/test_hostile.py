"""Hostile input to every option of every command: one ``Error:`` line, exit code 2, at once.

Each option that takes a value is given strings that no option accepts (other scripts'
digits, superscripts, underscores in numbers, exponents that would take hours to expand,
control characters, a googol of digits), with the other options left valid and small. The
answer must be exactly one line on stderr starting ``Error: ``, nothing on stdout, exit
code 2, within a second, and never a traceback. The options are read from the commands
themselves, so an option added later is fuzzed without touching this file.
"""

from __future__ import annotations

import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from profiles import is_slow

from exactodds.cli import cli

#: Values no option takes. Digits of other scripts and superscripts pass ``str.isdigit``;
#: ``int()`` takes the former and ``Fraction`` takes both, with exponents of any size.
HOSTILE = (
    "٨",
    "²",
    "¹²",
    "1e٩٩٩٩٩٩٩٩",
    "1_0",
    "1e99999999",
    "9" * 5000,
    "-٣",
    "\x00",
    "nan",
    "A=٣",
    "7\x00",
    "0,0,0,-1,-1,-1,-1,٢,2,0",
    "0,0,0,-1,-1,-1,-1,1_0,2,0",
)

#: Options whose value is a path: given a place that cannot exist or be written instead.
PATHS = ("/proc/exactodds-nowhere/x.json",)

#: Values no error may copy whole (issue 29): a huge text, a huge number, a lone surrogate as a caller's string holds
#: one and as the command line's bytes decode to one (0xff), each given to every option that takes a value.
HUGE = ("A" * 200_000, "9" * 100_000, "\ud800", "\udcff")
#: The same for a path: a name far longer than any file's, and the surrogates.
HUGE_PATHS = (str(Path(tempfile.gettempdir()) / ("A" * 200_000)), "\ud800", "\udcff")
#: The longest an error line may be: the value is cut to a line's worth, so the words after it (the hint) stay.
LONGEST_LINE = 300

#: Where the commands that write a file would write it, were a hostile value ever taken.
OUT = Path(tempfile.gettempdir())

#: The smallest valid invocation of each command, to which one hostile option is added.
BASE = {
    "odds": ["odds", "--bet", "tie"],
    "fit-rtp": ["fit-rtp", "--game", "prosperity-tree", "--decks", "1", "--multipliers", "2:1-p,3:p", "--rtp",
                "player=98.9%"],
    "bets": ["bets"],
    "facts": ["facts"],
    "rules": ["rules"],
    "games": ["games"],
    "batch": ["batch", "--input", "-"],
    "tables": ["tables", "--check"],
    "eor": ["eor", "--bet", "tie"],
    "simulate": ["simulate", "--shoes", "2", "--seed", "1", "--quiet", "--workers", "1"],
    "tags": ["tags", "--bet", "tie"],
    "solve": ["solve", "--model", "B2", "--decks", "1"],
    "big-table": ["big-table", "--decks", "1"],
    "edge-sort": ["edge-sort", "--decks", "1", "--cards", "1"],
    "peek": ["peek", "--decks", "1", "--reveal", "P1B1:1"],
    "design": ["design", "--decks", "1", "--bet", "dragon-7", "--edge", "5%:9%", "--max-pay", "50"],
    "track": ["track", "--decks", "1", "--script", "-"],
    "review": ["review", "-"],
    "serve": ["serve", "--port", "0"],
    "report": ["report", "--decks", "1", "--bet", "tie", "--output", str(OUT / "exactodds-hostile.md")],
    "plot": ["plot", "eor", "--decks", "1", "--bet", "tie", "--output", str(OUT / "exactodds-hostile.svg")],
}

#: Options that legitimately accept any text (a name looked up later, or a file path, or a report's words of its own:
#: its title and who it is for and by, each one printable line, which tests/test_report.py refuses otherwise).
NOT_FUZZED = {("simulate", "scheduler"), ("report", "title"), ("report", "operator"), ("report", "prepared_by")}


def cases() -> Iterator[tuple[str, str, str]]:
    for name, command in sorted(cli.all_commands().items()):
        for param in command.params:
            if not isinstance(param, click.Option) or param.is_flag or param.name in ("help",):
                continue
            if (name, param.name) in NOT_FUZZED:
                continue
            is_path = isinstance(param.type, click.Path | click.File)
            for value in PATHS if is_path else HOSTILE:
                yield name, param.opts[0], value


CASES = list(cases())


def test_every_command_is_covered():
    assert set(BASE) == set(cli.all_commands()), "add the new command's smallest invocation to BASE"
    assert len({(c, o) for c, o, _ in CASES}) >= 40


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


#: The cases by option: one test per option of a command, trying each of its hostile values in turn
#: (a test item each would cost more in the runner's bookkeeping than the invocations themselves).
OPTIONS: dict[tuple[str, str], list[str]] = {}
for _command, _option, _value in CASES:
    OPTIONS.setdefault((_command, _option), []).append(_value)


def quick_values(command: str, option: str) -> list[str]:
    """The values tried on an option: every one under the slow profile; in the quick run one in three, the options
    taking them in turn (so that each value still meets some eighty options)."""
    values = OPTIONS[command, option]
    return values if is_slow() else values[list(OPTIONS).index((command, option)) % 3 :: 3] or values  # a path


@pytest.mark.parametrize(("command", "option"), OPTIONS, ids=[f"{c} {o}" for c, o in OPTIONS])
def test_hostile_value_is_one_error_line(command, option):
    for value in quick_values(command, option):
        _one_error_line_at_once([*BASE[command], option, value])


def quick_huge(command: str, option: str) -> tuple[str, ...]:
    """The huge values tried on an option: every one under the slow profile; in the quick run one, the options
    taking each in turn (so that each huge value still meets some seventy options, and each option a huge value)."""
    values = HUGE_PATHS if OPTIONS[command, option] == list(PATHS) else HUGE
    if is_slow():
        return values
    turn = list(OPTIONS).index((command, option)) % len(values)
    return values[turn : turn + 1]


@pytest.mark.parametrize(("command", "option"), OPTIONS, ids=[f"{c} {o}" for c, o in OPTIONS])
def test_a_huge_value_is_one_short_error_line(command, option):
    """A 200,000-character value, a number of 100,000 digits or a lone surrogate: one line of at most a few hundred
    characters, the value cut (every option of every command, read from the commands themselves)."""
    for value in quick_huge(command, option):
        line = _one_error_line_at_once([*BASE[command], option, value])
        assert len(line) < LONGEST_LINE, (command, option, value[:10], len(line), line[:LONGEST_LINE])
        assert "AAAAAAAAAA" * 10 not in line and "9999999999" * 10 not in line, (command, option, line)


def _one_error_line_at_once(args: list[str]) -> str:
    """One hostile invocation: one ``Error:`` line on stderr, nothing on stdout, exit code 2, within a second."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(10)  # a hang fails the test instead of stalling the suite
    start = time.perf_counter()
    try:
        result = CliRunner().invoke(cli, args, input="")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - start
    assert not isinstance(result.exception, Hang), f"{args} hung"
    assert result.exit_code == 2, (args, result.exit_code, result.stdout, result.stderr, result.exception)
    assert result.stdout == "", args
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), (args, result.stderr)
    assert "Traceback" not in result.stderr, args
    assert seconds < 1.0, f"{args} took {seconds:.2f} s"
    return lines[0]
