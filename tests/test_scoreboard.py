"""The scoreboard beside the tracker: the roads of ``track --script`` and ``/tracks`` are the pure functions' of the
coups dealt (:mod:`exactodds.roads`), coup by coup; the odds of the next coup are the engine's, read through other
bets; the odds of each ask-road colour follow from them; a game whose coups are not baccarat's has no scoreboard."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from click.testing import CliRunner

from exactodds.cards import RANK_POINTS, Shoe
from exactodds.cli import cli
from exactodds.coups import road_result
from exactodds.present.tracker import step_json
from exactodds.puntobanco.odds import analyze
from exactodds.roads import Result, ask, roads
from exactodds.tracker import Tracker


def _deal(rng: random.Random, tracker: Tracker, coups: int) -> list[tuple[str, dict]]:
    """Deal ``coups`` coups card by card (six random cards a line: some coups end mid-line), each step's JSON."""
    steps = []
    ranks = [r for r, n in tracker.state.shoe.as_dict().items() for _ in range(n)]
    rng.shuffle(ranks)
    while len(tracker.state.coups) < coups and len(ranks) > 12:
        line = " ".join(ranks[:3])
        del ranks[:3]
        step = tracker.step(line)
        assert step.error is None, step.error
        steps.append((line, step_json(step)))
    return steps


def _letters(tracker: Tracker) -> list[Result]:
    """The coups dealt so far as the scoreboard reads them, from their cards by the rules text: the winner by the
    totals, a pair in the first two cards of a hand, a natural in a two-card hand worth 8 or 9."""
    out = []
    for coup in tracker.state.coups:
        player, banker = coup.hands
        p, b = (sum(RANK_POINTS[c] for c in hand) % 10 for hand in (player, banker))
        winner = "P" if p > b else "B" if b > p else "T"
        natural = any(len(h) == 2 and sum(RANK_POINTS[c] for c in h) % 10 >= 8 for h in (player, banker))
        out.append(Result(winner, banker_pair=banker[0] == banker[1], player_pair=player[0] == player[1],
                          natural=natural))
    return out


def test_each_step_carries_the_roads_and_ask_road_of_the_coups_dealt_and_the_next_coup_s_exact_odds() -> None:
    rng = random.Random(11)
    tracker = Tracker(Shoe.standard(2), bets=["banker"])
    steps = _deal(rng, tracker, 12)
    assert len(tracker.state.coups) >= 12
    replay = Tracker(Shoe.standard(2), bets=["banker"])
    for line, data in steps:
        replay.step(line)
        results = _letters(replay)
        assert data["roads"] == roads(results).to_json()
        assert data["ask"] == ask(results)
        # The next coup's odds against the engine's through other bets: the Tie's win, the Player bet's win.
        shoe = replay.state.shoe
        tie = analyze(shoe, bets=["tie"]).bet("tie").outcomes[0].probability
        player = next(o.probability for o in analyze(shoe, bets=["player"]).bet("player").outcomes
                      if o.outcome.id == "win")
        chances = {side: Fraction(data["next"][side]["probability"]) for side in ("banker", "player", "tie")}
        assert chances == {"banker": 1 - tie - player, "player": player, "tie": tie}
        for road, colours in data["ask_odds"].items():
            expected = {"red": Fraction(0), "blue": Fraction(0)}
            for side in ("banker", "player"):
                if data["ask"][side][road] is not None:
                    expected[data["ask"][side][road]] += chances[side]
            assert {c: Fraction(v["probability"]) for c, v in colours.items()} == expected


def test_a_coup_s_markers_are_read_from_its_cards() -> None:
    tracker = Tracker(Shoe.standard(1), bets=["banker"])
    for line in ("P 4 4 B 9 K", "P 7 2 B 7 3", "P 2 3 9 B 3 4", "P 5 5 2 B 8 8"):
        assert tracker.step(line).error is None
    got = [road_result(coup) for coup in tracker.state.coups]
    assert got == [Result("B", player_pair=True, natural=True), Result("P", natural=True), Result("B"),
                   Result("B", banker_pair=True, player_pair=True)]
    assert got == _letters(tracker)


def test_the_script_s_json_and_the_api_s_carry_the_same_scoreboard() -> None:
    lines = ["P 2 3 9 B 3 4", "P 4 4 B 9 K", "7 7 2 3", "P 8 K B 6 J"]
    out = CliRunner().invoke(cli, ["track", "--decks", "1", "--bet", "tie", "--script", "-"],
                             input="\n".join(lines) + "\n")
    assert out.exit_code == 0, out.output
    script = [json.loads(line) for line in out.stdout.splitlines()]
    from exactodds.serve.endpoints import ENDPOINTS, answer
    from exactodds.serve.tracks import Tracks

    tracks = Tracks()

    new = next(e for e in ENDPOINTS if e.method == "POST" and e.path == "/tracks")
    step = next(e for e in ENDPOINTS if e.method == "POST" and e.path == "/tracks/{id}")
    get = next(e for e in ENDPOINTS if e.method == "GET" and e.path == "/tracks/{id}")
    started = json.loads(answer(new, {"decks": 1, "bets": ["tie"]}, {}, tracks).body)
    first = {k: v for k, v in started["step"].items() if k != "header"}
    assert first == {k: v for k, v in script[0].items() if k != "header"}
    for line, expected in zip(lines, script[1:]):
        assert json.loads(answer(step, {"command": line}, {"id": started["id"]}, tracks).body) == expected
    session = json.loads(answer(get, None, {"id": started["id"]}, tracks).body)
    assert [c["text"] for c in session["coups"]] == ["P 2 3 9 B 3 4", "P 4 4 B 9 K", "P 7 2 B 7 3", "P 8 K B 6 J"]
    assert [c["winner"] for c in session["coups"]] == ["banker", "banker", "player", "player"]
    assert session["step"]["roads"]["big_road"] == [[0, 0, "B", 0], [0, 1, "B", 0], [1, 0, "P", 0], [1, 1, "P", 0]]


def test_a_game_whose_coups_are_not_baccarat_s_has_no_scoreboard() -> None:
    out = CliRunner().invoke(cli, ["track", "--game", "dragon-tiger", "--decks", "1", "--script", "-"],
                             input="dragon 7 tiger K\n")
    assert out.exit_code == 0, out.output
    for line in out.stdout.splitlines():
        data = json.loads(line)
        assert "roads" not in data and "next" not in data
