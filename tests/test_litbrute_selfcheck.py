"""Self-checks of the brute-force lit-card reference (tests/litbrute.py): plain figures and hand-computed cases."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from litbrute import BETS, brute_force, deal_hands, event_probabilities
from profiles import sweep

from exactodds.cards import RANKS, SUITS, Shoe
from exactodds.puntobanco.odds import analyze

F = Fraction
A, FIVE, SIX, NINE, TEN, QUEEN, KING = 0, 4, 5, 8, 9, 11, 12
S, H, D, C = 0, 1, 2, 3

# Small shoes that deal every kind of coup: wins both ways, ties, pairs, third cards.
SHOES: dict[str, list[tuple[int, int]]] = {
    "mixed-8": [(A, S), (A, H), (FIVE, S), (SIX, D), (NINE, C), (KING, S), (KING, H), (2, C)],
    "copies-7": [(FIVE, S), (FIVE, S), (3, H), (SIX, D), (TEN, C), (TEN, C), (7, H)],
    "low-6": [(A, S), (1, H), (2, D), (3, C), (KING, S), (A, S)],
}
DECK = [(A, S), (FIVE, S), (KING, S), (TEN, C), (7, H)]
MULTIPLIERS = {F(2): F(1, 2), F(3): F(1, 3), F(5): F(1, 6)}


def package_probabilities(shoe: list[tuple[int, int]]) -> dict[str, Fraction]:
    """The same events' probabilities from the package's exact counts."""
    suited = Shoe.from_card_counts({(RANKS[r], SUITS[s]): n for (r, s), n in Counter(shoe).items()})
    analysis = analyze(suited, bets=list(BETS))

    def win(bet: str) -> Fraction:
        figures = [o for o in analysis.bet(bet).outcomes if o.outcome.id == "win"]
        assert len(figures) == 1
        return F(figures[0].count, figures[0].orderings)

    return {
        "player-win": win("player"),
        "banker-win": win("banker"),
        "tie": win("tie"),
        "player-pair": win("player-pair"),
        "banker-pair": win("banker-pair"),
    }


@pytest.mark.parametrize("name", sweep(sorted(SHOES)))
def test_nothing_lit_gives_plain_punto_banco(name: str) -> None:
    shoe = SHOES[name]
    p = event_probabilities(shoe)
    assert sum((p["player-win"], p["banker-win"], p["tie"])) == 1
    assert all(0 < p[e] < 1 for e in ("player-win", "banker-win", "tie"))
    assert p == package_probabilities(shoe)
    figures = brute_force(shoe, DECK, {0: F(1)}, MULTIPLIERS, tie=5, pair=9)
    assert figures["player"][0] == 2 * p["player-win"] + p["tie"]
    assert figures["banker"][0] == F(195, 100) * p["banker-win"] + p["tie"]
    assert figures["tie"][0] == 6 * p["tie"]
    assert figures["player-pair"][0] == 10 * p["player-pair"]
    assert figures["banker-pair"][0] == 10 * p["banker-pair"]
    # With nothing lit each return takes one value per outcome, so the second moments are plain too.
    assert figures["player"][1] == 4 * p["player-win"] + p["tie"]
    assert figures["banker"][1] == F(195, 100) ** 2 * p["banker-win"] + p["tie"]
    assert figures["tie"][1] == 36 * p["tie"]
    assert figures["player-pair"][1] == 100 * p["player-pair"]


def test_lit_count_law_mixes_linearly() -> None:
    shoe = SHOES["copies-7"]
    deck = DECK[:4]
    laws = [{0: F(1)}, {1: F(1)}, {2: F(1)}]
    parts = [brute_force(shoe, deck, law, MULTIPLIERS) for law in laws]
    weights = [F(1, 6), F(1, 3), F(1, 2)]
    mixed = brute_force(shoe, deck, dict(zip((0, 1, 2), weights)), MULTIPLIERS)
    for bet in BETS:
        for k in (0, 1):
            assert mixed[bet][k] == sum(w * part[bet][k] for w, part in zip(weights, parts))


# Seven zero-valued cards, two of them copies of K spades: every coup is Player 0 draws, Banker 0 draws, a tie
# with three-card hands, so the six drawn cards are all dealt and only the one card left out varies.
ZEROS = [(KING, S), (KING, S), (KING, H), (KING, D), (KING, C), (QUEEN, S), (QUEEN, H)]


def test_one_identity_always_lit_doubles() -> None:
    figures = brute_force(ZEROS, [(KING, S)], {1: F(1)}, {F(2): F(1)}, tie=5, pair=9)
    assert figures["player"] == (1, 1)  # always a tie: a push
    assert figures["banker"] == (1, 1)
    # Tie: the card left out is a K spades with probability 2/7 (one copy dealt, M = 2), else both are (M = 4).
    assert figures["tie"] == (F(2, 7) * 11 + F(5, 7) * 21, F(2, 7) * 11**2 + F(5, 7) * 21**2)
    # Player pair, over the 42 ordered (P1, P2): both K spades 2 (M = 4), one K spades and another king
    # 2 * 2 * 3 = 12 (M = 2), two other kings 3 * 2 = 6 and two queens 2 (M = 1); anything else loses.
    expected = (F(2 * 37 + 12 * 19 + 8 * 10, 42), F(2 * 37**2 + 12 * 19**2 + 8 * 10**2, 42))
    assert figures["player-pair"] == expected == figures["banker-pair"]


def test_one_of_two_identities_lit_with_random_multiplier() -> None:
    law = {F(2): F(1, 2), F(3): F(1, 2)}
    figures = brute_force(ZEROS, [(KING, S), (QUEEN, H)], {1: F(1)}, law, tie=5)
    em, em2 = F(5, 2), F(13, 2)  # E[m], E[m^2]
    # K spades lit: two copies dealt with probability 5/7, one with 2/7. Q hearts lit: dealt with probability 6/7.
    expected_m = F(1, 2) * (F(5, 7) * em2 + F(2, 7) * em) + F(1, 2) * (F(6, 7) * em + F(1, 7))
    assert figures["tie"][0] == 1 + 5 * expected_m == F(563, 28)


def test_undealt_lit_card_does_nothing() -> None:
    # Four nines and two kings: some hand always holds a 9, so every coup is a natural and cards 5 and 6 are not
    # dealt. Ties: both hands 9-9 (8 each; the kings are the undealt 5th and 6th cards), 4! * 2! = 48 of the 720
    # orders, M = 1 though the K hearts is lit; or both hands a 9 and a king (9 each), (2 * 2 * 4) * (2 * 3) * 2
    # = 192 orders, the K hearts dealt: M = 7.
    shoe = [(NINE, S), (NINE, H), (NINE, D), (NINE, C), (KING, S), (KING, H)]
    figures = brute_force(shoe, [(KING, H)], {1: F(1)}, {F(7): F(1)}, tie=5)
    assert figures["tie"] == (F(48 * 6 + 192 * 36, 720), F(48 * 6**2 + 192 * 36**2, 720))
    assert figures["tie"][0] == 10


def test_third_cards_in_deal_order() -> None:
    # Player 3 + 3 = 6 stands, Banker K + 2 = 2 draws: the Banker's third card is the 5th card (a 5).
    draw = [(2, S), (KING, S), (2, H), (1, S), (FIVE, D), (6, C)]
    assert deal_hands(draw) == (6, 7, ((2, S), (2, H)), ((KING, S), (1, S), (FIVE, D)))
    # Player K + 2 = 2 draws the 5th card (a 5: 7), Banker K + 2 = 2 draws on it: the 6th card (a 7: 9).
    draw = [(KING, H), (KING, S), (1, H), (1, S), (FIVE, D), (6, C)]
    assert deal_hands(draw) == (7, 9, ((KING, H), (1, H), (FIVE, D)), ((KING, S), (1, S), (6, C)))
