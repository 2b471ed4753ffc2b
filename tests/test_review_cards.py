"""The review of bets on the dealt cards (colours, pairs of the very same card, the Player's third card): each wager
settled by the cards as the rules text reads them, and its exact EV worked out here from the cards left by closed
forms and a count over card values, apart from the engine's card walk.

Player Red pays 2:1 when the Player's first two cards are both red; All Red 15:1 when the four opening cards are;
Tiger Pair 100:1 when the four opening cards are the very same card, 20:1 when both hands' first two cards are a
pair (not all one card), 4:1 when exactly one is; 3 Giving 8 200:1 when the Banker's first two cards make 3 and the
Player draws an 8 (the catalog's ``side-bets.toml``).
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from fractions import Fraction
from itertools import product

import pytest

from exactodds.cards import RANK_POINTS, RANKS, SUITS, Shoe
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import PUNTO_BANCO, deal_coup
from exactodds.review import review
from exactodds.review.log import records

CARD_BETS = ("player-red", "all-red", "tiger-pair", "3-giving-8")
RED = ("H", "D")


def points(card: str) -> int:
    return RANK_POINTS[RANKS[[r.value for r in RANKS].index(card[0])]]


def rules_text_net(bet: str, player: list[str], banker: list[str]) -> Fraction:
    """A bet's net per unit on a coup of these hands, read off the cards as the docstring's rules text says."""
    opening = [player[0], banker[0], player[1], banker[1]]
    if bet == "banker":  # 0.95:1, pushed by a tie
        p, b = (sum(points(c) for c in hand) % 10 for hand in (player, banker))
        return Fraction(19, 20) if b > p else Fraction(0) if b == p else Fraction(-1)
    if bet == "player-red":
        return Fraction(2) if all(c[1] in RED for c in player[:2]) else Fraction(-1)
    if bet == "all-red":
        return Fraction(15) if all(c[1] in RED for c in opening) else Fraction(-1)
    if bet == "tiger-pair":
        if len(set(opening)) == 1:
            return Fraction(100)
        pairs = (player[0][0] == player[1][0]) + (banker[0][0] == banker[1][0])
        return Fraction((-1, 4, 20)[pairs])
    assert bet == "3-giving-8"
    banker_three = (points(banker[0]) + points(banker[1])) % 10 == 3
    return Fraction(200) if banker_three and len(player) == 3 and player[2][0] == "8" else Fraction(-1)


def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def independent_ev(bet: str, left: dict[str, int]) -> Fraction:
    """The exact EV per unit on the cards left (each card, rank and suit, with its count), by closed forms over the
    cards and, for 3 Giving 8, a count over the card values of the first five cards."""
    n = sum(left.values())
    red = sum(c for card, c in left.items() if card[1] in RED)
    if bet == "player-red":
        p = Fraction(falling(red, 2), falling(n, 2))
        return 3 * p - 1
    if bet == "all-red":
        p = Fraction(falling(red, 4), falling(n, 4))
        return 16 * p - 1
    if bet == "tiger-pair":
        by_rank: dict[str, int] = {}
        for card, c in left.items():
            by_rank[card[0]] = by_rank.get(card[0], 0) + c
        n2, n4 = falling(n, 2), falling(n, 4)
        same = sum(falling(c, 4) for c in left.values())  # the four opening cards one card, over n4
        one_side = Fraction(sum(falling(c, 2) for c in by_rank.values()), n2)  # a hand's first two a pair
        # Both hands pairs: ranks a, b (a ≠ b), or all four of one rank.
        both = sum(falling(by_rank[a], 2) * falling(by_rank[b], 2) if a != b else falling(by_rank[a], 4)
                   for a in by_rank for b in by_rank)
        p_same, p_both = Fraction(same, n4), Fraction(both, n4)
        p_one = 2 * one_side - 2 * p_both
        p_lose = 1 - p_same - (p_both - p_same) - p_one
        return 100 * p_same + 20 * (p_both - p_same) + 4 * p_one - p_lose
    assert bet == "3-giving-8"
    by_value = [0] * 10
    for card, c in left.items():
        by_value[points(card)] += c
    eights = sum(c for card, c in left.items() if card[0] == "8")
    win = 0
    # P1 B1 P2 B2 by value: the Banker's two make 3, the Player's two 0 to 5 (no natural: he draws), then an 8.
    for p1, b1, p2, b2 in product(range(10), repeat=4):
        if (b1 + b2) % 10 != 3 or (p1 + p2) % 10 > 5:
            continue
        taken = [0] * 10
        weight = 1
        for v in (p1, b1, p2, b2):
            weight *= by_value[v] - taken[v]
            taken[v] += 1
        win += weight * (eights - taken[8])
    p = Fraction(win, falling(n, 5))
    return 201 * p - 1


def money(amount: Fraction) -> str:
    return str(Decimal(amount.numerator) / Decimal(amount.denominator))


def build_log(seed: int = 11, shoes: int = 3, decks: int = 1):
    """Shoes dealt by the tableau with suits, a bettor on each bet on the dealt cards at every coup and one on the
    Banker (priced by ``analyze``, a coup at a time: the review prices it with the others, by its own route), one
    wager in seven mis-paid by a unit; and what the test knows: each bettor's expected net and the mis-paid lines."""
    rng = random.Random(seed)
    lines: list[dict] = []
    expected: dict[str, Fraction] = {}
    mispaid: set[int] = set()
    wagers = 0
    for s in range(shoes):
        shoe_id = f"S{s}"
        cards = [r.value + su.value for r in RANKS for su in SUITS for _ in range(decks)]
        rng.shuffle(cards)
        lines.append({"shoe": shoe_id, "decks": decks})
        left = {card: decks for card in set(cards)}
        shoe = Shoe.standard(decks)
        i, coup = 0, 0
        while len(cards) - i >= 10:
            coup += 1
            evs = {bet: independent_ev(bet, left) for bet in CARD_BETS}
            evs["banker"] = analyze(shoe.without_suits(), PUNTO_BANCO, ["banker"]).bets[0].ev
            _, _, pc, bc = deal_coup([points(c) for c in cards[i:i + 6]], PUNTO_BANCO.tableau)
            player = [cards[i], cards[i + 2]] + ([cards[i + 4]] if pc == 3 else [])
            banker = [cards[i + 1], cards[i + 3]] + ([cards[i + 4 + (pc == 3)]] if bc == 3 else [])
            for card in player + banker:
                left[card] -= 1
            shoe = shoe.remove(player + banker)
            i += pc + bc
            lines.append({"shoe": shoe_id, "coup": coup, "player": player, "banker": banker})
            for bet in (*CARD_BETS, "banker"):
                wagers += 1
                net = 10 * rules_text_net(bet, player, banker)
                if wagers % 7 == 0:
                    net += 1
                    mispaid.add(len(lines) + 1)
                lines.append({"shoe": shoe_id, "coup": coup, "who": f"on-{bet}", "bet": bet, "stake": "10",
                              "net": money(net)})
                expected[bet] = expected.get(bet, Fraction(0)) + 10 * evs[bet]
        lines.append({"shoe": shoe_id, "end": True})
    return [json.dumps(line) for line in lines], expected, mispaid


