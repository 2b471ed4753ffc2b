"""Lightning Baccarat: punto banco with a 20% fee and 1 to 5 lit cards of a virtual deck, each ×2, ×3, ×4, ×5 or
×8 (:mod:`exactodds.games.lit`; the rules and their sources: docs/lit.md)."""

from __future__ import annotations

from fractions import Fraction

from .lit import LitGame

GAME = LitGame(
    name="lightning",
    description="Lightning Baccarat: punto banco with a 20% fee on every bet and 1 to 5 cards of a virtual deck lit"
    " with multipliers ×2 to ×8 on the hand that pays; the laws of both are not published (give them).",
    aliases=("lightning-baccarat",),
    order=10,
    fee=Fraction(1, 5),
    tie_pays=Fraction(5),
    pair_pays=Fraction(9),
    lit_count="1:1/5,2:1/5,3:1/5,4:1/5,5:1/5",
    multipliers="2:1/5,3:1/5,4:1/5,5:1/5,8:1/5",
)
