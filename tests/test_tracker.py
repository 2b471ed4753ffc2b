"""The live shoe tracker: its --script JSON lines against analyze() of the cards left, coups checked by hand against
the tableau, undo, save/load read back with json, bad input, and a real terminal (pexpect)."""

from __future__ import annotations

import json
import os
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples

from exactodds.cards import RANKS, Shoe
from exactodds.cli import cli
from exactodds.puntobanco.bets import bet_catalog
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import BIG_TABLE, PUNTO_BANCO
from exactodds.tracker import Tracker, parse_command

ROOT = Path(__file__).resolve().parent.parent


def script(lines: list[str], *options: str) -> list[dict]:
    """Run `track --script -` on ``lines``; one JSON object per output line (the first is the starting shoe)."""
    result = CliRunner().invoke(cli, ["track", *options, "--script", "-"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert result.stderr == ""
    return [json.loads(line) for line in result.stdout.splitlines()]


def left(step: dict) -> Shoe:
    return Shoe.from_counts(step["left"]["counts"])


def assert_exact(step: dict, bets: list[str] | None = None, rules=PUNTO_BANCO) -> None:
    """Every EV of the step is analyze()'s of the cards left, to the last digit, with the favourable flags."""
    expected = analyze(left(step), rules, bets)
    assert [b["id"] for b in step["bets"]] == [f.bet.id for f in expected.bets]
    for shown, figures in zip(step["bets"], expected.bets):
        assert Fraction(shown["ev"]) == figures.ev
        assert shown["favourable"] == (figures.ev > 0)


def test_every_step_is_analyze_of_the_cards_left():
    lines = ["7", "K", "T 10", "9", "burn 5", "P 2 3 9 B 3 4", "q j 4 A 8", "undo", "A 8"]
    steps = script(lines, "--decks", "1")
    assert [s["command"] for s in steps] == ["start", *lines]
    assert "error" not in json.dumps(steps)
    for step in steps:
        assert_exact(step)
    # The cards left follow the cards typed, one by one (10 is a ten; suits and case do not matter).
    assert left(steps[1]) == Shoe.standard(1).without_suits().remove("7")
    assert left(steps[3]) == Shoe.standard(1).without_suits().remove("7,K,T,T")
    assert steps[-1]["running"]["dealt"] == 52 - steps[-1]["left"]["cards"] == 5 + 1 + 5 + 2


def test_all_is_the_catalog_a_shoe_by_rank_prices_step_by_step_and_exact_too():
    # "all" in the tracker: every bet of the catalog but those that need suits (the tracker follows ranks) and those
    # that read the dealt cards (the card walk's, too slow for a step: by id only), in the catalog's order.
    catalog = bet_catalog(PUNTO_BANCO, full=True).values()
    ids = [b.id for b in catalog if not b.needs_suits and not b.reads_cards]
    assert ids and any(b.needs_suits for b in catalog) and any(b.reads_cards for b in catalog)  # some left out
    steps = script(["P 9 K B 2 2", "7 7 8"], "--decks", "8", "--bet", "all")
    for step in steps:
        assert_exact(step, ids)


def test_a_card_bet_can_be_tracked_by_id():
    steps = script(["P 9 K B 2 2"], "--decks", "1", "--bet", "3-giving-8")
    for step in steps:
        assert_exact(step, ["3-giving-8"])


def test_favourable_bets_are_flagged():
    # Sixes and sevens gone, many eights left: Panda 8 and Dragon 7 move; whichever EV is positive is flagged.
    steps = script(["6 6 6 6 7 7 7 7 6 6 6 6 7 7 7 7"], "--decks", "2", "--bet", "dragon-7", "--bet", "panda-8",
                   "--bet", "tie")
    assert_exact(steps[-1], ["dragon-7", "panda-8", "tie"])
    flags = {b["id"]: b["favourable"] for b in steps[-1]["bets"]}
    assert flags == {b["id"]: Fraction(b["ev"]) > 0 for b in steps[-1]["bets"]}


@pytest.mark.parametrize(
    ("coup", "winner"),
    [
        ("P 2 3 9 B 3 4", "banker"),  # Player 5 draws a 9 -> 4; Banker 7 stands
        ("P 5 4 B K K", "player"),  # Player natural 9: nobody draws
        ("P K K 5 B 3 3", "banker"),  # Player 0 draws a 5 -> 5; Banker 6 stands against a 5: 6 beats 5
        ("P 3 3 B 2 2 K", "player"),  # Player 6 stands; Banker 4 draws (the Player stood) a K -> 4
        ("P 4 2 B 4 2", "tie"),  # both stand on 6
    ],
)
def test_whole_coups_are_settled_by_the_tableau(coup, winner):
    steps = script([coup], "--decks", "1")
    assert "error" not in steps[-1], steps[-1]
    assert steps[-1]["running"]["coups"] == 1
    assert steps[-1]["running"]["wins"][winner] == 1
    assert_exact(steps[-1])


@pytest.mark.parametrize(
    "coup",
    [
        "P 2 3 B 3 4",  # the Player's 5 must draw
        "P 2 3 9 B 3 4 K",  # a Banker 7 never draws
        "P 5 4 6 B K K",  # a natural ends the coup
        "P K K 5 B 3 3 K",  # a Banker 6 stands against a Player's third card 5
        "P 3 3 B 2 2",  # a Banker 4 draws when the Player stood
    ],
)
def test_an_illegal_coup_is_one_message_and_changes_nothing(coup):
    steps = script([coup, "7"], "--decks", "1")
    assert steps[1]["error"].startswith("not a legal coup"), steps[1]
    assert set(steps[1]) == {"command", "error"}
    assert steps[2]["left"]["cards"] == 51  # the coup's cards were not taken


def test_cards_typed_one_by_one_make_the_same_coups():
    one_by_one = script(["2", "3", "3", "4", "9", "5 K 4 K", "3 2 3 2 K"], "--decks", "1")
    whole = script(["P 2 3 9 B 3 4", "P 5 4 B K K", "P 3 3 B 2 2 K"], "--decks", "1")
    assert "error" not in json.dumps(one_by_one + whole)
    assert one_by_one[-1]["running"] == whole[-1]["running"]
    assert one_by_one[-1]["running"]["wins"] == {"player": 2, "banker": 1, "tie": 0}
    assert one_by_one[-1]["left"] == whole[-1]["left"]
    # Mid-coup, the coup in progress is shown and a whole coup or a burn is refused until it ends.
    mid = script(["2 3 3 4", "burn 5", "P 5 4 B K K"], "--decks", "1")
    assert mid[1]["running"]["in_progress"] == "2 3 3 4"
    assert "coup is in progress" in mid[2]["error"] and "coup is in progress" in mid[3]["error"]


def test_big_table_coups_may_draw_or_stand_on_five():
    for coup in ("P 2 3 B K 7", "P 2 3 K B K 7"):
        steps = script([coup], "--decks", "1", "--rules", "big-table", "--bet", "banker")
        assert "error" not in steps[-1], steps[-1]
        assert steps[-1]["running"]["coups"] == 1
    tracker = Tracker(Shoe.standard(1), BIG_TABLE, ["banker"])
    assert tracker.step("P 2 3 B K 7").analysis.bet("banker").ev == analyze(
        Shoe.standard(1).without_suits().remove("2,3,K,7"), BIG_TABLE, ["banker"]).bet("banker").ev


def test_undo_steps_back_exactly():
    steps = script(["7 K", "9", "undo", "undo", "undo", "undo"], "--decks", "1")
    assert steps[3] == {**steps[1], "command": "undo"}
    assert steps[4]["left"] == steps[0]["left"] and steps[4]["bets"] == steps[0]["bets"]
    assert steps[5]["error"] == "nothing to undo"
    # `new shoe` is a step too: undo brings the dealt shoe back.
    again = script(["7 K", "new shoe", "undo"], "--decks", "1")
    assert again[2]["left"] == again[0]["left"] and again[3]["left"] == again[1]["left"]


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "shoe.json"
    steps = script(["burn 5", "P 2 3 9 B 3 4", "7 K", f"save {path}"], "--decks", "2")
    saved = json.loads(path.read_text(encoding="utf-8"))  # read back by the standard reader
    assert saved["format"] == "exactodds-track" and saved["version"] == 1
    assert saved["steps"] == ["burn 5", "P 2 3 9 B 3 4", "7 K"]
    assert saved["start"]["counts"] == Shoe.standard(2).as_dict()
    assert saved["left"]["counts"] == steps[-1]["left"]["counts"]
    assert Shoe.from_counts(saved["left"]["counts"]) == Shoe.standard(2).without_suits().remove("5,2,3,9,3,4,7,K")
    loaded = script([f"load {path}", "undo"], "--decks", "2")
    assert loaded[1]["left"] == steps[-1]["left"] and loaded[1]["running"] == steps[-1]["running"]
    assert loaded[1]["bets"] == steps[-1]["bets"]
    assert loaded[2]["running"]["in_progress"] == ""  # undo after a load steps back through the saved steps
    assert loaded[2]["left"] == steps[2]["left"]
    assert not list(tmp_path.glob("*.tmp"))  # written atomically: no temporary file left behind


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "it is not JSON"),
        (b"\xff\xfe", "it is not JSON"),
        (b"[]", "not a saved tracker session"),
        (b'{"format": "exactodds-track", "version": 2}', "version 2"),
        ("TAMPER_LEFT", "are not what its steps leave"),
        ("BAD_STEP", "step 1"),
        ("OTHER_RULES", "other rules"),
        ("NEGATIVE", "whole numbers"),
    ],
)
def test_a_bad_file_is_one_line(tmp_path, content, message):
    good = tmp_path / "good.json"
    script(["P 2 3 9 B 3 4", f"save {good}"], "--decks", "1")
    data = json.loads(good.read_text(encoding="utf-8"))
    if content == "TAMPER_LEFT":
        data["left"]["counts"]["K"] -= 1
    elif content == "BAD_STEP":
        data["steps"] = ["P 2 3 B 3 4"]
    elif content == "OTHER_RULES":
        data["rules"] = "ez"
    elif content == "NEGATIVE":
        data["start"]["counts"]["A"] = -1
    bad = tmp_path / "bad.json"
    bad.write_bytes(content if isinstance(content, bytes) else json.dumps(data).encode())
    steps = script([f"load {bad}", "7"], "--decks", "1")
    assert steps[1]["error"].startswith(f"cannot load {bad}: ") and message in steps[1]["error"], steps[1]
    assert "\n" not in steps[1]["error"]
    assert steps[2]["left"]["cards"] == 51  # the session went on untouched


