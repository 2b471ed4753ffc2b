"""Baccarat Gold (the rule set ``baccarat-gold``): its published figures, and a literal brute force over small shoes.

The brute force shares nothing with the library but the entry point it checks (``analyze``): the
cards are distinct objects, every ordered draw of six of them is walked, and each coup is dealt by
an ``if`` chain written here from the text of Baccarat Gold's rules (docs/rules.md, after the Wizard
of Odds' "Baccarat Gold"), not from ``exactodds.puntobanco.rules``:

1. As in chemin de fer, the holder of the Player hand may hit or stand on a total of 5.
2. If the Player draws a third card, the Banker draws on a total of 0 to 3 always; on 4 or 5 only if
   the Player's third card is a 3 to 7; on 6 or 7 never.
3. Ties pay 9 to 1.

Everything else is conventional baccarat: a natural 8 or 9 ends the coup, the Player draws on 0-4 and
stands on 6-7, a Banker facing a Player who stood draws on 0-5, Banker wins pay 0.95 to 1.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import cache

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, sweep
from published_data import read_rows

from exactodds import Shoe, analyze, find_rules
from exactodds.cli import cli
from exactodds.puntobanco.bigtable import player_five_chart
from exactodds.puntobanco.rules import BACCARAT_GOLD, PUNTO_BANCO

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}
POLICIES = ("draw", "stand", "best")

# ---------------------------------------------------------------------------------------------
# The rules, dealt as their text reads


def gold_coup(v: tuple[int, ...], hits_five: bool) -> tuple[int, int, int, int]:
    """(Player total, Banker total, Player cards, Banker cards) of one coup from six card values in deal order."""
    player, banker = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    if player in (8, 9) or banker in (8, 9):  # a natural: nobody draws
        return player, banker, 2, 2
    if player <= 4 or (player == 5 and hits_five):
        third = v[4]
        player = (player + third) % 10
        if banker <= 3:  # "Banker total of 0 to 3: always draw"
            draws = True
        elif banker in (4, 5):  # "Banker total of 4 to 5: draw only if the Player's third card is a 3 to 7"
            draws = third in (3, 4, 5, 6, 7)
        else:  # "Banker total of 6 to 7: never draw"
            draws = False
        return (player, (banker + v[5]) % 10, 3, 3) if draws else (player, banker, 3, 2)
    if banker <= 5:  # the Player stood: the Banker draws card 5 on 0-5
        return player, (banker + v[4]) % 10, 2, 3
    return player, banker, 2, 2


def gold_settle(coup: tuple[int, int, int, int]) -> dict[str, str]:
    """Each bet's outcome id for one coup (the Dragon 7 and Panda 8 read the third cards, so the chart too)."""
    player, banker, player_cards, banker_cards = coup
    return {
        "player": "win" if player > banker else "push" if player == banker else "lose",
        "banker": "win" if banker > player else "push" if player == banker else "lose",
        "tie": "win" if player == banker else "lose",
        "dragon-7": "win" if banker > player and banker_cards == 3 and banker == 7 else "lose",
        "panda-8": "win" if player > banker and player_cards == 3 and player == 8 else "lose",
    }


PAYS = {
    "player": {"win": 1, "push": 0, "lose": -1},
    "banker": {"win": Fraction(95, 100), "push": 0, "lose": -1},
    "tie": {"win": 9, "lose": -1},
    "dragon-7": {"win": 40, "lose": -1},
    "panda-8": {"win": 25, "lose": -1},
}


def player_result(coup: tuple[int, int, int, int]) -> int:
    return (coup[0] > coup[1]) - (coup[1] > coup[0])


