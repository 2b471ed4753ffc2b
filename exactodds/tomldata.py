"""TOML files read as data, for bets files and rules files alike: the parse and its bounds, the line of an error.

Files are parsed with :mod:`tomllib` and only ever read as data. A float is kept as the file
writes it (:class:`TomlFloat`), never a binary float; a pay (:func:`parse_pay`) and a text
field (:func:`text_field`) are read by one rule wherever they appear. ``tomllib`` gives no
line numbers for values, so :class:`TomlLines` finds the line of a table header or a key by
searching the file's text.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from .errors import ExactOddsError, shown
from .exact import MAX_NUMBER, parse_fraction
from .files import read_regular, shown_path
from .layout import control_character, fold_whitespace
from .parsed import PARSED

#: How deep arrays and tables may nest in a file (a real file nests three or four deep).
MAX_DEPTH = 32

# A table header line, ``[a.b]`` or ``[[a.b]]``, and the parts of its dotted key (bare or quoted).
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*\]")
_PART = re.compile(r"""(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))""")


class TomlLines:
    """Turns a position in a TOML file (a table header, then a key below it) into a line number."""

    def __init__(self, text: str, name: str) -> None:
        self.lines = text.splitlines()
        self.name = name
        # Every table header's lines, by (dotted path, array or not), in one pass over the file.
        self._headers: dict[tuple[str, bool], list[int]] = {}
        for number, line in enumerate(self.lines, 1):
            found = _HEADER.match(line)
            if found:
                parts = [a or b or c for a, b, c in _PART.findall(found[2])]
                self._headers.setdefault((".".join(parts), found[1] == "[["), []).append(number)

    def header(self, path: str, occurrence: int = 0, array: bool = False) -> int | None:
        """The line of the ``occurrence``-th ``[path]`` (``[[path]]`` for an array) header."""
        found = self._headers.get((path, array), [])
        return found[occurrence] if occurrence < len(found) else None

    def key(self, key: str, after: int | None) -> int | None:
        """The first line at or after ``after`` that sets ``key`` (before the next table header)."""
        pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\")\s*=")
        start = after or 1
        for number in range(start, len(self.lines) + 1):
            line = self.lines[number - 1]
            if number > start and line.lstrip().startswith("["):
                break
            if pattern.match(line):
                return number
        return after

    def error(self, line: int | None, what: str, message: str) -> ExactOddsError:
        """The error for ``what`` at ``line``: ``file:line: what: message``."""
        place = f"{shown_path(self.name)}:{line}" if line else shown_path(self.name)
        return ExactOddsError(f"{place}: {what}: {message}")


def load_toml(text: str, name: str) -> dict[str, Any]:
    """Parse TOML text (floats kept as written, see :class:`TomlFloat`); any failure is one clear error.

    The text of a packaged file that every start-up reads is not parsed: its data was made ahead, from that very
    text (:mod:`exactodds.parsed`), and tomllib is not even imported.
    """
    for made_from, data_json in PARSED.values():
        if text == made_from:
            made: dict[str, Any] = json.loads(data_json)
            return made
    import tomllib

    try:
        data = tomllib.loads(text, parse_float=TomlFloat)
    except tomllib.TOMLDecodeError as err:
        raise ExactOddsError(f"{shown_path(name)}: not valid TOML: {err}") from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise ExactOddsError(f"{shown_path(name)}: not valid here: arrays or tables nest more than {MAX_DEPTH}"
                             " deep") from None
    except ValueError:  # tomllib lets int() refuse an integer of more than 4300 digits
        raise ExactOddsError(f"{shown_path(name)}: not valid TOML: a number has too many digits") from None
    if _depth(data) > MAX_DEPTH:
        raise ExactOddsError(f"{shown_path(name)}: not valid here: arrays or tables nest more than {MAX_DEPTH} deep")
    return data


def _depth(value: object) -> int:
    """How deep arrays and tables nest in parsed TOML (without recursion: the data may be deep)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class TomlFloat:
    """A TOML float as the file writes it (``0.95``, ``1e400``, ``inf``): read as a decimal, never a binary float.

    tomllib hands every float's text to this class, so ``pays = 0.95000000000000000001``
    is that number, not the nearest double, and ``1e-400`` is not silently 0.

    >>> import tomllib
    >>> tomllib.loads("x = 0.1", parse_float=TomlFloat)["x"]
    0.1
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def finite(self) -> bool:
        """Whether the float is a number, not ``inf`` or ``nan``."""
        return self.text.lstrip("+-") not in ("inf", "nan")

    def decimal(self) -> str:
        """The number as a decimal without TOML's digit separators (``1_000.5`` is ``1000.5``)."""
        return self.text.replace("_", "")


