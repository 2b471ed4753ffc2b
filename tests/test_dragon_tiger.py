"""Dragon Tiger: a literal brute force over every permutation of small shoes, the published figures, the CLI.

The brute force is written here from the rules text (one card to the Dragon, one to the Tiger; A low, K high; a
tie loses half of a Dragon or Tiger bet; a suited tie is the same rank and suit; Big is 8 to K, Small A to 6)
and shares nothing with the engine but the shoe it is given.
"""

import csv
import io
import json
from fractions import Fraction
from itertools import permutations
from math import factorial

import pytest
from click.testing import CliRunner
from profiles import is_slow

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.games.dragon_tiger import GAME as DRAGON_TIGER

ORDER = "A23456789TJQK"


def price(game, shoe, bets=None, settings=None):
    """The game's bets priced on ``shoe`` under ``settings`` (by name; the game's defaults for the rest)."""
    return game.price(shoe, bets, game.settings_of(settings or {}))


def brute_force(cards, tie_pays=8):
    """Every bet's net per deal, summed over every ordering of the whole shoe: {bet: {net: orderings}}."""
    out = {}
    for deck in permutations(cards):
        (dr, ds), (tr, ts) = deck[0], deck[1]
        d, t = ORDER.index(dr), ORDER.index(tr)
        tie = d == t
        nets = {
            "dragon": Fraction(-1, 2) if tie else (1 if d > t else -1),
            "tiger": Fraction(-1, 2) if tie else (1 if t > d else -1),
            "tie": tie_pays if tie else -1,
            "suited-tie": 50 if tie and ds == ts else -1,
            "dragon-big": 1 if d >= 7 else -1,
            "dragon-small": 1 if d <= 5 else -1,
            "tiger-big": 1 if t >= 7 else -1,
            "tiger-small": 1 if t <= 5 else -1,
        }
        for bet, net in nets.items():
            out.setdefault(bet, {}).setdefault(Fraction(net), 0)
            out[bet][Fraction(net)] += 1
    return out


SHOES = [
    ["AS", "AS", "AH", "7D", "KS", "KC"],
    ["2S", "9H", "9H", "TD", "JS", "JS"],
    ["7S", "7H", "8D", "6S", "QC", "QC"],
]
#: Seven cards: 5,040 orderings each, the slow profile.
SLOW_SHOES = [["7S", "7S", "7H", "8D", "6S", "QC", "QC"]]


@pytest.mark.parametrize("cards", SHOES + (SLOW_SHOES if is_slow() else []))
def test_every_bet_against_a_literal_brute_force_over_every_permutation(cards):
    shoe = Shoe.parse(",".join(f"{c}={cards.count(c)}" for c in sorted(set(cards))))
    expected = brute_force([(c[0], c[1]) for c in cards], tie_pays=11)
    analysis = price(DRAGON_TIGER, shoe, settings={"tie-pays": Fraction(11)})
    rest = factorial(len(cards) - 2)  # the orderings of the cards no deal reads
    assert analysis.orderings * rest == factorial(len(cards))
    for figures in analysis.bets:
        got = {}
        for o in figures.outcomes:
            if o.count:
                got[o.outcome.net] = got.get(o.outcome.net, 0) + o.count * rest
        assert got == expected[figures.bet.id], figures.bet.id
        ev = sum(net * n for net, n in expected[figures.bet.id].items()) / Fraction(factorial(len(cards)))
        assert figures.ev == ev


def test_the_published_figures_at_8_decks():
    # Wizard of Odds, Dragon Tiger (tests/data/published_family.txt): counts over the 86,320 unordered pairs.
    analysis = price(DRAGON_TIGER, Shoe.standard(8))
    dragon = analysis.bet("dragon")
    assert [o.count for o in dragon.outcomes] == [2 * 39936, 2 * 6448, 2 * 39936]
    assert analysis.orderings == 2 * 86320
    edges = {f.bet.id: f.house_edge_percent(2) for f in analysis.bets}
    assert edges == {
        "dragon": "3.73%", "tiger": "3.73%", "tie": "32.77%", "suited-tie": "13.98%",
        "dragon-big": "7.69%", "dragon-small": "7.69%", "tiger-big": "7.69%", "tiger-small": "7.69%",
    }
    assert dragon.house_edge == Fraction(31, 830) and analysis.bet("dragon-big").house_edge == Fraction(1, 13)
    assert analysis.bet("suited-tie").outcomes[0].count == 2 * 1456


