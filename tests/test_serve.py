"""``exactodds serve``: the real server in a subprocess, asked by a real HTTP client (the standard library's).

The server is started once for the module (``--port 0``: the port it prints), and each answer is
compared with what the command prints for the same input, byte for byte. A second server, on
0.0.0.0 with a one-second time limit, is started by the one test that needs it (the warning, a
slow request, SIGTERM). Skipped when the ``serve`` extra is not installed (CI installs it, with
the test extra).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_hostile import HOSTILE  # noqa: E402

from exactodds.cards import RANKS, Shoe  # noqa: E402
from exactodds.cli import cli  # noqa: E402
from exactodds.games import GAMES  # noqa: E402
from exactodds.present.odds import render  # noqa: E402
from exactodds.puntobanco.bets import bet_catalog  # noqa: E402
from exactodds.puntobanco.odds import analyze  # noqa: E402
from exactodds.puntobanco.rules import RULE_SETS  # noqa: E402
from exactodds.rebate import BASES, Rebate  # noqa: E402
from exactodds.serve.endpoints import ENDPOINTS  # noqa: E402
from exactodds.serve.tracks import Full, NotFound, Tracks  # noqa: E402
from exactodds.tracker import Tracker  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Server:
    """A running server: its process, its port, and what it wrote on stderr (read by a thread as it comes)."""

    process: subprocess.Popen[str]
    port: int
    log: list[str]

    def call(self, method: str, path: str, body: str | bytes | None = None, timeout: float = 60) -> tuple[int, bytes]:
        """One request on a connection of its own: the status and the body."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body.encode() if isinstance(body, str) else body)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def post(self, path: str, data: object) -> tuple[int, bytes]:
        return self.call("POST", path, json.dumps(data))


def start(*args: str, env: dict[str, str] | None = None) -> Server:
    """Start ``exactodds serve --port 0 ARGS`` (with ``env`` added to the environment) and wait for the line that says
    its port."""
    process = subprocess.Popen([sys.executable, "-m", "exactodds", "serve", "--port", "0", *args], cwd=ROOT,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})})
    assert process.stderr is not None
    log: list[str] = []
    for line in process.stderr:
        log.append(line)
        found = re.search(r"listening on http://[^ ]*:(\d+) ", line)
        if found:
            break
    else:
        raise AssertionError(f"the server did not start: {''.join(log)}")
    threading.Thread(target=lambda: log.extend(process.stderr or ()), daemon=True).start()
    return Server(process, int(found.group(1)), log)


def stop(server: Server) -> int:
    """SIGTERM, then the exit status (within a generous bound)."""
    server.process.send_signal(signal.SIGTERM)
    return server.process.wait(timeout=30)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = start("--time-limit", "60")
    yield running
    assert stop(running) == 0
    assert "Traceback" not in "".join(running.log), "".join(running.log)


def cli_output(args: list[str], stdin: str = "") -> bytes:
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exit_code == 0, (args, result.stderr)
    return result.stdout_bytes


# --- the answers are the commands' output, byte for byte ----------------------------------------------------


def test_health(server: Server) -> None:
    status, body = server.call("GET", "/health")
    assert status == 200 and json.loads(body) == {"status": "ok", "version": json.loads(body)["version"]}


def random_request(rng: random.Random) -> tuple[dict[str, object], list[str]]:
    """A random shoe, rule set and bets, as a request object and as the odds command's options."""
    names = [r.name for r in RULE_SETS]
    rules = rng.choice(names)
    ids = rng.sample(sorted(bet_catalog(next(r for r in RULE_SETS if r.name == rules), full=True)), rng.randint(1, 4))
    decks = rng.randint(1, 8)
    removed = ",".join(rng.choice(RANKS).value for _ in range(rng.randint(0, 12)))
    data: dict[str, object] = {"decks": decks, "rules": rules, "bets": ids, "precision": rng.randint(0, 20)}
    args = ["odds", "--decks", str(decks), "--rules", rules, "--precision", str(data["precision"]),
            "--format", "json", *(a for i in ids for a in ("--bet", i))]
    if removed:
        data["remove"] = removed
        args += ["--remove", removed]
    if rng.random() < 0.3:
        data["player_5"] = "stand"
        args += ["--player-5", "stand"]
    if rng.random() < 0.5:
        data["rebate"], data["rebate_basis"] = rng.choice(["0.8%", "1/125", "0.01"]), rng.choice(BASES)
        args += ["--rebate", str(data["rebate"]), "--rebate-basis", str(data["rebate_basis"])]
    return data, args