def _ascii_number(text: str) -> str:
    """``text`` if it is written in ASCII without digit separators, else ``ValueError``.

    Python's number parsers also take other scripts' digits (``٨``) and underscores (``1_0``);
    a pay or commission in a file is written in ASCII digits only.
    """
    if not text.isascii() or "_" in text:
        raise ValueError(f"not a number in ASCII digits: {shown(text)!r}")
    return text


def parse_pay(value: object, lowest: int = -1) -> Fraction:
    """A pay "to 1" as a bets file writes it: a number (``40``, ``0.54``), a string (``"27/50"``), "push" or "lose";
    at least ``lowest`` (a bet that may be raised, as Lucky Draw's by its Draw bet, can lose more than its stake).

    >>> parse_pay(0.54), parse_pay("1/2"), parse_pay("lose")
    (Fraction(27, 50), Fraction(1, 2), Fraction(-1, 1))
    """
    if isinstance(value, bool):
        raise ExactOddsError(f"a pay must be a number, not {str(value).lower()}")
    if isinstance(value, int):
        pay = Fraction(value)
    elif isinstance(value, TomlFloat):
        if not value.finite():
            raise ExactOddsError(f"a pay must be a finite number, not {shown(value.text)}")
        try:
            pay = parse_fraction(value.decimal())
        except (ValueError, ZeroDivisionError):  # TOML checked the syntax: only the size can be wrong
            raise ExactOddsError(f"a pay must be a number of at most 100 digits, not {shown(value.text)}") from None
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ExactOddsError(f"a pay must be a finite number, not {value!r}")
        pay = Fraction(repr(value))  # the shortest decimal that is this float (0.54 is 27/50)
    elif isinstance(value, str):
        word = value.strip().lower()
        if word in ("push", "lose"):
            return Fraction(0 if word == "push" else -1)
        try:
            pay = parse_fraction(_ascii_number(value))
        except (ValueError, ZeroDivisionError):
            raise ExactOddsError(f'a pay must be a number (e.g. 40, 0.5, "1/2", "push"), not'
                                 f' {shown(value)!r}') from None
    else:
        raise ExactOddsError(f"a pay must be a number, not {shown(repr(value))}")
    if abs(pay.numerator) > MAX_NUMBER or pay.denominator > MAX_NUMBER:
        raise ExactOddsError("a pay must be a number of at most 100 digits")
    if pay < lowest:
        most = "the stake (-1)" if lowest == -1 else f"{-lowest} stakes ({lowest})"
        raise ExactOddsError(f"a pay cannot lose more than {most}, not {pay}")
    return pay


def text_field(value: str, field: str) -> str:
    """A text field of a bets or rules file as read: every run of whitespace one space; a control character refused.

    Text from a file is data in every export: a newline would start a row or a heading there,
    and a control character (NUL, BEL, ESC…) has no place in a report, a spreadsheet or a terminal.

    >>> text_field("Pays 8:1\\n  on a tie", "description")
    'Pays 8:1 on a tie'
    >>> text_field("ring\\x07", "event")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the event holds a control character (U+0007): write plain text
    """
    bad = control_character(value)
    if bad is not None:
        raise ExactOddsError(f"the {field} holds a control character (U+{ord(bad):04X}): write plain text")
    return fold_whitespace(value)


#: The largest bets or rules file read, in bytes: far beyond any real pay table.
MAX_FILE_BYTES = 1 << 20


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes (:func:`~exactodds.files.read_regular`); anything
    else is one clear error."""
    try:
        data = read_regular(path, limit, "a bets or rules file")
    except OSError as err:
        raise ExactOddsError(f"cannot read {shown_path(path)}: {err.strerror or err}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ExactOddsError(f"cannot read {shown_path(path)}: not UTF-8 text (byte {err.start + 1})") from None
