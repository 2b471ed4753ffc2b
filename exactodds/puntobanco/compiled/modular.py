"""Exact counts of huge shoes by multi-modular arithmetic: int64 residues modulo a few primes, rebuilt by the CRT.

Past 1,004 cards a count may not fit int64 (:func:`~exactodds.puntobanco.compiled.kernel.int64_is_exact`),
and Python integers cost some 40 times the int64 path. So each count X of a group of
states is computed modulo k primes p_1 … p_k below 2^31 (:data:`PRIMES`), all in int64,
and rebuilt from its residues by the Chinese remainder theorem, exactly:

1. **Residues of the weights.** The shoe's factor tensor is made in Python integers
   (:func:`~exactodds.puntobanco.compiled.kernel.factor_tensor`, exact at any size) and reduced
   modulo each p into [0, p). A row's weight is a product of five factors (value 0 in its
   block, then values 1-9); every product of two residues is below p^2 < 2^62 < 2^63 and
   is reduced modulo p before the next (:meth:`RowWeights.residues`), so each weight's
   residue w_r is exact, in [0, p).
2. **The dot product.** Σ_r w_r·c_rg, with c the evaluator's integer coefficients, in
   int64 (numpy's einsum, no BLAS: a multi-threaded BLAS call this small can wait on a
   busy machine): every term and partial sum is below 2^31·S in absolute value, S the
   largest column sum of |c|, which :func:`~exactodds.puntobanco.compiled.kernel.limbs_are_exact`
   holds below 2^27 for every evaluator, so below 2^58 < 2^63; the sum is then reduced
   modulo p.
3. **Reconstruction.** The true count satisfies |X| <= 9·(N)_6 <= 9·N^6 for an N-card shoe
   (the bound of the kernel's docstring: a sequence adds at most 9 units, and the
   weights of all the sequences sum to (N)_6). The CRT gives the one X' in (-M/2, M/2]
   with X' ≡ X modulo M = p_1 ⋯ p_k, so X' = X whenever 9·N^6 < M/2, i.e. **18·N^6 < M**.
   :func:`primes_needed` takes the fewest primes for which that holds.

Switch points, from that bound (the largest shoe for each number of primes; tested):

========  =====================  ===================
primes    shoes up to (cards)    that is, decks
========  =====================  ===================
2         796                    (the int64 path covers 1,004)
3         28,625                 550
4         1,028,192              19,772
5         36,931,430             710,219
6         1,326,532,119          25,510,233
========  =====================  ===================

So one shoe is priced in int64 up to 1,004 cards, with three primes from 1,005 to
28,625, with four up to 1,028,192 (every shoe up to 10,000 decks, 520,000 cards), with
five or six beyond, and in Python integers past 1,326,532,119 cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import prod

import numpy as np

from .kernel import RowWeights, factor_tensor

#: The six largest primes below 2^31: residues below them multiply in int64 without overflow.
PRIMES = (2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549)
_MODULI = np.array(PRIMES, dtype=np.int64)


def primes_needed(cards: int) -> int | None:
    """The fewest of :data:`PRIMES` whose product M exceeds 18·N^6 for an N-card shoe, or ``None`` past all six.

    >>> primes_needed(1005), primes_needed(28_625), primes_needed(28_626), primes_needed(520_000)
    (3, 3, 4, 4)
    >>> primes_needed(1_326_532_119), primes_needed(1_326_532_120)
    (6, None)
    """
    bound = 18 * cards**6
    for k in range(1, len(PRIMES) + 1):
        if bound < _modulus(k):
            return k
    return None


@cache
def _modulus(k: int) -> int:
    return prod(PRIMES[:k])


@cache
def _basis(k: int) -> tuple[int, ...]:
    """e_i ≡ 1 (mod p_i) and ≡ 0 (mod the other primes): X ≡ Σ r_i·e_i (mod M)."""
    m = _modulus(k)
    return tuple((m // p) * pow(m // p, -1, p) for p in PRIMES[:k])


def reconstruct(residues: np.ndarray) -> list[int]:
    """The integers in (-M/2, M/2] with these residues modulo the first k primes: one row of k residues each.

    >>> x = [10**30, -(10**30), 0, 7]
    >>> reconstruct(np.array([[v % p for p in PRIMES[:4]] for v in x])) == x
    True
    """
    rows = np.asarray(residues)
    k = rows.shape[1]
    basis, m = _basis(k), _modulus(k)
    half = m // 2
    out = []
    for row in rows.tolist():
        x = sum(r * e for r, e in zip(row, basis)) % m
        out.append(x - m if x > half else x)
    return out


def residue_factors(rank_counts: Sequence[int], k: int) -> np.ndarray:
    """One shoe's factor tensor modulo each of the first k primes: (12 × 7 × k) int64, in [0, p).

    >>> f = residue_factors([10**6] * 13, 2)
    >>> from exactodds.cards import falling_factorial
    >>> f.shape, int(f[1, 6, 0]) == falling_factorial(10**6, 6) % PRIMES[0]  # (c_1)_6 modulo the first prime
    ((12, 7, 2), True)
    """
    exact = factor_tensor([rank_counts], object)[0]  # Python integers: exact at any size
    return np.stack([(exact % p).astype(np.int64) for p in PRIMES[:k]], axis=-1)


def counts(rows: RowWeights, matrix_t: np.ndarray, rank_counts: Sequence[int], k: int) -> list[int]:
    """The exact counts ``weights @ matrix`` of one shoe through k primes (valid when :func:`primes_needed` allows k).

    ``rows`` are the matrix's rows, ``matrix_t`` its integer coefficients transposed (groups
    × rows, int64) with :func:`~exactodds.puntobanco.compiled.kernel.limbs_are_exact` (see the module docstring).

    >>> from exactodds.cards import Shoe
    >>> from exactodds.puntobanco.compiled import compiled
    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
    >>> table = compiled(STANDARD_TABLEAU)
    >>> used, matrix = table.project_rows(np.ones((len(table.states), 1), dtype=np.int64))
    >>> block, multiset = np.divmod(used, len(table.multisets))
    >>> rows = RowWeights(block, table.multisets[multiset])
    >>> shoe = Shoe.standard(10_000)
    >>> counts(rows, np.ascontiguousarray(matrix.T), shoe.counts, primes_needed(shoe.size)) == [shoe.orderings()]
    True
    """
    moduli = _MODULI[:k]
    w = np.ascontiguousarray(rows.residues(residue_factors(rank_counts, k), moduli).T)  # k × rows, in [0, p)
    sums = np.einsum("kr,gr->kg", w, matrix_t)  # exact in int64 (step 2)
    return reconstruct((sums % moduli[:, None]).T)
