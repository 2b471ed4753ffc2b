"""The big table's option on 5: policies priced exactly, checked against a literal brute force and identities."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, slow

from exactodds.cards import RANK_VALUES, Shoe
from exactodds.cli import cli
from exactodds.puntobanco.bigtable import PLAYER_FIVES, option_figures, player_five_chart
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import BIG_TABLE, PUNTO_BANCO, find_rules
from exactodds.puntobanco.userdefs import parse_rules

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------------------------------------
# A textbook deal, written here independently of the package's deal.


def banker_draws(banker: int, third: int | None) -> bool:
    if third is None:
        return banker <= 5
    return {0: True, 1: True, 2: True, 3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7,
            6: third in (6, 7), 7: False}.get(banker, False)  # fmt: skip


def play(cards: tuple[int, ...], player_draws_on_five: bool) -> int:
    """+1 if the Player wins, -1 if the Banker wins, 0 on a tie, for six card values in deal order."""
    player, banker = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
    if player >= 8 or banker >= 8:
        return (player > banker) - (banker > player)
    third, nxt = None, 4
    if player <= 4 or (player == 5 and player_draws_on_five):
        third, nxt = cards[4], 5
        player = (player + third) % 10
    if banker_draws(banker, third):
        banker = (banker + cards[nxt]) % 10
    return (player > banker) - (banker > player)


def brute_force_player_ev(shoe_values: list[int], best: bool) -> Fraction:
    """The Player bet's EV over every ordering of the shoe's first six cards (cards distinct, so permutations).

    With ``best``, the holder of a two-card 5 looks at the first four cards and compares, over
    every continuation of cards 5 and 6 the rest of the shoe allows, drawing with standing.
    """
    total = Fraction(0)
    draws = list(itertools.permutations(range(len(shoe_values)), 6))
    by_prefix: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for order in draws:
        by_prefix.setdefault(order[:4], []).append(order)
    for prefix, orders in by_prefix.items():
        values = [tuple(shoe_values[i] for i in order) for order in orders]
        choice = True
        if best and (shoe_values[prefix[0]] + shoe_values[prefix[2]]) % 10 == 5:
            draw = sum(play(v, True) for v in values)
            stand = sum(play(v, False) for v in values)
            choice = not stand > draw
        total += sum(play(v, choice) for v in values)
    return total / len(draws)


@pytest.mark.parametrize(
    "counts",
    [{"5": 2, "K": 2, "A": 1, "4": 1, "2": 1, "6": 1}, {"A": 2, "4": 2, "3": 1, "9": 1, "6": 1}],
)
def test_best_policy_equals_a_literal_brute_force(counts):
    shoe = Shoe.from_counts(counts)
    shoe_values = [RANK_VALUES[i] for i, n in enumerate(shoe.counts) for _ in range(n)]
    for rules, best in ((BIG_TABLE, True), (PUNTO_BANCO.with_player_five("draw"), False)):
        assert analyze(shoe, rules, ["player"]).bet("player").ev == brute_force_player_ev(shoe_values, best)
    stand = analyze(shoe, PUNTO_BANCO.with_player_five("stand"), ["player"]).bet("player").ev
    literal_stand = Fraction(
        sum(play(tuple(p), False) for p in itertools.permutations(shoe_values, 6)),
        len(list(itertools.permutations(shoe_values, 6))),
    )
    assert stand == literal_stand


def test_stand_equals_a_rules_file_whose_player_stands_on_five():
    stands = parse_rules('name = "p5"\n[player]\ndraws = "D D D D D S S S"\n')
    shoe = Shoe.standard(6).remove("5,5,K")
    assert analyze(shoe, PUNTO_BANCO.with_player_five("stand"), ["all"]).bets == analyze(shoe, stands, ["all"]).bets


compositions = st.lists(st.integers(0, 12), min_size=13, max_size=13).filter(lambda c: sum(c) >= 8)


@examples(40, 2)
@given(compositions)
def test_best_is_never_worse_for_the_player_bet(counts):
    shoe = Shoe(tuple(counts))
    figures = option_figures(shoe, PUNTO_BANCO)
    best = figures.best.bet("player").ev
    assert best >= figures.draw.bet("player").ev and best >= figures.stand.bet("player").ev
    for analysis in (figures.draw, figures.stand, figures.best):  # every policy still settles every ordering
        assert sum(o.count for o in analysis.bet("banker").outcomes) == shoe.orderings()


@slow
def test_the_option_is_worth_the_sum_of_the_chart_gains():
    """Law of total probability: the worth is Σ P(four cards) · max(0, gain of standing), over every five."""
    shoe = Shoe.standard(2)
    values = Counter(RANK_VALUES[i] for i, n in enumerate(shoe.counts) for _ in range(n))
    worth = Fraction(0)
    for choice in player_five_chart(shoe, PUNTO_BANCO):
        if not choice.stands:
            continue
        for p1, p3 in {choice.player, choice.player[::-1]}:
            for b2, b4 in {choice.banker, choice.banker[::-1]}:
                left, ways = Counter(values), 1
                for v in (p1, b2, p3, b4):
                    ways *= left[v]
                    left[v] -= 1
                worth += Fraction(ways, shoe.size * (shoe.size - 1) * (shoe.size - 2) * (shoe.size - 3)) * choice.gain
    assert worth == option_figures(shoe, PUNTO_BANCO).worth > 0
    assert {c.player for c in player_five_chart(shoe, PUNTO_BANCO)} == set(PLAYER_FIVES)


def test_cli_player_five_and_the_big_table():
    runner = CliRunner()
    best = json.loads(runner.invoke(cli, ["odds", "--player-5", "best", "--format", "json"]).stdout)
    assert best["policy"] == {"player_5": "best"}
    big = json.loads(runner.invoke(cli, ["odds", "--rules", "big-table", "--format", "json"]).stdout)
    assert big["bets"] == best["bets"]
    plain = json.loads(runner.invoke(cli, ["odds", "--format", "json"]).stdout)
    assert "policy" not in plain  # the JSON contract is unchanged unless a policy is chosen
    assert Fraction(best["bets"]["player"]["house_edge"]) < Fraction(plain["bets"]["player"]["house_edge"])
    table = runner.invoke(cli, ["big-table", "--decks", "8", "--format", "json"])
    data = json.loads(table.stdout)
    assert data["house_edge"]["draw"]["player"] == plain["bets"]["player"]["house_edge"]
    assert data["house_edge"]["best"]["banker"] == best["bets"]["banker"]["house_edge"]
    assert find_rules("big").player_five == "best"
    bad = runner.invoke(cli, ["odds", "--player-5", "sometimes"])
    assert bad.exit_code == 2 and bad.stderr.startswith("Error: ")
    lab = runner.invoke(cli, ["simulate", "--player-5", "best", "--shoes", "2", "--quiet"])
    assert lab.exit_code == 2 and "not simulated" in lab.stderr


@pytest.mark.parametrize("choice", ["stand", "draw", "best", "0.8"])
def test_big_table_refuses_player_five(choice):
    """big-table prices the three policies itself; --player-5 stand was once ignored (output byte-equal to none)."""
    result = CliRunner().invoke(cli, ["big-table", "--decks", "1", "--player-5", choice])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: ") and "give no --player-5" in line


def test_big_table_prices_the_bets_of_a_bets_file_under_each_policy():
    """The file's bets get a column per policy (they were once dropped, the output byte-equal to none)."""
    dragon = str(ROOT / "examples" / "dragon-7.toml")  # my-dragon-7: the catalog's dragon-7, written as a file
    small = "A=2,2=2,3=2,4=2,5=3,6=2,7=2,8=2,9=2,K=4"  # the holder's choice is walked: a small shoe keeps it quick
    with_file = CliRunner().invoke(cli, ["big-table", "--shoe", small, "--bets-file", dragon, "--format", "json"])
    data = json.loads(with_file.stdout)
    shoe = Shoe.parse(small)
    for policy in ("draw", "stand", "best"):
        edges = data["house_edge"][policy]
        assert list(edges) == ["player", "banker", "tie", "my-dragon-7"]
        catalog = analyze(shoe, PUNTO_BANCO.with_player_five(policy), ["player", "banker", "tie", "dragon-7"])
        assert [Fraction(e) for e in edges.values()] == [b.house_edge for b in catalog.bets]
    assert len({data["house_edge"][p]["my-dragon-7"] for p in ("draw", "stand", "best")}) == 3


