"""The game registry as the one place that lists games, and the games with a deal of their own against their
published figures (``tests/data/published_family.txt``; Lucky Draw's, ``published_lucky_draw.txt``, through the
command line)."""

import ast
import functools
import importlib
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from published_data import Printed, read_rows

from exactodds.cards import Shoe, falling_factorial
from exactodds.cli import cli
from exactodds.games import GAMES, find_game
from exactodds.tables.common import PAR_GAMES as FAMILY_GAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "exactodds"
ROWS = read_rows("published_family.txt")


def _settings(game, bet, setting):
    if setting == "-":
        return None
    name = "commission" if setting.endswith("%") else "tie-pays"
    value = Fraction(setting.removesuffix("%")) / (100 if setting.endswith("%") else 1)
    return {find_game(game).setting(name).name: value}


@pytest.mark.parametrize("row", ROWS, ids=[row.where for row in ROWS])
def test_every_published_figure_of_a_family_game(row):
    game, decks, bet, setting, kind, outcome, *printed = row.fields
    found = find_game(game)
    shoe = Shoe.standard(int(decks))
    figures = found.price(shoe, [bet], found.settings_of(_settings(game, bet, setting) or {})).bet(bet)
    counts = {o.outcome.id: o.count for o in figures.outcomes}
    if kind == "pairs":  # over C(N,2): each unordered pair is dealt in 2 orders
        assert counts[outcome] == 2 * int(printed[0])
    elif kind == "hands":  # over C(N,3) Banker hands: each dealt in 3! orders after any 3! · (N−3)_3 Player cards
        assert counts[outcome] == int(printed[0]) * 6 * falling_factorial(shoe.size - 3, 3)
    elif kind == "edge":
        assert Printed.parse(printed[0]).matches(figures.house_edge), figures.house_edge_percent(4)
    elif kind == "erratum":  # printed wrong: ours is exact, the printed figure is not it
        wrong, ours = printed
        if outcome == "-":
            assert figures.house_edge_percent(2) == ours != wrong
        else:
            assert counts[outcome] == 36 * int(ours) and int(wrong) != int(ours)
    else:
        raise AssertionError(f"unknown kind {kind!r} at {row.where}")


def test_every_game_is_listed_by_the_games_command_with_its_settings_and_bets():
    out = CliRunner().invoke(cli, ["games"]).output
    for game in GAMES:
        assert re.search(rf"^{game.name}\b", out, re.M), game.name
        block = out.split(f"\n{game.name}", 1)[-1] if game is not GAMES[0] else out
        assert f"settings: {', '.join(s.option for s in game.settings) or 'none'}" in block
        if game.has("bets"):
            assert ", ".join(game.bets(game.settings_of({}))) in block


