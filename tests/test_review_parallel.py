"""A log reviewed by several processes gives the verdict one process gives, byte for byte: the same figures, the same
findings in the same order, the same CSV rows, the same p-values, the same first error; and the permutation test's
inputs are each bettor's coups at the table, as the log says.

The rounds of lines handed to the workers are made a few lines long here, so that shoes close in other rounds than
they started and the workers run ahead of one another, as in a long log.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from profiles import slow
from test_review import build_log
from test_simulation_signals import EXIT_TIMEOUT, gone_within, start, still_running

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import PUNTO_BANCO
from exactodds.review import parallel
from exactodds.review.parallel import review_lines, shoe_id, worker_of
from exactodds.review.render import verdict_json, wager_rows
from exactodds.review.verdict import _sparse_test


def interleaved(log: list[str], seed: int = 3) -> list[str]:
    """The log's shoes mixed line by line, as tables dealing at once write them: each shoe's own lines in order."""
    rng = random.Random(seed)
    by_shoe: dict[str, list[str]] = {}
    for line in log:
        by_shoe.setdefault(json.loads(line)["shoe"], []).append(line)
    queues = list(by_shoe.values())
    out = []
    while queues:
        queue = rng.choice(queues)
        out.append(queue.pop(0))
        if not queue:
            queues.remove(queue)
    return out


@pytest.fixture(scope="module")
def log() -> list[str]:
    lines = interleaved(build_log(shoes=9)[0])
    # Two shoes left open at the end (closed there, in the order they started), and one id dealt twice.
    ends = [i for i, line in enumerate(lines) if '"end": true' in line]
    for i in reversed(ends[:2]):
        del lines[i]
    first = json.loads(lines[0])["shoe"]
    return [*lines, json.dumps({"shoe": first, "decks": 1}),
            json.dumps({"shoe": first, "coup": 1, "player": ["2", "3", "9"], "banker": ["3", "4"]}),
            json.dumps({"shoe": first, "coup": 1, "who": "late", "bet": "banker", "stake": "10", "net": "9.5"})]


def reviewed(lines: list[str], jobs: int, **options: object) -> tuple[str, list[str]]:
    rows: list[str] = []
    verdict = review_lines(lines, jobs=jobs, shoe_done=lambda shoe: rows.append(wager_rows(shoe)),
                           keep_wagers=True, **options)
    return verdict_json(verdict), rows


def test_two_workers_give_one_process_s_verdict_and_rows_byte_for_byte(log, monkeypatch) -> None:
    monkeypatch.setattr(parallel, "ROUND", 7)
    one, rows_one = reviewed(log, 1)
    two, rows_two = reviewed(log, 2)
    assert json.loads(one)["log"]["shoes"] == 10 and any(w == 1 for w in (worker_of(json.loads(x)["shoe"], 2)
                                                                           for x in log))
    assert two == one and rows_two == rows_one
    three, _ = reviewed(log, 3)
    assert three == one


def test_bad_lines_are_met_in_one_process_s_order(log, monkeypatch) -> None:
    monkeypatch.setattr(parallel, "ROUND", 5)
    shoes = sorted({json.loads(line)["shoe"] for line in log})
    apart = next((a, b) for a in shoes for b in shoes if worker_of(a, 2) != worker_of(b, 2))
    bad = list(log)
    # A later line of the first worker's shoe and an earlier one of the other's: the earlier is the error.
    at = [i for i, line in enumerate(bad) if json.loads(line)["shoe"] in apart]
    bad.insert(at[-3], json.dumps({"shoe": apart[0], "coup": 1, "who": "x", "bet": "no-such-bet", "stake": "1",
                                   "net": "1"}))
    bad.insert(at[5], json.dumps({"shoe": apart[1], "burn": ["Z"]}))
    bad.insert(len(bad) // 2, "not json")
    errors = []
    for jobs in (1, 2):
        with pytest.raises(Exception) as raised:
            reviewed(bad, jobs)
        errors.append(str(raised.value))
    assert errors[0] == errors[1] and errors[0].startswith("line ")
    skipped = [reviewed(bad, jobs, skip_bad=True) for jobs in (1, 2)]
    assert skipped[0] == skipped[1] and json.loads(skipped[0][0])["log"]["bad_lines"] == 3


@slow
def test_the_command_s_workers_change_nothing_it_prints(log, tmp_path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(log) + "\n", encoding="utf-8")
    for fmt, extra in (("json", []), ("csv", []), ("json", ["--rebate", "1%"]), ("csv", ["--rebate", "1%"])):
        out = [CliRunner().invoke(cli, ["review", str(path), "--format", fmt, "--workers", n, *extra])
               for n in ("1", "2")]
        assert out[0].exit_code == 0 and out[1].exit_code == 0, out[1].output
        assert out[0].stdout == out[1].stdout
    refused = CliRunner().invoke(cli, ["review", str(path), "--workers", "0"])
    assert refused.exit_code == 2 and refused.stderr.startswith("Error: ") and refused.stderr.count("\n") == 1


def test_a_line_is_routed_by_its_shoe_whatever_its_keys_order() -> None:
    assert shoe_id('{"shoe": "T1", "end": true}') == shoe_id('{"end": true, "shoe": "T1"}') == "T1"
    assert shoe_id('{"who": "\\"shoe\\": \\"T9\\"", "shoe": "T1"}') == "T1"
    assert shoe_id('{"shoe": "T\\u0031"}') == "T1" and shoe_id("[]") is None and shoe_id("{") is None


def test_each_bettor_s_coups_at_the_table_are_the_log_s(log) -> None:
    """The permutation test's inputs, rebuilt from the log by the test: from a bettor's first wager on his bet to his
    last in each shoe, his stake at each coup (0 where he did not bet) and the bet's EV on the cards left, by
    ``analyze`` one coup at a time."""
    verdict = review_lines(log[:-3], jobs=1)
    who, bet = "side", "tie"
    left: dict[str, Shoe] = {}
    at: dict[str, dict[int, Shoe]] = {}
    stakes: dict[str, dict[int, float]] = {}
    order: list[str] = []
    for line in log[:-3]:
        record = json.loads(line)
        shoe = record["shoe"]
        if "decks" in record:
            left[shoe], at[shoe], stakes[shoe] = Shoe.standard(record["decks"]), {}, {}
        elif "burn" in record:
            left[shoe] = left[shoe].remove(record["burn"])
        elif "player" in record:
            at[shoe][record["coup"]] = left[shoe]
            left[shoe] = left[shoe].remove(record["player"] + record["banker"])
        elif "bet" in record and (record["who"], record["bet"]) == (who, bet):
            stakes[shoe][record["coup"]] = stakes[shoe].get(record["coup"], 0.0) + float(record["stake"])
        elif "end" in record:
            order.append(shoe)
    order += [shoe for shoe in at if shoe not in order]  # those open at the end close in the order they started
    want_stakes, want_evs = [], []
    for shoe in order:
        if stakes[shoe]:
            for coup in range(min(stakes[shoe]), max(stakes[shoe]) + 1):
                want_stakes.append(stakes[shoe].get(coup, 0.0))
                want_evs.append(float(analyze(at[shoe][coup].without_suits(), PUNTO_BANCO, [bet]).bet(bet).ev))
    got_stakes, got_evs, results = verdict.coups_of((who, bet))
    assert got_stakes == want_stakes and got_evs == pytest.approx(want_evs, abs=1e-15)
    assert [r == 0 for r in results] == [s == 0 for s in want_stakes]


def test_the_sparse_shuffle_has_the_dense_shuffle_s_law() -> None:
    """Shuffling the stakes among n coups is drawing distinct places for the stakes that are not 0: the statistic's
    mean over the shuffles is Σ stake · mean EV, the slope and correlation those of the dense arrays."""
    rng = np.random.default_rng(5)
    e = rng.normal(-0.01, 0.05, 400)
    s = np.zeros(400)
    s[rng.choice(400, 60, replace=False)] = rng.choice([5.0, 25.0, 100.0], 60)
    at = np.flatnonzero(s)
    slope, correlation, p = _sparse_test(e, at, s[at], 0, 999)
    assert correlation == pytest.approx(np.corrcoef(s, e)[0, 1]) and slope == pytest.approx(np.polyfit(e, s, 1)[0])
    draws = np.array([s[at] @ e[np.random.default_rng(k).choice(400, 60, replace=False)] for k in range(3000)])
    dense = np.array([np.random.default_rng(k).permutation(s) @ e for k in range(3000)])
    assert abs(draws.mean() - s.sum() * e.mean()) < 4 * draws.std() / 3000 ** 0.5
    assert draws.std() == pytest.approx(dense.std(), rel=0.1)
    assert p is not None and Fraction(0) < p <= 1


@pytest.fixture(scope="module")
def long_log(tmp_path_factory) -> Path:
    """A log long enough that a review of it is still running when it is signalled (some 200 shoes)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from review import make_log  # the benchmark's log: shoes dealt by the tableau, seven seats betting

    path = tmp_path_factory.mktemp("signals") / "long.jsonl"
    make_log(path, 200, 20_000)
    return path