@pytest.mark.parametrize("seed", range(12 if is_slow() else 3))
def test_odds_is_the_json_of_odds_byte_for_byte(server: Server, seed: int) -> None:
    data, args = random_request(random.Random(seed))
    status, body = server.post("/odds", data)
    expected = CliRunner().invoke(cli, args)
    if expected.exit_code != 0:  # a bet this shoe cannot price (suits): the same words, as a 400
        assert status == 400 and json.loads(body)["error"] == expected.stderr.removeprefix("Error: ").strip()
    else:
        assert status == 200 and body == expected.stdout_bytes


def test_odds_takes_rules_and_bets_as_text_given_and_fields_as_the_commands(server: Server) -> None:
    rules = (ROOT / "examples" / "my-super-6.toml").read_text()
    bets = (ROOT / "examples" / "dragon-7.toml").read_text()
    status, body = server.post("/odds", {"decks": 6, "rules_toml": rules, "bets_toml": bets})
    assert status == 200 and body == cli_output(["odds", "--decks", "6", "--rules-file", "examples/my-super-6.toml",
                                                 "--bets-file", "examples/dragon-7.toml", "--format", "json"])
    status, body = server.post("/odds", {"decks": 1, "bets": ["tie"], "given": "P1 in 6789"})
    assert status == 200 and body == cli_output(["odds", "--decks", "1", "--bet", "tie", "--given", "P1 in 6789",
                                                 "--format", "json"])
    status, body = server.post("/odds", {"counts": {"A": 9, "K": 30}, "fields": "ev,count", "bets": ["banker"]})
    line = '{"counts": {"A": 9, "K": 30}}\n'
    assert status == 200 and body == cli_output(["batch", "--fields", "ev,count", "--bet", "banker"], line)


def test_batch_is_the_lines_of_batch_and_a_bad_shoe_its_index(server: Server) -> None:
    shoes = [{"decks": 8, "remove": "7,7,8"}, {"decks": 0}, {"counts": {"A": 5, "9": 7}}, "8 decks", {"decks": 2}]
    status, body = server.post("/batch", {"shoes": shoes, "rules": "ez", "bets": ["banker", "tie"], "rebate": "1%",
                                          "fields": "ev,rebate,count"})
    assert status == 200
    results = json.loads(body)["results"]
    lines = "".join(json.dumps(s) + "\n" for s in shoes)
    good = CliRunner().invoke(cli, ["batch", "--rules", "ez", "--bet", "banker", "--bet", "tie", "--skip-bad",
                                    "--rebate", "1%", "--fields", "ev,rebate,count"], input=lines)
    expected = iter(good.stdout.splitlines())
    skipped = dict(re.findall(r"skipped line (\d+): (.*)", good.stderr))
    for index, result in enumerate(results):
        if str(index + 1) in skipped:
            assert result == {"index": index, "error": skipped[str(index + 1)]}
        else:
            assert result == json.loads(next(expected))
    assert [r.get("index") for r in results] == [None, 1, None, 3, None]
    assert body.decode().count("\n") == len(shoes)  # each result on a line of its own, as batch writes it
    status, body = server.post("/batch", {"shoes": [{"decks": 1}] * 10_001})
    assert status == 400 and json.loads(body) == {"error": "10,001 shoes: at most 10,000 in one request"}


def test_solve_and_edge_sort_are_the_json_of_their_commands(server: Server) -> None:
    status, body = server.post("/solve", {"model": "B2", "decks": 1})
    assert status == 200 and body == cli_output(["solve", "--model", "B2", "--decks", "1", "--format", "json"])
    status, body = server.post("/edge-sort", {"decks": 1, "cards": 2, "high": "789"})
    assert status == 200 and body == cli_output(["edge-sort", "--decks", "1", "--cards", "2", "--high", "789",
                                                 "--format", "json"])


DRAGON_PANDA = "examples/dragon-panda.toml"

