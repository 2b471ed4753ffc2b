"""The card walk against a literal brute force: every ordered six-card draw of small suited shoes (rules.deal_coup)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations

import pytest

import exactodds as xo
from exactodds.cards import RANK_POINTS, Rank, Suit
from exactodds.cardwalk import card_counts
from exactodds.errors import ExactOddsError
from exactodds.facts import CARD_FACTS, condition
from exactodds.rules import STANDARD_TABLEAU, deal_coup

SHOES = {
    "nines": "9S=2,9H=1,9D=1,AS=1,KH=1,QC=1,2D=1",
    "royal": "AS=1,KS=1,QS=1,JS=1,TS=1,9S=1,4H=1,2D=1",
    "mixed": "3S=1,3H=1,5D=1,8C=1,8H=1,AS=1,6D=1,TC=1",
}
RED = {Suit.HEARTS, Suit.DIAMONDS}
ORDER = "A23456789TJQK"


def _poker(cards):
    """Four cards' poker value and lone-pair rank, written from the pay table's words (not the walk's arrays)."""
    ranks = [r.value for r, _ in cards]
    suits = {s for _, s in cards}
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len(suits) == 1
    idx = sorted(ORDER.index(r) for r in ranks)
    straight = len(set(ranks)) == 4 and (idx[3] - idx[0] == 3 or set(ranks) == {"A", "K", "Q", "J"})
    if flush and set(ranks) == {"A", "K", "Q", "J"}:
        hand = "mini-royal"
    elif counts[0] == 4:
        hand = "four-of-a-kind"
    elif straight and flush:
        hand = "straight-flush"
    elif counts[0] == 3:
        hand = "three-of-a-kind"
    elif flush:
        hand = "flush"
    elif straight:
        hand = "straight"
    elif counts == [2, 2]:
        hand = "two-pair"
    elif counts[0] == 2:
        hand = "pair"
    else:
        hand = "high-card"
    pair = next((r for r, n in Counter(ranks).items() if n == 2), "none") if hand == "pair" else "none"
    return hand, pair


def facts_of(draw):
    """Every card fact of one ordered six-card draw (cards as (rank, suit)), from the deal written once."""
    values = [RANK_POINTS[r] for r, _ in draw]
    pt, bt, pn, bn = deal_coup(values, STANDARD_TABLEAU)
    third = {"p1": draw[0], "b1": draw[1], "p2": draw[2], "b2": draw[3]}
    third["p3"] = draw[4] if pn == 3 else None
    third["b3"] = (draw[5] if pn == 3 else draw[4]) if bn == 3 else None
    out = {}
    for pos, card in third.items():
        if card is None:
            for what in ("rank", "value", "suit", "colour"):
                out[f"{pos}_{what}"] = "none"
            continue
        rank, suit = card
        out[f"{pos}_rank"] = rank.value
        out[f"{pos}_value"] = RANK_POINTS[rank]
        out[f"{pos}_suit"] = suit.value
        out[f"{pos}_colour"] = "red" if suit in RED else "black"
    first = draw[:4]
    out["player_initial_total"] = (values[0] + values[2]) % 10
    out["banker_initial_total"] = (values[1] + values[3]) % 10
    nines = [s for r, s in first if r is Rank.NINE]
    out["nines"] = len(nines)
    out["nines_suited"] = len(nines) >= 2 and len(set(nines)) == 1
    out["nine_of_diamonds"] = Suit.DIAMONDS in nines
    colours = {s in RED for _, s in first}
    out["first_four_colour"] = "mixed" if len(colours) == 2 else ("red" if True in colours else "black")
    out["first_four_poker"], out["first_four_pair"] = _poker(first)
    out["winner"] = "player" if pt > bt else "banker" if bt > pt else "tie"
    out["player_total"], out["banker_total"], out["player_cards"], out["banker_cards"] = pt, bt, pn, bn
    return out


@cache
def brute(name):
    """Counter of fact tuples over every ordered six-card draw of distinct physical cards."""
    shoe = xo.Shoe.parse(SHOES[name])
    cards = [
        (rank, suit) for rank in Rank for suit in Suit for _ in range(shoe.card_count(rank, suit))
    ]
    return shoe, [facts_of(draw) for draw in permutations(cards, 6)]


@pytest.mark.parametrize("shoe_name", sorted(SHOES))
def test_every_card_fact_and_value_against_a_brute_force(shoe_name):
    shoe, draws = brute(shoe_name)
    assert len(draws) == shoe.orderings()
    for name, fact in CARD_FACTS.items():
        for value in fact.values:
            expected = sum(d[name] == value for d in draws)
            win, rest = card_counts(shoe, STANDARD_TABLEAU, [condition({name: value}), None])
            assert (win, win + rest) == (expected, len(draws)), (name, value)


@pytest.mark.parametrize("shoe_name", sorted(SHOES))
def test_card_facts_mixed_with_how_the_coup_ended(shoe_name):
    shoe, draws = brute(shoe_name)
    whens = [
        condition({"winner": "banker", "p3_value": [0, 1, 2, 3]}),
        condition({"winner": "banker", "b1_colour": "red"}),
        condition({"winner": "player"}),
        None,
    ]
    one = sum(d["winner"] == "banker" and d["p3_value"] in (0, 1, 2, 3) for d in draws)
    two = sum(d["winner"] == "banker" and d["b1_colour"] == "red" and d["p3_value"] not in (0, 1, 2, 3) for d in draws)
    with pytest.raises(ExactOddsError, match="overlap"):
        card_counts(shoe, STANDARD_TABLEAU, whens[:1] + [condition({"winner": "banker"}), None])
    # the first two overlap on some shoes: check the disjoint form
    whens[1] = condition({"winner": "banker", "b1_colour": "red", "p3_value": list(range(4, 10)) + ["none"]})
    got = card_counts(shoe, STANDARD_TABLEAU, whens)
    assert got[:2] == [one, two] and sum(got) == len(draws)


def test_catalog_card_bets_against_the_brute_force():
    shoe, draws = brute("royal")
    analysis = xo.analyze(shoe, bets=["jackpot-baccarat", "3-giving-8", "all-red", "tie"])
    jackpot = {o.outcome.id: o.count for o in analysis.bet("jackpot-baccarat").outcomes}
    assert jackpot["mini-royal"] == sum(d["first_four_poker"] == "mini-royal" for d in draws) > 0
    assert jackpot["straight-flush"] == sum(d["first_four_poker"] == "straight-flush" for d in draws) > 0
    three = analysis.bet("3-giving-8").outcomes[0].count
    assert three == sum(d["banker_initial_total"] == 3 and d["p3_rank"] == "8" for d in draws)
    # the Tie stays on its own route and is unchanged by the card bets beside it
    assert analysis.bet("tie").outcomes[0].count == xo.analyze(shoe, bets=["tie"]).bet("tie").outcomes[0].count


def test_total_probability_over_the_values_of_a_fact():
    shoe = xo.Shoe.standard(1)
    for name in ("p3_rank", "banker_initial_total", "first_four_poker"):
        counts = [card_counts(shoe, STANDARD_TABLEAU, [condition({name: v}), None])[0] for v in CARD_FACTS[name].values]
        assert sum(counts) == shoe.orderings(), name


def test_3_giving_8_exactly_at_8_decks():
    f = xo.analyze(xo.Shoe.standard(8), bets=["3-giving-8"]).bet("3-giving-8")
    assert f.ev == Fraction(-1374867653, 15835355445)


def test_bad_card_facts_are_one_clear_error(tmp_path):
    from click.testing import CliRunner

    from exactodds.cli import cli

    bad = {
        "unknown": ('{ p7_rank = "A" }', "unknown fact 'p7_rank'"),
        "value": ('{ p1_rank = "Z" }', "bad value"),
    }
    for key, (when, message) in bad.items():
        path = tmp_path / f"{key}.toml"
        path.write_text(
            f'[bets.x]\n[[bets.x.outcome]]\nid = "win"\nwhen = {when}\npays = 1\n'
            '[[bets.x.outcome]]\nid = "lose"\notherwise = true\npays = -1\n'
        )
        result = CliRunner().invoke(cli, ["odds", "--bets-file", str(path), "--bet", "x"])
        assert result.exit_code == 2 and message in result.output, result.output
    suited = CliRunner().invoke(cli, ["odds", "--shoe", "A=32,9=32,K=32", "--bet", "all-red"])
    assert suited.exit_code == 2 and "needs a shoe with suits" in suited.output
    with pytest.raises(ExactOddsError, match="card fact"):
        xo.Event.where({"p1_rank": "A"})


def test_cli_odds_json_and_batch_with_card_bets():
    """The CLI's JSON and batch give the card walk's exact counts (read back by json)."""
    import json

    from click.testing import CliRunner

    from exactodds.cli import cli

    shoe = xo.Shoe.standard(1).remove("8h,8s")
    expected = xo.analyze(shoe, bets=["3-giving-8", "all-black", "tie"])
    odds = CliRunner().invoke(
        cli, ["odds", "--decks", "1", "--remove", "8h,8s", "--bet", "3-giving-8", "--bet", "all-black", "--bet", "tie",
              "--format", "json"],
    )  # fmt: skip
    assert odds.exit_code == 0, odds.output
    lines = ['{"decks": 1, "remove": "8h,8s"}', '{"decks": 1, "remove": "8,8"}']
    batch = CliRunner().invoke(cli, ["batch", "--bet", "3-giving-8", "--bet", "tie"], input="\n".join(lines) + "\n")
    assert batch.exit_code == 0, batch.output
    for text, ids in [(odds.output, ("3-giving-8", "all-black", "tie"))] + [
        (line, ("3-giving-8", "tie")) for line in batch.output.splitlines()
    ]:
        data = json.loads(text)
        for bet_id in ids:
            got = [int(o["count"]) for o in data["bets"][bet_id]["outcomes"]]
            assert got == [o.count for o in expected.bet(bet_id).outcomes], bet_id
            assert Fraction(data["bets"][bet_id]["ev"]) == expected.bet(bet_id).ev


def test_the_python_integer_route_gives_the_same_counts(monkeypatch):
    """Beyond int64 (N^6 ≥ 2^63) the walk holds Python ints: forced here, it agrees with the int64 route."""
    import exactodds.cardwalk as walk

    shoe = xo.Shoe.standard(2)
    bets = ["3-giving-8", "jackpot-baccarat"]
    fast = xo.analyze(shoe, bets=bets)
    monkeypatch.setattr(walk, "INT64_BOUND", 0)
    slow = xo.analyze(shoe, bets=bets)
    assert [[o.count for o in f.outcomes] for f in slow.bets] == [[o.count for o in f.outcomes] for f in fast.bets]


def test_card_facts_where_they_cannot_be_priced_are_one_clear_error(tmp_path):
    """A rule override on the cards at the big table, and --given with a card bet: one Error: line, exit 2."""
    from click.testing import CliRunner

    from exactodds.cli import cli

    rules = tmp_path / "rules.toml"
    rules.write_text(
        'name = "odd"\ndescription = "x"\n[[banker_override]]\nid = "king"\nname = "a king first"\n'
        'when = { b1_rank = "K" }\npays = 0.5\n'
    )
    for args, message in [
        (["odds", "--rules-file", str(rules), "--player-5", "best"], "holder's choice on 5"),
        (["odds", "--bet", "3-giving-8", "--given", "P1 = 9"], "--given cannot be combined"),
        (["edge-sort", "--cards", "1", "--bet", "3-giving-8"], "reads the dealt cards"),
    ]:
        result = CliRunner().invoke(cli, args)
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), result.output
        assert message in lines[0], lines[0]
