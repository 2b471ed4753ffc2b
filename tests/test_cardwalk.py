"""The card walk against a literal brute force: every ordered six-card draw of small suited shoes (rules.deal_coup)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, is_slow, sweep

import exactodds as xo
from exactodds.cards import RANK_POINTS, Rank, Suit
from exactodds.errors import ExactOddsError
from exactodds.puntobanco.cardwalk.walk import card_counts
from exactodds.puntobanco.facts import CARD_FACTS, condition
from exactodds.puntobanco.rules import STANDARD_TABLEAU, deal_coup

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
    p3 = draw[4] if pn == 3 else None
    b3 = (draw[5] if pn == 3 else draw[4]) if bn == 3 else None
    out = {}
    for pos, card in (("p1", draw[0]), ("b1", draw[1]), ("p2", draw[2]), ("b2", draw[3]), ("p3", p3), ("b3", b3)):
        out.update(_card_facts(pos, card))
    out.update(_first_four_facts(draw[:4]))
    out["winner"] = "player" if pt > bt else "banker" if bt > pt else "tie"
    out["player_total"], out["banker_total"], out["player_cards"], out["banker_cards"] = pt, bt, pn, bn
    return out


# The facts of one card in one place, and of the first four cards, are worked out once for each
# (the brute forces below ask for them tens of thousands of times: most of their time).


@cache
def _card_facts(pos, card):
    """The rank, value, suit and colour of the card in one place (``"none"`` for a card not dealt)."""
    if card is None:
        return {f"{pos}_{what}": "none" for what in ("rank", "value", "suit", "colour")}
    rank, suit = card
    return {f"{pos}_rank": rank.value, f"{pos}_value": RANK_POINTS[rank], f"{pos}_suit": suit.value,
            f"{pos}_colour": "red" if suit in RED else "black"}


@cache
def _first_four_facts(first):
    """The facts of the first four cards: the initial totals, the nines, the colours, the poker hand, the faces."""
    values = [RANK_POINTS[r] for r, _ in first]
    out = {}
    out["player_initial_total"] = (values[0] + values[2]) % 10
    out["banker_initial_total"] = (values[1] + values[3]) % 10
    nines = [s for r, s in first if r is Rank.NINE]
    out["nines"] = len(nines)
    out["nines_suited"] = len(nines) >= 2 and len(set(nines)) == 1
    out["nine_of_diamonds"] = Suit.DIAMONDS in nines
    colours = {s in RED for _, s in first}
    out["first_four_colour"] = "mixed" if len(colours) == 2 else ("red" if True in colours else "black")
    out["first_four_poker"], out["first_four_pair"] = _poker(first)
    out["face_cards"] = sum(r in (Rank.JACK, Rank.QUEEN, Rank.KING) for r, _ in first)
    out["first_four_same_card"] = len(set(first)) == 1
    return out


@cache
def brute(name):
    """Counter of fact tuples over every ordered six-card draw of distinct physical cards."""
    shoe = xo.Shoe.parse(SHOES[name])
    cards = [
        (rank, suit) for rank in Rank for suit in Suit for _ in range(shoe.card_count(rank, suit))
    ]
    return shoe, [facts_of(draw) for draw in permutations(cards, 6)]


@pytest.mark.parametrize("shoe_name", sweep(sorted(SHOES)))
def test_every_card_fact_and_value_against_a_brute_force(shoe_name):
    shoe, draws = brute(shoe_name)
    assert len(draws) == shoe.orderings()
    seen = Counter((name, d[name]) for d in draws for name in CARD_FACTS)  # one pass over the draws
    for name, fact in CARD_FACTS.items():
        for value in fact.values:
            expected = seen[name, value]
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
    import exactodds.puntobanco.cardwalk.walk as walk

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


# --- random conditions against the brute force, and the walk's bound on memory -------------------------------

#: Coup facts the brute force reads off a draw (with the pairs added by _with_pairs).
PLAIN = {
    "winner": ("player", "banker", "tie"),
    "player_total": tuple(range(10)),
    "banker_cards": (2, 3),
    "player_pair": (False, True),
    "banker_suited_pair": (False, True),
}
FACT_VALUES = {**{name: fact.values for name, fact in CARD_FACTS.items()}, **PLAIN}


@cache
def brute_with_pairs(name):
    """The brute force of ``name`` with the pair facts of each draw added."""
    shoe, draws = brute(name)
    out = []
    for d in draws:
        suited = d["b1_rank"] == d["b2_rank"] and d["b1_suit"] == d["b2_suit"]
        out.append({**d, "player_pair": d["p1_rank"] == d["p2_rank"], "banker_suited_pair": suited})
    return shoe, out


def _fact(name):
    return st.tuples(st.just(name), st.lists(st.sampled_from(FACT_VALUES[name]), min_size=1, unique=True))


a_when = st.lists(st.sampled_from(sorted(FACT_VALUES)).flatmap(_fact), min_size=1, max_size=3, unique_by=lambda f: f[0])


@examples(300, 3)
@given(
    shoe_name=st.sampled_from(sorted(SHOES)),
    whens=st.lists(a_when.map(lambda facts: condition(dict(facts))), min_size=1, max_size=3),
    first_match=st.booleans(),
    block=st.sampled_from([1, 1 << 18]),
)
def test_random_conditions_against_the_brute_force(shoe_name, whens, first_match, block):
    """Any mix of card and coup facts, in blocks of one kind or all in one: the brute force's counts, or its overlap."""
    import exactodds.puntobanco.cardwalk.walk as walk

    shoe, draws = brute_with_pairs(shoe_name)
    settled = Counter()
    overlap = False
    for d in draws:
        holds = [all(d[name] in values for name, values in when) for when in whens]
        overlap = overlap or sum(holds) > 1
        settled[holds.index(True) if True in holds else len(whens)] += 1
    with patch.object(walk, "BLOCK", block):
        if overlap and not first_match:
            with pytest.raises(ExactOddsError, match="overlap"):
                card_counts(shoe, STANDARD_TABLEAU, [*whens, None], "x", first_match)
        else:
            got = card_counts(shoe, STANDARD_TABLEAU, [*whens, None], "x", first_match)
            assert got == [settled[i] for i in range(len(whens) + 1)]


