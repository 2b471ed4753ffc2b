"""The compiled evaluator: the exhaustive walk folded once per tableau into a table.

All orderings of the same multiset of card values are equally likely, so a coup's
result depends on which values were dealt and in which order, while its weight
depends only on the multiset. Once per tableau we walk all 10^6 sequences of six
card values (the counting convention deals six cards) and record, for each of the
5,005 six-card value multisets m and each final coup state, how many of the
multiset's orderings end there. For a shoe with c_v cards of value v, an ordering
of m is dealt in

    W(m) = prod_v (c_v)(c_v - 1)...(c_v - m_v + 1)

ways, so a count is a sum of table entries times W(m): a product of falling
factorials per multiset, then a dot product. It vectorises (numpy) and batches.

Pairs need ranks, not values. Values 1-9 have one rank each, so there a pair is
just equal values. Value 0 holds four ranks (T, J, Q, K): when cards 1 and 3 (or 2
and 4) are both 0-valued, the orderings split into same-rank and different-rank
ones. With P2 = sum_r (c_r)_2 over the four 0-valued ranks, the ways in which the
two Player cards share a rank are A(m) = P2 · (c_0 - 2)_(m_0 - 2) · prod_{v>0}(c_v)_(m_v);
both hands pairing takes B(m) = P22 · (c_0 - 4)_(m_0 - 4) · ..., where
P22 = sum_{r != s} (c_r)_2 (c_s)_2 + sum_r (c_r)_4. The table therefore has three
blocks of rows (W, A, B) with small integer coefficients (the "no pair" cases are
W - A, A - B and W - 2A + B).

Exactness: every weight and every final count is at most (N)_6. A sequence adds at
most 1 W-unit, 4 A-units and 4 B-units in absolute value (see the coefficients in
:func:`build`), and A, B <= W, so every partial sum of a dot product is at most
9·(N)_6 in absolute value. So int64 is exact when 9·N^6 < 2^63, i.e. N <= 1,004
cards (19 decks); beyond that the same arithmetic runs on Python integers (numpy
object arrays), exact at any size. The batch path goes further for N <= 458 (eight
decks and anything smaller): there (N)_6 < 2^53, so every weight is an integer that
float64 holds exactly; each weight is split into a high and a low 26-bit limb and
both dot products run in float64 BLAS, where every product and partial sum is an
integer below 2^53 (the limb bound is checked against each table's column sums).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from .bets import Bet
from .cards import RANK_VALUES, ZERO_RANKS, Shoe, falling_factorial
from .coup import CoupState, decode_state, encode_state, state_code
from .engine import CoupDistribution
from .files import write_atomic
from .rules import Tableau, deal_table
from .version import __version__

#: Bump when the table layout or the building walk changes: old cache files are then ignored.
#: 2: the file holds its format number and a digest, and is verified before use.
FORMAT_VERSION = 2
INT64_LIMIT = 2**63 - 1
#: Cards dealt per counted ordering.
DRAW = 6
_BLOCKS = 3  # W, A, B


def int64_is_exact(cards: int) -> bool:
    """Whether the int64 path is proved exact for an N-card shoe (9·N^6 < 2^63).

    >>> int64_is_exact(416), int64_is_exact(1004), int64_is_exact(1005)
    (True, True, False)
    """
    return bool(9 * cards**DRAW <= INT64_LIMIT)


def float64_is_exact(cards: int) -> bool:
    """Whether the batch path's float64 arithmetic is proved exact for an N-card shoe ((N)_6 < 2^53).

    >>> float64_is_exact(416), float64_is_exact(458), float64_is_exact(459)
    (True, True, False)
    """
    return falling_factorial(cards, DRAW) < 2**53


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
        return _BLOCKS * len(self.multisets)

    def project(self, membership: np.ndarray) -> np.ndarray:
        """The table summed over groups of states: ``membership[state, k]`` is 1 when state is in group k.

        Returns a dense int64 matrix, one row per table row and one column per group.
        """
        out = np.zeros((self.row_count, membership.shape[1]), dtype=np.int64)
        if membership.shape == (len(self.states),) * 2 and np.array_equal(membership, np.eye(len(self.states))):
            np.add.at(out, (self.rows, self.cols), self.coefficients.astype(np.int64))  # one group per state
            return out
        # The coefficients are stored sorted by row, so each row's sum is one reduceat slice.
        contributions = self.coefficients.astype(np.int64)[:, None] * membership[self.cols].astype(np.int64)
        starts = np.flatnonzero(np.r_[True, self.rows[1:] != self.rows[:-1]])
        out[self.rows[starts]] = np.add.reduceat(contributions, starts, axis=0)
        return out


def build(tableau: Tableau) -> CompiledTableau:
    """Walk all 10^6 six-card value sequences under ``tableau`` and fold them into a table.

    >>> from exactodds.rules import STANDARD_TABLEAU
    >>> table = build(STANDARD_TABLEAU)
    >>> len(table.multisets), len(table.states) <= 1600
    (5005, True)
    """
    v1, v2, v3, v4, v5, v6 = np.indices((10,) * DRAW, dtype=np.int16).reshape(DRAW, -1)
    # How every sequence ends, read from the one deal (rules.deal_table) by its two-card totals
    # and its 5th and 6th values; the pair flags are added per block below.
    finals = np.array(deal_table(tableau), dtype=np.int32)
    pt, bt, pn, bn = finals[(((v1 + v3) % 10 * 10 + (v2 + v4) % 10) * 10 + v5) * 10 + v6].T
    base = encode_state(pt, bt, pn, bn, 0, 0)  # then + 2·player_pair + banker_pair

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
        parts.append((block + multiset[mask], base[mask] + 2 * pp_arr + bp_arr, coefficient))

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


# --- the on-disk cache -------------------------------------------------------------------
#
# A cache file is trusted only after three independent checks, and any failure (or any
# exception at all while reading it) means "rebuild and rewrite":
#
# 1. Where it lies: the folder and the file must belong to the user and be writable by
#    nobody else, the file must be a regular file (never a symlink, FIFO or device: it is
#    opened with O_NOFOLLOW | O_NONBLOCK and checked with fstat before a byte is read).
# 2. Its form: exactly the expected arrays, each with its exact dtype and shape, every
#    index in range, the cells strictly sorted, and a sha256 digest of the canonical
#    (little-endian) bytes of all of them, stored inside the file, must match.
# 3. Its content, by an exact invariant that no single changed coefficient can pass.
#    Each six-card value sequence of multiset m adds exactly one unit to the W row of m
#    (see :func:`build`), and to the A and B rows terms that cancel (+1 -1, +1 -2 +1, ...).
#    So, summing a row's coefficients over all states,
#       W row of m:  6! / prod_v m_v!   (the orderings of m),      A row, B row:  0;
#    and summing over the states with a Player pair (or a Banker pair) only,
#       W row: the orderings with cards 1 and 3 (2 and 4) of one value v in 1..9,
#              sum_v 4! / prod (m - 2e_v)!,
#       A row: those with both cards 0-valued, 4! / prod (m - 2e_0)!,
#    and over the states with both pairs, B row: 2! / prod (m - 4e_0)!.
#    A changed coefficient changes its row's total, so check 3 alone catches it even when
#    the digest was recomputed; the digest catches what moves units between states.

_FIELDS = ("format", "tableau", "multisets", "state_codes", "rows", "cols", "coefficients", "digest")
_STATE_CODES = 1600  # ((9·10 + 9)·2 + 1)·2 + 1, then ·4 + 3, plus one
_MAX_CACHE_BYTES = 64 << 20  # a table file is a few MB; anything far bigger is not one


def cache_dir() -> Path | None:
    """Where compiled tables are kept, or ``None`` when there is no proper place (then tables are built in memory).

    In order: ``$EXACTODDS_CACHE`` when set and not empty (a relative value is taken
    from the current folder, made absolute at the call); else ``$XDG_CACHE_HOME/exactodds``
    when that is an absolute path (the XDG rules call a relative one invalid, so it is
    ignored); else ``$HOME/.cache/exactodds`` when ``HOME`` is an absolute path; else none.
    The folder is used only if it belongs to the user and nobody else can write to it
    (a shared folder is neither read nor written: tables are then built in memory); the
    default folder, when it is the user's, has group and others' write access taken off.

    >>> import os
    >>> os.environ.get("EXACTODDS_CACHE") or cache_dir() is None or cache_dir().name == "exactodds"
    True
    """
    override = os.environ.get("EXACTODDS_CACHE")
    if override:
        return Path(os.path.abspath(override))
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "exactodds"
    home = os.environ.get("HOME", "")
    if os.path.isabs(home):
        return Path(home) / ".cache" / "exactodds"
    return None


def cache_key(tableau: Tableau) -> str:
    """A key that changes whenever the tableau, the table format or the package version does."""
    text = f"exactodds {__version__} format {FORMAT_VERSION} numpy-layout 1 {tableau.key()}"
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _private(st: os.stat_result) -> bool:
    """Whether a file or folder belongs to the user and nobody else may write to it."""
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    getuid = getattr(os, "getuid", None)  # not on Windows, where there is no such owner to check
    return getuid is None or st.st_uid == getuid()


def _folder_is_private(folder: Path) -> bool:
    """Whether ``folder`` is a folder of the user's that nobody else can write to (see :func:`_private`)."""
    try:
        st = os.stat(folder)
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(st.st_mode) and _private(st)


