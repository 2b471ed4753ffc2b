"""Suited shoes: parsing, removal, the exact suited split of the reference walk, and the suited-bet guard."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from click.testing import CliRunner

import exactodds as xo
from exactodds.cards import RANK_POINTS, RANKS, SUITS, Suit, parse_card
from exactodds.cli import cli
from exactodds.puntobanco.coup import ALL_STATES
from exactodds.puntobanco.rules import deal_coup


def test_standard_shoes_are_suited_and_typed_shoes_are_not():
    shoe = xo.Shoe.standard(2)
    assert shoe.suited and shoe.card_count(xo.Rank.ACE, Suit.SPADES) == 2
    assert shoe.suits_dict()["KC"] == 2 and len(shoe.suits_dict()) == 52
    assert not xo.Shoe.parse("A=8,K=8").suited and xo.Shoe.parse("A=8,K=8").suits_dict() is None
    assert shoe.without_suits() == xo.Shoe((8,) * 13) and shoe != xo.Shoe((8,) * 13)


def test_parse_suited_shoes():
    shoe = xo.Shoe.parse("AS=8, ah=8, 10s=3, TD=1, kc=2")
    assert shoe.suited and shoe.size == 22
    assert shoe.count(xo.Rank.ACE) == 16 and shoe.count(xo.Rank.TEN) == 4
    assert shoe.card_count(xo.Rank.TEN, Suit.SPADES) == 3
    assert parse_card("10h") == (xo.Rank.TEN, Suit.HEARTS) and parse_card("7") == (xo.Rank.SEVEN, None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AS=8,K=8", "either by rank .* or by card"),
        ("AX=8,K=8", "unknown suit 'X' in card 'AX'"),
        ("AS=8,as=2", "card AS is listed twice"),
        ("AS=-1,KH=9", "the count of AS cannot be negative"),
        ("AS=x,KH=9", "the count of AS must be a whole number"),
        ("ZS=3,KH=9", "unknown rank 'Z'"),
    ],
)
def test_bad_suited_shoes(text, message):
    with pytest.raises(xo.ExactOddsError, match=message):
        xo.Shoe.parse(text)


def test_a_suited_shoe_must_add_up():
    with pytest.raises(xo.ExactOddsError, match="the suits of A add up to 3, but the shoe holds 4"):
        xo.Shoe((4, *(4,) * 12), ((1, 1, 1, 0), *((1, 1, 1, 1),) * 12))


def test_removal_by_card_and_by_rank():
    shoe = xo.Shoe.standard(1)
    less = shoe.remove("7h,7s")
    assert less.suited and less.count(xo.Rank.SEVEN) == 2
    assert less.card_count(xo.Rank.SEVEN, Suit.HEARTS) == 0 and less.card_count(xo.Rank.SEVEN, Suit.CLUBS) == 1
    by_rank = shoe.remove("7h,7")  # a card by rank alone: which suit left is unknown
    assert not by_rank.suited and by_rank.count(xo.Rank.SEVEN) == 2
    with pytest.raises(xo.ExactOddsError, match=r"cannot remove 2 × 7H: the shoe holds only 1 of that card"):
        shoe.remove("7h,7h")
    with pytest.raises(xo.ExactOddsError, match="this shoe is known only by rank; remove 7"):
        xo.Shoe.parse("7=4,K=4").remove("7h")
    with pytest.raises(xo.ExactOddsError, match="unknown suit 'x' in card '7x'"):
        shoe.remove("7x")


def _brute_force(shoe: xo.Shoe) -> Counter:
    """Every ordered six-card draw of the shoe's cards as distinct objects, dealt literally."""
    cards = [
        (rank, suit, copy)
        for rank, row in zip(RANKS, shoe.suits)
        for suit, n in zip(SUITS, row)
        for copy in range(n)
    ]
    out: Counter = Counter()
    for draw in itertools.permutations(cards, 6):
        totals = deal_coup([RANK_POINTS[c[0]] for c in draw])
        out[
            xo.CoupState(
                *totals,
                draw[0][0] == draw[2][0],
                draw[1][0] == draw[3][0],
                draw[0][:2] == draw[2][:2],
                draw[1][:2] == draw[3][:2],
            )
        ] += 1
    return out


