"""THE weights kernel: how many ways a shoe deals each six-card value multiset, exactly.

All orderings of the same multiset m of card values are equally likely, so the compiled
table (see :mod:`exactodds.puntobanco.compiled.table`) records per multiset how its orderings end, and
a shoe enters only through weights. For a shoe with c_v cards of value v, one ordering of
m is dealt in

    W(m) = prod_v (c_v)_(m_v),      (c)_k = c (c - 1) … (c - k + 1),

ways. Pairs need ranks, not values: value 0 holds four ranks (T, J, Q, K). With
P2 = Σ_r (c_r)_2 and P22 = Σ_{r≠s} (c_r)_2 (c_s)_2 + Σ_r (c_r)_4 over those four ranks
(:func:`exactodds.cards.pair_sums`), the orderings of m whose 1st and 3rd cards are 0-valued
cards of one rank number

    A(m) = P2 · (c_0 - 2)_(m_0 - 2) · prod_{v>0} (c_v)_(m_v),

and those whose 2nd and 4th cards pair in the same way as well B(m) = P22 · (c_0 - 4)_(m_0 - 4) · …
(choose the paired cards first, then deal the other 0-valued cards from those left).

So every weight is a product of one entry per value from the **factor tensor** of the
shoe (:func:`factor_tensor`): twelve rows of seven entries,

    rows 0-9:  (c_v)_0 … (c_v)_6                      (value v, any block)
    row 10:    0, 0, P2·(c_0 - 2)_0 … P2·(c_0 - 2)_4   (value 0 in the A block)
    row 11:    0, 0, 0, 0, P22·(c_0 - 4)_0 … P22·(c_0 - 4)_2  (value 0 in the B block)

and a row's weight is gathered from three outer products of factor rows (values 0-2 with
the block, 3-5, 6-9: :class:`RowWeights`). Every path (one shoe or many; int64, float64 or
Python integers; the compiled pricer and the counting lab) reads this one tensor, made from
the one falling row and the one pair-sum function of :mod:`exactodds.cards`.

Exactness. Every weight and every final count is at most (N)_6 for an N-card shoe. A
sequence of six values adds at most 1 W-unit, 4 A-units and 4 B-units in absolute value
(the coefficients of :func:`exactodds.puntobanco.compiled.table.build`), and A, B <= W, so every partial
sum of a dot product of weights with table coefficients is at most 9·(N)_6 in absolute value:

- **int64** is exact when 9·N^6 < 2^63, i.e. N <= 1,004 cards (19 decks): :func:`int64_is_exact`;
- **float64 limbs**: for N <= 458 (eight decks and anything smaller) (N)_6 < 2^53, so every
  weight is an integer that float64 holds exactly (:func:`float64_is_exact`). Each weight is
  split into a high and a low 26-bit limb and both dot products run in float64 BLAS, where
  every product and partial sum is an integer below 2^53: the low limb (< 2^26) times the
  largest column sum of |coefficients| is checked below 2^53 (:func:`limbs_are_exact`), and
  the high limb's sums are at most 9·(N)_6 / 2^26 < 2^37. The same limbs serve int64 weights
  of shoes up to 1,004 cards (:func:`limb_dot`);
- **residues** modulo three to six primes below 2^31, rebuilt by the Chinese remainder
  theorem, from 1,005 to 1,326,532,119 cards: int64 throughout, exact when
  18·N^6 < (product of the primes) (:mod:`exactodds.puntobanco.compiled.modular`, with its proof);
- **Python integers** (numpy object arrays) beyond that, exact at any size.

(Outer-product entries whose multiplicities add up to more than six may wrap around in
int64; they belong to no multiset and are never gathered.)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ...cards import RANK_VALUES, Shoe, falling_factorial, falling_row
from .factors import DRAW, row_offsets
from .factors import factor_rows as _factor_rows

#: Rows of a factor tensor: values 0-9, then value 0's rows for the A and B blocks.
FACTOR_ROWS = 12
#: The blocks of a compiled table: W (any ranks), A (Player cards pair by rank), B (both pair).
BLOCKS = 3
INT64_LIMIT = 2**63 - 1
LIMB_BITS = 26
LIMB = 1 << LIMB_BITS
#: Below this many shoes the factor rows are made one shoe at a time in Python numbers,
#: which beats the per-call overhead of numpy; from it on, whole columns of shoes at once.
_COLUMNS_FROM = 32
#: The factor row of value 0 in each block (W, A, B).
_BLOCK_ROWS = [0, 10, 11]


def int64_is_exact(cards: int) -> bool:
    """Whether the int64 path is proved exact for an N-card shoe (9·N^6 < 2^63).

    >>> int64_is_exact(416), int64_is_exact(1004), int64_is_exact(1005)
    (True, True, False)
    """
    return bool(9 * cards**DRAW <= INT64_LIMIT)


def float64_is_exact(cards: int) -> bool:
    """Whether float64 holds every weight of an N-card shoe exactly ((N)_6 < 2^53).

    >>> float64_is_exact(416), float64_is_exact(458), float64_is_exact(459)
    (True, True, False)
    """
    return falling_factorial(cards, DRAW) < 2**53


def _largest(exact: Any) -> int:
    n = DRAW
    while exact(n + 1):
        n += 1
    return n


#: The largest shoe whose weights each dtype holds exactly, by the bounds above (object: any size).
_EXACT_UP_TO: dict[np.dtype[Any], int | None] = {
    np.dtype(np.int64): _largest(int64_is_exact),  # 1,004 cards
    np.dtype(np.float64): _largest(float64_is_exact),  # 458 cards
    np.dtype(object): None,
}


def _check(sizes: Sequence[int], dtype: Any) -> None:
    """Refuse negative counts, and shoes too big for ``dtype`` to hold their weights exactly."""
    kind = np.dtype(dtype)
    if kind not in _EXACT_UP_TO:
        raise ValueError(f"weights are made in int64, float64 or object (Python integers), not {kind}")
    if min(sizes, default=0) < 0:
        raise ValueError("card counts cannot be negative")
    limit = _EXACT_UP_TO[kind]
    if limit is not None and max(sizes, default=0) > limit:
        raise ValueError(f"{kind} weights are exact up to {limit:,} cards, not {max(sizes):,}: use a wider dtype")


def _column_sizes(columns: np.ndarray) -> list[int]:
    """The smallest count and the biggest shoe size of an (n × 13) array, without int64 overflow."""
    if columns.dtype == object or not columns.size:
        return [min(columns.flat, default=0), max(columns.sum(axis=1), default=0)]
    low, high = int(columns.min()), int(columns.max())
    # A count beyond 10^6 already makes the shoe too big for int64 and float64 alike; summing it could wrap.
    return [low, high if high > 10**6 else int(columns.sum(axis=1).max())]


def factor_tensor(rank_counts: Any, dtype: Any = np.int64) -> np.ndarray:
    """The factor tensor (n shoes × 12 rows × 7 multiplicities) of shoes given by 13 counts by rank each.

    ``dtype`` is ``np.int64`` (shoes of at most 1,004 cards), ``np.float64`` (at most 458)
    or ``object`` (Python integers, any size); a shoe too big for it is refused.

    >>> f = factor_tensor([[4] * 13], np.float64)
    >>> f.shape, f[0, 7, :3].tolist(), f[0, 10, :4].tolist()
    ((1, 12, 7), [1.0, 4.0, 12.0], [0.0, 0.0, 48.0, 672.0])
    """
    if isinstance(rank_counts, np.ndarray) and rank_counts.ndim == 2 and len(rank_counts) >= _COLUMNS_FROM:
        if rank_counts.shape[1] != len(RANK_VALUES):
            raise ValueError(f"every shoe needs {len(RANK_VALUES)} counts by rank")
        _check(_column_sizes(rank_counts), dtype)
        columns = np.asarray(rank_counts, dtype=dtype)
        rows = np.array(_factor_rows(list(columns.T)), dtype=dtype)  # (12, 7, n)
        return _no_negative_zeros(np.ascontiguousarray(np.moveaxis(rows, -1, 0)))
    shoes = [list(map(int, shoe)) for shoe in rank_counts]
    if any(len(shoe) != len(RANK_VALUES) for shoe in shoes):
        raise ValueError(f"every shoe needs {len(RANK_VALUES)} counts by rank")
    _check([min(min(shoe) for shoe in shoes), max(sum(shoe) for shoe in shoes)] if shoes else [], dtype)
    out = np.array([_factor_rows(shoe) for shoe in shoes], dtype=dtype)  # Python integers, then one conversion
    return out.reshape(len(shoes), FACTOR_ROWS, DRAW + 1)


def _no_negative_zeros(a: np.ndarray) -> np.ndarray:
    """Turn the -0.0 of float rows (0 · (c - j) past c) into 0.0; integers have no such thing."""
    if a.dtype == np.float64:
        a += 0.0
    return a


def factor_table(shoe: Shoe) -> list[list[int]]:
    """One shoe's factor tensor in Python integers: by row (values 0-9; value 0 in blocks A, B) and multiplicity.

    >>> factor_table(Shoe.standard(1))[7][:3], factor_table(Shoe.standard(1))[10][:4]
    ([1, 4, 12], [0, 0, 48, 672])
    """
    rows: list[list[int]] = factor_tensor([shoe.counts], object)[0].tolist()
    return rows


def falling_rows(counts: Any, dtype: Any = np.int64) -> np.ndarray:
    """[(c)_0 … (c)_6] for every entry c of an array of counts: shape ``counts.shape + (7,)``.

    The per-value part of the factor tensor for shoes known by value only (the lab's value kernel).

    >>> falling_rows([[4, 0]], np.float64)[0].tolist()
    [[1.0, 4.0, 12.0, 24.0, 24.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]
    """
    c = np.asarray(counts)
    if c.dtype == object:
        _check([min(c.flat, default=0), max(c.flat, default=0)], dtype)
    else:  # a single count is at most its shoe's size, so the size bounds hold for it too
        _check([int(c.min()), int(c.max())] if c.size else [], dtype)
    return _no_negative_zeros(np.stack(falling_row(c.astype(dtype), DRAW), axis=-1))


class RowWeights:
    """The weights of chosen rows of a compiled table, for many shoes at once.

    Row i is multiset ``multisets[i]`` in block ``blocks[i]`` (0 W, 1 A, 2 B); calling it on
    a factor tensor (n × 12 × 7) gives the (n × rows) weights in the tensor's dtype.

    >>> rows = RowWeights(np.array([0, 1]), np.array([[2, 0, 0, 0, 0, 0, 0, 4, 0, 0]] * 2))
    >>> rows(factor_tensor([[4] * 13])).tolist()  # (16)_2 · (4)_4, then P2 · (14)_0 · (4)_4
    [[5760, 1152]]
    """

    def __init__(self, blocks: np.ndarray, multisets: np.ndarray) -> None:
        m = np.asarray(multisets, dtype=np.int64)
        # Flat indices into the three outer products: (block, m0, m1, m2), (m3, m4, m5), (m6, m7, m8, m9).
        self.index = row_offsets(np.asarray(blocks, dtype=np.int64), m.T)

    def __len__(self) -> int:
        return len(self.index[0])

    def __call__(self, factors: np.ndarray) -> np.ndarray:
        if len(factors) == 1:
            return self._gather(factors[0])[None]
        # Shoes last (and contiguous): every gather below then copies runs of n weights.
        return self._gather(np.ascontiguousarray(np.moveaxis(factors, 0, -1))).T

    def residues(self, factors: np.ndarray, moduli: np.ndarray) -> np.ndarray:
        """The rows' weights modulo each of ``moduli`` (rows × k), from one shoe's factor residues (12 × 7 × k).

        ``factors[..., i]`` holds the factor tensor reduced modulo ``moduli[i]`` (int64, in
        [0, moduli[i])); every modulus is below 2^31, so each product of two residues is
        below 2^62 and is reduced before the next (:mod:`exactodds.puntobanco.compiled.modular`).

        >>> rows = RowWeights(np.array([0]), np.array([[2, 0, 0, 0, 0, 0, 0, 4, 0, 0]]))
        >>> f = factor_tensor([[4] * 13], object)[0]
        >>> rows.residues(np.stack([f % 7, f % 11], axis=-1).astype(np.int64), np.array([7, 11])).tolist()
        [[6, 7]]
        >>> 5760 % 7, 5760 % 11  # (16)_2 · (4)_4 = 5760
        (6, 7)
        """
        return self._gather(factors, moduli)

    def _gather(self, f: np.ndarray, modulus: np.ndarray | None = None) -> np.ndarray:
        """The rows' weights (rows × …) from factors (12 × 7 × …): one shoe, or shoes along the last axis.

        With ``modulus`` (broadcast along the last axis) every product is reduced modulo it.
        """

        def times(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            product: np.ndarray = a * b if modulus is None else a * b % modulus
            return product

        tail = f.shape[2:]
        zero = f[_BLOCK_ROWS]  # (3, 7, …): value 0's factor in blocks W, A, B
        first = times(times(zero[:, :, None, None, ...], f[1][:, None, ...]), f[2])
        second = times(times(f[3][:, None, None, ...], f[4][:, None, ...]), f[5])
        third = times(times(times(f[6][:, None, None, None, ...], f[7][:, None, None, ...]), f[8][:, None, ...]), f[9])
        w: np.ndarray = np.take(first.reshape(-1, *tail), self.index[0], axis=0)
        if modulus is not None:
            w = times(w, np.take(second.reshape(-1, *tail), self.index[1], axis=0))
            return times(w, np.take(third.reshape(-1, *tail), self.index[2], axis=0))
        w *= np.take(second.reshape(-1, *tail), self.index[1], axis=0)
        w *= np.take(third.reshape(-1, *tail), self.index[2], axis=0)
        return w


def weights(rank_counts: Any, multisets: np.ndarray, dtype: Any = np.int64) -> np.ndarray:
    """The weight of every row of a compiled table (blocks W, A, B of ``multisets``) for many shoes.

    Returns an (n × 3·len(multisets)) array: column ``block · len(multisets) + i`` is the
    weight of multiset i in that block, the numbering of the table's rows.

    >>> from exactodds.puntobanco.compiled import compiled
    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
    >>> table = compiled(STANDARD_TABLEAU)
    >>> from math import factorial, prod
    >>> w = weights([[32] * 13], table.multisets)
    >>> orderings = [720 // prod(factorial(int(k)) for k in m) for m in table.multisets]  # 6! / prod m_v!
    >>> w.shape, int(w[0, :5005] @ orderings) == falling_factorial(416, 6)  # every ordered draw once
    ((1, 15015), True)
    """
    multisets = np.asarray(multisets)
    rows = np.arange(BLOCKS * len(multisets))
    block, multiset = np.divmod(rows, len(multisets))
    return RowWeights(block, multisets[multiset])(factor_tensor(rank_counts, dtype))


def limbs_are_exact(matrix: np.ndarray) -> bool:
    """Whether :func:`limb_dot` is exact with this coefficient matrix (low limb × largest |column| sum < 2^53)."""
    column_sum = int(np.abs(matrix).sum(axis=0).max()) if matrix.size else 0
    return column_sum * LIMB < 2**53


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers in glibc's malloc.h


@lru_cache(maxsize=1)
def keep_temporaries_on_the_heap() -> bool:
    """Let glibc serve the batch kernel's temporaries from its heap; True where that was set (Linux, glibc).

    Each chunk of shoes makes temporaries of a few MB (the gathered weights, the limbs of
    the product). glibc's malloc serves blocks above its mmap threshold (128 kB until a
    freed mapping raises it) with fresh mappings, whose pages the kernel zero-fills on
    first touch: measured, that made the gather and the product of a chunk some four to
    seven times slower, depending on what the process had allocated and freed before.
    Raising the mmap threshold to 64 MB and the trim threshold to 128 MB keeps such blocks
    on the heap, reused from chunk to chunk; the numbers themselves are unchanged.

    >>> keep_temporaries_on_the_heap() in (True, False)
    True
    """
    import ctypes

    try:
        # The process's own symbols, libc's among them: no search (ctypes.util.find_library runs
        # ldconfig in a subprocess, some 5 ms, a fifth of pricing 200 shoes).
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # not glibc (macOS, Windows, musl without mallopt): nothing to do
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, 64 << 20)) and bool(mallopt(_M_TRIM_THRESHOLD, 128 << 20))


def limb_dot(w: np.ndarray, matrix_float: np.ndarray) -> np.ndarray:
    """The exact int64 product ``w @ matrix`` by two float64 (BLAS) products of 26-bit limbs.

    ``w`` holds weights of shoes within :func:`int64_is_exact` (int64, or float64 within
    :func:`float64_is_exact`); ``matrix_float`` is the coefficient matrix as float64,
    with :func:`limbs_are_exact`.

    >>> limb_dot(np.array([[2**40 + 3]]), np.array([[5.0]])).tolist() == [[5 * (2**40 + 3)]]
    True
    """
    wt = w.T  # (rows × n): contiguous when the weights come from RowWeights (shoes last)
    if wt.dtype == np.float64:
        high = np.floor(wt * (1.0 / LIMB))
        wt = wt - high * LIMB  # the low limb
    else:
        high = (wt >> LIMB_BITS).astype(np.float64)
        wt = (wt & (LIMB - 1)).astype(np.float64)
    by_group = matrix_float.T
    counts: np.ndarray = (np.rint(by_group @ high).astype(np.int64) * LIMB + np.rint(by_group @ wt).astype(np.int64)).T
    return counts
