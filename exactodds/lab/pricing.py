"""Exact EVs of the simulated bets for many shoes at once: the lab's batch pricer.

Before each coup the lab needs the exact EV of every bet for the cards not yet seen, for
hundreds of thousands of compositions. For bets that read card values only, the
:class:`ValueKernel` counts them as matrix products in float64 (exact below 2^53); bets on
pairs, and shoes too big for that bound, go to the compiled evaluator. Either way every
count is an exact integer and the EV numerators are exact.

The falling factorials (c)_k that weight the orderings come from the one weights kernel,
:func:`exactodds.puntobanco.compiled.kernel.falling_rows`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..cards import RANK_VALUES, falling_factorial
from ..puntobanco.compiled.kernel import falling_rows
from ..puntobanco.coup import STATE_CODES, state_code
from ..puntobanco.events import Bet
from ..puntobanco.rules import RuleSet, Tableau
from .plan import COUP_CARDS, BetPays, bet_pays

#: The value kernel is exact in float64 for shoes of at most this many cards: (458)_6 < 2^53.
VALUE_KERNEL_CARDS = 458


def _multisets(values: int, total: int) -> list[tuple[int, ...]]:
    """Every tuple of ``values`` counts summing to ``total``, in a fixed order."""
    if values == 1:
        return [(total,)]
    return [(k, *rest) for k in range(total + 1) for rest in _multisets(values - 1, total - k)]


class ValueKernel:
    """Exact counts of groups of coup states that depend on card values only (not on pairs).

    For such groups a count is sum_m T[m]·W(m) over the 5,005 six-card value multisets m,
    with W(m) = prod_v (c_v)_(m_v) and 0 <= T[m] <= (orderings of m). Split each multiset
    into its values 0–4 (a) and 5–9 (b): the sum is, for each k = |a|, a bilinear form
    X_k^T T_k Y_(6-k) in X[a] = prod (c_v)_(a_v) and Y[b], evaluated for many shoes as
    one matrix product per k. Every product and partial sum is a non-negative integer at
    most (N)_6, so float64 is exact for shoes of at most 458 cards. That holds whichever side
    is contracted first: for a fixed b, sum_a T_k[b, a]·X[a] <= (6!/(b!·k!))·sum_a (k!/a!)·X[a]
    = (6!/(b!·k!))·(n_a)_k <= (6!/k!)·(N)_k <= (N)_6 (Vandermonde; T[m] is at most the
    multinomial 6!/m!), and likewise with the sides swapped. Since every term is a non-negative
    integer and every partial sum is at most the whole, any order of summation (the BLAS product,
    einsum, the sum over blocks) gives the same exact integer.

    The factors are exact too: (c)_k is looked up in a table of float64 integers at most
    (458)_6 < 2^53, and X[a] (likewise Y[b]) is the product of a pair row (c_0)_(a_0)·(c_1)_(a_1),
    a pair row for values 2, 3 and (c_4)_(a_4), each partial product at most (n_a)_k <= (N)_6.
    (The pair table also holds rows with a_0 + a_1 > 6, which may be inexact; none is gathered.)
    """

    SLICE = 256  # compositions per pass: small enough for the gathered rows to stay in cache

    def __init__(self, tableau: Tableau, membership: np.ndarray) -> None:
        from ..puntobanco.compiled import compiled

        table = compiled(tableau)
        dense = table.project(membership)
        rows = len(table.multisets)
        if np.any(dense[rows:]):
            raise ValueError("these groups depend on pairs (ranks), not only on values")
        coefficients = dense[:rows]
        if np.any(coefficients < 0):
            raise ValueError("negative coefficients")
        self.groups = coefficients.shape[1]
        index = {m: i for i, m in enumerate(map(tuple, np.asarray(table.multisets).tolist()))}
        self._blocks = []
        for k in range(COUP_CARDS + 1):
            left, right = _multisets(5, k), _multisets(5, COUP_CARDS - k)
            rows_of = np.array([[index[a + b] for a in left] for b in right], dtype=np.int64)
            t = np.moveaxis(coefficients[rows_of], -1, 0).astype(np.float64)  # t[g, i, j]: multiset left[j] + right[i]
            left_index = np.array([(a[0] * 7 + a[1], a[2] * 7 + a[3], a[4]) for a in left]).T
            right_index = np.array([(b[0] * 7 + b[1], b[2] * 7 + b[3], b[4]) for b in right]).T
            self._blocks.append((t.reshape(self.groups * len(right), len(left)), left_index, right_index, len(right)))
        # Indices into the rows of one factor table per slice (see _slice): the pair products of values
        # (0,1), (2,3), (5,6), (7,8) at 0, 49, 98, 147 and the falling rows of values 4 and 9 at 196, 203;
        # every block's X rows, then every block's Y rows, so that both are gathered in one pass.
        self._left_rows = sum(b[1].shape[1] for b in self._blocks)
        self._gather = np.concatenate(
            [np.concatenate([b[1] for b in self._blocks], axis=1) + np.array([[0], [49], [196]]),
             np.concatenate([b[2] for b in self._blocks], axis=1) + np.array([[98], [147], [203]])],
            axis=1,
        )  # fmt: skip
        # (c)_0 … (c)_6 for every count a value of a shoe within the bound may have (7 × 459): exact integers
        # at most (458)_6 < 2^53, so exact in float64. A slice looks its rows up instead of computing them.
        self._falling = np.ascontiguousarray(falling_rows(np.arange(VALUE_KERNEL_CARDS + 1), np.float64).T)
        left_ends = np.cumsum([0] + [b[1].shape[1] for b in self._blocks]).tolist()
        right_ends = np.cumsum([0] + [b[2].shape[1] for b in self._blocks]).tolist()
        # Each block contracts its longer side in the matrix product and multiplies the shorter one
        # in after: (t @ x)·y when there are fewer Y rows, (t' @ y)·x, t' the same numbers with the
        # sides swapped, when there are fewer X rows. The same exact sum of products, in fewer passes.
        self._plan = []
        for i, (t, _, _, width) in enumerate(self._blocks):
            xs, ys = slice(left_ends[i], left_ends[i + 1]), slice(right_ends[i], right_ends[i + 1])
            lefts = t.shape[1]
            if width <= lefts:
                self._plan.append((True, t, xs, ys, width))
            else:
                swapped = t.reshape(self.groups, width, lefts).transpose(0, 2, 1).reshape(self.groups * lefts, width)
                self._plan.append((False, np.ascontiguousarray(swapped), xs, ys, lefts))

    def counts(self, value_counts: np.ndarray) -> np.ndarray:
        """Exact int64 counts (n × groups) for an (n × 10) array of cards per value, each shoe <= 458 cards."""
        value_counts = np.asarray(value_counts, dtype=np.int64)
        if len(value_counts) and value_counts.sum(axis=1).max() > VALUE_KERNEL_CARDS:
            raise ValueError(f"the value kernel is exact for shoes of at most {VALUE_KERNEL_CARDS} cards")
        if len(value_counts) and value_counts.min() < 0:
            raise ValueError("a count of cards is negative")
        out = np.empty((len(value_counts), self.groups), dtype=np.int64)
        for lo in range(0, len(value_counts), self.SLICE):
            hi = min(lo + self.SLICE, len(value_counts))
            out[lo:hi] = self._slice(value_counts[lo:hi]).T
        return out

    def _slice(self, value_counts: np.ndarray) -> np.ndarray:
        n = len(value_counts)
        # f[k, v, shoe] = (c_v)_k, looked up: exact integers below 2^53, as float64 for the matrix products.
        f = np.take(self._falling, np.ascontiguousarray(value_counts.T), axis=1)
        # One factor table, a contiguous row per factor: the products (c_v)_i·(c_(v+1))_j for the value
        # pairs (0,1), (2,3), (5,6), (7,8) (4 × 49 rows), then the falling rows of values 4 and 9.
        rows = np.empty((210, n))
        for p, (u, v) in enumerate(((0, 1), (2, 3), (5, 6), (7, 8))):
            np.multiply(f[:, u, None, :], f[None, :, v, :], out=rows[49 * p : 49 * p + 49].reshape(7, 7, n))
        rows[196:203] = f[:, 4]
        rows[203:] = f[:, 9]
        # X[a] and Y[b] of every block at once, multiplied in place (fewer temporaries, one gather per factor).
        xy = rows.take(self._gather[0], axis=0, mode="clip")
        xy *= rows.take(self._gather[1], axis=0, mode="clip")
        xy *= rows.take(self._gather[2], axis=0, mode="clip")
        x, y = xy[: self._left_rows], xy[self._left_rows :]
        total = np.zeros((self.groups, n))
        for x_first, t, xs, ys, width in self._plan:
            # The contracted side's products per group and row of the other side, then their sum with that side.
            if x_first:
                total += np.einsum("gwn,wn->gn", (t @ x[xs]).reshape(self.groups, width, n), y[ys])
            else:
                total += np.einsum("gwn,wn->gn", (t @ y[ys]).reshape(self.groups, width, n), x[xs])
        return np.rint(total).astype(np.int64)


def value_counts(rank_counts: np.ndarray) -> np.ndarray:
    """Cards per value 0–9 from cards per rank (n × 13 → n × 10)."""
    out = np.zeros((len(rank_counts), 10), dtype=np.int64)
    for r, v in enumerate(RANK_VALUES):
        out[:, v] += rank_counts[:, r]
    return out


class BetLayout:
    """How to turn group counts into each bet's exact EV numerator, and each coup state into its net pay."""

    def __init__(self, tableau: Tableau, pays: BetPays) -> None:
        from ..puntobanco.compiled import compiled

        table = compiled(tableau)
        self.scale = pays.scale
        codes = [state_code(s) for s in table.states]
        groups: dict[tuple[int, ...], int] = {}
        self.terms: list[tuple[list[tuple[int, int]], int]] = []  # per bet: [(group, coefficient)], last coef
        for nets_of_bet, settles in zip(pays.nets, pays.settles):
            nets = [int(net * self.scale) for net in nets_of_bet]
            last = nets[-1]
            terms = []
            for k, net in enumerate(nets[:-1]):
                member = tuple(int(settles[code] == k) for code in codes)
                terms.append((groups.setdefault(member, len(groups)), net - last))
            self.terms.append((terms, last))
        self.membership = np.array(list(groups), dtype=np.int64).T.reshape(len(table.states), len(groups))
        self.max_net = max(abs(int(net * self.scale)) for nets in pays.nets for net in nets)
        # Net pay ×scale of every bet for every state code (see exactodds.puntobanco.coup.encode_state).
        scaled = [[int(net * self.scale) for net in nets] for nets in pays.nets]
        self.pay = np.array(
            [[row[settles[code]] for code in range(STATE_CODES)] for row, settles in zip(scaled, pays.settles)],
            dtype=np.int64,
        ).reshape(len(pays.ids), STATE_CODES)


