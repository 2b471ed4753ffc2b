"""A brute-force reference for lit-card multiplier baccarat (Lightning Baccarat style), in exact fractions.

It exists to check faster code by enumeration alone; it shares nothing with the package but the deal
(:func:`exactodds.puntobanco.rules.deal_coup` with the punto banco tableau).

The rules it implements, literally:

* The shoe is a list of physical cards, each an identity ``(rank, suit)`` with rank 0..12 for A..K and
  suit 0..3; copies of an identity are allowed. Baccarat values: rank ``r`` is worth ``r + 1`` for
  ``r < 9`` (A..9) and 0 for T, J, Q, K.
* Every ordered draw of 6 distinct physical cards is equally likely (the shoe holds at least 6 cards).
  The cards are dealt in the order P1 B1 P2 B2 X Y. The Player draws X as a third card when the tableau
  says so; the Banker's third card, when he draws, is the next unused card: Y if the Player drew, else X.
  Drawn cards that the coup does not use are in no hand.
* The virtual deck is a list of D distinct identities. Each round n is drawn from ``lit_count`` (n -> P),
  then a uniformly random n-subset of the deck is lit, and each lit identity gets an independent
  multiplier drawn from ``multipliers`` (value -> P). A physical card is lit when its identity is; for
  a set of cards, M is the product, over the cards of the set that are lit, of their identity's
  multiplier (two copies of a lit identity count twice: m squared); M = 1 when none is lit.
* Returns per unit staked (stake included):

  - ``player``: Player wins 1 + M(Player's hand), tie 1, Banker wins 0;
  - ``banker``: Banker wins 0.95 + M(Banker's hand), tie 1, Player wins 0;
  - ``tie``: tie 1 + t * M(both hands' cards), else 0;
  - ``player-pair``: P1 and P2 of one rank 1 + b * M({P1, P2}), else 0;
  - ``banker-pair``: B1 and B2 of one rank 1 + b * M({B1, B2}), else 0.

  Lit cards that are not in a paying hand do nothing.

:func:`brute_force` enumerates every ordered draw, every n of positive probability, every n-subset of
the deck and every assignment of multiplier values to the lit identities, each weighted by its exact
probability. Draws with the same identity sequence are evaluated once and counted with multiplicity,
and draws whose payout on a bet is the same function of M (same base, same factor, same multiset of
identities in the multiplied set) are merged before the lit configurations are walked.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from math import comb

from exactodds.puntobanco.rules import PUNTO_BANCO, deal_coup

Card = tuple[int, int]
"""A card identity: (rank 0..12 for A..K, suit 0..3)."""

BETS: tuple[str, ...] = ("player", "banker", "tie", "player-pair", "banker-pair")
"""The bets priced, in order."""

EVENTS: tuple[str, ...] = ("player-win", "banker-win", "tie", "player-pair", "banker-pair")
"""The plain events of :func:`event_probabilities`."""

BANKER_BASE = Fraction(95, 100)

# A bet's payout on one draw: base + factor * M(cards), with the cards as a sorted tuple of identities.
Payout = tuple[Fraction, Fraction, tuple[Card, ...]]


def card_value(card: Card) -> int:
    """The baccarat value of a card identity: A=1, 2..9 face value, T/J/Q/K 0."""
    rank = card[0]
    return rank + 1 if rank < 9 else 0


def _check_shoe(shoe: Sequence[Card]) -> None:
    if len(shoe) < 6:
        raise ValueError(f"the shoe needs at least 6 cards, not {len(shoe)}")
    for card in shoe:
        rank, suit = card
        if not (0 <= rank <= 12 and 0 <= suit <= 3):
            raise ValueError(f"bad card identity {card!r}")


def identity_draws(shoe: Sequence[Card]) -> Counter[tuple[Card, ...]]:
    """Every ordered draw of 6 distinct physical cards, as identity sequences with their multiplicities."""
    _check_shoe(shoe)
    draws: Counter[tuple[Card, ...]] = Counter()
    for positions in itertools.permutations(range(len(shoe)), 6):
        draws[tuple(shoe[i] for i in positions)] += 1
    return draws


def deal_hands(draw: Sequence[Card]) -> tuple[int, int, tuple[Card, ...], tuple[Card, ...]]:
    """Deal a coup from six cards in deal order: (player total, banker total, player hand, banker hand)."""
    player_total, banker_total, player_cards, banker_cards = deal_coup(
        [card_value(c) for c in draw], PUNTO_BANCO.tableau
    )
    player_hand = (draw[0], draw[2]) + ((draw[4],) if player_cards == 3 else ())
    # The Banker's third card is the next card not yet dealt: the 5th if the Player stood, else the 6th.
    banker_hand = (draw[1], draw[3]) + ((draw[4 + (player_cards - 2)],) if banker_cards == 3 else ())
    # Independent check of the totals deal_coup reports against the hands built here.
    assert player_total == sum(card_value(c) for c in player_hand) % 10
    assert banker_total == sum(card_value(c) for c in banker_hand) % 10
    return player_total, banker_total, player_hand, banker_hand


def _payouts(draw: Sequence[Card], tie: Fraction, pair: Fraction) -> dict[str, Payout]:
    """Each bet's payout on one draw, as (base, factor, cards): the return is base + factor * M(cards)."""
    player_total, banker_total, player_hand, banker_hand = deal_hands(draw)
    zero, one = Fraction(0), Fraction(1)
    nothing: tuple[Card, ...] = ()
    out: dict[str, Payout] = {}
    if player_total > banker_total:
        out["player"] = (one, one, tuple(sorted(player_hand)))
        out["banker"] = (zero, zero, nothing)
        out["tie"] = (zero, zero, nothing)
    elif banker_total > player_total:
        out["player"] = (zero, zero, nothing)
        out["banker"] = (BANKER_BASE, one, tuple(sorted(banker_hand)))
        out["tie"] = (zero, zero, nothing)
    else:
        out["player"] = (one, zero, nothing)
        out["banker"] = (one, zero, nothing)
        out["tie"] = (one, tie, tuple(sorted(player_hand + banker_hand)))
    p1, b1, p2, b2 = draw[0], draw[1], draw[2], draw[3]
    out["player-pair"] = (one, pair, tuple(sorted((p1, p2)))) if p1[0] == p2[0] else (zero, zero, nothing)
    out["banker-pair"] = (one, pair, tuple(sorted((b1, b2)))) if b1[0] == b2[0] else (zero, zero, nothing)
    return out