#: Requests to /design and the same design as the command's options: a band of one outcome, a bets file's bet
#: sent as its text with two free outcomes, a pay solved; more under the slow profile.
DESIGNS = {
    "a band of one outcome": ({"bet": "dragon-7", "edge": "7%:8%", "decks": 6},
                              ["--bet", "dragon-7", "--edge", "7%:8%", "--decks", "6"]),
    "a bets file's bet, two free": ({"bets_toml": (ROOT / DRAGON_PANDA).read_text(), "bet": "dragon-panda",
                                     "edge": "5%:6%", "free": ["dragon", "panda"], "max_pay": 40, "top": 3},
                                    ["--bets-file", DRAGON_PANDA, "--bet", "dragon-panda", "--edge", "5%:6%", "--free",
                                     "dragon", "--free", "panda", "--max-pay", "40", "--top", "3"]),
    "a pay solved": ({"bet": "dragon-7", "edge": "7.6%", "solve": "win", "step": "1/2", "precision": 6},
                     ["--bet", "dragon-7", "--edge", "7.6%", "--solve", "win", "--step", "1/2", "--precision", "6"]),
    "another game, its setting, a range of decks": (
        {"game": "dragon-tiger", "bet": "tie", "edge": "5%:15%", "max_pay": 14, "tie_pays": "11", "decks": "6:8"},
        ["--game", "dragon-tiger", "--bet", "tie", "--edge", "5%:15%", "--max-pay", "14", "--tie-pays", "11", "--decks",
         "6:8"]),
}
#: A bet of Three Card Baccarat's facts, sent as text (tests/test_design.py prices it by a brute force).
FACES = """[bets.faces]
description = "The Banker's face cards: three, or two"
[[bets.faces.outcome]]
id = "three"
when = { banker_faces = 3 }
pays = 16
[[bets.faces.outcome]]
id = "two"
when = { banker_faces = 2 }
pays = 2
[[bets.faces.outcome]]
id = "lose"
otherwise = true
pays = -1
"""
if is_slow():
    DESIGNS |= {
        "a range of decks, rules as text": (
            {"rules_toml": (ROOT / "examples" / "my-super-6.toml").read_text(), "bet": "dragon-7", "edge": "7%:9%",
             "min_pay": "30", "max_pay": 50, "decks": "6:8", "remove": "7,7"},
            ["--rules-file", "examples/my-super-6.toml", "--bet", "dragon-7", "--edge", "7%:9%", "--min-pay", "30",
             "--max-pay", "50", "--decks", "6:8", "--remove", "7,7"]),
        "monotone, the Player's 5, a cut card": (
            {"bet": "lucky-6", "edge": "10%:20%", "max_pay": 30, "monotone": True, "player_5": "stand",
             "cut_card": 20, "precision": 8},
            ["--bet", "lucky-6", "--edge", "10%:20%", "--max-pay", "30", "--monotone", "--player-5", "stand",
             "--cut-card", "20", "--precision", "8"]),
        "a pay solved on counts": (
            {"counts": {r.value: 4 for r in RANKS}, "bet": "panda-8", "edge": "10.1%", "solve": "win",
             "step": "1/4"},
            ["--shoe", ",".join(f"{r.value}=4" for r in RANKS), "--bet", "panda-8", "--edge", "10.1%", "--solve",
             "win", "--step", "1/4"]),
        "another game's bets file, its commission": (
            {"game": "three-card", "bets_toml": FACES, "bet": "faces", "edge": "5%:30%", "max_pay": 60,
             "commission": "3%", "decks": "1:2", "top": 5},
            ["--game", "three-card", "--bets-file", "FACES", "--bet", "faces", "--edge", "5%:30%", "--max-pay", "60",
             "--commission", "3%", "--decks", "1:2", "--top", "5"]),
        "a game that decides, a pay solved": (
            {"game": "lucky-draw", "bet": "lucky-draw", "edge": "1%", "solve": "win-lucky-9", "strategy": "total",
             "decks": 6},
            ["--game", "lucky-draw", "--bet", "lucky-draw", "--edge", "1%", "--solve", "win-lucky-9", "--strategy",
             "total", "--decks", "6"]),
    }


