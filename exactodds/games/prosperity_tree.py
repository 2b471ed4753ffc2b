"""Prosperity Tree Baccarat: punto banco with a 20% fee and 8 lit cards of a virtual deck, each ×2 or ×3
(:mod:`exactodds.games.lit`; the rules and their sources: docs/lit.md)."""

from __future__ import annotations

from fractions import Fraction

from .lit import LitGame

GAME = LitGame(
    name="prosperity-tree",
    description="Prosperity Tree Baccarat: punto banco with a 20% fee on every bet and 8 cards of a virtual deck lit"
    " with multipliers ×2 or ×3 on the hand that pays; the multipliers' law is not published (give it).",
    aliases=("prosperity-tree-baccarat",),
    order=12,
    fee=Fraction(1, 5),
    tie_pays=Fraction(5),
    pair_pays=Fraction(10),
    lit_count="8",
    multipliers="2:15/16,3:1/16",
    assumed="not published: ×3 one time in 16, a law that gives all four advertised RTPs (fit-rtp, docs/lit.md)",
)
