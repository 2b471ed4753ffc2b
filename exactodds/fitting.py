"""The inverse problem of a game with a random layer: which laws of a one-parameter family give the RTPs a provider
advertises (the lit-card games' ``fit-rtp``, Peek's reveal laws).

An advertised RTP printed as 98.9% says only that the true one rounds to it: it lies in the band
[98.85%, 98.95%]. A family of laws is typed with a parameter ``p`` in its probabilities, each
affine in p (``2:1-p,3:p``: ×3 with probability p). Each bet's RTP is then a polynomial in p of
degree at most 7 (a hand's multiplier is a product of at most six lit cards' multipliers, each
law affine in p; a lit count affine in p adds one), so it is found exactly by interpolation at 8
rational points and checked at a 9th. The laws that reproduce every advertised figure are the p
where every polynomial lies in its band: the critical points are the real roots of P − low and
P − high, isolated exactly by Sturm sequences and bisection over rationals, and each piece between
them is in or out as its midpoint is (an exact evaluation). No float is used.

>>> read_affine("1-p"), read_affine("2p/5"), read_affine("40%")
((Fraction(1, 1), Fraction(-1, 1)), (Fraction(0, 1), Fraction(2, 5)), (Fraction(2, 5), Fraction(0, 1)))
>>> band("98.9%")
(Fraction(1977, 2000), Fraction(1979, 2000))
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NamedTuple

from .errors import ExactOddsError, shown
from .exact import decimal_text, fraction_text, parse_percent

#: A polynomial in p: its coefficients from the constant up.
Poly = list[Fraction]
#: An affine a + b·p.
Affine = tuple[Fraction, Fraction]
#: The widest a root's isolating interval is left (the endpoints are printed to 12 places).
TOLERANCE = Fraction(1, 10**15)
#: The highest degree of a bet's RTP in p (six lit cards' multipliers in a tie, and the lit count).
DEGREE = 7

_TERM = re.compile(r"([+-]?)\s*([0-9./%]*)\s*(\*?\s*([pq])\s*(?:/\s*([0-9.]+))?)?\s*")


def read_affine(text: str, q: Fraction | None = None) -> Affine:
    """A probability typed as an affine expression in p: ``1-p``, ``p``, ``2p/5``, ``0.1+2*p``, ``40%`` (a + b·p);
    with ``q`` given, a second parameter q may appear too, taken at that value (a grid over q).

    >>> read_affine("1-p-q", Fraction(1, 4))
    (Fraction(3, 4), Fraction(-1, 1))
    """
    raw = text.replace(" ", "")
    if not raw:
        raise ExactOddsError("an empty probability: write a number (40%, 1/3) or an expression in p (1-p, 2p/5)")
    a, b, at = Fraction(0), Fraction(0), 0
    while at < len(raw):
        match = _TERM.match(raw, at)
        if match is None or match.end() == at or not (match.group(2) or match.group(3)):
            raise ExactOddsError(f"malformed probability {shown(text)!r}: write a number (40%, 1/3) or an"
                                 " expression affine in p (1-p, 2p/5, 0.1+2*p)")
        sign = -1 if match.group(1) == "-" else 1
        try:
            number = parse_percent(match.group(2)) if match.group(2) else Fraction(1)
            divisor = parse_percent(match.group(5)) if match.group(5) else Fraction(1)
        except (ValueError, ZeroDivisionError):
            raise ExactOddsError(f"malformed probability {shown(text)!r}: write a number (40%, 1/3) or an"
                                 " expression affine in p (1-p, 2p/5, 0.1+2*p)") from None
        if divisor == 0:
            raise ExactOddsError(f"malformed probability {shown(text)!r}: division by zero")
        if match.group(4) == "q":
            if q is None:
                raise ExactOddsError(f"the probability {shown(text)!r} has a second parameter q: only fit-rtp's grid"
                                     " takes one (p and q in the laws)")
            a += sign * number / divisor * q
        elif match.group(3):
            b += sign * number / divisor
        else:
            a += sign * number
        at = match.end()
    return a, b


def band(text: str) -> tuple[Fraction, Fraction]:
    """The band an advertised RTP stands for: every value that rounds to its printed digits (``98.9%``: 98.85% to
    98.95%, both ends included: a value on the boundary may round either way)."""
    raw = text.strip()
    percent = raw.endswith("%")
    digits = raw[:-1].strip() if percent else raw
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", digits):
        raise ExactOddsError(f"an advertised RTP is a decimal as printed, such as 98.9% or 0.989, not {shown(raw)!r}")
    places = len(digits.partition(".")[2])
    value = Fraction(digits) / (100 if percent else 1)
    half = Fraction(1, 2 * 10**places) / (100 if percent else 1)
    return value - half, value + half


def read_advertised(items: Sequence[str], example: str = "player=98.9%") -> dict[str, str]:
    """Advertised RTPs typed as ``BET=RTP`` (``--rtp``, repeatable), by bet, each named once.

    >>> read_advertised(["player=98.9%", " tie = 92.8% "])
    {'player': '98.9%', 'tie': '92.8%'}
    """
    out: dict[str, str] = {}
    for item in items:
        bet, equals, figure = item.partition("=")
        if not equals or not bet.strip() or not figure.strip():
            raise ExactOddsError(f"--rtp is BET=RTP, such as {example}, not {shown(item, 40)!r}")
        if bet.strip() in out:
            raise ExactOddsError(f"--rtp names {shown(bet.strip(), 20)} twice")
        out[bet.strip()] = figure.strip()
    return out


def bound_text(x: Fraction, places: int, direction: int) -> str:
    """x to ``places`` decimals rounded down (−1) or up (1): a bound that still holds once printed.

    >>> bound_text(Fraction(2, 3), 3, -1), bound_text(Fraction(2, 3), 3, 1)
    ('0.666', '0.667')
    """
    scaled = x * 10**places
    whole = math.floor(scaled) if direction < 0 else math.ceil(scaled)
    return decimal_text(Fraction(whole, 10**places), places)


def pieces_text(pieces: Sequence[Piece], places: int) -> str:
    """Pieces of p as decimals, each end rounded outward (the range printed holds the exact one); empty for none."""
    return ", ".join(f"{bound_text(p.low[0], places, -1)} to {bound_text(p.high[1], places, 1)}" for p in pieces)


def pieces_json(pieces: Sequence[Piece]) -> list[dict[str, object]]:
    """Pieces of p as JSON: each end's exact bracket (fractions) and the ends as decimals rounded outward.

    >>> pieces_json([Piece((Fraction(1, 4), Fraction(1, 3)), (Fraction(1, 2), Fraction(1, 2)))])[0]["high_decimal"]
    '0.500000000000'
    """
    return [{"low": [fraction_text(x) for x in p.low], "high": [fraction_text(x) for x in p.high],
             "low_decimal": bound_text(p.low[0], 12, -1), "high_decimal": bound_text(p.high[1], 12, 1)}
            for p in pieces]


def evaluate(poly: Poly, x: Fraction) -> Fraction:
    """The polynomial at x (Horner).

    >>> evaluate([Fraction(1), Fraction(0), Fraction(2)], Fraction(1, 2))
    Fraction(3, 2)
    """
    total = Fraction(0)
    for c in reversed(poly):
        total = total * x + c
    return total


def interpolate(xs: Sequence[Fraction], ys: Sequence[Fraction]) -> Poly:
    """The polynomial of degree below len(xs) through the points, exactly (Lagrange, expanded).

    >>> interpolate([Fraction(0), Fraction(1), Fraction(2)], [Fraction(1), Fraction(2), Fraction(5)])
    [Fraction(1, 1), Fraction(0, 1), Fraction(1, 1)]
    """
    n = len(xs)
    out = [Fraction(0)] * n
    for i in range(n):
        basis = [Fraction(1)]
        scale = Fraction(1)
        for j in range(n):
            if j != i:
                basis = [Fraction(0)] + basis  # times x
                for k in range(len(basis) - 1):
                    basis[k] -= xs[j] * basis[k + 1]
                scale *= xs[i] - xs[j]
        for k in range(n):
            out[k] += ys[i] * basis[k] / scale
    return _trim(out)


def _trim(poly: Poly) -> Poly:
    while len(poly) > 1 and poly[-1] == 0:
        poly = poly[:-1]
    return poly


def _remainder(a: Poly, b: Poly) -> Poly:
    a = list(a)
    while len(a) >= len(b) and any(a):
        factor = a[-1] / b[-1]
        shift = len(a) - len(b)
        for k in range(len(b)):
            a[shift + k] -= factor * b[k]
        a = _trim(a[:-1]) if len(a) > 1 else [Fraction(0)]
    return _trim(a)


def _sturm(poly: Poly) -> list[Poly]:
    """The Sturm chain of ``poly``: P, P', then the negated remainders."""
    chain = [_trim(poly), _trim([k * c for k, c in enumerate(poly)][1:] or [Fraction(0)])]
    while any(chain[-1]) and len(chain[-1]) > 1:
        rest = _remainder(chain[-2], chain[-1])
        if not any(rest):
            break
        chain.append([-c for c in rest])
    return chain


