"""A design's work is bounded before it starts, told as it goes, and its inputs mean one thing (issue 29).

``design --decks 1:1000000`` ran for minutes with nothing shown: the range and the whole work
(:meth:`exactodds.design.request.Order.cost`, in pricings of the bet on a shoe) are now checked
before any work, on the command line and on ``POST /design`` alike (one builder, ``build_order``),
and a long run shows its progress on a terminal. ``--edge X`` without ``--solve`` (a band of no
width) is refused, and ``--write -`` is the standard output.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cli import cli
from exactodds.design import countability as countability_module
from exactodds.design.model import Work, work
from exactodds.design.request import MAX_COST, MAX_DECK_COUNTS, build_order
from exactodds.errors import ExactOddsError
from exactodds.game import Game
from exactodds.games import DEFAULT, with_capability
from exactodds.request import read_setup
from exactodds.serve.endpoints import ENDPOINTS, answer
from exactodds.serve.tracks import Tracks

DESIGN = next(e for e in ENDPOINTS if e.path == "/design")
#: A design of the default game's Dragon 7 that runs in a moment.
BASE = ["design", "--bet", "dragon-7", "--edge", "5%:9%", "--max-pay", "50"]


class Overran(Exception):
    pass


@contextmanager
def at_once() -> Iterator[None]:
    """Two seconds at most (the work refused would take minutes): past them the test fails rather than waits."""

    def overran(signum: int, frame: object) -> None:
        raise Overran

    previous = signal.signal(signal.SIGALRM, overran)
    signal.alarm(10)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert time.perf_counter() - start < 2


def refused_at_once(args: list[str]) -> str:
    """The one Error line of a command refused before its work."""
    with at_once():
        result = CliRunner().invoke(cli, args)
    assert not isinstance(result.exception, Overran), f"{args} ran on"
    lines = result.stderr.splitlines()
    assert result.exit_code == 2 and result.stdout == "" and len(lines) == 1, (args, result.output)
    assert lines[0].startswith("Error: "), (args, lines)
    return lines[0]


@pytest.mark.parametrize("span", ["1:1000000", "1:1000", f"1:{MAX_DECK_COUNTS + 1}"])
def test_a_range_of_decks_past_the_bound_is_refused_before_any_work(span: str) -> None:
    line = refused_at_once([*BASE, "--decks", span])
    assert f"more than {MAX_DECK_COUNTS}" in line and f"e.g. 1:{MAX_DECK_COUNTS}" in line, line


def test_a_range_at_the_bound_is_designed() -> None:
    result = CliRunner().invoke(cli, [*BASE, "--decks", f"1:{MAX_DECK_COUNTS}", "--format", "json"])
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)["tables"]
    assert list(tables[0]["edge_by_decks"]) == [str(d) for d in range(1, MAX_DECK_COUNTS + 1)]


@pytest.mark.parametrize("shoe", [
    ["--decks", "1000"],
    # 10^10 cards of one gcd: a shoe whose countability walks some 10^9 coups a table (it hung before)
    ["--shoe", ",".join(f"{r}={3_200_000_000 + (r == 'A')}" for r in "A23456789") + ",T=12800000000"],
], ids=["1000 decks", "ten billion cards"])
def test_a_design_past_the_cost_bound_is_refused_before_any_work(shoe: list[str]) -> None:
    line = refused_at_once(["design", "--bet", "tie", "--edge", "1%:30%", *shoe])
    assert f"more than {MAX_COST:,}" in line and "ask for less" in line, line


def test_the_server_refuses_a_design_with_the_command_lines_words() -> None:
    """``POST /design`` builds its order with the command's builder: the same bound, the same line, before any work."""
    for decks, args in (("1:1000000", ["--decks", "1:1000000"]), (1000, ["--decks", "1000"])):
        with at_once(), pytest.raises(ExactOddsError) as refused:
            answer(DESIGN, {"bet": "dragon-7", "edge": "5%:9%", "max_pay": 50, "decks": decks}, {}, Tracks())
        assert "Error: " + str(refused.value) == refused_at_once([*BASE, *args])


def _order(**options: object):  # type: ignore[no-untyped-def]
    """A design of Dragon 7 on the default shoe with these options (a band of 5% to 9% and pays to 50 by default)."""
    return build_order(["dragon-7"], read_setup({"bet": ("dragon-7",)}), **{"edge": "5%:9%", "max_pay": "50",
                                                                           **options})


