"""Rebates (``--rebate``): the effective stake of each basis and the EV with the rebate, exact, on every command.

The expected figures are worked out by hand from the winner's probabilities, which a literal
brute force over every ordered draw of a small shoe counts here (the deal's one definition,
``deal_coup``, and nothing of the pricers).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations

import numpy as np
import pytest
from click.testing import CliRunner
from profiles import slow

from exactodds.cards import RANK_POINTS, Shoe
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.puntobanco.bets import bet_catalog, bets_from_text, find_bet, main_bets
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import EZ, PUNTO_BANCO, RULE_SETS, STANDARD_TABLEAU, SUPER_6, deal_coup
from exactodds.rebate import BASES, Rebate, rebate_figures, rebated_bet, stake_weights

#: A small shoe: 8 cards, every ordered draw of six of them is 20,160 deals.
SMALL = "A=2,5=2,9=1,6=1,K=2"
R = Fraction(1, 125)  # 0.8%


@cache
def tally(text: str) -> tuple[dict[str, Fraction], int]:
    """The exact probability of each way a coup ends that the hand computations need, by a literal brute force."""
    shoe = Shoe.parse(text)
    values = [RANK_POINTS[rank] for rank, n in shoe.as_dict().items() for _ in range(n)]
    seen: Counter[str] = Counter()
    deals = 0
    for draw in permutations(values, 6):  # equal values in other places are other cards: every ordering counts
        p, b, pn, bn = deal_coup(list(draw), STANDARD_TABLEAU)
        deals += 1
        if p == b:
            seen["tie"] += 1
        elif p > b:
            seen["player"] += 1
        else:
            seen["banker"] += 1
            seen["banker-6"] += b == 6
            seen["banker-three-card-7"] += b == 7 and bn == 3
    return {k: Fraction(n, deals) for k, n in seen.items()}, deals


def probabilities(text: str = SMALL) -> tuple[Fraction, Fraction, Fraction]:
    """P(Player wins), P(Banker wins), P(tie) on the small shoe."""
    p = tally(text)[0]
    return p["player"], p["banker"], p["tie"]


def expected(bet: str, basis: str, text: str = SMALL) -> tuple[Fraction, Fraction]:
    """(effective stake, EV without the rebate) of a punto banco bet, by hand from the winner's probabilities."""
    pp, pb, pt = probabilities(text)
    if bet == "banker":  # 0.95 to 1; a tie pushes
        stakes = {"standard": pp + Fraction(19, 20) * pb, "total-stake": 1, "non-refund": 1 - pt, "losing-only": pp}
        return Fraction(stakes[basis]), Fraction(19, 20) * pb - pp
    if bet == "player":  # 1 to 1; a tie pushes
        stakes = {"standard": 1 - pt, "total-stake": 1, "non-refund": 1 - pt, "losing-only": pb}
        return Fraction(stakes[basis]), pp - pb
    assert bet == "tie"  # 8 to 1; never pushes
    stakes = {"standard": 1, "total-stake": 1, "non-refund": 1, "losing-only": 1 - pt}
    return Fraction(stakes[basis]), 8 * pt - (1 - pt)


def invoke(*args: str, stdin: str | None = None):
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


