"""Which of the first four cards are the very same card: a card walk's rows split by that pattern, exactly.

A card walk deals kinds of card (:mod:`exactodds.puntobanco.cardwalk.kinds`). A fact on the very same card
(a suited pair: a hand's two cards the same card, rank and suit; the first four cards all
one card) needs to know which of the first four cards are the same card of the shoe, which
the kinds do not say unless each is one card (52 kinds, 52⁴ rows for four positions). So the
rows are split instead: the positions P1, B1, P2, B2 fall into blocks of the very same card,
one of the 15 set partitions of four (:data:`PATTERNS`); cards of different kinds are never
the same card, so a row's patterns are those that refine its pattern of equal kinds. The
ordered draws of m cards of a kind K whose positions fall into blocks of b_1 … b_j cards,
each block one card and the blocks different cards, number W_K(b) = Σ Π (c_{x_i})_{b_i}
over distinct cards x_1 … x_j of K (:func:`same_card_draws`); over the patterns of a row
they add up to its weight Π (c_K)_m, so the split is exact. The few kinds a bet's other
facts need are kept (a suited pair of 4s on 13 kinds, four times the same card on one).

>>> PATTERNS[0], len(PATTERNS), same_card_draws([2, 3], (2,)), same_card_draws([2, 3], (1, 1))
((0, 0, 0, 0), 15, 8, 12)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from math import factorial, prod
from typing import Any

from ...cards import falling_factorial


def _set_partitions(n: int) -> tuple[tuple[int, ...], ...]:
    """The set partitions of n positions as restricted growth strings: entry i is the block of position i."""
    return tuple(
        p for p in product(range(n), repeat=n) if all(p[i] <= max(p[:i], default=-1) + 1 for i in range(n))
    )


def _sizes(blocks: Sequence[int]) -> tuple[int, ...]:
    """The sizes of the blocks named in ``blocks`` (one entry per position), largest first."""
    return tuple(sorted((blocks.count(b) for b in set(blocks)), reverse=True))


#: The 15 patterns of the very same card among P1, B1, P2, B2: entry i is the block of position i (deal order).
PATTERNS = _set_partitions(4)
#: For each pattern, whether the Player's two cards (P1, P2) are the very same card; the Banker's (B1, B2).
PLAYER_SAME = tuple(p[0] == p[2] for p in PATTERNS)
BANKER_SAME = tuple(p[1] == p[3] for p in PATTERNS)
#: The block sizes a kind's positions may fall into (largest first), for one to four positions.
SIZES = tuple(sorted({_sizes(p) for n in range(1, 5) for p in _set_partitions(n)}))


def same_card_draws(counts: Sequence[Any], sizes: Sequence[int], moments: dict[Any, int] | None = None) -> int:
    """Ordered draws from cards held ``counts`` times each, in blocks of ``sizes``: each block one card, all different.

    Σ over distinct cards x_1 … x_j of Π (c_{x_i})_{b_i}, by Möbius inversion over the ways
    the x_i may coincide: Σ_τ μ(τ) Π_{groups g of τ} Σ_x Π_{i∈g} (c_x)_{b_i}, with
    μ(τ) = Π_g (−1)^{|g|−1} (|g|−1)!. ``counts`` may give (count, how many cards held so)
    pairs instead; ``moments`` keeps the sums over x for the next call on the same cards.

    >>> same_card_draws([4, 4], (2, 2)), 2 * 12 * 12, same_card_draws([(4, 2)], (2, 2))
    (288, 288, 288)
    """
    alike = [c if isinstance(c, tuple) else (c, 1) for c in counts]
    moments = {} if moments is None else moments
    total = 0
    for mu, groups in _mobius(tuple(sizes)):
        term = mu
        for group in groups:
            if group not in moments:
                moments[group] = sum(m * prod(falling_factorial(c, b) for b in group) for c, m in alike)
            term *= moments[group]
        total += term
    return total


@lru_cache(maxsize=16)
def _mobius(sizes: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """(μ(τ), the block sizes of each group of τ) for every way τ that blocks of ``sizes`` may share a card."""
    out = []
    for tau in _set_partitions(len(sizes)):
        groups = [[i for i, g in enumerate(tau) if g == block] for block in sorted(set(tau))]
        mu = prod((-1) ** (len(g) - 1) * factorial(len(g) - 1) for g in groups)
        out.append((mu, tuple(tuple(sorted(sizes[i] for i in g)) for g in groups)))
    return tuple(out)


def _refinements() -> tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], ...]:
    """For each pattern κ of equal kinds, each π refining it, with (SIZES index, first position) per κ block."""
    out = []
    for kappa in PATTERNS:
        blocks = [[i for i in range(4) if kappa[i] == b] for b in sorted(set(kappa))]
        finer = []
        for index, pi in enumerate(PATTERNS):
            if all(kappa[i] == kappa[j] for i in range(4) for j in range(4) if pi[i] == pi[j]):
                parts = tuple((SIZES.index(_sizes([pi[i] for i in b])), b[0]) for b in blocks)
                finer.append((index, parts))
        out.append(tuple(finer))
    return tuple(out)


_REFINES = _refinements()


def same_card_table(np: Any, cards: Sequence[Sequence[int]], dtype: Any) -> Any:
    """W_K(sizes) for every block sizes of :data:`SIZES` (rows) and kind K holding ``cards`` (columns)."""
    return np.array([_kind_draws(tuple(held)) for held in cards], dtype=dtype).T


@lru_cache(maxsize=1024)
def _kind_draws(held: tuple[int, ...]) -> tuple[int, ...]:
    """W_K(sizes) for every block sizes of :data:`SIZES`, for a kind holding ``held`` (kinds recur, shoe to shoe)."""
    moments: dict[Any, int] = {}
    alike = tuple(Counter(held).items())  # the cards held alike (all 8 in a fresh 8-deck shoe) summed once
    return tuple(same_card_draws(alike, sizes, moments) for sizes in SIZES)


#: The pairs of positions, in the order of the bits of a row's code of equal kinds.
_PAIRS = tuple((i, j) for i in range(4) for j in range(i + 1, 4))
#: For each code of equal kinds (bit k: the pair _PAIRS[k] of the same kind), its pattern in PATTERNS (-1: none).
_CODES = tuple(
    next((k for k, p in enumerate(PATTERNS) if all((p[i] == p[j]) == bool(code >> b & 1) for b, (i, j) in
                                                  enumerate(_PAIRS))), -1)
    for code in range(1 << len(_PAIRS))
)  # fmt: skip


#: The pattern of four different cards: a row of four different kinds has only this one, with the row's weight.
_DISTINCT = PATTERNS.index((0, 1, 2, 3))


def split_rows(np: Any, grid: Any, table: Any, weight: Any) -> tuple[Any, Any, Any]:
    """Rows of four kinds (4 × rows, of weight ``weight``) split by pattern: (each new row's row, weight, pattern).

    Patterns of zero weight (two positions the same card of a kind that holds no card twice) are left out.
    """
    code = np.zeros(grid.shape[1], dtype=np.int64)
    for bit, (i, j) in enumerate(_PAIRS):
        code |= (grid[i] == grid[j]).astype(np.int64) << bit
    kappas = np.array(_CODES)[code]  # each row's pattern of equal kinds
    rows, weights, patterns = [], [], []
    for kappa in np.unique(kappas).tolist():
        chosen = np.flatnonzero(kappas == kappa)
        if kappa == _DISTINCT:  # four kinds, four different cards: the row as it is
            rows.append(chosen)
            weights.append(weight[chosen])
            patterns.append(np.full(len(chosen), kappa, dtype=np.int64))
            continue
        for index, parts in _REFINES[kappa]:
            split = table[parts[0][0], grid[parts[0][1], chosen]]
            for sizes, first in parts[1:]:
                split = split * table[sizes, grid[first, chosen]]
            keep = split != 0
            rows.append(chosen[keep])
            weights.append(split[keep])
            patterns.append(np.full(int(keep.sum()), index, dtype=np.int64))
    if not rows:  # no row to split
        return np.zeros(0, dtype=np.int64), weight[:0], np.zeros(0, dtype=np.int64)
    return np.concatenate(rows), np.concatenate(weights), np.concatenate(patterns)
