"""Coup states: how a coup ended, and the one encoding of a state as a small integer.

A coup's result, for every bet exactodds prices, is a :class:`CoupState`: each side's
final total and number of cards, and whether each hand's first two cards are a pair (and a
suited pair). The compiled evaluator, the card-counting lab and the cache store states as
integer codes; :func:`encode_state` and :func:`decode_state` are the only two places that
know the layout.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any, NamedTuple

from ..cards import Shoe
from ..records import record


class CoupState(NamedTuple):
    """How a coup ended: each side's final total and number of cards, and the pair flags.

    ``player_pair``/``banker_pair`` say whether that hand's first two cards share a rank;
    ``player_pair_suited``/``banker_pair_suited`` whether they are the same card, rank and
    suit (a "perfect pair"; it implies the pair flag). The suited flags are known only
    from a suited shoe; elsewhere they are False.

    >>> s = CoupState(8, 7, 3, 3, False, False)
    >>> s.winner, s.margin, s.natural, s.cards
    ('player', 1, False, 6)
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_pair: bool
    banker_pair: bool
    player_pair_suited: bool = False
    banker_pair_suited: bool = False

    @property
    def winner(self) -> str:
        """``"player"``, ``"banker"`` or ``"tie"``."""
        if self.player_total > self.banker_total:
            return "player"
        if self.banker_total > self.player_total:
            return "banker"
        return "tie"

    @property
    def margin(self) -> int:
        """How many points the winner won by (0 on a tie)."""
        return abs(self.player_total - self.banker_total)

    @property
    def cards(self) -> int:
        """Cards dealt in the coup, 4 to 6."""
        return self.player_cards + self.banker_cards

    @property
    def natural(self) -> bool:
        """Whether the coup ended on a natural (either side's first two cards total 8 or 9)."""
        return self.player_natural or self.banker_natural

    @property
    def player_natural(self) -> bool:
        """Whether the Player's first two cards were a natural 8 or 9."""
        return self.player_cards == 2 and self.banker_cards == 2 and self.player_total >= 8

    @property
    def banker_natural(self) -> bool:
        """Whether the Banker's first two cards were a natural 8 or 9."""
        return self.player_cards == 2 and self.banker_cards == 2 and self.banker_total >= 8


def _all_states() -> tuple[CoupState, ...]:
    """Every state the tableau could in principle produce.

    The states are the product of every total, number of cards and flag, less those with a suited flag
    but no pair: of each 16 pair and suited flags, the same 9 (made in C: a walk in Python cost the start-up
    of every command some 2 ms). So each hand's states are a block of 9 (:data:`_BLOCK`), the plain one first for
    each pair flag; a state's plain twin is the same with its suited flags cleared, at a fixed place in its block.

    >>> states = _all_states()
    >>> len(states), len(set(states)), all(not s.player_pair_suited or s.player_pair for s in states)
    (3600, 3600, True)
    """
    flags = (False, True)
    # Of the pair flags and suited flags (pp, bp, ps, bs), those where a suited flag has its pair flag.
    kept = [ps <= pp and bs <= bp for pp, bp, ps, bs in itertools.product(flags, repeat=4)]
    values = itertools.product(range(10), range(10), (2, 3), (2, 3), flags, flags, flags, flags)
    make = tuple.__new__  # what CoupState(...) does, without its argument handling
    return tuple(map(make, itertools.repeat(CoupState), itertools.compress(values, itertools.cycle(kept))))


#: Every state the tableau could in principle produce (a superset of the reachable ones);
#: a suited flag is only ever set together with its pair flag.
ALL_STATES: tuple[CoupState, ...] = _all_states()
#: How many states each hand's block holds: the 9 of the 16 pair and suited flags (pp, bp, ps, bs) where a suited
#: flag has its pair flag, in this order: 0 FFFF, 1 FTFF, 2 FTFT, 3 TFFF, 4 TFTF, 5 TTFF, 6 TTFT, 7 TTTF, 8 TTTT.
_BLOCK = 9
#: In a block, each suited state's place with its plain twin's.
_BLOCK_TWINS = ((2, 1), (4, 3), (6, 5), (7, 5), (8, 5))