def one_error(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


# ---------------------------------------------------------------------------------------------
# The figures: each basis by hand, pushes, commissions and the Banker bet.


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("bet", ["banker", "player", "tie"])
def test_each_basis_against_a_hand_computation_on_a_small_shoe(bet, basis):
    stake, ev = expected(bet, basis)
    figures = analyze(Shoe.parse(SMALL), bets=[bet]).bet(bet)
    assert figures.ev == ev
    got = figures.with_rebate(Rebate(R, basis))
    assert got.effective_stake == stake and got.ev_with_rebate == ev + R * stake and got.house_edge == -ev - R * stake


def test_a_tie_pushes_player_and_banker_so_their_non_refunded_stake_leaves_it_out():
    pp, pb, pt = probabilities()
    assert 0 < pt < 1
    for bet in ("player", "banker"):
        figures = analyze(Shoe.parse(SMALL), bets=[bet]).bet(bet)
        assert figures.with_rebate(Rebate(R, "non-refund")).effective_stake == 1 - pt == 1 - figures.push_probability
        assert figures.with_rebate(Rebate(R, "total-stake")).effective_stake == 1


def test_the_banker_s_standard_basis_takes_the_commission_off_each_win():
    pp, pb, _ = probabilities()
    shoe = Shoe.parse(SMALL)
    for commission, pays in ((Fraction(1, 20), Fraction(19, 20)), (Fraction(1, 25), Fraction(24, 25)), (0, 1)):
        rules = PUNTO_BANCO.with_commission(Fraction(commission))
        got = analyze(shoe, rules, ["banker"]).bet("banker").with_rebate(Rebate(R))
        assert got.effective_stake == pp + pays * pb
    # No commission: the standard basis is the non-refunded stake, as for every other bet.
    free = analyze(shoe, PUNTO_BANCO.with_commission(Fraction(0)), ["banker"]).bet("banker")
    assert free.with_rebate(Rebate(R)).effective_stake == free.with_rebate(Rebate(R, "non-refund")).effective_stake


def test_rule_sets_that_pay_the_banker_otherwise():
    p = tally(SMALL)[0]
    pp, pb, pt, pb6, pb7 = p["player"], p["banker"], p["tie"], p["banker-6"], p["banker-three-card-7"]
    assert pb6 > 0 and pb7 > 0
    shoe = Shoe.parse(SMALL)
    # Super 6: a Banker win on 6 pays 1 to 2, a 50% commission on that win.
    super6 = analyze(shoe, SUPER_6, ["banker"]).bet("banker")
    assert super6.ev == (pb - pb6) + pb6 / 2 - pp
    assert super6.with_rebate(Rebate(R)).effective_stake == pp + (pb - pb6) + pb6 / 2
    # EZ: no commission, a Banker three-card 7 pushes: the standard basis is 1 - P(push).
    ez = analyze(shoe, EZ, ["banker"]).bet("banker")
    for basis, stake in (("standard", 1 - pt - pb7), ("non-refund", 1 - pt - pb7), ("losing-only", pp)):
        assert ez.with_rebate(Rebate(R, basis)).effective_stake == stake


def test_the_banker_bet_is_read_from_its_pay_table_in_every_rule_set_and_only_there():
    for rules in RULE_SETS:
        on = sorted(b.id for b in bet_catalog(rules, full=True).values() if b.on_banker)
        assert on == ["banker"], rules.name
    player, banker, tie = main_bets(PUNTO_BANCO)
    assert [str(w) for w in stake_weights(banker, "standard")] == ["19/20", "0", "1"]
    assert [str(w) for w in stake_weights(player, "standard")] == ["1", "0", "1"]


MY_BETS = """
[bets.my-banker]
description = "the Banker bet, written in a bets file: 0.96 to 1, a tie pushes"
outcome = [{id = "win", when = {winner = "banker"}, pays = 0.96}, {id = "push", when = {winner = "tie"}, pays = 0},
           {id = "lose", otherwise = true, pays = -1}]
[bets.banker-no-push]
description = "Banker 0.95 to 1, and a tie loses"
outcome = [{id = "win", when = {winner = "banker"}, pays = 0.95}, {id = "lose", otherwise = true, pays = -1}]
"""


def test_a_bets_file_s_banker_bet_is_one_and_a_bet_that_loses_on_a_tie_is_not():
    mine, no_push = bets_from_text(MY_BETS)
    assert mine.on_banker and not no_push.on_banker
    pp, pb, pt = probabilities()
    figures = analyze(Shoe.parse(SMALL), bets=[mine, no_push])
    assert figures.bet("my-banker").with_rebate(Rebate(R)).effective_stake == pp + Fraction(24, 25) * pb
    assert figures.bet("banker-no-push").with_rebate(Rebate(R)).effective_stake == 1  # it never pushes


def test_a_banker_priced_by_the_card_walk_is_the_banker_bet_too():
    from test_card_overrides import _rules, _settle, draws

    shoe, every = draws("7S=2,7H=1,3D=1,4C=1,5H=1,KS=1,9D=1")  # 8 cards: every override settles some draws
    rules = _rules(False)  # overrides on the cards: a three-card 7 with a 7 pushes, a red 6 or 7 pays 1:2, a 7 pays 2
    banker = analyze(shoe, rules, ["banker"]).bet("banker")
    assert banker.bet.reads_cards and banker.bet.on_banker
    weight = {"win": 1, "seven-on-seven": 0, "red-six-seven": Fraction(1, 2), "any-seven": 1, "push": 0, "lose": 1}
    settled = Counter(_settle(d, False) for d in every)
    assert all(settled[k] for k in weight)
    stake = Fraction(sum(weight[k] * n for k, n in settled.items()), len(every))
    assert banker.with_rebate(Rebate(R)).effective_stake == stake


def test_a_multiplier_that_zeroes_a_pay_is_a_push_of_that_share():
    (bet,) = bets_from_text(
        '[bets.t0]\noutcome = [{id = "win", when = {winner = "tie"}, pays = 8, multiplier = { values = [0, 1, 3],'
        ' probabilities = ["1/4", "1/2", "1/4"] }}, {id = "lose", otherwise = true, pays = -1}]'
    )
    assert [str(w) for w in stake_weights(bet, "non-refund")] == ["3/4", "1"]
    assert [str(w) for w in stake_weights(bet, "losing-only")] == ["0", "1"]
    _, _, pt = probabilities()
    got = analyze(Shoe.parse(SMALL), bets=[bet]).bets[0].with_rebate(Rebate(R, "non-refund"))
    assert got.effective_stake == 1 - pt / 4
    with pytest.raises(ExactOddsError, match="multiplier"):
        rebated_bet(bet, Rebate(R))


def test_the_issue_s_eight_deck_figure_is_the_standard_basis():
    """At 8 decks a 1% rebate turns the Banker's −1.058% into −0.176% (issue 21): the standard basis does."""
    banker = analyze(Shoe.standard(8), bets=["banker"]).bet("banker")
    got = {basis: banker.with_rebate(Rebate(Fraction(1, 100), basis)).ev_with_rebate for basis in BASES}
    assert f"{float(banker.ev):.3%}" == "-1.058%"
    assert {b: f"{float(ev):.3%}" for b, ev in got.items()} == {
        "standard": "-0.176%", "total-stake": "-0.058%", "non-refund": "-0.153%", "losing-only": "-0.612%"
    }


def test_rebated_bet_pays_the_rebate_in_each_outcome_so_its_ev_is_the_ev_with_the_rebate():
    shoe = Shoe.parse(SMALL)
    for basis in BASES:
        rebate = Rebate(R, basis)
        for bet in ("banker", "player", "tie"):
            plain = analyze(shoe, bets=[bet]).bet(bet)
            paid = analyze(shoe, bets=[rebated_bet(find_bet(bet, PUNTO_BANCO), rebate)]).bets[0]
            assert paid.ev == plain.with_rebate(rebate).ev_with_rebate


# ---------------------------------------------------------------------------------------------
# Reading the options.


def test_the_three_spellings_of_a_rate_are_the_same_exact_fraction():
    assert Rebate.parse("0.8%").rate == Rebate.parse("0.008").rate == Rebate.parse("1/125").rate == R
    assert Rebate.parse(" 0 ").rate == 0 and Rebate.parse("99.99%").rate == Fraction(9999, 10000)
    assert rebate_figures(main_bets(PUNTO_BANCO)[2], [Fraction(1)], Fraction(8), Rebate(R)).paid == R


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rebate", "-1%"], "the rebate must be at least 0% and below 100%, not '-1%'"),
        (["--rebate", "100%"], "the rebate must be at least 0% and below 100%, not '100%'"),
        (["--rebate", "1"], "did you mean 1%?"),
        (["--rebate", "1.5"], "did you mean 1.5%?"),
        (["--rebate", "abc"], "malformed rebate 'abc': write e.g. 0.8%, 0.008 or 1/125"),
        (["--rebate", "1/0"], "malformed rebate '1/0'"),
        (["--rebate", "٨%"], "malformed rebate"),
        (["--rebate", "1%", "--rebate-basis", "Standard"], "did you mean standard?"),
        (["--rebate", "1%", "--rebate-basis", "loss"], "valid rebate bases are standard, total-stake, non-refund"),
        (["--rebate-basis", "total-stake"], "give the rate with --rebate RATE"),
    ],
)
@pytest.mark.parametrize("command", ["odds", "eor", "report"])
def test_bad_rebates_are_one_error_line(command, args, message):
    extra = ["--output", "x.md"] if command == "report" else []
    assert message in one_error(command, "--decks", "1", *args, *extra)


