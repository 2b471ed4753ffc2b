"""The lab's advantage-play figures and threshold scan: textbook formulas on the run's raw sums, and consistency."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner

import exactodds as xo
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.lab import SimulationPlan, simulate
from exactodds.lab.advantage import PlayFigures, parse_ror
from exactodds.lab.results import EV_BITS
from exactodds.lab.scan import parse_scan, scan_thresholds

DRAGON = "0,0,0,-1,-1,-1,-1,2,2,0"
PANDA = "0,0,0,0,0,0,0,0,-2,2"


@pytest.fixture(scope="module")
def run():
    plan = SimulationPlan.from_options(xo.Shoe.standard(8), bets=["dragon-7", "panda-8"], shoes=60, seed=11,
                                       strategies=["perfect", "always"], chunk_shoes=25)  # fmt: skip
    return simulate(plan)


def raw(result, key):
    """Per-shoe mean EV, per-shoe variance of the units won and coups per shoe, by hand from the raw integer sums."""
    n, coups = result.totals.shoes, result.totals.coups
    bets, won, won_sq, ev, _ = result.totals.cells[key]
    scale = result.plan.pays.scale
    mean_ev = Fraction(ev, n * 2**EV_BITS)
    mean_won = Fraction(won, n * scale)
    variance = (Fraction(won_sq, scale**2) - n * mean_won**2) / (n - 1)  # the sample variance, unbiased
    return mean_ev, variance, Fraction(coups, n), bets


@pytest.mark.parametrize("ror", [Fraction(1, 20), Fraction(1, 100), Fraction(1, 2)])
def test_n0_di_and_bankroll_are_the_textbook_formulas_on_the_raw_sums(run, ror):
    key = ("perfect", "dragon-7")
    f = run.play_figures(ror)[key]
    ev, var, per_shoe, bets = raw(run, key)
    assert ev > 0
    # Per coup dealt: EV/coups, variance/coups (shoes independent).
    ev_coup, var_coup = float(ev / per_shoe), float(var / per_shoe)
    assert f.n0_coups == pytest.approx(var_coup / ev_coup**2, rel=1e-12)  # N0 = (SD/EV)^2 per coup
    assert f.n0_shoes == var / ev**2  # exact rational from the exact sums
    assert f.di == pytest.approx(1000 * ev_coup / math.sqrt(var_coup), rel=1e-12)  # Schlesinger's DI
    assert f.di == pytest.approx(1000 / math.sqrt(f.n0_coups), rel=1e-12)
    bankroll = -math.log(ror) * float(var) / (2 * float(ev))
    assert f.bankroll == pytest.approx(bankroll, rel=1e-12)
    # The ruin formula r = exp(-2·B·EV/Var) gives back the risk asked for, per coup as per shoe.
    assert math.exp(-2 * f.bankroll * ev_coup / var_coup) == pytest.approx(float(ror), rel=1e-9)
    assert f.bets_per_100 == Fraction(100 * bets, run.totals.coups)
    assert f.ev_per_100 == ev * 100 / per_shoe
    assert f.sd_per_100 == pytest.approx(math.sqrt(var_coup * 100), rel=1e-12)
    assert f.sd_per_shoe == pytest.approx(math.sqrt(float(var)), rel=1e-12)


def test_a_losing_play_has_no_n0_and_no_bankroll_and_a_negative_di(run):
    f = run.play_figures()[("always", "panda-8")]
    assert f.ev_per_shoe < 0 and f.n0_coups is None and f.bankroll is None and f.di < 0


def test_the_house_edge_beside_the_win_rate_is_exact(run):
    play = run.play_figures()
    exact = xo.analyze(xo.Shoe.standard(8), bets=["dragon-7", "panda-8"])
    for bet in ("dragon-7", "panda-8"):
        assert play[("perfect", bet)].house_edge == -exact.bet(bet).ev
    assert play[("perfect", "combined")].house_edge is None
    data = json.loads(run.render("json"))
    entry = data["results"]["always"]["dragon-7"]["advantage_play"]
    assert Fraction(entry["house_edge_no_count"]) == -exact.bet("dragon-7").ev
    assert data["ror"] == "1/20"


def test_json_and_table_carry_the_figures(run):
    f = run.play_figures(Fraction(1, 100))[("perfect", "dragon-7")]
    entry = json.loads(run.render("json", ror=Fraction(1, 100)))["results"]["perfect"]["dragon-7"]["advantage_play"]
    assert float(entry["n0_coups"]) == pytest.approx(float(f.n0_coups), abs=0.5)
    assert float(entry["bankroll_units"]) == pytest.approx(f.bankroll, abs=0.005)
    assert float(entry["desirability_index"]) == pytest.approx(f.di, abs=0.0005)
    assert Fraction(entry["bets_per_100_coups"]) == round(f.bets_per_100 * 10**6) / Fraction(10**6)
    table = run.render("table", ror=Fraction(1, 100))
    assert "bankroll 1% RoR" in table and "N0 (coups)" in table and "not exact" in table
    assert f"{round(f.n0_coups):,}" in table and f"{f.bankroll:,.0f}" in table


def test_same_seed_same_figures(run):
    again = simulate(run.plan)
    assert again.play_figures() == run.play_figures()


@pytest.mark.parametrize("text, value", [("5%", Fraction(1, 20)), ("0.01", Fraction(1, 100)), ("1/3", Fraction(1, 3))])
def test_parse_ror(text, value):
    assert parse_ror(text) == value


@pytest.mark.parametrize("text", ["0", "100%", "1", "-5%", "x", "٥%"])
def test_parse_ror_refuses(text):
    with pytest.raises(ExactOddsError):
        parse_ror(text)


def test_play_figures_without_shoes_to_compare():
    f = PlayFigures(shoes=1, coups=80, bets=3, ev_per_shoe=Fraction(1, 3), ev_variance=Fraction(0),
                    variance_per_shoe=Fraction(0))  # fmt: skip
    assert f.n0_coups is None and f.di is None and f.bankroll == 0.0


# The threshold scan.


@pytest.fixture(scope="module")
def scan_plan():
    return SimulationPlan.from_options(xo.Shoe.standard(8), bets=["dragon-7", "panda-8"], shoes=60, seed=4,
                                       tags=[f"dragon-7={DRAGON}", f"panda-8={PANDA}"], thresholds=["0"],
                                       chunk_shoes=25)  # fmt: skip


@pytest.fixture(scope="module")
def scan(scan_plan):
    return scan_thresholds(scan_plan, parse_scan("0:8:2"))


def test_the_scan_finds_the_maximum_of_the_scanned_win_rates(scan):
    for bet in ("dragon-7", "panda-8"):
        _, rows = scan.figures(bet)
        rates = {t: f.ev_per_shoe for t, f in zip(scan.thresholds, rows)}
        best = scan.best(bet)
        assert rates[best] == max(rates.values())
        assert best == min(t for t, r in rates.items() if r == max(rates.values()))
        dis = {t: f.di for t, f in zip(scan.thresholds, rows) if f.di is not None}
        assert dis[scan.best_di(bet)] == max(dis.values())
        data = json.loads(scan.render("json"))["bets"][bet]
        assert Fraction(data["best_threshold"]) == best
        assert Fraction(data["best_threshold_by_di"]) == scan.best_di(bet)
        assert [Fraction(r["threshold"]) for r in data["thresholds"]] == list(scan.thresholds)


def test_each_scanned_threshold_equals_a_run_at_that_threshold(scan, scan_plan):
    """Same seed, same shoes: the scan's cells are exactly those of simulate with that one threshold."""
    import dataclasses

    from exactodds.lab.counts import CountSystem

    for threshold in (Fraction(2), Fraction(6)):
        counts = {b: CountSystem(c.tags, threshold) for b, c in scan_plan.counts.items()}
        alone = simulate(dataclasses.replace(scan_plan, counts=counts))
        for bet in ("dragon-7", "panda-8"):
            assert scan.totals.cells[(f"count@{threshold}", bet)] == alone.totals.cells[("count", bet)]
            assert scan.totals.cells[("perfect", bet)] == alone.totals.cells[("perfect", bet)]
        assert (scan.totals.shoes, scan.totals.coups) == (alone.totals.shoes, alone.totals.coups)


