"""Proven bounds for a sum of n independent pays: the normal law Φ in decimals, and Chernoff's bound on its tails.

The normal distribution function Φ is summed in decimals by erf's series of positive terms, so that no sum cancels;
its quantile is searched with a float and settled by Newton's steps in decimals (a float only searches).

Chernoff's bound: for any θ ≥ 0, P(S_n ≥ n·t) ≤ (E e^(θ(X − t)))^n, and for any θ ≤ 0, P(S_n ≤ n·t) ≤ the same; it holds
at every θ, so θ is searched with floats and the bound is then worked out at that θ in decimals, rounded up. Far in
a tail, where the Berry–Esseen ε of the normal law is larger than the chance itself, this is the sharper bound.
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction
from statistics import NormalDist

#: Digits of the decimal sums.
DIGITS = 50
#: A relative slack on a decimal result, far above the rounding of its few dozen operations.
SLACK = decimal.Decimal("1e-30")
_PI = decimal.Decimal("3.14159265358979323846264338327950288419716939937510582097494459")


def to_decimal(x: Fraction) -> decimal.Decimal:
    """A fraction in the context's decimals.

    >>> to_decimal(Fraction(1, 4))
    Decimal('0.25')
    """
    return decimal.Decimal(x.numerator) / decimal.Decimal(x.denominator)


def phi(z: decimal.Decimal) -> decimal.Decimal:
    """The standard normal distribution function Φ(z) in the context's decimals (erf(x) = 2/√π·e^(−x²)·
    Σ 2^k·x^(2k+1)/(1·3·…·(2k+1)), all terms positive).

    >>> with decimal.localcontext() as c:
    ...     c.prec = DIGITS
    ...     str(phi(decimal.Decimal("1.96")))[:12]
    '0.9750021048'
    """
    if abs(z) > 40:  # Φ(−40) < 10^-349
        return decimal.Decimal(0) if z < 0 else decimal.Decimal(1)
    x = abs(z) / decimal.Decimal(2).sqrt()
    term = total = x
    k = 0
    limit = decimal.Decimal(10) ** -(decimal.getcontext().prec + 5)
    while term > total * limit:
        k += 1
        term = term * 2 * x * x / (2 * k + 1)
        total += term
    erf = 2 / _PI.sqrt() * (-x * x).exp() * total
    return (1 + erf) / 2 if z >= 0 else (1 - erf) / 2


def quantile(q: Fraction) -> tuple[decimal.Decimal, decimal.Decimal]:
    """The z with Φ(z) = q (0 < q < 1) in the context's decimals, and a bound on its error: Φ(z) is within 10^-46 of
    q (and Φ within 10^-48 of its sum), so z is within 2·(|Φ(z) − q| + 10^-48)/φ(z) of the root (the mean value
    theorem, φ nearly constant so close to z).

    >>> with decimal.localcontext() as c:
    ...     c.prec = DIGITS
    ...     z, error = quantile(Fraction(975, 1000))
    ...     str(z)[:10], error < decimal.Decimal("1e-30")
    ('1.95996398', True)
    """
    target = to_decimal(q)
    z = decimal.Decimal(repr(NormalDist().inv_cdf(min(max(float(q), 1e-300), 1 - 1e-16))))  # a float start
    root_two_pi = (2 * _PI).sqrt()
    for _ in range(80):
        miss = phi(z) - target
        density = (-z * z / 2).exp() / root_two_pi
        if abs(miss) < decimal.Decimal("1e-46"):
            return z, 2 * (abs(miss) + decimal.Decimal("1e-48")) / density
        z -= max(min(miss / density, decimal.Decimal(1)), decimal.Decimal(-1))  # at most 1 a step in the tails
    raise ArithmeticError(f"Φ's quantile at {float(q)} did not converge")


def chernoff(law: dict[Fraction, Fraction], hands: int, t: Fraction, upper: bool,
             theta: float | None = None) -> Fraction:
    """An upper bound on P(S_n ≥ n·t) (``upper``) or P(S_n ≤ n·t), S_n the sum of ``hands`` pays drawn from ``law``, at
    ``theta`` (else the best θ, searched); 1 when the bound says nothing (t on the mean's side).

    >>> coin = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> float(chernoff(coin, 100, Fraction(1, 2), True)) < 0.0000025  # P(at least 75 heads in 100) ≈ 2.8e-7
    True
    """
    if theta is None:
        theta = _theta(law, t, upper)
    if theta == 0 or (theta > 0) != upper:
        return Fraction(1)
    with decimal.localcontext() as context:
        context.prec = DIGITS
        context.rounding = decimal.ROUND_CEILING
        th = decimal.Decimal(repr(theta))  # an exact number: the bound holds at any θ of the right sign
        base = sum((to_decimal(p) * (th * (to_decimal(x) - to_decimal(t))).exp() for x, p in law.items() if p),
                   decimal.Decimal(0))
        bound = base ** hands * (1 + SLACK)
    return min(Fraction(1), _up(bound))


def tail_point(law: dict[Fraction, Fraction], hands: int, log_level: float, upper: bool) -> tuple[float, float]:
    """The t where Chernoff's bound on P(S_n ≥ n·t) (``upper``; else on P(S_n ≤ n·t)) falls to e^log_level, and the θ
    that gives it, searched in floats (to be proven by :func:`chernoff` at that θ).

    At θ the bound is least for t(θ) = E[X·e^(θX)]/E[e^(θX)], the mean of the law tilted by θ, and is there
    e^(−n·(θ·t(θ) − log E e^(θX))): the exponent grows with |θ|, so θ is found by bisection.

    >>> coin = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> t, theta = tail_point(coin, 100, math.log(2.8e-7), True)
    >>> round(t, 2), theta > 0
    (0.54, True)
    """
    pays = [(float(x), float(p)) for x, p in law.items() if p]
    sign = 1.0 if upper else -1.0
    spread = max(abs(x) for x, _ in pays) or 1.0
    lo, hi = 0.0, 600.0 / spread  # e^600 is within a float's range
    for _ in range(60):
        theta = (lo + hi) / 2
        log_m, tilted = _tilted(pays, sign * theta)
        if hands * (sign * theta * tilted - log_m) < -log_level:
            lo = theta
        else:
            hi = theta
    return _tilted(pays, sign * lo)[1], sign * lo


def _tilted(pays: list[tuple[float, float]], theta: float) -> tuple[float, float]:
    """log E e^(θX) and the mean of the law tilted by θ, in floats (a search only)."""
    exponents = [theta * x for x, _ in pays]
    top = max(exponents)
    weights = [p * math.exp(e - top) for (_, p), e in zip(pays, exponents)]
    total = sum(weights)
    return top + math.log(total), sum(w * x for w, (x, _) in zip(weights, pays)) / total


def _theta(law: dict[Fraction, Fraction], t: Fraction, upper: bool) -> float:
    """The θ of the sign asked for that makes log E e^(θ(X − t)) least (a convex function), searched in floats."""
    pays = [(float(x), float(p)) for x, p in law.items() if p]
    tf = float(t)
    sign = 1.0 if upper else -1.0
    spread = max(abs(x - tf) for x, _ in pays) or 1.0
    lo, hi = 0.0, 600.0 / spread  # e^600 is within a float's range
    for _ in range(90):  # a ternary search on the convex function: the interval shrinks 10^-16-fold
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if _log_mgf(pays, sign * a, tf) <= _log_mgf(pays, sign * b, tf):
            hi = b
        else:
            lo = a
    theta = sign * (lo + hi) / 2
    return theta if _log_mgf(pays, theta, tf) < 0 else 0.0


def _log_mgf(pays: list[tuple[float, float]], theta: float, t: float) -> float:
    """log E e^(θ(X − t)) in floats (a search only)."""
    return _tilted(pays, theta)[0] - theta * t


def _up(x: decimal.Decimal) -> Fraction:
    """A decimal bound as a fraction rounded up to three significant digits."""
    if x <= 0:
        return Fraction(0)
    exponent = x.adjusted() - 2
    scaled = Fraction(x) / Fraction(10) ** exponent
    return math.ceil(scaled) * Fraction(10) ** exponent
