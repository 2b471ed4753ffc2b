"""The compiled kernel (kernel/flatkernel.c) against the flat table in Python integers, on every kind of test shoe.

Both paths are forced in turn (``FlatTable.evaluate(kernel=...)``; the kernel made unavailable),
so the Python path stays tested where the kernel is built, and the kernel is tested wherever it
is. CI builds it (``pip install .`` with a compiler) and sets ``EXACTODDS_REQUIRE_KERNEL=1``, so a
build that silently failed there fails here instead of skipping.
"""

from __future__ import annotations

import functools
import os
import random

import pytest
from profiles import is_slow

from exactodds.cards import Shoe, falling_factorial
from exactodds.errors import ExactOddsError
from exactodds.games import DEFAULT
from exactodds.puntobanco.compiled import native
from exactodds.puntobanco.compiled.flat import flat_counts, flat_pricer, shoe_counts
from exactodds.puntobanco.rules import RULE_SETS

needs_kernel = pytest.mark.skipif(not native.available(), reason="the compiled kernel was not built here")


def test_the_kernel_is_built_where_ci_requires_it() -> None:
    if os.environ.get("EXACTODDS_REQUIRE_KERNEL") == "1":
        assert native.available(), "pip install . did not build the compiled kernel (_exactodds_kernel)"


def test_the_kernel_s_bound_is_its_proof_and_no_more() -> None:
    """``fits`` is exactly the proof's two conditions, N^6 < 2^128 and 3·(N)_6 < 2^128 (``narrow``: the same with
    2^64): each boundary, found by bisection on those conditions written out here, is where it turns false."""
    low, high = 1, 10**7
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if mid**6 < 2**128 and 3 * falling_factorial(mid, 6) < 2**128 else (low, mid)
    assert native.fits(low) and not native.fits(low + 1) and 2_000_000 < low < 3_000_000
    low, high = 1, 10**4
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if mid**6 < 2**64 and 3 * falling_factorial(mid, 6) < 2**64 else (low, mid)
    assert native.narrow(low) and not native.narrow(low + 1) and low == 1356