def _changes(chain: list[Poly], x: Fraction) -> int:
    signs = [s for s in (evaluate(p, x) for p in chain) if s != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if (a > 0) != (b > 0))


def roots(poly: Poly, low: Fraction, high: Fraction) -> list[tuple[Fraction, Fraction]]:
    """The distinct real roots of ``poly`` in the open interval (low, high), each as an interval [a, b] of width at most
    :data:`TOLERANCE` holding it, in increasing order.

    >>> (a, b), = roots([Fraction(-2), Fraction(0), Fraction(1)], Fraction(0), Fraction(2))  # √2
    >>> Fraction(141421356237309, 10**14) < a < b < Fraction(14142135623731, 10**13), b - a <= TOLERANCE
    (True, True)
    """
    poly = _trim(poly)
    for end in (low, high):  # a root at an end is not in the open interval: divided out, so the ends are not roots
        while len(poly) > 1 and evaluate(poly, end) == 0:
            poly = _deflate(poly, end)
    if len(poly) < 2:
        return []
    chain = _sturm(poly)
    out: list[tuple[Fraction, Fraction]] = []
    # Sturm's theorem: with a and b not roots, the distinct roots in (a, b) are V(a) − V(b), V the sign changes of the
    # chain. Each piece is split at a point that is not a root (one of a few, since the roots are finitely many).
    pending = [(low, high, _changes(chain, low) - _changes(chain, high))]
    while pending:
        a, b, n = pending.pop()
        if n == 0:
            continue
        if n == 1 and b - a <= TOLERANCE:
            out.append((a, b))
            continue
        mid = next(x for x in (a + (b - a) * t for t in _SPLITS) if evaluate(poly, x) != 0)
        left = _changes(chain, a) - _changes(chain, mid)
        pending += [(a, mid, left), (mid, b, n - left)]
    return sorted(out)


