"""The hold after n hands of a bet of any number of pays: exact on a lattice while it is small, else bounded.

A bet's pays, written over their common denominator D, step from the least pay ``base`` by multiples of a unit ``u``
(the gcd of their differences): a hand's pay is (base + u·k)/D with k one of a few whole steps. The player's total
after n hands is then (n·base + u·K)/D, K the sum of n steps, whose law is the n-th power of the one-hand polynomial
Σ c_k·z^k (c_k the numerators of the pays' probabilities over their common denominator Q). Multiplied out hand by
hand in integers, over Q^n, that law is exact (:func:`lattice_law_after`); it costs some (pays)·(steps)·n²/2
multiplications of large integers, so it is worked out up to :data:`~.holdlaw.EXACT_HANDS` hands within
:data:`LATTICE_BUDGET`.

Beyond, the normal approximation with a proven bound (:func:`bounded_law_after`): by the Berry–Esseen theorem, the
distribution function of the standardized sum is within ε = C·ρ/(σ³·√n) of the normal one Φ at every point, with
ρ = E|X − μ|³ and σ² the variance (both exact), and C ≤ 0.4748 for identically distributed summands (Shevtsova 2011,
arXiv:1111.6554). Each figure is then an interval that holds the exact value: the casino's chance to be behind,
1 − Φ(z₀) ± ε, and each percentile of the hold between the holds where Φ reaches level ∓ ε, cut to the hold's range.
Φ is summed in :data:`DIGITS`-digit decimals (its error under 10^-40) and each end is rounded outward.
"""

from __future__ import annotations

import decimal
import math
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, comb, floor, gcd, isqrt, lcm
from operator import add

from .holdlaw import EXACT_HANDS, LEVELS, HoldAfter
from .tailbounds import DIGITS, SLACK, chernoff, phi, quantile, tail_point, to_decimal

#: The largest (pays)·(steps)·n²/2 worked out exactly on the lattice (about a second).
LATTICE_BUDGET = 3_000_000
#: Where the normal law's level ± ε passes this far into a tail, Chernoff's bound is tried as well.
_TAIL = Fraction(95, 100)
#: The multiplications of one term of the sum over the pays' counts, against one of a hand's product, about.
_PER_COUNT = 12
#: Shevtsova's bound on the Berry–Esseen constant for identically distributed summands (2011).
BERRY_ESSEEN = Fraction(4748, 10_000)
#: The chance of being behind is rounded outward to 10^-6 (a percent to 4 places); a hold to 10^-4 (to 2 places).
CHANCE_STEP, HOLD_STEP = 10**6, 10**4


