"""The game registry: every game found by its names, each declaring its settings once, its capabilities honoured by
the tools, its tables made; chemin de fer dealing by punto banco's own tableau.

Nothing here lists the games by hand: every check runs over the registry, so a game added is checked too."""

from __future__ import annotations

import csv
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from exactodds.chemindefer import model as chemin_model
from exactodds.chemindefer.model import STOOD, build_game, punto_banco_draws
from exactodds.chemindefer.solver import setup
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.game import CAPABILITIES, Game
from exactodds.games import DEFAULT, GAMES, find_game, with_capability
from exactodds.games.punto_banco import GAME as PUNTO_BANCO_GAME
from exactodds.puntobanco.rules import RULE_SETS, STANDARD_TABLEAU, find_rules
from exactodds.request import settings_inputs

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "tables"
#: The folders of tables/ whose files belong to one game (coups/ and the closed forms are punto banco's alone, made
#: whatever the registry says).
GAME_FOLDERS = ("par", "eor", "house-edge", "games")


def _decks(decks: int) -> str:
    return f"{decks}-deck{'s' if decks != 1 else ''}"


def declared_tables(game: Game) -> set[str]:
    """The files of tables/ that the game says exist."""
    spec, out = game.tables, set()
    for rules in (*spec.rule_sets, *(["side-bets"] if spec.rule_sets else [])):
        name = rules if isinstance(rules, str) else rules.name
        out |= {f"par/{name}-{_decks(d)}.{ext}" for d in spec.par_decks for ext in ("md", "csv", "json")}
        out |= {f"house-edge/{name}.{ext}" for ext in ("md", "csv", "json")}
        if name != "side-bets":
            out |= {f"eor/{name}-{_decks(d)}.{ext}" for d in spec.eor_decks for ext in ("md", "csv", "json")}
    out |= {f"games/big-table-{_decks(d)}.{ext}" for d in spec.option_decks for ext in ("md", "json")}
    if spec.solved_decks:
        models = next(s for s in game.settings if s.name == "model").choices
        out |= {f"games/{game.name}-{m.lower()}.{ext}" for m in models for ext in ("md", "csv", "json")}
    if not spec.rule_sets:  # a game without rule sets: its par sheet at each of its deck counts
        out |= {f"par/{game.name}-{_decks(d)}.{ext}" for d in spec.par_decks for ext in ("md", "csv", "json")}
    return out


# ---------------------------------------------------------------------------------------------
# Names


def test_every_game_is_found_by_its_name_and_each_alias_and_no_name_is_taken_twice():
    names = [name for game in GAMES for name in (game.name, *game.aliases)]
    assert len(names) == len(set(names))
    for game in GAMES:
        for name in (game.name, *game.aliases):
            assert find_game(name) is game
    assert DEFAULT is GAMES[0] and DEFAULT.has("rule-sets")  # punto banco, the default, first


def test_the_registry_finds_every_game_module_and_orders_them_by_their_own_order():
    import importlib

    found = []
    for path in sorted((ROOT / "exactodds" / "games").glob("[!_]*.py")):
        game = getattr(importlib.import_module(f"exactodds.games.{path.stem}"), "GAME", None)
        if game is not None:
            found.append(game)
    assert sorted(found, key=lambda g: g.name) == sorted(GAMES, key=lambda g: g.name)
    assert [g.order for g in GAMES] == sorted(g.order for g in GAMES)


def test_start_up_loads_every_game_s_declaration_and_none_of_what_prices_it():
    """A command that works on a game loads every game's module (their settings are its options) and, until it
    prices, none of their machinery, nor what only another command, a report or a tracker reads."""
    import subprocess
    import sys

    code = ("import sys, click\nfrom exactodds.cli import cli\nfrom exactodds.request import read_setup\n"
            "cli.get_command(click.Context(cli), 'odds')\nread_setup({})\n"
            "print(' '.join(m for m in sys.modules if m.startswith('exactodds')))")
    loaded = set(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.split())  # fmt: skip
    assert {f"exactodds.games.{path.stem}" for path in (ROOT / "exactodds" / "games").glob("[!_]*.py")} <= loaded
    later = {"exactodds.games.dealt.bets", "exactodds.luckydraw.solver", "exactodds.chemindefer.rules",
             "exactodds.puntobanco.coups", "exactodds.puntobanco.userdefs", "exactodds.puntobanco.odds",
             "exactodds.coups", "exactodds.crosscheck", "exactodds.batch", "exactodds.cli.batch",
             "exactodds.cli.listings"}
    assert loaded & later == set()


