"""Conditional odds (``odds --given``): every bet priced given an event about the dealt cards, by brute force."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from profiles import is_slow, slow, sweep

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.puntobanco.given import Given
from exactodds.puntobanco.odds import analyze

BETS = ("player", "banker", "tie", "player-pair", "dragon-7")
VALUE = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}
POSITION = {"P1": 0, "B1": 1, "P2": 2, "B2": 3, "P3": 4, "B3": 5}


def textbook_coup(cards: tuple[str, ...]) -> tuple[int, int, int, int, bool]:
    """Deal punto banco from six ranks by the printed rules: (player, banker, player cards, banker cards, pair)."""
    v = [VALUE[c] for c in cards]
    player, banker = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    pn = bn = 2
    nxt = 4
    if player < 8 and banker < 8:
        third = None
        if player <= 5:
            third = v[nxt]
            nxt += 1
            pn = 3
            player = (player + third) % 10
        if third is None:
            draws = banker <= 5
        elif banker <= 2:
            draws = True
        elif banker == 3:
            draws = third != 8
        elif banker == 4:
            draws = 2 <= third <= 7
        elif banker == 5:
            draws = 4 <= third <= 7
        elif banker == 6:
            draws = 6 <= third <= 7
        else:
            draws = False
        if draws:
            bn = 3
            banker = (banker + v[nxt]) % 10
    return player, banker, pn, bn, cards[0] == cards[2]


def textbook_net(bet: str, coup: tuple[int, int, int, int, bool]) -> Fraction:
    """The net win of each bet, from its pay table as printed."""
    player, banker, _, bn, pair = coup
    if bet == "player":
        return Fraction((player > banker) - (banker > player))
    if bet == "banker":
        return Fraction(19, 20) if banker > player else Fraction(-(player > banker))
    if bet == "tie":
        return Fraction(8 if player == banker else -1)
    if bet == "player-pair":
        return Fraction(11 if pair else -1)
    assert bet == "dragon-7"
    return Fraction(40 if banker == 7 and bn == 3 and banker > player else -1)


def happens(cards: tuple[str, ...], conditions: list[tuple[str, set[str]]]) -> bool:
    return all(cards[POSITION[pos]] in ranks for pos, ranks in conditions)


def brute_force(shoe_cards: str, conditions: list[tuple[str, set[str]]]) -> tuple[Fraction, dict[str, Fraction]]:
    """P(event) and EV(bet | event) over every ordered six-card draw of distinct cards of the shoe."""
    cards = list(shoe_cards)
    total = hits = 0
    sums = dict.fromkeys(BETS, Fraction(0))
    for draw in itertools.permutations(range(len(cards)), 6):
        total += 1
        ranks = tuple(cards[i] for i in draw)
        if not happens(ranks, conditions):
            continue
        hits += 1
        coup = textbook_coup(ranks)
        for bet in BETS:
            sums[bet] += textbook_net(bet, coup)
    return Fraction(hits, total), {bet: s / hits for bet, s in sums.items()}


def shoe_of(cards: str) -> Shoe:
    return Shoe.parse(",".join(f"{r}={cards.count(r)}" for r in sorted(set(cards))))


# Small shoes with several zero-valued ranks, so that T/J/Q/K conditions on P3 and B3 split value 0.
CASES = [
    ("A2TJQK55", "P1 in 5,T", [("P1", {"5", "T"})]),
    ("A2TJQK55", "P3 = J", [("P3", {"J"})]),
    ("A2TJQK55", "B3 in TJ and P3 not in Q,K", [("B3", {"T", "J"}), ("P3", {"A", "2", "5", "T", "J"})]),
    ("34TTJK76", "P3 in T,K and B3 != T", [("P3", {"T", "K"}), ("B3", {"3", "4", "J", "K", "7", "6"})]),
    ("34TTJK76", "P1 != T and B1 in 3,4,J and B2 = T", [("P1", set("34JK76")), ("B1", set("34J")), ("B2", {"T"})]),
    ("6TJ73Q", "B3 = Q and P2 in 6,7", [("B3", {"Q"}), ("P2", {"6", "7"})]),
]


@pytest.mark.parametrize(("cards", "event", "conditions"), CASES)
def test_given_matches_brute_force(cards, event, conditions):
    probability, evs = brute_force(cards, conditions)
    analysis = analyze(shoe_of(cards), bets=list(BETS), given=Given.parse(event))
    assert analysis.given_probability == probability
    for bet in BETS:
        assert analysis.bet(bet).ev == evs[bet], bet


def test_the_fifth_and_sixth_cards_count_even_when_the_coup_stops_early():
    """P3/B3 are the fifth/sixth cards of the draw: a natural (dealt with 4 cards) still has them."""
    shoe = Shoe.parse("8=2,T=2,J=1,K=1")
    a = analyze(shoe, bets=["player"], given=Given.parse("P3 = K"))
    assert a.given_probability == Fraction(1, 6)


#: Events on a first card, a Banker card, a third card and two cards at once (the quick run: the first and the last).
EVENTS = ["P1 in 6789", "B3 not in TQ and P2 in A23"] + (["B1 = K", "P3 in T,J"] if is_slow() else [])


@pytest.mark.parametrize("event", sweep(EVENTS))
def test_law_of_total_probability(event):
    """Σ P(A_i)·EV(bet | A_i) = EV(bet) over events A_i that split every draw (A and its complement)."""
    shoe = Shoe.standard(1).remove("T,J,5")
    bets = ["player", "banker", "tie", "player-pair"]
    whole = analyze(shoe, bets=bets)
    if " and " in event:
        # not (X and Y) = (not X) or (X and not Y): two disjoint events.
        (x, y) = event.split(" and ")
        parts = [_negate(x), f"{x} and {_negate(y)}", event]
    else:
        parts = [event, _negate(event)]
    analyses = [analyze(shoe, bets=bets, given=Given.parse(p)) for p in parts]
    assert sum(a.given_probability for a in analyses) == 1
    for bet in bets:
        assert sum(a.given_probability * a.bet(bet).ev for a in analyses) == whole.bet(bet).ev
    assert analyses[parts.index(event)].orderings < shoe.orderings()  # the walk under ``given`` itself


def _negate(condition: str) -> str:
    for op, neg in ((" not in ", " in "), (" in ", " not in "), (" != ", " = "), (" = ", " != ")):
        if op in condition:
            return condition.replace(op, neg)
    raise AssertionError(condition)


def test_a_given_that_allows_everything_changes_nothing():
    shoe = Shoe.standard(1)
    plain = analyze(shoe, method="reference")
    given = analyze(shoe, given=Given.parse("P1 in A23456789TJQK and B3 in A,2,3,4,5,6,7,8,9,10,J,Q,K"))
    assert [b.outcomes for b in given.bets] == [b.outcomes for b in plain.bets]


def test_parsing_normalises_the_event():
    assert Given.parse(" p1 IN 9876 and b1 not in 10,k ").event == "P1 in 6,7,8,9 and B1 not in T,K"
    assert Given.parse("B1=K").event == "B1 = K"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_cli_json_has_the_given_event_and_its_probability():
    result = run("odds", "--decks", "1", "--given", "P1 in 6789", "--bet", "player", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["given"] == {"event": "P1 in 6,7,8,9", "probability": "4/13"}
    assert int(data["orderings"]) * 13 == Shoe.standard(1).orderings() * 4
    table = run("odds", "--decks", "1", "--given", "P1 in 6789", "--bet", "player")
    assert "given: P1 in 6,7,8,9 (probability 4/13" in table.output


def test_cli_json_without_given_is_unchanged():
    data = json.loads(run("odds", "--decks", "1", "--bet", "tie", "--format", "json").output)
    assert "given" not in data and data["orderings"] == str(Shoe.standard(1).orderings())


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ("X1 in 6", "unknown position 'X1'"),
        ("P1 = 5", "never happens"),  # the shoe has no 5
        ("P1 in 6 and P1 in 7", "never happens"),
        ("P1 in", "names no rank"),
        ("P1 ~ 6", "cannot read the condition"),
        ("P1 = 67", "needs one rank"),
        # One value is one rank, even when it repeats one (these were read as P1 = 6, P1 = K, B1 = 9).
        ("P1 = 66", "P1 = needs one rank, got '66'"),
        ("P1 = KK", "P1 = needs one rank, got 'KK'"),
        ("P1 != 1010", "P1 != needs one rank, got '1010'"),
        ("B1 = " + "9" * 10_000, "B1 = needs one rank, got '" + "9" * 20 + "…'"),
        ("P1 in 6Z", "unknown rank 'Z'"),
        ("", "needs an event"),
    ],
)
def test_cli_bad_given_is_one_error_line(event, message):
    result = CliRunner().invoke(cli, ["odds", "--shoe", "6=4,7=4,K=4", "--given", event])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.output


def test_probability_zero_is_an_error_in_the_library():
    with pytest.raises(ExactOddsError, match="never happens"):
        analyze(Shoe.parse("A=4,K=4"), given=Given.parse("B3 = Q"))


def test_agrees_with_edge_sorting_states():
    """Jacobson's one-card High state (P1 in 6789) priced by edge_sort and by --given: the same exact EVs."""
    from exactodds.puntobanco.information import edge_sort

    shoe = Shoe.standard(8)
    high = {s.pattern: s for s in edge_sort(shoe, cards=1).states}["H"]
    given = analyze(shoe, bets=["player", "banker", "tie"], given=Given.parse("P1 in 6789"))
    assert given.given_probability == high.probability
    assert tuple(given.bet(b).ev for b in ("player", "banker", "tie")) == high.evs