BAD_LINES = [
    "٨", "\x00", "7\x00", "P", "B 2 2", "P 2 B 3 4", "P 2 3 4 5 B 1 1", "P 2 2 P 3 3", "burn", "save", "load",
    "load /proc/exactodds-nowhere/x.json", "save /proc/exactodds-nowhere/x.json", "K" * 5000, "7" * 20_000,
    "K K K K K", "1e99", "-1", "ace", "7h 7s 7d 7c 7x", "new shoe please", "undo undo",
    "load a\x00b", "save a\x00b", "save ~nouser-exactodds/x.json", "load ~nouser-exactodds/x.json", "load /",
    "save /proc", "load /dev/zero", "load " + "y" * 5000,
]


def test_bad_input_never_crashes():
    steps = script(BAD_LINES + ["7"], "--decks", "1")
    assert len(steps) == len(BAD_LINES) + 2
    for line, step in zip(BAD_LINES, steps[1:]):
        assert set(step) == {"command", "error"}, (line, step)
        assert step["error"] and "\n" not in step["error"] and "Traceback" not in step["error"]
    assert steps[-1]["left"]["cards"] == 51


def test_a_shoe_is_not_dealt_below_six_cards():
    steps = script(["A A A A A A"], "--shoe", "A=11")
    assert "fewer than a coup needs" in steps[1]["error"]


