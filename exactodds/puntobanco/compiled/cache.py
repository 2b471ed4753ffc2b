"""The on-disk cache of compiled tables: verified before it is trusted, rebuilt when it is not.

Building a table walks 10^6 sequences (about a second), so :func:`compiled` keeps each
tableau's table in memory and in a file named by :func:`cache_key`. A cache file is
trusted only after three independent checks, and any failure (or any exception at all
while reading it) means "rebuild and rewrite":

1. Where it lies: the folder and the file must belong to the user and be writable by
   nobody else, the file must be a regular file (never a symlink, FIFO or device: it is
   opened with O_NOFOLLOW | O_NONBLOCK and checked with fstat before a byte is read).
2. Its form: exactly the expected arrays, each with its exact dtype and shape, every
   index in range, the cells strictly sorted, and a sha256 digest of the canonical
   (little-endian) bytes of all of them, stored inside the file, must match.
3. Its content, by an exact invariant that no single changed coefficient can pass.
   Each six-card value sequence of multiset m adds exactly one unit to the W row of m
   (see :mod:`exactodds.puntobanco.compiled.table`), and to the A and B rows terms that cancel
   (+1 -1, +1 -2 +1, ...). So, summing a row's coefficients over all states,

       W row of m:  6! / prod_v m_v!   (the orderings of m),      A row, B row:  0;

   and summing over the states with a Player pair (or a Banker pair) only,

       W row: the orderings with cards 1 and 3 (2 and 4) of one value v in 1..9,
              sum_v 4! / prod (m - 2e_v)!,
       A row: those with both cards 0-valued, 4! / prod (m - 2e_0)!,

   and over the states with both pairs, B row: 2! / prod (m - 4e_0)!.
   A changed coefficient changes its row's total, so check 3 alone catches it even when
   the digest was recomputed; the digest catches what moves units between states.
4. Its content against a fresh deal: the W rows of a few fixed six-card hands must hold,
   state by state, how many of the hand's orderings end there, as dealt card by card
   (:mod:`exactodds.puntobanco.compiled.probe`). That catches units moved between states on those
   rows, such as two whole states swapped, when the digest was recomputed too.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np

from ...version import __version__
from ..coup import CoupState, decode_state, state_code
from ..rules import Tableau
from .factors import DRAW
from .kernel import BLOCKS
from .private import cache_dir
from .private import load_private as _load_private
from .private import store_private as _store_private
from .private import tighten as _tighten
from .private import touch as _touch
from .probe import PROBES, probe_states
from .table import CompiledTableau, build

#: Bump when the table layout or the building walk changes: old cache files are then ignored.
#: 2: the file holds its format number and a digest, and is verified before use.
FORMAT_VERSION = 2
_FIELDS = ("format", "tableau", "multisets", "state_codes", "rows", "cols", "coefficients", "digest")
_STATE_CODES = 1600  # ((9·10 + 9)·2 + 1)·2 + 1, then ·4 + 3, plus one


def cache_key(tableau: Tableau) -> str:
    """A key that changes whenever the tableau, the table format or the package version does."""
    text = f"exactodds {__version__} format {FORMAT_VERSION} numpy-layout 1 {tableau.key()}"
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _encode_states(states: Sequence[CoupState]) -> np.ndarray:
    return np.array([state_code(s) for s in states], dtype=np.int64)


#: The exact dtype of every array of a cache file (checked before the digest is read).
_DTYPES: dict[str, np.dtype[Any]] = {
    "multisets": np.dtype(np.int64),
    "state_codes": np.dtype(np.int64),
    "rows": np.dtype(np.int32),
    "cols": np.dtype(np.int32),
    "coefficients": np.dtype(np.int16),
}


def _digest(key: str, arrays: dict[str, np.ndarray]) -> str:
    """sha256 over the format, the tableau key and each array's dtype, shape and little-endian bytes."""
    h = hashlib.sha256(f"exactodds compiled table format {FORMAT_VERSION}\0{key}\0".encode())
    for name, dtype in _DTYPES.items():
        a = np.ascontiguousarray(arrays[name], dtype=dtype.newbyteorder("<"))
        h.update(f"{name} {dtype.str} {a.shape}\0".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _table_arrays(table: CompiledTableau) -> dict[str, np.ndarray]:
    return {
        "multisets": table.multisets,
        "state_codes": _encode_states(table.states),
        "rows": table.rows,
        "cols": table.cols,
        "coefficients": table.coefficients,
    }


def _encode(table: CompiledTableau) -> bytes:
    """The cache file of ``table``: an uncompressed .npz with its digest inside."""
    arrays = _table_arrays(table)
    key = table.tableau.key()
    arrays["format"] = np.array(FORMAT_VERSION, dtype=np.int64)
    arrays["tableau"] = np.array(key)
    arrays["digest"] = np.array(_digest(key, arrays))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


@lru_cache(maxsize=1)
def _canonical_multisets() -> np.ndarray:
    """All 5,005 six-card value multisets as counts per value, in the order of :func:`build` (by base-7 key)."""
    combos = np.array(list(combinations_with_replacement(range(10), DRAW)), dtype=np.int64)
    counts = np.zeros((len(combos), 10), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(len(combos)), DRAW), combos.reshape(-1)), 1)
    order = np.argsort(counts @ (7 ** np.arange(10, dtype=np.int64)))
    counts = counts[order]
    counts.flags.writeable = False
    return counts