@slow
def test_suited_pairs_and_the_big_table_under_a_given_event():
    """The suited split of cards 1-4 and the holder's choice on 5 both carry through the conditioned walk."""
    shoe = Shoe.standard(2)
    whole = analyze(shoe, bets=["perfect-pair"]).bet("perfect-pair").ev
    parts = [analyze(shoe, bets=["perfect-pair"], given=Given.parse(e)) for e in ("P1 = K", "P1 != K")]
    assert sum(a.given_probability * a.bet("perfect-pair").ev for a in parts) == whole
    from exactodds.puntobanco.rules import RULE_SETS

    big = next(r for r in RULE_SETS if r.name == "big-table")
    shoe = Shoe.standard(1)
    whole = analyze(shoe, big, bets=["player"]).bet("player").ev
    parts = [analyze(shoe, big, bets=["player"], given=Given.parse(e)) for e in ("B3 in T,J", "B3 not in T,J")]
    assert sum(a.given_probability * a.bet("player").ev for a in parts) == whole


# The squeeze's classes: what a card's long side shows, from the standard pip layouts written here (the pips of a
# long side's column: the centre-column cards A 2 3 have none), and a picture's frame on J Q K.
SIDE_PIPS = {"A": 0, "2": 0, "3": 0, "4": 2, "5": 2, "6": 3, "7": 3, "8": 3, "9": 4, "T": 4}


