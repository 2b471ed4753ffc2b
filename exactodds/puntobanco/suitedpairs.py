"""Bets settled by the suited-pair flags alone (Perfect Pairs), counted in closed form from the shoe's cards.

A suited pair is a hand whose first two cards are the same card: the same rank and suit.
Whether the Player's cards 1 and 3 and the Banker's cards 2 and 4 are suited pairs says
nothing about the rest of the coup that a bet reading only those flags could see, so such a
bet needs no walk. With the shoe split into its kinds (rank and suit) of c_k cards each,
P2 = Σ_k (c_k)_2 counts the ordered pairs that are one kind and P22 = Σ_{k≠l} (c_k)_2 (c_l)_2
+ Σ_k (c_k)_4 the ordered four-card draws whose 1st and 3rd cards are one kind and whose
2nd and 4th are too (:func:`~exactodds.cards.pair_sums`). Over the ordered six-card draws of
an N-card shoe (the package's counting convention):

* both hands suited pairs: P22 · (N−4)_2;
* the Player's hand (whatever the Banker's): P2 · (N−2)_2 · (N−4)_2, and the Banker's likewise;

and the other three cases follow by inclusion and exclusion. The reference walk
(:func:`~exactodds.puntobanco.engine.enumerate_coups`) splits the same weights coup by coup; the tests
compare the two on every bet and a brute force over every permutation of small shoes.

>>> from exactodds.cards import Shoe
>>> counts = flag_counts(Shoe.standard(1))
>>> counts[True, True], sum(counts.values()) == Shoe.standard(1).orderings()
(0, True)
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import Shoe, falling_factorial, pair_sums
from ..memo import IdentityCache
from .coup import ALL_STATES
from .events import Bet

#: The four cases of the two flags: (the Player's hand a suited pair, the Banker's hand a suited pair).
FLAGS = ((True, True), (True, False), (False, True), (False, False))


def flag_counts(shoe: Shoe) -> dict[tuple[bool, bool], int]:
    """The ordered six-card draws of a suited shoe in each case of the two suited-pair flags, exactly.

    >>> flag_counts(Shoe.parse("AS=2,KH=4"))[True, False]
    192
    """
    if shoe.suits is None:
        raise ValueError("suited-pair counts need a shoe known by suit")
    size = shoe.size
    one, both = pair_sums([c for row in shoe.suits for c in row])
    tail = falling_factorial(size - 4, 2)
    player = one * falling_factorial(size - 2, 2) * tail
    both *= tail
    return {
        (True, True): both,
        (True, False): player - both,
        (False, True): player - both,
        (False, False): shoe.orderings() - 2 * player + both,
    }


@lru_cache(maxsize=1)
def _flag_masks() -> dict[tuple[bool, bool], int]:
    """The bit set over ALL_STATES of the coup states in each case of the two flags."""
    masks = dict.fromkeys(FLAGS, 0)
    for i, state in enumerate(ALL_STATES):
        masks[state.player_pair_suited, state.banker_pair_suited] |= 1 << i
    return masks


def settled_by_flags(bet: Bet) -> tuple[tuple[tuple[bool, bool], ...], ...] | None:
    """For each outcome of ``bet``, the flag cases it settles; ``None`` when some outcome reads more than the flags.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> settled_by_flags(find_bet("perfect-pair", PUNTO_BANCO))
    (((True, True), (True, False), (False, True)), ((False, False),))
    >>> settled_by_flags(find_bet("player", PUNTO_BANCO)) is None
    True
    """
    if bet.cards is not None:
        return None
    masks = _flag_masks()
    out = []
    for outcome in bet.outcomes:
        cases = []
        for case in FLAGS:
            inside = outcome.event.mask & masks[case]
            if inside == masks[case]:
                cases.append(case)
            elif inside:  # the outcome splits a case: it reads something besides the flags
                return None
        out.append(tuple(cases))
    return tuple(out)


def suited_pair_counts(
    shoe: Shoe, bet: Bet, counts: dict[tuple[bool, bool], int] | None = None
) -> list[int] | None:
    """Each outcome's count of ordered six-card draws, for a bet settled by the suited-pair flags alone (else ``None``).

    ``counts`` may give the shoe's :func:`flag_counts`, worked out once for several bets.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> suited_pair_counts(Shoe.standard(8), find_bet("perfect-pair", PUNTO_BANCO))[0]
    167197593169152
    """
    cases = _cases(bet)
    if cases is None:
        return None
    if counts is None:
        counts = flag_counts(shoe)
    return [sum(counts[case] for case in settled) for settled in cases]


#: :func:`settled_by_flags` of each bet object seen.
_CASES: IdentityCache[tuple[tuple[tuple[bool, bool], ...], ...] | None] = IdentityCache(4096)


def _cases(bet: Bet) -> tuple[tuple[tuple[bool, bool], ...], ...] | None:
    """:func:`settled_by_flags`, worked out once per bet object (a loop of shoes asks it of the same bets)."""
    return _CASES.get(bet, lambda: settled_by_flags(bet))
