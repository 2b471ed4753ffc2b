"""Three Card Baccarat: three cards to the Player, then three to the Banker, from one deck (or any shoe).

Cards count as in baccarat (10, J, Q, K count 0; the total is mod 10). Three J/Q/K (face cards;
a 10 is not one) is the best hand; otherwise the higher total wins; equal totals go to the hand
with more face cards; equal totals and equal face cards tie. A state is each hand's total and
its number of face cards. A tie is equal totals and equal face cards whichever of the two ranks
first, so every bet's figures are the same under either reading of the rule sheets.

The count deals by the eleven kinds of card a hand's state reads (A … 9, the tens, the faces):
a Player kind multiset p and a Banker multiset b are dealt in (3!/∏p_c!)·(3!/∏b_c!)·∏_c (n_c)_(p_c + b_c)
ordered draws of the six cards, (n)_k the falling factorial.

>>> counts = GAME.count(Shoe.standard(1), {})
>>> sum(counts.values()) == GAME.orderings(Shoe.standard(1)) == 36 * 22100 * 18424
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import TYPE_CHECKING, NamedTuple

from ..cards import Shoe, falling_factorial
from ..game import Tables
from ..inputs import COMMISSION, TIE_PAYS
from .dealt import DealFact, DealtGame, Pays, SettingValue

if TYPE_CHECKING:
    from ..coups import Dealing

#: The points of the eleven kinds: A … 9, then the tens, then the faces (J, Q, K) pooled.
_KIND_POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0)
_FACE = 10


class ThreeCardState(NamedTuple):
    """How a deal ended: each hand's total (0-9) and number of face cards (J, Q, K: 0-3)."""

    player_total: int
    player_faces: int
    banker_total: int
    banker_faces: int


def _rank(total: int, faces: int) -> tuple[bool, int, int]:
    """A hand's strength: three faces first, then the total, then the face cards."""
    return faces == 3, total, faces


def _winner(s: ThreeCardState) -> str:
    player, banker = _rank(s.player_total, s.player_faces), _rank(s.banker_total, s.banker_faces)
    return "player" if player > banker else "banker" if banker > player else "tie"


@lru_cache(maxsize=1)
def _hands() -> tuple[tuple[tuple[int, int], int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of three kinds: its (total, faces), its orderings 3!/∏k!, and its (kind, k) pairs."""
    out = []
    for kinds in combinations_with_replacement(range(len(_KIND_POINTS)), 3):
        held = Counter(kinds)
        state = (sum(_KIND_POINTS[k] for k in kinds) % 10, held[_FACE])
        out.append((state, factorial(3) // prod(factorial(k) for k in held.values()), tuple(held.items())))
    return tuple(out)


def count(shoe: Shoe, settings: Mapping[str, SettingValue]) -> dict[ThreeCardState, int]:
    """The ordered draws of the six cards (the Player's three, then the Banker's) ending in each state."""
    n = (*shoe.counts[:10], sum(shoe.counts[10:]))
    out: Counter[ThreeCardState] = Counter()
    hands = _hands()
    for player, ways, held in hands:
        first = ways * prod(falling_factorial(n[k], j) for k, j in held)
        if not first:
            continue
        left = list(n)
        for k, j in held:
            left[k] -= j
        by_state: Counter[tuple[int, int]] = Counter()
        for banker, banker_ways, banker_held in hands:
            second = banker_ways * prod(falling_factorial(left[k], j) for k, j in banker_held)
            if second:
                by_state[banker] += second
        for banker, second in by_state.items():
            out[ThreeCardState(*player, *banker)] += first * second
    return dict(out)


def _dealt(ranks: tuple[int, ...]) -> ThreeCardState:
    """The state of a coup's six cards (ranks 0 = A … 12 = K), the Player's three then the Banker's: each hand's
    total and faces, by the kinds of card the count deals (T the tens' kind, J Q K the faces')."""
    kinds = [min(rank, _FACE) for rank in ranks]
    hands = [kinds[:3], kinds[3:]]
    return ThreeCardState(*(x for hand in hands for x in (sum(_KIND_POINTS[k] for k in hand) % 10, hand.count(_FACE))))


def _states() -> tuple[ThreeCardState, ...]:
    """Every way a deal can end: each hand's total and faces (three faces only with a total of 0), by the other's."""
    hands = [(total, faces) for total in range(10) for faces in range(4) if faces < 3 or total == 0]
    return tuple(ThreeCardState(*p, *b) for p in hands for b in hands)


def _dealing() -> Dealing:
    """Three cards to the Player, then three to the Banker."""
    from ..coups import BACCARAT_HANDS, Dealing

    return Dealing(BACCARAT_HANDS, (0, 0, 0, 1, 1, 1), _dealt)

GAME = DealtGame(
    name="three-card-baccarat",
    description="Three Card Baccarat (Macau; Prosperity 3 Pictures): three cards to each hand from one deck;"
    " three faces is best, then the total, then the number of faces.",
    aliases=("three-card", "3-card-baccarat", "prosperity-3-pictures"),
    order=3,
    decks=1,
    tables=Tables(par_decks=(1,)),
    cards=6,
    convention="ordered draws of the 6 cards dealt, the Player's 3 then the Banker's 3: N(N-1)(N-2)(N-3)(N-4)(N-5),"
    " 36 times the C(N,3)·C(N-3,3) pairs of hands",
    facts_of_deal=(
        DealFact("winner", "who won: player, banker or tie", ("player", "banker", "tie"), _winner),
        DealFact(
            "player_total", "the Player's total, 0-9 (three faces: 0)", tuple(range(10)), lambda s: s.player_total
        ),
        DealFact(
            "banker_total", "the Banker's total, 0-9 (three faces: 0)", tuple(range(10)), lambda s: s.banker_total
        ),
        DealFact(
            "player_faces", "face cards (J, Q, K) in the Player's hand, 0-3", (0, 1, 2, 3), lambda s: s.player_faces
        ),
        DealFact(
            "banker_faces", "face cards (J, Q, K) in the Banker's hand, 0-3", (0, 1, 2, 3), lambda s: s.banker_faces
        ),
    ),
    states=_states,
    count=count,
    bets_file="three-card-baccarat.toml",
    pays=(
        Pays(COMMISSION, "commission", (("player", "win"), ("banker", "win"))),
        Pays(TIE_PAYS, "pays", (("tie", "win"),)),
    ),
    dealing=_dealing,
)
"""Three Card Baccarat: one deck usual (its par sheet at 1 deck); its bets are in
``exactodds/data/three-card-baccarat.toml``."""
