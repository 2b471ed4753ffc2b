"""Resuming from an ``--output`` file trusts nothing in it: crafted or damaged files are refused in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import exactodds as xo
from exactodds.cli import cli
from exactodds.lab import SimulationPlan, load_result, save_result, saved_seed
from exactodds.lab.persist import _read_run_file

EZ = xo.find_rules("ez")
ROOT = Path(__file__).resolve().parent.parent


def plan(**extra):
    options = dict(shoes=300, seed=7, strategies=("perfect", "always"), chunk_shoes=100)
    options.update(extra)
    return SimulationPlan.from_options(xo.Shoe.standard(8), EZ, bets=("dragon-7", "panda-8"), **options)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A run of 300 shoes stopped after its first two chunks, as its file holds it."""
    calls = []

    def stop(result):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt

    result = xo.simulate(plan(), progress=stop)
    path = tmp_path_factory.mktemp("run") / "run.json"
    save_result(result, path)
    return json.loads(path.read_text())


def write(tmp_path, data, text=None):
    path = tmp_path / "run.json"
    path.write_text(text if text is not None else json.dumps(data))
    return path


def tampered(saved, change):
    data = json.loads(json.dumps(saved))
    change(data)
    return data


def cell(data, name="perfect/dragon-7"):
    return data["state"]["totals"]["cells"][name]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["state"].update(chunks_done=[[0, 10_000_000_000]]), "not a chunk of"),  # no 10^10-element set
        (lambda d: d["state"].update(chunks_done=[[-5, -1]]), "increasing and disjoint"),
        (lambda d: d["state"].update(chunks_done=[[1, 0]]), "increasing and disjoint"),
        (lambda d: d["state"].update(chunks_done=[[0, 0], [0, 1]]), "increasing and disjoint"),
        (lambda d: d["state"].update(chunks_done=[[0, 1.0]]), "whole numbers"),
        (lambda d: d["state"].update(chunks_done=[[0, True]]), "whole numbers"),
        (lambda d: d["state"].update(chunks_done=[]), "chunks done hold 0"),  # totals kept, no chunks
        (lambda d: d["state"].update(chunks_done=[[0, 0]]), "chunks done hold 100"),
        (lambda d: d["state"]["totals"].update(shoes=201), "count 201 shoes"),
        (lambda d: d["state"]["totals"].update(shoes=True), "whole numbers of shoes"),
        (lambda d: d["state"]["totals"].update(coups=-1), "coups cannot come from"),
        (lambda d: d["state"]["totals"].update(coups=10**9), "coups cannot come from"),
        (lambda d: d["simulation"].update(shoes=True), "number of shoes"),
        (lambda d: d["simulation"].update(shoes=-300), "number of shoes"),
        (lambda d: d["simulation"].update(seed=7.0), "seed differs"),
        (lambda d: d["simulation"].update(cut_card=14.0), "cut card differs"),
        (lambda d: cell(d).update(won_squares="0"), "not what any shoes can add up to"),  # variance < 0
        (lambda d: cell(d).update(ev_squares="-1"), "not what any shoes can add up to"),
        (lambda d: cell(d).update(bets="-3"), "cannot come from"),
        (lambda d: cell(d, "always/dragon-7").update(bets="1"), "cannot come from"),  # always bets every coup
        (lambda d: cell(d).update(won="1_000"), "decimal digits"),
        (lambda d: cell(d).update(won="\u0661\u0662"), "decimal digits"),  # Arabic-Indic digits int() would read
        (lambda d: cell(d).update(won=12), "decimal digits"),
        (lambda d: cell(d, "always/dragon-7").update(won=str(10**30)), "not what any shoes"),
        (lambda d: cell(d, "always/combined").update(won="0"), "sums of its bets"),
        (lambda d: d["state"]["totals"]["cells"].pop("always/combined"), "one cell per strategy and bet"),
        (lambda d: d["state"]["totals"].update(cells={}), "one cell per strategy and bet"),
        (lambda d: d["state"].pop("totals"), "not a simulate output file"),
        (lambda d: d.update(state=[1]), "not a simulate output file"),
    ],
)
def test_tampered_files_are_refused(tmp_path, saved, change, message):
    path = write(tmp_path, tampered(saved, change))
    with pytest.raises(xo.ExactOddsError, match=f"cannot resume from {path}: .*{message}"):
        load_result(path, plan())


def test_the_untouched_file_resumes_to_the_uninterrupted_run(tmp_path, saved):
    resumed = xo.simulate(plan(), resume=load_result(write(tmp_path, saved), plan()))
    assert resumed.render("json") == xo.simulate(plan()).render("json")