@dataclass(frozen=True)
class Lattice:
    """A law of pays as whole steps: pay = (base + unit·step)/denominator, with each step's weight over ``total``."""

    base: int
    unit: int
    denominator: int
    steps: tuple[int, ...]
    weights: tuple[int, ...]
    total: int

    @classmethod
    def of(cls, law: dict[Fraction, Fraction]) -> Lattice:
        """The lattice of a law of pays (pay → probability).

        >>> Lattice.of({Fraction(19, 20): Fraction(1, 2), Fraction(0): Fraction(1, 10), Fraction(-1): Fraction(2, 5)})
        Lattice(base=-20, unit=1, denominator=20, steps=(0, 20, 39), weights=(4, 1, 5), total=10)
        """
        atoms = sorted((pay, p) for pay, p in law.items() if p)
        denominator = lcm(*(pay.denominator for pay, _ in atoms))
        pays = [int(pay * denominator) for pay, _ in atoms]
        unit = gcd(*(pay - pays[0] for pay in pays)) or 1
        total = lcm(*(p.denominator for _, p in atoms))
        return cls(pays[0], unit, denominator, tuple((pay - pays[0]) // unit for pay in pays),
                   tuple(int(p * total) for _, p in atoms), total)

    def cost(self, hands: int) -> int:
        """The multiplications of the exact law after ``hands`` hands, about: the cheaper of its two ways."""
        return min(len(self.steps) * self.steps[-1] * hands * hands // 2, _PER_COUNT * self.counts(hands))

    def counts(self, hands: int) -> int:
        """How many ways ``hands`` hands split among the pays: C(n + k − 1, k − 1)."""
        return comb(hands + len(self.steps) - 1, len(self.steps) - 1)

    def by_counts(self, hands: int) -> bool:
        """Whether the law is cheaper summed over the pays' counts than multiplied out hand by hand."""
        return _PER_COUNT * self.counts(hands) < len(self.steps) * self.steps[-1] * hands * hands // 2

    def pay(self, hands: int, k: int) -> Fraction:
        """The player's total after ``hands`` hands whose steps sum to ``k``."""
        return Fraction(hands * self.base + self.unit * k, self.denominator)


def lattice_law_after(law: dict[Fraction, Fraction], hands: int, levels: tuple[int, ...] = LEVELS) -> HoldAfter:
    """The exact law of the hold after ``hands`` hands of a bet of any pays: the casino behind, and the percentiles.

    >>> coin = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> law = lattice_law_after(coin, 2, (50,))  # two coin flips: hold 1, 0, −1
    >>> law.behind, law.percentiles, law.exact
    (Fraction(1, 4), ((50, Fraction(0, 1)),), True)
    """
    lattice = Lattice.of(law)
    if len(lattice.steps) == 1:  # one pay: the hold is that pay's, whatever the hands
        coefficients = [lattice.weights[0] ** hands]
    else:
        coefficients = _by_counts(lattice, hands) if lattice.by_counts(hands) else _by_hands(lattice, hands)
    tails, running = [0] * (len(coefficients) + 1), 0
    for k in range(len(coefficients) - 1, -1, -1):
        running += coefficients[k]
        tails[k] = running
    total = lattice.total ** hands
    # The casino is behind when the player's total is above 0: from K = first on.
    first = min(max(-hands * lattice.base // lattice.unit + 1, 0), len(coefficients))
    percentiles = []
    for level in levels:  # the smallest hold h with P(hold ≤ h) ≥ level: the largest K whose tail reaches it
        k = max(i for i, tail in enumerate(tails) if 100 * tail >= level * total)
        percentiles.append((level, -lattice.pay(hands, k) / hands))
    return HoldAfter(hands, Fraction(tails[first], total), tuple(percentiles), True)


@dataclass(frozen=True)
class HoldBounds:
    """The hold after ``hands`` hands bounded by the normal law and Berry–Esseen's ε: each (low, high) holds the exact
    value (the chance that the casino is behind; the hold at each percentile)."""

    hands: int
    epsilon: Fraction
    behind: tuple[Fraction, Fraction]
    percentiles: tuple[tuple[int, Fraction, Fraction], ...]

    @property
    def method(self) -> str:
        """How the figures were found, in words."""
        return "normal law ± Berry–Esseen ε"


def bounded_law_after(law: dict[Fraction, Fraction], hands: int, levels: tuple[int, ...] = LEVELS) -> HoldBounds:
    """Bounds on the law of the hold after ``hands`` hands of any bet, from the normal law within Berry–Esseen's ε.

    >>> coin = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> law = bounded_law_after(coin, 10_000, (50,))
    >>> float(law.epsilon), [float(x) for x in law.behind], [(lv, float(a), float(b)) for lv, a, b in law.percentiles]
    (0.004748, [0.495251, 0.504749], [(50, -0.0002, 0.0002)])
    """
    mean = sum((pay * p for pay, p in law.items()), Fraction(0))
    variance = sum(((pay - mean) ** 2 * p for pay, p in law.items()), Fraction(0))
    rho = sum((abs(pay - mean) ** 3 * p for pay, p in law.items()), Fraction(0))
    if variance == 0:
        raise ValueError("a bet's law needs at least two pays")
    epsilon = _sqrt_up(BERRY_ESSEEN ** 2 * rho ** 2 / (variance ** 3 * hands), 10**6)
    lowest, highest = -max(law), -min(law)  # the hold's range: every pay the top one, every pay the least
    with decimal.localcontext() as context:
        context.prec = DIGITS
        scale = to_decimal(variance / hands).sqrt()  # the hold's SD: hold = −μ − scale·Z, Z the standardized sum
        middle = 1 - phi(to_decimal(-mean) / scale)  # the casino is behind when Z > −μ/scale
        behind = (max(Fraction(0), _round(middle - to_decimal(epsilon) - SLACK, CHANCE_STEP, floor)),
                  min(Fraction(1), _round(middle + to_decimal(epsilon) + SLACK, CHANCE_STEP, ceil),
                      chernoff(law, hands, Fraction(0), upper=True)))

        def hold_at(q: Fraction, outward: int) -> Fraction:
            """The hold where Φ(z) = q, pushed ``outward`` (−1 down, +1 up) by the slack and a rounding step."""
            z, error = quantile(q)
            z -= outward * (error + SLACK)  # hold falls as z rises: a lower z, a higher hold
            return _round(to_decimal(-mean) - scale * z + outward * SLACK, HOLD_STEP, ceil if outward > 0 else floor)

        percentiles = []
        for level in levels:
            target = Fraction(level, 100)
            high_q, low_q = 1 - target - epsilon, 1 - target + epsilon
            high = highest if high_q <= 0 else min(highest, hold_at(high_q, 1))
            low = lowest if low_q >= 1 else max(lowest, hold_at(low_q, -1))
            sides = (low_q > _TAIL, high_q < 1 - _TAIL)
            if any(sides):  # far in a tail, where ε is large against the level, Chernoff's bound says more
                tail_low, tail_high = _tail_holds(law, hands, target, sides)
                low, high = max(low, tail_low), min(high, tail_high)
            percentiles.append((level, low, high))
    # The hold at a level is at least that at a lower level, and at most that at a higher one.
    for i in range(1, len(percentiles)):
        level, low, high = percentiles[i]
        percentiles[i] = (level, max(low, percentiles[i - 1][1]), high)
    for i in range(len(percentiles) - 2, -1, -1):
        level, low, high = percentiles[i]
        percentiles[i] = (level, low, min(high, percentiles[i + 1][2]))
    return HoldBounds(hands, epsilon, behind, tuple(percentiles))


def law_after(law: dict[Fraction, Fraction], hands: int) -> HoldAfter | HoldBounds:
    """The hold after ``hands`` hands of a bet of any pays: exact where the lattice is within its budget, else bounded.

    >>> three = {Fraction(19, 20): Fraction(4, 9), Fraction(0): Fraction(1, 9), Fraction(-1): Fraction(4, 9)}
    >>> type(law_after(three, 100)).__name__, type(law_after(three, 1_000)).__name__
    ('HoldAfter', 'HoldBounds')
    """
    lattice = Lattice.of(law)
    if len(lattice.steps) == 1 or (hands <= EXACT_HANDS and lattice.cost(hands) <= LATTICE_BUDGET):
        return lattice_law_after(law, hands)
    return bounded_law_after(law, hands)


def _by_hands(lattice: Lattice, hands: int) -> list[int]:
    """The law of K after ``hands`` hands, over Q^n: the one-hand polynomial multiplied in hand by hand."""
    coefficients = [1]
    for _ in range(hands):  # one hand more: each step shifts the law, weighted
        nxt = [0] * (len(coefficients) + lattice.steps[-1])
        size = len(coefficients)
        for step, weight in zip(lattice.steps, lattice.weights):
            nxt[step:step + size] = map(add, nxt[step:step + size], map(weight.__mul__, coefficients))
        coefficients = nxt
    return coefficients


def _by_counts(lattice: Lattice, hands: int) -> list[int]:
    """The same law summed over the counts (n₁, …, n_k) of each pay: the multinomial n!/(n₁!…n_k!)·Πc_i^(n_i) each,
    at K = Σ n_i·step_i (few terms when the bet has few pays)."""
    coefficients = [0] * (hands * lattice.steps[-1] + 1)
    last = len(lattice.steps) - 1
    powers = [1]
    for _ in range(hands):
        powers.append(powers[-1] * lattice.weights[last])

    def split(i: int, left: int, k: int, term: int) -> None:
        """Share the ``left`` hands among the pays from the i-th on."""
        step, weight = lattice.steps[i], lattice.weights[i]
        if i == last:
            coefficients[k + left * step] += term * powers[left]
            return
        for count in range(left + 1):  # C(left, count) ways to place this pay's hands among those left
            split(i + 1, left - count, k + count * step, term * comb(left, count) * weight ** count)

    split(0, hands, 0, 1)
    return coefficients


def _sqrt_up(x: Fraction, step: int) -> Fraction:
    """An upper bound on √x, a multiple of 1/step."""
    scaled = x * step * step
    root = isqrt(floor(scaled))
    while root * root < scaled:
        root += 1
    return Fraction(root, step)


def _tail_holds(law: dict[Fraction, Fraction], hands: int, target: Fraction,
                sides: tuple[bool, bool]) -> tuple[Fraction, Fraction]:
    """Bounds on the hold at level ``target`` from Chernoff's bounds on the tails (the hold's range where they say
    nothing), on the ``sides`` (low, high) asked for.

    Below: a hold h < −μ with P(hold ≤ h) = P(S_n ≥ −n·h) ≤ bound < target is short of the level, and so is every
    lower hold. Above: a hold h > −μ with P(hold > h) ≤ P(S_n ≤ −n·h) ≤ bound ≤ 1 − target reaches it. Each is found
    with floats (:func:`~.tailbounds.tail_point`), put on the grid of :data:`HOLD_STEP` outward, and then proven in
    decimals at the θ found (a bound at any θ of the right sign holds).
    """
    lowest, highest = -max(law), -min(law)
    low, high, step = lowest, highest, Fraction(1, HOLD_STEP)
    if sides[0]:
        t, theta = tail_point(law, hands, math.log(target), upper=True)
        low = Fraction(floor(-t * HOLD_STEP), HOLD_STEP)
        for _ in range(3):  # proven: every hold ≤ low is short of the level
            if low <= lowest or chernoff(law, hands, -low, upper=True, theta=theta) < target:
                break
            low -= step
        else:
            low = lowest
    if sides[1]:
        t, theta = tail_point(law, hands, math.log(1 - target), upper=False)
        high = Fraction(ceil(-t * HOLD_STEP), HOLD_STEP)
        for _ in range(3):  # proven: the level's hold is ≤ high
            if high >= highest or chernoff(law, hands, -high, upper=False, theta=theta) <= 1 - target:
                break
            high += step
        else:
            high = highest
    return max(low, lowest), min(high, highest)


def _round(x: decimal.Decimal, step: int, rounding: object) -> Fraction:
    """``x`` rounded to a multiple of 1/step by ``floor`` or ``ceil``."""
    scaled = Fraction(x) * step
    return Fraction(floor(scaled) if rounding is floor else ceil(scaled), step)