@cache
def brute_force(cards: tuple[str, ...], policy: str) -> dict[str, Counter[str]]:
    """Every bet's outcome counts over every ordered draw of six of the (distinct) cards, under a policy on 5.

    Under ``best`` the holder looks at the first four cards and, over every continuation of cards 5 and 6
    the rest of the shoe allows, compares the Player bet drawing with standing; he stands only when that
    is strictly better.
    """
    by_start: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for order in itertools.permutations(range(len(cards)), 6):  # places, not ranks: two kings are two cards
        by_start.setdefault(order[:4], []).append(tuple(VALUE[cards[i]] for i in order))
    counts: dict[str, Counter[str]] = {bet: Counter() for bet in PAYS}
    for deals in by_start.values():
        hits = policy != "stand"
        if policy == "best" and (deals[0][0] + deals[0][2]) % 10 == 5:
            drawn = sum(player_result(gold_coup(v, True)) for v in deals)
            stood = sum(player_result(gold_coup(v, False)) for v in deals)
            hits = not stood > drawn
        for v in deals:
            for bet, outcome in gold_settle(gold_coup(v, hits)).items():
                counts[bet][outcome] += 1
    return counts


def disagreements(cards: tuple[str, ...], rules_name: str = "baccarat-gold") -> list[str]:
    """Each bet and policy where ``analyze`` and the brute force differ on this shoe (count or EV)."""
    shoe = Shoe.from_counts(Counter(cards))
    problems = []
    for policy in POLICIES:
        rules = find_rules(rules_name).with_player_five(policy)
        analysis = analyze(shoe, rules, list(PAYS))
        expected = brute_force(cards, policy)
        for bet, brute in expected.items():
            figures = analysis.bet(bet)
            engine = {o.outcome.id: o.count for o in figures.outcomes}
            ev = Fraction(sum(PAYS[bet][o] * n for o, n in brute.items()), analysis.orderings)
            if engine != {o: brute[o] for o in engine} or sum(brute.values()) != analysis.orderings or figures.ev != ev:
                problems.append(f"{' '.join(cards)} · {policy} · {bet}: engine {engine}, brute force {dict(brute)}")
    return problems


# Small shoes that reach every cell where Baccarat Gold's chart leaves punto banco's (a Banker 3 facing a
# Player third card 8, a Banker 4 facing a 2, a Banker 5 facing a 3, a Banker 6 facing a 6 or 7), the
# Player's 5 (drawn, stood, and chosen both ways) and naturals.
SHOES = ["5 5 K K A 2 3 6", "T 3 2 4 8 6 7 9"]


@pytest.mark.parametrize("cards", sweep(SHOES))
def test_baccarat_gold_matches_a_literal_brute_force(cards):
    problems = disagreements(tuple(cards.split()))
    assert not problems, "\n".join(problems)


def test_the_shoes_reach_every_cell_where_gold_leaves_punto_banco():
    cells = set()
    for cards in SHOES:
        values = [VALUE[c] for c in cards.split()]
        for v in itertools.permutations(values, 6):
            player, banker = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
            if player <= 5 and banker <= 7 and max(player, banker) < 8:
                cells.add((banker, v[4]))
            if player == 5 and banker < 8:
                cells.add("five")
            if player >= 8 or banker >= 8:
                cells.add("natural")
    assert {(3, 8), (4, 2), (5, 3), (6, 6), (6, 7), (4, 5), (5, 9), "five", "natural"} <= cells
    # and the holder's best choice is to stand in some deals and to draw in others
    choices = set()
    for cards in SHOES:
        best, stand, draw = (brute_force(tuple(cards.split()), p)["player"] for p in ("best", "stand", "draw"))
        choices.add((best != stand, best != draw))
    assert (True, True) in choices


def test_the_brute_force_catches_punto_banco_s_chart():
    """Punto banco's chart with Baccarat Gold's pays is not Baccarat Gold: the comparison must say so."""
    mutant = replace(PUNTO_BANCO, name="mutant", tie_pays=Fraction(9), player_five="draw")
    shoe, cards = Shoe.from_counts(Counter(SHOES[1].split())), tuple(SHOES[1].split())
    engine = analyze(shoe, mutant, ["player"]).bet("player")
    assert {o.outcome.id: o.count for o in engine.outcomes} != dict(brute_force(cards, "draw")["player"])


@examples(30)
@given(st.lists(st.sampled_from(sorted(VALUE)), min_size=6, max_size=7))
def test_baccarat_gold_matches_the_brute_force_on_random_small_shoes(cards):
    problems = disagreements(tuple(cards))
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The rule set and its published figures


