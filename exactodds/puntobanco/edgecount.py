"""The exact sums behind edge sorting, per High/Low state and per split of the kinds, in int64 limbs for any shoe.

Cards are grouped into *kinds* (a baccarat value, with a class when the ten-valued ranks
are split); a sequence k = (k_1 … k_6) of six kinds is dealt in W(k) = Π_kind (c)_(m)
orderings, c the kind's cards and m how many of the six are of it, so W depends only on
the multiset of k. Each *row* r has one integer coefficient a_r(e) per entry e of the deal
table (1 for the orderings; a bet's net win times its scale), and the sums wanted are,
for each split of the kinds into Low and High (a set H of kinds) and each state s (the
classes of the first ``cards`` positions),

    G_r(H, s) = Σ over k whose first cards fall in the classes s of  W(k) · a_r(end(k)).

How, for all splits at once. The sums X_r[k_1 … k_c] over the last 6 − c positions are
padded on each axis with a "total" entry (the axis summed). An entry of the padded tensor
is a set A of positions holding a kind (the rest are totals) and the set U of kinds held
there; summing the entries by (A, U) and then, over U, by subsets (the zeta transform)
gives T_r(A, H): the sequences whose positions in A hold kinds of H, for every H. A state
is then one Möbius step per position (Low = total − High). The work per row is one pass
over the (n + 1)^c padded entries, whatever the number of splits (511 for ``--best-sort``).
A single split is cheaper summed directly, its Low kinds and its High kinds, axis by axis.

Exactness, for any shoe, in int64 (an overflow would wrap around unseen: the bounds rule it
out). Every number formed from a row's X, partial sums included (a tail sum, a padded
total, a grouped, zeta, Möbius or class sum), is the sum of X over some *set* of
sequences: each step adds disjoint parts or takes High from its total. So it is at most
Σ_k |X(k)| in absolute value. The weights W(m), one Python integer per multiset, are cut
into limbs of L bits, W = Σ_i l_i · 2^(L·i), and the sums are formed limb by limb (the
rows are linear in W), then put together exactly in Python integers. With A = max |a_r|
and n kinds (n^6 sequences):

- a limb below the top has 0 <= l_i < 2^L, so its sums are at most A·(2^L − 1)·n^6;
  :func:`limb_width` takes the largest L with A·(2^L − 1)·n^6 <= 2^63 − 1;
- the top limb t − 1 has l <= W / 2^(L·(t−1)), and Σ_k W(k) = (N)_6 (each ordered draw is
  one sequence), so its sums are at most A·(N)_6 / 2^(L·(t−1)); :func:`limbs_needed` takes
  the fewest limbs t with A·(N)_6 <= (2^63 − 1)·2^(L·(t−1)).

With t = 1 this is the plain int64 bound A·(N)_6 < 2^63. For the default bets (A = 20,
the Banker's 19/20 at scale 20) and ten kinds, L = 38: one limb up to 881 cards (16
decks), two up to 70,878 cards (1,363 decks), three up to 5,715,094 cards, and so
on, each limb costing one more pass. Only a coefficient so large that not even a one-bit
limb fits (A·n^6 >= 2^63, pays whose fractions run to trillions) leaves int64: then the
sums run on Python integers, by the same steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, reduce
from math import prod
from typing import Any

import numpy as np

from ..cards import falling_factorial
from .rules import deal_index

#: The largest int64.
INT64_MAX = 2**63 - 1
#: Six cards decide a coup.
_DRAW = 6
#: Multiplicities 0-6 of a kind in a sequence are the digits of its multiset's code.
_BASE = _DRAW + 1

#: ``progress(done, total)``: called after each pass over the sequences.
Progress = Callable[[int, int], None]


def limb_width(kinds: int, coefficient: int) -> int:
    """The largest L with coefficient·(2^L − 1)·kinds^6 <= 2^63 − 1 (0: not even one bit fits in int64).

    >>> limb_width(10, 20), limb_width(11, 20), limb_width(10, 2**44)
    (38, 37, 0)
    """
    room: int = INT64_MAX // (max(1, coefficient) * pow(kinds, _DRAW))
    return (room + 1).bit_length() - 1


def limbs_needed(total: int, width: int) -> int:
    """The fewest limbs t of ``width`` bits with total <= (2^63 − 1)·2^(width·(t−1)); total = A·(N)_6.

    >>> limbs_needed(20 * falling_factorial(881, 6), 38), limbs_needed(20 * falling_factorial(882, 6), 38)
    (1, 2)
    >>> limbs_needed(20 * falling_factorial(70_878, 6), 38), limbs_needed(20 * falling_factorial(70_879, 6), 38)
    (2, 3)
    """
    if width < 1:
        raise ValueError("limbs hold at least one bit")
    limbs = 1
    while total > INT64_MAX << (width * (limbs - 1)):
        limbs += 1
    return limbs


@dataclass(frozen=True)
class _Walk:
    """The six-kind sequences of n kinds, by the shoe-free facts: multiset and end of the deal."""

    #: The multiplicity of each kind in each multiset met.
    multisets: tuple[tuple[int, ...], ...]
    #: Per sequence (first kind slowest): its multiset's index, and its entry of the deal table.
    multiset: np.ndarray
    ending: np.ndarray


@lru_cache(maxsize=2)
def _walk(values: tuple[int, ...]) -> _Walk:
    """Every sequence of six kinds (of these values) by its multiset (multiplicities as base-7 digits) and coup end."""
    n = len(values)
    code = reduce(np.add.outer, [_BASE ** np.arange(n, dtype=np.int64)] * _DRAW).reshape(-1)
    codes, multiset = np.unique(code, return_inverse=True)
    multisets = tuple(tuple((c // _BASE**k) % _BASE for k in range(n)) for c in codes.tolist())
    v = np.array(values, dtype=np.int16)
    pair = np.add.outer(v, v) % 10  # a hand's two-card total: positions 1 and 3 (Player), 2 and 4 (Banker)
    ending = deal_index(pair.reshape(n, 1, n, 1, 1, 1), pair.reshape(1, n, 1, n, 1, 1),
                        v.reshape(1, 1, 1, 1, n, 1), v.reshape(1, 1, 1, 1, 1, n))
    return _Walk(multisets, multiset.reshape(-1).astype(np.int32), ending.astype(np.int16).reshape(-1))


@dataclass(frozen=True)
class _Keys:
    """How the padded tensor of ``cards`` axes over n kinds (+ a total) is summed by (positions held, kinds held)."""

    order: np.ndarray  # the padded entries, sorted by key
    starts: np.ndarray  # where each key's run begins in that order
    keys: np.ndarray  # the key of each run: A · 2^n + U (position 0 and kind 0 are the highest bits)


@lru_cache(maxsize=2)
def _keys(kinds: int, cards: int) -> _Keys:
    """The key of each entry of the padded tensor, and the entries sorted by it, for one sum by key per row."""
    # Entry k of an axis holds kind k (a bit for the position, a bit for the kind); entry n, the total, holds nothing.
    per_axis = [
        np.array([(1 << (kinds + cards - 1 - j)) | (1 << (kinds - 1 - k)) for k in range(kinds)] + [0], dtype=np.int32)
        for j in range(cards)
    ]
    key = reduce(np.bitwise_or.outer, per_axis).reshape(-1)
    order = np.argsort(key).astype(np.int32)  # at most 12^6 entries
    ordered = key[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    return _Keys(order, starts, ordered[starts])


def _by_held(x: Any, keys: _Keys, kinds: int, cards: int) -> Any:
    """Pad each axis of ``x`` with its total (entry n), then sum the entries by (positions held, kinds held)."""
    padded = np.empty((kinds + 1,) * cards, dtype=x.dtype)
    padded[(slice(kinds),) * cards] = x
    for axis in range(cards):
        # Axes before this one are padded already: their totals are summed along this axis too.
        head: tuple[Any, ...] = (slice(None),) * axis
        tail: tuple[Any, ...] = (slice(kinds),) * (cards - 1 - axis)
        padded[(*head, kinds, *tail)] = padded[(*head, slice(kinds), *tail)].sum(axis=axis)
    out = np.zeros(2 ** (cards + kinds), dtype=x.dtype)
    out[keys.keys] = np.add.reduceat(padded.reshape(-1)[keys.order], keys.starts)
    return out


def _read_splits(grouped: Any, splits: Sequence[Sequence[bool]], kinds: int, cards: int) -> Any:
    """From the sums by (positions held, kinds held), each split's sums by state: zeta over U, pick H, then Möbius."""
    sums = grouped.reshape(grouped.shape[:-1] + (2**cards,) + (2,) * kinds)
    lead = sums.ndim - kinds
    for axis in range(kinds):  # a kind's axis is (without it, with it): after this, "U ⊆ H" sums
        sums[(slice(None),) * (lead + axis) + (1,)] += sums[(slice(None),) * (lead + axis) + (0,)]
    chosen = [sum(int(h) << (kinds - 1 - k) for k, h in enumerate(split)) for split in splits]
    sums = sums.reshape(grouped.shape[:-1] + (2**cards, 2**kinds))[..., chosen]
    sums = sums.reshape(grouped.shape[:-1] + (2,) * cards + (len(chosen),))
    for axis in range(lead - 1, lead - 1 + cards):  # a position's axis is (total, High): Low = total − High
        total, high = np.split(sums, 2, axis=axis)
        sums = np.concatenate([total - high, high], axis=axis)
    return sums


