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
    multipliers="2:42.68%,3:14.33%,4:14.33%,5:14.33%,8:14.33%",
    assumed="not published: the lit count uniform, and the law of the family 2:1-4p,3:p,4:p,5:p,8:p that gives the"
    " advertised Player RTP, 98.76% (docs/lit.md)",
)
