"""A bet of a bets file that favours the player on a full shoe gets a warning line on stderr, and is priced all the
same; a fair one, or a shoe with cards removed (where an advantage player looks for such bets), gets none."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cli import cli

GENEROUS = """[bets.generous-tie]
description = "A tie paying 10:1: the player's edge"
[[bets.generous-tie.outcome]]
id = "tie"
when = { winner = "tie" }
pays = 10
[[bets.generous-tie.outcome]]
id = "lose"
otherwise = true
pays = -1
"""
FAIR = str(Path(__file__).resolve().parent.parent / "examples" / "dragon-panda.toml")


@pytest.fixture
def generous(tmp_path) -> str:
    path = tmp_path / "generous.toml"
    path.write_text(GENEROUS, encoding="utf-8")
    return str(path)


def test_a_bet_that_favours_the_player_is_warned_of_and_priced(generous) -> None:
    out = CliRunner().invoke(cli, ["odds", "--bets-file", generous, "--bet", "generous-tie", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert out.stderr.startswith("Warning: generous-tie, of a bets file, favours the player on a full shoe: house edge"
                                 " -") and out.stderr.count("\n") == 1, out.stderr
    assert '"generous-tie"' in out.stdout


def test_a_fair_bet_or_a_depleted_shoe_is_not_warned_of(generous) -> None:
    for args in (["--bets-file", FAIR, "--bet", "dragon-panda"],
                 ["--bets-file", generous, "--bet", "generous-tie", "--remove", "9,9"]):
        out = CliRunner().invoke(cli, ["odds", *args])
        assert out.exit_code == 0 and out.stderr == "", out.stderr


def test_the_report_warns_too(generous, tmp_path) -> None:
    out = CliRunner().invoke(cli, ["report", "--bets-file", generous, "--bet", "generous-tie", "--output",
                                   str(tmp_path / "r.md")])
    assert out.exit_code == 0, out.output
    assert out.stderr.splitlines()[0].startswith("Warning: generous-tie, of a bets file, favours the player")
