"""A worked example of each outcome of each bet: a real coup, its cards in deal order, who drew and why.

A regulator's rules ask for examples of each outcome. Every coup a tableau can deal is found by its card values (the
Player's two, the Banker's two, then the third cards the tableau calls for: 339,400 coups of the standard tableau,
where six cards a coup would be 10^6 value sequences), walked until every outcome asked has its coup (a fifth of a
second for the whole catalog). Each coup's pair flags come from the ranks its values allow (two cards of one value
other than 0 are one rank, a pair; two 0-valued cards may be a ten and a jack), and its suited flags from the suits
(a pair may be two of the very same card from a shoe of several decks). The first coup, in that order, of each state
a bet's outcome holds is its example. A bet on the dealt cards beyond the coup (colours, poker hands) has none.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from .coup import CoupState
from .events import Bet
from .rules import RuleSet, Tableau, deal_coup

#: The rank written for each value (a ten for 0), and the second 0-valued rank of a hand that is not a pair.
_RANK_OF = tuple("TA23456789")
_OTHER_ZERO = "J"
_SUITS = "SHDC"


class Example(NamedTuple):
    """A coup: the Player's cards and the Banker's (rank and suit, in the order dealt: P1 B1 P2 B2, then the third
    cards), the deal in words, and how it ended."""

    player: tuple[str, ...]
    banker: tuple[str, ...]
    deal: str
    state: CoupState

    @property
    def cards(self) -> str:
        """The hands as written: ``P 4H 3S 9D · B KC 5H``."""
        return f"P {' '.join(self.player)} · B {' '.join(self.banker)}"


def worked_examples(rules: RuleSet, bets: Sequence[Bet]) -> dict[tuple[str, str], Example]:
    """An example coup of each outcome of each bet that one can have, by (bet id, outcome id): a coup without pairs
    where the outcome has one.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> found = worked_examples(PUNTO_BANCO, [find_bet("dragon-7", PUNTO_BANCO)])
    >>> found["dragon-7", "win"].cards, found["dragon-7", "win"].deal
    ('P AS 2D AS · B AH 2C 4H', "Player 3 draws; Banker 3 draws on the Player's third card 1")
    """
    settled = [bet for bet in bets if bet.cards is None]  # a bet on the dealt cards beyond the coup: none
    wanted = {(bet.id, o.id) for bet in settled for o in bet.outcomes}
    out: dict[tuple[str, str], Example] = {}
    seen: set[CoupState] = set()
    for values, state in _states(rules.tableau):
        if state in seen:
            continue
        seen.add(state)
        for bet in settled:
            key = (bet.id, bet.settle(state).id)
            if key not in out:
                out[key] = _example(values, state, rules.tableau)
        if len(out) == len(wanted):
            break  # else every coup is walked: an outcome no coup settles has no example
    return out


#: The order the values are tried in: the ace to the nine, then the ten (a first example reads as a plain coup).
_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)


def _states(tableau: Tableau) -> Iterator[tuple[tuple[int, ...], CoupState]]:
    """Every coup the tableau deals with each state its ranks and suits allow (a pair last among a coup's choices)."""
    for values in _coups(tableau):
        p_total, b_total, pc, bc = deal_coup([*values, 0, 0][:6], tableau)
        for pair_p in _pair_choices(values[0], values[2]):
            for pair_b in _pair_choices(values[1], values[3]):
                for suited_p in (False, True) if pair_p else (False,):
                    for suited_b in (False, True) if pair_b else (False,):
                        yield values, CoupState(p_total, b_total, pc, bc, pair_p, pair_b, suited_p, suited_b)


def _after(value: int) -> tuple[int, ...]:
    """The values in :data:`_ORDER` from the one after ``value`` round to ``value`` itself: a hand's second card
    differs from its first until every other value has been tried (an example has a pair only where it needs one)."""
    i = _ORDER.index(value)
    return _ORDER[i + 1:] + _ORDER[:i + 1]


def _coups(tableau: Tableau) -> Iterator[tuple[int, ...]]:
    """Every coup the tableau deals, as card values in deal order (P1 B1 P2 B2, then the third cards it uses)."""
    for p1 in _ORDER:
        for b1 in _ORDER:
            for p2 in _after(p1):
                for b2 in _after(b1):
                    first = (p1, b1, p2, b2)
                    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
                    if tableau.is_natural(player) or tableau.is_natural(banker):
                        yield first
                    elif tableau.player_draws(player):
                        for v5 in _ORDER:
                            if tableau.banker_draws(banker, v5):
                                yield from ((*first, v5, v6) for v6 in _ORDER)
                            else:
                                yield (*first, v5)
                    elif tableau.banker_draws(banker, None):
                        yield from ((*first, v5) for v5 in _ORDER)
                    else:
                        yield first


def _example(values: tuple[int, ...], state: CoupState, tableau: Tableau) -> Example:
    """The coup of these values with the ranks and suits that make ``state``'s pairs."""
    ranks = [_RANK_OF[v] for v in values]
    if values[0] == values[2] == 0 and not state.player_pair:
        ranks[2] = _OTHER_ZERO
    if values[1] == values[3] == 0 and not state.banker_pair:
        ranks[3] = _OTHER_ZERO
    suits = [_SUITS[i % 4] for i in range(len(values))]
    suits[2] = suits[0] if state.player_pair_suited else _SUITS[(_SUITS.index(suits[0]) + 2) % 4]
    suits[3] = suits[1] if state.banker_pair_suited else _SUITS[(_SUITS.index(suits[1]) + 2) % 4]
    cards = [r + s for r, s in zip(ranks, suits)]
    player = [0, 2] + ([4] if state.player_cards == 3 else [])
    banker = [1, 3] + ([4 + (state.player_cards == 3)] if state.banker_cards == 3 else [])
    return Example(tuple(cards[i] for i in player), tuple(cards[i] for i in banker), _deal_text(values, tableau),
                   state)


def _pair_choices(first: int, second: int) -> tuple[bool, ...]:
    """Whether two cards of these values are a pair: must be (one rank), may be or not (two 0-valued ranks), or not."""
    if first != second:
        return (False,)
    return (False, True) if first == 0 else (True,)


def _deal_text(values: tuple[int, ...], tableau: Tableau) -> str:
    """Who drew and why, by the tableau: ``Player 5 draws; Banker 6 draws on the Player's third card 7``."""
    player, banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    if tableau.is_natural(player) or tableau.is_natural(banker):
        return f"Player {player}, Banker {banker}: a natural; neither draws"
    if tableau.player_draws(player):
        third = values[4]
        said = f"Player {player} draws; Banker {banker}"
        return said + (" draws" if tableau.banker_draws(banker, third) else " stands") + \
            f" on the Player's third card {third}"
    return f"Player {player} stands; Banker {banker} " + ("draws" if tableau.banker_draws(banker, None) else "stands")


__all__ = ["Example", "worked_examples"]