def _by_class(x: Any, splits: Sequence[Sequence[bool]], cards: int) -> Any:
    """Each split's sums by state, one position at a time: (2, …, 2, splits), Low first on each axis."""
    out = []
    for split in splits:
        high = np.array(split, dtype=bool)
        part = x
        for axis in range(cards):
            low_sum = part.compress(~high, axis=axis).sum(axis=axis, keepdims=True)
            part = np.concatenate([low_sum, part.compress(high, axis=axis).sum(axis=axis, keepdims=True)], axis=axis)
        out.append(part)
    return np.stack(out, axis=-1)


def split_sums(
    counts: Sequence[int],
    values: Sequence[int],
    cards: int,
    coefficients: Sequence[Sequence[int]],
    splits: Sequence[Sequence[bool]],
    progress: Progress | None = None,
) -> Any:
    """G_r(H, s) of the module docstring, exactly: an object array (rows, 2, …, 2, splits) of Python integers.

    ``counts`` and ``values`` give each kind's cards and baccarat value, ``coefficients``
    each row's integer per deal-table entry, ``splits`` the High kinds of each split; a
    state's axis is 0 for Low, 1 for High, position 1 first. One split is grouped by its
    classes directly (cheaper than the keyed pass, which pays off from a few splits on).

    >>> g = split_sums([4, 4], [1, 2], 1, [[1] * 10_000], [[False, True]])
    >>> g.shape, [int(x) for x in g[0, :, 0]]  # (8)_6 ordered draws, a Low first card in half of them
    ((1, 2, 1), [10080, 10080])
    """
    n = len(counts)
    walk = _walk(tuple(values))
    weights = [prod(falling_factorial(c, m) for c, m in zip(counts, ms)) for ms in walk.multisets]
    big = max(max((abs(a) for a in row), default=0) for row in coefficients) or 1
    width = limb_width(n, big)
    limbs = limbs_needed(big * falling_factorial(sum(counts), _DRAW), width) if width else 1
    dtype: Any = np.int64 if width else object
    keys = None if len(splits) == 1 else _keys(n, cards)
    passes = limbs * len(coefficients)
    grouped = []
    for limb in range(limbs):
        shift = width * limb
        cut = [w >> shift if limb == limbs - 1 else (w >> shift) & ((1 << width) - 1) for w in weights]
        per_sequence = np.array(cut, dtype=dtype)[walk.multiset]
        for row in coefficients:
            x = per_sequence * np.array(row, dtype=dtype)[walk.ending]
            x = x.reshape(n**cards, -1).sum(axis=1).reshape((n,) * cards)
            grouped.append(_by_class(x, splits, cards) if keys is None else _by_held(x, keys, n, cards))
            if progress is not None:
                progress(len(grouped), passes)
    sums = np.stack(grouped).reshape((limbs, len(coefficients)) + grouped[0].shape)
    if keys is not None:
        sums = _read_splits(sums, splits, n, cards)
    exact = sums[0].astype(object)
    for limb in range(1, limbs):
        exact = exact + (sums[limb].astype(object) << (width * limb))
    return exact