def test_the_tableau_is_the_printed_chart():
    t = BACCARAT_GOLD.tableau
    assert [total for total in range(8) if t.player_draws(total)] == [0, 1, 2, 3, 4, 5]  # 5: drawn by default
    assert [total for total in range(8) if t.banker_draws(total, None)] == [0, 1, 2, 3, 4, 5]
    for banker, draws_on in {0: "0123456789", 1: "0123456789", 2: "0123456789", 3: "0123456789",
                             4: "34567", 5: "34567", 6: "", 7: ""}.items():  # fmt: skip
        assert {v for v in range(10) if t.banker_draws(banker, v)} == {int(c) for c in draws_on}, banker
    gold = BACCARAT_GOLD
    assert (gold.tie_pays, gold.banker_pays, gold.player_five) == (9, Fraction(19, 20), "draw")
    assert find_rules("gold") is BACCARAT_GOLD
    assert not BACCARAT_GOLD.with_player_five("stand").tableau.player_draws(5)


GOLD_ROWS = read_rows("published_gold.txt")


def int_or_text(field: str) -> int | str:
    return int(field) if field.isdigit() else field


@pytest.mark.parametrize("row", GOLD_ROWS, ids=lambda r: f"{r.fields[0]}-decks-{r.fields[1]}")
def test_the_published_counts_to_the_last_digit(row):
    decks, policy, player_wins, banker_wins, ties, total = map(int_or_text, row.fields)
    analysis = analyze(Shoe.standard(decks), BACCARAT_GOLD.with_player_five(policy), ["player", "banker", "tie"])
    player = {o.outcome.id: o.count for o in analysis.bet("player").outcomes}
    # The published W and L are the Player bet's: the Player wins W orderings and the Banker wins L.
    assert (player["win"], player["lose"], player["push"]) == (player_wins, banker_wins, ties), row.source
    assert analysis.bet("banker").outcomes[0].count == banker_wins and analysis.bet("tie").outcomes[0].count == ties
    assert player_wins + banker_wins + ties == total == analysis.orderings == 416 * 415 * 414 * 413 * 412 * 411


def test_every_policy_on_5_is_priced_and_named_and_drawing_is_the_default():
    runner = CliRunner()
    priced = {}
    for args in ([], ["--player-5", "draw"], ["--player-5", "stand"], ["--player-5", "best"]):
        result = runner.invoke(cli, ["odds", "--rules", "baccarat-gold", *args, "--bet", "player", "--format", "json"])
        assert result.exit_code == 0, result.stderr
        data = json.loads(result.stdout)
        priced[tuple(args[1:])] = (data["policy"]["player_5"], data["bets"]["player"]["house_edge"])
    assert priced[()] == priced[("draw",)] == ("draw", "223960199503/19524993263685")  # 1.147%, as published
    assert [policy for policy, _ in priced.values()] == ["draw", "draw", "stand", "best"]
    assert len({edge for _, edge in priced.values()}) == 3


def test_the_holder_s_best_choice_at_8_decks_reads_the_banker_s_total_alone():
    """docs/rules.md: seeing the four cards, he stands against a Banker 0-3 or 5 and draws against 4, 6 or 7."""
    chart = player_five_chart(Shoe.standard(8), BACCARAT_GOLD)
    assert {sum(c.banker) % 10 for c in chart if c.stands} == {0, 1, 2, 3, 5}
    assert {sum(c.banker) % 10 for c in chart if not c.stands} == {4, 6, 7}


def test_the_header_names_the_chart_and_the_policy_and_calls_no_other_chart_the_mini_table():
    gold = BACCARAT_GOLD.header()
    assert gold.startswith("baccarat-gold · banker 0.95:1 (5% commission) · tie 9:1 · EZ push: off · Banker 3 draws")
    assert gold.endswith("Banker 6 stands on a Player third card 6 7 · player 5: draws")
    assert PUNTO_BANCO.with_player_five("draw").header().endswith("player 5: draws (the mini table)")
    assert "Player stands on 5" in BACCARAT_GOLD.with_player_five("stand").header()
    small = "A=2,2=2,3=2,4=2,5=3,6=2,7=2,8=2,9=2,K=4"
    result = CliRunner().invoke(cli, ["big-table", "--rules", "gold", "--shoe", small])
    assert result.exit_code == 0 and "best: the holder" in result.stdout and "mini table" not in result.stdout
