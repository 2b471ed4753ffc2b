"""Bets and rules from TOML files: the examples match the built-ins exactly, and every bad file gets a clear error."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow, sweep

import exactodds as xo
from exactodds.cli import cli
from exactodds.puntobanco.coup import ALL_STATES, CoupDistribution
from exactodds.puntobanco.engine import enumerate_coups
from exactodds.puntobanco.rules import EZ, STANDARD_TABLEAU, Tableau
from exactodds.puntobanco.userdefs import load_bets, load_rules, parse_bets, parse_rules

#: The example files of the repository (not shipped in the package: found from the checkout).
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

SHOES = [xo.Shoe.standard(8), xo.Shoe.standard(6).remove("7,7,8,K,3")]


def counts(analysis: xo.Analysis) -> list[list[int]]:
    return [[o.count for o in f.outcomes] for f in analysis.bets]


def test_the_examples_exist():
    assert {p.name for p in EXAMPLES.glob("*.toml")} >= {
        "dragon-7.toml", "standard-rules.toml", "banker-3-stands-on-9.toml", "tiger-bets.toml"
    }  # fmt: skip


@pytest.mark.parametrize("shoe", SHOES, ids=["8 decks", "6 decks less 5 cards"])
@pytest.mark.parametrize("rules", [xo.PUNTO_BANCO, EZ], ids=lambda r: r.name)
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
    assert rules.tableau == STANDARD_TABLEAU
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
    assert (tiger.id, [o.id for o in tie.outcomes]) == ("my-big-tiger", ["win", "push", "lose"])
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
    assert result.stderr.startswith(f"Error: {bad}:6: bet 'b', outcome 'win': unknown fact 'winnner': did you mean"
                                    " winner? Valid facts are winner, ")
    assert result.stderr.endswith(", … (exactodds facts lists them)\n") and len(result.stderr.splitlines()) == 1
    result = runner.invoke(cli, ["odds", "--bets-file", str(tmp_path / "missing.toml")])
    assert result.exit_code == 2 and "cannot read" in result.stderr

    clash = tmp_path / "clash.toml"
    clash.write_text(GOOD_BET.replace("bets.b", "bets.tie"), encoding="utf-8")
    result = runner.invoke(cli, ["odds", "--bet", "tie", "--bets-file", str(clash)])  # a catalog id: refused when read
    assert result.exit_code == 2 and result.stderr == (
        f"Error: {clash}:1: bet 'tie': the id 'tie' is a bet of the game's own (--bet tie prices it): give yours"
        " another id\n"
    )

    result = runner.invoke(cli, ["facts"])
    assert result.exit_code == 0 and "banker_suited_pair" in result.stdout


# --- Banker pay overrides that overlap: the first that matches settles the coup -------------------

OVERLAPPING_RULES = """\
base = "ez"

[[banker_override]]
id = "seven-pays-half"
name = "a total of 7"
when = { banker_total = 7 }
pays = 0.5

[[banker_override]]
id = "six-or-seven-pays-2"
name = "a total of 6 or 7"
when = { banker_total = [6, 7] }
pays = 2
"""


def _first_match_banker(state: xo.CoupState) -> Fraction:
    """The Banker bet of OVERLAPPING_RULES settled by hand: the EZ push, then each override in order."""
    if state.player_total > state.banker_total:
        return Fraction(-1)
    if state.player_total == state.banker_total:
        return Fraction(0)
    if state.banker_cards == 3 and state.banker_total == 7:
        return Fraction(0)  # EZ: a three-card 7 pushes, and comes first
    if state.banker_total == 7:
        return Fraction(1, 2)
    if state.banker_total == 6:
        return Fraction(2)
    return Fraction(1)  # EZ: no commission


@cache
def _walk(shoe: xo.Shoe, tableau: Tableau) -> CoupDistribution:
    """The reference walk of a shoe, made once for both methods' tests."""
    return enumerate_coups(shoe, tableau)


