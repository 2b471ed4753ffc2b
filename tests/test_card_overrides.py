"""Rule overrides that read the dealt cards: the Banker bet priced by the card walk, first match wins."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations

import pytest
from click.testing import CliRunner
from profiles import sweep
from test_cardwalk import facts_of

import exactodds as xo
from exactodds.cards import Rank, Suit
from exactodds.cli import cli
from exactodds.puntobanco.bets import main_bets
from exactodds.puntobanco.rules import EZ, SUPER_6
from exactodds.puntobanco.userdefs import parse_rules

# Small suited shoes with sevens (for a Banker three-card 7 made with a 7) and a 4 + 5.
SHOES = ("7S=2,7H=1,3D=1,4C=1,5H=1,KS=1,9D=1,2C=1", "7S=1,7D=1,6H=1,4C=1,5S=1,TD=1,AH=1,9C=1,8H=1")

SEVEN_ON_SEVEN = """name = "seven-push"
description = "a Banker three-card 7 made with a 7 pushes; a red first Banker card on 6 or 7 pays 1:2"
commission = 0
ez_push = EZ

[[banker_override]]
id = "seven-on-seven"
name = "a three-card 7 made with a 7"
when = { banker_cards = 3, banker_total = 7, b3_rank = "7" }
pays = 0

[[banker_override]]
id = "red-six-seven"
name = "a 6 or 7, first card red"
when = { banker_total = [6, 7], b1_colour = "red" }
pays = 0.5

