"""`exactodds design`: pay tables for a target house edge, checked against every pay table priced by the engine.

The search (exactodds/design/search.py) never prices a candidate: these tests price every pay
table of small grids with :func:`exactodds.puntobanco.odds.analyze` (all at once) and compare the count
in the band, the order of the tables listed and each one's figures, read back from the JSON.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow, sweep

from exactodds.betfile import read_bet_specs
from exactodds.cards import RANKS, Shoe
from exactodds.cli import cli
from exactodds.design.countability import countability
from exactodds.design.search import Grid, Problem, search
from exactodds.eor import effect_of_removal
from exactodds.exact import fraction_text, sqrt_decimal_text
from exactodds.game import Game
from exactodds.games import GAMES, find_game, with_capability
from exactodds.games.punto_banco import GAME as PUNTO_BANCO_GAME
from exactodds.paytable import Bet
from exactodds.puntobanco.bets import VOCABULARY, find_bet
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import PUNTO_BANCO
from exactodds.puntobanco.userdefs import load_bets

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DRAGON_PANDA = str(EXAMPLES / "dragon-panda.toml")


def design(*args: str) -> dict:
    """The JSON of a design run that succeeds."""
    result = CliRunner().invoke(cli, ["design", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def paid(bet: Bet, pays: dict[str, Fraction], bet_id: str) -> Bet:
    """``bet`` with these outcomes paying these pays, under another id (built here, not by the design code)."""
    return replace(bet, id=bet_id, outcomes=tuple(replace(o, net=pays.get(o.id, o.net)) for o in bet.outcomes))


def brute_force(bet: Bet, free: list[str], pays: list[Fraction], low: Fraction, high: Fraction, shoe: Shoe,
                monotone: bool = False) -> list[tuple[Fraction, Fraction, tuple[Fraction, ...], object]]:
    """Every pay table of the grid priced by the engine, those in the band sorted as design lists them."""
    tables = []
    for choice in itertools.product(pays, repeat=len(free)):
        if monotone:
            file_pays = {o.id: o.net for o in bet.outcomes}
            if any(file_pays[a] > file_pays[b] and x < y for (a, x), (b, y) in itertools.permutations(
                    zip(free, choice), 2)):
                continue
        tables.append(paid(bet, dict(zip(free, choice)), f"t{len(tables)}"))
    priced = analyze(shoe, PUNTO_BANCO, tables).bets
    middle = (low + high) / 2
    found = [(abs(f.house_edge - middle), f.variance, tuple(f.bet.outcomes[[o.id for o in bet.outcomes].index(i)].net
                                                             for i in free), f)
             for f in priced if low <= f.house_edge <= high]
    return sorted(found, key=lambda x: x[:3])


CASES = {
    # one free outcome: the Dragon 7's win, pays 20 to 60
    "1 free": ("dragon-7", None, ["win"], ["--min-pay", "20", "--max-pay", "60"], range(20, 61), "-40%:30%", False),
    # two: the Lucky 6's two- and three-card wins, pays 1 to 30
    "2 free": ("lucky-6", None, ["two-cards", "three-cards"], ["--max-pay", "30"], range(1, 31), "10%:20%", False),
    "2 free, monotone": ("lucky-6", None, ["two-cards", "three-cards"], ["--max-pay", "30", "--monotone"],
                         range(1, 31), "10%:20%", True),
    # three: the example's three wins, pays 1 to 6 by 1/2 (11³ tables)
    "3 free": ("dragon-panda", DRAGON_PANDA, ["dragon", "panda", "tie"], ["--max-pay", "6", "--step", "1/2"],
               [Fraction(k, 2) for k in range(2, 13)], "55%:56%", False),
}


@pytest.mark.parametrize("case", sweep(CASES))
def test_the_search_finds_what_pricing_every_pay_table_finds(case: str) -> None:
    bet_id, bets_file, free, grid, pays, band, monotone = CASES[case]
    bet = load_bets(bets_file)[0] if bets_file else find_bet(bet_id, PUNTO_BANCO)
    files = ["--bets-file", bets_file] if bets_file else []
    got = design("--decks", "2", *files, "--bet", bet_id, "--edge", band, *grid, "--top", "12")
    low, high = (Fraction(x.strip("%")) / 100 for x in band.split(":"))
    want = brute_force(bet, free, [Fraction(p) for p in pays], low, high, Shoe.standard(2), monotone)
    assert got["bet"] == bet_id and got["free"] == free
    assert (Fraction(got["target"]["low"]), Fraction(got["target"]["high"])) == (low, high)
    assert got["searched"] == len(want) > 12
    assert len(got["tables"]) == 12
    for table, (_, variance, choice, figures) in zip(got["tables"], want):
        assert tuple(Fraction(table["pays"][i]) for i in free) == choice
        assert {k: Fraction(v) for k, v in table["pays"].items()} == {o.id: o.net for o in figures.bet.outcomes}
        assert Fraction(table["house_edge"]) == figures.house_edge
        assert table["house_edge_per_resolved_bet"] is None  # these bets never push
        assert Fraction(table["hit_frequency"]) == figures.hit_frequency
        assert table["sd_decimal"] == figures.sd_text(4)
        assert float(table["vi95_decimal"]) == pytest.approx(1.96 * math.sqrt(variance), abs=1e-4)
        top = max(figures.outcomes, key=lambda o: o.outcome.net)
        assert float(table["top_award_one_in"]) == pytest.approx(float(1 / top.probability), abs=1e-4)
        assert float(table["countability"]) >= 0  # an estimate, checked against the lab below


def test_the_search_matches_a_brute_force_on_random_counts() -> None:
    """The search alone, on counts where the floats' fix-ups and the monotone caps matter (small numbers, ties)."""
    import random

    rng = random.Random(5)
    for _ in range(25 if not is_slow() else 600):
        k = rng.randint(1, 3)
        counts = [rng.randint(1, 40) for _ in range(k)] + [rng.randint(200, 2000)]
        if rng.random() < 0.3:
            counts[min(1, k - 1)] = counts[0]  # equal counts: tables tie exactly
        grid = Grid(Fraction(rng.choice([1, 2])), Fraction(rng.choice([1, 2])) / rng.choice([1, 2]),
                    Fraction(rng.randint(5, 12)))
        low = Fraction(rng.randint(-30, 60), 100)
        problem = Problem(tuple(counts), sum(counts), (Fraction(0),) * k + (Fraction(-1),), tuple(range(k)),
                          tuple(rng.randint(0, 2) for _ in range(k)), grid, low,
                          low + Fraction(rng.randint(0, 40), 100), rng.random() < 0.5)
        top = rng.randint(1, 6)
        mid2 = problem.s_bound(problem.high) + problem.s_bound(problem.low)
        every = []
        for idx in itertools.product(range(grid.size), repeat=k):
            if problem.monotone and any(problem.ranks[a] < problem.ranks[b] and idx[a] < idx[b]
                                        for a in range(k) for b in range(k)):
                continue
            pays = [grid.pay(i) for i in idx]
            if problem.low <= problem.edge_of(pays) <= problem.high:
                s = sum(c * i for c, i in zip(counts, idx))
                n = problem.orderings
                ev = (sum(c * x for c, x in zip(counts, pays)) - counts[-1]) / n
                variance = (sum(c * x * x for c, x in zip(counts, pays)) + counts[-1]) / n - ev * ev
                every.append((abs(2 * s - mid2), variance, idx))
        every.sort()
        found = search(problem, top)
        assert (found.searched, found.tables) == (len(every), tuple(e[2] for e in every[:top])), problem