def test_big_table_refuses_a_bet_on_the_dealt_cards_at_once(tmp_path):
    path = tmp_path / "k.toml"
    path.write_text(
        '[bets.k1]\ndescription = "k"\n[[bets.k1.outcome]]\nid = "win"\nwhen = { p1_rank = "K" }\npays = 10\n'
        '[[bets.k1.outcome]]\nid = "lose"\notherwise = true\npays = -1\n'
    )
    result = CliRunner().invoke(cli, ["big-table", "--bets-file", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: bet k1 reads the dealt cards")


def test_cli_solve():
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["solve", "--model", "A1", "--format", "json"]).stdout)
    assert data["player"] == {"draw_at_5": "9/11"} and data["shoe"] == "infinite" and data["unique"] is True
    text = runner.invoke(cli, ["solve", "--model", "B2", "--decks", "8"]).stdout
    assert "Player at 5: draw with probability 163305/201968" in text and "0,6" in text
    with_commission = json.loads(runner.invoke(cli, ["solve", "--commission", "5%", "--format", "json"]).stdout)
    assert "value" not in with_commission and with_commission["equilibria"]
    for args, message in (
        (["--model", "B9"], "unknown model 'B9': valid models are A1, B2, B3"),
        (["--shoe", "A=3,K=2"], "at least 6 cards"),
        (["--commission", "150%"], "below 100%"),
        (["--model", "A1", "--decks", "6"], "infinite deck"),
    ):
        result = runner.invoke(cli, ["solve", *args])
        assert result.exit_code == 2 and message in result.stderr and result.stdout == "", (args, result.stderr)