@pytest.mark.parametrize("args", [["odds", "--game", "dragon-tiger"], ["report", "--game", "dragon-tiger",
                                  "--output", "x.md"], ["batch", "--game", "dragon-tiger"]])
def test_a_game_without_the_rebate_settings_refuses_a_rebate(args):
    """A rebate is a setting of punto banco's (its standard basis names its Banker bet): another game's bets are
    refused one, naming the settings the game has, never priced without it."""
    assert one_error(*args, "--rebate", "1%").startswith("Error: dragon-tiger has no --rebate: its settings are")


def test_a_batch_with_a_rebate_prices_a_line_of_another_game_at_its_usual_settings():
    result = CliRunner().invoke(cli, ["batch", "--rebate", "1%", "--bet", "tie"],
                                input='{"decks": 8}\n{"game": "dragon-tiger", "decks": 8}\n')
    assert result.exit_code == 0, result.stderr
    own, other = map(json.loads, result.stdout.splitlines())
    assert "rebate" in own["bets"]["tie"] and other["game"] == "dragon-tiger"
    assert all("rebate" not in bet for bet in other["bets"].values())


def test_every_command_that_prints_evs_takes_the_rebate_options():
    for command in ("odds", "batch", "report", "track", "eor", "simulate"):
        text = invoke(command, "--help")
        assert "--rebate RATE" in text and "--rebate-basis" in text, command


