"""The casino's hold after n hands of one bet, by its law rather than the normal approximation.

A bet with two pays, a win paying ``a`` and a loss of ``b`` (Dragon 7, Panda 8, the pairs, the Tie: b = −1, or less
a rebate), is won W times in n independent hands with W ~ Binomial(n, p); the casino's result is then
−(a·W + b·(n − W)) units, and its hold (the result per unit staked) that over n, a value known exactly for each W.
The law of W is summed term by term, t(w + 1) = t(w) · (n − w) / (w + 1) · p / (1 − p):

- up to :data:`EXACT_HANDS` hands in exact fractions: every probability exact;
- beyond, in decimals of :data:`DIGITS` significant digits: every rounding errs by at most half a unit in the last
  digit, a relative u = 5·10^-60. The probabilities p and 1 − p and their ratio are rounded once each, which the
  n-th power and the w-th power of the ratio amplify at most n-fold each; each step of the recurrence rounds three
  times; each of the n additions of a sum once. Every probability and every sum is so within a relative
  (6n + 10)·u of the exact one: under 10^-50 for the 100,000 hands shown. A percentile is the exact hold of its
  atom unless the exact distribution function is that close to its level.

A bet with more pays (the Banker's push, a pay table of several wins, a multiplier) has a law of many atoms after n
hands (some n²/2 for three pays); the report gives it the normal approximation only, and says so.
"""

from __future__ import annotations

import decimal
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, isqrt

#: Hands up to which the law is summed in exact fractions (its numbers then have some 5,000 digits each).
EXACT_HANDS = 100
#: Significant digits of the sums beyond.
DIGITS = 60
#: The hands the report shows.
HANDS = (100, 1_000, 10_000, 100_000)
#: The percentiles of the hold the report shows.
LEVELS = (1, 5, 25, 50, 75, 95, 99)


@dataclass(frozen=True)
class HoldAfter:
    """The hold after ``hands`` hands of a two-pay bet: the chance that the casino is behind, and the hold at each
    percentile (exact values of the hold; the probabilities behind them exact, or within ``bound``)."""

    hands: int
    behind: Fraction | decimal.Decimal
    percentiles: tuple[tuple[int, Fraction], ...]
    exact: bool

    @property
    def method(self) -> str:
        """How the law was summed, in words."""
        if self.exact:
            return "exact"
        return f"{DIGITS}-digit sums, within a relative 10^-50"


def two_pays(law: dict[Fraction, Fraction]) -> tuple[Fraction, Fraction, Fraction] | None:
    """The win's pay, the loss's and the win's probability of a bet whose law of pays is one win and one loss, else
    ``None``.

    >>> two_pays({Fraction(40): Fraction(1, 44), Fraction(-1): Fraction(43, 44)})
    (Fraction(40, 1), Fraction(-1, 1), Fraction(1, 44))
    >>> two_pays({Fraction(1): Fraction(1, 2), Fraction(0): Fraction(1, 4), Fraction(-1): Fraction(1, 4)}) is None
    True
    """
    pays = sorted((pay, p) for pay, p in law.items() if p)
    if len(pays) != 2 or not pays[0][0] < 0 < pays[1][0]:
        return None
    return pays[1][0], pays[0][0], pays[1][1]


