"""One shoe priced with no numpy: a bet set's compiled coefficients as a flat table, evaluated in Python integers.

The compiled table (:mod:`exactodds.puntobanco.compiled.table`) summed over the coup states of each
outcome of a fixed tuple of bets is a small matrix: one row per (block, value multiset)
with a nonzero coefficient, one column per distinct outcome (as a set of states). A
shoe's count of an outcome is the dot product of that column with the weights of the
rows (:mod:`exactodds.puntobanco.compiled.kernel`), and here both are Python integers, so the counts
are exact for a shoe of any size with no bound to prove. Each row's weight is a product
of three entries of outer products of the shoe's factor rows
(:func:`~exactodds.puntobanco.compiled.factors.factor_rows`), the same offsets as
:class:`~exactodds.puntobanco.compiled.kernel.RowWeights`; a column is stored as runs of rows
sharing one small coefficient c, so its count is Σ_c c · (the sum of those rows' weights).

A :class:`FlatPricer` is built once from the compiled table (numpy) and kept in a file
next to the compiled tables (:func:`~exactodds.puntobanco.compiled.private.cache_dir`), so a later
process prices the same bets without importing numpy or reading the big table: the
start-up path of ``exactodds odds``. Later shoes of the same bets go to the numpy pricer
(:func:`shoe_counts`), some 50 times quicker once it is built. The file is trusted only as the compiled tables are:

1. where it lies: the user's own folder and file (:func:`~exactodds.puntobanco.compiled.private.read_private`);
2. its form: the exact key (package version, file format, tableau, every outcome's set of
   states), a sha256 digest of the rest (which catches whatever moves a unit between rows
   or columns), every offset in range (a row number out of range fails the evaluation);
3. its content, on every shoe priced: the outcomes of a bet settle every coup exactly
   once, so summed over a bet's outcomes the coefficients of a row are those of all
   states, and the counts of each bet must add up to the shoe's orderings (N)_6. A
   changed coefficient of a row the shoe can deal moves its bet's sum by a nonzero
   multiple of the row's weight; a row of weight zero counts nothing for this shoe.
   That cannot see two whole outcome columns of one bet swapped (each bet still adds
   up), so every column must also hold, on the rows of a few probe hands, what a fresh
   deal of those hands gives (:class:`~exactodds.puntobanco.compiled.probe.FlatProbe`, checked
   when the table is read from disk, before it prices a shoe).

Anything wrong means the file is rebuilt from the compiled table and rewritten.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Sequence
from itertools import accumulate
from operator import is_
from typing import TypeVar

from ...cards import Shoe
from ...errors import ExactOddsError
from ..events import Bet
from ..rules import Tableau
from . import native
from .columns import SetsKey, masks_key, masks_of, take_of
from .flattable import FLAT_FORMAT, FlatTable, _file_name, _load, _save, decode, encode, flat_key
from .private import cache_dir
from .probe import PROBES, FlatProbe

_Priced = TypeVar("_Priced")

class FlatPricer:
    """Exact outcome counts of a fixed tuple of bets for one shoe, from a :class:`FlatTable` (no numpy).

    The same counts as :class:`~exactodds.puntobanco.compiled.pricing.BetPricer`, every bet's counts
    checked to add up to the shoe's orderings.

    >>> from exactodds.puntobanco.bets import bet_catalog
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> bets = tuple(bet_catalog(PUNTO_BANCO).values())[:3]
    >>> flat_pricer(PUNTO_BANCO.tableau, bets).counts(Shoe.standard(8))[2]
    (475627426473216, 4522770849030144)
    """

    def __init__(self, table: FlatTable, layout: Sequence[Sequence[int]]) -> None:
        self.table = table
        #: Per bet, the column of each of its outcomes.
        self.layout = tuple(tuple(slots) for slots in layout)
        # Every bet's outcomes at once, from the columns walked (``_spread`` composed in), and each bet's place in them.
        ends = list(accumulate(map(len, self.layout)))
        self._bounds = tuple(zip([0, *ends], ends))
        # Columns with the very same runs (the Player's pair and the Banker's: the deal's positions are exchangeable,
        # so their sets of states weigh alike) are summed once: the table walked holds each once, and ``_spread`` puts
        # every column back in place. Every bet's counts are still checked to add up to the orderings.
        first: dict[tuple[tuple[int, bytes], ...], int] = {}
        spread = [first.setdefault(tuple((c, rows.tobytes()) for c, rows in column), len(first))
                  for column in table.columns]
        if len(first) == len(table.columns):
            self._walked, self._spread = table, None
        else:
            distinct = tuple(table.columns[spread.index(k)] for k in range(len(first)))
            self._walked, self._spread = FlatTable(table.key + " distinct", table.index, distinct), spread
        slots = [k if self._spread is None else self._spread[k] for bet in self.layout for k in bet]
        self._take_all = take_of(slots)

    def counts(self, shoe: Shoe) -> tuple[tuple[int, ...], ...]:
        """Per bet, the exact count of each outcome (ordered six-card draws)."""
        return self.counts_many([shoe])[0]

    def counts_many(self, shoes: Sequence[Shoe]) -> list[tuple[tuple[int, ...], ...]]:
        """:meth:`counts` of each shoe, the kernel taking 8-deck shoes in pairs (:func:`.native.sums_many`).

        >>> from exactodds.puntobanco.bets import bet_catalog
        >>> from exactodds.puntobanco.rules import PUNTO_BANCO
        >>> pricer = flat_pricer(PUNTO_BANCO.tableau, tuple(bet_catalog(PUNTO_BANCO).values())[:3])
        >>> pricer.counts_many([Shoe.standard(1), Shoe.standard(8)])[1] == pricer.counts(Shoe.standard(8))
        True
        """
        bounds = self._bounds
        return [tuple([tuple(row[a:b]) for a, b in bounds]) for row, _ in self.rows_many(shoes)]

    def rows_many(self, shoes: Sequence[Shoe]) -> list[tuple[list[int], int]]:
        """Each shoe's outcome counts of every bet side by side, in the bets' order, with its orderings: the counts of
        :meth:`counts_many` flattened, taken from the columns at once and checked bet by bet as they are.

        >>> from exactodds.puntobanco.bets import bet_catalog
        >>> from exactodds.puntobanco.rules import PUNTO_BANCO
        >>> pricer = flat_pricer(PUNTO_BANCO.tableau, tuple(bet_catalog(PUNTO_BANCO).values())[:3])
        >>> row, n = pricer.rows_many([Shoe.standard(8)])[0]
        >>> row == [c for bet in pricer.counts(Shoe.standard(8)) for c in bet] and n == Shoe.standard(8).orderings()
        True
        """
        take, bounds = self._take_all, self._bounds
        out = []
        for shoe, values in zip(shoes, self._walk_many(shoes)):
            row, orderings = list(take(values)), shoe.orderings()
            if any(sum(row[a:b]) != orderings for a, b in bounds):
                raise ValueError("a flat table failed its check: its outcomes do not add up to the orderings")
            out.append((row, orderings))
        return out

    def _walk_many(self, shoes: Sequence[Shoe]) -> list[list[int]]:
        """Each shoe's count of every column walked, by the kernel where it serves, else in Python integers."""
        try:
            kernel = native.sums_many(self._walked, [shoe.counts for shoe in shoes])
            return [self._walked.evaluate(s.counts, kernel=False) if v is None else v for s, v in zip(shoes, kernel)]
        except IndexError:  # a row number beyond the table: a damaged file
            raise ValueError("a flat table failed its check: a row number is out of range") from None