def test_comments_help_and_quit():
    result = CliRunner().invoke(cli, ["track", "--decks", "1", "--script", "-"],
                                input="# a note\n\nhelp\nquit\n7\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["command"] for r in rows] == ["start", "help", "quit"]  # nothing after quit is read
    assert "whole coup" in rows[1]["message"]


def test_without_a_terminal_stdin_is_read_as_a_script():
    # CliRunner's stdin is not a terminal: with no --script, the commands are read from it at once.
    result = CliRunner().invoke(cli, ["track", "--decks", "1"], input="7\n")
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[-1]["left"]["cards"] == 51
    assert CliRunner().invoke(cli, ["track", "--decks", "1"], input="").stdout.count("\n") == 1


def test_a_suited_bet_or_bad_options_are_one_error_line():
    for args in (["--bet", "perfect-pair"], ["--bet", "nope"], ["--decks", "1", "--shoe", "A=8"]):
        result = CliRunner().invoke(cli, ["track", *args, "--script", "-"], input="7\n")
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1


def test_a_script_file(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text("7\nP 2 3 9 B 3 4\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["track", "--decks", "1", "--script", str(path)])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["command"] for r in rows] == ["start", "7", "P 2 3 9 B 3 4"]


def test_parse_command_reads_words_case_insensitively():
    assert parse_command("NEW SHOE") == parse_command("new") == parse_command(" new  shoe ")
    assert parse_command("p 2 3 9 b 3 4") == parse_command("Player 2 3 9 Banker 3 4")


def test_in_a_real_terminal():
    pexpect = pytest.importorskip("pexpect")
    # No cursor-position replies from pexpect's pty: tell prompt_toolkit not to ask (a real terminal answers).
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(
        sys.executable, ["-m", "exactodds", "track", "--decks", "1", "--bet", "banker", "--bet", "tie"],
        cwd=str(ROOT), env=env, encoding="utf-8", timeout=30, dimensions=(40, 140),
    )
    try:
        child.expect("left 52 of 52")
        child.expect("track>")
        child.sendline("P 2 3 9 B 3 4")
        child.expect(r"left 47 of 52 · dealt 5 \(burned 0\) · coups 1: player 0 · banker 1 · tie 0")
        banker = analyze(Shoe.standard(1).remove("2,3,9,3,4"), bets=["banker"]).bet("banker")
        child.expect(r"banker\s+EV\s+" + figures_percent(banker.ev).replace("+", r"\+"))
        child.expect("track>")
        child.sendline("K K K K K")
        child.expect("the shoe holds 4 × K, not 5")
        child.expect("track>")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def figures_percent(ev: Fraction) -> str:
    from exactodds.exact import percent_text

    return percent_text(ev, 4)


def test_the_cli_starts_without_prompt_toolkit():
    # The terminal library is imported only when `track` runs interactively.
    import subprocess

    code = "import sys, exactodds.cli; print(sorted(m for m in sys.modules if m.startswith('prompt_toolkit')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@examples(100, 2)
@given(st.randoms(use_true_random=False), st.integers(6, 46))
def test_card_by_card_equals_coup_by_coup(rng, count):
    """Dealing a shuffled deck card by card makes the coups that, typed whole, give the same state; the cards left
    are the deck less the cards typed, and the EVs those of the reference walk on them."""
    cards = [rank.value for rank in RANKS for _ in range(4)]
    rng.shuffle(cards)
    by_card = Tracker(Shoe.standard(1), bets=["banker", "tie"])
    for card in cards[:count]:
        step = by_card.step(card)
        assert step.error is None, step.error
    state = by_card.state
    assert state.shoe == Shoe.standard(1).without_suits().remove(cards[:count])
    assert sum(len(c.player) + len(c.banker) for c in state.coups) + len(state.pending) == count
    by_coup = Tracker(Shoe.standard(1), bets=["banker", "tie"])
    for coup in state.coups:
        assert by_coup.step(coup.text()).error is None
    if state.pending:
        by_coup.step(" ".join(state.pending))
    assert (by_coup.state.shoe, by_coup.state.coups, by_coup.state.pending) == (state.shoe, state.coups, state.pending)
    reference = analyze(state.shoe, bets=["banker", "tie"], method="reference")
    assert [f.ev for f in by_card.figures().bets] == [f.ev for f in reference.bets]


def test_the_documented_pipe_is_real_output():
    # docs/tracker.md shows a pipe into `track` and its output: the page must stay what the program prints.
    page = (ROOT / "docs" / "tracker.md").read_text(encoding="utf-8")
    block = page.split("$ printf '8 4 Q J\\nP 2 3 B 3 4\\nundo\\n' | exactodds track --decks 1 --bet banker"
                       " --bet panda-8\n")[1].split("```")[0]
    result = CliRunner().invoke(cli, ["track", "--decks", "1", "--bet", "banker", "--bet", "panda-8"],
                                input="8 4 Q J\nP 2 3 B 3 4\nundo\n")
    assert result.stdout == block
    # The recorded terminal session ends on Panda 8 favourable at +10.8266%: the exact EV of the cards left.
    left = Shoe.standard(1).without_suits().remove("8,4,Q,J,T,2,A,2,T,K,9,2,6,A,9,4")
    ev = analyze(left, bets=["panda-8"]).bet("panda-8").ev
    assert f"panda-8      EV   +{figures_percent(ev)}  ◀ favourable" in page


# ---------------------------------------------------------------------------------------------
# Every game with bets: its coups followed where the game deals them card by card, else the cards only leave the shoe

from random import Random  # noqa: E402

from profiles import is_slow  # noqa: E402

from exactodds.cards import Rank  # noqa: E402
from exactodds.games import find_game, with_capability  # noqa: E402
from exactodds.tracker import Cards, TrackState, WholeCoup  # noqa: E402

DRAGON_TIGER = find_game("dragon-tiger")
THREE_CARD = find_game("three-card-baccarat")
#: A low, K high: the order of Dragon Tiger's ranks, as its rules say (and the order of a shoe's counts).
ORDER = "A23456789TJQK"


def dragon_tiger_winner(dragon: str, tiger: str) -> str:
    """Dragon Tiger's rule, written here: the higher rank wins, A low and K high; equal ranks tie."""
    d, t = ORDER.index(dragon), ORDER.index(tiger)
    return "dragon" if d > t else "tiger" if t > d else "tie"


def dragon_tiger_evs(shoe: Shoe) -> dict[str, Fraction]:
    """The Dragon, Tiger and Tie bets' EVs on ``shoe``, summed here over every ordered pair of ranks: Dragon and Tiger
    pay 1:1 and lose half on a tie, the Tie pays 8:1."""
    counts = dict(zip(ORDER, shoe.counts))
    evs = dict.fromkeys(("dragon", "tiger", "tie"), Fraction(0))
    for d in ORDER:
        for t in ORDER:
            ways = Fraction(counts[d] * (counts[t] - (d == t)), shoe.size * (shoe.size - 1))
            won = dragon_tiger_winner(d, t)
            for side in ("dragon", "tiger"):
                evs[side] += ways * (Fraction(-1, 2) if won == "tie" else 1 if won == side else -1)
            evs["tie"] += ways * (8 if won == "tie" else -1)
    return evs


def dragon_tiger_script(rng: Random, steps: int) -> tuple[list[str], list[tuple[list[str], list[str], dict]]]:
    """A script of coups dealt from a shuffled deck (cards one to three a line, whole coups, burns, undo), and what
    each line leaves, worked out here: the cards gone, the coup in progress, the tally of winners."""
    deck = [rank.value for rank in RANKS for _ in range(4)]
    rng.shuffle(deck)
    gone: list[str] = []
    pending: list[str] = []
    wins = {"dragon": 0, "tiger": 0, "tie": 0}
    history: list[tuple[list[str], list[str], dict]] = []
    lines, expected = [], []
    while len(lines) < steps and len(gone) < 40:
        kind = rng.choice(["cards", "cards", "whole", "burn", "undo"] if not pending else ["cards", "cards"])
        if kind == "undo" and history:
            gone, pending, wins = history.pop()
            lines.append("undo")
            expected.append((list(gone), list(pending), dict(wins)))
            continue
        history.append((list(gone), list(pending), dict(wins)))
        if kind in ("cards", "undo"):
            cards = deck[len(gone) : len(gone) + rng.randint(1, 3)]
            lines.append(" ".join(cards))
            for card in cards:
                pending.append(card)
                if len(pending) == 2:
                    wins[dragon_tiger_winner(*pending)] += 1
                    pending = []
        elif kind == "whole":
            cards = deck[len(gone) : len(gone) + 2]
            lines.append(f"dragon {cards[0]} tiger {cards[1]}")
            wins[dragon_tiger_winner(*cards)] += 1
        else:
            cards = deck[len(gone) : len(gone) + 1]
            lines.append(f"burn {cards[0]}")
        gone = gone + cards
        expected.append((list(gone), list(pending), dict(wins)))
    return lines, expected


@pytest.mark.parametrize("seed", [28, *([1, 2, 3] if is_slow() else [])])
def test_dragon_tiger_coups_are_followed_and_every_step_is_the_exact_price_of_the_cards_left(seed):
    lines, expected = dragon_tiger_script(Random(seed), 40 if is_slow() else 14)
    steps = script(lines, "--game", "dragon-tiger", "--decks", "1", "--bet", "dragon", "--bet", "tiger",
                   "--bet", "tie")
    assert steps[0]["header"] == "1 deck (52 cards) · dragon-tiger · tie 8:1"
    assert steps[0]["running"]["wins"] == {"dragon": 0, "tiger": 0, "tie": 0}
    settings = DRAGON_TIGER.settings_of({})
    full = Shoe.standard(1).without_suits()
    for line, step, (gone, pending, wins) in zip(lines, steps[1:], expected, strict=True):
        assert "error" not in step, (line, step)
        left = full.remove(gone) if gone else full
        assert Shoe.from_counts(step["left"]["counts"]) == left, line
        assert step["running"]["wins"] == wins and step["running"]["coups"] == sum(wins.values()), line
        assert step["running"]["in_progress"] == " ".join(pending)
        priced = DRAGON_TIGER.price(left, ["dragon", "tiger", "tie"], settings)
        by_hand = dragon_tiger_evs(left)
        for shown, figures in zip(step["bets"], priced.bets, strict=True):
            assert Fraction(shown["ev"]) == figures.ev == by_hand[shown["id"]], (line, shown)
            assert shown["favourable"] == (figures.ev > 0)
    assert sum(expected[-1][2].values()) > 0  # the script did finish coups


def test_dragon_tiger_refusals_are_one_line_and_change_nothing():
    bad = ["dragon 7 tiger K K", "dragon 7", "dragon 7 dragon 8", "tiger K", "P 2 3 B 4 5", "D 7 T K", "ace"]
    mid = ["7", "dragon 5 tiger 5", "burn 5"]
    steps = script([*bad, *mid, "K"], "--game", "dragon-tiger", "--decks", "1", "--bet", "tie")
    for line, step in zip(bad, steps[1:]):
        assert set(step) == {"command", "error"} and "\n" not in step["error"], (line, step)
    assert steps[1]["error"] == "the Tiger holds 1 card in a coup, not 2"
    assert "a coup names the Dragon and the Tiger once each" == steps[3]["error"]
    assert "coup is in progress (dragon 7)" in steps[-3]["error"] and "coup is in progress" in steps[-2]["error"]
    assert steps[-1]["left"]["cards"] == 50 and steps[-1]["running"]["wins"] == {"dragon": 0, "tiger": 1, "tie": 0}
    # A bet on suits is refused by id; the default bets are those a shoe known by rank prices.
    result = CliRunner().invoke(cli, ["track", "--game", "dragon-tiger", "--bet", "suited-tie", "--script", "-"],
                                input="7\n")
    assert result.exit_code == 2 and result.stderr == (
        "Error: the tracker follows ranks, not suits: suited-tie cannot be tracked\n")
    ids = [b["id"] for b in script([], "--game", "dragon-tiger")[0]["bets"]]
    assert ids == [b.id for b in DRAGON_TIGER.resolve(None, DRAGON_TIGER.settings_of({})) if not b.needs_suits]
    assert "suited-tie" not in ids and "dragon" in ids


def test_dragon_tiger_sessions_are_saved_with_their_game_and_loaded_back(tmp_path):
    path, other = tmp_path / "dt.json", tmp_path / "pb.json"
    options = ["--game", "dragon-tiger", "--decks", "2", "--bet", "tie"]
    steps = script(["burn 5", "dragon 2 tiger 9", "7 7", "K", f"save {path}"], *options)
    saved = json.loads(path.read_text(encoding="utf-8"))  # read back by the standard reader
    assert list(saved) == ["format", "version", "game", "rules", "start", "steps", "left"]
    assert saved["game"] == "dragon-tiger" and saved["rules"] == "dragon-tiger · tie 8:1"
    assert saved["steps"] == ["burn 5", "dragon 2 tiger 9", "7 7", "K"]
    assert Shoe.from_counts(saved["left"]["counts"]) == Shoe.standard(2).without_suits().remove("5,2,9,7,7,K")
    loaded = script([f"load {path}", "undo", "undo"], *options)
    assert loaded[1]["left"] == steps[-1]["left"] and loaded[1]["running"] == steps[-1]["running"]
    assert loaded[1]["bets"] == steps[-1]["bets"] and loaded[1]["running"]["in_progress"] == "K"
    # undo after a load steps back through the saved steps: the K, then the two 7s (a tie)
    assert loaded[2]["running"]["in_progress"] == "" and loaded[2]["running"]["wins"] == loaded[1]["running"]["wins"]
    assert loaded[1]["running"]["wins"] == {"dragon": 0, "tiger": 1, "tie": 1}
    assert loaded[3]["running"]["wins"] == {"dragon": 0, "tiger": 1, "tie": 0}
    # Another game's session, or other rules, is refused in one line; a punto banco file names no game, as before.
    script(["P 2 3 9 B 3 4", f"save {other}"], "--decks", "2")
    assert "game" not in json.loads(other.read_text(encoding="utf-8"))
    for options_, file, message in ((options, other, "saved for the game 'punto-banco', not dragon-tiger"),
                                    (["--decks", "2"], path, "saved for the game 'dragon-tiger', not punto-banco"),
                                    ([*options, "--tie-pays", "11"], path, "saved under other rules")):
        refused = script([f"load {file}"], *options_)[1]
        assert set(refused) == {"command", "error"} and message in refused["error"], refused


def three_card_winner(player: str, banker: str) -> str:
    """Three Card Baccarat's rule, written here: three faces (J Q K) beat all, then the higher total (mod 10, tens
    and faces 0), then more faces; else a tie."""

    def strength(hand: str) -> tuple[bool, int, int]:
        faces = sum(card in "JQK" for card in hand)
        return faces == 3, sum(0 if card in "TJQK" else ORDER.index(card) + 1 for card in hand) % 10, faces

    p, b = strength(player), strength(banker)
    return "player" if p > b else "banker" if b > p else "tie"


def test_three_card_coups_are_dealt_three_and_three():
    # A refused coup (priced never), a whole coup, a coup in progress over two lines, a coup card by card: each
    # step is priced (a third of a second), so the slow profile adds the random coups.
    deals = [("JQK", "99A"), ("88T", "2J4")]
    lines = ["P J Q B 2 3 4", "P J Q K B 9 9 A", "8 8 T 2", "J 4"]
    if is_slow():
        deals.append(("9T2", "A55"))  # a tie, typed card by card
        lines.append("9 T 2 A 5 5")
        rng = Random(3)
        for _ in range(4):
            cards = rng.sample([r for r in ORDER for _ in range(4)], 6)
            deals.append(("".join(cards[:3]), "".join(cards[3:])))
            lines.append(f"P {' '.join(cards[:3])} B {' '.join(cards[3:])}")
    steps = script(lines, "--game", "three-card-baccarat", "--decks", "2", "--bet", "player", "--bet", "tie")
    assert steps[1] == {"command": lines[0], "error": "the Player (P) holds 3 cards in a coup, not 2"}
    assert "error" not in json.dumps(steps[2:])
    assert steps[3]["running"]["in_progress"] == "8 8 T 2"
    assert [step["running"]["coups"] for step in steps[2:5]] == [1, 1, 2]
    wins = {"player": 0, "banker": 0, "tie": 0}
    for p, b in deals:
        wins[three_card_winner(p, b)] += 1
    assert steps[-1]["running"]["wins"] == wins and wins["player"] and wins["banker"]
    left = Shoe.standard(2).without_suits().remove([card for p, b in deals for card in p + b])
    assert Shoe.from_counts(steps[-1]["left"]["counts"]) == left
    priced = THREE_CARD.price(left, ["player", "tie"], THREE_CARD.settings_of({}))
    assert [Fraction(b["ev"]) for b in steps[-1]["bets"]] == [f.ev for f in priced.bets]


def test_a_game_whose_coups_are_not_followed_takes_the_cards_out_of_the_shoe():
    for game in (g for g in with_capability("by-rank") if not g.has("coups")):
        lines = ["7 K 2", "P 2 3 B 4 5", "burn 9", "help"]
        steps = script(lines, "--game", game.name, "--decks", "1")
        left = Shoe.standard(1).without_suits().remove("7,K,2")
        assert Shoe.from_counts(steps[1]["left"]["counts"]) == left
        priced = game.price(left, None, game.settings_of({}))
        assert [Fraction(b["ev"]) for b in steps[1]["bets"]] == [f.ev for f in priced.bets]
        assert steps[1]["running"] == {"coups": 0, "wins": {}, "dealt": 3, "burned": 0, "left": 49, "in_progress": ""}
        assert steps[2]["error"].startswith("a coup typed whole needs coups followed card by card")
        assert f"{game.name} has none (the capability 'coups')" in steps[2]["error"]
        assert steps[3]["running"]["burned"] == 1 and steps[3]["left"]["cards"] == 48
        assert "coups are not followed" in steps[4]["message"]


def test_every_game_with_bets_is_tracked_and_priced_as_the_game_prices_the_cards_left():
    for game in with_capability("by-rank"):
        steps = script(["7", "quit"], "--game", game.name, "--decks", "1")
        left = Shoe.standard(1).without_suits().remove("7")
        chosen = game.resolve(None, game.settings_of({}), suits=False)
        priced = game.price(left, [b for b in chosen if not b.needs_suits], game.settings_of({}))
        assert [(b["id"], Fraction(b["ev"])) for b in steps[1]["bets"]] == [(f.bet.id, f.ev) for f in priced.bets]
        assert steps[0]["header"].startswith(f"1 deck (52 cards) · {game.rules(game.settings_of({})).header()}")


@pytest.mark.parametrize("game", with_capability("coups"), ids=lambda game: game.name)
def test_card_by_card_equals_coup_by_coup_in_every_game_that_follows_coups(game):
    """A shuffled deck dealt card by card makes coups that, typed whole, give the same state (no pricing here)."""
    rng = Random(game.name)
    deck = [rank.value for rank in RANKS for _ in range(4)]
    rng.shuffle(deck)
    count = 46 if is_slow() else 25
    by_card = TrackState.fresh(Shoe.standard(1), game)
    for card in deck[:count]:
        by_card = by_card.apply(Cards((Rank(card),)))
    coups = by_card.coup_rules
    assert coups is not None and len(by_card.coups) >= 3
    assert sum(len(c.cards) for c in by_card.coups) + len(by_card.pending) == count
    assert by_card.shoe == Shoe.standard(1).without_suits().remove(deck[:count])
    by_coup = TrackState.fresh(Shoe.standard(1), game)
    for coup in by_card.coups:
        command = parse_command(coup.text(), coups.hands)
        assert isinstance(command, WholeCoup)
        by_coup = by_coup.apply(command)
    if by_card.pending:
        by_coup = by_coup.apply(Cards(by_card.pending))
    assert (by_coup.shoe, by_coup.coups, by_coup.pending, by_coup.tally) == (
        by_card.shoe, by_card.coups, by_card.pending, by_card.tally)
    assert sum(by_card.tally) == len(by_card.coups) and set(by_card.wins()) == set(coups.winners)
