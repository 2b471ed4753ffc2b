"""Shell completion, as bash asks for it: the commands, and the ids of the registries for --game, --rules and --bet
(a game's own bets once it is named; a rule set's catalog once it is)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from exactodds.games import GAMES, find_game


def complete(*words: str) -> list[str]:
    """What ``exactodds WORDS…`` completes the last word to (bash's protocol: ``type,value`` a line)."""
    env = dict(os.environ, COMP_WORDS=" ".join(("exactodds", *words)), COMP_CWORD=str(len(words)),
               _EXACTODDS_COMPLETE="bash_complete")
    done = subprocess.run([sys.executable, "-m", "exactodds"], env=env, capture_output=True, text=True, check=True)
    return [line.split(",", 1)[1] for line in done.stdout.splitlines() if line]


def test_bets_rules_and_games_complete_from_their_registries() -> None:
    assert complete("odds", "--bet", "dragon-") == ["dragon-7", "dragon-bonus-player", "dragon-bonus-banker"]
    rule_sets = find_game("punto-banco").rule_sets()
    assert complete("odds", "--rules", "") == [n for r in rule_sets for n in (r[0], *r[1])]
    assert complete("odds", "--game", "") == [n for g in GAMES for n in (g.name, *g.aliases)]
    tiger = find_game("dragon-tiger")
    assert complete("odds", "--game", "dragon-tiger", "--bet", "") == [*tiger.bets(tiger.settings_of({})), "all"]
    assert "track" in complete("tr")
    assert complete("odds", "--game", "no-such-game", "--bet", "") == []  # nothing rather than an error


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_s_script_is_printed(shell) -> None:
    env = dict(os.environ, _EXACTODDS_COMPLETE=f"{shell}_source")
    done = subprocess.run([sys.executable, "-m", "exactodds"], env=env, capture_output=True, text=True, check=True)
    assert "_EXACTODDS_COMPLETE" in done.stdout
