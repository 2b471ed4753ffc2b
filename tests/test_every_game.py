"""Every game of the registry through every command and every endpoint: each answers, or refuses in one line naming a
capability the game lacks; and where a command and an endpoint overlap, their answers are the same bytes.

Nothing here names a game: the games come from the registry, their bets from each game, so a game added (a toy made
by the recipe of docs/development.md) is walked through every door with no edit here. The endpoints are answered in
process (:func:`exactodds.serve.endpoints.answer`, the bytes the server sends: tests/test_serve.py holds the server
to them over a real socket)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow

from exactodds.cli import cli
from exactodds.cli.registry import COMMANDS
from exactodds.errors import ExactOddsError
from exactodds.game import CAPABILITIES, Game
from exactodds.games import GAMES
from exactodds.serve.endpoints import ENDPOINTS, answer
from exactodds.serve.tracks import Tracks

#: Commands that take no game: the registry's listing, the reference tables, the server.
NO_GAME = {"games", "tables", "serve"}
REFUSAL = re.compile(r"\(the capability '([a-z0-9-]+)'\)")


def _won(game: Game, bet: str) -> str:
    """The first outcome of a bet that wins something (the one a design searches)."""
    return next(o.id for o in game.bets(game.settings_of({}))[bet].outcomes if o.net > 0)


def _bet(game: Game) -> str | None:
    """A bet of the game to name where a command takes one (its first default bet that needs no suits)."""
    if not game.has("bets"):
        return None
    settings = game.settings_of({})
    bets = game.bets(settings)
    return next((b for b in game.default_bets(settings) if not bets[b].needs_suits), None)


def _invocation(command: str, game: Game, tmp: Path) -> tuple[list[str], str | None]:
    """The smallest call of ``command`` on ``game`` (a small shoe where the command deals one), and its input."""
    bet = _bet(game) or "tie"
    small = ["--decks", "1"]
    # The effect of removal prices the shoe once per rank it holds: a shoe of four ranks keeps it quick for every game.
    few = ["--shoe", "A=4,5=4,9=4,K=4"]
    calls: dict[str, tuple[list[str], str | None]] = {
        "odds": (["odds", *small], None),
        "fit-rtp": (["fit-rtp", *small, "--multipliers", "2:1-p,3:p", "--rtp", "player=98.9%"], None),
        "bets": (["bets"], None),
        "facts": (["facts"], None),
        "rules": (["rules"], None),
        "batch": (["batch"], '{"decks": 1}\n'),
        "eor": (["eor", *few, "--bet", bet], None),
        "simulate": (["simulate", *small, "--shoes", "2", "--seed", "1", "--quiet", "--workers", "1"], None),
        "tags": (["tags", *small, "--bet", bet], None),
        "solve": (["solve", *small], None),
        "big-table": (["big-table", *small], None),
        "edge-sort": (["edge-sort", *small, "--cards", "1"], None),
        "peek": (["peek", *small, "--reveal", "P1B1:1"], None),
        "design": (["design", *small, "--bet", bet, "--edge", "0%:99%", "--max-pay", "20", "--top", "2",
                    *(["--free", _won(game, bet)] if game.has("bets") else [])], None),
        "track": (["track", *small, "--script", "-"], "7\n"),
        "review": (["review", "-"], '{"shoe": "a", "decks": 1}\n'),
        "report": (["report", *small, "--bet", bet, "--output", str(tmp / f"{game.name}.md")], None),
        "plot": (["plot", "eor", *few, "--bet", bet, "--output", str(tmp / f"{game.name}.svg")], None),
    }
    args, stdin = calls[command]
    return [args[0], "--game", game.name, *args[1:]], stdin


def _commands() -> list[str]:
    return sorted(set(COMMANDS) - NO_GAME)


def test_every_command_that_takes_a_game_has_its_smallest_call_here(tmp_path):
    for command in _commands():
        assert _invocation(command, GAMES[0], tmp_path)[0][:3] == [command, "--game", GAMES[0].name]


def _refused_for_lacking(message: str, game: Game) -> str:
    """The capability a refusal names, checked to be one the game lacks (a refusal for anything else fails)."""
    found = REFUSAL.search(message)
    assert found, f"{game.name}: refused, but not for a capability it lacks: {message}"
    assert found.group(1) in CAPABILITIES and not game.has(found.group(1)), message
    return found.group(1)


def _pairs() -> list:
    """Every command with every game under the slow profile; in the quick run half of them, as a chequerboard (each
    command with every other game, the commands taking the games in turn), so that each game meets half the commands
    and each command half the games, answering or refused. (Every game still goes through odds, batch, the listings,
    solve, design and track in the quick run: the next test compares them with the API.)"""
    return [pytest.param(command, game, id=f"{command}-{game.name}")
            for c, command in enumerate(_commands()) for g, game in enumerate(GAMES) if is_slow() or (c + g) % 2 == 0]


@pytest.mark.parametrize(("command", "game"), _pairs())
def test_every_game_answers_or_is_refused_by_capability(command, game, tmp_path):
    args, stdin = _invocation(command, game, tmp_path)
    result = CliRunner().invoke(cli, args, input=stdin)
    if result.exit_code == 0:
        assert result.stdout or list(tmp_path.iterdir()), (command, game.name)
        return
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, (args, result.output)
    _refused_for_lacking(result.stderr, game)


def _endpoint(method: str, path: str):
    return next(e for e in ENDPOINTS if e.method == method and e.path == path)


def _http(method: str, path: str, data, params=None, tracks=None) -> tuple[int, str]:
    """The status and body the server answers (in process), an error as its 4xx."""
    try:
        reply = answer(_endpoint(method, path), data, params or {}, tracks if tracks is not None else Tracks())
    except ExactOddsError as err:
        return 400, json.dumps({"error": str(err)}, ensure_ascii=False) + "\n"
    return reply.status, reply.body


def _cli(args: list[str], stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, args, input=stdin)
    return result.exit_code, result.stdout if result.exit_code == 0 else result.stderr


def _same(cli_answer: tuple[int, str], http_answer: tuple[int, str], game: Game) -> None:
    """The command's output and the endpoint's answer are the same bytes; a refusal the same words."""
    code, out = cli_answer
    status, body = http_answer
    if code == 0:
        assert status in (200, 201) and body == out, (game.name, body[:300], out[:300])
    else:
        assert status == 400 and json.loads(body)["error"] == out.removeprefix("Error: ").rstrip("\n"), (body, out)
        _refused_for_lacking(out, game)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_command_line_and_the_api_give_the_same_bytes_for_every_game(game):
    name, bet = game.name, _bet(game)
    bets = [] if bet is None else ["--bet", bet]
    _same(_cli(["odds", "--game", name, "--decks", "1", *bets, "--format", "json"]),
          _http("POST", "/odds", {"game": name, "decks": 1, **({"bets": [bet]} if bet else {})}), game)
    code, out = _cli(["batch", "--game", name, *bets], '{"decks": 1}\n{"decks": 2}\n')
    status, body = _http("POST", "/batch", {"game": name, "shoes": [{"decks": 1}, {"decks": 2}],
                                            **({"bets": [bet]} if bet else {})})
    if code == 0:  # the same objects, one a line (the answer's list joins the lines batch writes)
        assert status == 200 and body == '{"results": [' + ",\n".join(out.splitlines()) + "]}\n", name
    else:
        _same((code, out), (status, body), game)
    for listing, path in (("bets", "/bets"), ("facts", "/facts"), ("rules", "/rules")):
        _same(_cli([listing, "--game", name, "--format", "json"]), _http("GET", path, {"game": name}), game)
    _same(_cli(["solve", "--game", name, "--decks", "1", "--format", "json"]),
          _http("POST", "/solve", {"game": name, "decks": 1}), game)
    free = [] if bet is None else [_won(game, bet)]
    _same(_cli(["design", "--game", name, "--decks", "1", "--bet", bet or "tie", "--edge", "0%:99%", "--max-pay",
                "20", "--top", "2", *(["--free", *free] if free else []), "--format", "json"]),
          _http("POST", "/design", {"game": name, "decks": 1, "bet": bet or "tie", "edge": "0%:99%",
                                    "max_pay": 20, "top": 2, **({"free": free} if free else {})}), game)
    _same_track(game, bets)


def _same_track(game: Game, bets: list[str]) -> None:
    """A session of ``track --script -`` and ``POST /tracks`` then ``/tracks/{id}``: the same lines."""
    steps = ["7", "K", "undo"]
    code, out = _cli(["track", "--game", game.name, "--decks", "1", *bets, "--script", "-"], "\n".join(steps) + "\n")
    tracks = Tracks()
    status, body = _http("POST", "/tracks", {"game": game.name, "decks": 1, **({"bets": bets[1:]} if bets else {})},
                         tracks=tracks)
    if code != 0:
        _same((code, out), (status, body), game)
        return
    created = json.loads(body)
    lines = [json.dumps(created["step"], ensure_ascii=False)]
    for step in steps:
        lines.append(_http("POST", "/tracks/{id}", {"command": step}, {"id": created["id"]}, tracks)[1].rstrip("\n"))
    assert out.splitlines() == lines, game.name