def _tighten(folder: Path) -> None:
    """Take group and others' write access off the user's own default cache folder.

    Earlier versions made it with the umask's mode (0o775 under a umask of 002), which
    :func:`_folder_is_private` refuses. Taking the access off is safe: every file is still
    checked on its own (the user's, nobody else's to write, and its content), so whatever
    others could do there before leaves nothing that passes for a table.
    """
    with contextlib.suppress(OSError, ValueError):
        st = os.stat(folder, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode) and st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            if _private(os.stat_result((st.st_mode & ~0o022, *tuple(st)[1:]))):  # ours, but for those bits
                os.chmod(folder, stat.S_IMODE(st.st_mode) & ~0o022)


def _read_private(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a private regular file (not a link, FIFO or device), else ``None``."""
    flags = os.O_RDONLY
    for name in ("O_NOFOLLOW", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY"):
        flags |= getattr(os, name, 0)
    try:
        fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size > _MAX_CACHE_BYTES:
            return None
        chunks = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > _MAX_CACHE_BYTES:
                return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


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
        out = np.zeros(_BLOCKS * R, dtype=np.int64)
        np.add.at(out, rows, weights)
        return out.reshape(_BLOCKS, R)

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
    if rows.min() < 0 or rows.max() >= _BLOCKS * len(multisets) or cols.min() < 0 or cols.max() >= S:
        return None
    cells = rows.astype(np.int64) * S + cols
    if not (np.diff(cells) > 0).all() or not coefficients.all():  # sorted distinct cells, no stored zeros
        return None
    if not _invariants_hold(multisets, codes, rows, cols, coefficients):
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
    if not _folder_is_private(path.parent):
        return None
    data = _read_private(path)
    if data is None:
        return None
    try:
        return _decode(data, tableau)
    except Exception:  # any damage at all (BadZipFile, EOFError, zlib.error, ValueError, ...) only means a rebuild
        return None


def _save(path: Path, table: CompiledTableau) -> None:
    """Write ``table`` to ``path`` atomically, in a private folder only; a failure costs a rebuild next time."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _folder_is_private(path.parent):
            return  # a shared folder: another user could swap the file, so it is not written at all
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a damaged or foreign entry goes, lest the new file inherit its permissions
        write_atomic(path, _encode(table), make_parents=False)
    except (OSError, ValueError):
        pass  # a read-only or full disk only costs a rebuild next time


@lru_cache(maxsize=16)
def compiled(tableau: Tableau) -> CompiledTableau:
    """The compiled table for ``tableau``: from memory, else the disk cache, else built (≈1 s) and cached.

    The cache file name is :func:`cache_key`, which covers the tableau, the package
    version and the table format, so a change in any of them can never load a stale table.
    A cache file is used only after it is verified (see the comment above :func:`cache_dir`);
    anything wrong with it means the table is built again and the file rewritten.
    """
    folder = cache_dir()
    if folder is None:
        return build(tableau)
    if not os.environ.get("EXACTODDS_CACHE"):
        _tighten(folder)
    path = folder / f"compiled-{cache_key(tableau)}.npz"
    table = _load(path, tableau)
    if table is None:
        table = build(tableau)
        _save(path, table)
    return table


# --- evaluation ---------------------------------------------------------------------------


def _pair_sums(zero_rank_counts: Sequence[int]) -> tuple[int, int]:
    """P2 and P22 over the 0-valued ranks (see the module docstring)."""
    pairs = [c * (c - 1) for c in zero_rank_counts]
    p2 = sum(pairs)
    p22 = p2 * p2 - sum(x * x for x in pairs) + sum(x * (c - 2) * (c - 3) for x, c in zip(pairs, zero_rank_counts))
    return p2, p22


def factor_table(shoe: Shoe) -> list[list[int]]:
    """Per value v and multiplicity k, the ways to deal k ordered cards of value v.

    Rows 0-9 are (c_v)_k; rows 10 and 11 replace row 0 for the A and B blocks.

    >>> factor_table(Shoe.standard(1))[7][:3], factor_table(Shoe.standard(1))[10][:4]
    ([1, 4, 12], [0, 0, 48, 672])
    """
    ranks = shoe.counts
    zero = [ranks[i] for i in _ZERO_RANKS]
    c0 = sum(zero)
    table = [_falling_row(c0), *(_falling_row(ranks[i]) for i in range(9))]  # ranks A..9 are values 1..9
    p2, p22 = _pair_sums(zero)
    table.append([0, 0] + [p2 * x for x in _falling_row(c0 - 2)[: DRAW - 1]])
    table.append([0, 0, 0, 0] + [p22 * x for x in _falling_row(c0 - 4)[: DRAW - 3]])
    return table


def _falling_row(c: int) -> list[int]:
    """[(c)_0, (c)_1, …, (c)_6], zero once k exceeds c."""
    if c < DRAW:
        row = [1]
        for k in range(DRAW):
            row.append(row[-1] * max(c - k, 0))
        return row
    a = c * (c - 1)
    b = a * (c - 2)
    d = b * (c - 3)
    e = d * (c - 4)
    return [1, c, a, b, d, e, e * (c - 5)]


class Evaluator:
    """Counts of groups of coup states for any shoe, from a compiled table.

    ``membership[i, k]`` is 1 when the i-th state of the table belongs to group k;
    :meth:`counts` returns the exact count of each group for a shoe, and
    :meth:`counts_batch` those of many shoes at once.
    """

    def __init__(self, table: CompiledTableau, membership: np.ndarray) -> None:
        self.table = table
        dense = table.project(membership)
        used = np.flatnonzero(np.any(dense != 0, axis=1))
        self.matrix = np.ascontiguousarray(dense[used])
        R = len(table.multisets)
        block, multiset = np.divmod(used, R)
        m = table.multisets[multiset]
        # Factor rows: value 0 reads row 0, 10 or 11 (block W, A or B); others their own.
        self._flat_zero = np.where(block == 0, 0, np.where(block == 1, 10, 11)) * (DRAW + 1) + m[:, 0]
        self._m = m
        self.width = self.matrix.shape[1]
        # Both paths gather from three outer products: (block, m0, m1, m2), (m3, m4, m5), (m6..m9).
        seven = DRAW + 1
        self._gather_index = (
            ((block * seven + m[:, 0]) * seven + m[:, 1]) * seven + m[:, 2],
            (m[:, 3] * seven + m[:, 4]) * seven + m[:, 5],
            ((m[:, 6] * seven + m[:, 7]) * seven + m[:, 8]) * seven + m[:, 9],
        )
        self._matrix_float = self.matrix.astype(np.float64)
        self._matrix_float_t = np.ascontiguousarray(self._matrix_float.T)
        # Exactness of the float64 limbs: the low limb (< 2^26) times the largest column sum
        # of |coefficients| must stay below 2^53. The high limb's sums are at most
        # 9·(N)_6 / 2^26 < 2^37 whenever int64_is_exact holds.
        column_sum = int(np.abs(self.matrix).sum(axis=0).max()) if self.width else 0
        if column_sum * _LIMB >= 2**53:
            raise AssertionError("compiled table too wide for exact float64 limbs")

    def weights(self, factors: list[list[int]], exact_int64: bool) -> np.ndarray:
        """The weight of every used row for one shoe's factor table."""
        if exact_int64:
            # Three small outer products of factor rows, then one gather from each:
            # (block, m0, m1, m2), (m3, m4, m5) and (m6, m7, m8, m9).
            f = np.array(factors, dtype=np.int64)
            zero = f[[0, 10, 11]]
            first = (zero[:, :, None, None] * f[1][:, None]) * f[2]
            second = (f[3][:, None, None] * f[4][:, None]) * f[5]
            third = ((f[6][:, None, None, None] * f[7][:, None, None]) * f[8][:, None]) * f[9]
            w: np.ndarray = first.reshape(-1).take(self._gather_index[0])
            w *= second.reshape(-1).take(self._gather_index[1])
            w *= third.reshape(-1).take(self._gather_index[2])
            return w
        f_obj = np.empty((len(factors), DRAW + 1), dtype=object)
        for i, row in enumerate(factors):
            f_obj[i, :] = row
        exact: np.ndarray = f_obj.reshape(-1)[self._flat_zero]
        for v in range(1, 10):
            exact = exact * f_obj[v][self._m[:, v]]
        return exact

    def counts(self, shoe: Shoe) -> list[int]:
        """The exact count of every group for one shoe (Python integers)."""
        exact = int64_is_exact(shoe.size)
        w = self.weights(factor_table(shoe), exact)
        if exact:
            return [int(x) for x in w @ self.matrix]
        return [int(x) for x in w @ self.matrix_object]

    @cached_property
    def matrix_object(self) -> np.ndarray:
        """The table as Python integers, for shoes beyond the int64 bound."""
        return self.matrix.astype(object)

    def counts_batch(self, shoes: Sequence[Shoe]) -> list[list[int]]:
        """The exact counts of every group for many shoes, in order."""
        # A handful of shoes is quicker one by one than through the batch kernel; shoes beyond
        # the int64 bound (up to 10^100 cards) go one by one in Python integers, never into int64.
        fast = [i for i, shoe in enumerate(shoes) if len(shoes) >= _BATCH_MIN and int64_is_exact(shoe.size)]
        out: list[list[int]] = [[] for _ in shoes]
        if fast:
            rank_counts = np.array([shoes[i].counts for i in fast], dtype=np.int64).reshape(len(fast), 13)
            for i, row in zip(fast, self.counts_array(rank_counts).tolist()):
                out[i] = row
        done = set(fast)
        for i, shoe in enumerate(shoes):
            if i not in done:
                out[i] = self.counts(shoe)
        return out

    def counts_array(
        self, rank_counts: np.ndarray, chunk: int = 64, workers: int = min(2, os.cpu_count() or 1)
    ) -> np.ndarray:
        """Exact counts (int64, shape n × groups) for an (n × 13) array of rank counts.

        Every shoe must satisfy :func:`int64_is_exact`. Chunks of shoes of at most 458
        cards run in float64 throughout (see the module docstring); larger ones make
        their weights in int64 and then split them into the same two limbs. Chunks are
        shared between ``workers`` threads (numpy releases the GIL in its kernels).
        """
        rank_counts = np.asarray(rank_counts, dtype=np.int64)
        sizes = rank_counts.sum(axis=1)
        if len(sizes) and not int64_is_exact(int(sizes.max())):
            raise ValueError("counts_array needs shoes small enough for int64; use counts_batch")
        out = np.empty((len(rank_counts), self.width), dtype=np.int64)
        spans = [(s, min(s + chunk, len(rank_counts))) for s in range(0, len(rank_counts), chunk)]

        def run(span: tuple[int, int]) -> None:
            lo, hi = span
            part = rank_counts[lo:hi]
            if float64_is_exact(int(sizes[lo:hi].max())):
                out[lo:hi] = self._chunk_float(part).T
            else:
                out[lo:hi] = self._chunk(part)

        # OpenBLAS would otherwise start its own threads for each small product, which on a
        # 2-core machine makes them some 30 times slower; we share out whole chunks instead.
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"):
            if workers > 1 and len(spans) > 1:
                from concurrent.futures import ThreadPoolExecutor

                with ThreadPoolExecutor(max_workers=workers) as pool:
                    list(pool.map(run, spans))
            else:
                for span in spans:
                    run(span)
        return out

    def _chunk_float(self, rank_counts: np.ndarray) -> np.ndarray:
        """Counts (groups × n) for shoes with (N)_6 < 2^53, shoes along the last axis."""
        ranks = rank_counts.T.astype(np.float64)  # (13, n)
        n = ranks.shape[1]
        values = _RANK_TO_VALUE.T @ ranks  # (10, n)
        ff = np.empty((12, DRAW + 1, n))
        ff[:10, 0] = 1
        steps = np.maximum(values[:, None, :] - np.arange(DRAW, dtype=np.float64)[None, :, None], 0)
        np.cumprod(steps, axis=1, out=ff[:10, 1:])
        zero = ranks[_ZERO_RANKS]
        z2 = zero * (zero - 1)
        p2 = z2.sum(axis=0)
        p22 = p2 * p2 - (z2 * z2).sum(axis=0) + (z2 * (zero - 2) * (zero - 3)).sum(axis=0)
        for row, shift, scale in ((10, 2, p2), (11, 4, p22)):
            ff[row, :shift] = 0
            ff[row, shift] = scale
            steps = np.maximum(values[0][None, :] - shift - np.arange(DRAW - shift)[:, None], 0)
            ff[row, shift + 1 :] = scale * np.cumprod(steps, axis=0)
        zero_table = ff[[0, 10, 11]]  # (3, 7, n): the value-0 factor of blocks W, A, B
        first = (zero_table[:, :, None, None, :] * ff[1][None, None, :, None, :]) * ff[2][None, None, None, :, :]
        second = (ff[3][:, None, None, :] * ff[4][None, :, None, :]) * ff[5][None, None, :, :]
        third = (
            (ff[6][:, None, None, None, :] * ff[7][None, :, None, None, :]) * ff[8][None, None, :, None, :]
        ) * ff[9][None, None, None, :, :]
        w = np.take(first.reshape(-1, n), self._gather_index[0], axis=0)
        w *= np.take(second.reshape(-1, n), self._gather_index[1], axis=0)
        w *= np.take(third.reshape(-1, n), self._gather_index[2], axis=0)
        high = np.floor(w * (1.0 / _LIMB))
        w -= high * _LIMB  # now the low limb
        counts: np.ndarray = (np.rint(self._matrix_float_t @ high).astype(np.int64) << _LIMB_BITS) + np.rint(
            self._matrix_float_t @ w
        ).astype(np.int64)
        return counts

    def _chunk(self, rank_counts: np.ndarray) -> np.ndarray:
        n = len(rank_counts)
        values = np.zeros((n, 10), dtype=np.int64)
        for rank_index, value in enumerate(RANK_VALUES):
            values[:, value] += rank_counts[:, rank_index]
        # ff[i, v, k] = (c_v)_k for shoe i: a running product of max(c - j, 0).
        steps = np.maximum(values[:, :, None] - np.arange(DRAW)[None, None, :], 0)
        ff = np.concatenate([np.ones((n, 10, 1), dtype=np.int64), np.cumprod(steps, axis=2)], axis=2)
        zero = rank_counts[:, _ZERO_RANKS]
        z2 = zero * (zero - 1)
        p2 = z2.sum(axis=1)
        p22 = p2 * p2 - (z2 * z2).sum(axis=1) + (z2 * (zero - 2) * (zero - 3)).sum(axis=1)
        shifted2 = _shift_rows(values[:, 0] - 2, 2) * p2[:, None]
        shifted4 = _shift_rows(values[:, 0] - 4, 4) * p22[:, None]
        zero_table = np.stack([ff[:, 0, :], shifted2, shifted4], axis=1)  # (n, 3, 7)
        first = (zero_table[:, :, :, None, None] * ff[:, 1, None, None, :, None] * ff[:, 2, None, None, None, :])
        second = ff[:, 3, :, None, None] * ff[:, 4, None, :, None] * ff[:, 5, None, None, :]
        third = (
            ff[:, 6, :, None, None, None]
            * ff[:, 7, None, :, None, None]
            * ff[:, 8, None, None, :, None]
            * ff[:, 9, None, None, None, :]
        )
        w = first.reshape(n, -1)[:, self._gather_index[0]]
        w *= second.reshape(n, -1)[:, self._gather_index[1]]
        w *= third.reshape(n, -1)[:, self._gather_index[2]]
        high = (w >> _LIMB_BITS).astype(np.float64)
        low = (w & (_LIMB - 1)).astype(np.float64)
        counts: np.ndarray = np.rint(high @ self._matrix_float).astype(np.int64) * _LIMB + np.rint(
            low @ self._matrix_float
        ).astype(np.int64)
        return counts


_LIMB_BITS = 26
_BATCH_MIN = 16
_LIMB = 1 << _LIMB_BITS
_RANK_TO_VALUE = np.eye(10)[list(RANK_VALUES)]  # (13, 10): rank -> value, as a matrix
_ZERO_RANKS = list(ZERO_RANKS)


def _shift_rows(c: np.ndarray, shift: int) -> np.ndarray:
    """Rows [0]*shift + [(c)_0, (c)_1, …] truncated to 7 entries, for a vector of counts c."""
    steps = np.maximum(c[:, None] - np.arange(DRAW - shift)[None, :], 0)
    body = np.concatenate([np.ones((len(c), 1), dtype=np.int64), np.cumprod(steps, axis=1)], axis=1)
    body = np.where(c[:, None] >= 0, body, 0)
    return np.concatenate([np.zeros((len(c), shift), dtype=np.int64), body], axis=1)


class BetPricer:
    """Exact outcome counts of a fixed tuple of bets, for any shoe, from the compiled table.

    Each bet's last outcome is not evaluated: the outcomes of a bet settle every coup
    exactly once, so its count is the orderings less the others.

    >>> from exactodds.bets import bet_catalog
    >>> from exactodds.rules import PUNTO_BANCO
    >>> pricer = BetPricer(PUNTO_BANCO.tableau, tuple(bet_catalog(PUNTO_BANCO).values())[:3])
    >>> pricer.counts(Shoe.standard(8))[2]
    (475627426473216, 4522770849030144)
    """

    def __init__(self, tableau: Tableau, bets: Sequence[Bet]) -> None:
        suited = [bet.id for bet in bets if bet.needs_suits]
        if suited:  # the table's states carry ranks only: such a bet would silently never win
            names = ", ".join(suited)
            raise ValueError(f"the compiled evaluator knows ranks, not suits: {names} need the reference walk")
        table = compiled(tableau)
        self.tableau = tableau
        self.bets = tuple(bets)
        groups: dict[tuple[int, ...], int] = {}
        self._layout: list[list[int]] = []
        for bet in self.bets:
            slots = []
            for outcome in bet.outcomes[:-1]:
                member = tuple(int(outcome.event(s)) for s in table.states)
                slots.append(groups.setdefault(member, len(groups)))
            self._layout.append(slots)
        membership = np.array(list(groups), dtype=np.int64).T.reshape(len(table.states), len(groups))
        self.evaluator = Evaluator(table, membership)

    def _split(self, group_counts: Sequence[int], orderings: int) -> tuple[tuple[int, ...], ...]:
        out = []
        for slots in self._layout:
            counts = [group_counts[k] for k in slots]
            counts.append(orderings - sum(counts))
            out.append(tuple(counts))
        return tuple(out)

    def counts(self, shoe: Shoe) -> tuple[tuple[int, ...], ...]:
        """Per bet, the exact count of each outcome (ordered six-card draws)."""
        return self._split(self.evaluator.counts(shoe), shoe.orderings())

    @property
    def widths(self) -> tuple[int, ...]:
        """How many outcomes each bet has (the column blocks of :meth:`counts_matrix`)."""
        return tuple(len(bet.outcomes) for bet in self.bets)

    def counts_matrix(self, shoes: Sequence[Shoe]) -> np.ndarray:
        """Exact outcome counts of every bet for many shoes: one row per shoe, bets' outcomes side by side.

        The matrix is int64 when every shoe is within :func:`int64_is_exact`, else it
        holds Python integers (dtype object). Columns follow ``bets`` and their outcomes.
        """
        n = len(shoes)
        width = sum(self.widths)
        # Sizes stay Python integers until they are known to fit: a shoe may hold up to 10^100 cards.
        fast = [i for i, shoe in enumerate(shoes) if n >= _BATCH_MIN and int64_is_exact(shoe.size)]
        rank_counts = np.array([shoes[i].counts for i in fast], dtype=np.int64).reshape(len(fast), 13)
        fast_groups = self.evaluator.counts_array(rank_counts) if fast or n == 0 else None
        groups: np.ndarray
        if fast_groups is not None and len(fast) == n:
            groups = fast_groups
            sizes = rank_counts.sum(axis=1)
            orderings = np.ones(n, dtype=np.int64)
            for k in range(DRAW):
                orderings *= np.maximum(sizes - k, 0)
            out = np.empty((n, width), dtype=np.int64)
        else:  # some shoe is priced in Python integers: the whole matrix holds Python integers
            groups = np.empty((n, self.evaluator.width), dtype=object)
            if fast_groups is not None:
                groups[fast] = fast_groups.astype(object)  # Python integers
            done = set(fast)
            for i, shoe in enumerate(shoes):
                if i not in done:
                    groups[i] = self.evaluator.counts(shoe)
            orderings = np.array([shoe.orderings() for shoe in shoes], dtype=object)
            out = np.empty((n, width), dtype=object)
        column = 0
        for slots in self._layout:
            first = column
            for k in slots:
                out[:, column] = groups[:, k]
                column += 1
            out[:, column] = orderings - out[:, first:column].sum(axis=1) if slots else orderings
            column += 1
        return out


@lru_cache(maxsize=16)
def _state_evaluator(tableau: Tableau) -> Evaluator:
    table = compiled(tableau)
    return Evaluator(table, np.eye(len(table.states), dtype=np.int64))


def coup_distribution(shoe: Shoe, tableau: Tableau) -> CoupDistribution:
    """The exact count of every final coup state, from the compiled table (equal to :func:`enumerate_coups`).

    >>> from exactodds.rules import STANDARD_TABLEAU
    >>> dist = coup_distribution(Shoe.standard(1), STANDARD_TABLEAU)
    >>> dist.count(lambda s: s.winner == "banker")
    6737232640
    """
    evaluator = _state_evaluator(tableau)
    counts = evaluator.counts(shoe)
    return CoupDistribution(shoe, MappingProxyType({s: n for s, n in zip(evaluator.table.states, counts) if n}))


_PRICERS: dict[tuple[int, ...], BetPricer] = {}


def pricer(tableau: Tableau, bets: tuple[Bet, ...]) -> BetPricer:
    """A cached :class:`BetPricer` for this tableau and tuple of bets.

    The cache is keyed by object identity (hashing the bets' pay tables costs more than
    pricing a shoe); a hit is confirmed against the objects the pricer holds.
    """
    key = (id(tableau), *map(id, bets))
    found = _PRICERS.get(key)
    if found is not None and found.tableau is tableau and all(a is b for a, b in zip(found.bets, bets)):
        return found
    if len(_PRICERS) >= 64:
        _PRICERS.clear()
    made = _PRICERS[key] = BetPricer(tableau, bets)
    return made