def test_a_dealt_game_checks_its_settings_as_it_is_made_and_its_dealing_when_its_coups_are_followed():
    from exactodds.coups import Dealing
    from exactodds.games.dealt import Pays
    from exactodds.inputs import TIE_PAYS

    dragon_tiger = find_game("dragon-tiger")
    with pytest.raises(ExactOddsError, match="^setting --tie-pays: a choice's input is a choice of words"):
        replace(dragon_tiger, pays=(Pays(TIE_PAYS, "choice"),))
    with pytest.raises(ExactOddsError, match="^dragon-tiger: a game whose coups are followed says who won them"):
        replace(dragon_tiger, facts_of_deal=dragon_tiger.facts_of_deal[1:])
    one_card = replace(dragon_tiger, dealing=lambda: Dealing(dragon_tiger.coups(None).hands, (0,), lambda ranks: None))
    with pytest.raises(ExactOddsError, match="^dragon-tiger: a dealing gives each of the 2 cards a hand$"):
        one_card.coups(None)


def _near_misses() -> list[tuple[str, str]]:
    """Near misses of each name and alias of every game, with the name each should be told first: in words
    ("Chemin De Fer"), with underscores in capitals ("CHEMIN_DE_FER"), a letter dropped ("chemin-de-fr")."""
    return [(miss, name) for game in GAMES for name in (game.name, *game.aliases)
            for miss in (name.replace("-", " ").title(), name.replace("-", "_").upper(), name[:-2] + name[-1])
            if miss.casefold() != name.casefold()]  # a name in other case is the name (test_a_game_in_any_case)


def test_a_game_is_found_by_its_name_or_an_alias_in_any_case():
    for game in GAMES:
        for name in (game.name, *game.aliases):
            assert find_game(name.upper()) is find_game(name.title()) is game


@pytest.mark.parametrize(("name", "closest"), _near_misses())
def test_an_unknown_game_is_refused_in_one_line_with_the_closest_names(name, closest):
    said = f"^unknown game {re.escape(repr(name))}: did you mean {closest}[,?]"
    with pytest.raises(ExactOddsError, match=said) as info:
        find_game(name)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


def test_a_name_like_no_game_lists_the_games():
    games = ", ".join(game.name for game in GAMES)
    with pytest.raises(ExactOddsError, match=rf"^unknown game 'poker': valid games are {re.escape(games)}$"):
        find_game("poker")


# ---------------------------------------------------------------------------------------------
# Settings: each declared once, each taken by every command that prices a game


def test_a_setting_shared_by_two_games_is_one_declaration():
    by_name = {}
    for game in GAMES:
        for setting in game.settings:
            assert by_name.setdefault(setting.name, setting) is setting, setting.name
    assert {s.name for s in settings_inputs()} == set(by_name)


def test_every_setting_of_every_game_is_an_option_of_odds_and_a_key_of_post_odds():
    from exactodds.serve.endpoints import ENDPOINTS

    odds = cli.get_command(click.Context(cli), "odds")
    options = {opt for param in odds.params for opt in param.opts}
    keys = next(e for e in ENDPOINTS if e.path == "/odds").keys
    for game in GAMES:
        for setting in game.settings:
            assert setting.option in options and setting.key in keys, (game.name, setting.name)


def test_a_setting_a_game_lacks_is_refused_naming_those_it_has():
    for game in GAMES:
        lacking = [s for s in settings_inputs() if s not in game.settings]
        for setting in lacking[:2]:
            with pytest.raises(ExactOddsError, match=f"^{game.name} has no {setting.option}: its settings are"):
                game.settings_of({setting.name: "1"})


# ---------------------------------------------------------------------------------------------
# Capabilities: declared by the game, asked for by the tool


def test_every_capability_is_described_and_each_game_s_are_known():
    for game in GAMES:
        assert game.capabilities <= set(CAPABILITIES), game.name
    assert all(with_capability(c) for c in ("bets", "solve", "simulate")), "a capability no game has"


