"""Multipliers on outcomes of a bets file: the EV and variance against the mixture of fixed-pay bets."""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections import Counter
from fractions import Fraction
from functools import cache
from math import perm

import pytest
from click.testing import CliRunner
from published_data import read_rows
from test_option import play

import exactodds as xo
from exactodds.cli import cli
from exactodds.puntobanco.bets import bets_from_text
from exactodds.tables.par import par_sheet_markdown

#: Baccarat values by rank, written here (tens and faces count 0).
RANK_VALUE = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}

BET = """
[bets.{id}]
description = "Player with a multiplier"
[[bets.{id}.outcome]]
id = "win"
when = {{ winner = "player" }}
pays = {pays}
{multiplier}
[[bets.{id}.outcome]]
id = "push"
when = {{ winner = "tie" }}
pays = 0
[[bets.{id}.outcome]]
id = "lose"
otherwise = true
pays = -1
"""
VALUES = (1, 2, 5)
PROBABILITIES = (Fraction(7, 10), Fraction(1, 5), Fraction(1, 10))


def _bet(pays, multiplier=""):
    (bet,) = bets_from_text(BET.format(id="b", pays=pays, multiplier=multiplier))
    return bet


@pytest.mark.parametrize("applies", ["pays", "return"])
def test_the_ev_and_variance_are_the_mixture_of_fixed_pays(applies):
    shoe = xo.Shoe.standard(1)
    line = f'multiplier = {{ values = [1, 2, 5], probabilities = ["7/10", "1/5", "1/10"], applies = "{applies}" }}'
    figures = xo.analyze(shoe, bets=[_bet(1, line)]).bets[0]
    ev = second = Fraction(0)
    for m, p in zip(VALUES, PROBABILITIES):
        pays = m if applies == "pays" else 2 * m - 1  # the return 2 (stake and win) times m, less the stake
        fixed = xo.analyze(shoe, bets=[_bet(pays)]).bets[0]
        ev += p * fixed.ev
        second += p * (fixed.variance + fixed.ev**2)
    assert figures.ev == ev and figures.variance == second - ev**2


def test_a_multiplier_of_one_changes_nothing():
    shoe = xo.Shoe.standard(2)
    one = xo.analyze(shoe, bets=[_bet(1, 'multiplier = { values = [1], probabilities = ["1"] }')]).bets[0]
    plain = xo.analyze(shoe, bets=["player"]).bet("player")
    assert (one.ev, one.variance) == (plain.ev, plain.variance)


