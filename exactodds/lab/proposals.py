"""Counts proposed for the lab from each bet's exact effects of removal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..cards import RANK_POINTS, RANKS, Shoe
from ..puntobanco.events import Bet
from ..puntobanco.rules import PUNTO_BANCO, RuleSet
from .counts import DECK, tags_text
from .plan import simulated_bets


@dataclass(frozen=True)
class CountProposal:
    """A linear count for one bet, from its exact effects of removal (see :func:`exactodds.count_tags`).

    ``break_even`` estimates the true count at which the bet turns positive, from the
    linear model EV ≈ EV(full shoe) + unit·(N − 1)·TC/52 (N cards in the full shoe,
    unit = EOR per tag point): a starting threshold to test with ``simulate``.
    """

    bet: str
    level: int
    tags: tuple[int, ...]
    balanced: bool
    correlation: str
    break_even: Fraction | None

    def tags_text(self) -> str:
        """The tags in the ``--tags`` format."""
        return tags_text(self.tags)


def propose_counts(
    shoe: Shoe,
    rules: RuleSet = PUNTO_BANCO,
    bets: Sequence[str | Bet] = ("dragon-7",),
    levels: Sequence[int] = (1, 2, 3, 4),
) -> list[CountProposal]:
    """Suggested count tags per bet and level, in rank order A,2,…,9,T,J,Q,K, with betting correlation.

    >>> [p.tags_text() for p in propose_counts(Shoe.standard(8), bets=["dragon-7"], levels=[2])]
    ['0,0,0,-1,-1,-1,-1,2,2,0']
    """
    from ..eor import VALUE_ROWS, effect_of_removal  # numpy and the compiled table: loaded when a count is proposed

    # ``all`` means what the lab can count and simulate: not the bets on suits (see simulated_bets).
    eor = effect_of_removal(shoe, rules, list(simulated_bets(rules, bets)), by="value")
    out = []
    for effects in eor.bets:
        for level in levels:
            found = eor.tags(effects.bet.id, level)
            if found is None:
                continue
            by_value = dict(zip(VALUE_ROWS, found.tags))  # EOR rows by value: A, 2, …, 9, T (0)
            tags = tuple(by_value[RANK_POINTS[r]] for r in RANKS)
            break_even = None
            if found.unit and shoe.size > 1:
                break_even = -effects.ev * DECK / (found.unit * (shoe.size - 1))
            out.append(
                CountProposal(effects.bet.id, level, tags, found.balanced, found.correlation_text(4), break_even)
            )
    return out
