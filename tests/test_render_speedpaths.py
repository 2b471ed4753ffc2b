"""The quick paths of the JSON contract's exact values: each against the plain one and against Fraction arithmetic.

The decimal and square-root writers made once per precision (exact.decimal_writer, exact.sqrt_decimal_writer),
the Fractions made without the constructor's checks (analysis.exact_fraction), the whole object's values written in
one pass (present.priced.full_texts) and the layouts found by the identity of their objects: every text must be
the very one the plain route writes, and the exact value Fraction arithmetic gives.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import lru_cache
from math import isqrt
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from profiles import examples

from exactodds.analysis import BetFigures, exact_fraction
from exactodds.cards import Shoe
from exactodds.exact import (
    decimal_writer,
    fraction_text,
    ratio_decimal_text,
    ratio_sqrt_decimal_text,
    sqrt_decimal_writer,
)
from exactodds.games import DEFAULT, find_game
from exactodds.present import shoe_json
from exactodds.present.odds_json import (
    _BY_IDENTITY,
    FIELDS,
    JsonLayout,
    _layout_by_identity,
    _literals,
    _shoe_literals,
    render_json,
)
from exactodds.puntobanco.bets import bets_from_text
from exactodds.puntobanco.odds import analyze
from exactodds.rebate import BASES, Rebate


def _rounded(value: Fraction, places: int) -> str:
    """``value`` to ``places`` decimals, halves away from zero, by Fraction arithmetic alone (the independent route)."""
    scaled = abs(value) * 10**places
    whole = int(scaled)  # floor: scaled ≥ 0
    if scaled - whole >= Fraction(1, 2):
        whole += 1
    digits = str(whole).rjust(places + 1, "0")
    sign = "-" if value < 0 and whole else ""
    return sign + (f"{digits[:-places]}.{digits[-places:]}" if places else digits)


numerators = st.one_of(st.integers(-(10**6), 10**6), st.integers(-(10**60), 10**60))
denominators = st.one_of(st.integers(1, 10**6), st.integers(1, 10**60))


@examples(300)
@given(numerators, denominators, st.integers(0, 30))
@example(5, 10, 0)  # a tie at 0 places: away from zero
@example(-5, 10, 0)
@example(1, 2 * 10**10, 10)  # a tie in the last place
@example(-1, 2 * 10**10, 10)  # a negative tie: away from zero, −0.0000000001
@example(-1, 3 * 10**10, 10)  # a negative value that rounds to zero: no sign
@example(0, 7, 4)
@example(10**60, 1, 3)  # a huge integer
@example(-(10**60) + 1, 10**60, 2)  # just above −1: rounds to −1.00
@example(99995, 100000, 4)  # rounds up to 1.0000
def test_decimal_writer_is_the_plain_decimal(numerator: int, denominator: int, places: int) -> None:
    text = decimal_writer(places)(numerator, denominator)
    assert text == ratio_decimal_text(numerator, denominator, places)
    assert text == _rounded(Fraction(numerator, denominator), places)


@examples(300)
@given(st.one_of(st.integers(0, 10**6), st.integers(0, 10**60)), denominators, st.integers(0, 30))
@example(9, 4, 2)  # a perfect square: 1.50
@example(2, 1, 6)
@example(0, 5, 3)
def test_sqrt_writer_is_the_plain_root(numerator: int, denominator: int, places: int) -> None:
    text = sqrt_decimal_writer(places)(numerator, denominator)
    assert text == ratio_sqrt_decimal_text(numerator, denominator, places)
    # Independently: k = the digits as an integer is the root times 10^p rounded half up, that is
    # (k - 1/2)² ≤ x·10^(2p) < (k + 1/2)², in Fractions.
    k = int(text.replace(".", ""))
    x = Fraction(numerator, denominator) * 10 ** (2 * places)
    assert (Fraction(2 * k - 1, 2)) ** 2 <= x or k == 0
    assert x < Fraction(2 * k + 1, 2) ** 2
    assert isqrt(k * k) == k


def test_exact_fraction_of_a_zero_or_negative_denominator_is_the_fraction() -> None:
    assert exact_fraction(3, -6) == Fraction(-1, 2) and exact_fraction(3, -6).denominator == 2
    with pytest.raises(ZeroDivisionError):
        exact_fraction(1, 0)


def test_sqrt_writer_refuses_a_negative_value() -> None:
    with pytest.raises(ValueError, match="square root of a negative number"):
        sqrt_decimal_writer(4)(-1, 3)


@examples(300)
@given(numerators, denominators)
@example(0, 7)
@example(-38, 40)
@example(6, 3)
def test_exact_fraction_is_the_fraction(numerator: int, denominator: int) -> None:
    made, plain = exact_fraction(numerator, denominator), Fraction(numerator, denominator)
    assert type(made) is Fraction
    assert (made.numerator, made.denominator) == (plain.numerator, plain.denominator)
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain) and str(made) == str(plain)
    assert made + 1 == plain + 1 and made * made == plain * plain


_BETS_FILE = """
[bets.lightning]
description = "Player, its return multiplied"
[[bets.lightning.outcome]]
id = "win"
when = { winner = "player" }
pays = "1/2"
multiplier = { values = [0, 1, 3], probabilities = ["1/4", "1/2", "1/4"], applies = "return" }
[[bets.lightning.outcome]]
id = "half"
when = { winner = "tie" }
pays = "-1/2"
multiplier = { values = ["1/2", 2], probabilities = ["2/3", "1/3"], applies = "pays" }
[[bets.lightning.outcome]]
id = "lose"
otherwise = true
pays = -1

