"""Three Card Baccarat: a literal brute force over every permutation of small shoes, the published figures, and
the puzzle of the published tie count.

The brute force is written here from the rules text (three cards to the Player, then three to the Banker; 10, J,
Q, K count 0 and the total is mod 10; three J/Q/K is the best hand; then the higher total; then more J/Q/K; else a
tie) and shares nothing with the engine but the shoe it is given.
"""

from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, permutations
from math import comb, factorial

import pytest
from click.testing import CliRunner
from profiles import is_slow

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.games.three_card import GAME as THREE_CARD

POINTS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}


def price(game, shoe, bets=None, settings=None):
    """The game's bets priced on ``shoe`` under ``settings`` (by name; the game's defaults for the rest)."""
    return game.price(shoe, bets, game.settings_of(settings or {}))


def hand(cards):
    """A hand's total and its J/Q/K, and its strength as the rules rank it."""
    total = sum(POINTS[c] for c in cards) % 10
    faces = sum(c in "JQK" for c in cards)
    return total, faces, (faces == 3, total, faces)


def brute_force(cards, commission=Fraction(1, 20)):
    """Every bet's net, summed over every ordering of the whole shoe: {bet: {net: orderings}}."""
    out = {}
    for deck in permutations(cards):
        _, _, player = hand(deck[:3])
        banker_total, banker_faces, banker = hand(deck[3:6])
        winner = "player" if player > banker else "banker" if banker > player else "tie"
        nets = {
            "player": 1 - commission if winner == "player" else 0 if winner == "tie" else -1,
            "banker": 1 - commission if winner == "banker" else 0 if winner == "tie" else -1,
            "tie": 20 if winner == "tie" else -1,
            **{f"dealer-total-{t}": 8 if banker_total == t else -1 for t in range(10)},
            "three-faces": 16 if banker_faces == 3 else -1,
        }
        for bet, net in nets.items():
            out.setdefault(bet, Counter())[Fraction(net)] += 1
    return out


SHOES = ["J,Q,K,K,5,T", "J,J,Q,K,K,9", "A,9,Q,T,T,K"]
#: Seven cards: 5,040 orderings each, the slow profile.
SLOW_SHOES = ["A,9,J,Q,T,T,K", "5,5,5,T,J,Q,Q"]


@pytest.mark.parametrize("cards", SHOES + (SLOW_SHOES if is_slow() else []))
def test_every_bet_against_a_literal_brute_force_over_every_permutation(cards):
    ranks = cards.split(",")
    shoe = Shoe.from_counts(Counter(ranks))
    expected = brute_force(ranks, Fraction(3, 100))
    analysis = price(THREE_CARD, shoe, settings={"commission": Fraction(3, 100)})
    rest = factorial(len(ranks) - 6)
    assert analysis.orderings * rest == factorial(len(ranks))
    for figures in analysis.bets:
        got = Counter()
        for o in figures.outcomes:
            if o.count:
                got[o.outcome.net] += o.count * rest
        assert got == expected[figures.bet.id], figures.bet.id


def test_the_published_figures_that_agree_and_the_tie_that_does_not():
    analysis = price(THREE_CARD, Shoe.standard(1))
    assert analysis.orderings == 36 * comb(52, 3) * comb(49, 3)
    per_pair = 36  # the 3! orders of each hand
    player = analysis.bet("player")
    win, push, lose = (o.count // per_pair for o in player.outcomes)
    assert (win, push, lose) == (195_898_240, 15_373_920, 195_898_240)  # published: 195,907,080 and 15,356,240
    assert 2 * 195_907_080 + 15_356_240 == comb(52, 3) * comb(49, 3)  # the published counts add up all the same
    assert player.house_edge_percent(2) == "2.41%" and analysis.bet("tie").house_edge_percent(2) == "20.71%"
    banker_hands = 3 * 2 * 1 * 49 * 48 * 47  # the orderings of each of the 22,100 Banker hands
    totals = [analysis.bet(f"dealer-total-{t}").outcomes[0].count // banker_hands for t in range(10)]
    assert totals == [2384, 2212, 2164, 2212, 2164, 2212, 2164, 2212, 2164, 2212]
    assert analysis.bet("three-faces").outcomes[0].count // banker_hands == 220


def test_the_commission_is_set_as_punto_banco_s():
    result = CliRunner().invoke(cli, ["odds", "--game", "three-card", "--commission", "3%", "--bet", "player"])
    assert result.exit_code == 0 and "house edge 1.44336307%" in result.output, result.output
    assert "Player 0.97:1 (3% commission)" in result.output


def ties_by_multisets(face, three_best=True):
    """The ordered pairs of disjoint three-card hands of one deck that tie, by rank multisets: Σ ∏ C(4,p)·C(4−p,b).

    A tie is an equal strength; ``face`` says which ranks count as face cards, ``three_best`` whether three of them
    make the best hand (the tie count is the same whatever the order of total and faces).
    """
    hands = [Counter(h) for h in combinations_with_replacement("A23456789TJQK", 3)]

    def strength(h):
        cards = list(h.elements())
        total, faces = sum(POINTS[c] for c in cards) % 10, sum(c in face for c in cards)
        return (three_best and faces == 3, total, faces)

    keys = [strength(h) for h in hands]
    ties = 0
    for p, kp in zip(hands, keys):
        for b, kb in zip(hands, keys):
            if kp == kb:
                ways = 1
                for rank in set(p) | set(b):
                    ways *= comb(4, p[rank]) * comb(4 - p[rank], b[rank])
                ties += ways
    return ties


def test_the_published_tie_count_is_no_reading_of_the_rules():
    # Face count first or points first, three faces best or not: the same ties (equal total and equal faces).
    assert ties_by_multisets("JQK") == ties_by_multisets("JQK", three_best=False) == 15_373_920
    assert ties_by_multisets("TJQK") == 13_749_856  # a 10 as a face card
    assert 15_356_240 not in {ties_by_multisets("JQK"), ties_by_multisets("TJQK")}


@pytest.mark.skipif(not is_slow(), reason="the slow profile: 407,170,400 pairs of hands, some seconds")
def test_the_tie_count_over_every_pair_of_hands_literally():
    import numpy as np

    ranks = [r for r in "A23456789TJQK" for _ in range(4)]
    hands = list(combinations(range(52), 3))
    masks = np.array([(1 << a) | (1 << b) | (1 << c) for a, b, c in hands], dtype=np.uint64)
    strengths = [hand([ranks[i] for i in h])[2] for h in hands]
    number = {key: k for k, key in enumerate(sorted(set(strengths)))}
    codes = np.array([number[key] for key in strengths])
    ties = sum(int(np.count_nonzero((codes == codes[i]) & ((masks & masks[i]) == 0))) for i in range(len(hands)))
    assert ties == 15_373_920
