"""The side bets of the Asian floor (issue 21): a literal brute force, a recount at 8 decks, the peer's figures.

Each bet is settled here from the words of its pay table (``settle``), not from the catalog's
conditions, over every ordered six-card draw of small suited shoes (the brute force of
tests/test_cardwalk.py: distinct cards, the deal written once). At 8 decks the coup-state
bets are recounted by the reference walk and the card bets by closed forms written below;
the peer library's printed 8-deck figures (tests/data/published_peer.txt) are compared with
the exact values to the digits they carry.
"""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from functools import cache
from unittest.mock import patch

import pytest
from profiles import is_slow, sweep
from published_data import read_rows
from test_card_overrides import draws

import exactodds as xo
from exactodds.cards import Rank, Suit, falling_factorial
from exactodds.puntobanco.bets import side_catalog
from exactodds.puntobanco.cardwalk.kinds import kinds, partitions
from exactodds.puntobanco.odds import price

#: The bets of issue 21, in the catalog's order (one after the other in the side-bet catalog).
ASIAN = (
    "monkey", "player-natural", "banker-natural", "small-tiger", "big-tiger", "tiger-tie", "tiger-pair",
    "banker-4-fortune", "player-4-fortune", "banker-fortune-4-pair", "player-fortune-4-pair",
    "player-red", "banker-red", "player-black", "banker-black", "invincible-6", "tiger-bull",
    "small-bull", "big-bull", "banker-char-siu", "player-char-siu", "wu-da-lang",
    "lucky-7", "small-lucky-7", "big-lucky-7", "super-lucky-7", "flame-7s", "heaven-9", "treasure-all",
)  # fmt: skip
#: The bets that read the dealt cards (the card walk prices them); the others read how the coup ended.
ON_THE_CARDS = {
    "monkey", "tiger-pair", "banker-fortune-4-pair", "player-fortune-4-pair",
    "player-red", "banker-red", "player-black", "banker-black",
}  # fmt: skip
FACES = {"J", "Q", "K"}
RED = {"H", "D"}
CARDS_IN_COUP = {4: "four-cards", 5: "five-cards", 6: "six-cards"}


