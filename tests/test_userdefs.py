"""Bets and rules from TOML files: the examples match the built-ins exactly, and every bad file gets a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import exactodds as xo
from exactodds.cli import cli
from exactodds.userdefs import EXAMPLES, load_bets, load_rules, parse_bets, parse_rules

SHOES = [xo.Shoe.standard(8), xo.Shoe.standard(6).remove("7,7,8,K,3")]


def counts(analysis: xo.Analysis) -> list[list[int]]:
    return [[o.count for o in f.outcomes] for f in analysis.bets]


def test_the_examples_exist():
    assert {p.name for p in EXAMPLES.glob("*.toml")} >= {
        "dragon-7.toml", "standard-rules.toml", "banker-3-stands-on-9.toml", "tiger-bets.toml"
    }  # fmt: skip


@pytest.mark.parametrize("shoe", SHOES, ids=["8 decks", "6 decks less 5 cards"])
@pytest.mark.parametrize("rules", [xo.PUNTO_BANCO, xo.EZ], ids=lambda r: r.name)
def test_the_dragon_seven_file_is_the_built_in_bet(shoe, rules):
    (mine,) = load_bets(EXAMPLES / "dragon-7.toml")
    built_in = xo.find_bet("dragon-7", rules)
    a = xo.analyze(shoe, rules, [built_in, mine])
    ours, theirs = a.bet("my-dragon-7"), a.bet("dragon-7")
    assert [(o.outcome.id, o.outcome.event.name, o.outcome.net, o.count) for o in ours.outcomes] == [
        (o.outcome.id, o.outcome.event.name, o.outcome.net, o.count) for o in theirs.outcomes
    ]
    assert (ours.ev, ours.variance, ours.hit_frequency) == (theirs.ev, theirs.variance, theirs.hit_frequency)
    assert ours.outcomes[0].count == 112633011329024 or shoe != SHOES[0]


@pytest.mark.parametrize("shoe", SHOES, ids=["8 decks", "6 decks less 5 cards"])
def test_the_standard_rules_file_is_punto_banco(shoe):
    rules = load_rules(EXAMPLES / "standard-rules.toml")
    assert rules.tableau == xo.STANDARD_TABLEAU
    assert rules.header() == xo.PUNTO_BANCO.header().replace("punto-banco", "standard-rules")
    mine, theirs = xo.analyze(shoe, rules), xo.analyze(shoe, xo.PUNTO_BANCO)
    assert counts(mine) == counts(theirs)
    assert [f.ev for f in mine.bets] == [f.ev for f in theirs.bets]
    assert [f.bet.description for f in mine.bets] == [f.bet.description for f in theirs.bets]


def test_a_house_rule_change_is_priced_with_no_code():
    rules = load_rules(EXAMPLES / "banker-3-stands-on-9.toml")
    assert rules.header().endswith("EZ push: off · Banker 3 stands on a Player third card 9")
    shoe = xo.Shoe.standard(8)
    compiled = xo.analyze(shoe, rules, ["player", "banker", "tie"])
    reference = xo.analyze(shoe, rules, ["player", "banker", "tie"], method="reference")
    assert counts(compiled) == counts(reference)
    standard = xo.analyze(shoe, xo.PUNTO_BANCO, ["player", "banker", "tie"])
    assert compiled.bet("player").ev > standard.bet("player").ev  # the Banker gives up a draw that helped it
    assert sum(compiled.bet("banker").outcomes[i].count for i in range(3)) == shoe.orderings()


def test_the_tiger_example_and_a_rules_file_with_an_override():
    tiger, tie = load_bets(EXAMPLES / "tiger-bets.toml")
    assert (tiger.id, [o.id for o in tie.outcomes]) == ("big-tiger", ["win", "push", "lose"])
    text = """
name = "my-super-6"
commission = 0
[[banker_override]]
id = "win-on-6"
name = "a total of 6"
when = { banker_total = 6 }
pays = "1/2"
"""
    rules = parse_rules(text, "mine.toml")
    super6 = xo.find_rules("super-6")
    shoe = xo.Shoe.standard(8)
    assert counts(xo.analyze(shoe, rules, ["banker"])) == counts(xo.analyze(shoe, super6, ["banker"]))
    assert rules.header() == super6.header().replace("super-6", "my-super-6")
    assert parse_rules('base = "ez"\ntie_pays = 9', "x.toml").header() == (
        "x · banker 1:1 (no commission) · tie 9:1 · EZ push: on"
    )


GOOD_BET = """\
[bets.b]
description = "test"

[[bets.b.outcome]]
id = "win"
when = { winner = "banker" }
pays = 1