@pytest.mark.parametrize("method", ["compiled", "reference"])
@pytest.mark.parametrize("shoe", sweep([xo.Shoe.standard(1), xo.Shoe.standard(8).remove("7,7,6,K")]), ids=["1", "8-4"])
def test_overlapping_banker_overrides_first_match_wins(shoe, method):
    rules = parse_rules(OVERLAPPING_RULES, "overlap.toml")
    figures = xo.analyze(shoe, rules, ["banker"], method=method).bet("banker")
    dist = _walk(shoe, rules.tableau)
    expected_ev = sum((n * _first_match_banker(s) for s, n in dist.items()), Fraction(0)) / dist.total
    assert figures.ev == expected_ev
    by_id = {o.outcome.id: o.count for o in figures.outcomes}
    assert by_id == {
        "win": sum(n for s, n in dist.items() if s.winner == "banker" and s.banker_total not in (6, 7)),
        "push-three-card-7": sum(n for s, n in dist.items() if s.winner == "banker" and (s.banker_cards,
                                                                                        s.banker_total) == (3, 7)),
        "seven-pays-half": sum(n for s, n in dist.items() if s.winner == "banker" and (s.banker_cards,
                                                                                      s.banker_total) == (2, 7)),
        "six-or-seven-pays-2": sum(n for s, n in dist.items() if s.winner == "banker" and s.banker_total == 6),
        "push": sum(n for s, n in dist.items() if s.winner == "tie"),
        "lose": sum(n for s, n in dist.items() if s.winner == "player"),
    }  # fmt: skip
    names = {o.outcome.id: o.outcome.event.name for o in figures.outcomes}
    assert names["seven-pays-half"] == "Banker wins with a total of 7, not with a three-card 7"
    assert names["six-or-seven-pays-2"] == (
        "Banker wins with a total of 6 or 7, not with a three-card 7 or a total of 7"
    )


@pytest.mark.parametrize(
    ("bad_id", "message"),
    [
        ("Bad Id!", "an override id is lower-case letters, digits and dashes"),
        ("", "an override id is lower-case letters, digits and dashes"),
        ("-x", "an override id is lower-case letters, digits and dashes"),
        ("win", "the id 'win' is taken: give each override its own id, not win, push, lose or push-three-card-7"),
        ("push-three-card-7", "the id 'push-three-card-7' is taken"),
    ],
)
def test_override_ids_are_checked_like_bet_ids(bad_id, message):
    text = OVERLAPPING_RULES.replace('id = "seven-pays-half"', f'id = "{bad_id}"')
    with pytest.raises(xo.ExactOddsError, match=rf"^overlap\.toml:4: banker_override 1: {re.escape(message)}"):
        parse_rules(text, "overlap.toml")
    twice = OVERLAPPING_RULES.replace('id = "six-or-seven-pays-2"', 'id = "seven-pays-half"')
    with pytest.raises(xo.ExactOddsError, match=r"^overlap\.toml:10: banker_override 2: the id 'seven-pays-half' is"):
        parse_rules(twice, "overlap.toml")