def _orderings(m: np.ndarray, n: int) -> np.ndarray:
    """n! / prod_v m_v! per row of value counts m summing to n (0 where a count is negative)."""
    factorial = np.array([1, 1, 2, 6, 24, 120, 720], dtype=np.int64)
    ok = (m >= 0).all(axis=1)
    return np.where(ok, factorial[n] // factorial[np.clip(m, 0, DRAW)].prod(axis=1), 0)


def _invariants_hold(multisets: np.ndarray, codes: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                     coefficients: np.ndarray) -> bool:  # fmt: skip
    """The row totals of the table equal the counts of orderings they must hold (see the comment above)."""
    R = len(multisets)
    coef = coefficients.astype(np.int64)
    pp = (codes[cols] >> 1) & 1
    bp = codes[cols] & 1

    def totals(weights: np.ndarray) -> np.ndarray:
        out = np.zeros(BLOCKS * R, dtype=np.int64)
        np.add.at(out, rows, weights)
        return out.reshape(BLOCKS, R)

    def minus(value: int, k: int) -> np.ndarray:
        shifted = multisets.copy()
        shifted[:, value] -= k
        return shifted

    every, player, banker, both = totals(coef), totals(coef * pp), totals(coef * bp), totals(coef * pp * bp)
    value_pairs = sum(_orderings(minus(v, 2), 4) for v in range(1, 10))
    zero_pairs = _orderings(minus(0, 2), 4)
    return bool(
        np.array_equal(every[0], _orderings(multisets, DRAW))
        and not every[1:].any()
        and np.array_equal(player[0], value_pairs)
        and np.array_equal(banker[0], value_pairs)
        and np.array_equal(player[1], zero_pairs)
        and np.array_equal(banker[1], zero_pairs)
        and np.array_equal(both[2], _orderings(minus(0, 4), 2))
    )


def _probes_hold(tableau: Tableau, multisets: np.ndarray, codes: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                 coefficients: np.ndarray) -> bool:  # fmt: skip
    """The W rows of the probe hands hold, state by state, what a fresh deal of their orderings gives."""
    powers = 7 ** np.arange(10, dtype=np.int64)
    keys = multisets @ powers  # the canonical order of the multisets is by this key
    for m, expected in zip(PROBES, probe_states(tableau)):
        row = int(np.searchsorted(keys, np.array(m, dtype=np.int64) @ powers))
        lo, hi = np.searchsorted(rows, [row, row + 1])  # the cells are sorted by row
        found = {decode_state(int(codes[c])): int(k) for c, k in zip(cols[lo:hi], coefficients[lo:hi])}
        if found != expected:
            return False
    return True


def _decode(data: bytes, tableau: Tableau) -> CompiledTableau | None:
    """The table in a cache file's bytes if every check holds, else ``None``."""
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        if sorted(npz.files) != sorted(_FIELDS):
            return None
        a = {name: npz[name] for name in _FIELDS}
    key = tableau.key()
    for name in ("format", "tableau", "digest"):
        if a[name].shape != ():
            return None
    if a["format"].dtype != np.int64 or int(a["format"]) != FORMAT_VERSION:
        return None
    if a["tableau"].dtype.kind != "U" or str(a["tableau"]) != key:
        return None
    if any(a[name].dtype != dtype for name, dtype in _DTYPES.items()):
        return None
    multisets, codes, rows, cols, coefficients = (a[name] for name in _DTYPES)
    if a["digest"].dtype.kind != "U" or str(a["digest"]) != _digest(key, a):
        return None
    if not np.array_equal(multisets, _canonical_multisets()):
        return None
    S = len(codes)
    if codes.ndim != 1 or not 0 < S <= _STATE_CODES or codes[0] < 0 or codes[-1] >= _STATE_CODES:
        return None
    if not (np.diff(codes) > 0).all():  # build() stores the codes sorted and distinct
        return None
    if rows.ndim != 1 or cols.shape != rows.shape or coefficients.shape != rows.shape or not len(rows):
        return None
    if rows.min() < 0 or rows.max() >= BLOCKS * len(multisets) or cols.min() < 0 or cols.max() >= S:
        return None
    cells = rows.astype(np.int64) * S + cols
    if not (np.diff(cells) > 0).all() or not coefficients.all():  # sorted distinct cells, no stored zeros
        return None
    if not _invariants_hold(multisets, codes, rows, cols, coefficients):
        return None
    if not _probes_hold(tableau, multisets, codes, rows, cols, coefficients):
        return None
    return CompiledTableau(
        tableau=tableau,
        multisets=multisets,
        states=tuple(decode_state(int(c)) for c in codes),
        rows=rows,
        cols=cols,
        coefficients=coefficients,
    )


def _load(path: Path, tableau: Tableau) -> CompiledTableau | None:
    """The verified table cached at ``path``, or ``None`` when it is missing, foreign, unsafe or damaged in any way."""
    return _load_private(path, lambda data: _decode(data, tableau))


def _save(path: Path, table: CompiledTableau) -> None:
    """Write ``table`` to ``path`` atomically, in a private folder only; a failure costs a rebuild next time."""
    _store_private(path, lambda: _encode(table))


def _path(folder: Path, tableau: Tableau) -> Path:
    return folder / f"compiled-{cache_key(tableau)}.npz"


def mark_used(tableau: Tableau) -> None:
    """Mark the cache file of ``tableau``'s table as just used (from memory: a flat table was built from it).

    A process that writes flat tables thereby keeps the compiled table they come from
    among the most recently used, so that its own writes never evict it (see
    :func:`~exactodds.puntobanco.compiled.private.prune`).
    """
    folder = cache_dir()
    if folder is not None:
        _touch(_path(folder, tableau))


@lru_cache(maxsize=16)
def compiled(tableau: Tableau) -> CompiledTableau:
    """The compiled table for ``tableau``: from memory, else the disk cache, else built (≈1 s) and cached.

    The cache file name is :func:`cache_key`, which covers the tableau, the package
    version and the table format, so a change in any of them can never load a stale table.
    A cache file is used only after it is verified (see the module docstring);
    anything wrong with it means the table is built again and the file rewritten.
    """
    folder = cache_dir()
    if folder is None:
        return build(tableau)
    if not os.environ.get("EXACTODDS_CACHE"):
        _tighten(folder)
    path = _path(folder, tableau)
    table = _load(path, tableau)
    if table is None:
        table = build(tableau)
        _save(path, table)
    return table
