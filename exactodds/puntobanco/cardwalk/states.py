"""Bets on the dealt cards that the coup's end decides: priced as bets on coup states, by the compiled evaluator.

Some facts about the cards are decided by how the coup ended, under a given tableau: with the
standard tableau, a Banker's two-card 3 and the Player's third card an 8 (3 Giving 8) happen
exactly when the Player drew, the Banker stood and ended on 3, for the Banker draws on 3
unless the Player's third card is an 8. Such a bet is the same bet on coup states, which the
compiled evaluator prices with the other bets of a call, with no card walk. Whether it is so is
checked on every coup of the deal table (:func:`~exactodds.puntobanco.rules.deal_table`: the two-card
totals and the values of cards 5 and 6): the facts read (the two-card totals, the third cards'
values, or ranks when a condition names whole values) must hold alike on every coup that ends
in one (totals, cards) state; else the card walk (:mod:`exactodds.puntobanco.cardwalk.walk`) prices the bet.

>>> from exactodds.puntobanco.bets import find_bet
>>> from exactodds.puntobanco.rules import PUNTO_BANCO, STANDARD_TABLEAU
>>> bet = state_bet(find_bet("3-giving-8", PUNTO_BANCO), STANDARD_TABLEAU)
>>> [(o.id, o.event.name) for o in bet.outcomes]
[('win', 'the coup ends as when banker_initial_total = 3, p3_rank = 8'), ('lose', 'otherwise')]
"""

from __future__ import annotations

import dataclasses
from itertools import product

from ...cards import RANK_VALUES
from ...errors import ExactOddsError
from ...memo import IdentityCache
from ...notation import RANK_TEXT, Condition, describe
from ..coup import ALL_STATES
from ..events import Bet, Event, none_of
from ..facts import CARD_FACTS, states_where
from ..rules import Tableau, deal_index, deal_table

#: The card facts a coup's end may decide: the two-card totals and what the third cards are worth.
DECIDED = frozenset({"player_initial_total", "banker_initial_total", "p3_value", "b3_value", "p3_rank", "b3_rank"})


def state_bet(bet: Bet, tableau: Tableau) -> Bet | None:
    """The bet on coup states with ``bet``'s outcomes and pays when the coup's end decides each condition, else None.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO, STANDARD_TABLEAU
    >>> state_bet(find_bet("jackpot-baccarat", PUNTO_BANCO), STANDARD_TABLEAU) is None  # the cards themselves
    True
    """
    return _MADE.get(bet, lambda: _state_bet(bet, tableau), tableau)


#: Each bet object's stand-in under a tableau.
_MADE: IdentityCache[Bet | None] = IdentityCache(1024)


def _state_bet(bet: Bet, tableau: Tableau) -> Bet | None:
    if bet.cards is None:
        return None
    sets: list[int | None] = []
    for when in bet.cards:
        if when is None:
            sets.append(None)
            continue
        mask = _states(when, tableau)
        if mask is None:
            return None
        sets.append(mask)
    events: list[Event] = []
    taken = 0
    for when, mask in zip(bet.cards, sets):
        if mask is None:
            events.append(none_of("otherwise", events))
            continue
        if bet.first_match:  # the first outcome that holds settles the coup
            mask &= ~taken
            taken |= mask
        events.append(Event.of_states(f"the coup ends as when {describe(when or ())}", mask))
    outcomes = tuple(dataclasses.replace(o, event=e) for o, e in zip(bet.outcomes, events))
    try:
        return Bet(bet.id, bet.description, outcomes)
    except ExactOddsError:  # overlapping or missing outcomes: the card walk says which, on the shoe
        return None


def _states(when: Condition, tableau: Tableau) -> int | None:
    """The set of coup states in which ``when`` holds, when the coup's end decides its card facts (else None)."""
    card = tuple((name, values) for name, values in when if name in CARD_FACTS)
    plain = tuple((name, values) for name, values in when if name not in CARD_FACTS)
    if not card:  # a condition on how the coup ended alone (a pay override beside one on the cards)
        return states_where(when)
    if any(name not in DECIDED for name, _ in card):
        return None
    tests = []
    for name, values in card:
        named = _as_values(values) if name.endswith("_rank") else values
        if named is None:
            return None
        tests.append((name, frozenset(named)))
    table = deal_table(tableau)
    ends: dict[tuple[int, int, int, int], bool] = {}
    for p, b, v5, v6 in product(range(10), repeat=4):
        end = table[deal_index(p, b, v5, v6)]
        _, _, pn, bn = end
        facts: dict[str, object] = {
            "player_initial_total": p,
            "banker_initial_total": b,
            "p3": v5 if pn == 3 else "none",
            "b3": ((v6 if pn == 3 else v5) if bn == 3 else "none"),
        }
        holds = all(facts[name if name.endswith("_total") else name[:2]] in values for name, values in tests)
        if ends.setdefault(end, holds) != holds:
            return None  # two coups end alike, one with the facts and one without: the end does not decide them
    chosen = {end for end, holds in ends.items() if holds}
    mask = 0
    for i, state in enumerate(ALL_STATES):
        if (state.player_total, state.banker_total, state.player_cards, state.banker_cards) in chosen:
            mask |= 1 << i
    return mask & states_where(plain) if plain else mask


def _as_values(ranks: tuple[object, ...]) -> tuple[object, ...] | None:
    """The values of the ranks named, when they name whole values (the 8; T, J, Q and K together), else None.

    >>> _as_values(("8", "none")), _as_values(("T", "J", "Q", "K")), _as_values(("K",))
    ((8, 'none'), (0,), None)
    """
    named = {RANK_VALUES[RANK_TEXT.index(str(r))] for r in ranks if r != "none"}
    for value in named:
        if any(RANK_TEXT[i] not in ranks for i in range(13) if RANK_VALUES[i] == value):
            return None
    return (*sorted(named), *(("none",) if "none" in ranks else ()))