@pytest.mark.parametrize("case", list(DESIGNS))
def test_design_is_the_json_of_design_byte_for_byte(server: Server, case: str, tmp_path: Path) -> None:
    data, args = DESIGNS[case]
    (tmp_path / "faces.toml").write_text(FACES, encoding="utf-8")
    args = [str(tmp_path / "faces.toml") if arg == "FACES" else arg for arg in args]
    status, body = server.post("/design", data)
    assert status == 200 and body == cli_output(["design", *args, "--format", "json"])


def test_design_refuses_a_game_without_bets_by_capability(server: Server) -> None:
    refused = [game for game in GAMES if not game.has("fixed-pays")]
    assert refused, "every game has bets of fixed pays: nothing to refuse"
    for game in refused:
        status, body = server.post("/design", {"game": game.name, "bet": "tie", "edge": "5%:6%"})
        error = json.loads(body)["error"]
        assert status == 400 and error.startswith("design needs ") and "(the capability 'fixed-pays')" in error


#: Bad designs: the request, and the command's options that give the same error.
BAD_DESIGNS = [
    ({"edge": "6%:5%"}, ["--edge", "6%:5%"]),  # LOW above HIGH
    ({"edge": "5%:9%", "free": ["wn"]}, ["--edge", "5%:9%", "--free", "wn"]),  # not an outcome of the bet
    ({"edge": "5%:9%", "step": 0}, ["--edge", "5%:9%", "--step", "0"]),
    ({"edge": "5%:9%", "min_pay": "50", "max_pay": "40"}, ["--edge", "5%:9%", "--min-pay", "50", "--max-pay", "40"]),
    ({"edge": "5%:6%", "solve": "win"}, ["--edge", "5%:6%", "--solve", "win"]),
    ({"edge": "7.6%", "solve": "win", "free": ["win"]}, ["--edge", "7.6%", "--solve", "win", "--free", "win"]),
    ({"edge": "5%:9%", "decks": 1, "cut_card": 50}, ["--edge", "5%:9%", "--decks", "1", "--cut-card", "50"]),
    ({"edge": "5%:9%", "bet": "all"}, ["--edge", "5%:9%", "--bet", "all"]),
]


def test_design_refuses_bad_input_with_the_command_s_words_and_writes_no_file(server: Server, tmp_path: Path) -> None:
    for data, args in BAD_DESIGNS:
        status, body = server.post("/design", {"bet": "dragon-7", **data})
        expected = CliRunner().invoke(cli, ["design", *(["--bet", "dragon-7"] if "bet" not in data else []), *args])
        assert expected.exit_code == 2 and expected.stderr.startswith("Error: "), args
        assert (status, json.loads(body)) == (400, {"error": expected.stderr.removeprefix("Error: ").strip()}), data
    written = tmp_path / "designed.toml"
    status, body = server.post("/design", {"bet": "dragon-7", "edge": "7.6%", "solve": "win", "write": str(written)})
    assert status == 400 and json.loads(body)["error"].startswith("unknown key 'write': the body of POST /design")
    assert not written.exists()
    for data, message in (({"decks": "8:6"}, "'8:6' is not a range of decks LOW:HIGH with 1 <= LOW <= HIGH"),
                          ({"step": 0.5}, '"step" must be a whole number or a text such as "1/2"'),
                          ({"monotone": "yes"}, '"monotone" must be true or false'),
                          ({"top": 0}, '"top" must be a whole number from 1 to 1000, not 0')):
        status, body = server.post("/design", {"bet": "dragon-7", "edge": "5%:9%", **data})
        assert status == 400 and json.loads(body)["error"].startswith(message), (data, body)
    for data in ({"edge": "5%:9%"}, {"bet": "dragon-7"}):
        status, body = server.post("/design", data)
        assert status == 400 and "is required" in json.loads(body)["error"]


COMMANDS = ["7 K", "P 2 3 9 B 3 4", "K K K K K K K", "burn 5", "undo", "help", "P 1 1 B 2"]