def suited_twins() -> tuple[tuple[int, int], ...]:
    """Each suited state's index in ALL_STATES with its plain twin's: the same state with its suited flags cleared.

    >>> twins = suited_twins()
    >>> all(ALL_STATES[t] == ALL_STATES[s]._replace(player_pair_suited=False, banker_pair_suited=False)
    ...     for s, t in twins)
    True
    >>> [s for s, _ in twins] == [i for i, s in enumerate(ALL_STATES) if s.player_pair_suited or s.banker_pair_suited]
    True
    """
    return tuple((at + s, at + t) for at in range(0, len(ALL_STATES), _BLOCK) for s, t in _BLOCK_TWINS)


def twin_shifts() -> tuple[tuple[int, int], ...]:
    """(d, T): T the set of plain states (a bit set over ALL_STATES) whose suited twin is d places further on.

    Made from the blocks' layout: the bits of one block, repeated in every block by one product (a sum of 2^(9k)).

    >>> by_shift = {}
    >>> for suited, twin in suited_twins():
    ...     by_shift[suited - twin] = by_shift.get(suited - twin, 0) | 1 << twin
    >>> twin_shifts() == tuple(sorted(by_shift.items()))
    True
    """
    every_block = ((1 << len(ALL_STATES)) - 1) // ((1 << _BLOCK) - 1)  # bit 0 of each block
    shifts = sorted({s - t for s, t in _BLOCK_TWINS})
    return tuple((d, every_block * sum(1 << t for s, t in _BLOCK_TWINS if s - t == d)) for d in shifts)


#: How many distinct state codes there are (codes run from 0 to STATE_CODES - 1).
STATE_CODES = 10 * 10 * 2 * 2 * 2 * 2


def encode_state(player_total: Any, banker_total: Any, player_cards: Any, banker_cards: Any,
                 player_pair: Any, banker_pair: Any) -> Any:
    """The code of a state (pair flags only): ((pt·10 + bt)·2 + pn − 2)·2 + bn − 2, then ·4 + 2·pp + bp.

    Plain arithmetic, so it takes Python integers or numpy integer arrays alike.

    >>> encode_state(8, 7, 3, 3, False, False), decode_state(encode_state(8, 7, 3, 3, False, True))
    (1404, CoupState(player_total=8, banker_total=7, player_cards=3, banker_cards=3, player_pair=False, \
banker_pair=True, player_pair_suited=False, banker_pair_suited=False))
    """
    code = ((player_total * 10 + banker_total) * 2 + (player_cards - 2)) * 2 + (banker_cards - 2)
    return code * 4 + 2 * player_pair + banker_pair


def state_code(state: CoupState) -> int:
    """The code of a state (its suited flags are not encoded).

    >>> state_code(CoupState(8, 7, 3, 3, False, False))
    1404
    """
    return int(encode_state(*state[:6]))


def decode_state(code: int) -> CoupState:
    """The coup state of a code made by :func:`encode_state`.

    >>> decode_state(1404).winner
    'player'
    """
    bp, pp = code & 1, (code >> 1) & 1
    code >>= 2
    bn, pn = 2 + (code & 1), 2 + ((code >> 1) & 1)
    code >>= 2
    return CoupState(code // 10, code % 10, pn, bn, bool(pp), bool(bp))


@record(eq=False)
class CoupDistribution:
    """Exact counts of ordered six-card draws by final coup state, for one shoe and tableau.

    >>> from exactodds.puntobanco.engine import enumerate_coups
    >>> dist = enumerate_coups(Shoe.standard(1))
    >>> dist.count(lambda s: s.winner == "banker"), dist.total == dist.orderings
    (6737232640, True)
    """

    shoe: Shoe
    counts: Mapping[CoupState, int]

    @property
    def orderings(self) -> int:
        """N(N-1)…(N-5), the denominator of every probability."""
        return self.shoe.orderings()

    @property
    def total(self) -> int:
        """The sum of all counts (equal to ``orderings``)."""
        return sum(self.counts.values())

    def count(self, event: Callable[[CoupState], bool]) -> int:
        """The number of ordered six-card draws whose coup satisfies ``event``."""
        return sum(n for state, n in self.counts.items() if event(state))

    def probability(self, event: Callable[[CoupState], bool]) -> Fraction:
        """The exact probability of ``event``."""
        return Fraction(self.count(event), self.orderings)

    def items(self) -> Iterator[tuple[CoupState, int]]:
        """The (state, count) pairs in a fixed order."""
        return iter(sorted(self.counts.items()))