def _check_law(name: str, law: Mapping[int, Fraction] | Mapping[Fraction, Fraction]) -> None:
    for key, p in law.items():
        if not isinstance(p, Fraction | int) or p < 0:
            raise ValueError(f"{name}: probability of {key!r} must be an exact number >= 0, not {p!r}")
    if sum(law.values(), Fraction(0)) != 1:
        raise ValueError(f"{name}: the probabilities add up to {sum(law.values(), Fraction(0))}, not 1")


def lit_configurations(
    deck: Sequence[Card],
    lit_count: Mapping[int, Fraction],
    multipliers: Mapping[Fraction, Fraction],
) -> Iterable[tuple[Fraction, dict[Card, Fraction]]]:
    """Every lighting of the deck with its probability: (P, identity -> multiplier of each lit identity)."""
    for n, p_n in sorted(lit_count.items()):
        if p_n == 0:
            continue
        subsets = comb(len(deck), n)
        for lit in itertools.combinations(deck, n):
            for values in itertools.product(sorted(multipliers), repeat=n):
                weight = Fraction(p_n) / subsets
                for m in values:
                    weight *= multipliers[m]
                if weight:
                    yield weight, dict(zip(lit, values))


def lit_multiple(cards: Iterable[Card], lit: Mapping[Card, Fraction]) -> Fraction:
    """M of a set of cards: the product of the multipliers of its lit cards (1 when none is lit)."""
    m = Fraction(1)
    for card in cards:
        if card in lit:
            m *= lit[card]
    return m


def _grouped(
    shoe: Sequence[Card],
    deck: Sequence[Card],
    lit_count: Mapping[int, Fraction],
    multipliers: Mapping[Fraction, Fraction],
    tie: Fraction | int,
    pair: Fraction | int,
) -> tuple[dict[str, Counter[Payout]], int]:
    """The inputs checked, then per bet: payout (base, factor, cards) -> how many ordered physical draws pay it; and
    how many draws there are in all."""
    if len(set(deck)) != len(deck):
        raise ValueError("the virtual deck's identities must be distinct")
    _check_law("lit_count", lit_count)
    _check_law("multipliers", multipliers)
    for n in lit_count:
        if not (isinstance(n, int) and 0 <= n <= len(deck)):
            raise ValueError(f"lit count {n!r} is not between 0 and the deck's size {len(deck)}")
    for m in multipliers:
        if not (isinstance(m, Fraction | int) and m > 0):
            raise ValueError(f"multiplier {m!r} must be an exact positive number")
    t, b = Fraction(tie), Fraction(pair)
    draws = identity_draws(shoe)
    grouped: dict[str, Counter[Payout]] = {bet: Counter() for bet in BETS}
    for draw, count in draws.items():
        for bet, payout in _payouts(draw, t, b).items():
            grouped[bet][payout] += count
    return grouped, sum(draws.values())


