"""The inputs of ``fit-rtp`` (the command and ``POST /fit-rtp``), declared once and apart from the fit itself: the
command line declares its options at start-up, and the fit's algebra loads only when it runs."""

from __future__ import annotations

from dataclasses import replace

from ...inputs import PRECISION, Input

#: The inputs of ``fit-rtp`` (the command and ``POST /fit-rtp``): the family's laws with p (and q) in them, the fee,
#: the advertised RTPs, the grid of q, the places.
FAMILY_LIT_COUNT = Input("lit-count", "text", 'The lit count or its law, with p in its probabilities to fit them'
                         ' (e.g. "1:p,2:1-p"); default the game\'s.', metavar="LAW")
FAMILY_MULTIPLIERS = Input("multipliers", "text", 'The multipliers\' law, with p in its probabilities to fit them'
                           ' (e.g. "2:1-p,3:p"); default the game\'s.', metavar="LAW")
FIT_FEE = Input("fee", "pay", "The fee on every bet, e.g. 20% (default the game's).", metavar="RATE")
RTP = Input("rtp", "text", "An advertised RTP as printed, e.g. player=98.9% (repeatable; bets: player, banker, tie,"
            " pair, player-pair, banker-pair). It stands for every value that rounds to it.", metavar="BET=RTP",
            multiple=True, key_name="rtps")
GRID = Input("grid", "whole", "With a second parameter q in the laws (2:1-p-q,3:p,8:q): q on N + 1 values from 0 to"
             " 1.", metavar="N", low=1, high=1000, default=20)
FIT_PRECISION = replace(PRECISION, low=1, high=15, default=10)
FIT_INPUTS = (FAMILY_LIT_COUNT, FAMILY_MULTIPLIERS, FIT_FEE, RTP, GRID)