def test_the_squeeze_classes_are_the_pip_rows_and_hold_each_rank_once() -> None:
    import tomllib
    from pathlib import Path

    import exactodds

    data = tomllib.loads((Path(exactodds.__file__).parent / "data" / "squeeze.toml").read_text(encoding="utf-8"))
    classes = {name: entry["ranks"] for name, entry in data["classes"].items()}
    want = {f"side-{n}": "".join(r for r, k in SIDE_PIPS.items() if k == n) for n in set(SIDE_PIPS.values())}
    assert classes == {**want, "court": "JQK"}


@pytest.mark.parametrize("name", ["side-0", "side-2", "side-3", "side-4", "court"])
def test_a_squeeze_class_prices_as_its_ranks(name: str) -> None:
    ranks = {**{f"side-{n}": "".join(r for r, k in SIDE_PIPS.items() if k == n) for n in (0, 2, 3, 4)},
             "court": "JQK"}[name]
    shoe = Shoe.standard(1)
    by_class = analyze(shoe, bets=["player", "banker"], given=Given.parse(f"B2 in {name}"))
    by_ranks = analyze(shoe, bets=["player", "banker"], given=Given.parse(f"B2 in {{{','.join(ranks)}}}"))
    assert [f.ev for f in by_class.bets] == [f.ev for f in by_ranks.bets]


def test_an_unknown_squeeze_class_is_one_error_line() -> None:
    result = CliRunner().invoke(cli, ["odds", "--given", "P1 in side-5"])
    assert result.exit_code == 2 and result.output.startswith("Error: unknown class 'side-5'")
