"""Golden Wealth Baccarat: punto banco with a 20% fee and 5 golden cards of a virtual deck, each ×2, ×3, ×5 or ×8
(:mod:`exactodds.games.lit`; the rules and their sources: docs/lit.md)."""

from __future__ import annotations

from fractions import Fraction

from .lit import LitGame

GAME = LitGame(
    name="golden-wealth",
    description="Golden Wealth Baccarat: punto banco with a 20% fee on every bet and 5 golden cards of a virtual"
    " deck with multipliers ×2 to ×8 on the hand that pays; the multipliers' law is not published (give it).",
    aliases=("golden-wealth-baccarat",),
    order=11,
    fee=Fraction(1, 5),
    tie_pays=Fraction(5),
    pair_pays=Fraction(9),
    lit_count="5",
    multipliers="2:319/400,3:27/400,5:27/400,8:27/400",
    assumed="not published: the law of the family 2:1-3p,3:p,5:p,8:p that gives the advertised Player RTP, 98.9%"
    " (docs/lit.md)",
)
