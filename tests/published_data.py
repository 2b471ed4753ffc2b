"""Readers for the plain-text reference files in ``tests/data`` (published exact figures).

Each file is commented with ``#`` lines; a ``# Source:`` line names where the rows below it
come from, and every row carries its source so a failing test can cite it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Row:
    """One data row: its whitespace-separated fields, the source it was published in, and where it is."""

    fields: tuple[str, ...]
    source: str
    where: str


def read_rows(name: str) -> list[Row]:
    """The data rows of ``tests/data/<name>``, each tagged with the latest ``# Source:`` line above it."""
    rows: list[Row] = []
    source = ""
    path = DATA / name
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if text.startswith("# Source:"):
            source = text.removeprefix("# Source:").strip()
            continue
        if not text or text.startswith("#"):
            continue
        if not source:
            raise ValueError(f"{name}:{number}: data row before any '# Source:' line")
        rows.append(Row(tuple(text.split()), source, f"{name}:{number}"))
    if not rows:
        raise ValueError(f"{name} holds no data rows")
    return rows


@dataclass(frozen=True)
class Printed:
    """A figure as printed: its exact decimal value and half a unit of its last printed digit.

    >>> p = Printed.parse("1.0579%")
    >>> p.value, p.half_unit
    (Fraction(10579, 1000000), Fraction(1, 2000000))
    >>> Printed.parse("-0.076113").matches(Fraction(-76113, 10**6) + Fraction(1, 2 * 10**6))
    True
    >>> Printed.parse("0.93").matches(Fraction(9351, 10000))
    False
    """

    text: str
    value: Fraction
    half_unit: Fraction

    @classmethod
    def parse(cls, text: str) -> Printed:
        scale = 1
        body = text
        if body.endswith("%"):
            body, scale = body[:-1], 100
        places = len(body.partition(".")[2])
        return cls(text, Fraction(body) / scale, Fraction(1, 2 * 10**places * scale))

    def matches(self, exact: Fraction) -> bool:
        """Whether ``exact`` rounds to the printed figure: ``|exact - printed| <= half a unit``."""
        return abs(exact - self.value) <= self.half_unit