@pytest.mark.parametrize(("pays", "edge"), [(11, "10.36%"), (12, "2.89%")])
def test_the_published_tie_at_11_and_12_to_1(pays, edge):
    analysis = price(DRAGON_TIGER, Shoe.standard(8), ["tie"], {"tie-pays": Fraction(pays)})
    assert analysis.bet("tie").house_edge_percent(2) == edge


def test_the_half_loss_is_an_outcome_of_its_own_and_the_edge_per_resolved_bet_equals_it():
    dragon = price(DRAGON_TIGER, Shoe.standard(8), ["dragon"]).bet("dragon")
    assert [(o.outcome.id, o.outcome.net) for o in dragon.outcomes] == [
        ("win", 1), ("tie-half-lose", Fraction(-1, 2)), ("lose", -1)]
    assert dragon.push_probability == 0 and dragon.house_edge_per_resolved_bet == dragon.house_edge


def test_odds_json_and_csv_read_back_exactly():
    runner = CliRunner()
    out = runner.invoke(cli, ["odds", "--game", "dragon-tiger", "--format", "json", "--decks", "6"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["game"] == "dragon-tiger" and data["rules"] == {"name": "dragon-tiger", "tie_pays": "8"}
    assert data["counting"]["cards"] == 2 and int(data["orderings"]) == 312 * 311
    analysis = price(DRAGON_TIGER, Shoe.standard(6))
    assert list(data["bets"]) == [f.bet.id for f in analysis.bets]
    for figures in analysis.bets:
        bet = data["bets"][figures.bet.id]
        assert Fraction(bet["house_edge"]) == figures.house_edge
        assert [int(o["count"]) for o in bet["outcomes"]] == [o.count for o in figures.outcomes]
    out = runner.invoke(cli, ["odds", "--game", "dragon-tiger", "--bet", "dragon", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out.output)))
    assert [(r["outcome"], Fraction(r["net"]), int(r["count"])) for r in rows] == [
        ("win", 1, 79872), ("tie-half-lose", Fraction(-1, 2), 12896), ("lose", -1, 79872)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["odds", "--game", "nope"], "Error: unknown game 'nope': valid games are "),
        (["odds", "--game", "dragon_tiger"], "Error: unknown game 'dragon_tiger': did you mean dragon-tiger"),
        (["eor", "--game", "dragon-tiger", "--bet", "suited-tie"],
         "Error: the effect of removal takes cards out by value or rank, and bet suited-tie depends on their suits"),
        (["simulate", "--game", "dragon-tiger", "--bet", "tie"], "Error: simulate needs shoes dealt at random"),
        (["odds", "--game", "dragon-tiger", "--bet", "banker"], "Error: unknown bet 'banker': valid bets are dragon,"),
        (["odds", "--game", "dragon-tiger", "--commission", "3%"], "Error: dragon-tiger has no --commission"),
        (["odds", "--game", "dragon-tiger", "--rules", "ez"], "Error: dragon-tiger has no --rules: its settings are"),
        (["odds", "--game", "dragon-tiger", "--bet", "suited-tie", "--shoe", "A=4,K=4"],
         "Error: bet suited-tie needs a shoe with suits"),
        (["odds", "--game", "dragon-tiger", "--given", "P1 = K"],
         "Error: --given needs odds given an event about the dealt cards (--given); dragon-tiger has none"),
        (["odds", "--bet", "suited-tie"], "Error: unknown bet 'suited-tie'"),
        (["odds", "--game", "chemmy"], "Error: odds needs bets the house takes, priced on a shoe; chemin-de-fer has"),
    ],
)  # fmt: skip
def test_bad_input_is_one_error_line(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1, result.output
