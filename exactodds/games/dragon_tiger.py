"""Dragon Tiger: one card to the Dragon, one to the Tiger, the higher rank wins (A low, K high).

A state is the two ranks and whether the two cards share a suit (``None`` on a shoe known by rank).
The count is exact and needs no walk: Dragon's card d and Tiger's card t are dealt in
c_d·(c_t − [d = t]) orderings, and in Σ_s c_ds·(c_ts − [d = t]) of them with the same suit s.

>>> counts = GAME.count(Shoe.standard(8), {})
>>> counts[DragonTigerState(0, 0, True)], sum(counts.values()) == GAME.orderings(Shoe.standard(8))
(224, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from ..cards import Shoe
from ..game import Tables
from ..inputs import TIE_PAYS
from ..notation import RANK_TEXT
from .dealt import DealFact, DealtGame, Pays, SettingValue

if TYPE_CHECKING:
    from ..coups import Dealing


class DragonTigerState(NamedTuple):
    """How a deal of Dragon Tiger ended: the Dragon's and the Tiger's rank (0 = A … 12 = K), and whether the two
    cards share a suit (``None``: the shoe is known by rank only)."""

    dragon: int
    tiger: int
    same_suit: bool | None


def _winner(state: DragonTigerState) -> str:
    return "dragon" if state.dragon > state.tiger else "tiger" if state.tiger > state.dragon else "tie"


def count(shoe: Shoe, settings: Mapping[str, SettingValue]) -> dict[DragonTigerState, int]:
    """The ordered draws of (Dragon's card, Tiger's card) ending in each state: c_d·(c_t − [d = t]) by rank."""
    n = shoe.counts
    out: dict[DragonTigerState, int] = {}
    for d in range(len(n)):
        for t in range(len(n)):
            total = n[d] * (n[t] - (d == t))
            if total <= 0:
                continue
            if shoe.suits is None:
                out[DragonTigerState(d, t, None)] = total
                continue
            same = sum(a * (b - (d == t)) for a, b in zip(shoe.suits[d], shoe.suits[t]))
            for flag, k in ((True, same), (False, total - same)):
                if k:
                    out[DragonTigerState(d, t, flag)] = k
    return out


def _states() -> tuple[DragonTigerState, ...]:
    """Every way a deal can end: each rank of the Dragon's card by each of the Tiger's, the suits alike or not."""
    return tuple(DragonTigerState(d, t, f) for d in range(13) for t in range(13) for f in (False, True))


def _dealing() -> Dealing:
    """One card to the Dragon, then one to the Tiger; a coup typed whole names its hands in words (T is a ten)."""
    from ..coups import Dealing, Hand

    return Dealing((Hand("dragon", "dragon"), Hand("tiger", "tiger")), (0, 1),
                   lambda ranks: DragonTigerState(ranks[0], ranks[1], None))


GAME = DealtGame(
    name="dragon-tiger",
    description="Dragon Tiger: one card each to the Dragon and the Tiger, the higher rank wins (A low, K high);"
    " a tie costs the Dragon and Tiger bets half their stake.",
    aliases=("dragon-and-tiger",),
    order=2,
    decks=8,
    tables=Tables(par_decks=(6, 8)),
    cards=2,
    convention="ordered draws of the 2 cards dealt, the Dragon's then the Tiger's: N(N-1)",
    facts_of_deal=(
        DealFact("winner", "who won: dragon, tiger or tie", ("dragon", "tiger", "tie"), _winner),
        DealFact(
            "dragon_rank", "the rank of the Dragon's card, A (low) to K", RANK_TEXT, lambda s: RANK_TEXT[s.dragon]
        ),
        DealFact("tiger_rank", "the rank of the Tiger's card, A (low) to K", RANK_TEXT, lambda s: RANK_TEXT[s.tiger]),
        DealFact(
            "same_suit", "the two cards share a suit (needs a shoe known by suit)", (False, True),
            lambda s: s.same_suit, suited=True,
        ),
    ),
    states=_states,
    count=count,
    bets_file="dragon-tiger.toml",
    pays=(Pays(TIE_PAYS, "pays", (("tie", "win"),)),),
    dealing=_dealing,
)
"""Dragon Tiger: any number of decks (8 usual; par sheets at 6 and 8); its bets are in
``exactodds/data/dragon-tiger.toml``."""