def test_a_tracking_session_is_track_script_step_by_step(server: Server) -> None:
    expected = cli_output(["track", "--decks", "1", "--bet", "tie", "--bet", "banker", "--rebate", "0.8%", "--script",
                           "-"], "\n".join(COMMANDS) + "\n").decode().splitlines()
    status, body = server.post("/tracks", {"decks": 1, "bets": ["tie", "banker"], "rebate": "0.8%"})
    assert status == 201
    created = json.loads(body)
    key = created["id"]
    assert json.dumps(created["step"], ensure_ascii=False) == expected[0]
    for command, line in zip(COMMANDS, expected[1:], strict=True):
        status, body = server.post(f"/tracks/{key}", {"command": command})
        assert body.decode() == line + "\n"
        assert status == (400 if "error" in json.loads(line) else 200)
    status, body = server.call("GET", f"/tracks/{key}")
    session = json.loads(body)
    same = Tracker(Shoe.standard(1), bets=["tie", "banker"], rebate=Rebate.parse("0.8%"))
    for command in COMMANDS:
        same.step(command)
    assert status == 200 and session["session"] == same.document()
    assert session["step"] == [step for step in map(json.loads, expected) if "error" not in step][-1]
    status, body = server.post(f"/tracks/{key}", {"command": "save /tmp/exactodds-serve.json"})
    assert status == 400 and "file" in json.loads(body)["error"]
    assert not Path("/tmp/exactodds-serve.json").exists()
    assert server.call("DELETE", f"/tracks/{key}")[0] == 200
    status, body = server.call("GET", f"/tracks/{key}")
    assert status == 404 and json.loads(body)["error"].startswith("no tracking session")


#: A script for a game other than punto banco: its coups card by card and whole, refusals, a burn, undo.
OTHER_GAMES = {
    "dragon-tiger": ["7 K", "dragon 5 tiger 5", "8", "burn 5", "9", "dragon 7 tiger K K", "P 2 3 B 4 5", "undo",
                     "help"],
    "lucky-draw": ["7 K 2", "P 2 3 B 4 5", "burn 9", "undo"],
}


@pytest.mark.parametrize("game", sorted(OTHER_GAMES))
def test_a_tracking_session_of_another_game_is_its_track_script_step_by_step(server: Server, game: str) -> None:
    from exactodds.games import find_game

    commands = OTHER_GAMES[game]
    options = ["--game", game, "--decks", "1", *(["--tie-pays", "11"] if game == "dragon-tiger" else [])]
    expected = cli_output(["track", *options, "--script", "-"], "\n".join(commands) + "\n").decode().splitlines()
    request = {"game": game, "decks": 1, **({"tie_pays": "11"} if game == "dragon-tiger" else {})}
    status, body = server.post("/tracks", request)
    assert status == 201
    created = json.loads(body)
    assert json.dumps(created["step"], ensure_ascii=False) == expected[0]
    key = created["id"]
    for command, line in zip(commands, expected[1:], strict=True):
        status, body = server.post(f"/tracks/{key}", {"command": command})
        assert body.decode() == line + "\n", command
        assert status == (400 if "error" in json.loads(line) else 200)
    assert any("error" in json.loads(line) for line in expected) and any("wins" in line for line in expected)
    found = find_game(game)
    same = Tracker(Shoe.standard(1), game=found, settings=found.settings_of(
        {"tie-pays": "11"} if game == "dragon-tiger" else {}))
    for command in commands:
        same.step(command)
    session = json.loads(server.call("GET", f"/tracks/{key}")[1])
    assert session["session"] == same.document() and session["session"]["game"] == game
    assert server.call("DELETE", f"/tracks/{key}")[0] == 200


