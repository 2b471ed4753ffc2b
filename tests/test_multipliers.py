"""Multipliers on outcomes of a bets file: the EV and variance against the mixture of fixed-pay bets."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

import exactodds as xo
from exactodds.bets import bets_from_text
from exactodds.cli import cli

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