#: Where a piece is split: its middle, else (the middle a root) the first of these that is not a root; more than
#: a polynomial of degree :data:`DEGREE` can have roots.
_SPLITS = (Fraction(1, 2), *(Fraction(j, m) for m in (3, 5, 7) for j in range(1, m)))


def _deflate(poly: Poly, root: Fraction) -> Poly:
    """``poly`` divided by (x − root), ``root`` one of its roots (synthetic division)."""
    out = [Fraction(0)] * (len(poly) - 1)
    carry = Fraction(0)
    for k in range(len(poly) - 1, 0, -1):
        carry = poly[k] + carry * root
        out[k - 1] = carry
    return out


class Piece(NamedTuple):
    """An interval of p where the fit holds: each end exact (``low == high`` of an end: a rational) or bracketed."""

    low: tuple[Fraction, Fraction]
    high: tuple[Fraction, Fraction]


def solve(bands: Sequence[tuple[Poly, Fraction, Fraction]], domain: tuple[Fraction, Fraction]) -> list[Piece]:
    """The values of p in ``domain`` where each polynomial lies in its band, as pieces (isolated points left out).

    >>> (piece,) = solve([([Fraction(0), Fraction(1)], Fraction(1, 4), Fraction(1, 2))], (Fraction(0), Fraction(1)))
    >>> piece.low[0] <= Fraction(1, 4) <= piece.low[1], piece.high[0] <= Fraction(1, 2) <= piece.high[1]
    (True, True)
    """
    low, high = domain
    cuts: list[tuple[Fraction, Fraction]] = [(low, low), (high, high)]
    for poly, lo, hi in bands:
        for level in (lo, hi):
            shifted = list(poly)
            shifted[0] -= level
            cuts += roots(shifted, low, high)
    cuts = sorted(set(cuts))

    def holds(x: Fraction) -> bool:
        return all(lo <= evaluate(poly, x) <= hi for poly, lo, hi in bands)

    pieces: list[Piece] = []
    for left, right in zip(cuts, cuts[1:]):
        if left[1] >= right[0]:
            continue
        mid = (left[1] + right[0]) / 2
        if holds(mid):
            if pieces and pieces[-1].high == left:
                pieces[-1] = Piece(pieces[-1].low, right)
            else:
                pieces.append(Piece(left, right))
    return pieces