def brute_force(
    shoe: Sequence[Card],
    deck: Sequence[Card],
    lit_count: Mapping[int, Fraction],
    multipliers: Mapping[Fraction, Fraction],
    tie: Fraction | int = 5,
    pair: Fraction | int = 9,
) -> dict[str, tuple[Fraction, Fraction]]:
    """For each bet of :data:`BETS`, (E[return], E[return^2]) per unit staked, by full enumeration.

    ``shoe``: the physical cards (identities, copies allowed, at least 6); ``deck``: the distinct
    identities that may be lit; ``lit_count``: the law of how many are lit (n -> P, 0 <= n <= D);
    ``multipliers``: the law of a lit identity's multiplier (value > 0 -> P); ``tie``: the tie bet's
    factor t; ``pair``: the pair bets' factor b.
    """
    grouped, total = _grouped(shoe, deck, lit_count, multipliers, tie, pair)
    first = dict.fromkeys(BETS, Fraction(0))
    second = dict.fromkeys(BETS, Fraction(0))
    for weight, lit in lit_configurations(deck, lit_count, multipliers):
        for bet in BETS:
            s1, s2 = Fraction(0), Fraction(0)
            for (base, factor, cards), count in grouped[bet].items():
                r = base + factor * lit_multiple(cards, lit) if factor else base
                s1 += count * r
                s2 += count * r * r
            first[bet] += weight * s1
            second[bet] += weight * s2
    return {bet: (first[bet] / total, second[bet] / total) for bet in BETS}


def event_probabilities(shoe: Sequence[Card]) -> dict[str, Fraction]:
    """The plain probabilities of :data:`EVENTS` (Player wins, Banker wins, tie, the two pairs) by enumeration."""
    draws = identity_draws(shoe)
    total = sum(draws.values())
    hits = dict.fromkeys(EVENTS, 0)
    for draw, count in draws.items():
        player_total, banker_total, _, _ = deal_hands(draw)
        if player_total > banker_total:
            hits["player-win"] += count
        elif banker_total > player_total:
            hits["banker-win"] += count
        else:
            hits["tie"] += count
        if draw[0][0] == draw[2][0]:
            hits["player-pair"] += count
        if draw[1][0] == draw[3][0]:
            hits["banker-pair"] += count
    return {event: Fraction(n, total) for event, n in hits.items()}


def brute_laws(
    shoe: Sequence[Card],
    deck: Sequence[Card],
    lit_count: Mapping[int, Fraction],
    multipliers: Mapping[Fraction, Fraction],
    tie: Fraction | int = 5,
    pair: Fraction | int = 9,
) -> dict[str, tuple[dict[Fraction, Fraction], Fraction | None]]:
    """For each bet of :data:`BETS`, by full enumeration: the law of its return per unit staked (return -> P), and
    the share of its wins (the draws it multiplies) whose multiplied cards hold a lit card (``None`` if it never
    wins)."""
    grouped, total = _grouped(shoe, deck, lit_count, multipliers, tie, pair)
    laws: dict[str, dict[Fraction, Fraction]] = {bet: {} for bet in BETS}
    lit_wins = dict.fromkeys(BETS, Fraction(0))
    for weight, lit in lit_configurations(deck, lit_count, multipliers):
        for bet in BETS:
            for (base, factor, cards), count in grouped[bet].items():
                r = base + factor * lit_multiple(cards, lit) if factor else base
                laws[bet][r] = laws[bet].get(r, Fraction(0)) + weight * Fraction(count, total)
                if factor and any(card in lit for card in cards):
                    lit_wins[bet] += weight * count
    out: dict[str, tuple[dict[Fraction, Fraction], Fraction | None]] = {}
    for bet in BETS:
        wins = sum(count for (_, factor, _), count in grouped[bet].items() if factor)
        out[bet] = ({r: p for r, p in laws[bet].items() if p}, lit_wins[bet] / wins if wins else None)
    return out
