"""``exactodds serve``'s fast path: requests of a kind that proved quick answered in the server itself, byte for byte
as a worker answers them, and every other kind left to the workers (whose work the time limit stops).

The server is the real one in a subprocess (``tests/test_serve.py``'s), asked by the standard library's client;
where a request was answered is read from the CPU time of the server and of its workers (``/proc``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_serve import start, stop  # noqa: E402
from test_serve_hostile import _children_cpu  # noqa: E402

from exactodds.serve.costs import QUICK_BODY, QUICK_KINDS, QUICK_RUNS, QUICK_STRIKES, QUICK_UNITS, Quick  # noqa: E402
from exactodds.serve.endpoints import ENDPOINTS, answer  # noqa: E402
from exactodds.serve.tracks import Tracks  # noqa: E402
from exactodds.serve.workers import Job, run_job  # noqa: E402

ODDS = next(number for number, endpoint in enumerate(ENDPOINTS) if endpoint.path == "/odds")
on_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads CPU times from /proc")


def _own_cpu(pid: int) -> float:
    """The CPU seconds process ``pid`` itself has used (its children apart)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _shoe(number: int) -> dict[str, object]:
    """An 8-deck shoe with some cards dealt, another for each ``number``."""
    return {"decks": 8, "remove": ",".join("A23456789TJQK"[(number * 7 + i) % 13] for i in range(number % 40 + 1))}


# --- the kinds the server answers itself ------------------------------------------------------------------------


def test_a_kind_is_answered_in_the_server_after_quick_answers_in_a_row_and_sent_back_by_a_slow_one() -> None:
    quick = Quick(limit=30)
    kind = quick.kind(ODDS, _shoe(1), 7, 100)
    for _ in range(QUICK_RUNS - 1):
        quick.ran(kind, 0.001, here=False)
    assert not quick.proven(kind)
    quick.ran(kind, 0.001, here=False)
    assert quick.proven(kind) and quick.proven(quick.kind(ODDS, _shoe(2), 7, 100))  # another shoe, the same kind
    quick.ran(kind, 1.0, here=False)  # slow in a worker (a new table, a bigger shoe): back to the workers
    assert not quick.proven(kind)


def test_a_kind_slow_in_the_server_again_and_again_is_left_to_the_workers_for_good() -> None:
    quick = Quick(limit=30)
    kind = quick.kind(ODDS, {"game": "lucky-draw"}, 1, 100)
    for _ in range(QUICK_STRIKES):
        for _ in range(QUICK_RUNS):
            quick.ran(kind, 0.001, here=False)
        assert quick.proven(kind)
        quick.ran(kind, 0.2, here=True)
        assert not quick.proven(kind)
    for _ in range(QUICK_RUNS):
        quick.ran(kind, 0.001, here=False)
    assert not quick.proven(kind)


def test_costly_large_or_unestimated_requests_have_no_kind_and_a_short_limit_lowers_the_bound() -> None:
    quick = Quick(limit=30)
    assert quick.kind(ODDS, {"bets": ["all"]}, QUICK_UNITS + 1, 100) is None
    assert quick.kind(ODDS, {}, 0, 100) is None  # no estimate: an endpoint that says nothing of its cost
    assert quick.kind(ODDS, {}, 7, QUICK_BODY + 1) is None and quick.kind(ODDS, [1], 7, 10) is None
    assert Quick(limit=0.2).bound == 0.001 < quick.bound
    for number in range(QUICK_KINDS + 10):  # kinds seen once each are forgotten, not kept without bound
        quick.ran(quick.kind(ODDS, {"decks": number}, 7, 100), 0.001, here=False)
    assert len(quick._runs) <= QUICK_KINDS


@on_proc
def test_a_quick_kind_is_answered_by_the_server_itself_byte_for_byte() -> None:
    """Once the first answers of a kind were quick in the workers, the server answers it: every answer the bytes
    of the endpoint's function, the workers idle meanwhile."""
    odds, tracks = ENDPOINTS[ODDS], Tracks()
    server = start("--workers", "2")
    try:
        for number in range(10):  # the workers' answers, then the server's first (its tables built)
            assert server.post("/odds", _shoe(number)) == (200, answer(odds, _shoe(number), {}, tracks).body.encode())
        workers, itself = _children_cpu(server.process.pid), _own_cpu(server.process.pid)
        for number in range(10, 160):
            assert server.post("/odds", _shoe(number)) == (200, answer(odds, _shoe(number), {}, tracks).body.encode())
        assert _children_cpu(server.process.pid) - workers < 0.05  # 150 shoes priced: some 0.15 s in the workers
        assert _own_cpu(server.process.pid) - itself > 0.015  # priced and written here: 0.1 ms or more an answer
    finally:
        assert stop(server) == 0
    assert "Traceback" not in "".join(server.log), "".join(server.log)


@on_proc
def test_a_kind_that_is_slow_in_the_workers_is_never_answered_in_the_server() -> None:
    """A request that estimates cheap but is not (lucky-draw's one bet takes some 0.2 s, each shoe): every one runs
    in a worker, where the time limit can stop it, and the server's loop stays free."""
    data = {"game": "lucky-draw", "decks": 8}
    server = start("--workers", "2")
    try:
        status, expected = server.post("/odds", data)
        assert status == 200
        itself = _own_cpu(server.process.pid)
        for _ in range(QUICK_RUNS + 3):
            assert server.post("/odds", data) == (200, expected)
        assert _own_cpu(server.process.pid) - itself < 0.15  # six answers of 0.2 s each: none of them here
    finally:
        assert stop(server) == 0
    assert "Traceback" not in "".join(server.log), "".join(server.log)


def test_an_answer_of_the_server_s_own_is_the_json_of_odds_for_a_refusal_too() -> None:
    """A refusal of a quick kind (a card the shoe has run out of) is the command's words as a 400, wherever the
    request was answered."""
    server = start("--workers", "2")
    try:
        for number in range(8):
            assert server.post("/odds", _shoe(number))[0] == 200
        refused = {"decks": 8, "remove": ",".join(["A"] * 33)}
        expected = run_job(Job(ODDS, refused, {}))[0]
        assert expected.status == 400 and server.post("/odds", refused) == (400, expected.body.encode())
    finally:
        assert stop(server) == 0


def test_httptools_asked_for_and_missing_is_one_error_line_before_the_server_starts(tmp_path) -> None:
    import subprocess
    import sys

    (tmp_path / "httptools.py").write_text('raise ImportError("not installed")\n')  # as if it were not installed
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "EXACTODDS_SERVE_HTTP": "httptools", "PYTHONPATH": os.pathsep.join((str(tmp_path), root))}
    done = subprocess.run([sys.executable, "-m", "exactodds", "serve", "--port", "0"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("Error: EXACTODDS_SERVE_HTTP=httptools, but httptools is not installed")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