def polynomial(rtp: Callable[[Fraction], Fraction], domain: tuple[Fraction, Fraction], degree: int = DEGREE) -> Poly:
    """A bet's RTP as an exact polynomial in p: interpolated at ``degree`` + 1 rationals of the domain and checked at
    another (a wrong degree bound would be caught there, not printed)."""
    low, high = domain
    xs = [low + (high - low) * Fraction(k, degree) for k in range(degree + 1)]
    poly = interpolate(xs, [rtp(x) for x in xs])
    check = low + (high - low) * Fraction(1, 2 * degree + 1)
    if evaluate(poly, check) != rtp(check):
        raise ExactOddsError("the RTP is not a polynomial of degree at most 7 in p: a bug, please report it")
    return poly


#: A law of a family: each value with its probability, affine in p.
Family = tuple[tuple[Fraction, Affine], ...]


def read_family(text: str, what: str, q: Fraction | None = None) -> Family:
    """A law whose probabilities may be affine in p (``2:1-p,3:p``), checked to add up to 1 for every p.

    >>> read_family("2:1-p,3:p", "multipliers")[1]
    (Fraction(3, 1), (Fraction(0, 1), Fraction(1, 1)))
    >>> read_family("2:1-p,3:2p", "multipliers")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the multipliers' probabilities add up to 1 + p, not 1, for some p
    """
    items = [item.strip() for item in str(text).split(",")]
    if not text or not all(items):
        raise ExactOddsError(f"the {what} are VALUE:PROBABILITY pairs joined by commas, such as 2:1-p,3:p")
    out: dict[Fraction, Affine] = {}
    for item in items:
        value_text, colon, chance_text = item.partition(":")
        try:
            value = parse_percent(value_text)
        except (ValueError, ZeroDivisionError):
            raise ExactOddsError(f"malformed value {shown(value_text.strip())!r} in the {what}") from None
        if value in out:
            raise ExactOddsError(f"the {what} list the value {value} twice")
        out[value] = read_affine(chance_text, q) if colon else (Fraction(1), Fraction(0))
    a = sum((x for x, _ in out.values()), Fraction(0))
    b = sum((y for _, y in out.values()), Fraction(0))
    if a != 1 or b != 0:
        total = f"{a}" + (f" {'+' if b > 0 else '-'} {abs(b) if abs(b) != 1 else ''}p" if b else "")
        raise ExactOddsError(f"the {what}' probabilities add up to {total}, not 1, for some p")
    return tuple(sorted(out.items()))


def domain_of(*families: Family) -> tuple[Fraction, Fraction]:
    """The values of p for which every probability of the families lies in [0, 1] (an error if none, or if p appears
    nowhere).

    >>> domain_of(read_family("2:1-2p,3:2p", "multipliers"))
    (Fraction(0, 1), Fraction(1, 2))
    """
    low, high = Fraction(-(10**9)), Fraction(10**9)
    free = False
    for family in families:
        for _, (a, b) in family:
            if b == 0:
                if not 0 <= a <= 1:
                    raise ExactOddsError(f"a probability is between 0 and 1, not {a}")
                continue
            free = True
            ends = sorted(((0 - a) / b, (1 - a) / b))
            low, high = max(low, ends[0]), min(high, ends[1])
    if not free:
        raise ExactOddsError("the family has no parameter: write p in a probability of --multipliers or --lit-count,"
                             " such as 2:1-p,3:p")
    if low >= high:
        raise ExactOddsError("no value of p makes every probability of the family lie between 0 and 1")
    return low, high


def at(family: Family, p: Fraction) -> tuple[tuple[Fraction, Fraction], ...]:
    """The family's law at p."""
    return tuple((v, a + b * p) for v, (a, b) in family)
