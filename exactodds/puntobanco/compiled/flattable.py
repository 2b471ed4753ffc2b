"""A flat table in memory and on disk: a bet set's coefficients as rows and columns of small integers, each shoe's
counts by the compiled kernel or in Python integers, and the file that keeps the table between processes.

:mod:`.flat` builds a table from the compiled table, prices shoes from it, and says when a file is trusted; here are
what a table is (:class:`FlatTable`), its bytes (:func:`encode`, :func:`decode`, checked by a sha256 digest of the
whole and its exact key) and how the file is read and written in the user's own folder (``_load``, ``_save``).
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Sequence
from itertools import accumulate, product
from operator import mul
from pathlib import Path
from typing import Any

from ...records import record
from ...version import __version__
from ..rules import Tableau
from . import native
from .factors import DRAW, factor_rows
from .private import load_private, store_private

#: Bump when the file layout changes: old files are then ignored (their key differs).
FLAT_FORMAT = 3
_MAGIC = b"exactodds flat table\n"
_SEVEN = DRAW + 1
#: The factor row of value 0 in each block (W, A, B), as in the kernel.
_BLOCK_ROWS = (0, 10, 11)
_LITTLE = sys.byteorder == "little"


@record(eq=False)
class FlatTable:
    """A bet set's coefficients: per row, offsets into the three outer products; per column, runs of rows.

    ``index[k][r]`` is row r's offset into the k-th outer product of the factor rows
    (values 0-2 with the block, 3-5, 6-9); ``columns[j]`` is column j as runs
    (coefficient, row numbers), one run per distinct nonzero coefficient.
    """

    key: str
    index: tuple[array[int], array[int], array[int]]
    columns: tuple[tuple[tuple[int, array[int]], ...], ...]

    def evaluate(self, counts: Sequence[int], *, kernel: bool = True) -> list[int]:
        """The exact count of every column for a shoe of 13 counts by rank: by the compiled kernel where it serves
        (:mod:`.native`; not with ``kernel=False``), else in Python integers.

        >>> table = FlatTable("k", (array("H", [0]), array("H", [0]), array("H", [0])), (((2, array("H", [0])),),))
        >>> table.evaluate([4] * 13), table.evaluate([4] * 13, kernel=False)  # the empty multiset's W weight is 1
        ([2], [2])
        """
        if kernel:
            found = native.sums(self, counts)
            if found is not None:
                return found
        return self._sums(self._weights(counts))

    def _weights(self, counts: Sequence[int]) -> list[int]:
        """The weight of every row for a shoe of 13 counts by rank."""
        f = factor_rows(list(counts))
        # The three outer products, flattened in RowWeights' order: (block, m0, m1, m2), (m3, m4, m5), (m6..m9).
        zero = [f[row] for row in _BLOCK_ROWS]
        first = [a * b * c for z in zero for a, b, c in product(z, f[1], f[2])]
        second = [a * b * c for a, b, c in product(f[3], f[4], f[5])]
        third = [a * b * c * d for a, b, c, d in product(f[6], f[7], f[8], f[9])]
        i0, i1, i2 = self.index
        pairs = map(mul, map(first.__getitem__, i0), map(second.__getitem__, i1))
        return list(map(mul, pairs, map(third.__getitem__, i2)))

    def _sums(self, weights: list[int]) -> list[int]:
        """Every column's sum of its coefficients times the weights of their rows."""
        get = weights.__getitem__
        # A column's few distinct coefficients multiply sums of weights: one multiplication per run.
        return [sum(c * sum(map(get, rows)) for c, rows in column) for column in self.columns]


def flat_key(tableau: Tableau, masks: Sequence[int]) -> str:
    """The full key of a flat table: package version, file format, tableau and each column's states (hex).

    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
    >>> flat_key(STANDARD_TABLEAU, [5, 10]).endswith(" 5 a")
    True
    """
    return f"exactodds {__version__} flat {FLAT_FORMAT} {tableau.key()} " + " ".join(f"{m:x}" for m in masks)