@lru_cache(maxsize=8)
def pricing(tableau: Tableau, pays: BetPays) -> tuple[BetLayout, ValueKernel | None]:
    """The bet layout, and the value kernel when every bet depends on values only."""
    layout = BetLayout(tableau, pays)
    try:
        return layout, ValueKernel(tableau, layout.membership)
    except ValueError:
        return layout, None


@lru_cache(maxsize=8)
def _evaluator(tableau: Tableau, pays: BetPays) -> Any:
    """The compiled evaluator of the bets' groups: for pair bets and for shoes beyond the value kernel."""
    from ..puntobanco.compiled import Evaluator, compiled

    return Evaluator(compiled(tableau), pricing(tableau, pays)[0].membership)


def ev_numerators(
    rules: RuleSet | Tableau, bets: tuple[Bet, ...] | BetPays, rank_counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int]:
    """Exact EVs of ``bets`` for many shoes: numerators (n × bets), orderings (n) and a scale.

    EV = numerator / (orderings · scale), exactly; the sign of the numerator decides "EV > 0".

    >>> from fractions import Fraction
    >>> from exactodds.puntobanco.odds import analyze, resolve_bets
    >>> from exactodds.cards import Shoe
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> bets = resolve_bets(PUNTO_BANCO, ["dragon-7"])
    >>> num, orderings, scale = ev_numerators(PUNTO_BANCO, bets, np.array([Shoe.standard(8).counts]))
    >>> Fraction(int(num[0, 0]), int(orderings[0]) * scale) == analyze(Shoe.standard(8), bets=bets).bets[0].ev
    True
    """
    tableau = rules.tableau if isinstance(rules, RuleSet) else rules
    pays = bets if isinstance(bets, BetPays) else bet_pays(bets)
    layout, kernel = pricing(tableau, pays)
    rank_counts = np.asarray(rank_counts, dtype=np.int64)
    sizes = rank_counts.sum(axis=1)
    biggest = int(sizes.max()) if len(sizes) else 0
    if kernel is not None and biggest <= VALUE_KERNEL_CARDS:
        groups = kernel.counts(value_counts(rank_counts))
    else:
        groups = _evaluator(tableau, pays).counts_array(rank_counts, workers=1)
    # Every ordering of the 6 cards a coup may use: (N)_6, below 2^63 for the lab's shoes (<= 1004 cards).
    orderings = falling_rows(sizes, np.int64)[:, COUP_CARDS]
    exact_int64 = 3 * layout.max_net * falling_factorial(max(biggest, COUP_CARDS), COUP_CARDS) < 2**63
    dtype: Any = np.int64 if exact_int64 else object
    num = np.zeros((len(rank_counts), len(pays.ids)), dtype=dtype)
    for i, (terms, last) in enumerate(layout.terms):
        column = orderings.astype(dtype) * last
        for group, coefficient in terms:
            column = column + groups[:, group].astype(dtype) * coefficient
        num[:, i] = column
    return num, orderings, layout.scale
