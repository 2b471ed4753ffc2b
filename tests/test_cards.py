"""Ranks and shoes: parsing, counts, removal, and the errors bad input gets."""

from __future__ import annotations

import pytest

from exactodds import ExactOddsError, Rank, Shoe
from exactodds.cards import RANKS, falling_factorial


def test_ranks_and_their_values():
    assert "".join(r.value for r in RANKS) == "A23456789TJQK"
    assert [r.points for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]


@pytest.mark.parametrize(
    ("text", "rank"),
    [("A", Rank.ACE), ("a", Rank.ACE), ("10", Rank.TEN), ("t", Rank.TEN), (" q ", Rank.QUEEN), ("9", Rank.NINE)],
)
def test_rank_parse_is_case_insensitive_and_accepts_10(text, rank):
    assert Rank.parse(text) is rank


@pytest.mark.parametrize("text", ["1", "11", "X", "", "AA", "0"])
def test_unknown_rank_lists_the_valid_ones(text):
    with pytest.raises(ExactOddsError, match=r"unknown rank .*: use one of A 2 3 4 5 6 7 8 9 T J Q K \(or 10\)"):
        Rank.parse(text)


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        Rank.parse("Z")


def test_falling_factorial():
    assert falling_factorial(416, 6) == 4_998_398_275_503_360
    assert falling_factorial(6, 6) == 720
    assert falling_factorial(10, 0) == 1
    assert falling_factorial(5, 6) == 0


def test_standard_shoes():
    shoe = Shoe.standard(8)
    assert shoe.counts == (32,) * 13
    assert (shoe.size, shoe.orderings(), shoe.describe()) == (416, 4_998_398_275_503_360, "8 decks")
    assert shoe.value_counts() == (128, 32, 32, 32, 32, 32, 32, 32, 32, 32)
    assert Shoe.standard(1).describe() == "1 deck"
    assert Shoe.standard() == shoe
    assert Shoe.standard(1000).size == 52_000


@pytest.mark.parametrize("decks", [0, -1, True, 1.5, "8"])
def test_bad_deck_counts(decks):
    with pytest.raises(ExactOddsError, match="the number of decks must be a whole number of at least 1"):
        Shoe.standard(decks)


def test_shoe_parse():
    shoe = Shoe.parse("A=32, 2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32,10=32,j=32,Q=32,k=32")
    assert shoe == Shoe.standard(8).without_suits() and not shoe.suited
    assert Shoe.parse("a=2; 9=1 ,K=3").as_dict() == {
        "A": 2, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 0, "9": 1, "T": 0, "J": 0, "Q": 0, "K": 3
    }  # fmt: skip
    assert Shoe.parse("T=6").describe() == "6 cards"
    assert Shoe.parse("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4").describe() == "1 deck"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A=3,X=3", r"unknown rank 'X'"),
        ("A=-1,K=9", r"the count of A cannot be negative \(-1\)"),
        ("A=1.5,K=9", r"the count of A must be a whole number, not '1\.5'"),
        ("A=two,K=9", r"the count of A must be a whole number, not 'two'"),
        ("A=,K=9", r"the count of A must be a whole number, not ''"),
        ("A3,K=9", r"shoe entry 'A3' should look like RANK=COUNT"),
        ("A=3,a=3", r"rank A is listed twice"),
        ("T=3,10=3", r"rank T is listed twice"),
        ("A=5", r"a shoe needs at least 6 cards to deal a coup; this one has 5"),
        ("", r"this one has 0"),
    ],
)
def test_shoe_parse_errors(text, message):
    with pytest.raises(ExactOddsError, match=message):
        Shoe.parse(text)


def test_shoe_from_counts():
    assert Shoe.from_counts({"A": 2, "10": 3, "k": 1}).counts == (2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1)
    assert Shoe.from_counts({Rank.NINE: 6}).count(Rank.NINE) == 6
    with pytest.raises(ExactOddsError, match="the count of A must be a whole number, not 2.0"):
        Shoe.from_counts({"A": 2.0, "K": 5})
    with pytest.raises(ExactOddsError, match=r"the count of K cannot be negative \(-5\)"):
        Shoe.from_counts({"A": 20, "K": -5})


def test_shoe_validates_itself():
    with pytest.raises(ExactOddsError, match="a count for each of the 13 ranks"):
        Shoe((4,) * 12)
    with pytest.raises(ExactOddsError, match="the count of 2 must be a whole number"):
        Shoe((4, 4.0, *(4,) * 11))
    with pytest.raises(ExactOddsError, match="the count of A must be a whole number"):
        Shoe((True, *(4,) * 12))
    with pytest.raises(ExactOddsError, match=r"the count of K cannot be negative \(-1\)"):
        Shoe((*(4,) * 12, -1))
    with pytest.raises(ExactOddsError, match="at least 6 cards"):
        Shoe((5, *(0,) * 12))
    assert Shoe((6, *(0,) * 12)).size == 6


def test_remove():
    shoe = Shoe.standard(8).remove("7,7,8,K")
    assert shoe.size == 412
    assert [shoe.count(r) for r in (Rank.SEVEN, Rank.EIGHT, Rank.KING, Rank.ACE)] == [30, 31, 31, 32]
    assert shoe.describe() == "412 cards"
    assert Shoe.standard(1).remove([Rank.ACE, "10", "t"]).as_dict()["T"] == 2
    assert Shoe.standard(1).remove("") == Shoe.standard(1)
    assert Shoe.parse("A=3,2=6").remove("a; 2 ,2").counts[:2] == (2, 4)


def test_remove_names_the_rank_and_how_many_are_left():
    with pytest.raises(ExactOddsError, match="cannot remove 2 × A: the shoe holds only 1 of rank A"):
        Shoe.parse("A=1,K=6").remove("A,A")
    with pytest.raises(ExactOddsError, match="cannot remove 5 × K: the shoe holds only 4 of rank K"):
        Shoe.standard(1).remove("K,K,Q,K,K,K")
    with pytest.raises(ExactOddsError, match="cannot remove 1 × 9: the shoe holds only 0 of rank 9"):
        Shoe.parse("A=9").remove("9")
    with pytest.raises(ExactOddsError, match="unknown rank 'Z'"):
        Shoe.standard(1).remove("A,Z")


def test_remove_below_six_cards():
    with pytest.raises(ExactOddsError, match="after removing those cards: a shoe needs at least 6 cards"):
        Shoe.parse("A=3,K=4").remove("A,K")


def test_shoes_are_immutable_values():
    shoe = Shoe.standard(1)
    smaller = shoe.remove("A")
    assert shoe.size == 52 and smaller.size == 51
    assert Shoe.standard(2) == Shoe.standard(2) and hash(Shoe.standard(2)) == hash(Shoe.standard(2))
    with pytest.raises(AttributeError):
        shoe.counts = (0,) * 13  # type: ignore[misc]


def test_a_shoe_too_large_to_print_is_refused():
    assert Shoe.standard(10**98).size == 52 * 10**98
    with pytest.raises(ExactOddsError, match=r"a shoe can hold at most 10\^100 cards; this one holds more"):
        Shoe.standard(10**99)
    with pytest.raises(ExactOddsError, match=r"a shoe can hold at most 10\^100 cards"):
        Shoe((10**4000, *(0,) * 12))  # more digits than str() may write
    with pytest.raises(ExactOddsError, match="the count of A is too large"):
        Shoe.parse("A=" + "9" * 5000)  # more digits than int() may read
