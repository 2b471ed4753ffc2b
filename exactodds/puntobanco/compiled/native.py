"""The flat table's sums by the compiled kernel (``kernel/flatkernel.c``), where it was built and is proved exact.

``pip install .`` compiles the kernel where a C compiler is found (``setup.py``: an optional
extension, so an install without one still succeeds); without it, and for a shoe beyond its
proof, the flat table is evaluated in Python integers (:meth:`~.flat.FlatTable.evaluate`), the
same numbers. The kernel does the whole of one shoe's evaluation in one call, where Python
spends a few milliseconds in some 60,000 integer operations and numpy's per-call cost bounds
the vectorised pricer: the start-up path and the one-shoe path of the server.

Its proof (the C file's header) needs, for an N-card shoe, every gathered factor product
below 2^128 (N^6 < 2^128) and every run's sum of weights below 2^128 (3·(N)_6 < 2^128), and
each coefficient and each column's number of runs below 2^31: :func:`fits` checks the shoe,
:func:`packed` the table. That covers every shoe up to 2,200,156 cards (42,310 decks).
"""

from __future__ import annotations

import sys
import weakref
from array import array
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ...cards import falling_factorial
from .factors import DRAW, factor_rows


class FlatTable(Protocol):
    """What the kernel reads of a :class:`~.flat.FlatTable` (declared here: the flat table is the layer above)."""

    @property
    def index(self) -> tuple[array[int], array[int], array[int]]: ...

    @property
    def columns(self) -> tuple[tuple[tuple[int, array[int]], ...], ...]: ...

def _load() -> Callable[..., bytes] | None:
    """The kernel's function, or ``None`` (built without a C compiler, or a source tree never installed)."""
    try:
        from _exactodds_kernel import flat_sums  # type: ignore[import-not-found]
    except ImportError:
        return None
    return flat_sums  # type: ignore[no-any-return]


_kernel = _load()
if sys.byteorder != "little":  # the kernel reads and writes little-endian integers
    _kernel = None

_LIMIT = 1 << 128
_INT32 = 1 << 31


def available() -> bool:
    """Whether the compiled kernel was built and loads here.

    >>> available() in (True, False)
    True
    """
    return _kernel is not None


def narrow(cards: int) -> bool:
    """Whether the kernel may work in 64-bit words for an N-card shoe (N^6 < 2^64 and 3·(N)_6 < 2^64: the same
    proof with 64 for 128), which halves its memory traffic.

    >>> narrow(416), narrow(1356), narrow(1357)
    (True, True, False)
    """
    return cards**DRAW < 1 << 64 and 3 * falling_factorial(cards, DRAW) < 1 << 64


def fits(cards: int) -> bool:
    """Whether the kernel is proved exact for an N-card shoe (N^6 < 2^128 and 3·(N)_6 < 2^128).

    >>> fits(416), fits(520_000), fits(3_000_000)
    (True, True, False)
    """
    return cards**DRAW < _LIMIT and 3 * falling_factorial(cards, DRAW) < _LIMIT


#: Each table's arguments for the kernel, made once: its offsets as bytes, its runs as int32 words, its columns.
_PACKED: weakref.WeakKeyDictionary[Any, tuple[bytes, bytes, bytes, bytes, int] | None] = weakref.WeakKeyDictionary()


def packed(table: FlatTable) -> tuple[bytes, bytes, bytes, bytes, int] | None:
    """The kernel's arguments for ``table``: its three offset arrays, its runs, its number of columns (``None``
    when a coefficient or a count of runs is beyond int32, which no compiled table has)."""
    found = _PACKED.get(table, ())
    if found != ():
        return found  # type: ignore[return-value]
    words = array("i")
    result: tuple[bytes, bytes, bytes, bytes, int] | None = None
    if all(len(column) < _INT32 and all(-_INT32 < c < _INT32 for c, _ in column) for column in table.columns):
        for column in table.columns:
            words.append(len(column))
            for coefficient, rows in column:
                words.extend((coefficient, len(rows)))
                words.extend(array("i", rows))
        offsets = [array("H", one).tobytes() for one in table.index]
        result = (offsets[0], offsets[1], offsets[2], words.tobytes(), len(table.columns))
    _PACKED[table] = result
    return result


def sums(table: FlatTable, counts: Sequence[int]) -> list[int] | None:
    """Every column's exact count for a shoe of 13 counts by rank, by the kernel; ``None`` where it cannot serve
    (not built, a shoe beyond its proof, a table it cannot take): the caller then sums in Python integers.

    >>> from exactodds.puntobanco.compiled.flat import FlatTable
    >>> t = FlatTable("k", (array("H", [0]), array("H", [0]), array("H", [0])), (((2, array("H", [0])),),))
    >>> sums(t, [4] * 13) in ([2], None)  # the W weight of the empty multiset is 1: the count is the coefficient
    True
    """
    cards = sum(counts)
    if _kernel is None or not fits(cards):
        return None
    arguments = packed(table)
    if arguments is None:
        return None
    factors = b"".join(x.to_bytes(16, "little") for row in factor_rows(list(counts)) for x in row)
    out = _kernel(factors, *arguments, narrow(cards))
    return [(int.from_bytes(out[i : i + 16], "little", signed=True) << 64)
            + int.from_bytes(out[i + 16 : i + 32], "little", signed=True) for i in range(0, len(out), 32)]
