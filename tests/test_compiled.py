"""The compiled evaluator against the reference enumerator, exactly, on many shoes."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, is_slow

import exactodds as xo
from exactodds.cards import falling_factorial
from exactodds.puntobanco import compiled
from exactodds.puntobanco.compiled import kernel
from exactodds.puntobanco.coup import CoupDistribution
from exactodds.puntobanco.odds import price, resolve_bets
from exactodds.puntobanco.rules import EZ, STANDARD_TABLEAU, Tableau


def reference_counts(shoe: xo.Shoe, rules: xo.RuleSet) -> list[list[int]]:
    analysis = xo.analyze(shoe, rules, method="reference")
    return [[o.count for o in b.outcomes] for b in analysis.bets]


@cache
def _reference_walk(shoe: xo.Shoe, tableau: Tableau, player_five_best: bool) -> CoupDistribution:
    """The reference walk of one shoe, shared by the rule sets that deal the same way (they differ in pay tables)."""
    return xo.enumerate_coups(shoe, tableau, player_five_best=player_five_best)


def shared_reference_counts(shoe: xo.Shoe, rules: xo.RuleSet) -> list[list[int]]:
    """``reference_counts``, each rule set's core bets priced on the (shared) reference walk of its deal."""
    walk = _reference_walk(shoe, rules.tableau, rules.player_five == "best")
    return [[o.count for o in price(walk, bet).outcomes] for bet in resolve_bets(rules, None)]


def fast_counts(shoe: xo.Shoe, rules: xo.RuleSet) -> list[list[int]]:
    analysis = xo.analyze(shoe, rules, method="compiled")
    return [[o.count for o in b.outcomes] for b in analysis.bets]


def full_distribution(shoe: xo.Shoe) -> dict[xo.CoupState, int]:
    return dict(compiled.coup_distribution(shoe, STANDARD_TABLEAU).counts)


compositions = st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


@examples(150, 2)
@given(compositions)
def test_every_coup_state_count_equals_the_reference(counts: list[int]) -> None:
    shoe = xo.Shoe(tuple(counts))
    assert full_distribution(shoe) == dict(xo.enumerate_coups(shoe).counts)


@examples(60, 2)
@given(compositions, st.sampled_from(xo.RULE_SETS))
def test_every_bet_of_every_rule_set_equals_the_reference(counts: list[int], rules: xo.RuleSet) -> None:
    shoe = xo.Shoe(tuple(counts))
    assert fast_counts(shoe, rules) == reference_counts(shoe, rules)


EDGE_SHOES = [
    xo.Shoe.parse("A=1,2=1,3=1,4=1,5=1,6=1"),  # six cards: every value at most once
    xo.Shoe.parse("K=6"),  # six cards of one rank: always a tie, both hands pair
    xo.Shoe.parse("T=2,J=2,Q=1,K=1"),  # 0-valued cards of several ranks: the pair split
    xo.Shoe.parse("9=200,T=3,5=3"),  # one value dominates
    xo.Shoe.parse("T=50,J=1"),
    xo.Shoe.standard(8).remove("A,A,A,A,5,5,5,9,T,J,Q,K"),
    xo.Shoe.standard(100),  # 5,200 cards: beyond int64, the Python-integer path
    xo.Shoe.standard(10_000),  # 520,000 cards
    xo.Shoe.standard(19),  # 988 cards: the largest int64 path
    xo.Shoe.standard(20),  # 1,040 cards: just past it
]
#: Every rule set on every edge shoe under the slow profile. The quick run prices the big shoes at and
#: just past the int64 edge under punto banco alone (5,200 and 520,000 cards take the same Python-integer
#: path as 1,040; test_large_shoe_counts_exceed_int64_and_stay_exact prices the latter): EZ and Super 6 deal
#: as it does with other pay tables, and the big table's holder's choice on 5 takes the reference walk at
#: any size (both sides walk alike).
EDGE_CASES = [
    pytest.param(shoe, rules, id=f"{rules.name}-{shoe.size}cards")
    for rules in xo.RULE_SETS
    for shoe in EDGE_SHOES
    if is_slow() or shoe.size < 988 or (rules.name == "punto-banco" and shoe.size <= 1040)
]


