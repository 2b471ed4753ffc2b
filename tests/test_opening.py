"""Bets on the four opening cards in closed form (exactodds/opening.py) against the card walk, the reference."""

from __future__ import annotations

import dataclasses
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples

import exactodds as xo
from exactodds.errors import ExactOddsError
from exactodds.puntobanco.cardwalk.walk import card_counts
from exactodds.puntobanco.facts import condition
from exactodds.puntobanco.odds import analyze, resolve_bets
from exactodds.puntobanco.opening import FORMS, opening_counts, route
from exactodds.puntobanco.rules import PUNTO_BANCO, STANDARD_TABLEAU

CARD_BETS = [b for b in resolve_bets(PUNTO_BANCO, ["all"]) if b.reads_cards]
#: The form of each catalog bet on the dealt cards (None: the card walk, which deals the third cards).
ROUTES = {
    "3-giving-8": None,
    "jackpot-baccarat": "poker",
    "lucky-nines": "nines",
    "lucky-nines-red-rock": "nines",
    "all-red": "how-many",
    "all-black": "how-many",
    "monkey": "how-many",
    "tiger-pair": "pairs",
    "banker-fortune-4-pair": "suited-pair",
    "player-fortune-4-pair": "suited-pair",
    "player-red": "positions",
    "banker-red": "positions",
    "player-black": "positions",
    "banker-black": "positions",
}
OPENING_BETS = [b for b in CARD_BETS if ROUTES[b.id]]
#: A fresh and a depleted 8-deck shoe (card r of A…K, suit s of S H D C keeps 8 − ((r + 2s) mod 7)), 1 deck, tiny
#: suited shoes (suited pairs, four of one card, nines of one suit, a flush with a pair, a straight).
SHOES = {
    "8 decks": xo.Shoe.standard(8),
    "depleted": xo.Shoe.parse(",".join(f"{r}{s}={8 - (i + 2 * j) % 7}" for i, r in enumerate("A23456789TJQK")
                                       for j, s in enumerate("SHDC"))),  # fmt: skip
    "1 deck": xo.Shoe.standard(1),
    "tiny": xo.Shoe.parse("AS=2,KH=4,9D=3,9S=2,JC=2,4D=3,2H=1,3H=1"),
    "one suit": xo.Shoe.parse("9D=2,9S=2,9H=3,AS=2,TS=1,JS=1,QS=1,KS=1,2S=1,3S=1,4S=1,5S=1"),
}


def _walk(shoe: xo.Shoe, whens, first_match: bool = False) -> list[int]:
    return card_counts(shoe, STANDARD_TABLEAU, whens, "bet", first_match)


def test_every_catalog_bet_on_the_dealt_cards_takes_its_route():
    assert {b.id: route(b.cards, b.first_match) for b in CARD_BETS} == ROUTES
    assert len({f.name for f in FORMS}) == 6


@pytest.mark.parametrize("name", SHOES)
def test_the_closed_forms_equal_the_card_walk(name):
    shoe = SHOES[name]
    for bet in OPENING_BETS:
        assert opening_counts(shoe, bet.cards, bet.first_match) == _walk(shoe, bet.cards, bet.first_match), bet.id


suited_shoes = st.lists(st.integers(0, 3), min_size=52, max_size=52).filter(lambda cells: sum(cells) >= 6)


@given(suited_shoes)
@examples(40, 2)
def test_the_closed_forms_equal_the_card_walk_on_random_small_shoes(cells):
    rows = tuple(tuple(cells[4 * r : 4 * r + 4]) for r in range(13))
    shoe = xo.Shoe(tuple(sum(row) for row in rows), rows)
    for bet in OPENING_BETS:
        assert opening_counts(shoe, bet.cards, bet.first_match) == _walk(shoe, bet.cards, bet.first_match), bet.id


def test_bet_all_prices_the_opening_bets_without_the_walk():
    """None is walked (3 Giving 8 is priced as a bet on coup states: below); the figures are the walk's."""
    shoe = SHOES["depleted"]
    walked = []

    def spy(shoe, tableau, whens, bet_id="bet", first_match=False):
        walked.append(bet_id)
        return card_counts(shoe, tableau, whens, bet_id, first_match)

    with patch("exactodds.puntobanco.cardwalk.walk.card_counts", spy):
        fast = analyze(shoe, PUNTO_BANCO, CARD_BETS)
    assert walked == []
    for figures in fast.bets:
        assert [o.count for o in figures.outcomes] == _walk(shoe, figures.bet.cards, figures.bet.first_match)