def _string_constants(tree):
    """The string constants of a module that are not docstrings."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docstrings]


def test_the_registry_is_the_one_place_that_lists_games():
    # A game's name (or alias) written as a value in code is a list of games outside the registry: only its game
    # module (exactodds/games/<game>.py) and its own machinery, the package named as the game without its dashes
    # (punto banco's names its own rule set "punto-banco", chemin de fer's solver its game), may write it.
    machinery = {game.name: PACKAGE / game.name.replace("-", "") for game in GAMES}
    constants = {path.resolve(): _string_constants(ast.parse(path.read_text(encoding="utf-8")))
                 for path in sorted(PACKAGE.rglob("*.py"))}  # each module parsed once, for every game
    offenders = []
    for game in GAMES:
        names = {game.name, *game.aliases}
        modules = {p.resolve() for p in (PACKAGE / "games").glob("*.py") if game.__class__.__module__.endswith(p.stem)
                   or (getattr(game, "count", None) and p.resolve() == Path(game.count.__code__.co_filename).resolve())
                   or (p.stem != "__init__"
                       and getattr(importlib.import_module(f"exactodds.games.{p.stem}"), "GAME", None) is game)}
        own = machinery[game.name].resolve()
        for path, nodes in constants.items():
            if path in modules or own in path.parents:
                continue
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno}: the game {node.value!r}"
                          for node in nodes if node.value in names]
    assert not offenders, "games named outside their own modules:\n" + "\n".join(offenders)


def test_every_game_the_docs_name_is_in_the_registry():
    # Each `--game NAME` and each `"game": "NAME"` of the docs and the README names a game of the registry.
    named = set()
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        named |= {(path.name, m) for m in re.findall(r"--game[ =]([a-z0-9-]+)", text)}
        named |= {(path.name, m) for m in re.findall(r'"game": ?"([a-z0-9-]+)"', text)}
    known = {name for game in GAMES for name in (game.name, *game.aliases)}
    assert {m for _, m in named} - {"nope", "ID"} <= known, sorted(named)
    assert {m for _, m in named} >= {game.name for game in FAMILY_GAMES}  # each game is shown somewhere


def test_every_table_of_a_family_game_is_in_the_index():
    index = (ROOT / "tables" / "README.md").read_text(encoding="utf-8")
    for game in FAMILY_GAMES:
        for decks in game.tables.par_decks:
            stem = f"par/{game.name}-{decks}-deck{'s' if decks != 1 else ''}"
            assert f"`{stem}`" in index
            assert (ROOT / "tables" / f"{stem}.json").is_file()


@pytest.mark.parametrize("game", FAMILY_GAMES, ids=[game.name for game in FAMILY_GAMES])
def test_a_family_par_sheet_reads_back_exactly_as_csv_and_json(game):
    import csv
    import io
    import json

    from exactodds.tables.par import game_par_files

    decks = game.tables.par_decks[0]
    files = game_par_files(game, decks)
    stem = f"par/{game.name}-{decks}-deck{'s' if decks != 1 else ''}"
    analysis = game.price(Shoe.standard(decks), None, game.settings_of({}))
    rows = list(csv.DictReader(io.StringIO(files[f"{stem}.csv"])))
    data = json.loads(files[f"{stem}.json"])
    assert data["game"] == game.name and int(data["orderings"]) == analysis.orderings
    for figures in analysis.bets:
        mine = [r for r in rows if r["bet"] == figures.bet.id]
        assert [(r["outcome"], int(r["combinations"])) for r in mine[:-1]] == [
            (o.outcome.id, o.count) for o in figures.outcomes]
        assert Fraction(mine[-1]["house_edge"]) == figures.house_edge
        assert Fraction(data["bets"][figures.bet.id]["variance"]) == figures.variance


LUCKY_DRAW_ROWS = read_rows("published_lucky_draw.txt")


@functools.cache
def _lucky_draw_json(pay_table, strategy, decks):
    """``odds --game lucky-draw --format json`` under a pay table and strategy, read back by json.loads."""
    args = ["odds", "--game", "lucky-draw", "--pay-table", pay_table, "--strategy", strategy, "--decks", decks,
            "--format", "json"]  # fmt: skip
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


@pytest.mark.parametrize("row", LUCKY_DRAW_ROWS, ids=lambda row: "-".join(row.fields[:5]))
def test_every_published_figure_of_lucky_draw_through_the_command_line(row):
    pay_table, strategy, decks, kind, outcome, printed = row.fields
    data = _lucky_draw_json(pay_table, strategy, decks)
    bet = data["bets"]["lucky-draw"]
    counts = {o["outcome"]: int(o["count"]) for o in bet["outcomes"]}
    if kind == "half-count":  # the source counts the player's two cards as a set: half of every ordered count
        assert (int(data["orderings"]) if outcome == "total" else counts[outcome]) == 2 * int(printed)
        return
    value = {"prob": lambda: Fraction(counts[outcome], int(data["orderings"])), "return": lambda: Fraction(bet["ev"]),
             "edge": lambda: Fraction(bet["house_edge"])}[kind]()  # fmt: skip
    assert Printed.parse(printed).matches(value), f"{row.where} ({row.source}): exact {float(value)}"


def test_lucky_draw_s_published_returns_are_the_exact_ones_the_command_line_prints():
    assert _lucky_draw_json("1", "optimal", "8")["bets"]["lucky-draw"]["ev"] == "-116701920736/6508331087895"
    assert _lucky_draw_json("2", "optimal", "8")["bets"]["lucky-draw"]["house_edge_decimal"].startswith("0.0334")