[[banker_override]]
id = "any-seven"
name = "a 7"
when = { banker_total = 7 }
pays = 2
"""


def _rules(ez: bool):
    return parse_rules(SEVEN_ON_SEVEN.replace("EZ", "true" if ez else "false"), "seven.toml")


def _settle(d: dict, ez: bool) -> str:
    """The Banker bet's outcome for one draw, from the rule sheet's words (first match wins)."""
    if d["winner"] == "tie":
        return "push"
    if d["winner"] == "player":
        return "lose"
    if ez and d["banker_cards"] == 3 and d["banker_total"] == 7:
        return "push-three-card-7"
    if d["banker_cards"] == 3 and d["banker_total"] == 7 and d["b3_rank"] == "7":
        return "seven-on-seven"
    if d["banker_total"] in (6, 7) and d["b1_colour"] == "red":
        return "red-six-seven"
    if d["banker_total"] == 7:
        return "any-seven"
    return "win"


@cache
def draws(text: str) -> tuple[xo.Shoe, list[dict]]:
    """Every ordered six-card draw of distinct physical cards, with its facts (the helper of test_cardwalk)."""
    shoe = xo.Shoe.parse(text)
    cards = [(rank, suit) for rank in Rank for suit in Suit for _ in range(shoe.card_count(rank, suit))]
    return shoe, [facts_of(draw) for draw in permutations(cards, 6)]


@pytest.mark.parametrize("text", sweep(SHOES))
@pytest.mark.parametrize("ez", [False, True])
def test_card_overrides_against_a_brute_force_over_every_permutation(text, ez):
    shoe, every = draws(text)
    expected = Counter(_settle(d, ez) for d in every)
    rules = _rules(ez)
    banker = xo.analyze(shoe, rules, ["banker"]).bet("banker")
    got = {o.outcome.id: o.count for o in banker.outcomes}
    assert got == {k: expected.get(k, 0) for k in got} and sum(got.values()) == len(every)
    if not ez:  # both card overrides are exercised on these shoes
        assert expected["seven-on-seven"] > 0 and expected["red-six-seven"] > 0
    pays = {"win": 1, "red-six-seven": Fraction(1, 2), "any-seven": 2, "lose": -1}
    assert banker.ev == Fraction(sum(pays.get(_settle(d, ez), 0) for d in every), len(every))


def test_player_and_tie_keep_their_route_beside_a_card_override():
    shoe = xo.Shoe.parse(SHOES[0])
    plain = xo.analyze(shoe, bets=["player", "tie"])
    with_cards = xo.analyze(shoe, _rules(False), ["player", "banker", "tie"])
    for bet in ("player", "tie"):
        assert [o.count for o in with_cards.bet(bet).outcomes] == [o.count for o in plain.bet(bet).outcomes]


@pytest.mark.parametrize(
    ("named", "override"),
    [
        (SUPER_6, 'when = { banker_total = 6, b1_value = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }\npays = 0.5\n'),
        (EZ, 'when = { banker_cards = 3, banker_total = 7, b3_rank = "any" }\npays = 0\n'),
    ],
)
def test_a_card_fact_that_always_holds_gives_the_named_rules_at_8_decks(named, override):
    """The card walk at 8 decks against the compiled evaluator: an always-true card fact changes nothing."""
    any_rank = '["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]'
    text = f'name = "x"\ndescription = "x"\ncommission = 0\n[[banker_override]]\nid = "o"\nname = "n"\n{override}'
    rules = parse_rules(text.replace('"any"', any_rank), "x.toml")
    assert rules.banker_win_overrides[0].when != named.banker_overrides[0].when
    shoe = xo.Shoe.standard(8)
    walked = xo.analyze(shoe, rules, ["banker"]).bet("banker")
    compiled = xo.analyze(shoe, named, ["banker"]).bet("banker")
    assert walked.ev == compiled.ev and sorted(o.count for o in walked.outcomes) == sorted(
        o.count for o in compiled.outcomes
    )


@pytest.mark.parametrize(
    ("when", "message"),
    [
        ('{ b3_rank = "X" }', r"^r\.toml:3: banker_override 1: bad value \"X\" for fact 'b3_rank'"),
        ('{ b7_rank = "7" }', r"^r\.toml:3: banker_override 1: .*b7_rank"),
        ("{ player_initial_total = 10 }", r"^r\.toml:3: banker_override 1: .*player_initial_total"),
    ],
)
def test_bad_card_facts_in_an_override_are_a_file_line_error(when, message):
    text = f'name = "r"\ndescription = "r"\n[[banker_override]]\nid = "o"\nname = "n"\nwhen = {when}\npays = 1\n'
    with pytest.raises(xo.ExactOddsError, match=message):
        parse_rules(text, "r.toml")


def _odds(tmp_path, rules_text: str, *args: str):
    path = tmp_path / "rules.toml"
    path.write_text(rules_text)
    return CliRunner().invoke(cli, ["odds", "--rules-file", str(path), *args])


def test_cli_odds_json_with_a_card_override_is_the_brute_force(tmp_path):
    shoe, every = draws(SHOES[1])
    result = _odds(tmp_path, SEVEN_ON_SEVEN.replace("EZ", "false"), "--shoe", SHOES[1], "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    expected = Counter(_settle(d, False) for d in every)
    outcomes = data["bets"]["banker"]["outcomes"]
    assert [o["outcome"] for o in outcomes] == ["win", "seven-on-seven", "red-six-seven", "any-seven", "push", "lose"]
    assert {o["outcome"]: int(o["count"]) for o in outcomes} == {o["outcome"]: expected[o["outcome"]] for o in outcomes}
    assert data["rules"]["banker_win_overrides"][0]["when"] == "banker_cards = 3, banker_total = 7, b3_rank = 7"


def test_a_two_card_nine_of_four_and_five_on_a_shoe_by_rank(tmp_path):
    """A Banker win on a two-card 9 made of 4 + 5 pays 2:1: the initial cards read by position, on a rank-only shoe."""
    text = (
        'name = "r"\ndescription = "r"\n[[banker_override]]\nid = "four-five"\nname = "a 4 + 5"\n'
        'when = { banker_cards = 2, b1_rank = ["4", "5"], b2_rank = ["4", "5"], banker_initial_total = 9 }\npays = 2\n'
    )
    shoe, every = draws(SHOES[1])
    ranks = xo.Shoe.parse(",".join(f"{r}={n}" for r, n in zip("A23456789TJQK", shoe.counts) if n))
    assert not ranks.suited
    banker = xo.analyze(ranks, parse_rules(text, "r.toml"), ["banker"]).bet("banker")
    got = {o.outcome.id: o.count for o in banker.outcomes}
    wanted = sum(d["winner"] == "banker" and d["banker_cards"] == 2 and {d["b1_rank"], d["b2_rank"]} == {"4", "5"}
                 for d in every)
    assert got["four-five"] == wanted > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shoe", "A=4,7=4,K=4"], "needs a shoe with suits"),
        (["--given", "P1 = 9"], "--given cannot be combined"),
        (["--player-5", "best"], "holder's choice on 5"),
    ],
)
def test_where_a_card_override_cannot_be_priced_it_is_one_clear_error(tmp_path, args, message):
    text = SEVEN_ON_SEVEN.replace("EZ", "false").replace("b3_rank = \"7\"", "b3_suit = \"S\"")
    result = _odds(tmp_path, text, "--bet", "banker", *args)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), result.output
    assert message in lines[0], lines[0]


@pytest.mark.parametrize("command", [["edge-sort", "--cards", "1"], ["simulate", "--bet", "banker", "--shoes", "1"]])
def test_commands_on_coup_states_refuse_a_card_override(tmp_path, command):
    path = tmp_path / "rules.toml"
    path.write_text(SEVEN_ON_SEVEN.replace("EZ", "false"))
    result = CliRunner().invoke(cli, [*command, "--rules-file", str(path)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "reads the dealt cards" in lines[0], result.output


PLAYER_AND_TIE = """name = "player-and-tie"

[[player_override]]
id = "four-five"
name = "a two-card 9 of a 4 and a 5"
when = { player_cards = 2, player_initial_total = 9, p1_rank = ["4", "5"], p2_rank = ["4", "5"] }
pays = 2

[[player_override]]
id = "natural"
name = "a natural"
when = { player_cards = 2, player_total = [8, 9] }
pays = 0.5

[[tie_override]]
id = "tie-red-first"
name = "a red first card"
when = { p1_colour = "red" }
pays = 10

