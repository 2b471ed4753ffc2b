"""The tracker's limits on what it reads: `load` takes a regular file only, a script's lines and a script file's size
are capped, closed streams and Ctrl-C are one error line; each checked at once, in bounded time and memory."""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.tracker import MAX_FILE, MAX_LINE, Tracker

ROOT = Path(__file__).resolve().parent.parent
TRACK = [sys.executable, "-m", "exactodds", "track", "--decks", "1", "--bet", "tie"]


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


def run(args: list[str], stdin: bytes | None = None, *, shell: str | None = None) -> subprocess.CompletedProcess:
    """``track`` in a child with 1 GiB of address space and 10 s to answer (``shell``: through ``sh -c``)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    command = ["sh", "-c", shell] if shell else [*TRACK, *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=10, cwd=ROOT, preexec_fn=limit,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))


def one_error_line(code: int, stderr: str | bytes, expected: int = 2) -> str:
    """The one ``Error:`` line of a run that ended with ``expected``."""
    text = stderr if isinstance(stderr, str) else stderr.decode()
    assert code == expected, text
    assert text.startswith("Error: ") and text.count("\n") == 1, text
    return text


def test_load_refuses_a_fifo_at_once(tmp_path):
    fifo = tmp_path / "session.json"
    os.mkfifo(fifo)
    tracker = Tracker(Shoe.standard(1), bets=["tie"])
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(5)  # opening a FIFO with no writer blocks for ever: a hang fails the test, not the suite
    try:
        step = tracker.step(f"load {fifo}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert step.error == f"cannot load {fifo}: it is a pipe, not a regular file"
    assert tracker.step("7").state.shoe.size == 51  # the session goes on


def test_a_script_of_zeros_stops_at_its_first_line():
    # /dev/zero is a stream of one endless line: read up to the cap, refused, never buffered (1 GiB would not hold it).
    result = run(["--script", "/dev/zero"])
    stderr = one_error_line(result.returncode, result.stderr)
    assert stderr.startswith(f"Error: line 1 of /dev/zero is longer than {MAX_LINE:,} bytes (it starts '\\x00")
    assert len(stderr) < 200
    assert [json.loads(line)["command"] for line in result.stdout.splitlines()] == ["start"]


def test_a_long_line_stops_the_script_and_is_quoted_by_a_short_prefix():
    result = CliRunner().invoke(cli, ["track", "--decks", "1", "--bet", "tie", "--script", "-"],
                                input="7\n" + "8" * 5_000_000 + "\n9\n")
    stderr = one_error_line(result.exit_code, result.stderr)
    assert stderr == (f"Error: line 2 of the standard input is longer than {MAX_LINE:,} bytes (it starts '{'8' * 20}'):"
                      " a script holds commands, one a line\n")
    assert [json.loads(line)["command"] for line in result.stdout.splitlines()] == ["start", "7"]
    assert len(result.stdout) < 3_000


def test_the_longest_line_is_read_and_a_bad_command_quoted_short():
    from exactodds.present.tracker import MAX_ECHO

    # A line of exactly MAX_LINE bytes (and its "\r\n") is a line: a bad one is an error object quoting its start.
    lines = ["7" * MAX_LINE + "\r", "8 " * (MAX_LINE // 2 - 1) + "x", "load " + "y" * 5000, "7"]
    result = CliRunner().invoke(cli, ["track", "--decks", "8", "--bet", "tie", "--script", "-"],
                                input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [sorted(r) for r in rows[1:4]] == [["command", "error"]] * 3
    for line, row in zip(lines, rows[1:4]):
        assert row["command"] == line.strip()[:MAX_ECHO] + "…"
        assert len(json.dumps(row)) < 400, row  # the error says what is wrong without copying the line
    assert rows[4]["left"]["cards"] == 415


def test_a_script_file_larger_than_the_cap_is_refused_before_the_work(tmp_path):
    path = tmp_path / "script.txt"
    path.write_bytes(b"# a comment\n" * (MAX_FILE // 12 + 1))
    result = CliRunner().invoke(cli, ["track", "--decks", "1", "--script", str(path)])
    stderr = one_error_line(result.exit_code, result.stderr)
    assert stderr == f"Error: cannot read {path}: larger than {MAX_FILE:,} bytes, the most a script file may be\n"
    assert result.stdout == ""


def test_a_regular_file_that_reads_longer_than_its_size_is_capped_too():
    # A file that grows while it is read, or one of /proc's that says it is empty, is counted as it is read.
    from exactodds.files import _bounded_lines

    stream = io.BytesIO((b"#" * (MAX_LINE - 1) + b"\n") * (MAX_FILE // MAX_LINE + 1))
    with pytest.raises(ExactOddsError, match="larger than 8,388,608 bytes, the most a script file may be"):
        for _ in _bounded_lines(stream, "grown.txt", MAX_LINE, MAX_FILE, "a script file", ""):
            pass
    stream.seek(0)
    assert sum(1 for _ in _bounded_lines(stream, "a pipe", MAX_LINE, None, "a script file", "")) == \
        MAX_FILE // MAX_LINE + 1


def test_a_closed_stdin_or_stdout_is_one_error_line():
    # `<&-` and `>&-` leave sys.stdin or sys.stdout None: one Error line at once, never an AttributeError.
    track = " ".join(TRACK)
    for shell in (f"exec {track} <&-", f"exec {track} --script /dev/null >&-"):
        result = run([], shell=shell)
        assert b"Traceback" not in result.stderr and b"AttributeError" not in result.stderr, (shell, result.stderr)
        one_error_line(result.returncode, result.stderr)
        assert result.stdout == b""


def test_ctrl_c_while_a_script_is_read_from_a_pipe_is_interrupted():
    # The pipe stays open: the tracker waits for the next command when SIGINT comes.
    child = subprocess.Popen([*TRACK, "--script", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        child.stdin.write(b"7\n")
        child.stdin.flush()
        assert json.loads(child.stdout.readline())["command"] == "start"
        assert json.loads(child.stdout.readline())["command"] == "7"
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=10) == 130
        assert child.stderr.read() == b"Error: interrupted\n"
    finally:
        child.kill()
        child.communicate()


def test_a_long_session_costs_the_same_memory_per_step():
    # Each state holds its own step only (the log and the coups are walked back): a state per card of a 1,000-deck
    # shoe stays some hundreds of bytes, where a copied log made each state hold all the steps before it.
    import tracemalloc
    from itertools import cycle

    from exactodds.cards import RANKS
    from exactodds.puntobanco.rules import PUNTO_BANCO
    from exactodds.tracker import Cards, TrackState

    steps, ranks = 2000, cycle(RANKS)
    state = TrackState.fresh(Shoe((4000,) * 13))
    tracemalloc.start()
    try:
        for _ in range(steps):
            state = state.apply(Cards((next(ranks),)), PUNTO_BANCO)
        size, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert size < steps * 2000, f"{size / steps:,.0f} bytes a step"
    assert len(state.log) == steps and sum(state.wins().values()) == len(state.coups) == sum(state.tally)


def test_a_long_session_of_every_game_that_follows_coups_costs_the_same_memory_per_step():
    # The same bound in every game whose coups the tracker follows: a state holds its step, its coups, its tally.
    import tracemalloc
    from itertools import cycle

    from exactodds.cards import RANKS
    from exactodds.games import with_capability
    from exactodds.tracker import Cards, TrackState

    steps = 1000
    for game in with_capability("coups"):
        ranks = cycle(RANKS)
        state = TrackState.fresh(Shoe((2000,) * 13), game)
        tracemalloc.start()
        try:
            for _ in range(steps):
                state = state.apply(Cards((next(ranks),)))
            size, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert size < steps * 2000, f"{game.name}: {size / steps:,.0f} bytes a step"
        assert len(state.log) == steps and len(state.coups) == sum(state.tally) >= steps // 6, game.name


def test_a_game_s_shoe_is_not_dealt_below_six_cards_and_its_script_lines_are_capped():
    # The bounds are the tracker's, whatever the game: a shoe of six cards at least, a line of MAX_LINE bytes.
    result = CliRunner().invoke(cli, ["track", "--game", "dragon-tiger", "--shoe", "A=4,K=4", "--bet", "tie",
                                      "--script", "-"], input="A K\nA\n" + "7" * (MAX_LINE + 1) + "\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[1]["running"]["wins"] == {"dragon": 0, "tiger": 1, "tie": 0}
    assert "fewer than a coup needs" in rows[2]["error"]
    stderr = one_error_line(result.exit_code, result.stderr)
    assert stderr.startswith(f"Error: line 3 of the standard input is longer than {MAX_LINE:,} bytes")