[bets.twentieths]
description = "Banker at 19/20 with two cards, 3/4 with three"
[[bets.twentieths.outcome]]
id = "three-cards"
when = { winner = "banker", banker_cards = 3 }
pays = "3/4"
[[bets.twentieths.outcome]]
id = "two-cards"
when = { winner = "banker", banker_cards = 2 }
pays = "19/20"
[[bets.twentieths.outcome]]
id = "push"
when = { winner = "tie" }
pays = 0
[[bets.twentieths.outcome]]
id = "lose"
otherwise = true
pays = -1
"""

#: Shoes of every kind: fresh, depleted, small enough that outcomes never happen (zero counts), suited and not.
_SHOES = (
    Shoe.standard(8),
    Shoe.standard(1).remove("A,A,2,3,5,8,8,9,T,T,K"),
    Shoe.parse("A=4,K=16"),
    Shoe.parse("9=3,8=3,7=4,K=6"),
    Shoe.standard(6).remove("7h,7h,8s,9d,Kc,Qd"),
)


@lru_cache(maxsize=1)
def _cases() -> list[tuple[Any, Any, tuple[Any, ...], list[Shoe], list[tuple[list[int], int]]]]:
    """(game, settings, bets, shoes, rows) of punto banco's default bets, every bet, a bets file's; of dragon tiger."""
    settings = DEFAULT.settings_of({})
    file_bets = DEFAULT.resolve([*bets_from_text(_BETS_FILE), "banker", "tie"], settings)
    suited = [s for s in _SHOES if s.suited]
    tiger = find_game("dragon-tiger")
    cases = [(DEFAULT, settings, DEFAULT.resolve(None, settings), list(_SHOES)),
             (DEFAULT, settings, DEFAULT.resolve(["all"], settings, suits=True), suited),
             (DEFAULT, settings, file_bets, list(_SHOES)),
             (tiger, tiger.settings_of({}), tiger.resolve(None, tiger.settings_of({})), suited)]
    return [(game, chosen, bets, shoes, game.count_rows(shoes, bets, chosen)) for game, chosen, bets, shoes in cases]


@pytest.mark.parametrize("places", [0, 1, 4, 10, 23])
@pytest.mark.parametrize("rebate", [None, Rebate(Fraction(1, 100)), *(Rebate(Fraction(3, 7), b) for b in BASES)])
def test_one_pass_is_the_key_by_key_layout(places: int, rebate: Rebate | None) -> None:
    for game, settings, bets, shoes, rows in _cases():
        for fields in (None, frozenset(FIELDS)):
            quick = JsonLayout(game.rules(settings), bets, places, fields, rebate, counting=game.counting)
            plain = JsonLayout(game.rules(settings), bets, places, fields, rebate, counting=game.counting)
            assert quick._full
            plain._full = False  # the key-by-key path (Priced), as a cut layout takes it
            for shoe, (counts, orderings) in zip(shoes, rows):
                assert quick.line(shoe, counts, orderings) == plain.line(shoe, counts, orderings), (game.name, shoe)


@pytest.mark.parametrize("places", [0, 3, 10])
def test_one_pass_values_are_the_fractions(places: int) -> None:
    """Every figure of the whole object against Fraction arithmetic on the counts (the independent route)."""
    for game, settings, bets, shoes, rows in _cases()[:3]:
        name = game.name
        layout = JsonLayout(game.rules(settings), bets, places)
        for shoe, (counts, n) in zip(shoes, rows):
            data = layout.data(shoe, counts, n)
            start = 0
            for bet in bets:
                row = counts[start : start + len(bet.outcomes)]
                start += len(row)
                got = data["bets"][bet.id]
                probabilities = [Fraction(c, n) for c in row]
                ev = sum(p * o.mean for p, o in zip(probabilities, bet.outcomes))
                second = sum(p * o.square for p, o in zip(probabilities, bet.outcomes))
                variance = second - ev * ev
                wins = sum(p * o.chance(1) for p, o in zip(probabilities, bet.outcomes))
                assert got["ev"] == fraction_text(ev) and got["house_edge"] == fraction_text(-ev), name
                assert got["variance"] == fraction_text(variance) and got["hit_frequency"] == fraction_text(wins)
                assert got["ev_decimal"] == _rounded(ev, places)
                assert got["house_edge_decimal"] == _rounded(-ev, places)
                assert got["variance_decimal"] == _rounded(variance, places)
                assert got["hit_frequency_decimal"] == _rounded(wins, places)
                for p, o, out in zip(probabilities, bet.outcomes, got["outcomes"]):
                    assert out["probability"] == fraction_text(p) and out["probability_decimal"] == _rounded(p, places)
                    assert out["return"] == fraction_text(p * o.mean)
                    assert out["return_decimal"] == _rounded(p * o.mean, places)


def test_shoe_literals_are_the_shoe_json() -> None:
    for shoe in (*_SHOES, Shoe.parse("A=1,2=2,3=3,4=4,5=5,6=6,7=7,8=8,9=9,T=10,J=11,Q=12,K=13")):
        assert _shoe_literals(shoe) == _literals(shoe_json(shoe))


def test_layouts_found_by_identity() -> None:
    analysis = analyze(Shoe.standard(8), bets=["banker", "tie"])
    rules, bets = analysis.rules, [f.bet for f in analysis.bets]
    first = _layout_by_identity(rules, bets, 4, None, None, 2)
    assert _layout_by_identity(rules, list(bets), 4, None, None, 2) is first  # another list of the same bets
    assert _layout_by_identity(rules, bets, 5, None, None, 2) is not first  # another precision
    # Equal bets that are other objects: another entry, the same text.
    again = analyze(Shoe.standard(8), bets=["banker", "tie"])
    assert render_json(again, 4) == render_json(analysis, 4) == json.dumps(
        json.loads(render_json(analysis, 4)), indent=2)
    # Each entry keeps its objects alive, so that no other object can take their ids.
    key_objects = [objects for objects, _ in _BY_IDENTITY._entries.values()]
    assert any(objects[0] is rules for objects in key_objects)
    for number in range(70):  # more than it keeps: it starts again, never grows without bound
        _layout_by_identity(rules, bets, number, None, None, None)
    assert len(_BY_IDENTITY._entries) <= 64


def test_bet_counts_without_the_outcomes() -> None:
    figures = analyze(Shoe.standard(8), bets=["banker"]).bet("banker")
    assert figures.counts == tuple(o.count for o in figures.outcomes)
    made = BetFigures.of_counts(figures.bet, [3, 1, 2], 6)
    assert made.counts == (3, 1, 2)
    assert made.ev == Fraction(19 * 3 - 20 * 2, 20 * 6)