def test_a_scan_is_the_same_on_a_pool_of_workers(scan, scan_plan):
    from exactodds.lab import LabPool

    with LabPool(2) as pool:
        again = scan_thresholds(scan_plan, scan.thresholds, pool)
    assert again.totals == scan.totals


@pytest.mark.parametrize("text, values", [("0:2:1/2", ["0", "1/2", "1", "3/2", "2"]), ("4,1,-1.5", ["-3/2", "1", "4"]),
                                          ("3:3:1", ["3"])])  # fmt: skip
def test_parse_scan(text, values):
    assert [str(t) for t in parse_scan(text)] == values


@pytest.mark.parametrize(
    "args, message",
    [
        (["--scan-threshold", "0:4:0", "--tags", DRAGON], "step must be above 0"),
        (["--scan-threshold", "4:0:1", "--tags", DRAGON], "goes up"),
        (["--scan-threshold", "0:1000:1/1000", "--tags", DRAGON], "at most 401"),
        (["--scan-threshold", "0:4", "--tags", DRAGON], "malformed scan"),
        (["--scan-threshold", "0:4:1", "--tags", DRAGON, "--threshold", "3"], "replaces --threshold"),
        (["--scan-threshold", "0:4:1"], "needs a count"),
        (["--scan-threshold", "0:4:1", "--tags", DRAGON, "--output", "x.json"], "writes no run file"),
        (["--ror", "0"], "risk of ruin"),
        (["--ror", "abc"], "malformed risk of ruin"),
    ],
)
def test_cli_bad_scan_or_ror_is_one_error_line(args, message):
    result = CliRunner().invoke(cli, ["simulate", "--shoes", "2", "--seed", "1", "--quiet", "--workers", "1", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert result.stdout == ""


def test_cli_scan_table_and_json():
    base = ["simulate", "--bet", "dragon-7", "--tags", DRAGON, "--scan-threshold", "2,4", "--shoes", "30",
            "--seed", "2", "--quiet", "--workers", "1"]  # fmt: skip
    table = CliRunner().invoke(cli, base)
    assert table.exit_code == 0, table.output
    assert "Best threshold for dragon-7: true count >=" in table.stdout and "<- best" in table.stdout
    data = json.loads(CliRunner().invoke(cli, [*base, "--format", "json", "--ror", "1%"]).stdout)
    assert data["ror"] == "1/100" and data["estimates"] is True
    assert data["scan"]["thresholds"] == ["2", "4"] and data["bets"]["dragon-7"]["tags"] == DRAGON
