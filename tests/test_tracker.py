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
from exactodds.puntobanco.bets import find_bet
from exactodds.puntobanco.odds import analyze, resolve_bets
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


def test_the_69_bet_catalog_is_exact_too():
    # "all" in the tracker: every bet of the catalog but those that read the dealt cards (the card walk's, by id only).
    steps = script(["P 9 K B 2 2", "7 7 8"], "--decks", "8", "--bet", "all")
    ids = [b.id for b in resolve_bets(PUNTO_BANCO, ["all"], suits=False, cards=False)]
    assert len(ids) == 69 and not any(find_bet(i, PUNTO_BANCO).reads_cards for i in ids)
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


@examples(100, 4)
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
