"""The rules chemin de fer is solved under: its information model and the house's commission on the Banker's wins.

>>> SolvedRules("B3", Fraction(1, 20)).header()
'chemin-de-fer · model B3 · 5% commission'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..exact import fraction_text, short_text
from . import GAME as NAME


@dataclass(frozen=True)
class SolvedRules:
    """The rules chemin de fer is solved under: its information model and the commission on the Banker's wins."""

    model: str
    commission: Fraction

    @property
    def name(self) -> str:
        """The game's name."""
        return NAME

    def header(self) -> str:
        """The game, its model and its commission."""
        rate = f"{short_text(self.commission * 100)}% commission" if self.commission else "no commission"
        return f"{NAME} · model {self.model} · {rate}"

    def as_dict(self) -> dict[str, object]:
        """The game, model and commission as JSON values."""
        return {"name": NAME, "model": self.model, "commission": fraction_text(self.commission)}

    def policy(self) -> dict[str, str]:
        """Both sides' decisions are what is solved: none fixed."""
        return {}