#: A bet whose ten outcomes name ten facts of the first four cards, one per rank of the Player's third card:
#: its first four cards fall into 60,437 groups, each dealt 22² later kinds (29,251,508 rows), past MAX_ROWS.
WIDE = [
    ("A", 'p1_suit = "S"'),
    ("2", 'b1_suit = "H"'),
    ("3", 'p2_suit = "D"'),
    ("4", 'b2_suit = "C"'),
    ("5", 'p1_rank = "K"'),
    ("6", 'b1_rank = "Q"'),
    ("7", 'p2_rank = "J"'),
    ("8", 'b2_rank = "T"'),
    ("9", "nines = 1"),
    ("K", 'p3_suit = "S", first_four_colour = "mixed"'),
]


def _refusal_files(tmp_path):
    bets = ["[bets.wide]"]
    rules = ['name = "wide"', 'description = "overrides on the cards past the card walk\'s bound"']
    for i, (rank, facts) in enumerate(WIDE):
        when = f'when = {{ p3_rank = "{rank}", {facts} }}'
        bets += ["[[bets.wide.outcome]]", f'id = "o{i}"', when, "pays = 10"]
        rules += ["[[banker_override]]", f'id = "o{i}"', f'name = "o{i}"', when, "pays = 0.5"]
    bets += ["[[bets.wide.outcome]]", 'id = "lose"', "otherwise = true", "pays = -1"]
    (tmp_path / "bets.toml").write_text("\n".join(bets) + "\n")
    (tmp_path / "rules.toml").write_text("\n".join(rules) + "\n")
    return {"bets": ["--bets-file", str(tmp_path / "bets.toml"), "--bet", "wide"],
            "rules": ["--rules-file", str(tmp_path / "rules.toml"), "--bet", "banker"]}


def _limited(args, gib=3):
    """Run ``exactodds odds ARGS`` in a fresh process, its address space capped at ``gib`` GiB: (result, seconds)."""
    import resource
    import subprocess
    import sys
    import time
    from pathlib import Path

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (gib << 30, gib << 30))

    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "exactodds", "odds", *args], cwd=Path(__file__).resolve().parents[1],
        capture_output=True, text=True, timeout=120, preexec_fn=cap,
    )  # fmt: skip
    return result, time.perf_counter() - start