def test_solve_gives_the_exact_linear_solution_and_the_grid_either_side() -> None:
    """Dragon 7 pays 40 because 40 lands near 7.6%: the pay for exactly 7.6%, from the engine's EV at 40 and 41."""
    got = design("--bet", "dragon-7", "--edge", "7.6%", "--solve", "win")
    dragon = find_bet("dragon-7", PUNTO_BANCO)
    at = {x: analyze(Shoe.standard(8), PUNTO_BANCO, [paid(dragon, {"win": Fraction(x)}, "d")]).bets[0]
          for x in (40, 41)}
    slope = at[41].house_edge - at[40].house_edge  # the edge is linear in the pay
    pay = 40 + (Fraction(76, 1000) - at[40].house_edge) / slope
    assert (got["bet"], got["outcome"], Fraction(got["target"])) == ("dragon-7", "win", Fraction(19, 250))
    assert Fraction(got["pay"]) == pay and 40 < pay < 41
    exact = analyze(Shoe.standard(8), PUNTO_BANCO, [paid(dragon, {"win": pay}, "d")]).bets[0]
    assert exact.house_edge == Fraction(19, 250)
    for side, x in (("below", 40), ("above", 41)):
        assert Fraction(got[side]["pays"]["win"]) == x
        assert Fraction(got[side]["house_edge"]) == at[x].house_edge