@pytest.mark.parametrize(
    "extra",
    [
        dict(strategies=("always",), burn="card", shoes=150, chunk_shoes=50),
        dict(shoe=xo.Shoe.standard(1), bets=("player-pair", "banker"), shoes=40, chunk_shoes=20, cut_card=16),
        dict(bets=("tie",), strategies=("count",), shoes=60, chunk_shoes=30,
             counts={"tie": xo.lab.CountSystem(xo.lab.parse_tags("1,1,1,1,1,-1,-1,-1,-1,0"), 1)}),
    ],
)  # fmt: skip
def test_every_honest_file_passes_the_checks(tmp_path, extra):
    """The consistency checks hold for what real runs write: pair bets, one deck, the burn card, counts."""
    options = dict(seed=3)
    options.update(extra)
    shoe = options.pop("shoe", xo.Shoe.standard(8))
    bets = options.pop("bets", ("dragon-7",))
    honest = SimulationPlan.from_options(shoe, xo.PUNTO_BANCO, bets=bets, **options)
    path = tmp_path / "run.json"
    save_result(xo.simulate(honest), path)
    assert load_result(path, honest).render("json") == path.read_text()


def test_unreadable_json_is_one_error(tmp_path, saved):
    huge = json.dumps(saved).replace('"shoes": 300', '"shoes": 1e400', 1)
    with pytest.raises(xo.ExactOddsError, match="number of shoes"):
        load_result(write(tmp_path, None, huge), plan())
    for text, message in [
        ("[" * 100_000 + "]" * 100_000, "more entries than"),
        ('{"simulation": NaN}', "not a number"),
        ("\xff", "not a simulate output file"),
    ]:
        with pytest.raises(xo.ExactOddsError, match=message):
            load_result(write(tmp_path, None, text), plan())
    deep = write(tmp_path, None, "[" * 100_000 + "]" * 100_000)
    with pytest.raises(xo.ExactOddsError, match="nested too deeply"):
        _read_run_file(deep, 10**6)  # a run of many chunks may hold that many brackets: still no RecursionError


def test_big_files_and_non_files_are_refused_without_reading_them(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(65 * 2**20)  # sparse: no disk used
    with pytest.raises(xo.ExactOddsError, match="the most a simulate output file may be"):
        load_result(big, plan())
    with pytest.raises(xo.ExactOddsError, match="not a regular file"):
        load_result(tmp_path, plan())
    with pytest.raises(xo.ExactOddsError, match="cannot resume from"):
        saved_seed(tmp_path / "missing.json")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_is_refused_at_once(tmp_path):
    """Reading a FIFO with no writer would block forever: in a process, so a hang fails the test instead."""
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    code = (
        "import exactodds as xo, sys\n"
        "from exactodds.lab import saved_seed\n"
        "try:\n    saved_seed(sys.argv[1])\n"
        "except xo.ExactOddsError as err:\n    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(fifo)], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert "not a regular file" in out.stdout, out


def cli_file(tmp_path):
    """A file written by the command line (500-shoe chunks), and the arguments that resume it."""
    out = tmp_path / "cli.json"
    args = ["simulate", "--rules", "ez", "--bet", "dragon-7", "--shoes", "1000", "--seed", "5", "--workers", "1",
            "--quiet", "--output", str(out)]  # fmt: skip
    assert CliRunner().invoke(cli, args).exit_code == 0
    return out, [*args, "--resume"]


def test_cli_refuses_a_tampered_file_in_one_line(tmp_path):
    out, args = cli_file(tmp_path)
    data = json.loads(out.read_text())
    good = json.dumps(data)
    cases = [
        good.replace('"seed": 5', '"seed": 1e400', 1),  # the seed is read first, without --seed
        good.replace('"seed": 5', '"seed": true', 1),
        json.dumps(tampered(data, lambda d: cell(d).update(won_squares="0"))),  # was: square root of a negative
        json.dumps(tampered(data, lambda d: d["state"].update(chunks_done=[[0, 10**10]]))),
        "[" * 200_000 + "]" * 200_000,
    ]
    for text in cases:
        out.write_text(text)
        result = CliRunner().invoke(cli, [a for a in args if a not in ("--seed", "5")])
        assert result.exit_code == 2, (text[:80], result.stderr, result.exception)
        assert result.stderr.startswith(f"Error: cannot resume from {out}") and result.stderr.count("\n") == 1
