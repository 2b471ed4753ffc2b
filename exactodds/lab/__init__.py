"""The card-counting lab: shoes dealt at random, every coup priced exactly before it is dealt.

A run shuffles shoes, deals them coup by coup to the cut card, and before every coup
knows the exact EV of each chosen bet for the cards not yet seen. Strategies decide from
what the player knows whether to bet one unit on a bet:

- ``perfect``: whenever the bet's exact EV is positive (the bound for any count);
- ``count``: whenever the true count of a linear count reaches a threshold, decided
  exactly (52·RC >= threshold·remaining);
- ``always``: every coup (its mean must converge to the bet's exact house edge).

One concern per module: :mod:`~exactodds.lab.counts` (tags, thresholds, count systems),
:mod:`~exactodds.lab.plan` (the plan and its plain-data form), :mod:`~exactodds.lab.pricing`
(exact EVs of many shoes), :mod:`~exactodds.lab.dealer` (numpy dealing),
:mod:`~exactodds.lab.chunk` (one chunk's totals), :mod:`~exactodds.lab.results`,
:mod:`~exactodds.present.lab` (rendering), :mod:`~exactodds.lab.persist` (resume files),
:mod:`~exactodds.lab.pool` (local worker processes), :mod:`~exactodds.lab.run` (the run
loop over any executor), :mod:`~exactodds.lab.session` (a run as the CLI makes it) and
:mod:`~exactodds.lab.proposals` (counts proposed from effects of removal).
"""

from __future__ import annotations

from ..present.lab import render_proposals
from .counts import CountSystem, count_systems, parse_tags, tags_text
from .persist import load_result, save_result, saved_seed
from .plan import CHUNK_SHOES, STRATEGIES, SimulationPlan, random_seed, simulated_bets
from .pool import LabPool
from .proposals import CountProposal, propose_counts
from .results import Figures, SimulationResult, Totals
from .run import simulate
from .session import Session

__all__ = [
    "CHUNK_SHOES",
    "STRATEGIES",
    "CountProposal",
    "CountSystem",
    "Figures",
    "LabPool",
    "Session",
    "SimulationPlan",
    "SimulationResult",
    "Totals",
    "count_systems",
    "load_result",
    "parse_tags",
    "propose_counts",
    "random_seed",
    "render_proposals",
    "save_result",
    "saved_seed",
    "simulate",
    "simulated_bets",
    "tags_text",
]