@lru_cache(maxsize=256)  # a pure function of its (hashable) arguments: a report in several formats asks again
def law_after(win: Fraction, loss: Fraction, p: Fraction, hands: int, levels: tuple[int, ...] = LEVELS) -> HoldAfter:
    """The law of the hold after ``hands`` hands of a bet paying ``win`` with probability ``p``, else ``loss``.

    >>> law = law_after(Fraction(1), Fraction(-1), Fraction(1, 2), 2, (50,))  # two coin flips: hold 1, 0, −1
    >>> law.behind, law.percentiles
    (Fraction(1, 4), ((50, Fraction(0, 1)),))
    """
    if not 0 < p < 1 or hands < 1 or not loss < 0 < win:
        raise ValueError("a two-pay bet's law needs a win, a loss, 0 < p < 1 and at least one hand")
    # The casino is behind when win·W + loss·(hands − W) > 0: from W = first on.
    first = int(-loss * hands // (win - loss)) + 1
    if hands <= EXACT_HANDS:
        tails, total = _exact_tails(p, hands)
        behind: Fraction | decimal.Decimal = Fraction(tails[first], total) if first <= hands else Fraction(0)
        return HoldAfter(hands, behind, _percentiles(win, loss, hands, tails, 0, levels, total), True)
    with decimal.localcontext() as context:
        context.prec = DIGITS
        lo, hi = _window(p, hands)
        terms = _decimal_terms(p, hands, lo, hi)
        tails_d: list[decimal.Decimal] = []
        running = decimal.Decimal(0)
        for term in reversed(terms):
            running += term
            tails_d.append(running)
        tails_d.reverse()
        return HoldAfter(hands, _behind(p, hands, first), _percentiles(win, loss, hands, tails_d, lo, levels), False)


def _percentiles(win: Fraction, loss: Fraction, hands: int, tails: Sequence[int | decimal.Decimal], lo: int,
                 levels: tuple[int, ...], total: int = 1) -> tuple[tuple[int, Fraction], ...]:
    """The hold at each percentile: the smallest hold h with P(hold ≤ h) ≥ level, that is (the hold falling as W
    rises) the hold of the largest W whose tail P(W ≥ w) reaches the level (``tails[i]`` is that of W = lo + i,
    over ``total``)."""
    out = []
    for level in levels:
        w = lo + max(i for i, tail in enumerate(tails) if 100 * tail >= level * total)
        out.append((level, -(win * w + loss * (hands - w)) / hands))
    return tuple(out)


def _exact_tails(p: Fraction, hands: int) -> tuple[list[int], int]:
    """P(W ≥ w) for w = 0 … hands + 1, exactly, as integers over d^n: the terms are C(n, w)·a^w·b^(n−w) (p = a/d)."""
    a, d = p.numerator, p.denominator
    b = d - a
    below = [1]
    for _ in range(hands):
        below.append(below[-1] * b)
    numerators, choose, power = [], 1, 1
    for w in range(hands + 1):
        numerators.append(choose * power * below[hands - w])
        choose = choose * (hands - w) // (w + 1)
        power *= a
    tails = [0] * (hands + 2)
    running = 0
    for w in range(hands, -1, -1):
        running += numerators[w]
        tails[w] = running
    return tails, d ** hands


#: Hoeffding: P(|W − np| ≥ t) ≤ 2·exp(−2t²/n) ≤ 2·exp(−140) < 10^-60 with t² = 70n: the terms outside the window
#: weigh less than that all together.
_WINDOW_T2 = 70


def _window(p: Fraction, hands: int) -> tuple[int, int]:
    """The W kept in a decimal sum: np ± t, all but 10^-60 of the law."""
    t = isqrt(_WINDOW_T2 * hands) + 1
    mean = int(p * hands)
    return max(0, mean - t), min(hands, mean + t + 1)


def _decimal_terms(p: Fraction, hands: int, lo: int, hi: int) -> list[decimal.Decimal]:
    """P(W = w) for w = lo … hi in the context's decimals: the first from C(n, lo)·p^lo·(1 − p)^(n − lo), the others
    by the recurrence."""
    pd = decimal.Decimal(p.numerator) / decimal.Decimal(p.denominator)
    qd = decimal.Decimal(p.denominator - p.numerator) / decimal.Decimal(p.denominator)
    ratio = pd / qd
    term = decimal.Decimal(comb(hands, lo)) * pd ** lo * qd ** (hands - lo)
    out = []
    for w in range(lo, hi + 1):
        out.append(term)
        term = term * (hands - w) / (w + 1) * ratio
    return out


def _behind(p: Fraction, hands: int, first: int) -> decimal.Decimal:
    """P(W ≥ first) in the context's decimals, to a relative 10^-50 however small: summed from W = first up while the
    terms fall (once each is at most half the one before, the rest is at most the last term), else by the window."""
    if first > hands:
        return decimal.Decimal(0)
    lo, hi = _window(p, hands)
    mode = int(p * (hands + 1))
    if first <= mode:  # a large probability: the window's sum, all but 10^-60 of it
        return sum(_decimal_terms(p, hands, max(first, lo), hi), decimal.Decimal(0))
    terms = _decimal_terms(p, hands, first, first)
    term, total, w = terms[0], decimal.Decimal(0), first
    ratio = decimal.Decimal(p.numerator) / decimal.Decimal(p.denominator - p.numerator)
    while True:
        total += term
        step = ratio * (hands - w) / (w + 1)
        if w >= hands or (step <= decimal.Decimal("0.5") and term <= total * decimal.Decimal("1e-62")):
            return total
        term, w = term * step, w + 1
