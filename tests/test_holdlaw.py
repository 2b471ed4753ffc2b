"""The law of the hold after n hands (report/holdlaw.py): the decimal sums within their stated bound of exact sums
made here, and the tiny tails (the casino behind after many hands of a long shot) to the same relative bound."""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from math import comb

import pytest

from exactodds.report import holdlaw
from exactodds.report.holdlaw import law_after


def exact_law(win: Fraction, loss: Fraction, p: Fraction, n: int, levels) -> tuple[Fraction, list[Fraction]]:
    terms = [comb(n, w) * p**w * (1 - p) ** (n - w) for w in range(n + 1)]
    behind = sum((t for w, t in enumerate(terms) if win * w + loss * (n - w) > 0), Fraction(0))
    holds, tail = {}, Fraction(0)
    for w in range(n, -1, -1):
        tail += terms[w]
        for level in levels:
            if level not in holds and tail >= Fraction(level, 100):
                holds[level] = -(win * w + loss * (n - w)) / n
    return behind, [holds[level] for level in levels]


@pytest.mark.parametrize(("win", "loss", "p", "n"), [
    (Fraction(40), Fraction(-1), Fraction(2253, 100000), 400),  # a long shot
    (Fraction(8), Fraction(-99, 100), Fraction(95, 1000), 250),  # a tie with a 1% rebate on a loss
    (Fraction(1), Fraction(-1), Fraction(1, 2), 101),  # a coin: the casino behind half the time less a tie
])
def test_the_decimal_sums_are_within_their_bound_of_the_exact_law(win, loss, p, n) -> None:
    law = law_after(win, loss, p, n)
    assert not law.exact and law.method.endswith("10^-50")
    behind, holds = exact_law(win, loss, p, n, holdlaw.LEVELS)
    with localcontext() as context:
        context.prec = 70
        exact = Decimal(behind.numerator) / behind.denominator
        assert abs(Decimal(law.behind) / exact - 1) < Decimal("1e-50")
    assert [h for _, h in law.percentiles] == holds


def test_up_to_the_exact_hands_every_figure_is_an_exact_fraction() -> None:
    law = law_after(Fraction(11), Fraction(-1), Fraction(3, 40), holdlaw.EXACT_HANDS)
    behind, holds = exact_law(Fraction(11), Fraction(-1), Fraction(3, 40), holdlaw.EXACT_HANDS, holdlaw.LEVELS)
    assert law.exact and law.behind == behind and [h for _, h in law.percentiles] == holds


def test_a_tail_far_below_the_window_keeps_its_relative_bound() -> None:
    """The Tie after 8,000 hands: the casino is behind with a chance near 10^-6, summed from its first term up (it is
    past the mode), to a relative 10^-50."""
    win, loss, p, n = Fraction(8), Fraction(-1), Fraction(95, 1000), 8_000
    law = law_after(win, loss, p, n)
    first = next(w for w in range(n + 1) if win * w + loss * (n - w) > 0)
    a, d = p.numerator, p.denominator
    # Integers over d^n; past first + 800 the terms fall below 10^-100 of the sum.
    numerator = sum(comb(n, w) * a**w * (d - a) ** (n - w) for w in range(first, first + 800))
    with localcontext() as context:
        context.prec = 70
        assert abs(Decimal(law.behind) / (Decimal(numerator) / Decimal(d) ** n) - 1) < Decimal("1e-50")