def _sha256(data: bytes | memoryview) -> Any:
    """A sha256 hash object: CPython's own (built in, quick to load) where there is one, else hashlib's."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]  # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found]  # Python 3.11
        except ImportError:  # another Python: hashlib (OpenSSL) costs the start-up a few ms more
            from hashlib import sha256
    return sha256(data)


def _file_name(key: str) -> str:
    return f"flat-{_sha256(key.encode()).hexdigest()[:20]}.bin"


def _le(a: array[int]) -> bytes:
    """An array's bytes in little-endian order."""
    if _LITTLE:
        return a.tobytes()
    b = array(a.typecode, a)
    b.byteswap()
    return b.tobytes()


def encode(table: FlatTable) -> bytes:
    """A flat table as bytes: magic, a sha256 digest, then the key, the rows' offsets and the columns' runs."""
    key = table.key.encode()
    parts = [struct.pack("<II", len(key), len(table.index[0])), key, *(_le(a) for a in table.index)]
    parts.append(struct.pack("<I", len(table.columns)))
    for column in table.columns:  # its runs' coefficients, their lengths, then all their rows
        parts.append(struct.pack("<I", len(column)))
        parts += [_le(array("h", [c for c, _ in column])), _le(array("I", [len(rows) for _, rows in column]))]
        parts += [_le(rows) for _, rows in column]
    body = b"".join(parts)
    digest: bytes = _sha256(body).digest()
    return _MAGIC + digest + body


def _offsets_in_range(index: tuple[array[int], array[int], array[int]]) -> bool:
    """Whether every row's offsets fall inside the three outer products (3·7^3, 7^3 and 7^4 entries)."""
    return all(not a or max(a) < size for a, size in zip(index, (3 * _SEVEN**3, _SEVEN**3, _SEVEN**4)))


def decode(data: bytes, key: str) -> FlatTable | None:
    """The flat table in ``data`` if its form is right and its key is ``key``, else ``None``."""
    head = len(_MAGIC) + 32
    if not data.startswith(_MAGIC) or len(data) < head + 8:
        return None
    body = memoryview(data)[head:]
    if _sha256(body).digest() != data[len(_MAGIC) : head]:
        return None
    key_bytes, rows = struct.unpack_from("<II", body)
    at = 8
    if bytes(body[at : at + key_bytes]) != key.encode():
        return None
    at += key_bytes

    def take(n: int, code: str = "H") -> array[int]:
        nonlocal at
        a = array(code)
        a.frombytes(body[at : at + a.itemsize * n])
        if len(a) != n:
            raise ValueError("truncated")
        if not _LITTLE:
            a.byteswap()
        at += a.itemsize * n
        return a

    index = (take(rows), take(rows), take(rows))
    if not _offsets_in_range(index):
        return None
    (width,) = struct.unpack_from("<I", body, at)
    at += 4
    columns = []
    for _ in range(width):
        (n,) = struct.unpack_from("<I", body, at)
        at += 4
        coefficients, lengths = take(n, "h"), take(n, "I")
        if 0 in coefficients:
            return None
        part = take(sum(lengths))
        starts = [0, *accumulate(lengths)]
        columns.append(tuple((c, part[a:b]) for c, a, b in zip(coefficients, starts, starts[1:])))
    if at != len(body):
        return None
    return FlatTable(key, index, tuple(columns))


def _load(path: Path, key: str) -> FlatTable | None:
    """The flat table cached at ``path`` if it is the user's own and well formed, else ``None``."""
    return load_private(path, lambda data: decode(data, key))


def _save(path: Path, table: FlatTable) -> None:
    """Write ``table`` to ``path`` atomically, in a private folder only; a failure costs a rebuild next time."""
    store_private(path, lambda: encode(table))
