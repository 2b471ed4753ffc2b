"""Huge shoes by multi-modular arithmetic: the same integers as Python integers and as the reference walk."""

from __future__ import annotations

from math import isqrt, prod

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, is_slow, sweep

import exactodds as xo
from exactodds.puntobanco import compiled
from exactodds.puntobanco.compiled import modular
from exactodds.puntobanco.compiled.kernel import factor_tensor
from exactodds.puntobanco.odds import resolve_bets
from exactodds.puntobanco.rules import EZ

#: The largest shoe (cards) each number of primes is proved exact for (18·N^6 < M), as the module's docstring says.
SWITCH_POINTS = {2: 796, 3: 28_625, 4: 1_028_192, 5: 36_931_430, 6: 1_326_532_119}


def catalog_pricer(rules: xo.RuleSet) -> compiled.BetPricer:
    return compiled.pricer(rules.tableau, resolve_bets(rules, ["all"], suits=False, cards=False))


def python_int_counts(evaluator: compiled.Evaluator, shoe: xo.Shoe) -> list[int]:
    """The Python-integer path: weights and dot product in numpy object arrays."""
    counts: list[int] = (evaluator.rows(factor_tensor([shoe.counts], object))[0] @ evaluator.matrix_object).tolist()
    return counts


def test_the_primes_are_distinct_primes_below_2_31() -> None:
    assert len(set(modular.PRIMES)) == len(modular.PRIMES)
    for p in modular.PRIMES:
        assert p < 2**31 and p % 2 and all(p % d for d in range(3, isqrt(p) + 1, 2))


def test_the_switch_points_are_the_largest_shoes_the_bound_allows() -> None:
    for k, cards in SWITCH_POINTS.items():
        modulus = prod(modular.PRIMES[:k])
        assert 18 * cards**6 < modulus <= 18 * (cards + 1) ** 6
    assert compiled.int64_is_exact(1004) and SWITCH_POINTS[2] < 1005  # two primes never serve: int64 goes further
    assert modular.primes_needed(1005) == 3
    for k in (3, 4, 5, 6):
        assert modular.primes_needed(SWITCH_POINTS[k]) == k
        assert modular.primes_needed(SWITCH_POINTS[k] + 1) == (k + 1 if k < 6 else None)
    assert modular.primes_needed(520_000) == 4  # every shoe up to 10,000 decks


@examples(200)
@given(st.integers(2, 6), st.data())
def test_reconstruction_is_exact_within_half_the_modulus(k: int, data: st.DataObject) -> None:
    half = prod(modular.PRIMES[:k]) // 2
    values = data.draw(st.lists(st.integers(-half, half), min_size=1, max_size=5))
    values += [half, -half, 0]
    residues = np.array([[v % p for p in modular.PRIMES[:k]] for v in values], dtype=np.int64)
    assert modular.reconstruct(residues) == values


def _shoe(counts: list[int]) -> xo.Shoe:
    return xo.Shoe(tuple(counts))


#: Odd compositions (any counts by rank) and depleted standard shoes, from 1,000 to 10^6 cards.
odd = st.lists(st.integers(0, 76_923), min_size=13, max_size=13).filter(lambda c: 1000 <= sum(c) <= 10**6)
depleted = st.tuples(st.integers(20, 19_230), st.lists(st.floats(0, 1), min_size=13, max_size=13)).map(
    lambda d: [4 * d[0] - int(4 * d[0] * f) for f in d[1]]
).filter(lambda c: 1000 <= sum(c) <= 10**6)
huge_shoes = st.one_of(odd, depleted).map(_shoe)


@examples(120, 4)
@given(huge_shoes, st.sampled_from(xo.RULE_SETS))
def test_huge_shoes_equal_the_python_integer_path(shoe: xo.Shoe, rules: xo.RuleSet) -> None:
    """Every bet of the catalog (and every coup state) in residues, against the same sums in Python integers."""
    assert compiled.int64_is_exact(shoe.size) or modular.primes_needed(shoe.size) in (3, 4)  # 1,000-1,004: int64
    evaluator = catalog_pricer(rules).evaluator
    assert evaluator.counts(shoe) == python_int_counts(evaluator, shoe)


@examples(10, 2)
@given(huge_shoes)
def test_every_coup_state_of_a_huge_shoe_equals_the_python_integer_path(shoe: xo.Shoe) -> None:
    evaluator = compiled.pricing._state_evaluator(xo.PUNTO_BANCO.tableau)
    assert evaluator.counts(shoe) == python_int_counts(evaluator, shoe)


#: A shoe on each path just past its switch point; the slow profile adds each path's largest (and 520,000 cards).
PAST_SWITCH_POINTS = [1005, SWITCH_POINTS[3] + 1, SWITCH_POINTS[4] + 1, SWITCH_POINTS[5] + 1, SWITCH_POINTS[6] + 1]
AT_SWITCH_POINTS = [SWITCH_POINTS[3], SWITCH_POINTS[4], 520_000, SWITCH_POINTS[5], SWITCH_POINTS[6]]


@pytest.mark.parametrize("cards", sweep(sorted(PAST_SWITCH_POINTS + (AT_SWITCH_POINTS if is_slow() else [])), 2))
def test_at_every_switch_point_the_counts_equal_the_reference_walk(cards: int) -> None:
    """Shoes at and just past each switch point, with every rank's count different, against the plain walk."""
    counts = [cards // 13 + (i * 7) % 11 - 5 for i in range(13)]
    counts[0] += cards - sum(counts)
    shoe = _shoe(counts)
    assert shoe.size == cards
    bets = resolve_bets(xo.PUNTO_BANCO, ["all"], suits=False, cards=False)
    fast = compiled.pricer(xo.PUNTO_BANCO.tableau, bets).counts(shoe)
    reference = xo.analyze(shoe, bets=bets, method="reference")
    assert list(fast) == [tuple(o.count for o in b.outcomes) for b in reference.bets]
    evaluator = compiled.pricer(xo.PUNTO_BANCO.tableau, bets).evaluator
    assert evaluator.counts(shoe) == python_int_counts(evaluator, shoe)
    assert sum(fast[0]) == shoe.orderings() and all(isinstance(n, int) for row in fast for n in row)


def test_a_batch_mixing_every_path_equals_shoe_by_shoe() -> None:
    """Batches send int64 shoes through the array kernel and bigger ones one by one: residues or Python integers."""
    shoes = [xo.Shoe.standard(d) for d in (1, 8, 19, 20, 550, 551, 10_000)] * 3
    shoes.append(_shoe([SWITCH_POINTS[6] // 13 + 1] * 13))  # past every prime: Python integers
    pricer = catalog_pricer(EZ)
    matrix = pricer.counts_matrix(shoes)
    assert matrix.dtype == object
    for row, shoe in zip(matrix.tolist(), shoes):
        assert row == [n for bet in pricer.counts(shoe) for n in bet]
    evaluator = pricer.evaluator
    assert evaluator.counts(shoes[-1]) == python_int_counts(evaluator, shoes[-1])
