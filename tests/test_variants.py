"""The game registry: every game found by its names, each of its parts present (rule sets, bets, decisions, tables,
commands), and chemin de fer dealing by punto banco's own tableau."""

from __future__ import annotations

import csv
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from exactodds.chemindefer import build_game
from exactodds.chemindefer import model as chemin_model
from exactodds.chemindefer.model import STOOD, punto_banco_draws
from exactodds.chemindefer.solver import setup
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.puntobanco.rules import RULE_SETS, STANDARD_TABLEAU, find_rules
from exactodds.variants import CHEMIN_DE_FER, GAMES, PUNTO_BANCO_GAME, Tables, Variant, find_game

TABLES = Path(__file__).resolve().parents[1] / "tables"
#: The folders of tables/ whose files belong to one game's entry (coups/ and the closed forms are punto banco's
#: alone, made whatever the registry says).
GAME_FOLDERS = ("par", "eor", "house-edge", "games")


def _decks(decks: int) -> str:
    return f"{decks}-deck{'s' if decks != 1 else ''}"


def declared_tables(game: Variant) -> set[str]:
    """The files of tables/ that the game's entry says exist."""
    spec, out = game.tables, set()
    for rules in (*spec.rule_sets, *(["side-bets"] if spec.rule_sets else [])):
        name = rules if isinstance(rules, str) else rules.name
        out |= {f"par/{name}-{_decks(d)}.{ext}" for d in spec.par_decks for ext in ("md", "csv", "json")}
        out |= {f"house-edge/{name}.{ext}" for ext in ("md", "csv", "json")}
        if name != "side-bets":
            out |= {f"eor/{name}-{_decks(d)}.{ext}" for d in spec.eor_decks for ext in ("md", "csv", "json")}
    out |= {f"games/big-table-{_decks(d)}.{ext}" for d in spec.option_decks for ext in ("md", "json")}
    out |= {f"games/{game.name}-{m.lower()}.{ext}" for m in game.models for ext in ("md", "csv", "json")}
    if game.deal is not None:  # a game with a deal of its own: its par sheet at each of its deck counts
        out |= {f"par/{game.name}-{_decks(d)}.{ext}" for d in game.tables.par_decks for ext in ("md", "csv", "json")}
    return out


# ---------------------------------------------------------------------------------------------
# Names


def test_every_game_is_found_by_its_name_and_each_alias_and_no_name_is_taken_twice():
    names = [name for game in GAMES for name in (game.name, *game.aliases)]
    assert len(names) == len(set(names))
    for game in GAMES:
        for name in (game.name, *game.aliases):
            assert find_game(name) is game
    assert [game.name for game in GAMES] == ["punto-banco", "chemin-de-fer", "dragon-tiger", "three-card-baccarat",
                                          "lucky-draw"]


@pytest.mark.parametrize(
    ("name", "closest"),
    [("Chemin de fer", "chemin-de-fer"), ("chemin_de_fer", "chemin-de-fer"), ("chemy", "chemmy"),
     ("Punto-Banco", "punto-banco"), ("bacarat", "baccarat")],
)  # fmt: skip
def test_an_unknown_game_is_refused_in_one_line_with_the_closest_names(name, closest):
    with pytest.raises(ExactOddsError, match=f"^unknown game {name!r}: did you mean {closest}[,?]") as info:
        find_game(name)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


def test_a_name_like_no_game_lists_the_games():
    games = "punto-banco, chemin-de-fer, dragon-tiger, three-card-baccarat, lucky-draw"
    with pytest.raises(ExactOddsError, match=rf"^unknown game 'poker': valid games are {games}$"):
        find_game("poker")


@pytest.mark.parametrize(
    ("change", "words"),
    [({"name": "Dragon Tiger"}, "lower-case words"), ({"aliases": ("dt_",)}, "lower-case words"),
     ({"tables": Tables(option_decks=(8,))}, "no such option"),
     ({"tables": Tables(solved_decks=(8,))}, "no information model"),
     ({"tables": Tables(rule_sets=(find_rules("ez"),))}, "rule set the game does not have")],
)  # fmt: skip
def test_an_entry_missing_a_part_its_tables_need_is_refused(change, words):
    with pytest.raises(ExactOddsError, match=words):
        Variant(**{"name": "toy", "description": "A toy.", **change})


