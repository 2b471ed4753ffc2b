"""The flat table's columns for a tuple of bets: the distinct sets of states of their outcomes, worked out once.

A loop of shoes prices the same bet objects each time; each tuple's columns, layout and key are
kept by the objects' ids (with the objects, so that the ids cannot be reused meanwhile).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import is_, itemgetter
from typing import Any, cast

from ...memo import IdentityCache
from ..events import Bet


def take_of(slots: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A bet's take of the columns: the counts of its outcomes, in order, from every column's count.

    >>> take_of([2, 0])([5, 7, 9]), take_of([1])([5, 7, 9])
    ((9, 5), (7,))
    """
    if len(slots) > 1:
        taken: Callable[[Sequence[int]], tuple[int, ...]] = cast(Any, itemgetter)(*slots)
        return taken
    column = slots[0]
    return lambda values: (values[column],)


def masks_of(bets: Sequence[Bet]) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The distinct sets of states of the bets' outcomes, and each bet's outcomes as indices into them.

    Worked out once per tuple of bet objects (a loop of shoes prices the same bets each time:
    walking their hundreds of outcomes cost a tenth of a warm pricing); the entry holds the bets,
    so their ids cannot be reused meanwhile.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> masks, layout = masks_of([find_bet(i, PUNTO_BANCO) for i in ("player", "tie")])
    >>> len(masks), layout
    (4, ((0, 1, 2), (1, 3)))
    """
    ids = tuple(map(id, bets))
    found = _MASKS.get(ids)
    if found is not None and all(map(is_, found[0], bets)):
        return found[1], found[2]
    columns: dict[int, int] = {}
    layout = tuple(tuple(columns.setdefault(o.event.mask, len(columns)) for o in bet.outcomes) for bet in bets)
    if len(_MASKS) >= 64:
        _MASKS.clear()
    _MASKS[ids] = (tuple(bets), tuple(columns), layout)
    return tuple(columns), layout


#: The sets of states and layout of each tuple of bet objects seen (by their ids), with the bets.
_MASKS: dict[tuple[int, ...], tuple[tuple[Bet, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]] = {}


class SetsKey:
    """The sets of states of a tuple of bets as a dict key, hashed once (hundreds of big ints: costly to hash)."""

    __slots__ = ("_hash", "masks")

    def __init__(self, masks: tuple[int, ...]) -> None:
        self.masks = masks
        self._hash = hash(masks)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SetsKey) and (self.masks is other.masks or self.masks == other.masks)


#: The key of each tuple of sets of states seen.
_KEYS: IdentityCache[SetsKey] = IdentityCache(64)


def masks_key(bets: Sequence[Bet]) -> SetsKey:
    """The bets' sets of states (:func:`masks_of`) as a dict key (the flat table's count of shoes priced), made once
    per tuple of them.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> bets = [find_bet("tie", PUNTO_BANCO)]
    >>> masks_key(bets) is masks_key(bets)
    True
    """
    masks = masks_of(bets)[0]
    return _KEYS.get(masks, lambda: SetsKey(masks))
