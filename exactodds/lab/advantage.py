"""The lab's advantage-play figures: win rate, SD, N0, desirability index and bankroll, estimated from a run.

Everything here is a *statistic* estimated from the shoes dealt (the run's exact integer
totals go in; square roots and logarithms come out as floats), except the non-counting
house edge, which is exact (priced by :func:`exactodds.puntobanco.odds.analyze` on the full shoe).

Definitions (per coup *dealt*, bet or not: a counter watches every coup and bets some):

- win rate: the mean per shoe of the exact EVs of the bets placed (the less noisy of the
  lab's two unbiased estimates), per shoe and per 100 coups;
- SD: of the units actually won per shoe; per 100 coups it is SD per shoe × √(100 / coups
  per shoe), shoes being independent;
- N0 = (SD / EV)², the number of periods after which the expected win equals one SD
  (the bj21 glossary's and Schlesinger's "long run index"); ``n0_coups`` counts coups dealt;
- DI = 1000 × EV / SD per coup (Schlesinger, *Blackjack Attack*, 3rd ed., p. 186:
  "one thousand times the ratio of that game's per-hand win rate to the per-hand standard
  deviation"), so DI = 1000 / √N0 and DI² is Schlesinger's SCORE;
- bankroll for a risk of ruin r with a fixed unit: B = −ln(r) · Var / (2 · EV), from the
  ruin formula r ≈ exp(−2 · B · EV / Var) (Schlesinger, *Blackjack Attack*, ch. 4; Griffin,
  *The Theory of Blackjack*), with EV and Var per the same period (any period gives the
  same B).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from ..cards import Shoe
from ..errors import ExactOddsError, shown
from ..exact import decimal_text, fraction_text, parse_percent
from ..puntobanco.events import Bet
from ..puntobanco.odds import analyze
from ..puntobanco.rules import RuleSet

#: The risk of ruin the bankroll is sized for by default (5%).
DEFAULT_ROR = Fraction(1, 20)
#: Coups per "100 coups" figure.
HUNDRED = 100


class FiguresLike(Protocol):
    """What the advantage-play figures read of a cell of a run (see :class:`exactodds.lab.results.Figures`)."""

    @property
    def shoes(self) -> int: ...
    @property
    def coups(self) -> int: ...
    @property
    def bets(self) -> int: ...
    @property
    def ev(self) -> Fraction: ...
    @property
    def ev_variance(self) -> Fraction: ...
    @property
    def units_variance(self) -> Fraction: ...


def parse_ror(text: str | Fraction) -> Fraction:
    """Read a risk of ruin: ``5%``, ``0.05`` or ``1/20`` (exactly), strictly between 0 and 1.

    >>> parse_ror("5%"), parse_ror("1/100")
    (Fraction(1, 20), Fraction(1, 100))
    """
    if isinstance(text, Fraction):
        value = text
    else:
        try:
            value = parse_percent(text)
        except (ValueError, ZeroDivisionError):
            raise ExactOddsError(f"malformed risk of ruin {shown(text)!r}: write e.g. 5%, 0.05 or 1/20") from None
    if not 0 < value < 1:
        raise ExactOddsError(f"the risk of ruin must be above 0% and below 100%, not {shown(text)!r}")
    return value


def house_edges(shoe: Shoe, rules: RuleSet, bets: Sequence[Bet]) -> dict[str, Fraction]:
    """Each bet's exact house edge (−EV per unit, per coup) on the full shoe, betting every coup without a count.

    >>> from exactodds.puntobanco.odds import resolve_bets
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> edge = house_edges(Shoe.standard(8), PUNTO_BANCO, resolve_bets(PUNTO_BANCO, ["tie"]))["tie"]
    >>> f"{float(edge):.4%}"
    '14.3596%'
    """
    return {f.bet.id: -f.ev for f in analyze(shoe, rules, list(bets)).bets}


@dataclass(frozen=True)
class PlayFigures:
    """One strategy on one bet as an advantage player sees it: estimates from a run, not exact figures.

    >>> f = PlayFigures(shoes=100, coups=8000, bets=500, ev_per_shoe=Fraction(1, 2),
    ...                 ev_variance=Fraction(1, 100), variance_per_shoe=Fraction(25), ror=Fraction(1, 20))
    >>> f.bets_per_100, f.n0_shoes, f.n0_coups, round(f.di, 3), round(f.bankroll, 2)
    (Fraction(25, 4), Fraction(100, 1), Fraction(8000, 1), 11.18, 74.89)
    """

    shoes: int
    coups: int
    bets: int
    #: Mean per shoe of the exact EVs of the bets placed (units of 1 bet).
    ev_per_shoe: Fraction
    #: The variance of the per-shoe EV sums (for the standard error of the win rate).
    ev_variance: Fraction
    #: The variance of the units won per shoe.
    variance_per_shoe: Fraction
    ror: Fraction = DEFAULT_ROR
    #: The bet's exact house edge without a count (None for all bets combined).
    house_edge: Fraction | None = None

    @classmethod
    def of(cls, figures: FiguresLike, ror: Fraction = DEFAULT_ROR, house_edge: Fraction | None = None) -> PlayFigures:
        """The advantage-play figures of a run's cell."""
        return cls(figures.shoes, figures.coups, figures.bets, figures.ev, figures.ev_variance,
                   figures.units_variance, ror, house_edge)  # fmt: skip

    @property
    def coups_per_shoe(self) -> Fraction:
        """Coups dealt per shoe."""
        return Fraction(self.coups, self.shoes)

    @property
    def bets_per_shoe(self) -> Fraction:
        """Bets placed per shoe."""
        return Fraction(self.bets, self.shoes)

    @property
    def bets_per_100(self) -> Fraction:
        """Bets placed per 100 coups dealt."""
        return Fraction(self.bets * HUNDRED, self.coups)

    @property
    def average_edge(self) -> Fraction | None:
        """The mean exact EV of the bets placed; None without bets."""
        return None if not self.bets else self.ev_per_shoe * self.shoes / self.bets

    @property
    def ev_per_100(self) -> Fraction:
        """The win rate per 100 coups dealt (units)."""
        return self.ev_per_shoe * HUNDRED / self.coups_per_shoe

    @property
    def ev_per_100_se(self) -> float:
        """The standard error of :attr:`ev_per_100`."""
        return math.sqrt(self.ev_variance / self.shoes) * HUNDRED / float(self.coups_per_shoe)

    @property
    def sd_per_shoe(self) -> float:
        """The SD of the units won per shoe."""
        return math.sqrt(self.variance_per_shoe)

    @property
    def sd_per_100(self) -> float:
        """The SD of the units won per 100 coups dealt (shoes independent: variance ∝ coups)."""
        return math.sqrt(self.variance_per_shoe * HUNDRED / self.coups_per_shoe)

    @property
    def n0_shoes(self) -> Fraction | None:
        """N0 = (SD/EV)² in shoes; None unless the win rate and the SD are positive."""
        if self.ev_per_shoe <= 0 or self.variance_per_shoe <= 0:
            return None
        return self.variance_per_shoe / self.ev_per_shoe**2

    @property
    def n0_coups(self) -> Fraction | None:
        """N0 in coups dealt: N0 in shoes × coups per shoe."""
        n0 = self.n0_shoes
        return None if n0 is None else n0 * self.coups_per_shoe

    @property
    def di(self) -> float | None:
        """The desirability index 1000 × EV / SD per coup dealt (negative for a losing play); None without an SD."""
        if self.variance_per_shoe <= 0:
            return None
        return 1000 * float(self.ev_per_shoe) / math.sqrt(self.variance_per_shoe * self.coups_per_shoe)

    @property
    def bankroll(self) -> float | None:
        """Units of bankroll for the risk of ruin :attr:`ror`, 1 unit a bet; None when ruin is certain (EV <= 0)."""
        if self.ev_per_shoe <= 0:
            return None
        return -math.log(self.ror) * float(self.variance_per_shoe / (2 * self.ev_per_shoe))

    def as_json(self, places: int = 6) -> dict[str, Any]:
        """The figures as JSON-ready values: decimal strings (estimates) and the exact house edge as a fraction."""

        def text(x: float | Fraction | None, digits: int = places) -> str | None:
            if x is None:
                return None
            return decimal_text(x, digits) if isinstance(x, Fraction) else f"{x:.{digits}f}"

        edge = self.average_edge
        return {
            "bets_per_100_coups": text(self.bets_per_100),
            "bets_per_shoe": text(self.bets_per_shoe),
            "average_edge": text(edge),
            "ev_per_shoe": text(self.ev_per_shoe),
            "ev_per_100_coups": text(self.ev_per_100),
            "ev_per_100_coups_se": text(self.ev_per_100_se),
            "sd_per_shoe": text(self.sd_per_shoe),
            "sd_per_100_coups": text(self.sd_per_100),
            "n0_shoes": text(self.n0_shoes, 2),
            "n0_coups": text(self.n0_coups, 0),
            "desirability_index": text(self.di, 3),
            "bankroll_units": text(self.bankroll, 2),
            "house_edge_no_count": None if self.house_edge is None else fraction_text(self.house_edge),
            "house_edge_no_count_percent": text(None if self.house_edge is None else self.house_edge * 100),
        }