#: A bet of a bets file, and (the slow profile) a rule override: both reach the one refusal of the walk.
@pytest.mark.parametrize("where", ["bets"] + (["rules"] if is_slow() else []))
def test_a_walk_too_big_is_refused_at_once_in_bounded_memory(tmp_path, where):
    """Past MAX_ROWS the walk refuses as soon as its groups show it: one Error: line in seconds, under 3 GiB.

    (It used to build every row first: 52^4 rows × 52 columns, an ``_ArrayMemoryError`` traceback
    under this cap, and minutes and 15 GB without it for a bet on the king of spades.)
    """
    result, seconds = _limited(_refusal_files(tmp_path)[where])
    lines = result.stderr.splitlines()
    assert result.returncode == 2 and len(lines) == 1 and lines[0].startswith("Error: "), result.stderr[-2000:]
    assert "reads too much of the cards to walk" in lines[0] and result.stdout == ""
    assert seconds < 20, f"refused after {seconds:.1f} s"


def test_the_king_of_spades_third_card_is_priced():
    """A fact on one card tells apart only the cards its values name: the Player's third card K♠ deals 22 kinds, not 52.

    (It was refused after 5 minutes and 15 GB.) Suits are alike in a full shoe: K♠ is a quarter of
    the kings, priced by rank alone.
    """
    shoe = xo.Shoe.standard(8)
    spade, rest = card_counts(shoe, STANDARD_TABLEAU, [condition({"p3_rank": "K", "p3_suit": "S"}), None])
    king, _ = card_counts(shoe, STANDARD_TABLEAU, [condition({"p3_rank": "K"}), None])
    assert 4 * spade == king > 0 and spade + rest == shoe.orderings()


def _six_cards_directly(decks):
    """The ordered draws of P1 ♠, B1 ♠, P2 ♥, B2 ♦ and both third cards kings, summed over the first four ranks.

    Written apart from the walk: each (rank, suit) holds ``decks`` cards; the two kings are the
    fifth and sixth cards, both drawn only when the Player draws and the Banker draws after.
    """
    from itertools import product

    from exactodds.cards import RANK_VALUES

    total = 0
    for ranks in product(range(13), repeat=4):
        weight = decks * (decks - (ranks[1] == ranks[0])) * decks * decks
        _, _, player_cards, banker_cards = deal_coup([RANK_VALUES[r] for r in ranks] + [0, 0])
        if player_cards == banker_cards == 3:
            kings = 4 * decks - ranks.count(12)
            total += weight * kings * (kings - 1)
    return total


def test_the_six_card_bet_of_issue_19_is_priced_in_bounded_memory():
    """The bet of six named cards (four suits, two kings) is priced under a 3 GiB cap (slow profile: a few seconds).

    It was refused ("321,018,880 rows") after 51 s of CPU and 6.6 GB, or died under the cap. Its
    count is the sum over the first four cards' ranks written apart, and summed over the suit of
    the Player's first card it is the bet's without that fact.
    """
    if not is_slow():
        pytest.skip("slow profile")
    text = (
        '[bets.six]\n[[bets.six.outcome]]\nid = "win"\nwhen = { p1_suit = "S", b1_suit = "S", p2_suit = "H",'
        ' b2_suit = "D", b3_rank = "K", p3_rank = "K" }\npays = 100\n[[bets.six.outcome]]\nid = "lose"\n'
        "otherwise = true\npays = -1\n"
    )
    import json
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "six.toml"
        path.write_text(text)
        result, _ = _limited(["--bets-file", str(path), "--bet", "six", "--format", "json"])
    assert result.returncode == 0, result.stderr[-2000:]
    win = int(json.loads(result.stdout)["bets"]["six"]["outcomes"][0]["count"])
    assert win == _six_cards_directly(8) == 30_139_584_512
    rest = {"b1_suit": "S", "p2_suit": "H", "b2_suit": "D", "b3_rank": "K", "p3_rank": "K"}
    shoe = xo.Shoe.standard(8)
    by_suit = card_counts(shoe, STANDARD_TABLEAU, [*(condition({**rest, "p1_suit": s}) for s in "SHDC"), None])
    assert by_suit[0] == win
    assert sum(by_suit[:4]) == card_counts(shoe, STANDARD_TABLEAU, [condition(rest), None])[0]
