"""The compiled evaluator against the reference enumerator, exactly, on many shoes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples

import exactodds as xo
from exactodds import compiled
from exactodds.cards import falling_factorial
from exactodds.rules import EZ, STANDARD_TABLEAU, Tableau


def reference_counts(shoe: xo.Shoe, rules: xo.RuleSet) -> list[list[int]]:
    analysis = xo.analyze(shoe, rules, method="reference")
    return [[o.count for o in b.outcomes] for b in analysis.bets]


def fast_counts(shoe: xo.Shoe, rules: xo.RuleSet) -> list[list[int]]:
    analysis = xo.analyze(shoe, rules, method="compiled")
    return [[o.count for o in b.outcomes] for b in analysis.bets]


def full_distribution(shoe: xo.Shoe) -> dict[xo.CoupState, int]:
    return dict(compiled.coup_distribution(shoe, STANDARD_TABLEAU).counts)


compositions = st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


@examples(150)
@given(compositions)
def test_every_coup_state_count_equals_the_reference(counts: list[int]) -> None:
    shoe = xo.Shoe(tuple(counts))
    assert full_distribution(shoe) == dict(xo.enumerate_coups(shoe).counts)


@examples(60)
@given(compositions, st.sampled_from(xo.RULE_SETS))
def test_every_bet_of_every_rule_set_equals_the_reference(counts: list[int], rules: xo.RuleSet) -> None:
    shoe = xo.Shoe(tuple(counts))
    assert fast_counts(shoe, rules) == reference_counts(shoe, rules)


@pytest.mark.parametrize(
    "shoe",
    [
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
    ],
    ids=lambda s: f"{s.size}cards",
)
@pytest.mark.parametrize("rules", xo.RULE_SETS, ids=lambda r: r.name)
def test_edge_shoes_equal_the_reference(shoe: xo.Shoe, rules: xo.RuleSet) -> None:
    assert fast_counts(shoe, rules) == reference_counts(shoe, rules)


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
    for i in range(0, 300, 29):
        assert list(threaded[i]) == pricer.evaluator.counts(xo.Shoe(tuple(int(c) for c in rank_counts[i])))


def test_the_table_holds_every_six_card_value_multiset_and_the_reachable_states() -> None:
    table = compiled.compiled(STANDARD_TABLEAU)
    assert len(table.multisets) == 5005  # C(10 + 6 - 1, 6)
    assert set(table.multisets.sum(axis=1)) == {6}
    reachable = {tuple(s)[:6] for s in xo.enumerate_coups(xo.Shoe.standard(8)).counts}  # rank-level facts
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
        # The house rule (Banker 3 stands on a Player third-card 9) changes the figures.
        shoe = xo.Shoe.standard(8)
        rules = xo.RuleSet("house", "test", tableau=house)
        assert fast_counts(shoe, rules) == reference_counts(shoe, rules)
        assert fast_counts(shoe, rules) != fast_counts(shoe, xo.PUNTO_BANCO)
    finally:
        compiled.compiled.cache_clear()


def test_a_cache_for_another_tableau_under_the_same_name_is_ignored(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("EXACTODDS_CACHE", str(tmp_path))
    compiled.compiled.cache_clear()
    try:
        table = compiled.compiled(STANDARD_TABLEAU)
        path = tmp_path / f"compiled-{compiled.cache_key(STANDARD_TABLEAU)}.npz"
        other = Tableau(
            frozenset(range(5)), STANDARD_TABLEAU.banker_draws_when_player_stood, STANDARD_TABLEAU.banker_draws_against
        )
        compiled._save(path, compiled.build(other))  # a stale file under the standard name
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