def build_flat(tableau: Tableau, masks: Sequence[int]) -> FlatTable:
    """The flat table of ``masks`` (sets of coup states) under ``tableau``, from the compiled table (numpy).

    >>> from exactodds.puntobanco.events import TIE
    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
    >>> table = build_flat(STANDARD_TABLEAU, [TIE.mask, (~TIE).mask])
    >>> sum(table.evaluate(Shoe.standard(1).counts)) == Shoe.standard(1).orderings()
    True
    """
    import numpy as np

    from ..facts import STATE_INDEX
    from .cache import compiled, mark_used
    from .kernel import RowWeights

    table = compiled(tableau)
    mark_used(tableau)
    bits = [STATE_INDEX[s] for s in table.states]
    membership = np.array([[m >> i & 1 for m in masks] for i in bits], dtype=np.int64).reshape(len(bits), len(masks))
    dense = table.project(membership)
    used = np.flatnonzero(np.any(dense != 0, axis=1))
    block, multiset = np.divmod(used, len(table.multisets))
    index = RowWeights(block, table.multisets[multiset]).index
    coefficients = dense[used]
    # The W rows of the probe hands go last in their runs (the first shoe priced from a table read from disk once
    # added a huge tag to their weights, its probe check, now made as the table is read): a table's bytes stay as
    # they were.
    probe = (block == 0) & (table.multisets[multiset][:, None] == np.array(PROBES)[None]).all(axis=2).any(axis=1)
    order = np.r_[np.flatnonzero(~probe), np.flatnonzero(probe)]
    columns = []
    for j in range(len(masks)):
        column = coefficients[order, j]
        runs = [(int(c), array("H", order[column == c].tolist())) for c in np.unique(column[column != 0])]
        columns.append(tuple(runs))
    return FlatTable(
        flat_key(tableau, masks),
        (array("H", index[0].tolist()), array("H", index[1].tolist()), array("H", index[2].tolist())),
        tuple(columns),
    )


