"""The factor rows of a shoe in plain numbers: the part of the weights kernel that needs no numpy.

:mod:`exactodds.puntobanco.compiled.kernel` explains the factor tensor (twelve rows of seven entries,
from which every weight of a compiled table's rows is a product of one entry per value);
this module makes its rows from 13 counts by rank, in whatever number type the counts
are. The kernel stacks them into numpy arrays; the flat evaluator
(:mod:`exactodds.puntobanco.compiled.flat`) reads them as Python integers, so that pricing one shoe
needs no numpy at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...cards import RANK_VALUES, ZERO_RANKS, falling_row, pair_sums

#: Cards dealt per counted ordering.
DRAW = 6
#: The rank indices of each value 0..9 (value 0 holds T, J, Q, K; every other value one rank).
VALUE_RANKS = tuple(tuple(i for i, v in enumerate(RANK_VALUES) if v == value) for value in range(10))


def _clip(x: Any) -> Any:
    """max(x, 0) in any number type: Python int or float, numpy arrays of int64, float64 or Python ints."""
    return (x + abs(x)) // 2


def factor_rows(ranks: Sequence[Any]) -> list[list[Any]]:
    """The twelve factor rows (values 0-9, then value 0 in the A and B blocks) from 13 counts by rank.

    The counts are Python numbers (one shoe) or numpy columns (many shoes, elementwise).

    >>> rows = factor_rows([4] * 13)
    >>> rows[7][:3], rows[10][:4], rows[11][4]
    ([1, 4, 12], [0, 0, 48, 672], 1824)
    """
    values = [ranks[kinds[0]] if len(kinds) == 1 else sum(ranks[i] for i in kinds) for kinds in VALUE_RANKS]
    c0 = values[0]
    nil = c0 * 0
    p2, p22 = pair_sums([ranks[i] for i in ZERO_RANKS])
    # Fewer than two (four) 0-valued cards make P2 (P22) zero, so clipping c0 - 2 (c0 - 4) at 0 changes nothing.
    return [
        *(falling_row(c) for c in values),
        [nil, nil, *(p2 * x for x in falling_row(_clip(c0 - 2), DRAW - 2))],
        [nil, nil, nil, nil, *(p22 * x for x in falling_row(_clip(c0 - 4), DRAW - 4))],
    ]


def row_offsets(block: Any, m: Any) -> tuple[Any, Any, Any]:
    """A row's offsets into the three outer products of the factor rows: (block, m0, m1, m2), (m3, m4, m5), (m6..m9).

    ``block`` is 0 (W), 1 (A) or 2 (B) and ``m[v]`` the row's count of value v: Python
    integers (one row) or numpy columns (many rows). The weight of the row is the product
    of the three entries (:class:`~exactodds.puntobanco.compiled.kernel.RowWeights`, and the flat
    evaluator of :mod:`exactodds.puntobanco.compiled.flat`).

    >>> row_offsets(0, [0, 0, 0, 2, 0, 4, 0, 0, 0, 0])
    (0, 102, 0)
    """
    seven = DRAW + 1
    return (
        ((block * seven + m[0]) * seven + m[1]) * seven + m[2],
        (m[3] * seven + m[4]) * seven + m[5],
        ((m[6] * seven + m[7]) * seven + m[8]) * seven + m[9],
    )