def test_a_mixed_policy_is_the_exact_mixture_of_drawing_and_standing():
    """Drawing on 5 with probability p: every count is n·(draw) + (d − n)·(stand) over d·(N)_6, exactly."""
    counts = {"5": 2, "K": 2, "A": 1, "4": 1, "2": 1, "6": 1}
    shoe = Shoe.from_counts(counts)
    shoe_values = [RANK_VALUES[i] for i, n in enumerate(shoe.counts) for _ in range(n)]
    draws = list(itertools.permutations(shoe_values, 6))
    literal = {choice: Fraction(sum(play(v, choice) for v in draws), len(draws)) for choice in (True, False)}
    p = Fraction(9, 11)
    mixed = analyze(shoe, PUNTO_BANCO.with_player_five("9/11"), ["player", "banker", "tie"])
    assert mixed.bet("player").ev == p * literal[True] + (1 - p) * literal[False]  # a literal deal, not the engine
    assert mixed.orderings == 11 * shoe.orderings() and mixed.policy_scale == 11
    eight = Shoe.standard(8)
    draw, stand = (analyze(eight, PUNTO_BANCO.with_player_five(c)) for c in ("draw", "stand"))
    both = analyze(eight, PUNTO_BANCO.with_player_five("0.25"))
    for m, d, s in zip(both.bets, draw.bets, stand.bets):
        assert m.ev == Fraction(1, 4) * d.ev + Fraction(3, 4) * s.ev
        assert [o.probability for o in m.outcomes] == [
            Fraction(1, 4) * x.probability + Fraction(3, 4) * y.probability for x, y in zip(d.outcomes, s.outcomes)
        ]
    assert analyze(eight, PUNTO_BANCO.with_player_five("1")).bets == draw.bets  # 1 is draw, 0 is stand
    assert PUNTO_BANCO.with_player_five("0").player_five == "stand"
    runner = CliRunner()
    batch = runner.invoke(cli, ["batch", "--player-5", "1/4"], input='{"decks": 8}\n')
    assert json.loads(batch.stdout)["bets"]["player"]["ev"] == str(both.bet("player").ev.numerator) + "/" + str(
        both.bet("player").ev.denominator
    )
    for bad in ("1.5", "-1/2", "often"):
        result = runner.invoke(cli, ["odds", "--player-5", bad])
        assert result.exit_code == 2 and result.stderr.startswith("Error: ") and result.stdout == ""