def _flat_table(tableau: Tableau, masks: Sequence[int], *, rebuild: bool = False) -> FlatTable:
    key = flat_key(tableau, masks)
    folder = cache_dir()
    if folder is None:
        return build_flat(tableau, masks)
    path = folder / _file_name(key)
    table = None if rebuild else _load(path, key)
    # Read from disk: each column must hold on the probe hands what a fresh deal of them gives, or it is built again.
    if table is not None and FlatProbe.of(table.index, tableau, masks).holds(table):
        return table
    table = build_flat(tableau, masks)
    _save(path, table)
    return table


#: The flat tables read or built in this process, by key. A table serves every bet tuple whose outcomes
#: are the same sets of states in the same order of first appearance; each tuple has its own layout.
_TABLES: dict[str, FlatTable] = {}


#: The key of each (tableau, sets of states) pair seen, by the objects' ids (with the objects: their ids cannot be
#: reused meanwhile): a shoe priced through the kernel costs some 0.1 ms, and making the key text took a tenth more.
_TABLE_KEYS: dict[tuple[int, int], tuple[Tableau, Sequence[int], str]] = {}


def _cached_table(tableau: Tableau, masks: Sequence[int], *, rebuild: bool = False) -> FlatTable:
    ident = (id(tableau), id(masks))
    known = _TABLE_KEYS.get(ident)
    if known is not None and known[0] is tableau and known[1] is masks:
        key = known[2]
    else:
        key = flat_key(tableau, masks)
        if len(_TABLE_KEYS) >= 64:
            _TABLE_KEYS.clear()
        _TABLE_KEYS[ident] = (tableau, masks, key)
    found = None if rebuild else _TABLES.get(key)
    if found is None:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        found = _TABLES[key] = _flat_table(tableau, masks, rebuild=rebuild)
    return found


def flat_pricer(tableau: Tableau, bets: Sequence[Bet]) -> FlatPricer:
    """A :class:`FlatPricer` for this tableau and these bets, its table from memory, a checked file, or built.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> player, banker, tie = (find_bet(i, PUNTO_BANCO) for i in ("player", "banker", "tie"))
    >>> a, b = flat_pricer(PUNTO_BANCO.tableau, [player, banker, tie]), flat_pricer(PUNTO_BANCO.tableau, [player, tie])
    >>> a.table is b.table, a.layout, b.layout  # one table (the same four sets of states), two layouts
    (True, ((0, 1, 2), (2, 1, 0), (1, 3)), ((0, 1, 2), (1, 3)))
    """
    ident = (id(tableau), *map(id, bets))
    known = _PRICERS.get(ident)
    if (
        known is not None
        and known[0] is tableau
        and all(map(is_, known[1], bets))
        and _TABLES.get(known[2].table.key) is known[2].table
    ):  # and its table is still this process's
        return known[2]
    if any(bet.needs_suits for bet in bets):
        names = ", ".join(bet.id for bet in bets if bet.needs_suits)
        raise ExactOddsError(f"the compiled evaluator knows ranks, not suits: {names} need the reference walk")
    masks, layout = masks_of(bets)
    pricer = FlatPricer(_cached_table(tableau, masks), layout)
    if len(_PRICERS) >= 64:
        _PRICERS.clear()
    _PRICERS[ident] = (tableau, tuple(bets), pricer)
    return pricer


#: The pricer of each (tableau, tuple of bet objects) seen, by their ids, with the objects (their ids cannot be
#: reused meanwhile): a loop of shoes prices the same bets each time.
_PRICERS: dict[tuple[int, ...], tuple[Tableau, tuple[Bet, ...], FlatPricer]] = {}


def flat_counts(tableau: Tableau, bets: Sequence[Bet], shoe: Shoe) -> tuple[tuple[int, ...], ...]:
    """Per bet, the exact count of each outcome for ``shoe``: :class:`FlatPricer` counts, checked.

    A cached file that fails the check on the shoe's orderings is built again from the
    compiled table and rewritten; the counts then come from the fresh table.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> flat_counts(PUNTO_BANCO.tableau, [find_bet("tie", PUNTO_BANCO)], Shoe.standard(1))
    ((1372227328, 13285907072),)
    """
    return flat_counts_many(tableau, bets, [shoe])[0]


