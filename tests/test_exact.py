"""Exact rationals to text by integer arithmetic: lowest terms, rounding half up, exact square roots."""

from __future__ import annotations

import decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples

from exactodds import decimal_text
from exactodds.exact import (
    fraction_text,
    grouped,
    one_in_text,
    parse_fraction,
    percent_text,
    short_text,
    sqrt_decimal_text,
)


def test_fraction_text():
    assert fraction_text(Fraction(-19, 20)) == "-19/20"
    assert fraction_text(Fraction(38, 40)) == "19/20"  # lowest terms
    assert fraction_text(Fraction(8)) == "8"
    assert fraction_text(0) == "0"
    assert fraction_text(-3) == "-3"


def test_parse_fraction_is_exact():
    assert parse_fraction("0.1") == Fraction(1, 10)  # not the float 0.1000000000000000055…
    assert parse_fraction(" -19/20 ") == Fraction(-19, 20)
    assert parse_fraction(fraction_text(Fraction(2_292_252_566_437_888, 4_998_398_275_503_360))) == Fraction(
        2_292_252_566_437_888, 4_998_398_275_503_360
    )


def test_parse_fraction_refuses_numbers_too_large_to_work_with():
    assert parse_fraction("1e100") == 10**100 and parse_fraction("1e-100") == Fraction(1, 10**100)
    for text in ("1e999999999", "1E-999999999", "1e+1000", "1e101", "1e-101", "9" * 101):
        with pytest.raises(ValueError):
            parse_fraction(text)


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (Fraction(2, 3), 4, "0.6667"),
        (Fraction(1, 8), 2, "0.13"),  # a half rounds up …
        (Fraction(-1, 8), 2, "-0.13"),  # … and away from zero when negative
        (Fraction(3, 8), 2, "0.38"),
        (Fraction(1, 3), 2, "0.33"),
        (Fraction(-1, 3), 2, "-0.33"),
        (Fraction(-1, 1000), 2, "0.00"),  # no "-0.00"
        (Fraction(-5, 1000), 2, "-0.01"),
        (Fraction(3, 1000), 4, "0.0030"),
        (Fraction(5, 2), 0, "3"),
        (Fraction(-5, 2), 0, "-3"),
        (Fraction(1, 3), 0, "0"),
        (Fraction(2, 3), 0, "1"),
        (3, 0, "3"),
        (7, 3, "7.000"),
        (Fraction(-12345, 100), 1, "-123.5"),
        (Fraction(1, 7), 30, "0.142857142857142857142857142857"),
        (Fraction(4_998_398_275_503_360), 0, "4998398275503360"),
        (Fraction(10**40 + 1, 10**40), 39, "1.000000000000000000000000000000000000000"),
    ],
)
def test_decimal_text(value, places, text):
    assert decimal_text(value, places) == text


@examples(200)
@given(st.fractions(max_denominator=10**6), st.integers(0, 12))
def test_decimal_text_agrees_with_decimal_round_half_up(value, places):
    context = decimal.Context(prec=200, rounding=decimal.ROUND_HALF_UP)
    exact = context.divide(decimal.Decimal(value.numerator), decimal.Decimal(value.denominator))
    expected = exact.quantize(decimal.Decimal(1).scaleb(-places), context=context)
    text = format(expected, "f")
    assert decimal_text(value, places) == (text.removeprefix("-") if expected == 0 else text)


def test_percent_text():
    assert percent_text(Fraction(1, 3), 2) == "33.33%"
    assert percent_text(Fraction(-10579, 1_000_000), 4) == "-1.0579%"
    assert percent_text(Fraction(1), 0) == "100%"


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (Fraction(2), 6, "1.414214"),
        (Fraction(9, 4), 2, "1.50"),
        (Fraction(9, 4), 0, "2"),  # sqrt = 1.5 exactly: half up
        (Fraction(25, 4), 0, "3"),  # 2.5 -> 3
        (Fraction(1, 16), 1, "0.3"),  # 0.25 -> 0.3
        (Fraction(0), 3, "0.000"),
        (Fraction(1, 10**12), 6, "0.000001"),
        (Fraction(4), 0, "2"),
        (Fraction(2), 0, "1"),
        (Fraction(864, 25), 6, "5.878775"),
    ],
)
def test_sqrt_decimal_text(value, places, text):
    assert sqrt_decimal_text(value, places) == text


def test_sqrt_decimal_text_of_a_negative():
    with pytest.raises(ValueError, match="negative"):
        sqrt_decimal_text(Fraction(-1, 4), 2)


@examples(200)
@given(st.fractions(min_value=0, max_value=10**6, max_denominator=10**6), st.integers(0, 15))
def test_sqrt_decimal_text_agrees_with_decimal(value, places):
    context = decimal.Context(prec=200, rounding=decimal.ROUND_HALF_UP)
    root = context.divide(decimal.Decimal(value.numerator), decimal.Decimal(value.denominator)).sqrt(context)
    expected = root.quantize(decimal.Decimal(1).scaleb(-places), context=context)
    assert sqrt_decimal_text(value, places) == format(expected, "f")


def test_small_helpers():
    assert grouped(4_998_398_275_503_360) == "4,998,398,275,503,360"
    assert grouped(0) == "0"
    assert one_in_text(Fraction(1, 4)) == "4.00"
    assert one_in_text(Fraction(0)) == "never"
    assert one_in_text(Fraction(3, 10), 3) == "3.333"
    values = (Fraction(19, 20), Fraction(8), Fraction(1, 3), Fraction(39, 40), Fraction(-5, 2))
    assert [short_text(x) for x in values] == ["0.95", "8", "1/3", "0.975", "-2.5"]


@examples(200)
@given(st.integers(-(10**40), 10**40), st.integers(1, 10**30), st.integers(1, 10**6), st.integers(0, 25))
def test_the_integer_forms_agree_with_the_fraction_forms_on_unreduced_ratios(n, d, k, places):
    """ratio_text, round_ratio, ratio_decimal_text and ratio_sqrt_decimal_text take n/d in any terms (k·n / k·d)."""
    from exactodds.exact import (
        ratio_decimal_text,
        ratio_sqrt_decimal_text,
        ratio_text,
        round_half_away,
        round_ratio,
    )

    value = Fraction(n, d)
    assert ratio_text(k * n, k * d) == fraction_text(value) == (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )
    assert round_ratio(k * n, k * d) == round_half_away(value)
    # Independent of both: round half away from zero by the decimal module.
    context = decimal.Context(prec=200, rounding=decimal.ROUND_HALF_UP)
    exact = context.divide(decimal.Decimal(n), decimal.Decimal(d))
    assert round_ratio(k * n, k * d) == int(exact.quantize(decimal.Decimal(1), context=context))
    assert ratio_decimal_text(k * n, k * d, places) == decimal_text(value, places)
    if n >= 0:
        assert ratio_sqrt_decimal_text(k * n, k * d, places) == sqrt_decimal_text(value, places)


@examples(200)
@given(st.integers(-(10**30), 10**30), st.integers(1, 10**20), st.integers(0, 12))
def test_negated_text_is_the_text_of_the_negation(n, d, places):
    from exactodds.exact import negated_text, ratio_decimal_text, ratio_text

    assert negated_text(ratio_text(n, d)) == ratio_text(-n, d)
    assert negated_text(ratio_decimal_text(n, d, places)) == ratio_decimal_text(-n, d, places)