def test_write_gives_a_bets_file_that_odds_and_the_parser_read_back(tmp_path: Path) -> None:
    out = tmp_path / "designed.toml"
    got = design("--bets-file", DRAGON_PANDA, "--bet", "dragon-panda", "--edge", "5%:6%", "--max-pay", "40",
                 "--top", "3", "--pick", "2", "--write", str(out))
    chosen = got["tables"][1]
    (spec,) = read_bet_specs(out.read_text(encoding="utf-8"), str(out), VOCABULARY)
    assert spec.id == "dragon-panda"
    assert {o.id: o.pays for o in spec.outcomes} == {k: Fraction(v) for k, v in chosen["pays"].items()}
    result = CliRunner().invoke(cli, ["odds", "--bets-file", str(out), "--bet", "dragon-panda", "--format", "json"])
    assert result.exit_code == 0, result.output
    priced = json.loads(result.stdout)["bets"]["dragon-panda"]
    assert Fraction(priced["ev"]) == -Fraction(chosen["house_edge"])
    # a catalog bet is written under a new id, so that it does not clash with the catalog's
    catalog = tmp_path / "dragon.toml"
    design("--bet", "dragon-7", "--edge", "7.6%", "--solve", "win", "--write", str(catalog))
    (dragon,) = load_bets(catalog)
    assert dragon.id == "dragon-7-design"
    edge = analyze(Shoe.standard(8), PUNTO_BANCO, [dragon]).bets[0].house_edge
    assert edge == Fraction(19, 250)


def test_decks_give_each_tables_edge_at_every_deck_count() -> None:
    got = design("--bet", "dragon-7", "--edge", "7%:8%", "--min-pay", "40", "--max-pay", "40", "--decks", "6:8")
    (table,) = got["tables"]
    for decks in (6, 7, 8):
        want = analyze(Shoe.standard(decks), PUNTO_BANCO, ["dragon-7"]).bets[0].house_edge
        assert Fraction(table["edge_by_decks"][str(decks)]) == want
    assert Fraction(table["house_edge"]) == Fraction(table["edge_by_decks"]["8"])  # the search ran on 8 decks


def test_countability_reads_the_exact_effects_of_removal_for_any_pays() -> None:
    """The stored counts give, for a pay of 45, exactly the EORs that eor prices for that bet."""
    shoe = Shoe.standard(2)
    dragon = find_bet("dragon-7", PUNTO_BANCO)
    counting = countability(PUNTO_BANCO_GAME, dragon, shoe, PUNTO_BANCO_GAME.settings_for(PUNTO_BANCO))
    assert counting is not None and counting.depths[-1].size == shoe.size
    richer = paid(dragon, {"win": Fraction(45)}, "dragon-7")
    depth = counting.depths[-1]
    base = depth.full.ev(richer)
    mine = [c.ev(richer) - base for _, c in depth.removed]
    assert mine == list(effect_of_removal(shoe, PUNTO_BANCO, [richer]).bet("dragon-7").effects)
    assert [size for size in (d.size for d in counting.depths)] == list(range(13, 105, 13))