def started(log: Path) -> tuple[subprocess.Popen[bytes], set[int]]:
    """``review`` with two workers in its own session, once both are running, with every process below it."""
    return start(args=[sys.executable, "-m", "exactodds", "review", str(log), "--workers", "2"])


@pytest.mark.skipif(sys.platform != "linux", reason="process-group signals and /proc: Linux")
def test_ctrl_c_ends_a_review_on_every_core_with_one_line_and_no_worker_left(long_log) -> None:
    process, below = started(long_log)
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=EXIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        still_running(process, "Ctrl-C left the review running")
    left = gone_within(below, 5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert process.returncode == 130 and not left
    assert re.fullmatch(rb"Error: interrupted[^\n]*\n", stderr), stderr


def test_the_workers_close_when_a_ctrl_c_left_a_queue_s_lock_held() -> None:
    """A Ctrl-C that lands in ``Queue.put`` just after its lock is taken leaves the lock held (Python raises it before
    the ``with`` holds the lock): closing the queue then waited for ever, and the review with it."""
    import threading

    workers = parallel._Workers(1, None, (), False)  # one worker is enough: its queues are the ones closed
    inbox = workers.inboxes[0]
    inbox.put([])  # its feeder thread started, as in a review
    inbox._notempty.acquire()  # what the Ctrl-C leaves
    done = threading.Event()
    threading.Thread(target=lambda: (workers.__exit__(None, None, None), done.set()), daemon=True).start()
    closed = done.wait(60)
    if not closed:  # do not leave this process to wait for it at its exit
        inbox._notempty.release()
    assert closed, "closing the workers waited for a lock no one gives back"
    assert all(not p.is_alive() for p in workers.processes)


@pytest.mark.skipif(sys.platform != "linux", reason="process-group signals and /proc: Linux")
def test_a_review_s_workers_die_with_their_parent(long_log) -> None:
    process, below = started(long_log)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(EXIT_TIMEOUT)
    process.stdout.close()  # type: ignore[union-attr]
    process.stderr.close()  # type: ignore[union-attr]
    left = gone_within(below, 5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers outlived their killed parent"


def blind_bettors(count: int, seed: int) -> list[tuple[object, object, object, object]]:
    """Bettors who bet blind (a few coups of each shoe at random, random stakes) against EVs that spread as the shoe is
    dealt, as a countable bet's do (the first coups' EVs near the full shoe's, the last ones' far from it): (EVs,
    places, stakes, runs) of each."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        evs, places, stakes, runs, offset = [], [], [], [], 0
        for _shoe in range(30):
            walk = rng.normal(-0.02, 0.001 + 0.1 * (np.arange(80) / 80) ** 4)
            bet = np.sort(rng.choice(80, 3, replace=False))
            first, last = bet[0], bet[-1]
            evs.append(walk[first:last + 1])
            places += [offset + b - first for b in bet]
            stakes += list(rng.choice([5.0, 25.0, 100.0], 3))
            runs.append((offset, offset + last - first + 1))
            offset += last - first + 1
        out.append((np.concatenate(evs), np.array(places), np.array(stakes), np.array(runs)))
    return out


@slow
def test_blind_bettors_get_uniform_p_values_and_would_not_if_the_test_were_not_stratified() -> None:
    """Under "stakes independent of EV" a p-value is uniform: about 5% of blind bettors fall at or below 0.05. Shuffled
    across every coup of every run (the test before it was stratified), the stakes at a run's ends, always wagers and
    the last one late in the shoe, are compared with shuffles that put them among the run's quieter inner coups, and
    far more fall there: the check can fail."""
    bettors = blind_bettors(300, 11)
    stratified = [_sparse_test(e, at, s, k, 199, spans=runs)[2] for k, (e, at, s, runs) in enumerate(bettors)]
    pooled = [_sparse_test(e, at, s, k, 199)[2] for k, (e, at, s, runs) in enumerate(bettors)]
    low = sum(p is not None and p <= Fraction(1, 20) for p in stratified) / len(bettors)
    assert low <= 0.085  # 5% expected; the SD of the share is 1.3 points
    assert sum(p is not None and p <= Fraction(1, 20) for p in pooled) / len(bettors) > 0.09  # 12% here


def test_a_shuffle_within_runs_places_the_stakes_as_a_permutation_of_each_run_does() -> None:
    """The stratified shuffle, a dense run (6 stakes on 10 coups, shuffled whole) beside a sparse one (2 on 40, drawn
    place by place): its S has the law of a permutation of each run's stakes and zeros, mean and SD."""
    from exactodds.review.verdict import _stratified

    rng = np.random.default_rng(3)
    e = rng.normal(0, 1, 60)
    lows = np.array([5] * 6 + [20] * 2)
    sizes = np.array([10] * 6 + [40] * 2)
    stakes = np.array([1.0, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0, 34.0])
    shuffle = _stratified(np.random.default_rng(9), e, stakes, lows, sizes)
    draws = np.array([shuffle() for _ in range(6000)])
    dense, sparse = np.zeros(10), np.zeros(40)
    dense[:6], sparse[:2] = stakes[:6], stakes[6:]
    perm = np.random.default_rng(10)
    wanted = np.array([perm.permutation(dense) @ e[5:15] + perm.permutation(sparse) @ e[20:60] for _ in range(6000)])
    mean = stakes[:6].sum() * e[5:15].mean() + stakes[6:].sum() * e[20:60].mean()
    assert abs(draws.mean() - mean) < 4 * wanted.std() / 6000 ** 0.5
    assert draws.std() == pytest.approx(wanted.std(), rel=0.06)