def flat_counts_many(tableau: Tableau, bets: Sequence[Bet], shoes: Sequence[Shoe]) -> list[tuple[tuple[int, ...], ...]]:
    """:func:`flat_counts` of each shoe, the pricer found once and the shoes priced in pairs (:meth:`.counts_many`).

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> tie = [find_bet("tie", PUNTO_BANCO)]
    >>> flat_counts_many(PUNTO_BANCO.tableau, tie, [Shoe.standard(1)] * 2)[1] == flat_counts(PUNTO_BANCO.tableau, tie,
    ...                                                                                      Shoe.standard(1))
    True
    """
    return _priced(tableau, bets, lambda pricer: pricer.counts_many(shoes))


def flat_rows_many(tableau: Tableau, bets: Sequence[Bet], shoes: Sequence[Shoe]) -> list[tuple[list[int], int]]:
    """Each shoe's counts of every bet side by side with its orderings (:meth:`.rows_many`): what a batch writes from.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> flat_rows_many(PUNTO_BANCO.tableau, [find_bet("tie", PUNTO_BANCO)], [Shoe.standard(1)] * 2)[1]
    ([1372227328, 13285907072], 14658134400)
    """
    return _priced(tableau, bets, lambda pricer: pricer.rows_many(shoes))


def _priced(tableau: Tableau, bets: Sequence[Bet], price: Callable[[FlatPricer], _Priced]) -> _Priced:
    """What ``price`` gives from the bets' pricer; where its table fails a check, from a pricer of the table rebuilt."""
    try:
        return price(flat_pricer(tableau, bets))
    except ValueError:
        _PRICERS.clear()  # the pricers of the damaged table: made again from the rebuilt one
        masks, layout = masks_of(bets)
        return price(FlatPricer(_cached_table(tableau, masks, rebuild=True), layout))


#: Shoes of one bet tuple a process prices from the flat table before it loads numpy for the rest.
#: A shoe costs about 3 ms there (the core bets) and 0.1 ms in the numpy pricer, which costs
#: about 130 ms to reach from a cold start (numpy's import, then the build): the flat table is
#: the quicker route up to some 40 shoes, such as the 11 of ``eor``.
FLAT_SHOES = 16
#: How many shoes of each bet tuple (tableau and sets of states) this process has priced by the flat table.
_PRICED: dict[tuple[Tableau, SetsKey], int] = {}


def shoe_counts(tableau: Tableau, bets: Sequence[Bet], shoe: Shoe) -> tuple[tuple[int, ...], ...]:
    """Per bet, the exact outcome counts of one shoe, by the quickest exact route for this process.

    Where the compiled kernel was built (:mod:`.native`), every shoe takes the flat table through it (some 0.1 ms
    for the core bets of an 8-deck shoe, from the first shoe on; a shoe past its 128-bit proof by residues modulo
    primes). Otherwise a process's first
    :data:`FLAT_SHOES` shoes of a bet tuple are priced from the flat table (about 10 ms for the first from a cold
    start, 3 ms for the others, with no numpy to import); after them, or once numpy is loaded and the shoes keep
    coming, or when a caller has said that many will (:func:`expect_many`), the numpy pricer
    (:func:`~exactodds.puntobanco.compiled.pricing.pricer`), built once, prices each shoe in about 0.1 ms.
    Both give the same exact counts.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> shoe_counts(PUNTO_BANCO.tableau, [find_bet("tie", PUNTO_BANCO)], Shoe.standard(1))
    ((1372227328, 13285907072),)
    """
    if native.available():  # the compiled kernel, at any size: quicker than either route, from the first shoe
        return flat_counts(tableau, bets, shoe)
    key = (tableau, masks_key(bets))
    priced = _PRICED.get(key, 0)
    # With numpy loaded already, the pricer's build alone (some 40 ms) is worth it after a few shoes.
    if priced < (FLAT_SHOES if "numpy" not in sys.modules else 4):
        _PRICED[key] = priced + 1
        return flat_counts(tableau, bets, shoe)
    from .pricing import pricer

    return pricer(tableau, tuple(bets)).counts(shoe)


def expect_many(tableau: Tableau, bets: Sequence[Bet]) -> None:
    """Say that this process will price many shoes of these bets: :func:`shoe_counts` takes the numpy pricer at once.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> expect_many(PUNTO_BANCO.tableau, [find_bet("tie", PUNTO_BANCO)])
    """
    _PRICED[tableau, masks_key(bets)] = FLAT_SHOES


__all__ = ["FLAT_FORMAT", "FLAT_SHOES", "FlatPricer", "FlatTable", "build_flat", "decode", "encode", "expect_many",
           "flat_counts", "flat_counts_many", "flat_key", "flat_pricer", "flat_rows_many", "shoe_counts"]  # fmt: skip