def test_a_tool_a_game_cannot_support_says_so_in_one_line_naming_the_capability():
    runner = CliRunner()
    for command, capability in (("simulate", "simulate"), ("tags", "tags"), ("edge-sort", "edge-sort"),
                                ("big-table", "big-table"), ("solve", "solve"), ("rules", "rule-sets")):
        for game in GAMES:
            if game.has(capability):
                continue
            args = [command, "--game", game.name, *(["--cards", "1"] if command == "edge-sort" else []),
                    *(["--bet", "tie"] if command == "tags" else [])]
            result = runner.invoke(cli, args)
            assert result.exit_code == 2, (command, game.name, result.output)
            assert f"(the capability {capability!r})" in result.stderr and result.stderr.count("\n") == 1


def test_punto_banco_has_the_rule_sets_of_rules_and_find_rules_finds_each():
    assert [r[0] for r in PUNTO_BANCO_GAME.rule_sets()] == [r.name for r in RULE_SETS]
    for name, *_ in PUNTO_BANCO_GAME.rule_sets():
        rules = PUNTO_BANCO_GAME.rules(PUNTO_BANCO_GAME.settings_of({"rules": name}))
        assert rules is find_rules(name)
        assert rules.tableau == STANDARD_TABLEAU or rules.player_five or rules.name == "baccarat-gold"
        assert {"player", "banker", "tie"} <= set(PUNTO_BANCO_GAME.bets(PUNTO_BANCO_GAME.settings_of({"rules": name})))


# ---------------------------------------------------------------------------------------------
# Chemin de fer deals by punto banco's tableau, read from rules

#: The Banker's third-card chart as the rule sheets print it (docs/rules.md): the Player third cards he draws on.
SHEET = {0: range(10), 1: range(10), 2: range(10), 3: (0, 1, 2, 3, 4, 5, 6, 7, 9), 4: range(2, 8), 5: range(4, 8),
         6: (6, 7), 7: ()}  # fmt: skip


def test_chemin_de_fer_measures_departures_against_the_tableau_of_rules():
    for total in range(8):
        assert punto_banco_draws(total, STOOD) == (total <= 5) == STANDARD_TABLEAU.banker_draws(total, None)
        for third in range(10):
            assert punto_banco_draws(total, third) == (third in SHEET[total])
            assert punto_banco_draws(total, third) == STANDARD_TABLEAU.banker_draws(total, third)
    # The solver's own chart of the table, cell by cell, is the same.
    game = build_game("A1")
    chart = setup(game, Fraction(0)).standard
    for (_, column), total, draws in zip(game.cells, game.totals, chart):
        assert draws == STANDARD_TABLEAU.banker_draws(total, None if column == "stood" else int(column))


def test_chemin_de_fer_reads_the_chart_it_is_given_and_keeps_no_copy(monkeypatch):
    rows = list(STANDARD_TABLEAU.banker_draws_against)
    rows[3] = rows[3] - {9}  # a chart whose Banker 3 stands on a 9: the solver must see it
    monkeypatch.setattr(chemin_model, "STANDARD_TABLEAU", replace(STANDARD_TABLEAU, banker_draws_against=tuple(rows)))
    assert not punto_banco_draws(3, 9) and punto_banco_draws(3, 8) is False and punto_banco_draws(3, 7)


# ---------------------------------------------------------------------------------------------
# Tables: what a game declares is what tables/ holds (and `tables --check` holds tables/ to the code)


def test_every_table_a_game_declares_is_committed_and_every_game_table_belongs_to_a_game():
    committed = {p.relative_to(TABLES).as_posix() for folder in GAME_FOLDERS for p in (TABLES / folder).iterdir()}
    declared = [declared_tables(game) for game in GAMES]
    assert set().union(*declared) == committed
    assert sum(map(len, declared)) == len(committed)  # no file claimed by two games


def test_the_tables_are_made_for_the_shoes_and_commissions_the_games_name():
    first = PUNTO_BANCO_GAME.tables.rule_sets[0].name
    with (TABLES / "house-edge" / f"{first}.csv").open(newline="") as file:
        decks = {row["decks"] for row in csv.DictReader(file)}
    assert decks == {*map(str, PUNTO_BANCO_GAME.tables.house_edge_decks), "infinite"}
    for game in with_capability("solve"):
        spec = game.tables
        for model in next(s for s in game.settings if s.name == "model").choices:
            with (TABLES / "games" / f"{game.name}-{model.lower()}.csv").open(newline="") as file:
                rows = [(row["decks"], row["commission"]) for row in csv.DictReader(file)]
            shoes = ["infinite"] if model == "A1" else [str(d) for d in spec.solved_decks]
            assert rows == [(shoe, str(c)) for shoe in shoes for c in spec.commissions]