# ---------------------------------------------------------------------------------------------
# Rule sets and bets: one home each, the registry composes them


def test_punto_banco_has_the_rule_sets_of_rules_and_find_rules_finds_each():
    assert PUNTO_BANCO_GAME.rule_sets is RULE_SETS
    for game in GAMES:
        for rules in game.rule_sets:
            assert find_rules(rules.name) is rules
            assert rules.tableau == game.tableau or rules.player_five  # a rule set deals by its game's tableau
        if game.bets is not None:
            for rules in game.rule_sets:
                assert {"player", "banker", "tie"} <= set(game.bets(rules))


# ---------------------------------------------------------------------------------------------
# Chemin de fer deals by punto banco's tableau, read from rules

#: The Banker's third-card chart as the rule sheets print it (docs/rules.md): the Player third cards he draws on.
SHEET = {0: range(10), 1: range(10), 2: range(10), 3: (0, 1, 2, 3, 4, 5, 6, 7, 9), 4: range(2, 8), 5: range(4, 8),
         6: (6, 7), 7: ()}  # fmt: skip


def test_chemin_de_fer_measures_departures_against_the_tableau_of_rules():
    assert CHEMIN_DE_FER.tableau is PUNTO_BANCO_GAME.tableau is STANDARD_TABLEAU
    for total in range(8):
        assert punto_banco_draws(total, STOOD) == (total <= 5) == STANDARD_TABLEAU.banker_draws(total, None)
        for third in range(10):
            assert punto_banco_draws(total, third) == (third in SHEET[total])
            assert punto_banco_draws(total, third) == CHEMIN_DE_FER.tableau.banker_draws(total, third)
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
# Tables: what an entry declares is what tables/ holds (and `tables --check` holds tables/ to the code)


def test_every_table_a_game_declares_is_committed_and_every_game_table_belongs_to_a_game():
    committed = {p.relative_to(TABLES).as_posix() for folder in GAME_FOLDERS for p in (TABLES / folder).iterdir()}
    declared = [declared_tables(game) for game in GAMES]
    assert all(declared)  # every game has tables
    assert set().union(*declared) == committed
    assert not set.intersection(*declared)  # no file claimed by two games


def test_the_tables_are_made_for_the_shoes_and_commissions_the_entries_name():
    with (TABLES / "house-edge" / f"{PUNTO_BANCO_GAME.rule_sets[0].name}.csv").open(newline="") as file:
        decks = {row["decks"] for row in csv.DictReader(file)}
    assert decks == {*map(str, PUNTO_BANCO_GAME.tables.house_edge_decks), "infinite"}
    spec = CHEMIN_DE_FER.tables
    for model in CHEMIN_DE_FER.models:
        with (TABLES / "games" / f"{CHEMIN_DE_FER.name}-{model.lower()}.csv").open(newline="") as file:
            rows = [(row["decks"], row["commission"]) for row in csv.DictReader(file)]
        shoes = ["infinite"] if model == "A1" else [str(d) for d in spec.solved_decks]
        assert rows == [(shoe, str(c)) for shoe in shoes for c in spec.commissions]


# ---------------------------------------------------------------------------------------------
# CLI: every game's choices are offered


def _command(name: str) -> click.Command:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None, f"no command {name}"
    return command


def _param(command: click.Command, name: str) -> click.Parameter:
    return next(p for p in command.params if p.name == name)


def test_every_game_s_commands_and_choices_are_offered_by_the_cli():
    solve = _command("solve")
    game_choice, model_choice = _param(solve, "game").type, _param(solve, "model").type
    assert isinstance(game_choice, click.Choice) and isinstance(model_choice, click.Choice)
    player_five = (_param(_command("odds"), "player_five").metavar or "").split("|")
    listed = CliRunner().invoke(cli, ["rules"]).output
    for game in GAMES:
        for name in game.commands:
            _command(name)
        assert (game.name in game_choice.choices) == bool(game.models)
        assert set(game.models) <= set(model_choice.choices)
        assert set(game.player_five) <= set(player_five)
        for rules in game.rule_sets:
            assert f"\n{rules.name}" in f"\n{listed}"
    assert set(game_choice.choices) == {game.name for game in GAMES if game.models}