@pytest.mark.parametrize(
    ("multiplier", "message"),
    [
        ('{ values = [1, 2], probabilities = ["1/2", "1/3"] }', "add up to 5/6, not 1"),
        ('{ values = [1, 2], probabilities = ["3/2", "-1/2"] }', "cannot be negative"),
        ('{ values = [1, 2], probabilities = ["1"] }', "2 values but 1 probabilities"),
        ('{ values = [-1], probabilities = ["1"] }', "cannot be negative"),
        ('{ values = [2], probabilities = ["1"], applies = "stake" }', "applies"),
        ('{ values = [2], chances = ["1"] }', "unknown key 'chances'"),
        ('"x2"', "must be a table"),
    ],
)
def test_bad_multipliers_are_one_clear_error(tmp_path, multiplier, message):
    path = tmp_path / "bad.toml"
    path.write_text(BET.format(id="b", pays=1, multiplier=f"multiplier = {multiplier}"))
    result = CliRunner().invoke(cli, ["odds", "--bets-file", str(path), "--bet", "b"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0], result.output
    assert "multiplier" in lines[0] or "Multiplier" in lines[0]


# ---------------------------------------------------------------------------------------------
# The hit frequency is P(net > 0): a ×0 (or a × small enough on the return) is a push or a loss.

TIE_X0 = """
[bets.t0]
description = "Tie 8:1 with a multiplier"
[[bets.t0.outcome]]
id = "win"
when = { winner = "tie" }
pays = 8
multiplier = { values = [0, 1, 3], probabilities = ["1/4", "1/2", "1/4"], applies = "pays" }
[[bets.t0.outcome]]
id = "lose"
otherwise = true
pays = -1
"""


def _published_tie_probability() -> Fraction:
    """P(tie) at 8 decks from WoO's count of ties (tests/data), over (416)P6 worked out here."""
    (row,) = [r for r in read_rows("published_counts.txt") if r.fields[0] == "8"]
    return Fraction(int(row.fields[3]), perm(416, 6))


def test_a_zero_multiplier_is_a_push_not_a_hit(tmp_path):
    """The issue's bet: P(net > 0) = 3/4·P(tie) (7.1367%, once printed 9.5156%); the ×0 quarter of the ties pushes."""
    tie = _published_tie_probability()
    (bet,) = bets_from_text(TIE_X0)
    analysis = xo.analyze(xo.Shoe.standard(8), bets=[bet])
    figures = analysis.bets[0]
    assert figures.hit_frequency == Fraction(3, 4) * tie
    assert figures.push_probability == Fraction(1, 4) * tie
    assert figures.house_edge_per_resolved_bet == figures.house_edge / (1 - Fraction(1, 4) * tie)
    path = tmp_path / "t0.toml"
    path.write_text(TIE_X0)
    table = CliRunner().invoke(cli, ["odds", "--bets-file", str(path), "--bet", "t0"])
    assert table.exit_code == 0 and table.output.rstrip().endswith("hit frequency 7.13669760%"), table.output
    odds_json = CliRunner().invoke(cli, ["odds", "--bets-file", str(path), "--bet", "t0", "--format", "json"])
    data = json.loads(odds_json.stdout)  # stderr warns: a bets file's bet in the player's favour
    assert Fraction(data["bets"]["t0"]["hit_frequency"]) == Fraction(3, 4) * tie
    assert data["bets"]["t0"]["hit_frequency_decimal"] == "0.0713669760"
    assert "- Hit frequency: 7.13669760% (1 in 14.01)" in par_sheet_markdown(analysis)
    eor = CliRunner().invoke(cli, ["eor", "--bets-file", str(path), "--bet", "t0", "--format", "csv"])
    full = next(r for r in csv.DictReader(io.StringIO(eor.stdout)) if r["removed"] == "")
    assert Fraction(full["hits"]) == Fraction(3, 4) * tie * perm(416, 6)


def test_a_multiplier_cannot_lose_more_than_the_stake(tmp_path):
    """×2 on a losing pay of -1 would take two stakes: refused, as ``pays = -2`` is (a half loss ×2 is allowed)."""
    path = tmp_path / "loss.toml"
    lose = '[[bets.b.outcome]]\nid = "lose"\notherwise = true\npays = "{pays}"\n{multiplier}\n'
    head = '[bets.b]\ndescription = "b"\n[[bets.b.outcome]]\nid = "win"\nwhen = { winner = "player" }\npays = 1\n'
    for pays, values, ok in (("-1", "[0, 2]", False), ("-1/2", "[1, 2]", True), ("-1", "[0, 1]", True)):
        multiplier = f'multiplier = {{ values = {values}, probabilities = ["1/2", "1/2"] }}'
        path.write_text(head + lose.format(pays=pays, multiplier=multiplier))
        result = CliRunner().invoke(cli, ["odds", "--decks", "1", "--bets-file", str(path), "--bet", "b"])
        if ok:
            assert result.exit_code == 0, result.output
        else:
            assert result.exit_code == 2 and result.output.startswith("Error:"), result.output
            assert "more than the stake" in result.output and result.output.count("\n") == 1


def test_the_reports_top_award_is_the_multipliers_largest_draw():
    """Tie 8:1 with ×0/×1/×3: the top award is 24 to 1, hit with P(tie)/4 (once shown as 8:1 with P(tie))."""
    from exactodds.report import make_report
    from exactodds.report.document import summary_rows

    tie = _published_tie_probability()
    (bet,) = bets_from_text(TIE_X0)
    from exactodds.games.punto_banco import GAME

    report = make_report(GAME, GAME.settings_of({}), xo.Shoe.standard(8), [bet])
    (sheet,) = report.sheets
    assert (sheet.top_award.net, sheet.top_award.probability) == (24, tie / 4)
    (row,) = summary_rows(report.sheets, report.min_rtp, 4)
    assert row[1] == "24 to 1" and row[-1] == "yes"
    assert row[-2] == "42.04"  # 1 in 4/P(tie) = 42.04 hands, not the tie's 1 in 10.51


def _outcome(side: str, pays: str, multiplier: str) -> str:
    return f'[[bets.b.outcome]]\nid = "{side}"\nwhen = {{ winner = "{side}" }}\npays = "{pays}"\n{multiplier}\n'


def _multiplier(values: tuple[str, ...], probabilities: tuple[str, ...], applies: str) -> str:
    return f"multiplier = {{ values = {list(values)}, probabilities = {list(probabilities)}, applies = '{applies}' }}"


# Per side (the coup's winner): its pay, then a multiplier (values, probabilities, applies) or None.
CASES = {
    "x0-on-the-pay": {"player": ("1", (("0", "1", "3"), ("1/4", "1/2", "1/4"), "pays")), "banker": ("-1", None),
                      "tie": ("0", None)},
    "x0-and-a-half-on-the-return": {"player": ("1", (("0", "1/2", "2"), ("1/3", "1/3", "1/3"), "return")),
                                    "banker": ("-1", None), "tie": ("0", (("0", "2"), ("1/2", "1/2"), "return"))},
    "on-a-loss": {"player": ("1", None), "banker": ("-1", (("0", "1/2"), ("1/5", "4/5"), "pays")), "tie": ("8", None)},
    "a-half-loss-turned-a-win": {"player": ("-1/2", (("1", "3"), ("2/3", "1/3"), "return")),
                                 "banker": ("1/2", (("0", "4"), ("1/2", "1/2"), "pays")), "tie": ("0", None)},
}  # fmt: skip
SMALL = {"A": 1, "2": 1, "3": 1, "5": 1, "8": 1, "9": 1, "K": 2}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_hit_and_push_frequencies_against_a_literal_recount(case):
    """Every ordered six-card draw of a small shoe dealt by a textbook deal, each multiplier value weighed by hand."""
    sides = CASES[case]
    text = '[bets.b]\ndescription = "b"\n' + "".join(
        _outcome(side, pays, "" if m is None else _multiplier(*m)) for side, (pays, m) in sides.items()
    )
    (bet,) = bets_from_text(text)
    figures = xo.analyze(xo.Shoe.from_counts(SMALL), bets=[bet]).bets[0]
    # The table's pays column shows a multiplier on any outcome, a loss included (it once showed "lose" alone).
    assert [("×" in o.pays) for o in bet.outcomes] == [m is not None for _, m in sides.values()]
    winners = _winners()
    hits = pushes = ev = Fraction(0)
    for winner, count in winners.items():
        pays, m = sides[winner]
        net = Fraction(pays)
        drawn = [(Fraction(1), Fraction(1))] if m is None else [(Fraction(v), Fraction(p)) for v, p in zip(m[0], m[1])]
        for value, p in drawn:
            paid = net * value if m is None or m[2] == "pays" else (net + 1) * value - 1
            hits += count * p * (paid > 0)
            pushes += count * p * (paid == 0)
            ev += count * p * paid
    n = sum(winners.values())
    assert n == perm(8, 6)
    assert (figures.hit_frequency, figures.push_probability, figures.ev) == (hits / n, pushes / n, ev / n)


@cache
def _winners() -> Counter[str]:
    """The winner of every ordered six-card draw of the small shoe (its cards told apart), by a textbook deal."""
    values = [v for rank, n in SMALL.items() for v in [RANK_VALUE[rank]] * n]
    side = {1: "player", -1: "banker", 0: "tie"}
    return Counter(side[play(cards, True)] for cards in itertools.permutations(values, 6))
