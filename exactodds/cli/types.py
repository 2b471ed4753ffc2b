"""The types of the command line's parameters: words, whole numbers, ranges of decks and output paths, each checked
as the command line is read, before any work."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from ..cards import parse_deck_range
from ..errors import ExactOddsError, unknown_name
from ..files import check_output


class Choice(click.Choice):  # type: ignore[type-arg]
    """click's choice of one of a few words, matched exactly; a near miss is told the closest (``--model b2``).

    >>> from click.testing import CliRunner
    >>> @click.command()
    ... @click.option("--model", type=Choice(["A1", "B2"]))
    ... def show(model): pass
    >>> print(CliRunner().invoke(show, ["--model", "b2"]).output.splitlines()[-1])
    Error: Invalid value for '--model': unknown choice 'b2': did you mean B2? Valid choices are A1, B2
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value not in self.choices:
            self.fail(str(unknown_name("choice", value, [str(c) for c in self.choices])), param, ctx)
        return super().convert(value, param, ctx)


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


#: What an output given as ``-`` is: the standard output (as ``-`` is the standard input of ``batch --input`` and
#: ``track --script``); a file named ``-`` is ``./-``.
STDOUT = "-"


class OutputPath(click.Path):
    """An output file (or, with ``folder``, a folder of files), checked as the command line is read: before any work.

    The checks are :func:`exactodds.files.check_output`'s, on the name as typed (``t.md/`` keeps its slash). With
    ``dash``, ``-`` is the standard output (:data:`STDOUT`, a text, where a file is a :class:`~pathlib.Path`).

    >>> OutputPath(dash=True).convert("-", None, None)
    '-'
    """

    def __init__(self, folder: bool = False, dash: bool = False) -> None:
        super().__init__(file_okay=not folder, dir_okay=folder, path_type=Path, allow_dash=dash)
        self.folder, self.dash = folder, dash

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if self.dash and value == STDOUT:
            return STDOUT
        return value if isinstance(value, Path) else check_output(value, folder=self.folder)


class DeckRange(WholeNumber):
    """A number of decks, or a range ``LOW:HIGH`` of them (read as a pair).

    >>> DeckRange().convert("1:8", None, None), DeckRange().convert("6", None, None)
    ((1, 8), 6)
    """

    name = "decks"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        if ":" not in str(value):
            return super().convert(value, param, ctx)
        try:
            return parse_deck_range(str(value))
        except ExactOddsError as err:
            self.fail(str(err), param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str | None:
        return "N|LOW:HIGH"
