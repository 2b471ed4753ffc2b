"""Presentation: analyses, effects of removal and closed forms as text, Markdown, CSV or JSON.

Every number is computed exactly elsewhere; decimals are made here, from the exact values,
at the very end. This module holds what every report shares: the rules-and-shoe header
line and the JSON object of a shoe; :mod:`.formats` names the formats of every kind of
output. :mod:`.odds` renders an analysis, :mod:`.eor` the effects of removal,
:mod:`.closed_forms` the closed forms in the number of decks, :mod:`.games` the solved games,
:mod:`.information` edge sorting, :mod:`.lab` the lab's reports and :mod:`.tracker` the
tracker's steps; every table is laid out by :mod:`exactodds.layout`.
"""

from __future__ import annotations

from typing import Any

from ..analysis import Rules
from ..cards import Shoe
from ..layout import one_line
from .formats import FORMATS, SIMULATION_FORMATS, Format, LabFormat

#: Decimal places of a report unless told otherwise.
DEFAULT_PRECISION = 10


def shoe_rules_header(shoe: Shoe, rules: Rules) -> str:
    """The one-line rules-and-shoe header that starts every table and report (its one definition).

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> shoe_rules_header(Shoe.standard(8).remove("7"), PUNTO_BANCO).split(" · ")[0]
    '415 cards'
    >>> shoe_rules_header(Shoe.standard(6), PUNTO_BANCO).split(" · ")[0]
    '6 decks (312 cards)'
    """
    described = shoe.describe()
    if not described.endswith(" cards"):
        described += f" ({shoe.size:,} cards)"
    return one_line(f"{described} · {rules.header()}")  # a rules file's names are in it: one line, always


#: What makes a spreadsheet that opens a CSV file read a cell as a formula (OWASP's CSV injection advice).
_FORMULA_START = ("=", "+", "-", "@")


def csv_text(text: str) -> str:
    """A cell of text (never of a number) in a CSV file: one line, after an apostrophe if it could start a formula.

    A cell that starts with ``= + - @``, a tab or a carriage return (after spaces, too) is one a
    spreadsheet may run as a formula; the apostrophe makes it text there, and is visible elsewhere.

    >>> csv_text("=HYPERLINK(1)"), csv_text("\\t-1"), csv_text("dragon-7")
    ("'=HYPERLINK(1)", "' -1", 'dragon-7')
    """
    if text[:1] in ("\t", "\r") or text.lstrip()[:1] in _FORMULA_START:
        text = "'" + text
    return one_line(text)


def shoe_json(shoe: Shoe, *, suited: bool = True) -> dict[str, Any]:
    """The JSON object of a shoe (its one definition): its size, the count of each rank, whether it is known by suit.

    ``suited=False`` leaves the suit flag out, as the effect-of-removal documents (whose
    bytes the committed tables pin) always have.

    >>> data = shoe_json(Shoe.parse("A=2,K=5"))
    >>> data["cards"], data["counts"]["K"], data["suited"]
    (7, 5, False)
    """
    data: dict[str, Any] = {"cards": shoe.size, "counts": shoe.as_dict()}
    if suited:
        data["suited"] = shoe.suited
    return data


__all__ = [
    "DEFAULT_PRECISION",
    "FORMATS",
    "SIMULATION_FORMATS",
    "Format",
    "LabFormat",
    "csv_text",
    "shoe_json",
    "shoe_rules_header",
]