def test_200_concurrent_requests_are_all_answered_correctly(server: Server) -> None:
    """200 requests at once, on 200 shoes (20 in the quick run, each asked 10 times), each answer checked."""
    shoes = 200 if is_slow() else 20
    removed = [",".join(RANKS[(i + j) % 13].value for j in range(i % 9 + 1)) for i in range(shoes)] * (200 // shoes)

    def ask(cards: str) -> tuple[int, bytes]:
        return server.post("/odds", {"decks": 8, "remove": cards})

    with ThreadPoolExecutor(200) as pool:
        answers = list(pool.map(ask, removed))
    expected = {cards: render(analyze(Shoe.standard(8).remove(cards)), "json", 10) for cards in set(removed)}
    for cards, (status, body) in zip(removed, answers, strict=True):
        assert status == 200 and body.decode() == expected[cards]
    assert server.call("GET", "/health")[0] == 200


# --- bad input: a 4xx with one line, never a 500 --------------------------------------------------------


def bad_bodies() -> Iterator[object]:
    """Bodies no endpoint takes: each hostile string of test_hostile in each key, and broken JSON.

    The quick run sends each string in every third key, in turn (each key gets some five strings, each string some
    four keys); the slow profile each string in each key."""
    for i, value in enumerate(HOSTILE):
        for k, key in enumerate(("decks", "remove", "shoe", "rules", "player_5", "given", "precision", "fields",
                                 "bets_toml", "rebate", "rebate_basis")):
            if is_slow() or (i + k) % 3 == 0:
                yield {key: value}
        yield {"bets": [value]}
        yield {"counts": {value: 1}}
        yield {"counts": {"A": value}}
        yield {value: 1}


RAW = [b"", b"[1, 2]", b"null", b"{", b'{"decks": 8, "decks": 6}', b'{"decks": NaN}', b'{"decks": 1e999999}',
       b'{"decks": ' + b"9" * 5000 + b"}", b"[" * 100_000, b'{"a":' * 50_000, b'{"decks": 8\xff}',
       b'{"decks": ' + b"9" * 4000 + b"}", b'{"decks": true}', b'{"decks": 1.5}', b'{"precision": 1e300}',
       b'{"counts": {"A": ' + b"[" * 980 + b"]" * 980 + b"}}", b'{"bets": ' + b"[" * 980 + b"]" * 980 + b"}",
       b'{"shoes": [' + b"[" * 980 + b"]" * 980 + b"]}"]


def test_hostile_bodies_are_4xx_with_one_error_line(server: Server) -> None:
    requests = [("/odds", json.dumps(body).encode()) for body in bad_bodies()]
    requests += [(path, raw) for raw in RAW for path in ("/odds", "/batch", "/solve", "/edge-sort", "/design",
                                                         "/tracks")]
    requests += [("/batch", json.dumps({"shoes": [{"decks": v} for v in HOSTILE]}).encode())]
    requests += [(path, json.dumps(body).encode()) for v in HOSTILE for path, body in (
        ("/solve", {"commission": v, "decks": 1}), ("/solve", {"model": v}), ("/solve", {"game": v}),
        ("/edge-sort", {"decks": 1, "cards": 1, "high": v}), ("/edge-sort", {"decks": 1, "cards": v}),
        ("/tracks", {"decks": 1, "bets": [v]}), ("/batch", {"shoes": [], "fields": v}),
        ("/design", {"bet": "dragon-7", "edge": v}), ("/design", {"bet": v, "edge": "5%:6%"}),
        *(("/design", {"bet": "dragon-7", "edge": "5%:6%", key: v}) for key in ("step", "min_pay", "max_pay", "decks")),
        ("/design", {"bet": "dragon-7", "edge": "5%:6%", "free": [v]}),
        ("/design", {"bet": "dragon-7", "edge": "7.6%", "solve": v}))]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda r: (r, server.call("POST", r[0], r[1])), requests))
    for (path, raw), (status, body) in answers:
        if path == "/batch" and status == 200:  # each bad shoe of a batch is its own error line
            assert all("error" in r for r in json.loads(body)["results"]), raw[:80]
            continue
        assert 400 <= status < 500, (path, raw[:80], status, body[:200])
        message = json.loads(body)["error"]
        assert message and "\n" not in message and "Traceback" not in message, message


def test_hostile_track_commands_are_400_with_the_step_s_error_and_leave_the_session_as_it_was(server: Server) -> None:
    key = json.loads(server.post("/tracks", {"decks": 1, "bets": ["tie"]})[1])["id"]
    before = server.call("GET", f"/tracks/{key}")[1]
    for value in (*HOSTILE, "K " * 30, "save", "load ../../etc/passwd", "burn", "P", "x" * 30_000):
        status, body = server.post(f"/tracks/{key}", {"command": value})
        step = json.loads(body)
        assert status == 400 and set(step) == {"command", "error"} and "\n" not in step["error"], (value[:40], step)
    assert server.call("GET", f"/tracks/{key}")[1] == before
    for bad in ({"command": 7}, {"command": ["7"]}, {}, {"command": "7", "decks": 1}):
        status, body = server.post(f"/tracks/{key}", bad)
        assert status == 400 and set(json.loads(body)) == {"error"}
    status, body = server.post("/tracks/" + "x" * 5000, {"command": "7"})
    assert status == 404 and len(json.loads(body)["error"]) < 200


