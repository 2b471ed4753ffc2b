"""Pricing from the compiled table: exact counts of groups of coup states, of bets' outcomes, of every state.

A bet's outcome is a group of coup states, and its count for a shoe is the sum of the
table's coefficients over those states (one column of :meth:`CompiledTableau.project`),
dotted with the weights of the table's rows (:mod:`exactodds.puntobanco.compiled.kernel`): only the
rows with a nonzero coefficient are weighed. The outcomes of a bet settle every coup
exactly once, so its last outcome is never evaluated: it is the orderings less the others.

One shoe is priced in int64 up to 1,004 cards, in int64 residues modulo a few primes (rebuilt
exactly by the Chinese remainder theorem, :mod:`~exactodds.puntobanco.compiled.modular`) up to
1,326,532,119 cards, and in Python integers beyond; many shoes
at once (:meth:`Evaluator.counts_array`) in float64 limbs through BLAS, shared between
threads, with the same exactness proofs (see the kernel's docstring).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cached_property, lru_cache
from operator import is_
from types import MappingProxyType

import numpy as np

from ...cards import Shoe, falling_row
from ...errors import ExactOddsError
from ...memo import IdentityCache
from ..coup import ALL_STATES, CoupDistribution
from ..events import Bet
from ..facts import STATE_INDEX
from ..rules import Tableau
from . import modular
from .cache import compiled
from .factors import DRAW
from .kernel import (
    RowWeights,
    factor_tensor,
    float64_is_exact,
    int64_is_exact,
    keep_temporaries_on_the_heap,
    limb_dot,
    limbs_are_exact,
)
from .table import CompiledTableau

#: Fewer shoes than this are quicker priced one by one than through the batch kernel.
_BATCH_MIN = 16
#: A second thread pays only where the float64 products dominate a chunk's work: measured on
#: 2,000 depleted 8-deck shoes (2 cores, medians), the 7 core bets (7 groups) priced in 25 µs a
#: shoe on one thread and 28–32 µs on two, whose many short numpy calls take turns at the GIL;
#: the 48-bet catalog in 83 µs on one thread and 46 µs on two.
THREADED_WIDTH = 16
#: Shoes per factor tensor in :meth:`Evaluator.counts_array`: big enough to make numpy's
#: per-call overhead vanish, small enough to keep the tensor a few MB.
_TENSOR_BLOCK = 1 << 14


class Evaluator:
    """Counts of groups of coup states for any shoe, from a compiled table.

    ``membership[i, k]`` is 1 when the i-th state of the table belongs to group k;
    :meth:`counts` returns the exact count of each group for a shoe, and
    :meth:`counts_array` those of many shoes at once (each within the int64 bound).
    """

    def __init__(self, table: CompiledTableau, membership: np.ndarray) -> None:
        self.table = table
        used, matrix = table.project_rows(membership)
        # In table order: the gathers of many shoes' weights read the factor tensors in order
        # (rows in class order made counts_array some four times slower).
        order = np.argsort(used, kind="stable")
        used, self.matrix = used[order], np.ascontiguousarray(matrix[order])
        block, multiset = np.divmod(used, len(table.multisets))
        self.rows = RowWeights(block, table.multisets[multiset])
        self.width = self.matrix.shape[1]
        self._matrix_float = self.matrix.astype(np.float64)
        # One shoe's int64 dot product reads the table by group: einsum over these rows runs in
        # int64 (exact under int64_is_exact) at twice the speed of numpy's integer matmul.
        self._matrix_t = np.ascontiguousarray(self.matrix.T)
        if not limbs_are_exact(self.matrix):
            raise AssertionError("compiled table too wide for exact float64 limbs")

    def counts(self, shoe: Shoe) -> list[int]:
        """The exact count of every group for one shoe (Python integers)."""
        counts: list[int]
        if int64_is_exact(shoe.size):
            w = self.rows(factor_tensor([shoe.counts], np.int64))[0]
            counts = np.einsum("r,gr->g", w, self._matrix_t).tolist()
        elif (primes := modular.primes_needed(shoe.size)) is not None:  # up to 1,326,532,119 cards
            counts = modular.counts(self.rows, self._matrix_t, shoe.counts, primes)
        else:
            counts = (self.rows(factor_tensor([shoe.counts], object))[0] @ self.matrix_object).tolist()
        return counts

    @cached_property
    def matrix_object(self) -> np.ndarray:
        """The table as Python integers, for shoes beyond the modular path's bound."""
        return self.matrix.astype(object)

    def counts_array(self, rank_counts: np.ndarray, chunk: int = 48, workers: int | None = None) -> np.ndarray:
        """Exact counts (int64, shape n × groups) for an (n × 13) array of rank counts.

        Every shoe must satisfy :func:`int64_is_exact`. Weights are made in int64 (one factor
        tensor per block of shoes) and dotted in float64 limbs, chunk by chunk; a chunk of
        shoes of at most 458 cards makes its weights in float64 directly. Chunks are shared
        between ``workers`` threads (numpy releases the GIL in its kernels); by default two
        on a table of at least :data:`THREADED_WIDTH` groups, else one.
        """
        if workers is None:
            workers = min(2, os.cpu_count() or 1) if self.width >= THREADED_WIDTH else 1
        rank_counts = np.asarray(rank_counts, dtype=np.int64)
        sizes = rank_counts.sum(axis=1)
        if len(sizes) and not int64_is_exact(int(sizes.max())):
            raise ValueError("counts_array needs shoes small enough for int64; use counts")
        keep_temporaries_on_the_heap()  # chunk temporaries of a few MB, reused rather than mapped afresh
        out = np.empty((len(rank_counts), self.width), dtype=np.int64)

        def run(factors: np.ndarray, offset: int, span: tuple[int, int]) -> None:
            lo, hi = span
            part = factors[lo - offset : hi - offset]
            if float64_is_exact(int(sizes[lo:hi].max())):
                part = part.astype(np.float64)  # every factor is at most (N)_6 < 2^53: exact
            out[lo:hi] = limb_dot(self.rows(part), self._matrix_float)

        # OpenBLAS would otherwise start its own threads for each small product, which on a
        # 2-core machine makes them some 30 times slower; we share out whole chunks instead.
        from concurrent.futures import ThreadPoolExecutor

        from threadpoolctl import threadpool_limits

        pool = ThreadPoolExecutor(max_workers=workers) if workers > 1 and len(rank_counts) > chunk else None
        try:
            with threadpool_limits(limits=1, user_api="blas"):
                for start in range(0, len(rank_counts), _TENSOR_BLOCK):
                    stop = min(start + _TENSOR_BLOCK, len(rank_counts))
                    factors = factor_tensor(rank_counts[start:stop], np.int64)
                    spans = [(factors, start, (s, min(s + chunk, stop))) for s in range(start, stop, chunk)]
                    if pool is not None and len(spans) > 1:
                        list(pool.map(run, *zip(*spans)))
                    else:
                        for span in spans:
                            run(*span)
        finally:
            if pool is not None:
                pool.shutdown()
        return out