def _shoes(rng: random.Random, count: int) -> list[Shoe]:
    """Shoes of every kind the kernel may meet: tiny and empty ranks, 1 to 8 decks depleted, the int64 boundary
    (1,004 and 1,005 cards), thousands of decks, and the largest the proof allows."""
    shoes = [Shoe((1,) * 13), Shoe((0,) * 12 + (6,)), Shoe((6,) + (0,) * 12)]
    shoes += [Shoe((2, 0, 3, 0, 0, 5, 0, 0, 1, 0, 0, 7, 0))]
    shoes += [Shoe((78,) * 12 + (68,)), Shoe((78,) * 12 + (69,)), Shoe.standard(10_000)]  # 1,004 and 1,005 cards
    shoes += [Shoe((104,) * 12 + (108,)), Shoe((104,) * 12 + (109,))]  # 1,356 and 1,357: the 64-bit words' last
    largest = max(n for n in range(2_100_000, 2_300_000, 13) if native.fits(n))
    shoes.append(Shoe((largest // 13,) * 13))
    for _ in range(count):
        decks = rng.choice([1, 2, 6, 8, 8, 8, 20, 100])
        shoes.append(Shoe(tuple(max(0, c - rng.randint(0, 3 * decks)) for c in Shoe.standard(decks).counts)))
    return shoes


@functools.cache
def _flat_bets(settings) -> tuple:
    """Every bet of the catalog that the flat table prices (those on coup states, by rank), in one tuple."""
    tableau = DEFAULT.rules(settings).tableau
    usable = []
    for bet in DEFAULT.resolve(("all",), settings, suits=False):
        try:
            flat_pricer(tableau, (bet,)).counts(Shoe.standard(1))
        except (ExactOddsError, ValueError):  # a bet on suits, or on the dealt cards: priced by another route
            continue
        usable.append(bet)
    return tuple(usable)


@needs_kernel
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_the_kernel_counts_what_python_integers_count(rules) -> None:
    """The core bets of every rule set (and, for the default rules, every bet the flat table takes) on every kind
    of shoe: the kernel's counts equal the flat table's sums in Python integers."""
    rng = random.Random(sum(map(ord, rules.name)))
    settings = DEFAULT.settings_for(rules, None)
    bet_sets = [DEFAULT.resolve(None, settings, suits=False)]
    if rules == DEFAULT.rules(DEFAULT.settings_of({})):
        bet_sets.append(_flat_bets(settings))
    for bets in bet_sets:
        table = flat_pricer(rules.tableau, bets).table
        for shoe in _shoes(rng, 30 if is_slow() else 2):
            assert table.evaluate(shoe.counts) == table.evaluate(shoe.counts, kernel=False), (rules.name, shoe)


@needs_kernel
def test_shoe_counts_are_the_same_with_and_without_the_kernel(monkeypatch) -> None:
    settings = DEFAULT.settings_of({})
    bets = DEFAULT.resolve(None, settings, suits=False)
    tableau = DEFAULT.rules(settings).tableau
    shoes = _shoes(random.Random(3), 4)
    with_kernel = [shoe_counts(tableau, bets, shoe) for shoe in shoes]
    monkeypatch.setattr(native, "_kernel", None)
    assert not native.available()
    assert [flat_counts(tableau, bets, shoe) for shoe in shoes] == with_kernel
    assert [shoe_counts(tableau, bets, shoe) for shoe in shoes] == with_kernel


@needs_kernel
def test_a_shoe_beyond_the_128_bit_proof_is_counted_by_residues_exactly() -> None:
    """Past 2,200,156 cards the kernel sums modulo primes below 2^62 and rebuilds each count by the CRT: equal to
    Python integers for 10^100 cards, counts either side of the primes (where a count's residue is replaced), tiny
    counts beside huge ones (the clips of c0 - 2 and c0 - 4), and one rank alone."""
    settings = DEFAULT.settings_of({})
    tableau = DEFAULT.rules(settings).tableau
    tables = [flat_pricer(tableau, bets).table for bets in (DEFAULT.resolve(None, settings, suits=False),
                                                            _flat_bets(settings))]  # the second has both pairs
    rng = random.Random(100)
    p = native.primes(1)[0]
    near = [0, 1, 2, 3, 4, 5, p - 1, p, p + 1, p + 7, 2 * p + 3, 10**30, 10**100 // 13]
    shoes = [Shoe((10**100 // 13,) * 13), Shoe((0,) * 12 + (10**50,)), Shoe((3_000_000,) * 13)]
    # Below 2^64 cards 2^128 is one of the moduli (Garner's first step in the kernel): with one prime, two, five,
    # and tiny counts beside huge ones; and 2^64 cards exactly, the first shoe without it.
    shoes += [Shoe((10**12,) * 13), Shoe((10**18 // 13,) * 13), Shoe((0, 1, 2, 3, 4, 5, 6, 7) + (10**17,) * 5)]
    shoes += [Shoe((2**64 - 12,) + (1,) * 12), Shoe((2**64 - 13,) + (1,) * 12), Shoe((0,) * 9 + (10**9,) * 4)]
    shoes += [Shoe(tuple(rng.choice(near) for _ in range(13))) for _ in range(40 if is_slow() else 3)]
    for table in tables:
        for shoe in shoes:
            if not native.fits(shoe.size):
                assert native.sums(table, shoe.counts) == table.evaluate(shoe.counts, kernel=False), shoe.counts


@needs_kernel
def test_the_128_bit_weights_from_the_factor_of_most_cards_are_exact_at_the_top_of_the_proof() -> None:
    """The 128-bit words multiply a row's two factors of fewer cards in 64 bits (each at most N^3 < 2^64) and then
    by the factor of the most cards: one-rank and two-rank shoes at the largest size the proof allows put every
    product's biggest entries in turn in the first, second and third outer products; each count equals Python's."""
    settings = DEFAULT.settings_of({})
    table = flat_pricer(DEFAULT.rules(settings).tableau, _flat_bets(settings)).table
    largest = native._largest(native.fits)
    shoes = [Shoe(tuple(largest if r == rank else 0 for r in range(13))) for rank in (0, 1, 3, 6, 9, 12)]
    shoes += [Shoe(tuple(largest // 2 if r in pair else 0 for r in range(13))) for pair in ((0, 12), (2, 7), (5, 8))]
    shoes += [Shoe((largest // 13 + 1,) + (largest // 13,) * 12), Shoe((1_357,) * 13)]
    for shoe in shoes:
        assert native.fits(shoe.size) and not native.narrow(shoe.size), shoe.counts
        assert native.sums(table, shoe.counts) == table.evaluate(shoe.counts, kernel=False), shoe.counts


def _switches(table) -> list[int]:
    """The shoe sizes where the residue kernel takes other moduli (the prime below 2^32, then one prime below 2^62
    more at each), from the first past the 128-bit proof up to 10^18 cards (by bisection on the plan the kernel is
    run by, as benchmarks/kernel.py finds them)."""
    native.packed(table)

    def primes_for(cards: int) -> float:
        chosen = native._plan(3 * native._SPREAD[table] * falling_factorial(cards, 6), cards < 1 << 64)[0]
        return 0.5 if chosen == (native.SMALL_PRIME,) else len(chosen)

    found, cards = [], native._largest(native.fits) + 1
    while cards <= 10**18:
        k, low, high = primes_for(cards), cards, 10**18 + 1
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (mid, high) if primes_for(mid) <= k else (low, mid)
        found.append(cards)
        cards = high
    return found


@needs_kernel
def test_the_residue_kernel_is_exact_either_side_of_each_prime_it_takes() -> None:
    """Either side of each switch of the residue kernel up to 10^18 cards (2^128 and 1 prime, 2, 3, 4, 5: walked
    together with 2^128 for up to 3 primes, the count rebuilt in C by Garner's mixed radix), even shoes and one-rank
    shoes, the counts equal Python's; and wrong inverses for Garner are refused."""
    settings = DEFAULT.settings_of({})
    table = flat_pricer(DEFAULT.rules(settings).tableau, _flat_bets(settings)).table
    sizes = _switches(table)
    assert len(sizes) >= 5
    for cards in sizes:
        for n in (cards - 1, cards):
            for shoe in (Shoe(tuple(n // 13 + (r < n % 13) for r in range(13))), Shoe((0,) * 12 + (n,))):
                assert native.sums(table, shoe.counts) == table.evaluate(shoe.counts, kernel=False), shoe.counts
    from array import array

    from exactodds.puntobanco.compiled.flat import FlatTable

    # Counts below zero (a negative coefficient): the residue nearest zero, with 2^128 among the moduli and without.
    index = (array("H", [0, 0]), array("H", [0, 0]), array("H", [0, 6]))  # the empty multiset; six cards of value 9
    tiny = FlatTable("k", index, (((-2, array("H", [0])),), ((-5, array("H", [1])), (3, array("H", [0])))))
    for counts in ([10**9] * 13, [3_000_000] * 13, [10**18] * 13, [0] * 8 + [2**64] + [0] * 4, [10**40] * 13):
        assert native.sums(tiny, counts) == tiny.evaluate(counts, kernel=False), counts
        assert native.sums(tiny, counts)[1] < -(10**30)
    chosen, moduli, inverses = native._plan(10**60, True)
    assert len(chosen) >= 2
    counts = array("Q", [10**9] * 13)
    reduced = array("Q", [c % p + p if c >= p else c for p in chosen for c in counts])
    wrong = bytearray(inverses)
    wrong[0] ^= 1
    with pytest.raises(ValueError, match="inverses"):
        native._residues(native.packed(table), reduced, moduli, counts, bytes(wrong))


@needs_kernel
def test_the_band_of_2_128_and_a_32_bit_prime_is_exact_at_its_edges() -> None:
    """From the first shoe past the 128-bit proof, 2^128 and the prime below 2^32 (20 bytes a row walked) while their
    product is above twice a count's bound, then 2^128 and a prime below 2^62: the counts equal Python's either side
    of both switches and of the weights' own (factors of at most 3 cards in 64 bits up to N^3 < 2^64), for one-rank,
    two-rank and even shoes, and counts below zero."""
    from array import array

    from exactodds.puntobanco.compiled.flat import FlatTable

    settings = DEFAULT.settings_of({})
    table = flat_pricer(DEFAULT.rules(settings).tableau, _flat_bets(settings)).table
    first, after = _switches(table)[:2]
    bound = 3 * native._SPREAD[table]
    assert first == native._largest(native.fits) + 1
    assert native._plan(bound * falling_factorial(first, 6), True)[0] == (native.SMALL_PRIME,)
    assert native._plan(bound * falling_factorial(after, 6), True)[0] != (native.SMALL_PRIME,)
    assert (1 << 128) * native.SMALL_PRIME > 2 * bound * falling_factorial(after - 1, 6)
    factors = 2_642_245  # the last N with N^3 < 2^64 (small_weights)
    assert factors**3 < 1 << 64 <= (factors + 1) ** 3 and first < factors < after
    shoes = []
    for n in (first, factors, factors + 1, after - 1):
        shoes += [Shoe(tuple(n // 13 + (r < n % 13) for r in range(13))), Shoe((0,) * 12 + (n,)),
                  Shoe((n,) + (0,) * 12), Shoe(tuple(n // 2 + n % 2 if r == 3 else n // 2 if r == 9 else 0
                                                     for r in range(13)))]
    assert all(first <= shoe.size < after for shoe in shoes) and after < native.SMALL_PRIME  # no count reduced
    for shoe in shoes:
        assert native.sums(table, shoe.counts) == table.evaluate(shoe.counts, kernel=False), shoe.counts
    index = (array("H", [0, 0]), array("H", [0, 0]), array("H", [0, 6]))  # the empty multiset; six cards of value 9
    tiny = FlatTable("k", index, (((-2, array("H", [0])),), ((-5, array("H", [1])), (3, array("H", [0])))))
    native.packed(tiny)
    for counts in ([200_000] * 13, [0] * 8 + [2_500_000] + [0] * 4):
        bound = 3 * native._SPREAD[tiny] * falling_factorial(sum(counts), 6)
        assert native._plan(bound, True)[0] == (native.SMALL_PRIME,)
        assert native.sums(tiny, counts) == tiny.evaluate(counts, kernel=False) and native.sums(tiny, counts)[1] < 0


@needs_kernel
def test_a_row_of_more_than_6_cards_is_refused_by_the_kernel() -> None:
    """The kernel's bounds hold for rows of at most 6 cards (a coup deals no more): prepare refuses any other."""
    from array import array

    words = native._words([[(1, array("H", [0]))]])
    seven = array("H", [7 * 7 * 7 * 7 - 1]).tobytes()  # m6..m9 all 6: 24 cards
    zero = array("H", [0]).tobytes()
    with pytest.raises(ValueError, match="more than 6 cards"):
        native._prepare(native._VALUE_OF, zero, zero, seven, words, 1)
    four_and_three = (array("H", [4]).tobytes(), array("H", [3]).tobytes())  # 4 cards and 3: 7
    with pytest.raises(ValueError, match="more than 6 cards"):
        native._prepare(native._VALUE_OF, *four_and_three, zero, words, 1)
    assert native._prepare(native._VALUE_OF, array("H", [4]).tobytes(), array("H", [2]).tobytes(), zero, words, 1)


def test_without_the_kernel_a_huge_shoe_is_counted_in_python_integers(monkeypatch) -> None:
    settings = DEFAULT.settings_of({})
    bets = DEFAULT.resolve(None, settings, suits=False)
    table = flat_pricer(DEFAULT.rules(settings).tableau, bets).table
    monkeypatch.setattr(native, "_kernel", None)
    monkeypatch.setattr(native, "_residues", None)
    huge = Shoe((10**7,) * 13)
    assert native.sums(table, huge.counts) is None and native.residue_sums(table, huge.counts) is None
    counts = table.evaluate(huge.counts)
    assert all(sum(counts[j] for j in bet) == huge.orderings()
               for bet in flat_pricer(DEFAULT.rules(settings).tableau, bets).layout)


@needs_kernel
def test_a_batch_s_rows_are_the_same_by_the_kernel_and_by_the_numpy_batch(monkeypatch) -> None:
    """``count_rows`` takes the kernel (two shoes a walk) where built, else the numpy batch: the same rows, for the
    catalog's bets on rank-only shoes from 6 cards to a million decks, and under every rule set."""
    shoes = [s.without_suits() if s.suits is not None else s for s in _shoes(random.Random(5), 20)]
    for rules in ("standard", "ez", "super-6"):
        settings = DEFAULT.settings_of({"rules": rules})
        bets = _flat_bets(settings)
        with_kernel = DEFAULT.count_rows(shoes, bets, settings)
        monkeypatch.setattr(native, "_kernel", None)
        assert DEFAULT.count_rows(shoes, bets, settings) == with_kernel, rules
        monkeypatch.undo()


def _batch_shoes(rng: random.Random, count: int) -> list[Shoe]:
    """Shoes the batched kernel takes (at most 1,356 cards): depleted 8-deck shoes, tiny shoes of 6 to 20 cards
    spread at random over the ranks, and the 64-bit words' last shoes (1,356 cards and just under)."""
    shoes = [Shoe((104,) * 12 + (108,)), Shoe((104,) * 12 + (107,)), Shoe((104,) * 13), Shoe((0,) * 12 + (1_356,))]
    for _ in range(count):
        tiny = [0] * 13
        for _ in range(rng.randint(6, 20)):
            tiny[rng.randrange(13)] += 1
        shoes.append(Shoe(tuple(tiny)))
        shoes.append(Shoe(tuple(max(0, c - rng.randint(0, 24)) for c in Shoe.standard(8).counts)))
    rng.shuffle(shoes)
    return shoes


@needs_kernel
def test_the_batched_kernel_counts_what_flat_sums_and_python_integers_count() -> None:
    """``flat_sums_many`` (two shoes a walk, the second lane zeros for an odd shoe out) equals ``flat_sums`` shoe by
    shoe and the Python integers, in order, for batches of every size up to 9 and none at all; and ``sums_many``
    sends a shoe past 1,356 cards to ``sums``, in its place."""
    from array import array

    settings = DEFAULT.settings_of({})
    rng = random.Random(7)
    shoes = _batch_shoes(rng, 40 if is_slow() else 12)
    for bets in (DEFAULT.resolve(None, settings, suits=False), _flat_bets(settings)):
        table = flat_pricer(DEFAULT.rules(settings).tableau, bets).table
        arguments = native.packed(table)
        python = [table.evaluate(shoe.counts, kernel=False) for shoe in shoes]
        assert [native._kernel(arguments, array("Q", s.counts), True) for s in shoes] == python
        assert native._many(arguments, array("Q", [c for s in shoes for c in s.counts])) == python
        for size in range(10):
            start = rng.randrange(len(shoes) - size)
            part = shoes[start : start + size]
            block = array("Q", [c for s in part for c in s.counts])
            assert native._many(arguments, block) == python[start : start + size], size
            assert native.sums_many(table, [s.counts for s in part]) == python[start : start + size], size
        mixed = shoes[:5] + [Shoe((104,) * 12 + (109,)), Shoe.standard(10_000)] + shoes[5:8]
        assert native.sums_many(table, [s.counts for s in mixed]) == [table.evaluate(s.counts, kernel=False)
                                                                      for s in mixed]
    with pytest.raises(ValueError, match="malformed counts"):
        native._many(arguments, array("Q", [1] * 14))


def test_flat_counts_many_counts_what_flat_counts_counts(monkeypatch) -> None:
    """Every shoe of a batch priced at once (narrow shoes in pairs by the kernel, the others alone) as it is priced
    alone, with the kernel and without it; an empty batch is empty."""
    from exactodds.puntobanco.compiled.flat import flat_counts_many

    settings = DEFAULT.settings_of({})
    bets = DEFAULT.resolve(None, settings, suits=False)
    tableau = DEFAULT.rules(settings).tableau
    shoes = _batch_shoes(random.Random(11), 6) + [Shoe((104,) * 12 + (109,)), Shoe.standard(20)]
    alone = [flat_counts(tableau, bets, shoe) for shoe in shoes]
    assert flat_counts_many(tableau, bets, shoes) == alone
    assert flat_counts_many(tableau, bets, shoes[:3]) == alone[:3] and flat_counts_many(tableau, bets, []) == []
    monkeypatch.setattr(native, "_kernel", None)
    assert flat_counts_many(tableau, bets, shoes) == alone


@pytest.mark.parametrize("which", ["default", "all"])
def test_a_batch_s_rows_are_each_shoe_s_counts_side_by_side(which) -> None:
    """``flat_rows_many`` (a batch's rows: every column taken at once, the Player's and Banker's pair columns walked
    once and put back in place) holds each shoe's counts of ``flat_counts``, bet after bet, with its orderings."""
    from exactodds.puntobanco.compiled.flat import flat_rows_many

    settings = DEFAULT.settings_of({})
    bets = DEFAULT.resolve(None if which == "default" else ["all"], settings, suits=False)
    bets = tuple(b for b in bets if not b.reads_cards)  # every bet on the coup's states (the others are walked)
    tableau = DEFAULT.rules(settings).tableau
    shoes = _batch_shoes(random.Random(12), 5) + [Shoe((104,) * 12 + (109,)), Shoe.standard(1)]
    want = [([c for bet in flat_counts(tableau, bets, shoe) for c in bet], shoe.orderings()) for shoe in shoes]
    assert flat_rows_many(tableau, bets, shoes) == want and flat_rows_many(tableau, bets, []) == []
    assert {len(row) for row, _ in want} == {sum(len(bet.outcomes) for bet in bets)}