def test_a_body_over_one_mib_is_413_before_it_is_read(server: Server) -> None:
    for body in (b"{" + b" " * (2 << 20) + b"}", b'{"bets_toml": "' + b"#" * (1 << 20) + b'"}'):
        status, answer = server.call("POST", "/odds", body)
        assert status == 413 and json.loads(answer) == {
            "error": "the body is larger than 1,048,576 bytes, the most a request may send"}
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:  # no Content-Length: the body in chunks, refused once past the bound
        connection.request("POST", "/odds", body=iter([b" " * (512 << 10)] * 3), encode_chunked=True)
        response = connection.getresponse()
        assert response.status == 413 and json.loads(response.read())["error"].startswith("the body is larger")
    finally:
        connection.close()


def test_a_track_command_is_one_line_and_unknown_sessions_and_paths_are_404(server: Server) -> None:
    key = json.loads(server.post("/tracks", {"decks": 1})[1])["id"]
    status, body = server.post(f"/tracks/{key}", {"command": "7\nK"})
    assert status == 400 and json.loads(body)["error"].startswith("a command is one line")
    status, body = server.post(f"/tracks/{key}", {"command": "quit"})
    assert status == 200 and json.loads(body) == {"command": "quit", "quit": True}
    assert server.call("GET", f"/tracks/{key}")[0] == 404  # quit ends the session
    assert server.call("GET", "/nowhere")[0] == 404 and server.call("PUT", "/odds")[0] == 405


