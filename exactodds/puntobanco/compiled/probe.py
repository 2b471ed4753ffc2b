"""Probe deals: a few fixed six-card hands dealt in every order, the independent check of a table read from disk.

A table file's digest catches accidents (a flipped bit, a cut write), and the content
invariants of :mod:`~exactodds.puntobanco.compiled.cache` and :mod:`~exactodds.puntobanco.compiled.flat` catch a
changed coefficient. A file whose whole outcome columns (or coup states) were swapped and
whose digest was then recomputed passes both: every row and every bet still adds up. So does
a file written by other code under the same key (a development version with a changed deal).

What such a file cannot pass is a comparison with a fresh deal. The W row of a value multiset
m holds, per coup state, how many of m's distinct orderings end there (see
:mod:`~exactodds.puntobanco.compiled.table`; a pair of 0-valued cards counts there as no pair, its
split by rank is in the A and B rows). For the few small multisets of :data:`PROBES` (442
orderings in all) those rows are dealt here card by card with :func:`~exactodds.puntobanco.rules.deal_coup`
in well under a millisecond, with no table at all, and a table read from disk must hold exactly
them: the compiled table state by state (:mod:`~exactodds.puntobanco.compiled.cache`), a flat table column
by column (:class:`FlatProbe`, with the first shoe it prices).

The probes were found by a search over all 5,005 multisets for few orderings such that every
two different outcome columns of the whole bet catalog, under every built-in rule set and
tableau, differ on some probe (a test checks it): a swap of two such columns is always caught.
A rule set with a chart of its own may need more (Baccarat Gold's took two, and one more with the Asian floor's bets).
Two columns of user-defined bets may still agree on every probe; and nothing here stops
someone who can write the cache folder from writing a table that is right on the probes only,
or from replacing the code itself (see the threat model in docs/exactness.md).
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from math import comb
from types import MappingProxyType
from typing import NamedTuple

from ..coup import CoupState
from ..rules import Tableau, deal_coup
from . import native
from .factors import DRAW, row_offsets

#: The probe multisets, as counts of the card values 0-9 (six cards each).
PROBES: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 2, 0, 4, 0, 0, 0, 0),
    (0, 0, 2, 0, 0, 4, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 4, 0, 2, 0),
    (0, 0, 2, 0, 0, 0, 0, 4, 0, 0),
    (0, 0, 0, 0, 0, 3, 0, 0, 3, 0),
    (0, 0, 0, 1, 0, 0, 0, 4, 0, 1),
    (0, 2, 4, 0, 0, 0, 0, 0, 0, 0),
    (0, 1, 0, 4, 0, 0, 1, 0, 0, 0),
    # Baccarat Gold's chart deals the Player's and the Banker's totals alike on all eight above: these two tell
    # the Player's columns from the Banker's there (drawing or standing on 5).
    (0, 0, 3, 0, 0, 0, 0, 0, 1, 2),
    (0, 0, 0, 0, 1, 0, 3, 0, 1, 1),
    # Added with the side bets of the Asian floor (issue 21), by the same search (fewest orderings): they
    # tell apart the columns of its Char Siu, Super Lucky 7, Flame 7s, Heaven 9, Wu Da Lang and 4 Fortune
    # bets that the eight first do not (from Dragon Bonus, Egalite 7, Treasure All and from each other).
    (0, 0, 5, 1, 0, 0, 0, 0, 0, 0),
    (4, 0, 0, 0, 0, 0, 0, 2, 0, 0),
    (5, 0, 0, 0, 0, 0, 0, 0, 0, 1),
    (0, 1, 1, 0, 0, 0, 4, 0, 0, 0),
    (4, 0, 0, 0, 0, 0, 0, 0, 0, 2),
    (0, 0, 0, 3, 0, 0, 3, 0, 0, 0),
    # Under Baccarat Gold's chart, the Asian floor's bets have five pairs of columns the sixteen above deal alike.
    (0, 0, 2, 4, 0, 0, 0, 0, 0, 0),
)


def _orderings(m: Sequence[int]) -> Iterator[list[int]]:
    """Every distinct sequence of the values of multiset ``m``, in lexicographic order (the next-permutation walk).

    >>> [''.join(map(str, s)) for s in _orderings([0, 2, 1, 0, 0, 0, 0, 0, 0, 0])]
    ['112', '121', '211']
    """
    seq = [v for v, n in enumerate(m) for _ in range(n)]
    while True:
        yield seq
        i = len(seq) - 2
        while i >= 0 and seq[i] >= seq[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(seq) - 1
        while seq[j] <= seq[i]:
            j -= 1
        seq[i], seq[j] = seq[j], seq[i]
        seq[i + 1 :] = reversed(seq[i + 1 :])


@lru_cache(maxsize=8)
def probe_states(tableau: Tableau) -> tuple[Mapping[CoupState, int], ...]:
    """Per probe, its W row under ``tableau``: how many of its distinct orderings end in each coup state.

    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
    >>> [sum(row.values()) for row in probe_states(STANDARD_TABLEAU)]
    [15, 15, 15, 15, 20, 30, 15, 30, 60, 120, 6, 15, 6, 30, 15, 20, 15]
    """
    rows = []
    for m in PROBES:
        ends: dict[tuple[int, int, int, int, bool, bool], int] = {}
        for v in _orderings(m):
            # A pair of 0-valued cards is split by rank in the A and B rows: in W it counts as none.
            end = (*deal_coup(v, tableau), v[0] == v[2] != 0, v[1] == v[3] != 0)
            ends[end] = ends.get(end, 0) + 1
        rows.append(MappingProxyType({CoupState(*end): n for end, n in ends.items()}))
    return tuple(rows)


def _rows_with(index: tuple[array[int], array[int], array[int]], m: Sequence[int]) -> tuple[int, ...]:
    """The rows of a flat table that are the W row of multiset ``m`` (one as built; a forged table may hold more).

    >>> index = (array("H", [0, 0, 0]), array("H", [102, 5, 102]), array("H", [0, 0, 0]))
    >>> _rows_with(index, [0, 0, 0, 2, 0, 4, 0, 0, 0, 0])
    (0, 2)
    """
    k, offsets = _search(tuple(m))
    # A byte search of the one offset array (of three) that the fewest rows share with m: an aligned
    # match is a row with that offset, then confirmed on the other two.
    data = index[k].tobytes()
    pattern = array(index[k].typecode, [offsets[k]]).tobytes()
    (a, oa), (b, ob) = ((index[i], offsets[i]) for i in range(3) if i != k)
    size = index[k].itemsize
    found = []
    at = data.find(pattern)
    while at >= 0:
        r, off = divmod(at, size)
        if not off and a[r] == oa and b[r] == ob:
            found.append(r)
        at = data.find(pattern, at + 1)
    return tuple(found)


@lru_cache(maxsize=16)
def _search(m: tuple[int, ...]) -> tuple[int, tuple[int, int, int]]:
    """Which offset array to search for the W row of ``m`` (the one the fewest other rows share), and its offsets."""
    return min(range(3), key=lambda i: _sharing(_GROUPS[i], m)), row_offsets(0, m)


#: The values whose counts make each of the three offsets of a row (the first with the block).
_GROUPS = ((0, 1, 2), (3, 4, 5), (6, 7, 8, 9))


def _sharing(group: Sequence[int], m: Sequence[int]) -> int:
    """About how many rows share m's counts of the values in ``group``: the multisets of m's other cards on the others.

    >>> _sharing((6, 7, 8, 9), [0, 0, 0, 1, 0, 0, 0, 4, 0, 1])  # one card on values 0-5: six multisets
    6
    """
    others, rest = 10 - len(group), DRAW - sum(m[v] for v in group)
    return comb(rest + others - 1, others - 1)


# A named tuple, not a dataclass: the class is made at every start-up that prices a shoe, a named tuple's at a
# fraction of the cost of a frozen dataclass's (whose methods are compiled from text).
class FlatProbe(NamedTuple):
    """The probe check of a flat table read from disk: where each probe's W row is, and what its columns must hold.

    ``rows[p]`` are the table's rows of probe p; ``expected[p][j]`` is how many of probe
    p's orderings end in the states of column j. :meth:`holds` checks a table's columns on them.
    """

    rows: tuple[tuple[int, ...], ...]
    expected: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, index: tuple[array[int], array[int], array[int]], tableau: Tableau, masks: Sequence[int]) -> FlatProbe:
        """The check of a flat table with these row offsets and columns ``masks`` (sets of states) under ``tableau``.

        >>> from exactodds.puntobanco.facts import ALL_MASK
        >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
        >>> empty = (array("H"), array("H"), array("H"))
        >>> FlatProbe.of(empty, STANDARD_TABLEAU, [ALL_MASK, 0]).expected[4]  # probe 4: 20 orderings
        (20, 0)
        """
        from ..facts import STATE_INDEX

        expected = []
        for row in probe_states(tableau):
            bits = [(1 << STATE_INDEX[state], n) for state, n in row.items()]
            reached = sum(bit for bit, _ in bits)
            total = sum(row.values())
            counts = []
            for mask in masks:
                inside = mask & reached  # most columns hold all of a probe's states or none of them
                counts.append(total if inside == reached else sum(n for b, n in bits if inside & b) if inside else 0)
            expected.append(tuple(counts))
        return cls(tuple(_rows_with(index, m) for m in PROBES), tuple(expected))

    def holds(self, table: native.FlatTable) -> bool:
        """Whether every column j of ``table`` holds on probe p's rows the coefficients ``expected[p][j]`` (summed
        over the rows, each time a row appears in the column's runs): what a fresh deal of the probe gives.

        Checked once, when the table is read, so that every shoe is then priced by the compiled kernel: by the
        kernel itself (:func:`~.native.probe_sums`, one pass over the runs), else by a byte search of each
        column's rows for each probe's rows (a few hundred searches, no Python integer per entry). The check was
        once made in Python integers with the first shoe's sums, which cost the start-up of ``exactodds odds``
        some 10 ms.

        >>> from exactodds.puntobanco.compiled.flat import FlatTable
        >>> probe = FlatProbe(((0,),), ((3,),))
        >>> index = (array("H", [0, 0]),) * 3
        >>> probe.holds(FlatTable("k", index, (((3, array("H", [0])), (1, array("H", [1]))),)))  # 3 on the probe's row
        True
        >>> probe.holds(FlatTable("k", index, (((2, array("H", [0, 1])),),)))
        False
        >>> probe.holds(FlatTable("k", index, (((1, array("H", [0, 0, 0, 1])),),)))  # row 0 three times at 1
        True
        """
        distinct = sorted({r for rows in self.rows for r in rows})
        found = native.probe_sums(table, distinct) if all(r < 1 << 16 for r in distinct) else None
        if found is not None:
            by_row = dict(zip(distinct, found))
            sums = [[sum(by_row[r][j] for r in rows) for j in range(len(table.columns))] for rows in self.rows]
            return sums == [list(expected) for expected in self.expected]
        for j, column in enumerate(table.columns):
            runs = [(c, rows.tobytes(), rows.itemsize) for c, rows in column]
            size = runs[0][2] if runs else 2
            if any(item != size for _, _, item in runs):  # runs of mixed widths (no table made here has them)
                found_j = [sum(c * rows.count(r) for r in mine for c, rows in column) for mine in self.rows]
            else:
                data = b"".join(raw for _, raw, _ in runs)
                ends = [0] * len(runs)  # the byte offset where each run ends
                at = 0
                for i, (_, raw, _) in enumerate(runs):
                    at = ends[i] = at + len(raw)
                found_j = [sum(_coefficients(data, ends, runs, mine, size)) for mine in self.rows]
            if found_j != [expected[j] for expected in self.expected]:
                return False
        return True


def _coefficients(
    data: bytes, ends: Sequence[int], runs: Sequence[tuple[int, bytes, int]], rows: Sequence[int], size: int
) -> Iterator[int]:
    """The coefficient of each appearance of each row of ``rows`` in a column's rows (``data``, the runs' bytes end to
    end, run i ending at byte ``ends[i]``): a search for each row's bytes, a match counting where it is aligned."""
    for r in rows:
        if r >= 1 << 8 * size:
            continue  # beyond the rows' width: in none of them
        pattern = r.to_bytes(size, sys.byteorder)  # as array.tobytes() writes it
        at = data.find(pattern)
        while at >= 0:
            if at % size == 0:
                yield runs[bisect_right(ends, at)][0]
            at = data.find(pattern, at + 1)