def test_the_cost_is_known_before_the_work_and_counts_what_it_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The estimate counts the shoes the design prices, each one (the shoe, each deck count, each shoe behind the
    countability figure), and the work it reports as it goes never passes it."""
    order = _order(decks=(1, 8))
    planned = work(order.request)
    assert isinstance(order.cost(), int) and order.cost() == planned.units <= MAX_COST
    priced: list[int] = []
    counted: list[int] = []
    game_type = type(order.request.game)
    price, count_rows = game_type.price, game_type.count_rows

    def counting_price(self: Game, shoe, bets, settings, **kw):  # type: ignore[no-untyped-def]
        priced.append(shoe.size)
        return price(self, shoe, bets, settings, **kw)

    def counting_rows(self: Game, shoes, bets, settings):  # type: ignore[no-untyped-def]
        counted.append(len(shoes))
        return count_rows(self, shoes, bets, settings)

    monkeypatch.setattr(game_type, "price", counting_price)
    monkeypatch.setattr(game_type, "count_rows", counting_rows)
    told: list[tuple[int, int]] = []
    result = order.run(lambda done, total: told.append((done, total)))
    assert len(priced) >= planned.shoes == 1 + 8  # (the lab's cards per coup is one more pricing: not the bet's)
    assert priced[: planned.shoes] == [order.request.shoe.size] + [52 * d for d in range(1, 9)]
    assert sum(counted) == planned.counted and max(counted) <= countability_module.BATCH
    assert len(result.tables) <= planned.tables
    assert told and all(total == order.cost() for _, total in told)
    assert [done for done, _ in told] == sorted(done for done, _ in told) and told[-1][0] <= order.cost()


def test_the_cost_grows_with_what_is_asked() -> None:
    assert _order(decks=(1, 8)).cost() - _order().cost() == 8  # a pricing per deck count
    assert _order(top=40).cost() > _order().cost()
    assert _order(edge="7.6%", solve="win").cost() < _order().cost()  # three tables, no search
    others = [game for game in with_capability("fixed-pays") if not game.has("countability")]
    for game in others:  # no countability figure: none of its work
        setup = read_setup({"game": game.name, "bet": game.default_bets(game.settings_of({}))[:1]})
        bet = setup.game.resolve(setup.bets, setup.settings)[0]
        order = build_order([bet.id], setup, edge="1%:2%", free=[o.id for o in bet.outcomes if o.net > 0][:1])
        assert work(order.request) == Work(1, 0, 0, 20, 1)


def test_progress_is_shown_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = CliRunner().invoke(cli, BASE)
    assert plain.exit_code == 0 and plain.stderr == ""  # a pipe or a log: nothing
    monkeypatch.setattr("exactodds.cli.progress.on_terminal", lambda: True)
    shown = CliRunner().invoke(cli, BASE)
    assert shown.exit_code == 0 and shown.stdout == plain.stdout
    assert shown.stderr.startswith("\rdesigning: ") and "% of about " in shown.stderr
    assert shown.stderr.endswith("\r")  # wiped (by ESC [K, which click keeps for a terminal): a clean line


def test_one_edge_without_solve_is_refused_and_a_band_of_one_edge_is_taken() -> None:
    line = refused_at_once(["design", "--bet", "dragon-7", "--edge", "5%"])
    assert "one edge" in line and "LOW:HIGH" in line and "--solve" in line, line
    assert CliRunner().invoke(cli, ["design", "--bet", "dragon-7", "--edge", "7.6%", "--solve", "win"]).exit_code == 0
    assert CliRunner().invoke(cli, [*BASE[:3], "--edge", "5%:5%"]).exit_code == 0  # a band written: taken as written


def test_spaces_around_the_numbers_of_a_band_are_read_as_without() -> None:
    plain = CliRunner().invoke(cli, [*BASE[:3], "--edge", "5%:9%", "--max-pay", "50", "--decks", "6:8"])
    spaced = CliRunner().invoke(cli, [*BASE[:3], "--edge", " 5 % : 9 % ", "--max-pay", " 50 ", "--decks", " 6 : 8 "])
    assert plain.exit_code == spaced.exit_code == 0 and plain.stdout == spaced.stdout
    assert "malformed --step '1 / 2'" in refused_at_once([*BASE, "--step", "1 / 2"])  # not inside a number


def test_write_dash_is_the_standard_output_and_dot_slash_dash_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [*BASE[:3], "--edge", "7.6%", "--solve", "win", "--write", "-"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "-").exists()
    (bet,) = DEFAULT.read_bets(result.stdout, "<stdout>")  # the output is the bets file alone, read back
    assert bet.id == "dragon-7-design" and result.stderr == "wrote bet dragon-7-design to the standard output\n"
    to_file = CliRunner().invoke(cli, [*BASE[:3], "--edge", "7.6%", "--solve", "win", "--write", "./-"])
    assert to_file.exit_code == 0 and (tmp_path / "-").read_text(encoding="utf-8") == result.stdout