# ---------------------------------------------------------------------------------------------
# Every command, read back by a standard reader and compared with the hand computation.


@pytest.mark.parametrize("basis", BASES)
def test_odds_json_holds_each_bet_s_rebate_exactly(basis):
    data = json.loads(invoke("odds", "--shoe", SMALL, "--bet", "banker", "--bet", "player", "--bet", "tie",
                             "--rebate", "0.8%", "--rebate-basis", basis, "--format", "json"))
    for bet in ("banker", "player", "tie"):
        stake, ev = expected(bet, basis)
        got = data["bets"][bet]
        assert list(got)[-1] == "rebate" and Fraction(got["ev"]) == ev
        rebate = {"rate": "1/125", "basis": basis, "effective_stake": str(stake), "ev": str(ev + R * stake)}
        assert got["rebate"] == rebate


def test_without_a_rebate_the_json_has_no_rebate_and_with_one_only_the_rebate_is_added():
    args = ["odds", "--shoe", SMALL, "--bet", "banker", "--bet", "dragon-7", "--format", "json"]
    plain = json.loads(invoke(*args))
    with_rebate = json.loads(invoke(*args, "--rebate", "1/125"))
    assert all("rebate" not in bet for bet in plain["bets"].values())
    for bet in with_rebate["bets"].values():
        del bet["rebate"]
    assert with_rebate == plain


def test_batch_writes_the_rebate_of_every_shoe_and_it_can_be_the_only_field():
    lines = f'{{"shoe": "{SMALL}"}}\n{{"decks": 1, "remove": "9,9"}}\n'
    full = [json.loads(x) for x in invoke("batch", "--bet", "banker", "--rebate", "1/125", stdin=lines).splitlines()]
    stake, ev = expected("banker", "standard")
    assert full[0]["bets"]["banker"]["rebate"] == {
        "rate": "1/125", "basis": "standard", "effective_stake": str(stake), "ev": str(ev + R * stake)}
    odds = json.loads(invoke("odds", "--decks", "1", "--remove", "9,9", "--bet", "banker", "--rebate", "0.008",
                             "--format", "json"))
    assert full[1]["bets"]["banker"]["rebate"] == odds["bets"]["banker"]["rebate"]
    lean = [json.loads(x) for x in invoke("batch", "--bet", "banker", "--rebate", "1/125", "--fields", "rebate",
                                          stdin=lines).splitlines()]
    assert lean == [{"bets": {"banker": {"rebate": f["bets"]["banker"]["rebate"]}}} for f in full]
    plain = [json.loads(x) for x in invoke("batch", "--bet", "banker", stdin=lines).splitlines()]
    for f in full:
        del f["bets"]["banker"]["rebate"]
    assert full == plain
    assert "--fields rebate" in one_error("batch", "--fields", "ev,rebate", "--input", "-")