@pytest.mark.parametrize(
    "text",
    [
        "AS=3,AH=2,AD=1,KC=2,KS=1",  # four cards of one rank in several suits: the joint case
        "AS=2,AH=2,2D=2,9C=2",  # the two hands pair in different ranks
        "5S=4,5H=1,5D=2",  # a single rank
        "QS=2,QH=1,KS=2,3C=1,8D=2",  # pairs of 0-valued ranks, naturals
    ],
)
def test_suited_walk_matches_a_literal_walk_over_every_permutation(text):
    shoe = xo.Shoe.parse(text)
    assert dict(xo.enumerate_coups(shoe).counts) == dict(_brute_force(shoe))


def test_suited_flags_imply_pairs_and_all_states_cover_them():
    assert all(s.player_pair or not s.player_pair_suited for s in ALL_STATES)
    assert all(s.banker_pair or not s.banker_pair_suited for s in ALL_STATES)
    assert len(ALL_STATES) == 100 * 4 * 9
    assert xo.CoupState(1, 2, 2, 2, True, False) == xo.CoupState(1, 2, 2, 2, True, False, False, False)


def test_a_rank_only_shoe_has_no_suited_states_and_the_same_rank_figures(standard_coups):
    suited = standard_coups(2)  # the reference walk of two whole decks, with suits
    plain = xo.enumerate_coups(xo.Shoe.standard(2).without_suits())
    assert not any(s.player_pair_suited or s.banker_pair_suited for s in plain.counts)
    merged: Counter = Counter()
    for state, n in suited.counts.items():
        merged[state._replace(player_pair_suited=False, banker_pair_suited=False)] += n
    assert dict(merged) == dict(plain.counts)


def test_suited_bets_need_a_suited_shoe():
    with pytest.raises(xo.ExactOddsError, match="bet perfect-pair needs a shoe with suits; this shoe is known only by"):
        xo.analyze(xo.Shoe.standard(8).remove("7"), bets=["perfect-pair"])
    # rank-only bets are fine on either kind of shoe, and give the same figures
    a = xo.analyze(xo.Shoe.standard(8), bets=["player-pair"]).bet("player-pair").ev
    b = xo.analyze(xo.Shoe.standard(8).without_suits(), bets=["player-pair"]).bet("player-pair").ev
    assert a == b


def test_cli_suited_shoe_and_removal():
    runner = CliRunner()
    result = runner.invoke(cli, ["odds", "--remove", "7h,7s,Kd", "--bet", "perfect-pair", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert '"suited": true' in result.stdout and '"cards": 413' in result.stdout
    result = runner.invoke(cli, ["odds", "--shoe", "AS=4,AH=4,KS=4,KD=4", "--bet", "perfect-pair-v2"])
    assert result.exit_code == 0, result.output
    assert "16 cards · punto-banco" in result.stdout and "both" in result.stdout
    result = runner.invoke(cli, ["odds", "--remove", "7", "--bet", "perfect-pair"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: bet perfect-pair needs a shoe with suits")
    result = runner.invoke(cli, ["odds", "--shoe", "AS=4,K=8", "--bet", "tie"])
    assert result.exit_code == 2 and "not both" in result.stderr


def test_a_bet_needs_suits_exactly_when_its_settlement_reads_them():
    from fractions import Fraction

    suited = xo.Event("Player suited pair", lambda s: s.player_pair_suited)
    pair = xo.Event("Player pair", lambda s: s.player_pair)  # undeclared: every state is checked
    bet = xo.Bet("mine", "", (xo.Outcome("win", suited, Fraction(30)), xo.Outcome("lose", ~suited, Fraction(-1))))
    assert bet.needs_suits
    plain = xo.Bet("plain", "", (xo.Outcome("win", pair, Fraction(11)), xo.Outcome("lose", ~pair, Fraction(-1))))
    assert not plain.needs_suits
    with pytest.raises(xo.ExactOddsError, match="leaves it unsettled"):
        xo.Bet("gap", "", (xo.Outcome("win", suited, Fraction(1)), xo.Outcome("lose", ~pair, Fraction(-1))))


def test_the_effect_of_removal_refuses_suited_bets_clearly():
    with pytest.raises(xo.ExactOddsError, match="bet perfect-pair depends on their suits"):
        xo.effect_of_removal(xo.Shoe.standard(8), bets=["perfect-pair"])
    with pytest.raises(xo.ExactOddsError, match="infinite shoe is known only by rank"):
        xo.analyze_infinite(bets=["perfect-pair"])