def _hand(d: dict, side: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """A hand's first two cards as (rank, suit): the Player's are cards 1 and 3, the Banker's 2 and 4."""
    first, second = ("p1", "p2") if side == "player" else ("b1", "b2")
    return (d[f"{first}_rank"], d[f"{first}_suit"]), (d[f"{second}_rank"], d[f"{second}_suit"])


def _wins_with(d: dict, side: str, total: int, cards: int | None = None) -> bool:
    """Whether ``side`` wins with a final ``total`` (of ``cards`` cards, when given)."""
    return d["winner"] == side and d[f"{side}_total"] == total and cards in (None, d[f"{side}_cards"])


def _natural(d: dict, side: str) -> str:
    """That hand wins holding a natural (two-card 8 or 9): 4; a natural tie (8-8 or 9-9, two cards each) pushes."""
    if d["winner"] == side and d[f"{side}_cards"] == 2 and d[f"{side}_initial_total"] in (8, 9):
        return "win"
    two_cards = d["player_cards"] == d["banker_cards"] == 2
    return "push" if d["winner"] == "tie" and two_cards and d["player_total"] in (8, 9) else "lose"


def _fortune_pair(d: dict, side: str) -> str:
    """That hand's first two cards the very same card: the 4♦ 30, another 4 15, another ♦ 12, any other 9."""
    one, two = _hand(d, side)
    if one != two:
        return "lose"
    if one == ("4", "D"):
        return "four-of-diamonds"
    return "four" if one[0] == "4" else "diamond" if one[1] == "D" else "other"


def _colour(d: dict, side: str, colour: str) -> str:
    """That hand's first two cards both red (♦♥) / both black (♣♠)."""
    return "win" if all((suit in RED) == (colour == "red") for _, suit in _hand(d, side)) else "lose"


def _char_siu(d: dict, side: str) -> str:
    """That hand wins by exactly one point with 7, 8 or 9; by the cards in the coup."""
    other = "banker" if side == "player" else "player"
    if d["winner"] == side and d[f"{side}_total"] in (7, 8, 9) and d[f"{side}_total"] - d[f"{other}_total"] == 1:
        return CARDS_IN_COUP[d["player_cards"] + d["banker_cards"]]
    return "lose"


def _three_card_nine(d: dict, side: str) -> bool:
    return d[f"{side}_total"] == 9 and d[f"{side}_cards"] == 3


def _sevens_tie(d: dict, cards: int) -> bool:
    """A 7-7 tie with both hands ``cards`` cards."""
    return d["player_total"] == d["banker_total"] == 7 and d["player_cards"] == d["banker_cards"] == cards


def settle(bet: str, d: dict) -> str:
    """The outcome of ``bet`` on one draw's facts, as issue 21 words each pay table ("opening cards" = P1 B1 P2 B2)."""
    opening = [(d[f"{p}_rank"], d[f"{p}_suit"]) for p in ("p1", "b1", "p2", "b2")]
    if bet == "monkey":
        faces = sum(rank in FACES for rank, _ in opening)
        return "monkey" if faces == 4 else "no-monkey" if faces == 0 else "lose"
    if bet in ("player-natural", "banker-natural"):
        return _natural(d, bet.removesuffix("-natural"))
    if bet in ("small-tiger", "big-tiger"):
        return "win" if _wins_with(d, "banker", 6, 2 if bet == "small-tiger" else 3) else "lose"
    if bet == "tiger-tie":
        return "win" if d["player_total"] == d["banker_total"] == 6 else "lose"
    if bet == "tiger-pair":
        pairs = sum(one[0] == two[0] for one, two in (_hand(d, "player"), _hand(d, "banker")))
        if len(set(opening)) == 1:
            return "same-card"
        return "both" if pairs == 2 else "one" if pairs == 1 else "lose"
    if bet in ("banker-4-fortune", "player-4-fortune"):
        return "win" if _wins_with(d, bet.split("-")[0], 4) else "lose"
    if bet.endswith("fortune-4-pair"):
        return _fortune_pair(d, bet.split("-")[0])
    if bet in ("player-red", "banker-red", "player-black", "banker-black"):
        side, colour = bet.split("-")
        return _colour(d, side, colour)
    if bet == "invincible-6":
        tie = d["player_total"] == d["banker_total"] == 6
        return "win" if _wins_with(d, "player", 6) or _wins_with(d, "banker", 6) or tie else "lose"
    if bet == "tiger-bull":
        return "win" if _wins_with(d, "player", 6) or _wins_with(d, "banker", 6) else "lose"
    if bet in ("small-bull", "big-bull"):
        return "win" if _wins_with(d, "player", 6, 2 if bet == "small-bull" else 3) else "lose"
    if bet.endswith("char-siu"):
        return _char_siu(d, bet.split("-")[0])
    if bet == "wu-da-lang":
        return "win" if _wins_with(d, "player", 1) else "lose"
    if bet == "lucky-7":
        seven = _wins_with(d, "player", 7)
        return "lose" if not seven else "two-cards" if d["player_cards"] == 2 else "three-cards"
    if bet in ("small-lucky-7", "big-lucky-7"):
        return "win" if _wins_with(d, "player", 7, 2 if bet == "small-lucky-7" else 3) else "lose"
    if bet == "super-lucky-7":
        seven_over_six = d["player_total"] == 7 and d["banker_total"] == 6
        return CARDS_IN_COUP[d["player_cards"] + d["banker_cards"]] if seven_over_six else "lose"
    if bet == "flame-7s":
        return "two-cards" if _sevens_tie(d, 2) else "three-cards" if _sevens_tie(d, 3) else "lose"
    if bet == "heaven-9":
        nines = _three_card_nine(d, "player") + _three_card_nine(d, "banker")
        return "both" if nines == 2 else "one" if nines == 1 else "lose"
    if bet == "treasure-all":
        return _treasure(d)
    raise AssertionError(f"no settlement written for {bet}")  # pragma: no cover


def _treasure(d: dict) -> str:
    """Dragon 7 (the Banker wins with a three-card 7), Panda 8 (the Player, 8), Flame 7s, either hand a three-card 9."""
    if _wins_with(d, "banker", 7, 3):
        return "dragon-7"
    if _wins_with(d, "player", 8, 3):
        return "panda-8"
    if _sevens_tie(d, 2) or _sevens_tie(d, 3):
        return "flame-7s-two" if d["player_cards"] == 2 else "flame-7s-three"
    return "three-card-9" if _three_card_nine(d, "player") or _three_card_nine(d, "banker") else "lose"


#: The facts ``settle`` reads of a draw: draws alike in them are settled once, with their number.
_READ = (
    "winner", "player_total", "banker_total", "player_cards", "banker_cards", "player_initial_total",
    "banker_initial_total", "p1_rank", "p1_suit", "b1_rank", "b1_suit", "p2_rank", "p2_suit", "b2_rank", "b2_suit",
)  # fmt: skip


@cache
def brute(text: str) -> tuple[xo.Shoe, dict[str, Counter[str]]]:
    """Each new bet's outcome counts over every ordered six-card draw of the shoe ``text``, settled by ``settle``."""
    shoe, every = draws(text)
    alike = Counter(tuple(d[name] for name in _READ) for d in every)
    counts: dict[str, Counter[str]] = {bet: Counter() for bet in ASIAN}
    for key, n in alike.items():
        d = dict(zip(_READ, key))
        for bet in ASIAN:
            counts[bet][settle(bet, d)] += n
    return shoe, counts


#: Small suited shoes (eight cards: 20,160 ordered six-card draws each) that, together, make every outcome of
#: every new bet happen (checked below): the quick run walks these, the slow profile these and SLOW_SHOES.
SHOES = ("3S=2,4D=2,5C=1,7C=1,JC=2", "4S=2,6H=1,AC=1,QD=4", "4C=2,9S=2,JH=2,QS=2")
#: More shoes for the slow profile: nine cards (60,480 draws each), values spread, pairs and suits mixed.
SLOW_SHOES = (
    "AS=1,2H=1,3D=1,4D=2,5C=1,6S=1,7H=1,9C=1",
    "6S=2,6D=1,7H=2,8C=1,9D=2,KS=1",
    "4D=4,TD=1,JH=1,QS=1,KC=1,9S=1",
    "2C=1,3S=1,5H=2,7D=1,8S=2,TC=1,AD=1",
)


def test_the_bets_of_issue_21_follow_each_other_in_the_catalog_in_its_order():
    catalog = [b.id for b in side_catalog()]
    start = catalog.index(ASIAN[0])
    assert len(ASIAN) == len(set(ASIAN)) and tuple(catalog[start : start + len(ASIAN)]) == ASIAN
    assert list(xo.bet_catalog(xo.PUNTO_BANCO, full=True))[-len(catalog):] == catalog  # the side bets close it


@pytest.mark.parametrize("text", sweep(SHOES + (SLOW_SHOES if is_slow() else ())))
def test_every_new_bet_against_a_brute_force_over_every_permutation(text):
    shoe, expected = brute(text)
    analysis = xo.analyze(shoe, bets=list(ASIAN))
    for bet in ASIAN:
        figures = analysis.bet(bet)
        got = {o.outcome.id: o.count for o in figures.outcomes}
        assert got == {o: expected[bet].get(o, 0) for o in got} and sum(got.values()) == shoe.orderings(), bet
        pays = {o.outcome.id: o.outcome.net for o in figures.outcomes}
        assert figures.ev == Fraction(sum(pays[o] * n for o, n in expected[bet].items()), shoe.orderings()), bet


def test_the_brute_force_shoes_make_every_outcome_happen():
    seen = {bet: set() for bet in ASIAN}
    for text in SHOES:
        for bet, counts in brute(text)[1].items():
            seen[bet] |= {o for o, n in counts.items() if n}
    catalog = xo.bet_catalog(xo.PUNTO_BANCO, full=True)
    assert {bet: {o.id for o in catalog[bet].outcomes} - seen[bet] for bet in ASIAN} == dict.fromkeys(ASIAN, set())


#: Conditions on the very same card (a suited pair, four times one card) with and without the deal.
SAME_CARD = (
    {"first_four_same_card": True, "winner": "tie"},
    {"suited_pairs": 2, "p3_rank": "none"},
    {"player_suited_pair": True, "banker_pair": True, "winner": "banker"},
    {"banker_suited_pair": True, "b1_suit": "D", "face_cards": [0, 1]},
    {"pairs": 2, "first_four_same_card": False, "p3_value": [0, 1, "none"]},
)


@cache
def _same_card_brute() -> tuple[xo.Shoe, tuple[int, ...]]:
    """SAME_CARD's counts over every ordered six-card draw of SHOES[1] (four Q♦, two 4♠), by the brute force."""
    from exactodds.puntobanco.facts import condition

    shoe, every = draws(SHOES[1])
    whens = [condition(when) for when in SAME_CARD]
    read = (*_READ, "p3_rank", "p3_value", "face_cards", "first_four_same_card")
    expected = [0] * len(whens)
    for key, n in Counter(tuple(d[name] for name in read) for d in every).items():  # alike draws counted once
        d = dict(zip(read, key))
        player, banker = _hand(d, "player"), _hand(d, "banker")
        pairs = (player[0][0] == player[1][0]) + (banker[0][0] == banker[1][0])
        suited = {"player_suited_pair": player[0] == player[1], "banker_suited_pair": banker[0] == banker[1]}
        facts = {**d, **suited, "banker_pair": banker[0][0] == banker[1][0], "pairs": pairs,
                 "suited_pairs": sum(suited.values())}  # fmt: skip
        for i, when in enumerate(whens):
            expected[i] += n * all(facts[name] in values for name, values in when)
    return shoe, tuple(expected)


@pytest.mark.parametrize("block", [1, 1 << 18])
def test_facts_on_the_very_same_card_against_the_brute_force(block):
    """The split by which cards are one card (puntobanco.cardwalk.same), in the walk with and without the deal."""
    import exactodds.puntobanco.cardwalk.walk as walk
    from exactodds.puntobanco.facts import condition

    shoe, expected = _same_card_brute()
    with patch.object(walk, "BLOCK", block):
        got = tuple(walk.card_counts(shoe, xo.PUNTO_BANCO.tableau, [condition(when), None])[0] for when in SAME_CARD)
    assert got == expected and all(got[:3]) and all(got[4:])


# ---------------------------------------------------------------------------------------------
# The route each bet takes: how the coup ended (the compiled evaluator), or the cards (a small card walk)


def test_the_bets_on_how_the_coup_ended_take_the_compiled_route(monkeypatch):
    import exactodds.puntobanco.cardwalk.walk as walk
    import exactodds.puntobanco.compiled.flat as flat

    catalog = xo.bet_catalog(xo.PUNTO_BANCO, full=True)
    plain = [bet for bet in ASIAN if bet not in ON_THE_CARDS]
    assert {bet for bet in ASIAN if catalog[bet].reads_cards} == ON_THE_CARDS
    assert not any(catalog[bet].needs_suits for bet in plain)

    def refuse(*args, **kwargs):
        raise AssertionError("the card walk was asked")

    compiled = []
    counts = flat.shoe_counts

    def record(tableau, bets, shoe):
        compiled.extend(b.id for b in bets)
        return counts(tableau, bets, shoe)

    monkeypatch.setattr(walk, "card_counts", refuse)
    monkeypatch.setattr(flat, "shoe_counts", record)
    for shoe in (xo.Shoe.standard(8), xo.Shoe.standard(8).remove("6h,6s,7d")):  # a process's first shoe, then numpy
        compiled.clear()
        xo.analyze(shoe, bets=plain)
        assert compiled == plain


#: The kinds of card each bet on the cards is walked by (no deal: they read only the first four cards):
#: J/Q/K or not; red or black; a 4 or not × a diamond or not; the 13 ranks. The Fortune 4 pairs and Tiger
#: Pair tell the very same card apart by splitting the rows (puntobanco.cardwalk.same), not by walking 52 kinds.
WALKED = {
    "monkey": (2, False), "player-red": (2, False), "banker-black": (2, False),
    "player-fortune-4-pair": (4, True), "banker-fortune-4-pair": (4, True), "tiger-pair": (13, True),
}  # fmt: skip


@pytest.mark.parametrize("bet", sorted(WALKED))
def test_the_bets_on_the_cards_are_walked_by_few_kinds_without_the_deal(bet):
    first, _, game = partitions(xo.bet_catalog(xo.PUNTO_BANCO, full=True)[bet].cards)
    assert (len(kinds(xo.Shoe.standard(8), first)[0]), first.identity, game) == (*WALKED[bet], False)


# ---------------------------------------------------------------------------------------------
# An independent recount at 8 decks: the reference walk for the coup-state bets, closed forms for the cards


@pytest.fixture(scope="module")
def eight_decks() -> xo.Analysis:
    return xo.analyze(xo.Shoe.standard(8), bets=list(ASIAN))


def test_the_coup_state_bets_by_the_reference_walk_at_8_decks(standard_coups, eight_decks):
    distribution = standard_coups(8)
    for bet in ASIAN:
        if bet not in ON_THE_CARDS:
            walked = price(distribution, eight_decks.bet(bet).bet)
            assert [o.count for o in walked.outcomes] == [o.count for o in eight_decks.bet(bet).outcomes], bet


def _opening_counts(shoe: xo.Shoe) -> dict[str, dict[str, int]]:
    """The card bets' counts of ordered six-card draws, in closed form from the shoe's cards (written for the test)."""
    n = shoe.size
    held = {(rank.value, suit.value): shoe.card_count(rank, suit) for rank in Rank for suit in Suit}
    by_rank = Counter()
    for (rank, _), c in held.items():
        by_rank[rank] += c
    rest2, rest4 = falling_factorial(n - 2, 4), falling_factorial(n - 4, 2)  # the draws after two, after four cards
    faces = sum(by_rank[r] for r in FACES)
    red = sum(c for (_, suit), c in held.items() if suit in RED)
    out: dict[str, dict[str, int]] = {
        "monkey": {"monkey": falling_factorial(faces, 4) * rest4, "no-monkey": falling_factorial(n - faces, 4) * rest4},
    }
    for side in ("player", "banker"):
        out[f"{side}-red"] = {"win": falling_factorial(red, 2) * rest2}
        out[f"{side}-black"] = {"win": falling_factorial(n - red, 2) * rest2}
        pair = Counter()
        for (rank, suit), c in held.items():
            pair["four-of-diamonds" if (rank, suit) == ("4", "D") else "four" if rank == "4" else
                 "diamond" if suit == "D" else "other"] += falling_factorial(c, 2) * rest2  # fmt: skip
        out[f"{side}-fortune-4-pair"] = dict(pair)
    # Tiger Pair: R2 ordered pairs of one rank; both hands pairs R2² − Σ (c_r)_2² + Σ (c_r)_4 (two ranks, or one).
    r2 = sum(falling_factorial(c, 2) for c in by_rank.values())
    both = r2 * r2 - sum(falling_factorial(c, 2) ** 2 for c in by_rank.values()) + sum(
        falling_factorial(c, 4) for c in by_rank.values()
    )
    same = sum(falling_factorial(c, 4) for c in held.values())
    one = 2 * r2 * falling_factorial(n - 2, 2) - 2 * both  # the Player's or the Banker's, not both
    out["tiger-pair"] = {"same-card": same * rest4, "both": (both - same) * rest4, "one": one * rest4}
    return out


@pytest.mark.parametrize("remove", ["", "4d,4d,4d,kh,qs,js,jc,7h,8d,9s"])
def test_the_card_bets_against_closed_forms(remove, eight_decks):
    shoe = xo.Shoe.standard(8).remove(remove) if remove else xo.Shoe.standard(8)
    analysis = eight_decks if not remove else xo.analyze(shoe, bets=sorted(ON_THE_CARDS))
    for bet, expected in _opening_counts(shoe).items():
        got = {o.outcome.id: o.count for o in analysis.bet(bet).outcomes}
        assert {o: got[o] for o in expected} == expected, bet
        assert sum(got.values()) == shoe.orderings()


# ---------------------------------------------------------------------------------------------
# The peer's printed 8-deck figures (tests/data/published_peer.txt)


PEER = read_rows("published_peer.txt")


def _significant(printed: str) -> int:
    """The significant digits printed (trailing zeros included): 0.00032437442075996 has 14."""
    return len(printed.partition(".")[2].lstrip("0"))


def _agrees(exact: Fraction, printed: str, digits: int) -> bool:
    """Whether ``exact`` is within half a unit of the ``digits``-th significant digit of the printed figure."""
    value = Fraction(Decimal(printed))
    unit = Fraction(10) ** (math.floor(math.log10(value)) - digits + 1)
    return abs(exact - value) <= unit / 2


@cache
def _peer_analysis() -> xo.Analysis:
    return xo.analyze(xo.Shoe.standard(8), bets=sorted({row.fields[1] for row in PEER}))


@pytest.mark.parametrize("row", PEER, ids=lambda r: f"{r.fields[1]}:{r.fields[5]}")
def test_the_peers_figures_to_the_digits_they_carry(row):
    decks, bet, outcomes, printed, digits, _ = row.fields
    assert decks == "8"
    by_id = {o.outcome.id: o.probability for o in _peer_analysis().bet(bet).outcomes}
    exact = sum((by_id[o] for o in outcomes.split(",")), Fraction(0))
    k = int(digits)
    where = f"{row.where} ({row.source})"
    assert _agrees(exact, printed, k), where
    assert k == _significant(printed) or not _agrees(exact, printed, k + 1), where  # the column says exactly how far


def test_every_new_bet_has_a_peer_figure_and_each_carries_twelve_digits():
    assert {row.fields[1] for row in PEER} >= set(ASIAN)
    assert min(int(row.fields[4]) for row in PEER) >= 12
    # A figure made by one division of exact counts (the opening cards) agrees to its last printed digit.
    for row in PEER:
        if row.fields[1] in ON_THE_CARDS:
            assert int(row.fields[4]) == _significant(row.fields[3]), row.where