def test_odds_csv_and_table_show_the_rebate_beside_the_house_edge():
    stake, ev = expected("banker", "losing-only")
    args = ["odds", "--shoe", SMALL, "--bet", "banker", "--rebate", "1/125", "--rebate-basis", "losing-only"]
    rows = list(csv.DictReader(io.StringIO(invoke(*args, "--format", "csv"))))
    assert len(rows) == 3
    for row in rows:
        assert (row["rebate_rate"], row["rebate_basis"]) == ("1/125", "losing-only")
        assert Fraction(row["effective_stake"]) == stake and Fraction(row["rebate_ev"]) == ev + R * stake
        assert row["rebate_ev_decimal"] == _decimal(ev + R * stake, 10)
    text = invoke(*args, "--precision", "6")
    assert (f"rebate 0.8% (losing-only basis): effective stake {_decimal(stake, 6)} · EV with rebate"
            f" {_decimal(ev + R * stake, 6)} · house edge with rebate") in text
    assert "rebate" not in invoke("odds", "--shoe", SMALL, "--bet", "banker", "--format", "csv")


def _decimal(value: Fraction, places: int) -> str:
    """An exact rational rounded half away from zero, written independently of the package."""
    scaled = abs(value) * 10**places
    whole = int(scaled + Fraction(1, 2))
    sign = "-" if value < 0 and whole else ""
    text = str(whole).rjust(places + 1, "0")
    return f"{sign}{text[:-places]}.{text[-places:]}"


def test_eor_gives_the_ev_with_the_rebate_of_the_full_and_of_each_depleted_shoe():
    args = ["--decks", "1", "--bet", "banker", "--rebate", "1/125", "--rebate-basis", "non-refund"]
    data = json.loads(invoke("eor", *args, "--format", "json"))["bets"]["banker"]
    full = json.loads(invoke("odds", *args, "--format", "json"))["bets"]["banker"]["rebate"]
    assert data["rebate"] == full
    seven = next(row for row in data["effects"] if row["removed"] == "7")
    depleted = json.loads(invoke("odds", *args, "--remove", "7", "--format", "json"))["bets"]["banker"]["rebate"]
    assert seven["rebate"] == depleted
    rows = list(csv.DictReader(io.StringIO(invoke("eor", *args, "--format", "csv"))))
    assert [Fraction(r["rebate_ev"]) for r in rows[:1]] == [Fraction(full["ev"])]
    assert Fraction(next(r for r in rows if r["removed"] == "7")["rebate_ev"]) == Fraction(depleted["ev"])
    assert "EV with rebate" in invoke("eor", *args)


def test_track_shows_each_bet_with_its_rebate_and_a_rebate_can_make_it_favourable():
    out = invoke("track", "--decks", "1", "--bet", "banker", "--rebate", "5%", "--rebate-basis", "total-stake",
                 "--script", "-", stdin="7\n")
    steps = [json.loads(line) for line in out.splitlines()]
    for step, removed in zip(steps, ("", "7")):
        args = ["odds", "--decks", "1", "--bet", "banker", "--format", "json", *(["--remove", removed] * bool(removed))]
        odds = json.loads(invoke(*args))["bets"]["banker"]
        (bet,) = step["bets"]
        assert bet["ev"] == odds["ev"] and Fraction(bet["ev"]) < 0
        ev = Fraction(odds["ev"]) + Fraction(1, 20)
        assert bet["rebate"] == {"rate": "1/20", "basis": "total-stake", "effective_stake": "1", "ev": str(ev)}
        assert bet["favourable"] is True
    plain = json.loads(invoke("track", "--decks", "1", "--bet", "banker", "--script", "-", stdin="").splitlines()[0])
    assert "rebate" not in plain["bets"][0] and plain["bets"][0]["favourable"] is False