def _members(mask: int, bits: np.ndarray) -> np.ndarray:
    """Which states (given by their bits) a set of coup states holds: 0 or 1 each, as uint8.

    >>> _members(0b101, np.array([0, 1, 2])).tolist()
    [1, 0, 1]
    """
    raw = np.frombuffer(mask.to_bytes(len(ALL_STATES) // 8 + 1, "little"), dtype=np.uint8)
    members: np.ndarray = np.unpackbits(raw, bitorder="little")[bits]
    return members


class BetPricer:
    """Exact outcome counts of a fixed tuple of bets, for any shoe, from the compiled table.

    Each bet's last outcome is not evaluated: the outcomes of a bet settle every coup
    exactly once, so its count is the orderings less the others.

    >>> from exactodds.puntobanco.bets import bet_catalog
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> pricer = BetPricer(PUNTO_BANCO.tableau, tuple(bet_catalog(PUNTO_BANCO).values())[:3])
    >>> pricer.counts(Shoe.standard(8))[2]
    (475627426473216, 4522770849030144)
    """

    def __init__(self, tableau: Tableau, bets: Sequence[Bet]) -> None:
        suited = [bet.id for bet in bets if bet.needs_suits]
        if suited:  # the table's states carry ranks only: such a bet would silently never win
            names = ", ".join(suited)
            raise ValueError(f"the compiled evaluator knows ranks, not suits: {names} need the reference walk")
        for bet in bets:  # its events are sets of coup states, which cannot tell the cards: it would price nonsense
            if bet.reads_cards:
                raise ExactOddsError(
                    f"bet {bet.id} reads the dealt cards: the compiled evaluator knows coup states only"
                )
        table = compiled(tableau)
        self.tableau = tableau
        self.bets = tuple(bets)
        # Each state's bit in a set of coup states; the outcomes are grouped by the states they hold.
        bits = np.array([STATE_INDEX[state] for state in table.states], dtype=np.int64)
        groups: dict[bytes, int] = {}
        members: list[np.ndarray] = []
        self._layout: list[list[int]] = []
        for bet in self.bets:
            slots = []
            for outcome in bet.outcomes[:-1]:
                member = _members(outcome.event.mask, bits)  # an Event is its set of states
                if (key := member.tobytes()) not in groups:
                    groups[key] = len(members)
                    members.append(member)
                slots.append(groups[key])
            self._layout.append(slots)
        membership = np.array(members, dtype=np.int64).T.reshape(len(table.states), len(members))
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
        orderings: np.ndarray
        if fast_groups is not None and len(fast) == n:
            groups = fast_groups
            orderings = falling_row(rank_counts.sum(axis=1), DRAW)[DRAW]  # (N)_6 per shoe, in int64
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

    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
    >>> dist = coup_distribution(Shoe.standard(1), STANDARD_TABLEAU)
    >>> dist.count(lambda s: s.winner == "banker")
    6737232640
    """
    evaluator = _state_evaluator(tableau)
    counts = evaluator.counts(shoe)
    return CoupDistribution(shoe, MappingProxyType({s: n for s, n in zip(evaluator.table.states, counts) if n}))


class _PricerKey:
    """A pricer's cache key: the tableau and the bets by value, with the hash made once per bet object.

    Hashing a bet hashes its whole pay table, which costs more than a warm pricing; each
    bet object's hash is therefore remembered (:func:`_bet_hash`) and combined here. Two
    keys are equal when their tableaux and bets are equal (identical objects compare at once).
    """

    __slots__ = ("tableau", "bets", "_hash")

    def __init__(self, tableau: Tableau, bets: tuple[Bet, ...]) -> None:
        self.tableau = tableau
        self.bets = bets
        self._hash = hash((tableau, *map(_bet_hash, bets)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _PricerKey) and (self.tableau, self.bets) == (other.tableau, other.bets)


#: The hash of each bet object seen.
_BET_HASHES: IdentityCache[int] = IdentityCache(4096)


def _bet_hash(bet: Bet) -> int:
    return _BET_HASHES.get(bet, lambda: hash(bet))


_PRICERS: dict[_PricerKey, BetPricer] = {}


def pricer(tableau: Tableau, bets: tuple[Bet, ...]) -> BetPricer:
    """A cached :class:`BetPricer` for this tableau and tuple of bets, keyed by their values.

    Equal bets built apart (a bets file read twice, a catalog made again) share one pricer.

    >>> import dataclasses
    >>> from exactodds.puntobanco.bets import bet_catalog
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> bets = tuple(bet_catalog(PUNTO_BANCO).values())[:2]
    >>> again = tuple(dataclasses.replace(bet) for bet in bets)  # equal bets, other objects
    >>> pricer(PUNTO_BANCO.tableau, again) is pricer(PUNTO_BANCO.tableau, bets)
    True
    """
    ids = (tableau, *map(id, bets))
    last = _BY_IDS.get(ids)
    if last is not None and all(map(is_, last[0], bets)):  # the same bet objects as a call before: no hashing
        return last[1]
    key = _PricerKey(tableau, tuple(bets))
    found = _PRICERS.get(key)
    if found is not None:
        _remember(ids, key.bets, found)
    if found is not None:
        return found
    if len(_PRICERS) >= 64:
        _PRICERS.clear()
    made = _PRICERS[key] = BetPricer(tableau, key.bets)
    _remember(ids, key.bets, made)
    return made


#: The pricer of each tuple of bet objects (by the tableau and their ids) asked for, with the bets themselves.
_BY_IDS: dict[tuple[object, ...], tuple[tuple[Bet, ...], BetPricer]] = {}


def _remember(ids: tuple[object, ...], bets: tuple[Bet, ...], made: BetPricer) -> None:
    """Keep the pricer of these bet objects, found again by their ids (the entry holds them: ids stay theirs)."""
    if len(_BY_IDS) >= 64:
        _BY_IDS.clear()
    _BY_IDS[ids] = (bets, made)