[[tie_override]]
id = "tie-on-7"
name = "a total of 7"
when = { player_total = 7 }
pays = "push"
"""


def _settle_player(d: dict) -> str:
    if d["winner"] == "tie":
        return "push"
    if d["winner"] == "banker":
        return "lose"
    if d["player_cards"] == 2 and sorted([d["p1_rank"], d["p2_rank"]]) == ["4", "5"]:
        return "four-five"
    return "natural" if d["player_cards"] == 2 and d["player_total"] in (8, 9) else "win"


def _settle_tie(d: dict) -> str:
    if d["winner"] != "tie":
        return "lose"
    if d["p1_colour"] == "red":
        return "tie-red-first"
    return "tie-on-7" if d["player_total"] == 7 else "win"


@pytest.mark.parametrize("text", SHOES)
def test_player_and_tie_overrides_on_the_cards_against_a_brute_force(text):
    shoe, every = draws(text)
    rules = parse_rules(PLAYER_AND_TIE, "pt.toml")
    analysis = xo.analyze(shoe, rules, ["player", "banker", "tie"])
    for bet, settle in (("player", _settle_player), ("tie", _settle_tie)):
        expected = Counter(settle(d) for d in every)
        got = {o.outcome.id: o.count for o in analysis.bet(bet).outcomes}
        assert got == {k: expected.get(k, 0) for k in got} and sum(got.values()) == len(every), bet
    assert expected["tie-red-first"] > 0 and Counter(map(_settle_player, every))["four-five"] > 0
    # the Banker bet has no override: it keeps its route and its counts
    assert analysis.bet("banker") == xo.analyze(shoe, bets=["banker"]).bet("banker")


def test_player_and_tie_overrides_on_coup_states_keep_the_compiled_route():
    """Without card facts the Player's and the Tie's overrides are coup states: compiled = reference = brute force."""
    rules = parse_rules(
        'name = "s"\n[[player_override]]\nid = "natural"\nname = "a natural"\n'
        'when = { player_cards = 2, player_total = [8, 9] }\npays = 0.5\n'
        '[[tie_override]]\nid = "tie-on-7"\nname = "a total of 7"\nwhen = { player_total = 7 }\npays = "push"\n',
        "s.toml",
    )
    assert not any(b.reads_cards for b in main_bets(rules))
    shoe, every = draws(SHOES[0])
    compiled = xo.analyze(shoe, rules, ["player", "tie"])
    reference = xo.analyze(shoe, rules, ["player", "tie"], method="reference")
    assert compiled.bet("player") == reference.bet("player") and compiled.bet("tie") == reference.bet("tie")
    natural = sum(d["winner"] == "player" and d["player_cards"] == 2 and d["player_total"] >= 8 for d in every)
    assert {o.outcome.id: o.count for o in compiled.bet("player").outcomes}["natural"] == natural > 0
    seven = sum(d["winner"] == "tie" and d["player_total"] == 7 for d in every)
    assert {o.outcome.id: o.count for o in compiled.bet("tie").outcomes}["tie-on-7"] == seven


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[tie_override]]\nid = "push"\nname = "n"\nwhen = { player_total = 7 }\npays = 1\n', None),
        ('[[tie_override]]\nid = "lose"\nname = "n"\nwhen = { player_total = 7 }\npays = 1\n',
         r"^r\.toml:2: tie_override 1: the id 'lose' is taken: give each override its own id, not win, lose$"),
        ('[[player_override]]\nid = "push"\nname = "n"\nwhen = { p1_rank = "A" }\npays = 1\n',
         r"^r\.toml:2: player_override 1: the id 'push' is taken: give each override its own id, not win, push, lose$"),
        ('[[player_override]]\nid = "a"\nname = "n"\nwhen = { p1_suit = "X" }\npays = 1\n',
         r"^r\.toml:1: player_override 1: bad value \"X\" for fact 'p1_suit'"),
        ('player_override = 3\n', r"^r\.toml: player_override: write \[\[player_override\]\] tables"),
        ('[[tie_override]]\nid = "a"\nname = "n"\npays = 1\n', r"^r\.toml:1: tie_override 1: an override has exactly"),
    ],
)
def test_player_and_tie_override_parse_errors(text, message):
    if message is None:  # "push" is no outcome of the Tie bet: a free id there
        assert parse_rules(text, "r.toml").tie_overrides[0].id == "push"
        return
    with pytest.raises(xo.ExactOddsError, match=message):
        parse_rules(text, "r.toml")


def test_cli_json_lists_the_player_and_tie_overrides(tmp_path):
    shoe, every = draws(SHOES[1])
    result = _odds(tmp_path, PLAYER_AND_TIE, "--shoe", SHOES[1], "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [o["id"] for o in data["rules"]["player_win_overrides"]] == ["four-five", "natural"]
    assert [o["net"] for o in data["rules"]["tie_overrides"]] == ["10", "0"]
    outcomes = data["bets"]["tie"]["outcomes"]
    expected = Counter(_settle_tie(d) for d in every)
    assert {o["outcome"]: int(o["count"]) for o in outcomes} == {o["outcome"]: expected[o["outcome"]] for o in outcomes}
    nets = {"win": 8, "tie-red-first": 10, "lose": -1}
    assert data["bets"]["tie"]["ev"] == str(Fraction(sum(nets.get(_settle_tie(d), 0) for d in every), len(every)))