@slow
def test_report_shows_the_house_edge_with_the_rebate_in_markdown_and_xlsx(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    stake, ev = expected("banker", "standard")
    edge = -(ev + R * stake)
    args = ["report", "--shoe", SMALL, "--bet", "banker", "--bet", "tie", "--rebate", "0.8%"]
    CliRunner().invoke(cli, [*args, "--output", str(tmp_path / "r.md")])
    text = (tmp_path / "r.md").read_text()
    assert re.search(r"\| house edge/hand +\| with rebate +\| per resolved bet", text)
    assert str(edge) in text and '"rebate":{"basis":"standard","rate":"1/125"}' in text
    invoke(*args, "--output", str(tmp_path / "r.xlsx"))
    book = openpyxl.load_workbook(tmp_path / "r.xlsx")
    summary = list(book["Summary"].iter_rows(values_only=True))
    row = dict(zip(summary[0], summary[1]))
    assert row["bet"] == "banker" and Fraction(row["house edge with rebate exact"]) == edge
    assert Fraction(row["effective stake exact"]) == stake
    figures = {r[0]: r[2] for r in book["banker"].iter_rows(values_only=True) if r and r[0]}
    assert Fraction(figures["EV with the rebate 0.8% (standard basis)"]) == ev + R * stake


# ---------------------------------------------------------------------------------------------
# The lab: it plays the pays with the rebate.


def test_the_lab_decides_by_the_ev_with_the_rebate():
    from exactodds.lab.plan import SimulationPlan
    from exactodds.lab.pricing import ev_numerators

    rebate = Rebate(Fraction(1, 100))
    plan = SimulationPlan.from_options(Shoe.standard(1), bets=["banker", "player"], rebate=rebate)
    shoes = [Shoe.standard(1), Shoe.standard(1).remove("9,9,9,8"), Shoe.standard(1).remove("A,2,3,4,4,3"),
             Shoe.standard(1).remove("K,Q,J,T,5,5,5,6")]
    num, orderings, scale = ev_numerators(plan.rules, plan.pays, np.array([s.counts for s in shoes]))
    signs = set()
    for row, n, shoe in zip(num.tolist(), orderings.tolist(), shoes):
        for k, bet in enumerate(("banker", "player")):
            figures = analyze(shoe, bets=[bet]).bet(bet)
            with_rebate = figures.with_rebate(rebate).ev_with_rebate
            assert Fraction(int(row[k]), int(n) * scale) == with_rebate
            signs.add((figures.ev > 0, with_rebate > 0))
    assert (False, True) in signs  # a bet the rebate makes worth playing


def test_simulate_pays_the_rebate_on_every_bet_and_plays_at_a_smaller_edge():
    from exactodds.lab.plan import SimulationPlan
    from exactodds.lab.run import simulate

    def run(rebate: Rebate | None, bets: list[str], strategies: list[str]):
        plan = SimulationPlan.from_options(Shoe.standard(1), bets=bets, strategies=strategies, shoes=40, seed=7,
                                           rebate=rebate)
        return simulate(plan).figures()

    # Always betting the Tie, a 2% rebate on the whole stake pays exactly 2% of every coup dealt.
    rebate = Rebate(Fraction(1, 50), "total-stake")
    plain, paid = run(None, ["tie"], ["always"]), run(rebate, ["tie"], ["always"])
    f, g = plain[("always", "tie")], paid[("always", "tie")]
    assert g.coups == f.coups and g.units - f.units == Fraction(1, 50) * f.coups_per_shoe
    # Perfect play bets the Banker at any edge the rebate covers: more bets, each worth its EV with the rebate.
    plain, paid = run(None, ["banker"], ["perfect"]), run(Rebate(Fraction(1, 100)), ["banker"], ["perfect"])
    assert paid[("perfect", "banker")].bets > plain[("perfect", "banker")].bets
    assert paid[("perfect", "banker")].average_edge > 0


def test_simulate_json_states_the_rebate_and_its_house_edge_includes_it():
    data = json.loads(invoke("simulate", "--decks", "1", "--bet", "banker", "--shoes", "20", "--seed", "1",
                             "--workers", "1", "--quiet", "--rebate", "1/125", "--rebate-basis", "losing-only",
                             "--format", "json"))
    assert data["simulation"]["rebate"] == {"rate": "1/125", "basis": "losing-only"}
    banker = analyze(Shoe.standard(1), bets=["banker"]).bet("banker")
    edge = banker.with_rebate(Rebate(R, "losing-only")).house_edge
    assert data["results"]["perfect"]["banker"]["advantage_play"]["house_edge_no_count"] == str(edge)


@pytest.mark.parametrize(("first", "then"), [([], ["--rebate", "1%"]), (["--rebate", "1%"], [])])
def test_a_run_saved_with_another_rebate_is_not_resumed(tmp_path, first, then):
    base = ["simulate", "--decks", "1", "--bet", "tie", "--shoes", "20", "--seed", "2", "--workers", "1", "--quiet",
            "--output", str(tmp_path / "run.json")]
    invoke(*base, *first)
    assert "rebate differs" in one_error(*base, "--resume", *then)


@slow
def test_every_hold_figure_of_the_report_counts_the_rebate(tmp_path) -> None:
    """The blended hold, its variance and every band of hold after n hands, read back from the workbook, equal those
    made here from the outcomes' exact probabilities (``odds --format json``) and the rebate paid hand by hand:
    a Banker win earns it on its net pay 0.95, a push none, any other result on the whole stake (standard basis)."""
    import json

    from click.testing import CliRunner
    from openpyxl import load_workbook

    from exactodds.cli import cli

    rate, shares = Fraction(1, 100), {"banker": Fraction(1, 2), "player": Fraction(2, 5), "tie": Fraction(1, 10)}
    setup = ["--bet", "banker", "--bet", "player", "--bet", "tie", "--decks", "6"]
    full = json.loads(CliRunner().invoke(cli, ["odds", *setup, "--format", "json"]).stdout)
    laws = {}
    for bet, data in full["bets"].items():
        law = {}
        for o in data["outcomes"]:
            net = Fraction(o["net"])
            weight = 0 if net == 0 else net if bet == "banker" and net > 0 else 1
            law[net + rate * weight] = Fraction(o["probability"])
        laws[bet] = law
    mean = {bet: sum(x * p for x, p in law.items()) for bet, law in laws.items()}
    second = {bet: sum(x * x * p for x, p in law.items()) for bet, law in laws.items()}
    blended = -sum(w * mean[bet] for bet, w in shares.items())
    variance = sum(w * second[bet] for bet, w in shares.items()) - blended * blended
    path = tmp_path / "r.xlsx"
    out = CliRunner().invoke(cli, ["report", *setup, "--mix", "banker=0.5,player=0.4,tie=0.1", "--rebate", "1%",
                                   "--output", str(path)])
    assert out.exit_code == 0, out.output
    book = load_workbook(path)
    rows = {row[0]: row for row in book["Mix"].iter_rows(values_only=True) if row and row[0] is not None}
    assert Fraction(rows["blended hold"][2]) == blended and Fraction(rows["variance per hand"][2]) == variance
    for bet in shares:
        assert Fraction(rows[bet][4]) == -mean[bet]
    bands = [row for row in book["Mix"].iter_rows(values_only=True) if isinstance(row[0], int)]
    assert [Fraction(row[2]) for row in bands] == [blended] * 4
    for row in bands:  # the SD of the hold after n hands: √(variance / n)
        assert abs(row[3] - float(variance / row[0]) ** 0.5) < 1e-12
    banker = [row for row in book["banker"].iter_rows(values_only=True) if row and row[0] == 1_000_000]
    assert len(banker) == 1 and Fraction(banker[0][2]) == -mean["banker"]  # the band after a million hands


def test_the_law_with_the_rebate_has_the_rebated_ev_for_every_bet_and_basis() -> None:
    """The rebate added pay by pay (the hold's law) and the rebate by each outcome's effective stake (the EV with the
    rebate) are one rule: the law's mean is the EV with the rebate for every bet of the catalog and the live-studio
    games' multiplier bets, on every basis."""
    from exactodds.cards import Shoe
    from exactodds.games import find_game
    from exactodds.puntobanco.odds import analyze
    from exactodds.rebate import BASES, Rebate, law_with_rebate

    analyses = [analyze(Shoe.standard(8), bets=["all"])]
    lightning = find_game("lightning")
    analyses.append(lightning.price(Shoe.standard(8), None, lightning.settings_of({})))
    for analysis in analyses:
        for figures in analysis.bets:
            for basis in BASES:
                rebate = Rebate(Fraction(3, 200), basis)
                law = law_with_rebate(figures.bet, figures.pay_law, rebate)
                assert sum(law.values()) == 1
                mean = sum(pay * p for pay, p in law.items())
                assert mean == figures.with_rebate(rebate).ev_with_rebate, (figures.bet.id, basis)