GENERIC = [
    # Facts of the same forms in other combinations than the catalog's: each against the walk.
    [condition({"p1_rank": "K", "b2_suit": "S"}), condition({"p1_rank": ["Q", "J"], "p2_value": 0}), None],
    [condition({"p1_colour": "red", "b1_colour": "red", "p2_colour": "red", "b2_rank": ["9", "8"]}), None],
    [condition({"face_cards": [1, 2]}), condition({"face_cards": 3}), None],
    [condition({"first_four_colour": "mixed"}), None],
    [condition({"nines": 2, "nines_suited": True}), condition({"nines": [0, 1], "nine_of_diamonds": False}), None],
    [condition({"pairs": 1, "player_pair": True}), condition({"banker_pair": True}), None],
    [condition({"first_four_poker": ["flush", "straight"]}), condition({"first_four_pair": ["2", "3"]}), None],
    [condition({"player_suited_pair": True, "p1_colour": "red"}),
     condition({"player_suited_pair": True, "p2_suit": "S"}), None],
]


@pytest.mark.parametrize("whens", GENERIC, ids=range(len(GENERIC)))
def test_other_bets_on_the_opening_cards(whens):
    for shoe in (SHOES["tiny"], SHOES["one suit"], xo.Shoe.standard(1)):
        assert route(whens) is not None
        assert opening_counts(shoe, whens) == _walk(shoe, whens)


def test_overlaps_first_match_and_rank_only_shoes():
    """Overlapping outcomes are the walk's error, unless the first that holds settles; a shoe by rank knows no suits."""
    shoe = xo.Shoe.standard(1)
    overlap = [condition({"p1_colour": "red"}), condition({"p2_colour": "red"}), None]
    assert opening_counts(shoe, overlap) is None
    assert opening_counts(shoe, overlap, first_match=True) == _walk(shoe, overlap, first_match=True)
    with pytest.raises(ExactOddsError, match="overlap"):
        _walk(shoe, overlap)
    assert opening_counts(shoe, [condition({"nines": 1}), condition({"nines": 2})]) is None  # unsettled draws
    by_rank = xo.Shoe.parse("A=4,9=5,J=3,K=2,5=3")
    faces = [condition({"face_cards": [0, 4]}), None]
    assert route(faces, suited=False) == "how-many"
    assert opening_counts(by_rank, faces) == _walk(by_rank, faces)
    assert route([condition({"p1_colour": "red"}), None], suited=False) is None  # the walk refuses it
    assert route([condition({"nine_of_diamonds": True, "nines": 3}), None]) is None  # 9♦ among 3 nines: not told


def test_a_bet_the_coup_end_decides_is_priced_as_a_bet_on_coup_states():
    """3 Giving 8: the Banker's two-card 3 and the Player's third card an 8 is the Player drawing, the Banker
    standing on 3 (standard tableau); the compiled evaluator prices it, equal to the walk, with no walk."""
    from exactodds.puntobanco.cardwalk.states import state_bet
    from exactodds.puntobanco.rules import EZ

    bet = next(b for b in CARD_BETS if b.id == "3-giving-8")
    stand_in = state_bet(bet, STANDARD_TABLEAU)
    assert stand_in is not None and stand_in.cards is None
    walked = []

    def spy(shoe, tableau, whens, bet_id="bet", first_match=False):
        walked.append(bet_id)
        return card_counts(shoe, tableau, whens, bet_id, first_match)

    for shoe in (SHOES["depleted"], SHOES["tiny"]):
        for rules in (PUNTO_BANCO, EZ):
            with patch("exactodds.puntobanco.cardwalk.walk.card_counts", spy):
                fast = analyze(shoe, rules, [bet, "banker"]).bet("3-giving-8")
            assert [o.count for o in fast.outcomes] == _walk(shoe, bet.cards), (shoe, rules.name)
    assert walked == []
    # Facts the end does not decide (a king third: the value 0 holds four ranks; the Player's two-card total alone).
    for when in ({"banker_initial_total": 3, "p3_rank": "K"}, {"player_initial_total": 5}):
        odd = dataclasses.replace(bet, cards=(condition(when), None))
        assert state_bet(odd, STANDARD_TABLEAU) is None
    # The Banker's two-card 6 and the Player's third card one it stands on (whole values: T, J, Q, K together).
    stands = ["A", "2", "3", "4", "5", "8", "9", "T", "J", "Q", "K"]
    both = dataclasses.replace(bet, cards=(condition({"p3_rank": stands, "banker_initial_total": 6}), None))
    shoe = SHOES["tiny"]
    assert state_bet(both, STANDARD_TABLEAU) is not None
    assert [o.count for o in analyze(shoe, PUNTO_BANCO, [both]).bets[0].outcomes] == _walk(shoe, both.cards)
