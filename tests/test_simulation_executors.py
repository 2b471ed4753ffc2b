"""The lab on executors: this process, the lab's pool, any concurrent.futures executor, a Dask cluster; user bets."""

from __future__ import annotations

import json
import os
from fractions import Fraction

import pytest
from click.testing import CliRunner
from profiles import is_slow, slow

import exactodds as xo
from exactodds.cli import cli
from exactodds.lab import CountSystem, LabPool, Session, SimulationPlan, parse_tags
from exactodds.puntobanco.odds import resolve_bets

EZ = xo.find_rules("ez")
DRAGON = "0,0,0,-1,-1,-1,-1,2,2,0"


def make_plan(shoe, rules=xo.PUNTO_BANCO, bets=("dragon-7", "panda-8"), **options):
    return SimulationPlan.from_options(shoe, rules, bets=bets, **options)


def small_plan(**extra):
    options = dict(shoes=300, seed=7, strategies=("perfect", "always"), chunk_shoes=100)
    options.update(extra)
    return make_plan(xo.Shoe.standard(8), EZ, ("dragon-7", "panda-8"), **options)


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_same_seed_same_json_for_one_and_two_workers():
    one = xo.simulate(small_plan()).render("json")
    with LabPool(2) as pool:
        two = xo.simulate(small_plan(), pool).render("json")
    assert one == two
    assert json.loads(one)["results"]["perfect"]["dragon-7"]["units_per_shoe"]
    assert one != xo.simulate(small_plan(seed=8)).render("json")


@pytest.fixture(scope="module")
def cluster():
    """One local Dask cluster (a scheduler and a worker of two threads in this process) for the module's tests."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as running:
        yield running


@slow
def test_dask_local_cluster_gives_the_same_json(cluster):
    through_dask = Session(small_plan(), scheduler=cluster.scheduler_address).run().render("json")
    assert through_dask == xo.simulate(small_plan()).render("json")


#: A user-defined bet: its events are made from a file, not taken from the catalog.
USER_BETS = """
[bets.banker-six]
description = "Banker wins with a three-card 6, 40:1"

[[bets.banker-six.outcome]]
id = "win"
when = { winner = "banker", banker_total = 6, banker_cards = 3 }
pays = 40

[[bets.banker-six.outcome]]
id = "lose"
otherwise = true
pays = -1
"""


def user_bet_plan(tmp_path, **extra):
    path = tmp_path / "bets.toml"
    path.write_text(USER_BETS)
    return make_plan(xo.Shoe.standard(8), EZ, (*xo.load_bets(path), "dragon-7"), shoes=300, seed=4,
                     strategies=("perfect", "always"), chunk_shoes=100, **extra)  # fmt: skip


@slow
def test_user_defined_bet_with_two_workers(tmp_path):
    """A bet from a bets file runs on worker processes: workers get the bets as plain pay data, which pickles.

    Before, the plan shipped bets by catalog id (their events are functions, which do not
    pickle), so a user-defined bet failed with more than one worker; and simulate took no --bets-file.
    """
    import pickle

    plan = user_bet_plan(tmp_path)
    assert pickle.loads(pickle.dumps(plan.work())) == plan.work()
    path = tmp_path / "bets.toml"
    shoes = "1000" if is_slow() else "600"  # two chunks (of CHUNK_SHOES, 500, and the rest): one for each worker
    common = ["simulate", "--bets-file", str(path), "--bet", "banker-six", "--rules", "ez", "--shoes", shoes,
              "--seed", "2", "--strategy", "always", "--format", "json", "--quiet"]  # fmt: skip
    alone, two = run(*common, "--workers", "1"), run(*common, "--workers", "2")
    assert two.exit_code == 0, two.stderr
    assert two.stdout == alone.stdout
    data = json.loads(two.stdout)
    assert data["simulation"]["bets"] == ["banker-six"] and data["complete"]
    # Betting every coup, the mean EV per coup is near the bet's exact full-shoe EV.
    f = xo.simulate(plan).figures()[("always", "banker-six")]
    assert abs(f.ev / f.coups_per_shoe - xo.analyze(xo.Shoe.standard(8), EZ, plan.bets[:1]).bets[0].ev) < 0.02


def test_user_defined_bet_on_a_dask_cluster(tmp_path, cluster):
    import distributed

    plan = user_bet_plan(tmp_path)
    with distributed.Client(cluster) as client:
        through_dask = xo.simulate(plan, client).render("json")
    assert through_dask == xo.simulate(plan).render("json")


def test_any_concurrent_futures_executor_gives_the_same_json():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        assert xo.simulate(small_plan(), pool).render("json") == xo.simulate(small_plan()).render("json")
    with pytest.raises(xo.ExactOddsError, match="an executor is a concurrent.futures.Executor or a Dask client"):
        xo.simulate(small_plan(), object())


def test_a_chunk_error_and_a_dead_worker_reach_the_caller():
    """An error in a worker is raised in the caller; a worker that dies fails its tasks instead of hanging."""
    with LabPool(1) as pool:
        with pytest.raises(ValueError, match="invalid literal"):
            pool.submit(int, "x").result(timeout=60)
        assert pool.submit(abs, -4).result(timeout=60) == 4
        with pytest.raises(xo.ExactOddsError, match="worker process died"):
            pool.submit(os._exit, 3).result(timeout=60)


def test_a_plan_holds_final_types_and_only_checks_them():
    bets = resolve_bets(EZ, ["dragon-7"])
    plan = SimulationPlan(xo.Shoe.standard(8), EZ, bets, strategies=("perfect", "always"), burn="card")
    assert plan.bets == bets and plan.burn == "card"
    for wrong, message in [
        (dict(bets=("dragon-7",)), "Bet objects"),
        (dict(bets=bets * 2), "same id"),
        (dict(strategies=("always", "perfect")), "in the order perfect, count, always"),
        (dict(strategies=("count",), counts={"dragon-7": CountSystem(parse_tags(DRAGON), Fraction(4))}),
         "include perfect"),
        (dict(burn="3"), "the burn must be a whole number"),
        (dict(shoes=True), "the shoes must be a whole number"),
    ]:  # fmt: skip
        options = dict(bets=bets) | wrong
        with pytest.raises(xo.ExactOddsError, match=message):
            SimulationPlan(xo.Shoe.standard(8), EZ, **options)


def test_bet_pays_settle_every_state_code_as_the_bets_do():
    from exactodds.lab.plan import bet_pays
    from exactodds.puntobanco.coup import STATE_CODES, decode_state

    bets = xo.lab.simulated_bets(xo.PUNTO_BANCO, ["all"])
    pays = bet_pays(bets)
    for i, bet in enumerate(bets):
        assert [pays.net(i, code) for code in range(STATE_CODES)] == [
            bet.settle(decode_state(code)).net for code in range(STATE_CODES)
        ]
