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
:func:`packed` the table. That covers every shoe up to 2,200,156 cards (42,310 decks), in
64-bit words up to 1,356 (:func:`narrow`). A bigger shoe is summed modulo as many primes below
2^62 as its bound needs (and modulo 2^128, free below 2^64 cards) and rebuilt by the Chinese
remainder theorem (:func:`residue_sums`): exact at any size. The kernel takes a table once
(:func:`packed`: it checks every offset and row number then) and prices shoes with no check per
element.
"""

from __future__ import annotations

import struct
import sys
import weakref
from array import array
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ...cards import RANK_VALUES, falling_factorial
from .factors import DRAW


class FlatTable(Protocol):
    """What the kernel reads of a :class:`~.flat.FlatTable` (declared here: the flat table is the layer above)."""

    @property
    def index(self) -> tuple[array[int], array[int], array[int]]: ...

    @property
    def columns(self) -> tuple[tuple[tuple[int, array[int]], ...], ...]: ...


def _load(name: str) -> Callable[..., Any] | None:
    """A function of the kernel, or ``None`` (built without a C compiler, or a source tree never installed)."""
    try:
        import _exactodds_kernel  # type: ignore[import-not-found]
    except ImportError:
        return None
    found: Callable[..., Any] | None = getattr(_exactodds_kernel, name, None)
    return found


_prepare = _load("prepare")
_kernel = _load("flat_sums")
_residues = _load("flat_residues")
_probe = _load("flat_probe")
_many = _load("flat_sums_many")
if sys.byteorder != "little" or _prepare is None or _probe is None:  # it reads little-endian; an older build: none
    _kernel = _residues = _probe = _many = None

_LIMIT = 1 << 128
#: The value of each rank (THE table, exactodds.cards.RANK_VALUES), as the residue kernel reads it.
_VALUE_OF = bytes(RANK_VALUES)
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


#: Each table as the kernel reads it, made and checked once (``None``: a table it cannot take).
_PACKED: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
#: Each table's runs as the kernel's int32 words (``None``: a coefficient or a count of runs beyond int32).
_WORDS: weakref.WeakKeyDictionary[Any, bytes | None] = weakref.WeakKeyDictionary()
#: Each table's largest sum of |coefficients| over a column's runs: a column's count is at most that times 3·(N)_6.
_SPREAD: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


def packed(table: FlatTable) -> Any:
    """``table`` as the kernel reads it: its three offset arrays and its runs as int32 words, checked by the kernel
    once (every offset and row number in range); ``None`` when a coefficient or a count of runs is beyond int32,
    which no compiled table has, or where the kernel was not built."""
    found = _PACKED.get(table, ())
    if found != ():
        return found
    words = _runs(table)
    result = None
    if _prepare is not None and words is not None:
        offsets = [array("H", one).tobytes() for one in table.index]
        result = _prepare(_VALUE_OF, *offsets, words, len(table.columns))
    _PACKED[table] = result
    return result


def _runs(table: FlatTable) -> bytes | None:
    """The table's runs as the kernel's int32 words, made once (``None`` when a coefficient or a count of runs is
    beyond int32, which no compiled table has)."""
    found = _WORDS.get(table, ())
    if found != ():
        return found  # type: ignore[return-value]
    columns = table.columns
    fit = all(len(column) < _INT32 and all(-_INT32 < c < _INT32 for c, _ in column) for column in columns)
    words = _words(columns) if fit else None
    _WORDS[table] = words
    _SPREAD[table] = max((sum(abs(c) for c, _ in column) for column in columns), default=0)
    return words


def _words(columns: Sequence[Sequence[tuple[int, array[int]]]]) -> bytes:
    """The columns' runs as the kernel's int32 words: per column its number of runs, then per run its coefficient,
    its number of rows and its rows.

    The rows, two bytes each, are widened to four all at once by copying their low and high bytes into place (two
    slice copies in C); widening them an integer at a time cost the first shoe priced in a process some 8 ms.

    >>> array("i", _words([[(3, array("H", [1, 700])), (-1, array("H", [2]))]])).tolist()
    [2, 3, 2, 1, 700, -1, 1, 2]
    """
    runs = [rows for column in columns for _, rows in column]
    if sys.byteorder == "little" and all(rows.itemsize == 2 for rows in runs):
        narrow = b"".join(rows.tobytes() for rows in runs)
        wide = bytearray(2 * len(narrow))
        wide[0::4] = narrow[0::2]
        wide[1::4] = narrow[1::2]
    else:
        wide = bytearray(array("i", [r for rows in runs for r in rows]).tobytes())
    view = memoryview(wide)
    parts: list[bytes | memoryview] = []
    at = 0
    for column in columns:
        parts.append(struct.pack("<i", len(column)))
        for coefficient, rows in column:
            size = 4 * len(rows)
            parts += (struct.pack("<ii", coefficient, len(rows)), view[at : at + size])
            at += size
    return b"".join(parts)


def _is_prime(n: int) -> bool:
    """Miller-Rabin with the first twelve primes as bases: deterministic below 3.3·10^24, so for every n < 2^62."""
    if n < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    if n in bases:
        return True
    if any(n % b == 0 for b in bases):
        return False
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in bases:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


_PRIMES: list[int] = []


def primes(k: int) -> list[int]:
    """The ``k`` largest primes below 2^62, in decreasing order (found once, as many as asked for so far).

    >>> primes(2) == [2**62 - 57, 2**62 - 87]
    True
    """
    n = _PRIMES[-1] - 2 if _PRIMES else (1 << 62) - 1
    while len(_PRIMES) < k:
        if _is_prime(n):
            _PRIMES.append(n)
        n -= 2
    return _PRIMES[:k]


def residue_sums(table: FlatTable, counts: Sequence[int]) -> list[int] | None:
    """Every column's exact count for a shoe of any size, by the kernel modulo enough primes below 2^62 (and 2^128
    for a shoe of fewer than 2^64 cards) and the Chinese remainder theorem (``None`` where the kernel was not built).

    A column's count is at most S·3·(N)_6 in absolute value (S its largest sum of |coefficients|, each run's
    weights adding up to at most 3·(N)_6), so moduli whose product M exceeds twice that bound give it exactly as
    the residue modulo M nearest zero, which the kernel rebuilds itself (Garner's mixed radix, from the primes'
    inverses modulo each other, which it checks). Below 2^64 cards the 128-bit kernel's own wrapping arithmetic gives
    each count modulo 2^128 for free: one prime then takes a shoe to 5·10^8 cards, where primes alone need three;
    and just past the 128-bit proof (the core bets: to some 1.1·10^7 cards) the prime below 2^32 is enough
    (:data:`SMALL_PRIME`), whose residues the kernel walks in 32 bits.

    >>> from exactodds.puntobanco.compiled.flat import FlatTable
    >>> t = FlatTable("k", (array("H", [0]), array("H", [0]), array("H", [0])), (((2, array("H", [0])),),))
    >>> residue_sums(t, [10**30] * 13) in ([2], None)
    True
    """
    arguments = packed(table) if _residues is not None else None
    if _residues is None or arguments is None:
        return None
    cards = sum(counts)
    wrap = cards < _WRAP_CARDS
    chosen, moduli, inverses = _plan(3 * _SPREAD[table] * falling_factorial(cards, DRAW), wrap)
    # Each count as itself, or when at least p as its residue plus p (still at least p > 6): the kernel's factor
    # rows are products and sums of these but for the clips of c0 - 2 and c0 - 4, which then act as on the true
    # counts, so every entry is the true one modulo p.
    reduced = array("Q", [c if c < p else c % p + p for p in chosen for c in counts])
    found: list[int] = _residues(arguments, reduced, moduli, array("Q", counts) if wrap else None, inverses)
    return found


#: A shoe of fewer cards than this gives the kernel its exact counts, and each column modulo 2^128 comes free.
_WRAP_CARDS = 1 << 64
_PLANS: dict[tuple[int, bool], tuple[tuple[int, ...], bytes, bytes]] = {}


def _plan(bound: int, wrap: bool) -> tuple[tuple[int, ...], bytes, bytes]:
    """The primes for a count of at most ``bound`` in absolute value (their product, with 2^128 when ``wrap``, above
    twice the bound), as the kernel reads them, and their inverses modulo each other for its Chinese remainder
    theorem (:func:`_inverses`), kept per size of bound."""
    key = (bound.bit_length(), wrap)
    found = _PLANS.get(key)
    if found is None:
        limit = 2 << key[0]  # above twice any bound of this bit length
        chosen: list[int] = []
        modulus = _WRAP if wrap else 1
        if wrap and _WRAP * SMALL_PRIME > limit:  # 2^128 and a prime below 2^32: the kernel walks 20 bytes a row
            chosen.append(SMALL_PRIME)
        for p in () if chosen else primes(2 + key[0] // 61):
            if modulus > limit and chosen:
                break
            chosen.append(p)
            modulus *= p
        found = _PLANS[key] = (tuple(chosen), array("Q", chosen).tobytes(), _inverses(chosen))
    return found


#: 2^128: the modulus of the 128-bit kernel's wrapping arithmetic.
_WRAP = 1 << 128
#: The largest prime below 2^32: with 2^128, the moduli of a count below 2^158 (a shoe up to some 10^8 cards), whose
#: residues the kernel keeps and walks in 32 bits (flat_residues' small layout), a third of the walk's bytes less.
SMALL_PRIME = 4_294_967_291


def _inverses(moduli: Sequence[int]) -> bytes:
    """Garner's constants as the kernel reads them: for i = 1, 2, ... and each j < i, p_j^-1 modulo p_i in
    Montgomery's form (times 2^64, modulo p_i), uint64 each.

    >>> array("Q", _inverses([7, 5])).tolist() == [pow(7, -1, 5) * 2**64 % 5]
    True
    """
    return array("Q", [pow(moduli[j], -1, p) * _R % p for i, p in enumerate(moduli) for j in range(i)]).tobytes()


#: R = 2^64, the kernel's Montgomery radix.
_R = 1 << 64


def probe_sums(table: FlatTable, rows: Sequence[int]) -> list[list[int]] | None:
    """For each of ``rows`` (distinct row numbers below 2^16) and each column, the coefficients of the column's runs
    added once for each time the row appears in them, by the kernel (``None`` where it cannot serve): the probe
    check of a table read from disk (:meth:`~.probe.FlatProbe.holds`).

    >>> from exactodds.puntobanco.compiled.flat import FlatTable
    >>> t = FlatTable("k", (array("H", [0, 0]),) * 3, (((2, array("H", [0, 1, 1])), (-1, array("H", [1]))),))
    >>> probe_sums(t, [1, 0]) in ([[3], [2]], None)  # row 1: twice at 2, once at -1
    True
    """
    words = _runs(table) if _probe is not None else None
    if _probe is None or words is None:
        return None
    columns = len(table.columns)
    out = array("q")
    out.frombytes(_probe(words, columns, array("i", rows).tobytes()))
    return [out[i * columns : (i + 1) * columns].tolist() for i in range(len(rows))]


def sums(table: FlatTable, counts: Sequence[int]) -> list[int] | None:
    """Every column's exact count for a shoe of 13 counts by rank, by the kernel; ``None`` where it cannot serve
    (not built, a shoe beyond its proof, a table it cannot take): the caller then sums in Python integers.

    >>> from exactodds.puntobanco.compiled.flat import FlatTable
    >>> t = FlatTable("k", (array("H", [0]), array("H", [0]), array("H", [0])), (((2, array("H", [0])),),))
    >>> sums(t, [4] * 13) in ([2], None)  # the W weight of the empty multiset is 1: the count is the coefficient
    True
    """
    cards = sum(counts)
    if _kernel is None:
        return None
    if cards > _largest(fits):
        return residue_sums(table, counts)
    arguments = packed(table)
    if arguments is None:
        return None
    found: list[int] = _kernel(arguments, array("Q", counts), cards <= _largest(narrow))
    return found


def sums_many(table: FlatTable, shoes: Sequence[Sequence[int]]) -> list[list[int] | None]:
    """:func:`sums` of each shoe (13 counts by rank), the shoes within 64-bit words priced by the kernel two at a time.

    The kernel's ``flat_sums_many`` lays each row's weights for two shoes side by side and walks the table's runs once
    for both (one vector add per row), the same exact integers as :func:`sums` gives each (each shoe's bounds are its
    own: the C file's comment); a shoe past 1,356 cards takes :func:`sums` alone, and ``None`` is where it cannot serve.

    >>> from exactodds.puntobanco.compiled.flat import FlatTable
    >>> t = FlatTable("k", (array("H", [0]), array("H", [0]), array("H", [0])), (((2, array("H", [0])),),))
    >>> sums_many(t, [[4] * 13] * 3) in ([[2], [2], [2]], [None] * 3)
    True
    """
    if len(shoes) < 2:  # one shoe alone: flat_sums, which walks the table in one lane
        return [sums(table, counts) for counts in shoes]
    out: list[list[int] | None] = [None] * len(shoes)
    many, largest = _many if _kernel is not None else None, _largest(narrow)
    small = [i for i, counts in enumerate(shoes) if sum(counts) <= largest] if many is not None else []
    arguments = packed(table) if len(small) > 1 else None
    if many is not None and arguments is not None:
        for i, found in zip(small, many(arguments, array("Q", [c for j in small for c in shoes[j]]))):
            out[i] = found
    for i, counts in enumerate(shoes):
        if out[i] is None:
            out[i] = sums(table, counts)
    return out


_LARGEST: dict[Callable[[int], bool], int] = {}


def _largest(holds: Callable[[int], bool]) -> int:
    """The largest shoe for which ``holds`` (:func:`fits` or :func:`narrow`, each true up to a size and false
    beyond: their bounds grow with N), found once by bisection: the bounds' powers cost a call a few microseconds."""
    found = _LARGEST.get(holds)
    if found is None:
        low, high = 0, 1 << 64
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (mid, high) if holds(mid) else (low, mid)
        found = _LARGEST[holds] = low
    return found