def test_a_bet_that_pushes_has_an_edge_per_resolved_bet_and_is_not_written(tmp_path: Path) -> None:
    """The Banker pushes on a tie: its edge per resolved bet leaves the pushes out; its pay is the rules', not a
    file's."""
    got = design("--bet", "banker", "--edge", "1%:1.1%", "--min-pay", "9/10", "--max-pay", "1", "--step", "1/100",
                 "--free", "win")
    banker = analyze(Shoe.standard(8), PUNTO_BANCO, ["banker"]).bets[0]
    (table,) = got["tables"]
    assert Fraction(table["pays"]["win"]) == Fraction(95, 100)
    assert Fraction(table["house_edge"]) == banker.house_edge
    assert Fraction(table["house_edge_per_resolved_bet"]) == banker.house_edge / (1 - banker.push_probability)
    result = CliRunner().invoke(cli, ["design", "--bet", "banker", "--edge", "1%:1.1%", "--min-pay", "9/10",
                                      "--max-pay", "1", "--step", "1/100", "--write", str(tmp_path / "banker.toml")])
    assert result.exit_code == 2 and "--write takes a side bet" in result.stderr
    assert result.stdout == "" and list(tmp_path.iterdir()) == []  # refused before the work


def test_no_countability_where_the_lab_cannot_deal() -> None:
    got = design("--bet", "dragon-7", "--edge", "0:20%", "--max-pay", "60", "--player-5", "best", "--decks", "1")
    assert got["tables"][0]["countability"] is None


#: The lab's perfect play on 8 decks, 20,000 shoes, seed 1 (docs/lab.md, a console example run by
#: tests/test_console_examples.py under the slow profile): EV per shoe and its standard error.
LAB = {"dragon-7": (0.8966, 0.0089), "panda-8": (0.4353, 0.0052)}
#: The normal approximation's own error, beyond the lab's noise (measured: +1.5% on Dragon 7, −4.9% on Panda 8).
MODEL_ERROR = 0.05


def _countability(bet_id: str) -> float:
    pay = find_bet(bet_id, PUNTO_BANCO).outcomes[0].net
    got = design("--bet", bet_id, "--edge", "0:20%", "--min-pay", str(pay), "--max-pay", str(pay))
    return float(got["tables"][0]["countability"])


@pytest.mark.parametrize("bet_id", list(LAB))
def test_countability_against_the_labs_perfect_play(bet_id: str) -> None:
    ev, se = LAB[bet_id]
    assert abs(_countability(bet_id) - ev) <= 3 * se + MODEL_ERROR * ev


@pytest.mark.skipif(not is_slow(), reason="a lab run of 6,000 shoes: slow profile (EXACTODDS_TESTS=slow)")
def test_countability_against_a_fresh_lab_run() -> None:
    from exactodds.lab import SimulationPlan, simulate

    plan = SimulationPlan.from_options(Shoe.standard(8), bets=list(LAB), shoes=6000, seed=23)
    figures = simulate(plan).figures()
    for bet_id in LAB:
        f = figures[("perfect", bet_id)]
        ev, se = float(f.ev), math.sqrt(f.ev_variance / f.shoes)
        assert abs(_countability(bet_id) - ev) <= 3 * se + MODEL_ERROR * ev, (bet_id, ev, se)


FIVE_WINS = "\n".join(
    f'[[bets.five.outcome]]\nid = "b{t}"\nwhen = {{ winner = "banker", banker_total = {t} }}\npays = 1'
    for t in range(5, 10)
) + '\n[[bets.five.outcome]]\nid = "lose"\notherwise = true\npays = -1\n'

