"""Exact rationals turned into text at the very end, by integer arithmetic only."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from math import gcd, isqrt

from .errors import ExactOddsError, shown

MAX_NUMBER = 10**100  # the largest numerator or denominator a parameter may have
#: The only number syntax accepted: ASCII digits, an optional sign, a decimal point, an exponent
#: of at most three digits, or ``n/d``. ``Fraction`` itself would also take other scripts' digits
#: (``"٨"``), underscores (``"1_0"``) and exponents of any size (``"1e٩٩٩٩٩٩٩٩"``, hours to expand). A pattern's text,
#: compiled on first use (by :mod:`re`'s cache), not at every start-up.
_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?|[+-]?[0-9]+/[0-9]+"
_MAX_DIGITS = 250  # digits in the text; anything beyond 10^100 is refused after reading anyway


def fraction_text(value: Fraction | int) -> str:
    """Write an exact rational as ``n/d`` in lowest terms, or ``n`` when d = 1.

    >>> fraction_text(Fraction(-19, 20)), fraction_text(Fraction(8))
    ('-19/20', '8')
    """
    value = Fraction(value)
    return ratio_text(value.numerator, value.denominator)


def ratio_text(numerator: int, denominator: int) -> str:
    """Write ``numerator / denominator`` (denominator > 0) as :func:`fraction_text` does, reduced by one integer gcd.

    This is the text of every exact rational here, computed without building a ``Fraction``.

    >>> ratio_text(-38, 40), ratio_text(16, 2), ratio_text(0, 7)
    ('-19/20', '8', '0')
    """
    g = gcd(numerator, denominator)
    if g != 1:
        numerator //= g
        denominator //= g
    if denominator == 1:
        return str(numerator)
    return f"{numerator}/{denominator}"


def parse_fraction(text: str) -> Fraction:
    """Read ``n/d``, an integer or a plain decimal exactly (never through a float).

    Only ASCII digits are read; an exponent has at most three digits, and a number whose
    numerator or denominator is beyond 10^100 is refused with ``ValueError``, like any other
    malformed number, before any big arithmetic is done.

    >>> parse_fraction("0.95"), parse_fraction("19/20"), parse_fraction("8"), parse_fraction("25e-2")
    (Fraction(19, 20), Fraction(19, 20), Fraction(8, 1), Fraction(1, 4))
    >>> parse_fraction("٨")
    Traceback (most recent call last):
    ...
    ValueError: malformed number '٨': use ASCII digits, e.g. 0.95 or 19/20
    """
    raw = text.strip()
    if len(raw) > _MAX_DIGITS or not re.fullmatch(_NUMBER, raw, re.ASCII):
        raise ValueError(f"malformed number {shown(raw)!r}: use ASCII digits, e.g. 0.95 or 19/20")
    mantissa, _, exponent = raw.lower().partition("e")
    if exponent and abs(int(exponent)) > 2 * _MAX_DIGITS:
        raise ValueError(f"the number {shown(raw)!r} is too large or too small")
    numerator, slash, denominator = raw.partition("/")
    if slash and int(denominator) == 0:
        raise ValueError(f"malformed number {shown(raw)!r}: division by zero")
    return bounded_fraction(Fraction(raw))


def parse_percent(text: str) -> Fraction:
    """Read a number or a percentage exactly: ``5%``, ``0.05`` or ``1/20``, as every rate, edge and weight is typed.

    Spaces around the number and before its ``%`` are ignored (``" 5 % "``); a space inside the number is not
    (``1 / 2`` is malformed). Anything else raises ``ValueError`` (or ``ZeroDivisionError``), as
    :func:`parse_fraction` does.

    >>> parse_percent(" 7.6 % "), parse_percent("1/20")
    (Fraction(19, 250), Fraction(1, 20))
    """
    raw = text.strip()
    return parse_fraction(raw[:-1]) / 100 if raw.endswith("%") else parse_fraction(raw)


def bounded_fraction(value: Fraction) -> Fraction:
    """Return ``value`` if its numerator and denominator are at most 10^100, else raise ``ValueError``.

    >>> bounded_fraction(Fraction(19, 20))
    Fraction(19, 20)
    """
    if abs(value.numerator) > MAX_NUMBER or value.denominator > MAX_NUMBER:
        raise ValueError("a number of more than 100 digits")
    return value


def round_half_away(value: Fraction | int, denominator: int = 1) -> int:
    """Round a rational (``value / denominator``, denominator > 0) to the nearest integer, halves away from zero.

    The one rounding rule here. An integer numerator and denominator round without making a Fraction.

    >>> round_half_away(Fraction(5, 2)), round_half_away(Fraction(-5, 2)), round_half_away(Fraction(7, 3))
    (3, -3, 2)
    >>> round_half_away(-5, 2), round_half_away(14, 6)
    (-3, 2)
    """
    if isinstance(value, int):
        return round_ratio(value, denominator)
    value = Fraction(value) / denominator
    return round_ratio(value.numerator, value.denominator)


def round_ratio(numerator: int, denominator: int) -> int:
    """Round ``numerator / denominator`` (denominator > 0) to the nearest integer, halves away from zero, in integers.

    The integer form of :func:`round_half_away` (which calls it): no ``Fraction`` is built,
    and the fraction need not be in lowest terms.

    >>> round_ratio(5, 2), round_ratio(-10, 4), round_ratio(14, 6), round_ratio(-1, 3)
    (3, -3, 2, 0)
    """
    q, r = divmod(abs(numerator), denominator)
    if 2 * r >= denominator:
        q += 1
    return q if numerator >= 0 else -q


def decimal_text(value: Fraction | int, places: int = 10) -> str:
    """Write an exact rational as a decimal with ``places`` digits, rounded half up.

    >>> decimal_text(Fraction(2, 3), 4), decimal_text(Fraction(-1, 8), 2), decimal_text(3, 0)
    ('0.6667', '-0.13', '3')
    """
    value = Fraction(value)
    return ratio_decimal_text(value.numerator, value.denominator, places)


def ratio_decimal_text(numerator: int, denominator: int, places: int = 10) -> str:
    """Write ``numerator / denominator`` (denominator > 0) as :func:`decimal_text` does, in integers only.

    >>> ratio_decimal_text(4, 6, 4), ratio_decimal_text(-2, 16, 2)
    ('0.6667', '-0.13')
    """
    return _scaled_text(round_ratio(numerator * 10**places, denominator), places)


def decimal_writer(places: int) -> Callable[[int, int], str]:
    """A function writing ``numerator / denominator`` as ``ratio_decimal_text(numerator, denominator, places)`` does,
    with the powers of ten worked out once (a batch writes dozens of decimals a shoe at one precision).

    >>> write = decimal_writer(4)
    >>> write(4, 6), write(-2, 16), write(-1, 30000), write(3, 1)
    ('0.6667', '-0.1250', '0.0000', '3.0000')
    """
    if places <= 0:
        return partial(ratio_decimal_text, places=places)
    scale: int = 10**places
    twice = 2 * scale
    below, above = f"0.%0{places}d", f"%d.%0{places}d"  # |x| < 1, and |x| ≥ 1: the digits of |x|·10^p
    negative = "-" + below

    def write(numerator: int, denominator: int) -> str:
        # Halves away from zero: |x|·10^p + 1/2, floored, is (2·|a|·10^p + d) // 2d, all in integers.
        if numerator >= 0:
            scaled = (twice * numerator + denominator) // (2 * denominator)
            return below % scaled if scaled < scale else above % divmod(scaled, scale)
        scaled = (denominator - twice * numerator) // (2 * denominator)
        if scaled < scale:
            return negative % scaled if scaled else below % 0  # a value that rounds to zero has no sign
        return "-" + above % divmod(scaled, scale)

    return write


def sqrt_decimal_writer(places: int) -> Callable[[int, int], str]:
    """A function writing the square root of ``numerator / denominator`` as ``ratio_sqrt_decimal_text`` does at
    ``places``, with the powers of ten worked out once.

    >>> root = sqrt_decimal_writer(2)
    >>> root(18, 8), root(0, 5), root(2, 1)
    ('1.50', '0.00', '1.41')
    """
    if places <= 0:
        return partial(ratio_sqrt_decimal_text, places=places)
    scale: int = 10**places
    quadruple: int = 4 * 10 ** (2 * places)
    below, above = f"0.%0{places}d", f"%d.%0{places}d"

    def write(numerator: int, denominator: int) -> str:
        if numerator < 0:
            raise ValueError("square root of a negative number")
        scaled = (isqrt(quadruple * numerator // denominator) + 1) // 2  # as ratio_sqrt_decimal_text rounds
        return below % scaled if scaled < scale else above % divmod(scaled, scale)

    return write


def _scaled_text(scaled: int, places: int) -> str:
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled)).rjust(places + 1, "0")
    if places == 0:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def negated_text(text: str) -> str:
    """The text of −x from the text of x as :func:`ratio_text` or :func:`ratio_decimal_text` writes it.

    Halves round away from zero, so rounding commutes with the sign: the digits stay, only the
    sign flips (and a value that is, or rounds to, zero has none).

    >>> negated_text("-19/20"), negated_text("0.0000"), negated_text("1.5"), negated_text("0")
    ('19/20', '0.0000', '-1.5', '0')
    """
    if text[0] == "-":
        return text[1:]
    return text if not text.strip("0.") else "-" + text


def percent_text(value: Fraction | int, places: int = 4) -> str:
    """Write an exact rational as a percentage with ``places`` decimals.

    >>> percent_text(Fraction(1, 3), 2)
    '33.33%'
    """
    return decimal_text(Fraction(value) * 100, places) + "%"


def sqrt_decimal_text(value: Fraction, places: int = 10) -> str:
    """Write the square root of a non-negative rational as a decimal, rounded half up.

    The root is found with ``math.isqrt`` on a scaled integer, so every digit is exact.

    >>> sqrt_decimal_text(Fraction(2), 6), sqrt_decimal_text(Fraction(9, 4), 2)
    ('1.414214', '1.50')
    """
    return ratio_sqrt_decimal_text(value.numerator, value.denominator, places)


def ratio_sqrt_decimal_text(numerator: int, denominator: int, places: int = 10) -> str:
    """Write the square root of ``numerator / denominator`` (≥ 0, denominator > 0) as :func:`sqrt_decimal_text` does.

    >>> ratio_sqrt_decimal_text(18, 8, 2)
    '1.50'
    """
    if numerator < 0:
        raise ValueError("square root of a negative number")
    # Round half up: the answer is the largest k with k - 1/2 <= x, x = sqrt(value)·10^p,
    # i.e. with (2k - 1)^2 <= 4·x^2 = y; as (2k - 1)^2 is an integer this reads floor(y),
    # which is the same whether or not the fraction is in lowest terms.
    y = 4 * numerator * 10 ** (2 * places) // denominator
    return _scaled_text((isqrt(y) + 1) // 2, places)


def grouped(count: int) -> str:
    """Write an integer with thousands separators.

    >>> grouped(4998398275503360)
    '4,998,398,275,503,360'
    """
    return f"{count:,}"


def one_in_text(probability: Fraction, places: int = 2) -> str:
    """Write a hit frequency as "1 in N" (N = 1/p), or "never" when p = 0.

    >>> one_in_text(Fraction(1, 4)), one_in_text(Fraction(0))
    ('4.00', 'never')
    """
    if probability == 0:
        return "never"
    return decimal_text(1 / probability, places)


def short_text(value: Fraction | int) -> str:
    """Write a rational as a short exact decimal when it has one (0.95, 2.5), else ``n/d``.

    >>> short_text(Fraction(19, 20)), short_text(Fraction(8)), short_text(Fraction(1, 3))
    ('0.95', '8', '1/3')
    """
    value = Fraction(value)
    for places in range(7):
        if (value * 10**places).denominator == 1:
            return decimal_text(value, places)
    return fraction_text(value)


def parse_commission(text: str) -> Fraction:
    """Read a commission: ``5%``, ``2.5%``, ``0.05`` or ``1/20`` (exactly).

    >>> parse_commission("2.5%"), parse_commission("0.04"), parse_commission("1/20")
    (Fraction(1, 40), Fraction(1, 25), Fraction(1, 20))
    """
    return parse_rate(text, "commission", "5%, 2.5% or 0.05")


def parse_rate(text: str, what: str, examples: str) -> Fraction:
    """Read a rate from 0% to below 100% (a commission, a rebate): a percentage, a decimal or ``n/d``, exactly.

    ``what`` names the rate in its errors and ``examples`` shows how to write it.

    >>> parse_rate("0.8%", "rebate", "1%"), parse_rate("1/125", "rebate", "1%")
    (Fraction(1, 125), Fraction(1, 125))
    >>> parse_rate("1", "rebate", "1%")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the rebate must be at least 0% and below 100%, not '1': did you mean 1%?
    """
    raw = text.strip()
    try:
        value = parse_percent(raw)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed {what} {shown(text)!r}: write e.g. {examples}") from None
    if not 0 <= value < 1:
        # "5" is a rate of 500%: the user most likely meant 5%.
        hint = f": did you mean {shown(raw)}%?" if not raw.endswith("%") and 1 <= value < 100 else ""
        raise ExactOddsError(f"the {what} must be at least 0% and below 100%, not {shown(text)!r}{hint}")
    return value


def parse_pays(text: str, what: str = "pay") -> Fraction:
    """Read a pay "to 1": ``8``, ``9``, ``0.5`` or ``1/2`` (exactly).

    >>> parse_pays("9"), parse_pays("1/2")
    (Fraction(9, 1), Fraction(1, 2))
    """
    try:
        value = parse_fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed {what} {shown(text)!r}: write a number such as 8 or 9") from None
    if value <= 0:
        raise ExactOddsError(f"the {what} must be more than 0, not {shown(text)!r}")
    return value
