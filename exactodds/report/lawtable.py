"""The law of the hold after n hands as the report prints it: the words that say how it was found, and its tables."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from ..exact import decimal_text, grouped, percent_text
from .holdbounds import BERRY_ESSEEN, HoldBounds
from .holdlaw import DIGITS, EXACT_HANDS, HoldAfter

_P = 4  # decimals of a chance, as a percentage
#: A table: its header, its rows of text, and each column's alignment (l or r).
Grid = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], str]


def law_text(laws: Sequence[HoldAfter | HoldBounds], pays: int) -> str:
    """What the law's tables show and how each figure was found, for a bet of ``pays`` pays.

    >>> from exactodds.report.holdlaw import law_after
    >>> law_text([law_after(Fraction(1), Fraction(-1), Fraction(1, 2), 10)], 2)[:53]
    'The hold of n hands as its law gives it, not the norm'
    """
    opening = ("The hold of n hands as its law gives it, not the normal approximation: the chance that the casino is"
               " behind after n hands, and the hold at each percentile (the smallest hold h with P(hold ≤ h) at least"
               " the level).")
    if pays == 2:
        return (f"{opening} Up to {grouped(EXACT_HANDS)} hands the binomial law is summed in exact fractions; beyond,"
                f" in {DIGITS}-digit decimals, each probability within a relative 10^-50 of the exact one (the"
                " rounding errors bounded, the terms left out weighing under 10^-60). Each hold shown is exact.")
    if pays == 1:
        return f"{opening} This bet has one pay on this shoe: its hold is that pay's after any number of hands."
    exact = [law.hands for law in laws if isinstance(law, HoldAfter)]
    worked = (f" After {', '.join(grouped(n) for n in exact)} hands the law of this bet's {pays} pays is worked out"
              " in exact fractions (the n-hand sums on the lattice of its pays); each figure there is exact."
              if exact else f" This bet's {pays} pays make its n-hand law too large to work out exactly here.")
    bounded = (" Beyond, the normal law with a proven bound: by the Berry–Esseen theorem the distribution function of"
               f" the n-hand result is within ε = {decimal_text(BERRY_ESSEEN, 4)}·ρ/(σ³·√n) of the normal one"
               " (Shevtsova's constant; ρ = E|X − μ|³ and σ² exact), so each interval below holds the exact value, its"
               " ends rounded outward. An interval as wide as the hold's range says that the normal law is far from"
               " this bet's at that n." if any(isinstance(law, HoldBounds) for law in laws) else "")
    return opening + worked + bounded


def value_grid(laws: Sequence[HoldAfter | HoldBounds]) -> Grid | None:
    """The figures known exactly (or to a relative 10^-50): a row a number of hands; ``None`` when there are none."""
    values = [law for law in laws if isinstance(law, HoldAfter)]
    if not values:
        return None
    levels = [level for level, _ in values[0].percentiles]
    return (("hands n", "casino behind", *(f"{level}%" for level in levels), "method"),
            tuple((grouped(law.hands), chance_text(law.behind), *(percent_text(h, 2) for _, h in law.percentiles),
                   law.method) for law in values),
            "r" * (len(levels) + 2) + "l")


def bounds_grid(laws: Sequence[HoldAfter | HoldBounds]) -> Grid | None:
    """The bounded figures: a row a figure (ε, the casino behind, each percentile), a column a number of hands;
    ``None`` when there are none."""
    bounds = [law for law in laws if isinstance(law, HoldBounds)]
    if not bounds:
        return None
    rows = [("Berry–Esseen ε", *(decimal_text(b.epsilon, 6) for b in bounds)),
            ("casino behind", *(f"{chance_text(b.behind[0])} – {chance_text(b.behind[1])}" for b in bounds))]
    for i, (level, _, _) in enumerate(bounds[0].percentiles):
        ends = [b.percentiles[i][1:] for b in bounds]
        rows.append((f"{level}% hold", *(f"{percent_text(low, 2)} – {percent_text(high, 2)}" for low, high in ends)))
    return ("", *(f"n = {grouped(b.hands)}" for b in bounds)), tuple(rows), "l" + "r" * len(bounds)


def chance_text(x: Fraction | Decimal) -> str:
    """A probability for people: a percentage to 4 decimals, or under 0.0001 in scientific notation.

    >>> chance_text(Fraction(1, 3)), chance_text(Decimal("1.247712e-63")), chance_text(Fraction(0))
    ('33.3333%', '1.2477e-63', '0')
    """
    if x == 0:
        return "0"
    if isinstance(x, Fraction) and x >= Fraction(1, 10_000):
        return percent_text(x, _P)  # rounded from the exact value
    d = x if isinstance(x, Decimal) else Decimal(x.numerator) / Decimal(x.denominator)
    return percent_text(Fraction(d), _P) if d >= Decimal("0.0001") else f"{d:.4e}"