BAD = {
    "a band upside down": (["--edge", "6%:5%"], "the band's low edge 6.0000% is above its high edge 5.0000%"),
    "an edge of 100%": (["--edge", "5%:100%"], "a house edge must be below 100%, not 100.0000%"),
    "an outcome not in the bet": (["--edge", "5%:9%", "--free", "wn"], "unknown outcome of bet dragon-7 'wn': did you"
                                  " mean win?"),
    "an outcome that loses": (["--edge", "5%:9%", "--free", "lose"], "the outcome 'lose' of bet dragon-7 loses"),
    "a step of 0": (["--edge", "5%:9%", "--step", "0"], "--step must be above 0, not 0"),
    "a pay over a million": (["--edge", "5%:9%", "--max-pay", "1000001"], "--max-pay must be at most 1,000,000"),
    "more than 4 free outcomes": (["--bet", "five", "--edge", "5%:9%"], "bet five has 5 winning outcomes: search at"
                                  " most 4"),
    "more than 4 named": (["--bet", "five", "--edge", "5%:9%", *(x for t in range(5, 10) for x in ("--free", f"b{t}"))],
                          "bet five has 5 free outcomes named: search at most 4"),
    "a band out of reach": (["--edge", "96%:99%"], "bet dragon-7 cannot reach a house edge from 96.0000% to 99.0000%:"
                            " with pays from 1 to 1000 its edge runs from -2155.6355% to 95.4932%"),
    "a solve out of reach": (["--edge", "99%", "--solve", "win"], "cannot reach a house edge of 99.0000%"),
    "a band with --solve": (["--edge", "5%:6%", "--solve", "win"], "--solve takes one edge X"),
    "a grid too fine": (["--edge", "5%:9%", "--step", "1/10000000"], "the grid holds 9,990,000,001 pays per outcome"
                        " (at most 1,000,000,000): raise --step"),
    "too many rows": (["--bet", "five", "--edge", "5%:9%", "--step", "1/10", "--free", "b5", "--free", "b6", "--free",
                       "b7"], "the search would walk 99,820,081 pay tables of the first 2 free outcomes"),
    "a pick beyond the list": (["--edge", "5%:9%", "--top", "2", "--pick", "3"], "--pick 3 is beyond the 2 tables"),
    "a pick beyond the band": (["--edge", "7%:8%", "--pick", "2", "--write", "x.toml"], "--pick 2: only 1 pay table"),
    "a malformed edge": (["--edge", "five"], "malformed house edge 'five'"),
    "two bets": (["--bet", "panda-8", "--bet", "tie", "--edge", "5%:9%"], "design takes one bet (--bet ID), not"
                 " panda-8, tie"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_error_line(case: str, tmp_path: Path) -> None:
    args, message = BAD[case]
    five = tmp_path / "five.toml"
    five.write_text('[bets.five]\ndescription = "five wins"\n' + FIVE_WINS, encoding="utf-8")
    bet = [] if "--bet" in args else ["--bet", "dragon-7"]
    result = CliRunner().invoke(cli, ["design", "--bets-file", str(five), *bet, *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], lines
    assert result.stdout == ""


# ---------------------------------------------------------------------------------------------
# Every game with bets: a design is its game's exact counts with the pays put in by hand


def by_hand(counts: dict[str, int], orderings: int, pays: dict[str, Fraction], free: list[str], grid: list[Fraction],
            low: Fraction, high: Fraction) -> list[tuple[tuple[Fraction, ...], Fraction, Fraction, Fraction]]:
    """Every pay table of the grid from the outcomes' counts, by hand: (free pays, edge, variance, hit frequency) of
    those in the band, in design's order (nearest the middle, then the least variance, then the lowest pays)."""
    middle, found = (low + high) / 2, []
    for choice in itertools.product(grid, repeat=len(free)):
        table = {**pays, **dict(zip(free, choice))}
        ev = sum(Fraction(n, orderings) * table[o] for o, n in counts.items())
        variance = sum(Fraction(n, orderings) * table[o] ** 2 for o, n in counts.items()) - ev**2
        hit = sum(Fraction(n, orderings) for o, n in counts.items() if table[o] > 0)
        if low <= -ev <= high:
            found.append((abs(-ev - middle), variance, choice, -ev, hit))
    return [(choice, edge, variance, hit) for _, variance, choice, edge, hit in sorted(found, key=lambda x: x[:3])]


def check_tables(got: dict, want: list, free: list[str]) -> None:
    """The JSON's tables are the first of ``want`` (from :func:`by_hand`), figure by figure, read back exactly."""
    assert got["searched"] == len(want) and got["free"] == free
    assert len(got["tables"]) == min(len(want), 20) > 1
    for table, (choice, edge, variance, hit) in zip(got["tables"], want):
        assert tuple(Fraction(table["pays"][o]) for o in free) == choice
        assert Fraction(table["house_edge"]) == edge and Fraction(table["hit_frequency"]) == hit
        assert table["sd_decimal"] == sqrt_decimal_text(variance, 4)
        assert table["countability"] is None  # a game without the capability: not applicable


def tie_chance(decks: int) -> Fraction:
    """Dragon Tiger's tie on ``decks`` decks, in closed form: 13·4d·(4d − 1) of the 52d·(52d − 1) ordered pairs."""
    return Fraction(4 * decks - 1, 52 * decks - 1)


def test_a_dragon_tiger_tie_designed_is_its_closed_form() -> None:
    """Dragon Tiger's Tie: every pay of the grid and each edge by decks from (4d − 1)/(52d − 1); a pay solved."""
    got = design("--game", "dragon-tiger", "--bet", "tie", "--edge", "0:40%", "--max-pay", "14", "--decks", "6:8")
    p = tie_chance(8)
    want = by_hand({"win": 13 * 32 * 31, "lose": 416 * 415 - 13 * 32 * 31}, 416 * 415, {"lose": Fraction(-1)},
                   ["win"], [Fraction(x) for x in range(1, 15)], Fraction(0), Fraction(2, 5))
    assert all(hit == p for *_, hit in want)
    check_tables(got, want, ["win"])
    for table in got["tables"]:
        x = Fraction(table["pays"]["win"])
        assert {d: Fraction(e) for d, e in table["edge_by_decks"].items()} == {
            str(d): 1 - tie_chance(d) * (x + 1) for d in (6, 7, 8)}
    solved = design("--game", "dragon-tiger", "--bet", "tie", "--edge", "7%", "--solve", "win", "--tie-pays", "11")
    pay = (1 - p - Fraction(7, 100)) / p  # the edge is 1 − p·(x + 1)
    assert Fraction(solved["pay"]) == pay == Fraction(229, 20)
    assert [Fraction(solved[side]["pays"]["win"]) for side in ("below", "above")] == [11, 12]
    assert Fraction(solved["below"]["house_edge"]) == 1 - p * 12


#: A Dragon Tiger bet of two free outcomes, over the deal's facts: a tie on 8 to K, a tie on A to 7.
TIES = """[bets.two-ties]
description = "A tie on 8 to K, or on A to 7"
[[bets.two-ties.outcome]]
id = "high"
when = { winner = "tie", dragon_rank = ["8", "9", "T", "J", "Q", "K"] }
pays = 10
[[bets.two-ties.outcome]]
id = "low"
when = { winner = "tie", dragon_rank = ["A", "2", "3", "4", "5", "6", "7"] }
pays = 12
[[bets.two-ties.outcome]]
id = "lose"
otherwise = true
pays = -1
"""


def test_a_dragon_tiger_bets_file_designed_is_a_brute_force_and_reads_back(tmp_path: Path) -> None:
    """Every ordered pair of cards of two decks dealt by hand; the table written reads back by odds --game."""
    bets = tmp_path / "ties.toml"
    bets.write_text(TIES, encoding="utf-8")
    written = tmp_path / "designed.toml"
    got = design("--game", "dragon-tiger", "--decks", "2", "--bets-file", str(bets), "--bet", "two-ties",
                 "--edge", "5%:15%", "--max-pay", "30", "--pick", "2", "--write", str(written))
    cards = [rank for rank in range(13) for _ in range(8)]
    counts = {"high": 0, "low": 0, "lose": 0}
    for dragon, tiger in itertools.permutations(range(len(cards)), 2):
        tie = cards[dragon] == cards[tiger]
        counts["high" if tie and cards[dragon] >= 7 else "low" if tie else "lose"] += 1
    want = by_hand(counts, 104 * 103, {"lose": Fraction(-1)}, ["high", "low"],
                   [Fraction(x) for x in range(1, 31)], Fraction(1, 20), Fraction(3, 20))
    check_tables(got, want, ["high", "low"])
    chosen = got["tables"][1]
    game = find_game("dragon-tiger")
    (spec,) = game.read_bet_specs(written.read_text(encoding="utf-8"), str(written))
    assert spec.id == "two-ties"  # a bet of a bets file keeps its id
    assert {o.id: o.pays for o in spec.outcomes} == {k: Fraction(v) for k, v in chosen["pays"].items()}
    result = CliRunner().invoke(cli, ["odds", "--game", "dragon-tiger", "--decks", "2", "--bets-file", str(written),
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    assert Fraction(json.loads(result.stdout)["bets"]["two-ties"]["ev"]) == -Fraction(chosen["house_edge"])


THREE_CARD_SHOE = "A=1,3=1,5=1,8=1,T=1,J=1,Q=1,K=2"


def three_card_deals(ranks: list[int]) -> Counter[tuple[str, int, int]]:
    """Every ordered deal of six cards (the Player's three, the Banker's three) by hand: (winner, Banker's faces,
    Banker's total) counted."""
    def hand(cards: tuple[int, ...]) -> tuple[bool, int, int]:
        faces = sum(1 for c in cards if c >= 10)
        return faces == 3, sum(c + 1 for c in cards if c < 9) % 10, faces  # A = 1 … 9, T J Q K count 0

    out: Counter[tuple[str, int, int]] = Counter()
    for deal in itertools.permutations(ranks, 6):
        player, banker = hand(deal[:3]), hand(deal[3:])
        winner = "player" if player > banker else "banker" if banker > player else "tie"
        out[(winner, banker[2], banker[1])] += 1
    return out


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


def test_a_three_card_baccarat_design_is_a_brute_force_of_its_deal(tmp_path: Path) -> None:
    """Three Card Baccarat on a shoe of nine cards, every ordered deal by hand: a bets file's bet of two free outcomes,
    and the Banker bet (it pushes on a tie: its edge per resolved bet) with its commission solved and written."""
    ranks = [next(r for r in range(13) if RANKS[r].value == k) for k, n in (c.split("=") for c in
             THREE_CARD_SHOE.split(",")) for _ in range(int(n))]
    deals = three_card_deals(ranks)
    orderings = math.perm(len(ranks), 6)
    assert sum(deals.values()) == orderings
    bets = tmp_path / "faces.toml"
    bets.write_text(FACES, encoding="utf-8")
    got = design("--game", "three-card", "--shoe", THREE_CARD_SHOE, "--bets-file", str(bets), "--bet", "faces",
                 "--edge", "0:30%", "--max-pay", "40")
    counts = {"three": sum(n for (_, f, _), n in deals.items() if f == 3),
              "two": sum(n for (_, f, _), n in deals.items() if f == 2)}
    counts["lose"] = orderings - counts["three"] - counts["two"]
    check_tables(got, by_hand(counts, orderings, {"lose": Fraction(-1)}, ["three", "two"],
                              [Fraction(x) for x in range(1, 41)], Fraction(0), Fraction(3, 10)), ["three", "two"])
    written = tmp_path / "banker.toml"
    solved = design("--game", "three-card", "--shoe", THREE_CARD_SHOE, "--bet", "banker", "--edge", "1%", "--solve",
                    "win", "--step", "1/100", "--min-pay", "1/2", "--max-pay", "1", "--write", str(written))
    win, lose = (sum(n for (w, _, _), n in deals.items() if w == side) for side in ("banker", "player"))
    pay = (lose - Fraction(1, 100) * orderings) / win  # EV·n = pay·win − lose
    assert Fraction(solved["pay"]) == pay
    push = Fraction(orderings - win - lose, orderings)
    below = solved["below"]
    assert Fraction(below["house_edge_per_resolved_bet"]) == Fraction(below["house_edge"]) / (1 - push)
    (bet,) = find_game("three-card").read_bets(written.read_text(encoding="utf-8"), str(written))
    assert bet.id == "banker-design" and bet.outcomes[0].net == pay  # a bet of the game's own: a new id
    result = CliRunner().invoke(cli, ["odds", "--game", "three-card", "--shoe", THREE_CARD_SHOE, "--bets-file",
                                      str(written), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert Fraction(json.loads(result.stdout)["bets"]["banker-design"]["ev"]) == Fraction(-1, 100)


@pytest.mark.skipif(not is_slow(), reason="one deck, every pay of a finer grid: slow profile (EXACTODDS_TESTS=slow)")
def test_a_three_card_baccarat_design_on_one_deck_is_its_counts_with_pays_by_hand() -> None:
    game = find_game("three-card")
    settings = game.settings_of({})
    for decks in (1, 2):
        figures = game.price(Shoe.standard(decks), ["tie"], settings).bets[0]
        counts = {f.outcome.id: f.count for f in figures.outcomes}
        want = by_hand(counts, figures.orderings, {"lose": Fraction(-1)}, ["win"],
                       [Fraction(k, 4) for k in range(4, 161)], Fraction(1, 50), Fraction(3, 10))
        got = design("--game", "three-card", "--decks", str(decks), "--bet", "tie", "--edge", "2%:30%", "--step",
                     "1/4", "--max-pay", "40", "--top", "20")
        check_tables(got, want, ["win"])


def winning_outcome(bet: Bet) -> str | None:
    """The first winning outcome of fixed pay: the one a solve can take."""
    return next((o.id for o in bet.outcomes if o.net > 0 and o.multiplier is None), None)


@pytest.mark.parametrize("game", sweep(with_capability("fixed-pays")), ids=lambda game: game.name)
def test_every_game_with_bets_solves_its_own_pay_back_and_writes_it_as_it_prices(game: Game, tmp_path: Path) -> None:
    """A bet of the game's own solved for its own edge gives its own pay back; written, the game prices it alike."""
    settings = game.settings_of({})
    bets = game.bets(settings)
    bet_id = next(i for i in game.bet_specs() if i in bets and winning_outcome(bets[i]))
    outcome = winning_outcome(bets[bet_id])
    own = next(o.net for o in bets[bet_id].outcomes if o.id == outcome)
    edge = game.price(game.usual_shoe(), [bet_id], settings).bets[0].house_edge
    written = tmp_path / "designed.toml"
    got = design("--game", game.name, "--bet", bet_id, "--edge", fraction_text(edge), "--solve", str(outcome),
                 "--min-pay", fraction_text(own), "--step", fraction_text(own), "--write", str(written))
    assert Fraction(got["pay"]) == own and Fraction(got["target"]) == edge
    assert Fraction(got["below"]["pays"][str(outcome)]) == own and got["below"] == got["above"]  # on the grid
    (bet,) = game.read_bets(written.read_text(encoding="utf-8"), str(written))
    assert bet.id == f"{bet_id}-design" and game.price(game.usual_shoe(), [bet], settings).bets[0].house_edge == edge
    assert (got["below"]["countability"] is None) is not game.has("countability")


def test_a_game_without_bets_is_refused_by_capability() -> None:
    refused = [game for game in GAMES if not game.has("fixed-pays")]
    assert refused, "every game has bets of fixed pays: nothing to refuse"
    for game in refused:
        result = CliRunner().invoke(cli, ["design", "--game", game.name, "--bet", "tie", "--edge", "5%:6%"])
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith("Error: design needs ") and result.stderr.count("\n") == 1
        assert "(the capability 'fixed-pays')" in result.stderr
