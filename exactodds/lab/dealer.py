"""Shuffled shoes dealt coup by coup to the cut card, many shoes side by side (numpy).

The deal itself is read from :func:`exactodds.puntobanco.rules.deal_table` (the one table of how a coup
ends by its two-card totals and its 5th and 6th cards) and coup states are encoded by
:func:`exactodds.puntobanco.coup.encode_state`: nothing here decides who draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..cards import RANK_VALUES, RANKS
from ..puntobanco.coup import encode_state
from ..puntobanco.rules import Tableau, deal_index, deal_table
from .plan import COUP_CARDS, ChunkWork, SimulationPlan

#: Value (0–9) of each rank index 0 (A) … 12 (K).
_RANK_VALUE = np.array(RANK_VALUES, dtype=np.int64)


@lru_cache(maxsize=8)
def deal_array(tableau: Tableau) -> np.ndarray:
    """:func:`exactodds.puntobanco.rules.deal_table` as a (10^4 × 4) int64 array: (pt, bt, pn, bn) by
    ((p·10+b)·10+v5)·10+v6."""
    table = np.array(deal_table(tableau), dtype=np.int64)
    table.setflags(write=False)
    return table


@lru_cache(maxsize=8)
def _coup_ends(tableau: Tableau) -> tuple[np.ndarray, np.ndarray]:
    """By :func:`exactodds.puntobanco.rules.deal_index`: each coup's state code without its pair flags, and the cards it
    uses.

    encode_state is affine in the pair flags and encode_state(0, 0, 2, 2, pp, bp) adds them alone, so a
    coup's code is the first array's entry plus encode_state(0, 0, 2, 2, pp, bp).
    """
    pt, bt, pn, bn = deal_array(tableau).T
    return encode_state(pt, bt, pn, bn, 0, 0), pn + bn


@dataclass(frozen=True)
class DealtChunk:
    """The coups of a chunk of shoes, grouped by shoe in deal order.

    ``shoe[i]`` is the shoe of coup i (0-based within the chunk), ``before[i]`` the unseen
    cards per rank before it, ``state[i]`` its final coup state code (pairs included).
    """

    shoes: int
    shoe: np.ndarray
    before: np.ndarray
    state: np.ndarray


def _work(plan: SimulationPlan | ChunkWork) -> ChunkWork:
    return plan.work() if isinstance(plan, SimulationPlan) else plan


def shuffled_shoes(plan: SimulationPlan | ChunkWork, index: int) -> np.ndarray:
    """The shuffled shoes of chunk ``index``: ranks (0 = A … 12 = K) in deal order, one row per shoe.

    Chunk i is shuffled by its own generator, seeded by ``SeedSequence([seed, i])``.

    >>> from exactodds.cards import Shoe
    >>> plan = SimulationPlan.from_options(Shoe.standard(1), bets=["tie"], shoes=3, seed=7)
    >>> cards = shuffled_shoes(plan, 0)
    >>> cards.shape, bool((np.sort(cards[0]) == np.repeat(np.arange(13), 4)).all())
    ((3, 52), True)
    """
    work = _work(plan)
    rng = np.random.default_rng(np.random.SeedSequence([work.seed, index]))
    deck = np.repeat(np.arange(len(RANKS), dtype=np.int8), work.counts)
    return rng.permuted(np.tile(deck, (work.chunk_size(index), 1)), axis=1)


def deal_chunk(plan: SimulationPlan | ChunkWork, cards: np.ndarray) -> DealtChunk:
    """Deal every shoe of ``cards`` to the cut card, all shoes side by side, one coup per step.

    The coup in which the cut card comes out (the first that uses a card at or past
    position N − cut card) is finished and one more coup is dealt; then the shoe ends.
    """
    work = _work(plan)
    n, size = cards.shape
    codes, uses = _coup_ends(work.tableau)
    cut = size - work.cut_card
    unseen = np.tile(np.array(work.counts, dtype=np.int64), (n, 1))
    if work.burn == "card":
        # The first card is shown (so seen and counted), then its value in cards (10 for T-K) go face down.
        first = cards[:, 0]
        unseen[np.arange(n), first] -= 1
        first_value = _RANK_VALUE[first]
        pos = 1 + np.where(first_value == 0, 10, first_value).astype(np.int64)
    else:
        pos = np.full(n, int(work.burn), dtype=np.int64)
    last = np.zeros(n, dtype=bool)
    active = np.arange(n)
    offsets = np.arange(COUP_CARDS)
    flat = cards.ravel()
    shoe_parts, rank_parts, used_parts, state_parts = [], [], [], []
    while active.size:
        p = pos[active]
        r = flat[(active * size)[:, None] + np.minimum(p[:, None] + offsets, size - 1)]
        v = _RANK_VALUE[r]
        # Cards 1 and 3 are the Player's, 2 and 4 the Banker's; the table knows the rest of the coup.
        entry = deal_index((v[:, 0] + v[:, 2]) % 10, (v[:, 1] + v[:, 3]) % 10, v[:, 4], v[:, 5])
        used = uses[entry]
        shoe_parts.append(active)
        rank_parts.append(r)
        used_parts.append(used)
        state_parts.append(codes[entry] + encode_state(0, 0, 2, 2, r[:, 0] == r[:, 2], r[:, 1] == r[:, 3]))
        pos[active] = p + used
        finished = last[active]
        last[active] |= p + used > cut
        active = active[~finished]
    shoe = np.concatenate(shoe_parts)
    order = np.argsort(shoe, kind="stable")
    shoe, ranks, used = shoe[order], np.concatenate(rank_parts)[order], np.concatenate(used_parts)[order]
    # The cards each coup takes from the unseen, per rank (its first ``used`` cards), then the unseen before
    # each coup: the shoe's unseen at its start less the cards of its earlier coups (a running sum per shoe).
    coups = len(shoe)
    taken = offsets < used[:, None]
    out = np.bincount((np.arange(coups)[:, None] * len(RANKS) + ranks)[taken], minlength=coups * len(RANKS))
    out = out.reshape(coups, len(RANKS))
    seen = np.cumsum(out, axis=0) - out
    starts = np.flatnonzero(np.r_[True, shoe[1:] != shoe[:-1]])
    # Shoe j's coups start at starts[j] (every shoe has a coup), so its earlier coups' cards are seen - seen[starts[j]].
    return DealtChunk(n, shoe, (unseen + seen[starts])[shoe] - seen, np.concatenate(state_parts)[order])
