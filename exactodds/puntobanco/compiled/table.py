"""The compiled table: the exhaustive walk of one tableau, folded once into coefficients by value multiset.

All orderings of the same multiset of card values are equally likely, so a coup's
result depends on which values were dealt and in which order, while its weight depends
only on the multiset. Once per tableau :func:`build` walks all 10^6 sequences of six card
values (the counting convention deals six cards) and records, for each of the 5,005
six-card value multisets m and each final coup state, how many of the multiset's
orderings end there. A shoe's count of a state is then a sum of table entries times the
weights of their multisets (:mod:`exactodds.puntobanco.compiled.kernel`): a product of falling
factorials per multiset, then a dot product, which vectorises and batches.

Pairs need ranks, not values. Values 1-9 have one rank each, so there a pair is just
equal values. Value 0 holds four ranks (T, J, Q, K): when cards 1 and 3 (or 2 and 4) are
both 0-valued, the orderings split into same-rank and different-rank ones, weighted by
A(m) (the Player's two cards of one rank) and B(m) (both hands so) instead of W(m). The
table therefore has three blocks of rows, W, A and B, and a sequence adds small integer
coefficients to them:

- no 0-valued pair to split: +1 in W, at its state (pairs by equal values);
- cards 1 and 3 both 0-valued (not 2 and 4): +1 in A at the Player-pair state, and the
  "not a pair" rest W - A at the other (+1 in W, -1 in A);
- cards 2 and 4 likewise: A and W - A for the Banker;
- both: B at both pairs, A - B at each single pair, and W - 2A + B at no pair.

So a sequence adds at most 1 W-unit, 4 A-units and 4 B-units in absolute value, the
bound behind the kernel's exactness proofs. The table is stored sparse (row, column,
coefficient), sorted by cell, and pinned by a golden hash in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..coup import CoupState, decode_state, encode_state
from ..rules import Tableau, deal_index, deal_table
from .factors import DRAW
from .kernel import BLOCKS


@dataclass(frozen=True, eq=False)
class CompiledTableau:
    """A tableau folded into sparse coefficients over (multiset, weight kind) rows and coup-state columns."""

    tableau: Tableau
    #: multisets[i, v]: how many cards of value v the i-th six-card value multiset holds.
    multisets: np.ndarray
    #: The reachable coup states, in column order.
    states: tuple[CoupState, ...]
    #: Sparse table: row = block * len(multisets) + multiset index, column = state index.
    rows: np.ndarray
    cols: np.ndarray
    coefficients: np.ndarray

    @property
    def row_count(self) -> int:
        """Rows of the table: three blocks (W, A, B) of multisets."""
        return BLOCKS * len(self.multisets)

    def project(self, membership: np.ndarray) -> np.ndarray:
        """The table summed over groups of states: ``membership[state, k]`` is 1 when state is in group k.

        Returns a dense int64 matrix, one row per table row and one column per group
        (:meth:`project_rows` gives only its nonzero rows, without the zeros).
        """
        used, matrix = self.project_rows(membership)
        out = np.zeros((self.row_count, matrix.shape[1]), dtype=np.int64)
        out[used] = matrix
        return out

    def project_rows(self, membership: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The nonzero rows of :meth:`project`: their row numbers and their int64 values, in row order.

        The states that belong to the same groups are merged into classes; the table is
        summed by class (``np.bincount``) a slice of rows at a time (the rows holding some
        coefficient, a few MB a slice) and multiplied by the classes' membership in float32
        BLAS. That is exact: every sum, term and partial sum of an entry is an integer of
        absolute value at most (largest row sum of |coefficients|) · (largest |membership|),
        which is checked below 2^24 (float32 holds every integer up to it); a row of the
        table sums the coefficients of the orderings of one multiset, at most 720 · 4 = 2,880
        (see :func:`build`). Beyond it (a wide membership) float64 is used, checked below 2^53.

        >>> from exactodds.puntobanco.compiled import compiled
        >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
        >>> table = compiled(STANDARD_TABLEAU)
        >>> used, matrix = table.project_rows(np.ones((len(table.states), 1), dtype=np.int64))
        >>> int(matrix[used < len(table.multisets)].sum()), int(matrix[used >= len(table.multisets)].sum())
        (1000000, 0)
        """
        membership = np.asarray(membership)
        states, groups = membership.shape
        if states != len(self.states):
            raise ValueError(f"membership needs one row per state ({len(self.states)}), not {states}")
        # The rows holding some coefficient (the coefficients are stored sorted by row), and
        # each coefficient's place among them.
        starts = np.flatnonzero(np.r_[True, self.rows[1:] != self.rows[:-1]]) if len(self.rows) else np.zeros(0, int)
        used = self.rows[starts].astype(np.int64)
        local = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(self.rows)]))
        coefficients = self.coefficients.astype(np.int64)
        out = np.zeros((len(used), groups), dtype=np.int64)
        if groups == states and np.array_equal(membership, np.eye(states)):
            out[local, self.cols] = coefficients  # one group per state: the table itself (cells are distinct)
        elif len(used) and groups:
            # States in exactly the same groups are summed first: one class of states per distinct
            # row of the membership (20 for the core bets, 528 for the whole catalog, of 673 states).
            classes, inverse = np.unique(membership, axis=0, return_inverse=True)
            row_sum = int(np.bincount(local, weights=np.abs(coefficients)).max())
            bound = row_sum * max(1, int(np.abs(classes).max()))
            if bound >= 2**53:
                raise ValueError("membership too wide for an exact projection")
            kind = np.float32 if bound < 2**24 else np.float64
            members = classes.astype(kind)
            cell = local * len(classes) + inverse.reshape(-1)[self.cols]
            weights = coefficients.astype(np.float64)
            # A slice of rows at a time, about 4 MB of summed table: big enough for BLAS, small in memory.
            step = max(1, (1 << 19) // len(classes))
            # One BLAS thread: on a busy 2-core machine a second one makes these products 3-4× slower.
            from threadpoolctl import threadpool_limits

            with threadpool_limits(limits=1, user_api="blas"):
                for lo in range(0, len(used), step):
                    hi = min(lo + step, len(used))
                    a, b = starts[lo], starts[hi] if hi < len(starts) else len(self.rows)
                    size = (hi - lo) * len(classes)
                    summed = np.bincount(cell[a:b] - lo * len(classes), weights=weights[a:b], minlength=size)
                    # Exact integers (see above), converted exactly.
                    block: np.ndarray = summed.reshape(hi - lo, len(classes)).astype(kind)
                    out[lo:hi] = block @ members
        nonzero = np.flatnonzero(np.any(out != 0, axis=1))
        return used[nonzero], np.ascontiguousarray(out[nonzero])


def build(tableau: Tableau) -> CompiledTableau:
    """Walk all 10^6 six-card value sequences under ``tableau`` and fold them into a table.

    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
    >>> table = build(STANDARD_TABLEAU)
    >>> len(table.multisets), len(table.states) <= 1600
    (5005, True)
    """
    v1, v2, v3, v4, v5, v6 = np.indices((10,) * DRAW, dtype=np.int16).reshape(DRAW, -1)
    # How every sequence ends, read from the one deal (rules.deal_table) by its two-card totals
    # and its 5th and 6th values; the pair flags are added per block below.
    finals = np.array(deal_table(tableau), dtype=np.int32)
    pt, bt, pn, bn = finals[deal_index((v1 + v3) % 10, (v2 + v4) % 10, v5, v6)].T

    # Which of the six-card value multisets each sequence is (a base-7 key of value counts).
    key = sum(7 ** v.astype(np.int64) for v in (v1, v2, v3, v4, v5, v6))
    keys, multiset = np.unique(key, return_inverse=True)
    multisets = (keys[:, None] // 7 ** np.arange(10)) % 7

    pp_value, bp_value = v1 == v3, v2 == v4
    split_p = pp_value & (v1 == 0)  # both 0-valued: same rank or not is decided by ranks
    split_b = bp_value & (v2 == 0)
    R = len(keys)
    W, A, B = 0, R, 2 * R

    parts: list[tuple[np.ndarray, np.ndarray, int]] = []  # (row, col, coefficient)

    def add(mask: np.ndarray, block: int, pp: np.ndarray | int, bp: np.ndarray | int, coefficient: int) -> None:
        pp_arr = pp[mask] if isinstance(pp, np.ndarray) else pp
        bp_arr = bp[mask] if isinstance(bp, np.ndarray) else bp
        code = encode_state(pt[mask], bt[mask], pn[mask], bn[mask], pp_arr, bp_arr)
        parts.append((block + multiset[mask], code, coefficient))

    plain = ~split_p & ~split_b
    add(plain, W, pp_value.astype(np.int32), bp_value.astype(np.int32), 1)
    only_p = split_p & ~split_b
    add(only_p, A, 1, bp_value.astype(np.int32), 1)
    add(only_p, W, 0, bp_value.astype(np.int32), 1)
    add(only_p, A, 0, bp_value.astype(np.int32), -1)
    only_b = ~split_p & split_b
    add(only_b, A, pp_value.astype(np.int32), 1, 1)
    add(only_b, W, pp_value.astype(np.int32), 0, 1)
    add(only_b, A, pp_value.astype(np.int32), 0, -1)
    both = split_p & split_b
    for block, pp, bp, coefficient in (
        (B, 1, 1, 1),
        (A, 1, 0, 1), (B, 1, 0, -1),
        (A, 0, 1, 1), (B, 0, 1, -1),
        (W, 0, 0, 1), (A, 0, 0, -2), (B, 0, 0, 1),
    ):  # fmt: skip
        add(both, block, pp, bp, coefficient)

    rows = np.concatenate([p[0] for p in parts]).astype(np.int64)
    codes = np.concatenate([p[1] for p in parts]).astype(np.int64)
    coefs = np.concatenate([np.full(len(p[0]), p[2], dtype=np.int64) for p in parts])
    state_codes, cols = np.unique(codes, return_inverse=True)
    cell, cell_index = np.unique(rows * len(state_codes) + cols, return_inverse=True)
    # Coefficients are small integers, so float64 sums here are exact.
    sums = np.rint(np.bincount(cell_index, weights=coefs)).astype(np.int64)
    keep = sums != 0
    states = tuple(decode_state(int(c)) for c in state_codes)
    return CompiledTableau(
        tableau=tableau,
        multisets=multisets.astype(np.int64),
        states=states,
        rows=(cell[keep] // len(state_codes)).astype(np.int32),
        cols=(cell[keep] % len(state_codes)).astype(np.int32),
        coefficients=sums[keep].astype(np.int16),
    )
