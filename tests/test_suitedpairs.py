"""The suited-pair closed form against a brute force over every permutation, and against the reference walk."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, slow_cases

import exactodds as xo
from exactodds.paytable import Outcome
from exactodds.puntobanco.bets import side_catalog
from exactodds.puntobanco.engine import enumerate_coups
from exactodds.puntobanco.events import Bet, Event
from exactodds.puntobanco.odds import price
from exactodds.puntobanco.rules import PUNTO_BANCO
from exactodds.puntobanco.suitedpairs import FLAGS, flag_counts, settled_by_flags, suited_pair_counts

SUITED_BETS = [b for b in side_catalog() if b.needs_suits and not b.reads_cards]
SMALL = ["AS=3,AH=1,KS=2,KH=1,5D=1", "7S=2,7H=2,7D=2,2C=1", "AS=1,2S=1,3S=1,4S=1,5S=1,6S=1", "QS=4,QH=3"]


@pytest.mark.parametrize("text", SMALL)
def test_flag_counts_against_every_permutation_of_the_cards(text):
    """Deal every ordering of the physical cards (copies of a card told apart) and read the two hands' first cards."""
    shoe = xo.Shoe.parse(text)
    cards = [(rank, suit, copy) for (rank, suit), n in _cards(shoe).items() for copy in range(n)]
    seen: Counter[tuple[bool, bool]] = Counter()
    for draw in permutations(cards, 6):
        p1, b1, p2, b2 = draw[:4]
        seen[p1[:2] == p2[:2], b1[:2] == b2[:2]] += 1
    assert flag_counts(shoe) == {case: seen[case] for case in FLAGS}


def _cards(shoe: xo.Shoe) -> dict[tuple[int, int], int]:
    assert shoe.suits is not None
    return {(r, s): n for r, row in enumerate(shoe.suits) for s, n in enumerate(row) if n}


suited_shoes = st.lists(st.integers(0, 3), min_size=52, max_size=52).filter(lambda cells: sum(cells) >= 6)


@given(suited_shoes)
@examples(60, 2)
def test_every_suited_catalog_bet_equals_the_reference_walk(cells):
    rows = tuple(tuple(cells[4 * r : 4 * r + 4]) for r in range(13))
    shoe = xo.Shoe(tuple(sum(row) for row in rows), rows)
    walk = enumerate_coups(shoe, PUNTO_BANCO.tableau)
    for bet in SUITED_BETS:
        assert suited_pair_counts(shoe, bet) == [o.count for o in price(walk, bet).outcomes], bet.id
    assert sum(flag_counts(shoe).values()) == shoe.orderings()


def test_a_bet_that_reads_more_than_the_flags_takes_the_walk():
    """A suited pair paid only on a Banker win splits the flag cases: the closed form declines, the walk prices it."""
    win = Event.where({"suited_pairs": [1, 2], "winner": "banker"})
    bet = Bet("suited-banker", "a suited pair and a Banker win", (Outcome("win", win, 40), Outcome("lose", ~win, -1)))
    assert settled_by_flags(bet) is None
    shoe = xo.Shoe.standard(2)
    assert suited_pair_counts(shoe, bet) is None
    fast = xo.analyze(shoe, PUNTO_BANCO, [bet, "perfect-pair"])
    slow = xo.analyze(shoe, PUNTO_BANCO, [bet, "perfect-pair"], method="reference")
    assert [o.count for f in fast.bets for o in f.outcomes] == [o.count for f in slow.bets for o in f.outcomes]


def test_the_closed_form_in_the_batch_path():
    removed = ("7h", "KS,QD", *slow_cases("7h,7h"))  # a reference walk each: the slow profile adds a third
    shoes = [xo.Shoe.standard(8).remove(card) for card in removed]
    batch = xo.analyze_many(shoes, PUNTO_BANCO, ["banker", *(b.id for b in SUITED_BETS)])
    for shoe, one in zip(shoes, batch):
        assert one == xo.analyze(shoe, PUNTO_BANCO, ["banker", *(b.id for b in SUITED_BETS)], method="reference")


def test_a_shoe_known_by_rank_is_refused():
    with pytest.raises(ValueError, match="known by suit"):
        flag_counts(xo.Shoe.parse("A=8,K=8"))