@pytest.fixture(scope="module")
def built():
    return build_log()


def test_bets_on_the_dealt_cards_are_priced_and_settled_as_worked_out_here(built) -> None:
    lines, expected, mispaid = built
    verdict = review(records(lines))
    found = {b["bet"]: Fraction(b["expected_net"]["exact"]) for b in verdict.bettors()}
    assert found == expected
    nets = {b["bet"]: Fraction(b["net"]) for b in verdict.bettors()}
    assert all(nets[bet] != 0 for bet in CARD_BETS)  # the bets were settled, not skipped
    assert {f.line for f in verdict.findings if f.kind == "mispaid"} == mispaid
    assert {f.kind for f in verdict.findings} == {"mispaid"}  # dealt by the tableau, every card one the shoe held


def test_a_coup_against_the_tableau_is_settled_by_its_cards_as_dealt() -> None:
    # The Player's 4 A (5) must draw; here he stands, and the Banker's 8 5 (3) stands too: 3 Giving 8 loses, since
    # the Player drew no 8, though the tableau would have dealt him one (the next card, an 8).
    lines = ['{"shoe": "a", "decks": 1}',
             '{"shoe": "a", "coup": 1, "player": ["4H", "AC"], "banker": ["8S", "5C"]}',
             '{"shoe": "a", "coup": 1, "who": "x", "bet": "3-giving-8", "stake": "1", "net": "-1"}',
             '{"shoe": "a", "coup": 1, "who": "x", "bet": "tiger-pair", "stake": "1", "net": "-1"}',
             '{"shoe": "a", "coup": 1, "who": "x", "bet": "player-red", "stake": "1", "net": "-1"}']
    verdict = review(records(lines))
    assert [f.kind for f in verdict.findings] == ["dealing"]


def test_a_bet_on_suits_in_a_log_without_them_is_a_bad_line() -> None:
    lines = ['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 1, "player": ["4", "A"], "banker": ["8", "5"]}',
             '{"shoe": "a", "coup": 1, "who": "x", "bet": "all-red", "stake": "1", "net": "-1"}']
    with pytest.raises(Exception, match="line 3: bet all-red needs a shoe known by suit"):
        review(records(lines))


def test_a_bet_on_suited_pairs_on_a_coup_written_without_suits_is_a_bad_line() -> None:
    # The shoe was known by suit before the coup; the coup's own cards were not written with theirs, so whether
    # the 4s are the very same card (a perfect pair) is unknown: the wager is a bad line, not a loss.
    lines = ['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 1, "player": ["4", "4"], "banker": ["8", "5"]}',
             '{"shoe": "a", "coup": 1, "who": "x", "bet": "perfect-pair", "stake": "1", "net": "-1"}']
    with pytest.raises(Exception, match="line 3: bet perfect-pair needs a shoe known by suit"):
        review(records(lines))