[[bets.b.outcome]]
id = "lose"
otherwise = true
pays = -1
"""

BAD_BETS = [
    ("[bets.b\nx = 1\n", r"bets\.toml: not valid TOML: .*\(at line 1"),
    (GOOD_BET.replace("winner = ", "winnner = "), r"bets\.toml:6: bet 'b', outcome 'win': unknown fact 'winnner'"),
    (
        GOOD_BET.replace('"banker" }', '"dealer" }'),
        r"bets\.toml:6: bet 'b', outcome 'win': bad value \"dealer\" for fact 'winner'",
    ),
    (
        GOOD_BET.replace('winner = "banker"', "banker_total = 10"),
        r"bets\.toml:6: bet 'b', outcome 'win': bad value 10 for fact 'banker_total'",
    ),
    (
        GOOD_BET.replace('winner = "banker"', 'natural = "yes"'),
        r"bets\.toml:6: bet 'b', outcome 'win': bad value \"yes\" for fact 'natural'",
    ),
    (
        GOOD_BET.replace("pays = 1\n", 'pays = "lots"\n'),
        r"bets\.toml:7: bet 'b', outcome 'win': a pay must be a number .*not 'lots'",
    ),
    (GOOD_BET.replace("pays = 1\n", "pays = true\n"), r"bets\.toml:7: bet 'b', outcome 'win': a pay must be a number"),
    (GOOD_BET.replace("pays = 1\n", "pays = -2\n"), r"bets\.toml:7: .*cannot lose more than the stake"),
    (
        GOOD_BET.replace("otherwise = true", 'when = { winner = ["banker", "tie"] }'),
        r"bets\.toml:9: bet 'b', outcome 'lose': outcomes 'win' and 'lose' overlap: both settle the coup Player",
    ),
    (
        GOOD_BET.replace("otherwise = true", 'when = { winner = "tie" }'),
        r"bets\.toml:1: bet 'b': no outcome settles the coup Player \d with \d cards, Banker \d .*otherwise = true",
    ),
    (GOOD_BET.replace("description", "descripton"), r"bets\.toml:2: bet 'b': unknown key 'descripton'"),
    (GOOD_BET.replace('id = "lose"', 'id = "win"'), r"bets\.toml:10: bet 'b', outcome 'win': two outcomes share"),
    (GOOD_BET.replace("pays = -1\n", ""), r"bets\.toml:9: bet 'b', outcome 'lose': each outcome needs pays"),
    (
        GOOD_BET.replace("otherwise = true", 'otherwise = true\nwhen = { winner = "tie" }'),
        r"bets\.toml:9: .*either when = \{ … \} or otherwise = true",
    ),
    (GOOD_BET.replace("[bets.b]", "[bets.B]").replace("bets.b.", "bets.B."), r"bets\.toml:1: bet 'B': a bet id is"),
    ('title = "x"\n', r"bets\.toml:1: key 'title': a bets file holds only \[bets\.ID\] tables"),
    ("", r"bets\.toml: no bets"),
    (GOOD_BET.split('[[bets.b.outcome]]\nid = "lose"')[0], r"bets\.toml:1: bet 'b': a bet needs at least two"),
]


BAD_BETS += [
    # TOML floats that are no number (inf, nan; 1e400 reads as inf) and numbers too large to work with
    (GOOD_BET.replace("pays = 1\n", "pays = inf\n"), r"bets\.toml:7: .*a pay must be a finite number, not inf"),
    (GOOD_BET.replace("pays = 1\n", "pays = nan\n"), r"bets\.toml:7: .*a pay must be a finite number, not nan"),
    (GOOD_BET.replace("pays = 1\n", "pays = 1e400\n"), r"bets\.toml:7: .*at most 100 digits, not 1e400"),
    (GOOD_BET.replace("pays = 1\n", "pays = 1e300\n"), r"bets\.toml:7: .*a pay must be a number of at most 100 digits"),
    (GOOD_BET.replace("pays = 1\n", 'pays = "1e999999999"\n'), r"bets\.toml:7: .*a pay must be a number"),
    (GOOD_BET.replace("pays = 1\n", "pays = " + "9" * 5000 + "\n"), r"bets\.toml: not valid TOML: a number has too"),
]


@pytest.mark.parametrize(("text", "message"), BAD_BETS)
def test_bad_bets_files(text, message):
    with pytest.raises(xo.ExactOddsError, match=message):
        parse_bets(text, "bets.toml")


GOOD_RULES = (EXAMPLES / "standard-rules.toml").read_text(encoding="utf-8")

BAD_RULES = [
    ('name = "x"\nname = "y"\n', r"rules\.toml: not valid TOML"),
    ("comission = 0.04\n", r"rules\.toml:1: key 'comission': unknown key"),
    ('commission = "lots"\n', r"rules\.toml:1: commission: malformed commission"),
    ("commission = 1.5\n", r"rules\.toml:1: commission: the commission must be at least 0% and below 100%"),
    ("tie_pays = 0\n", r"rules\.toml:1: tie_pays: the Tie must pay more than 0"),
    ('base = "vegas"\n', r"rules\.toml:1: base: unknown rule set 'vegas'"),
    ('ez_push = "yes"\n', r"rules\.toml:1: ez_push: ez_push must be true or false"),
    (
        GOOD_RULES.replace('draws = "D D D D D D S S"', 'draws = "D D D D D D S"'),
        r"rules\.toml:\d+: \[player\] draws: write 8 letters, D \(draws\) or S \(stands\)",
    ),
    (
        GOOD_RULES.replace('3 = "D D D D D D D D S D | D"', '3 = "D D D D D D D D X D | D"'),
        r"rules\.toml:32: \[banker.draws\] row 3: write 11 letters",
    ),
    (
        GOOD_RULES.replace('7 = "S S S S S S S S S S | S"\n', ""),
        r"rules\.toml:\d+: \[banker.draws\]: missing rows 7: give one row per Banker two-card total 0 to 7",
    ),
    (
        GOOD_RULES.replace('7 = "S S S S S S S S S S | S"\n', '7 = "S S S S S S S S S S | S"\n8 = "S"\n'),
        r"\[banker.draws\]: unknown rows 8",
    ),
    (
        '[[banker_override]]\nid = "x"\nname = "y"\nwhen = { banker_total = 11 }\npays = 0\n',
        r"rules\.toml:1: banker_override 1: bad value 11 for fact 'banker_total'",
    ),
    ('[[banker_override]]\nid = "x"\nname = "y"\npays = 0\n', r"rules\.toml:1: banker_override 1: an override has"),
]


BAD_RULES += [
    ("tie_pays = inf\n", r"rules\.toml:1: tie_pays: a pay must be a finite number, not inf"),
    ("tie_pays = nan\n", r"rules\.toml:1: tie_pays: a pay must be a finite number, not nan"),
    ('commission = "1e999999999%"\n', r"rules\.toml:1: commission: malformed commission"),
]


@pytest.mark.parametrize(("text", "message"), BAD_RULES)
def test_bad_rules_files(text, message):
    with pytest.raises(xo.ExactOddsError, match=message):
        parse_rules(text, "rules.toml")


def test_cli_files(tmp_path: Path):
    runner = CliRunner()
    result = runner.invoke(
        cli, ["odds", "--bets-file", str(EXAMPLES / "dragon-7.toml"), "--bet", "dragon-7", "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    rows = [line.split(",") for line in result.stdout.splitlines()[1:]]
    assert [r[0] for r in rows] == ["dragon-7", "dragon-7", "my-dragon-7", "my-dragon-7"]
    assert rows[0][2:] == rows[2][2:] and rows[1][2:] == rows[3][2:]

    result = runner.invoke(cli, ["odds", "--rules-file", str(EXAMPLES / "banker-3-stands-on-9.toml"), "--bet", "tie"])
    assert result.exit_code == 0, result.output
    assert "Banker 3 stands on a Player third card 9" in result.stdout.splitlines()[0]

    result = runner.invoke(cli, ["odds", "--rules", "ez", "--rules-file", str(EXAMPLES / "standard-rules.toml")])
    assert result.exit_code == 2 and "either --rules or --rules-file" in result.stderr

    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD_BET.replace("winner = ", "winnner = "), encoding="utf-8")
    result = runner.invoke(cli, ["odds", "--bets-file", str(bad)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {bad}:6: bet 'b', outcome 'win': unknown fact 'winnner': the facts are " + (
        ", ".join(xo.facts.FACTS) + "\n"
    )
    result = runner.invoke(cli, ["odds", "--bets-file", str(tmp_path / "missing.toml")])
    assert result.exit_code == 2 and "cannot read" in result.stderr

    clash = tmp_path / "clash.toml"
    clash.write_text(GOOD_BET.replace("bets.b", "bets.tie"), encoding="utf-8")
    result = runner.invoke(cli, ["odds", "--bet", "tie", "--bets-file", str(clash)])
    assert result.exit_code == 2 and "two different bets have the id 'tie'" in result.stderr

    result = runner.invoke(cli, ["facts"])
    assert result.exit_code == 0 and "banker_suited_pair" in result.stdout