def test_openapi_describes_every_endpoint_and_docs_load_nothing_from_elsewhere(server: Server) -> None:
    status, body = server.call("GET", "/openapi.json")
    paths = json.loads(body)["paths"]
    assert status == 200 and set(paths) == {endpoint.path for endpoint in ENDPOINTS}
    keys = paths["/design"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert "LOW:HIGH" in keys["decks"]["description"] and "write" not in keys  # the server writes no file
    assert sorted(paths["/tracks/{id}"]) == ["delete", "get", "post"]
    status, page = server.call("GET", "/docs")
    assert status == 200 and b"/odds" in page and b"<script" not in page and b"https://" not in page


# --- the sessions, in process ----------------------------------------------------------------------------


def test_sessions_are_capped_and_expire_when_idle() -> None:
    now = [0.0]
    tracks = Tracks(limit=2, idle=60, clock=lambda: now[0])
    first = tracks.create(Tracker(Shoe.standard(1), bets=["tie"]), 4)["id"]
    tracks.create(Tracker(Shoe.standard(1), bets=["tie"]), 4)
    with pytest.raises(Full, match="2 tracking sessions are open"):
        tracks.create(Tracker(Shoe.standard(1), bets=["tie"]), 4)
    now[0] = 30
    tracks.step(first, "7")  # used: its idle time starts again
    now[0] = 61
    assert len(tracks) == 1
    tracks.create(Tracker(Shoe.standard(1), bets=["tie"]), 4)
    now[0] = 200
    with pytest.raises(NotFound):
        tracks.get(first)


# --- the docs' examples run --------------------------------------------------------------------------------


def curl_examples() -> list[tuple[int, str, list[str]]]:
    """The ``$ curl`` examples of docs/serve.md: (line, command, expected output lines)."""
    lines = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8").split("\n")
    out = []
    for number, line in enumerate(lines):
        if line.startswith("$ curl "):
            expected = []
            for after in lines[number + 1:]:
                if after.startswith(("$ ", "```")):
                    break
                expected.append(after)
            out.append((number + 1, line[2:], expected))
    return out


def _request_of(command: str) -> tuple[str, str, str | None]:
    """The method, path and body a ``curl -s [-X METHOD] [-d BODY] URL`` command sends."""
    words = shlex.split(command)[1:]
    method, body, url = None, None, ""
    while words:
        word = words.pop(0)
        if word == "-X":
            method = words.pop(0)
        elif word == "-d":
            body = words.pop(0)
        elif word != "-s":
            url = word
    return method or ("POST" if body is not None else "GET"), re.sub(r"^http://[^/]+", "", url), body


def _curl_works(server: Server) -> bool:
    if shutil.which("curl") is None:
        return False
    done = subprocess.run(["curl", "-s", "--noproxy", "*", f"http://127.0.0.1:{server.port}/health"],
                          capture_output=True, timeout=30)
    return done.returncode == 0 and done.stdout.startswith(b'{"status": "ok"')


def test_the_curl_examples_of_the_docs_give_what_they_show(server: Server) -> None:
    """Each ``$ curl`` example of docs/serve.md, against the live server (the page's port replaced by its own).

    When curl is there and can reach the server, each example is run by curl itself; else (curl is missing, as it
    may be on CI, or kept from the network) the same request (method, body, path) is sent by the standard library.
    """
    examples = curl_examples()
    assert len(examples) >= 6
    use_curl = _curl_works(server)
    ids: dict[str, str] = {}  # a session's id on the page: the live one (each is random)
    for line, command, expected in examples:
        for shown_id, live in ids.items():
            command = command.replace(shown_id, live)
            expected = [text.replace(shown_id, live) for text in expected]
        method, path, body = _request_of(command)
        if use_curl:  # curl first: the answer of a tracking command depends on the commands before it
            args = [*shlex.split(command.replace("8765", str(server.port))), "--noproxy", "*"]
            answer = subprocess.run(args, capture_output=True, timeout=30).stdout
        else:
            answer = server.call(method, path, body)[1]
        if path == "/tracks":
            ids[json.loads(expected[0])["id"]] = json.loads(answer)["id"]
            expected = [expected[0].replace(json.loads(expected[0])["id"], json.loads(answer)["id"])]
        shown = [text for text in expected if text.strip()]
        assert answer.decode().splitlines() == shown, f"docs/serve.md:{line}: {command}"


# --- a second server: off loopback, a slow request, SIGTERM ---------------------------------------------


def test_a_slow_request_leaves_health_answering_and_sigterm_stops_the_server_cleanly() -> None:
    """Listening on 0.0.0.0 warns in one line; a request past the time limit (1 s) is 503 while /health answers
    at once; SIGTERM ends the server with status 0 while the slow work still runs (its thread is a daemon)."""
    server = start("--host", "0.0.0.0", "--time-limit", "1")
    try:
        assert server.log[0].startswith("Warning: listening on 0.0.0.0") and len(server.log) == 2
        slow: list[tuple[int, bytes]] = []
        asking = threading.Thread(target=lambda: slow.append(server.post(
            "/edge-sort", {"decks": 10**30, "cards": 6, "best_sort": True})))
        asking.start()
        time.sleep(0.3)
        assert server.call("GET", "/health", timeout=10)[0] == 200
        assert asking.is_alive()  # /health was answered while the slow request was still under way
        asking.join(timeout=30)
        status, body = slow[0]
        assert status == 503 and json.loads(body)["error"].startswith("the request took longer than 1 s")
    finally:
        code = stop(server)
    assert code == 0 and server.log[-1] == "exactodds serve: stopped\n" and "Traceback" not in "".join(server.log)


def test_the_server_s_socket_says_it_is_tcp_so_that_answers_are_not_held_back() -> None:
    """asyncio sets TCP_NODELAY only on a connection whose socket says IPPROTO_TCP: a socket made without it held
    each answer's body back for the client's delayed acknowledgement, some 40 ms a request (benchmarks/serve.py)."""
    from exactodds.serve.app import listening_socket

    with listening_socket("127.0.0.1", 0) as sock, socket.create_connection(sock.getsockname()[:2]) as client:
        accepted, _ = sock.accept()
        with accepted:
            assert accepted.proto == socket.IPPROTO_TCP
    del client


def test_a_bad_host_or_a_missing_extra_is_one_error_line() -> None:
    result = CliRunner().invoke(cli, ["serve", "--host", "example.com"])
    assert result.exit_code == 2 and result.stderr == (
        "Error: --host 'example.com' is not an IP address: give one such as 127.0.0.1, ::1 or 0.0.0.0 (or localhost)\n")
    code = ("import sys; sys.modules['uvicorn'] = None\n"
            "from exactodds.cli import main; sys.argv = ['exactodds', 'serve']; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and done.stderr == (
        "Error: serve needs the serve extra (uvicorn is not installed): pip install 'exactodds[serve]'\n")