# --- hostile files: only regular files, of bounded size and nesting, with bounded counts -----------


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a real process, killed after 30 s: a hang fails the test instead of stalling it."""
    return subprocess.run(
        [sys.executable, "-m", "exactodds", *args],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=Path(__file__).parents[1],
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="needs FIFOs and /dev/zero")
def test_pipes_and_devices_are_refused_at_once(tmp_path: Path):
    fifo = tmp_path / "bets.fifo"
    os.mkfifo(fifo)  # no writer: reading it would wait for ever
    # Each file with each option in the slow profile; the quick run gives each file to one option, the pipe to both.
    cases = [(fifo, "a pipe", "--bets-file"), (fifo, "a pipe", "--rules-file"),
             (Path("/dev/zero"), "a device", "--rules-file"), (Path("/dev/urandom"), "a device", "--bets-file")]
    if is_slow():
        cases += [(Path("/dev/zero"), "a device", "--bets-file"), (Path("/dev/urandom"), "a device", "--rules-file")]
    for path, kind, option in cases:
        result = _run("odds", option, str(path), "--bet", "tie")
        assert result.returncode == 2 and result.stdout == "", (path, result.stderr)
        assert result.stderr.startswith(f"Error: cannot read {path}: it is {kind}")
        assert result.stderr.endswith("not a regular file\n") and result.stderr.count("\n") == 1
    with pytest.raises(xo.ExactOddsError, match=r"cannot read .*: it is a directory, not a regular file"):
        load_bets(tmp_path)


def test_files_too_large_or_not_utf8_are_refused(tmp_path: Path):
    from exactodds.tomldata import MAX_FILE_BYTES

    big = tmp_path / "big.toml"
    big.write_bytes(GOOD_BET.encode() + b"#" * (MAX_FILE_BYTES - len(GOOD_BET)))
    assert len(load_bets(big)) == 1  # exactly the limit: read
    big.write_bytes(GOOD_BET.encode() + b"#" * (MAX_FILE_BYTES + 1 - len(GOOD_BET)))
    with pytest.raises(xo.ExactOddsError, match=r"big\.toml: larger than 1,048,576 bytes, the most a bets or rules"):
        load_bets(big)
    with pytest.raises(xo.ExactOddsError, match=r"larger than 1,048,576 bytes"):
        load_rules(big)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(GOOD_BET.replace("test", "caf\u00e9").encode("latin-1"))
    with pytest.raises(xo.ExactOddsError, match=r"^cannot read .*latin\.toml: not UTF-8 text \(byte 28\)$"):
        load_bets(latin)


@pytest.mark.parametrize(
    "value",
    ["[" * 2000 + "]" * 2000, "{a=" * 50000 + "1" + "}" * 50000, "[" * 40 + "]" * 40, "{a=" * 40 + "1" + "}" * 40],
    ids=["2000 arrays", "50000 tables", "40 arrays", "40 tables"],
)
def test_deep_nesting_is_one_error(value):
    for parse in (parse_bets, parse_rules):
        with pytest.raises(xo.ExactOddsError, match=r"^f\.toml: not valid here: arrays or tables nest more than 32"):
            parse(f"x = {value}\n", "f.toml")


def _many_outcomes(n: int) -> str:
    """A bet with n outcomes: one per coup state (pays 1), the rest otherwise (pays -1)."""
    lines = ["[bets.big]"]
    for k, state in enumerate(ALL_STATES[: n - 1]):
        facts = ", ".join(f"{name} = {str(value).lower()}" for name, value in zip(FACT_NAMES, state))
        lines += ["[[bets.big.outcome]]", f'id = "o{k}"', f"when = {{ {facts} }}", "pays = 1"]
    lines += ["[[bets.big.outcome]]", 'id = "rest"', "otherwise = true", "pays = -1"]
    return "\n".join(lines) + "\n"


FACT_NAMES = ("player_total", "banker_total", "player_cards", "banker_cards", "player_pair", "banker_pair",
              "player_suited_pair", "banker_suited_pair")  # fmt: skip


def test_a_long_pay_table_is_checked_in_one_pass(monkeypatch):
    """1,000 outcomes: each condition read once as a set of states (it was each outcome against each state, twice)."""
    from exactodds.puntobanco import facts

    reads = 0

    def counted(fact: facts.Fact) -> facts.Fact:
        def read(state: xo.CoupState) -> object:
            nonlocal reads
            reads += 1
            return fact.read(state)

        return fact._replace(read=read)

    monkeypatch.setattr(facts, "FACTS", {name: counted(f) for name, f in facts.FACTS.items()})
    facts.fact_masks.cache_clear()
    try:
        start = time.perf_counter()
        (bet,) = parse_bets(_many_outcomes(1000), "big.toml")
        elapsed = time.perf_counter() - start
    finally:
        facts.fact_masks.cache_clear()
    assert len(bet.outcomes) == 1000 and bet.needs_suits
    assert reads <= len(facts.FACTS) * len(ALL_STATES)  # the fact tables, once; before: over 7 million reads
    assert elapsed < 5  # about 0.3 s (before: 5 s and more)


def test_too_many_outcomes_or_bets_is_one_error_at_once():
    start = time.perf_counter()
    with pytest.raises(xo.ExactOddsError, match=r"^big\.toml:1: bet 'big': 1,001 outcomes: a bet may have at most"):
        parse_bets(_many_outcomes(1001), "big.toml")
    many = "".join(GOOD_BET.replace("bets.b", f"bets.b{k}") for k in range(1001))
    with pytest.raises(xo.ExactOddsError, match=r"^many\.toml: 1,001 bets: a bets file may define at most 1,000 bets$"):
        parse_bets(many, "many.toml")
    assert time.perf_counter() - start < 5
    overrides = "".join(
        f'[[banker_override]]\nid = "o{k}"\nname = "n"\nwhen = {{ banker_total = 7 }}\npays = 1\n' for k in range(1001)
    )
    with pytest.raises(xo.ExactOddsError, match=r"^r\.toml:1: banker_override: 1,001 overrides: a rules file may have"):
        parse_rules(overrides, "r.toml")


# --- numbers: read exactly as written, in ASCII digits, bounded --------------------------------------

HOSTILE_PAYS = [
    ('"1e\u0669\u0669\u0669\u0669\u0669\u0669\u0669\u0669"', "a pay must be a number"),  # Arabic-Indic nines
    ('"\u0668"', "a pay must be a number"),  # Arabic-Indic 8
    ('"1_0"', "a pay must be a number"),
    ('"8\u00a0"', "a pay must be a number"),
    ("1e308", "a pay must be a number of at most 100 digits, not 1e308"),
    ("1e-400", "a pay must be a number of at most 100 digits, not 1e-400"),  # was read as 0.0: a push
    ("-1e-400", "a pay must be a number of at most 100 digits, not -1e-400"),
    ("-inf", "a pay must be a finite number, not -inf"),
    ("9" * 101, "a pay must be a number of at most 100 digits"),
]


@pytest.mark.parametrize(("pays", "message"), HOSTILE_PAYS)
def test_hostile_numbers_in_bets_files_are_refused_at_once(pays, message):
    start = time.perf_counter()
    with pytest.raises(xo.ExactOddsError, match=rf"^bets\.toml:7: bet 'b', outcome 'win': {re.escape(message)}"):
        parse_bets(GOOD_BET.replace("pays = 1\n", f"pays = {pays}\n"), "bets.toml")
    with pytest.raises(xo.ExactOddsError, match=rf"^rules\.toml:1: tie_pays: {re.escape(message)}"):
        parse_rules(f"tie_pays = {pays}\n", "rules.toml")
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("commission", ['"\u0665%"', '"1_0%"', '"1e\u0669\u0669\u0669\u0669\u0669%"', "1e308", "nan"])
def test_hostile_commissions_are_refused_at_once(commission):
    start = time.perf_counter()
    with pytest.raises(xo.ExactOddsError, match=r"^rules\.toml:1: commission: malformed commission"):
        parse_rules(f"commission = {commission}\n", "rules.toml")
    assert time.perf_counter() - start < 1


def test_toml_floats_are_the_decimals_as_written():
    exact = parse_bets(GOOD_BET.replace("pays = 1\n", "pays = 0.95000000000000000001\n"), "b.toml")[0]
    assert exact.outcomes[0].net == Fraction(95000000000000000001, 10**20)  # a binary float would say 0.95
    assert parse_bets(GOOD_BET.replace("pays = 1\n", "pays = 1_000.5\n"), "b.toml")[0].outcomes[0].net == Fraction(
        2001, 2
    )
    rules = parse_rules("commission = 0.049999999999999999999\ntie_pays = 8.000000000000000000001\n", "r.toml")
    assert rules.commission == Fraction(49999999999999999999, 10**21)
    assert rules.tie_pays == 8 + Fraction(1, 10**21)


# --- the same --bets-file twice is read once; one id in two files is an error naming both ------------


def test_the_same_bets_file_twice_is_read_once(tmp_path: Path):
    runner = CliRunner()
    dragon = EXAMPLES / "dragon-7.toml"
    link = tmp_path / "link.toml"
    link.symlink_to(dragon)
    for again in (dragon, Path(os.path.relpath(dragon)), link):
        result = runner.invoke(cli, ["odds", "--bets-file", str(dragon), "--bets-file", str(again), "--format", "csv",
                                     "--bet", "tie"])  # fmt: skip
        assert result.exit_code == 0, result.output
        assert [line.split(",")[0] for line in result.stdout.splitlines()[1:]] == ["tie", "tie"] + ["my-dragon-7"] * 2
    copy = tmp_path / "copy.toml"
    copy.write_bytes(dragon.read_bytes())
    result = runner.invoke(cli, ["odds", "--bets-file", str(dragon), "--bets-file", str(copy)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: the bet id 'my-dragon-7' is defined in two files, {dragon} and {copy}: rename one\n"
    )


#: Characters no text field holds: C0 and C1 controls, DEL, bidirectional overrides, noncharacters (as TOML escapes).
CONTROL_ESCAPES = ("\\u0000", "\\u0007", "\\u001b", "\\u001c", "\\u007f", "\\u009b", "\\u202e", "\\ufffe")


@pytest.mark.parametrize("escape", CONTROL_ESCAPES)
def test_a_control_character_in_a_text_field_is_refused_naming_file_bet_and_field(escape):
    code = escape[2:].upper()
    description = GOOD_BET.replace('description = "test"', f'description = "a{escape}b"')
    with pytest.raises(xo.ExactOddsError, match=rf"^bets\.toml:2: bet 'b': the description holds a control character "
                                                rf"\(U\+{code}\): write plain text$"):
        parse_bets(description, "bets.toml")
    event = GOOD_BET.replace("pays = 1\n", f'pays = 1\nevent = "ring{escape}"\n')
    with pytest.raises(xo.ExactOddsError, match=r"^bets\.toml:8: bet 'b', outcome 'win': the event holds a control"):
        parse_bets(event, "bets.toml")
    with pytest.raises(xo.ExactOddsError, match=r"^rules\.toml:1: description: the description holds a control"):
        parse_rules(f'description = "x{escape}"\n', "rules.toml")
    override = f'[[banker_override]]\nid = "x"\nname = "six{escape}"\nwhen = {{ banker_total = 6 }}\npays = 0.5\n'
    with pytest.raises(xo.ExactOddsError, match=r"^rules\.toml:3: banker_override 1: the name holds a control"):
        parse_rules(override, "rules.toml")


def test_a_control_character_is_one_error_line_on_the_command_line(tmp_path: Path):
    path = tmp_path / "bell.toml"
    path.write_text(GOOD_BET.replace("pays = 1\n", 'pays = 1\nevent = "\\u0007 ding"\n'), encoding="utf-8")
    result = CliRunner().invoke(cli, ["odds", "--bets-file", str(path), "--bet", "b"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"Error: {path}:8: bet 'b', outcome 'win': the event holds a control character (U+0007):" \
        " write plain text\n"


def test_whitespace_in_a_text_field_is_one_space():
    text = GOOD_BET.replace('description = "test"', 'description = """\n  Pays\tevens\r\n\n on a  Banker win\u2028 """')
    text = text.replace("pays = 1\n", 'pays = 1\nevent = "\\u00a0Banker\\nwins\\t"\n')
    (bet,) = parse_bets(text, "bets.toml")
    assert bet.description == "Pays evens on a Banker win"
    assert bet.outcomes[0].event.name == "Banker wins"
    rules = parse_rules('description = "line\\none"\n[[tie_override]]\nid = "t"\nname = "a\\r\\ntie of 0"\n'
                        "when = { winning_total = 0 }\npays = 20\n", "rules.toml")
    assert rules.description == "line one" and rules.tie_overrides[0].name == "a tie of 0"