@pytest.mark.parametrize(("shoe", "rules"), EDGE_CASES)
def test_edge_shoes_equal_the_reference(shoe: xo.Shoe, rules: xo.RuleSet) -> None:
    assert fast_counts(shoe, rules) == shared_reference_counts(shoe, rules)


def test_large_shoe_counts_exceed_int64_and_stay_exact() -> None:
    shoe = xo.Shoe.standard(10_000)
    assert shoe.orderings() > 2**63
    counts = fast_counts(shoe, xo.PUNTO_BANCO)
    assert sum(counts[0]) == shoe.orderings()
    assert all(isinstance(n, int) for row in counts for n in row)


def test_the_int64_and_float64_bounds() -> None:
    assert compiled.int64_is_exact(1004) and not compiled.int64_is_exact(1005)
    assert 9 * 1004**6 < 2**63 <= 9 * 1005**6
    assert compiled.float64_is_exact(458) and not compiled.float64_is_exact(459)
    assert falling_factorial(458, 6) < 2**53 <= falling_factorial(459, 6)


def test_batch_equals_one_by_one_across_all_three_arithmetic_paths() -> None:
    rng = np.random.default_rng(7)
    shoes = []
    for decks in (1, 6, 8, 9, 19, 20, 200):  # float64, int64 and Python-integer paths
        for _ in range(5):
            full = xo.Shoe.standard(decks)
            seen = rng.integers(0, full.counts[0] // 2 + 1, size=13)
            shoes.append(xo.Shoe(tuple(int(c - s) for c, s in zip(full.counts, seen))))
    shoes.append(xo.Shoe.parse("K=6"))
    batch = xo.analyze_many(shoes, EZ)
    for shoe, analysis in zip(shoes, batch):
        expected = fast_counts(shoe, EZ)
        assert [[o.count for o in b.outcomes] for b in analysis.bets] == expected, shoe


def test_batch_array_path_in_several_chunks_and_threads() -> None:
    pricer = compiled.pricer(STANDARD_TABLEAU, tuple(xo.bet_catalog(xo.PUNTO_BANCO).values()))
    rng = np.random.default_rng(3)
    rank_counts = rng.integers(0, 33, size=(300, 13))
    rank_counts[:, 0] += 6  # at least six cards
    one_thread = pricer.evaluator.counts_array(rank_counts, chunk=1000, workers=1)
    threaded = pricer.evaluator.counts_array(rank_counts, chunk=37, workers=2)
    assert np.array_equal(one_thread, threaded)
    with pytest.MonkeyPatch.context() as patch:  # factor tensors made block by block, chunks across blocks
        patch.setattr(compiled.pricing, "_TENSOR_BLOCK", 50)
        assert np.array_equal(pricer.evaluator.counts_array(rank_counts, chunk=16, workers=2), one_thread)
    for i in range(0, 300, 29):
        assert list(threaded[i]) == pricer.evaluator.counts(xo.Shoe(tuple(int(c) for c in rank_counts[i])))


def test_the_table_holds_every_six_card_value_multiset_and_the_reachable_states(standard_coups) -> None:
    table = compiled.compiled(STANDARD_TABLEAU)
    assert len(table.multisets) == 5005  # C(10 + 6 - 1, 6)
    assert set(table.multisets.sum(axis=1)) == {6}
    reachable = {tuple(s)[:6] for s in standard_coups(8).counts}  # rank-level facts
    assert {tuple(s)[:6] for s in table.states} == reachable


def test_cache_is_written_reused_and_keyed_by_the_tableau(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("EXACTODDS_CACHE", str(tmp_path))
    house = Tableau(
        player_draws_on=STANDARD_TABLEAU.player_draws_on,
        banker_draws_when_player_stood=STANDARD_TABLEAU.banker_draws_when_player_stood,
        banker_draws_against=(
            *STANDARD_TABLEAU.banker_draws_against[:3],
            frozenset(range(9)),
            *STANDARD_TABLEAU.banker_draws_against[4:],
        ),
    )
    assert compiled.cache_key(house) != compiled.cache_key(STANDARD_TABLEAU)
    compiled.compiled.cache_clear()
    try:
        first = compiled.compiled(house)
        files = list(tmp_path.glob("compiled-*.npz"))
        assert [f.name for f in files] == [f"compiled-{compiled.cache_key(house)}.npz"]
        compiled.compiled.cache_clear()
        again = compiled.compiled(house)  # from disk
        assert again.states == first.states
        assert np.array_equal(again.coefficients, first.coefficients)
        # A damaged cache file is rebuilt, never trusted.
        files[0].write_bytes(b"not a table")
        compiled.compiled.cache_clear()
        rebuilt = compiled.compiled(house)
        assert np.array_equal(rebuilt.rows, first.rows)
        # The house rule (Banker 3 stands on a Player third-card 9) changes the figures. Two decks (the quick run's)
        # hold six cards or more of every value, so every row of the table weighs on the counts; eight walk four times
        # the draws.
        shoe = xo.Shoe.standard(8 if is_slow() else 2)
        rules = xo.RuleSet("house", "test", tableau=house)
        assert fast_counts(shoe, rules) == reference_counts(shoe, rules)
        assert fast_counts(shoe, rules) != fast_counts(shoe, xo.PUNTO_BANCO)
    finally:
        compiled.compiled.cache_clear()


def test_a_cache_for_another_tableau_under_the_same_name_is_ignored(tmp_path, monkeypatch) -> None:
    table = compiled.compiled(STANDARD_TABLEAU)  # this process's table, made before the cache folder changes
    monkeypatch.setenv("EXACTODDS_CACHE", str(tmp_path))
    compiled.compiled.cache_clear()
    try:
        path = tmp_path / f"compiled-{compiled.cache_key(STANDARD_TABLEAU)}.npz"
        other = Tableau(
            frozenset(range(5)), STANDARD_TABLEAU.banker_draws_when_player_stood, STANDARD_TABLEAU.banker_draws_against
        )
        compiled.cache._save(path, compiled.build(other))  # a stale file under the standard name
        compiled.compiled.cache_clear()
        assert compiled.compiled(STANDARD_TABLEAU).states == table.states
    finally:
        compiled.compiled.cache_clear()


def test_the_compiled_pricer_refuses_bets_that_read_suits() -> None:
    bets = (xo.find_bet("perfect-pair", xo.PUNTO_BANCO),)
    with pytest.raises(ValueError, match="knows ranks, not suits"):
        compiled.BetPricer(STANDARD_TABLEAU, bets)


#: sha256 of the standard tableau's compiled table (its arrays, dtypes and shapes), as verified
#: against the reference walk on thousands of shoes by the slow profile. Any change to the
#: table (the deal, the state codes, the pair blocks) changes it; update it only after
#: `EXACTODDS_TESTS=slow pytest tests/test_compiled.py` has passed with the new table.
GOLDEN_STANDARD_TABLE = "1f0c07a57d39d9bdb1bd6d488c1dbc17588941674c39c9e963858ab69fb05f0e"


def table_hash(table: compiled.CompiledTableau) -> str:
    """sha256 of a compiled table's content: its multisets, states (as tuples), rows, columns and coefficients."""
    import hashlib

    h = hashlib.sha256()
    for array in (table.multisets, table.rows, table.cols, table.coefficients):
        h.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
    h.update(repr([tuple(state) for state in table.states]).encode())
    return h.hexdigest()


def test_the_compiled_table_is_the_one_the_slow_comparisons_verified() -> None:
    assert table_hash(compiled.build(STANDARD_TABLEAU)) == GOLDEN_STANDARD_TABLE


# --- the one weights kernel ------------------------------------------------------------------


def test_the_weights_of_every_row_equal_a_count_of_physical_draws() -> None:
    """W, A and B weights against ordered draws of distinct cards, counted one by one (10 cards: 151,200 draws)."""
    ranks = "TTJJQK5599"  # four 0-valued ranks (pairs split by rank), two other values
    shoe = xo.Shoe.parse("T=2,J=2,Q=1,K=1,5=2,9=2")
    value = {"T": 0, "J": 0, "Q": 0, "K": 0, "5": 5, "9": 9}
    plain, player, both = Counter(), Counter(), Counter()  # by value sequence
    for draw in itertools.permutations(range(10), 6):
        cards = [ranks[i] for i in draw]
        values = tuple(value[r] for r in cards)
        plain[values] += 1
        player[values] += cards[0] == cards[2] and values[0] == 0
        both[values] += cards[0] == cards[2] and cards[1] == cards[3] and values[0] == values[1] == 0
    table = compiled.compiled(STANDARD_TABLEAU)
    keys = {tuple(int(k) for k in m): i for i, m in enumerate(table.multisets)}
    R = len(table.multisets)
    for dtype, shoes in ((np.int64, 1), (np.float64, 40), (object, 40)):  # one shoe; many (numpy columns)
        w = kernel.weights(np.array([shoe.counts] * shoes), table.multisets, dtype)
        assert w.shape == (shoes, 3 * R) and (w == w[0]).all()
        for values, n in plain.items():
            m = keys[tuple(values.count(v) for v in range(10))]
            assert w[0, m] == n
            if values[0] == values[2] == 0:
                assert w[0, R + m] == player[values]
            if values[0] == values[1] == values[2] == values[3] == 0:
                assert w[0, 2 * R + m] == both[values]


def test_the_factor_tensor_is_the_same_in_every_dtype_and_path() -> None:
    rng = np.random.default_rng(11)
    counts = rng.integers(0, 36, size=(40, 13))
    counts[0] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 5]  # one 0-valued card short of a pair: P2 > 0, c0 - 4 < 0
    counts[1] = [6] + [0] * 12
    expected = np.array([compiled.factor_table(xo.Shoe(tuple(int(c) for c in row))) for row in counts], dtype=object)
    for c in range(40):  # the rows are the falling factorials and the pair sums, by their definitions
        zero = [int(x) for x in counts[c, 9:]]
        p2 = sum(falling_factorial(z, 2) for z in zero)
        p22 = sum(falling_factorial(a, 2) * falling_factorial(b, 2) for a, b in itertools.permutations(zero, 2))
        p22 += sum(falling_factorial(z, 4) for z in zero)
        c0 = sum(zero)
        assert list(expected[c, 4]) == [falling_factorial(int(counts[c, 3]), k) for k in range(7)]
        assert list(expected[c, 10]) == [0, 0] + [p2 * falling_factorial(c0 - 2, k) for k in range(5)]
        assert list(expected[c, 11]) == [0] * 4 + [p22 * falling_factorial(c0 - 4, k) for k in range(3)]
    for dtype in (np.int64, np.float64, object):
        columns = kernel.factor_tensor(counts, dtype)  # 40 shoes: numpy columns
        one_by_one = np.concatenate([kernel.factor_tensor(counts[i : i + 1], dtype) for i in range(40)])
        assert columns.dtype == np.dtype(dtype) and np.array_equal(columns.astype(object), expected)
        assert np.array_equal(one_by_one.astype(object), expected) and not np.signbit(columns.astype(float)).any()
    value_counts = np.concatenate([counts[:, 9:].sum(axis=1, keepdims=True), counts[:, :9]], axis=1)  # values 0-9
    assert np.array_equal(kernel.falling_rows(value_counts, np.float64), expected[:, :10].astype(float))


def test_the_kernel_refuses_a_dtype_too_narrow_for_the_shoe_at_the_switch_points() -> None:
    def shoe(cards: int) -> list[list[int]]:
        return [[cards - 12] + [1] * 12]

    for cards, dtype in ((1004, np.int64), (458, np.float64), (10**30, object)):
        assert kernel.factor_tensor(shoe(cards), dtype).shape == (1, 12, 7)
    big = kernel.factor_tensor(shoe(10**30), object)[0, 1, 6]
    assert big == falling_factorial(10**30 - 12, 6) and isinstance(big, int)
    for cards, dtype in ((1005, np.int64), (459, np.float64)):
        with pytest.raises(ValueError, match="exact up to"):
            kernel.factor_tensor(shoe(cards), dtype)
        with pytest.raises(ValueError, match="exact up to"):
            kernel.factor_tensor(np.array(shoe(cards) * 40), dtype)
    with pytest.raises(ValueError, match="negative"):
        kernel.factor_tensor([[-1] + [4] * 12])


def test_the_pricer_cache_is_keyed_by_value() -> None:
    bets = tuple(b for b in xo.bet_catalog(xo.PUNTO_BANCO).values() if not b.needs_suits)[:3]
    first = compiled.pricer(STANDARD_TABLEAU, bets)
    again = tuple(dataclasses.replace(bet) for bet in bets)  # equal bets, other objects (as read again from a file)
    assert all(a == b and a is not b for a, b in zip(again, bets))
    assert compiled.pricer(STANDARD_TABLEAU, again) is first
    swapped = (bets[1], bets[0], bets[2])
    assert compiled.pricer(STANDARD_TABLEAU, swapped).counts(xo.Shoe.standard(8))[0] == first.counts(
        xo.Shoe.standard(8)
    )[1]
    tie = bets[2]
    other = dataclasses.replace(tie, outcomes=tuple(reversed(tie.outcomes)))  # same id, another pay table
    assert compiled.pricer(STANDARD_TABLEAU, (*bets[:2], other)) is not first


# --- the projection of the table over groups of states -----------------------------------------


def plain_projection(table: compiled.CompiledTableau, membership: np.ndarray) -> np.ndarray:
    """The table summed over groups in Python integers, coefficient by coefficient (the definition)."""
    out = np.zeros((table.row_count, membership.shape[1]), dtype=object)
    members = membership.astype(object)
    for row, col, coefficient in zip(table.rows.tolist(), table.cols.tolist(), table.coefficients.tolist()):
        out[row] += coefficient * members[col]
    return out


def int64_projection(table: compiled.CompiledTableau, membership: np.ndarray) -> np.ndarray:
    """The projection as it was first written: one int64 term per coefficient and group, summed by row."""
    out = np.zeros((table.row_count, membership.shape[1]), dtype=np.int64)
    contributions = table.coefficients.astype(np.int64)[:, None] * membership[table.cols].astype(np.int64)
    starts = np.flatnonzero(np.r_[True, table.rows[1:] != table.rows[:-1]])
    out[table.rows[starts]] = np.add.reduceat(contributions, starts, axis=0)
    return out


@examples(40)
@given(st.integers(1, 40), st.integers(0, 2**32 - 1), st.sampled_from([1, 1, 5, 40_000]))
def test_the_projection_equals_the_sum_over_states(groups: int, seed: int, top: int) -> None:
    """0/1 groups (float32 BLAS), small integer weights, and weights too big for float32 (float64)."""
    table = compiled.compiled(STANDARD_TABLEAU)
    membership = np.random.default_rng(seed).integers(-top if top > 1 else 0, top + 1, size=(len(table.states), groups))
    projected = table.project(membership)
    assert np.array_equal(projected, int64_projection(table, membership))
    used, matrix = table.project_rows(membership)
    assert np.array_equal(used, np.flatnonzero(np.any(projected != 0, axis=1)))
    assert np.array_equal(matrix, projected[used])


def test_the_projection_in_python_integers_and_its_special_cases() -> None:
    table = compiled.compiled(STANDARD_TABLEAU)
    states = len(table.states)
    rng = np.random.default_rng(5)
    membership = rng.integers(0, 2, size=(states, 3))
    assert np.array_equal(table.project(membership), plain_projection(table, membership).astype(np.int64))
    identity = table.project(np.eye(states, dtype=np.int64))  # one group per state: the table itself
    assert np.array_equal(identity[table.rows, table.cols], table.coefficients) and np.count_nonzero(identity) == len(
        table.rows
    )
    assert table.project(np.zeros((states, 2), dtype=np.int64)).shape == (table.row_count, 2)
    assert table.project_rows(np.zeros((states, 2), dtype=np.int64))[1].shape == (0, 2)
    with pytest.raises(ValueError, match="too wide"):
        table.project(np.full((states, 1), 2**45))
    with pytest.raises(ValueError, match="one row per state"):
        table.project(np.ones((states - 1, 1)))


@examples(30, 2)
@given(compositions, st.sampled_from(xo.RULE_SETS))
def test_every_bet_of_the_catalog_equals_the_reference(counts: list[int], rules: xo.RuleSet) -> None:
    """``--bet all`` (every bet the shoe can price) through the compiled pricer, against the reference walk."""
    shoe = xo.Shoe(tuple(counts))
    fast = xo.analyze(shoe, rules, ["all"], method="compiled")
    slow = xo.analyze(shoe, rules, ["all"], method="reference")
    assert len(fast.bets) >= 40
    assert [[o.count for o in b.outcomes] for b in fast.bets] == [[o.count for o in b.outcomes] for b in slow.bets]
