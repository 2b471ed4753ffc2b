"""Every write checked, every output path checked before the work, and Ctrl-C at start-up: one ``Error:`` line.

The standard output is tested in real processes (a file-size limit, a closed descriptor, a reader
that went away, a SIGINT while the modules load): what a process does with them is not what a test
runner's captured streams do. Output paths, link loops and the order of the checks are tested in
process, with the work replaced by a tripwire: a refusal must come before it.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow, sweep

from exactodds.cli import cli
from exactodds.errors import ExactOddsError

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="resource limits, FIFOs and signals: Linux")

ROOT = Path(__file__).resolve().parent.parent
#: Generous for a loaded 2-core machine: each command here takes well under a second alone.
TIMEOUT = 60


def exactodds(*args: str, limit: int | None = None, **options: object) -> subprocess.CompletedProcess[bytes]:
    """``python -m exactodds ARGS`` in a real process; ``limit``: the largest file it may write, in bytes."""
    if limit is not None:
        options["preexec_fn"] = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "exactodds", *args], cwd=ROOT, timeout=TIMEOUT, **options
    )


def one_error(stderr: bytes) -> str:
    """The one line of an error on stderr (asserting that it is one ``Error:`` line and no traceback)."""
    lines = stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), stderr.decode()
    return lines[0]


# ---------------------------------------------------------------------------------------------
# The standard output: every byte written, or one error line


#: Each command that writes to the standard output, cheaply, with more output than LIMIT (and its stdin).
#: Those written at once were cut short silently, with exit code 0. They all write through one stream,
#: installed by ``exactodds.__main__``: the quick run takes the odds, a listing, the tracker's steps and
#: click's help, the slow profile every command.
STDOUT_COMMANDS = {
    "odds": (["odds", "--decks", "1", "--format", "json"], None),
    "bets": (["bets"], None),
    "track": (["track", "--decks", "1", "--script", "-"], b"7\nK\n"),
    "--help": (["--help"], None),
}
MORE_STDOUT_COMMANDS = {
    "fit-rtp": (["fit-rtp", "--game", "prosperity-tree", "--decks", "1", "--multipliers", "2:1-p,3:p", "--rtp",
                 "player=98.9%", "--format", "json"], None),
    "eor": (["eor", "--decks", "1", "--format", "json"], None),
    "solve": (["solve", "--model", "A1", "--format", "json"], None),
    "edge-sort": (["edge-sort", "--decks", "1", "--cards", "1"], None),
    "peek": (["peek", "--decks", "1", "--format", "json"], None),
    "facts": (["facts"], None),
    "rules": (["rules"], None),
    "games": (["games"], None),
    "batch": (["batch"], b'{"decks": 1}\n'),
    "simulate": (
        ["simulate", "--decks", "1", "--shoes", "2", "--seed", "1", "--workers", "1", "--quiet", "--format", "json"],
        None,
    ),  # fmt: skip
    "tags": (["tags", "--decks", "1", "--bet", "tie"], None),
    "big-table": (["big-table", "--decks", "1", "--format", "json"], None),
    "design": (["design", "--decks", "1", "--bet", "dragon-7", "--edge", "5%:9%", "--max-pay", "50"], None),
    "review": (["review", "-", "--format", "json"], b'{"shoe": "a", "decks": 1}\n{"shoe": "a", "coup": 1, "player":'
               b' "K K", "banker": "9 9"}\n{"shoe": "a", "coup": 1, "who": "x", "bet": "tie", "stake": "1",'
               b' "net": "-1"}\n'),
}
if is_slow():
    STDOUT_COMMANDS |= MORE_STDOUT_COMMANDS
LIMIT = 300


def test_every_command_writing_to_stdout_is_listed():
    # their stdout is empty: a line on stderr says what they wrote (serve: where it listens, and that it stopped)
    to_files = {"report", "plot", "tables", "serve"}
    assert set(cli.all_commands()) - to_files == {*STDOUT_COMMANDS, *MORE_STDOUT_COMMANDS} - {"--help"}


@pytest.mark.parametrize("name", sweep(STDOUT_COMMANDS, 2))
def test_a_file_size_limit_is_one_error_line_not_a_short_file(tmp_path, name):
    args, stdin = STDOUT_COMMANDS[name]
    target = tmp_path / "out"
    with target.open("wb") as out:
        result = exactodds(*args, limit=LIMIT, stdout=out, input=stdin)
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert one_error(result.stderr) == "Error: cannot write the standard output: File too large"
    assert target.stat().st_size == LIMIT  # what fitted was written, and the rest was not dropped silently


def test_the_whole_output_is_written_when_it_fits(tmp_path):
    """The checked output writes every byte, in one piece (9 kB: more than Python's buffer of 4,096)."""
    target = tmp_path / "out"
    with target.open("wb") as out:
        result = exactodds("odds", "--decks", "1", "--format", "json", limit=10**6, stdout=out)
    assert result.returncode == 0 and result.stderr == b""
    data = json.loads(target.read_text(encoding="utf-8"))
    assert target.stat().st_size > 8_000 and data["shoe"]["cards"] == 52


def _closed_stdout() -> None:
    os.close(1)


@pytest.mark.parametrize("args", [["odds", "--decks", "1", "--bet", "tie"], ["rules"]], ids=["odds", "rules"])
def test_a_closed_stdout_is_one_error_line(args):
    """``exactodds odds >&-``: Python starts with no ``sys.stdout``, and click's echo wrote nothing, exit code 0."""
    result = exactodds(*args, preexec_fn=_closed_stdout)
    assert result.returncode == 2
    assert one_error(result.stderr) == "Error: cannot write the standard output: it is closed"


def test_a_closed_stdout_is_no_error_for_a_command_that_writes_nothing_there(tmp_path):
    result = exactodds("report", "--decks", "1", "--bet", "tie", "--output", str(tmp_path / "r.md"),
                       preexec_fn=_closed_stdout)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "# Math report: tie" in (tmp_path / "r.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("args", [["bets"], ["odds", "--decks", "1", "--bet", "tie"]], ids=["bets", "odds"])
def test_a_reader_that_went_away_ends_the_command_quietly_with_141(args):
    """``exactodds bets | head -1``: no message, and the status of a process killed by SIGPIPE (as ``cat``)."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte: every write meets a broken pipe
    try:
        result = exactodds(*args, stdout=write)
    finally:
        os.close(write)
    assert (result.returncode, result.stderr) == (141, b"")


# ---------------------------------------------------------------------------------------------
# Ctrl-C while the modules load


_INTERRUPT_AT = """
import signal, sys

class InterruptAt:
    '''A SIGINT delivered while the module {module!r} is being imported: start-up, before main's try.'''

    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            {deliver}
        return None

sys.meta_path.insert(0, InterruptAt())
"""
#: How the SIGINT is delivered: in plain code, or inside an ``exec`` of a string (as dataclasses run the code of
#: their methods), after which CPython took the KeyboardInterrupt for uncaught even once handled (exit by SIGINT).
DELIVER = {"signal": "signal.raise_signal(signal.SIGINT)", "in exec": 'exec("signal.raise_signal(signal.SIGINT)")'}


def _console_script() -> str:
    """The code of the ``exactodds`` console script, from the entry point pyproject.toml declares."""
    entry = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["exactodds"]
    module, _, function = entry.partition(":")
    return f"import sys\nfrom {module} import {function}\nsys.exit({function}())\n"


@pytest.mark.parametrize(
    ("how", "module", "deliver"),
    [("-m", "exactodds.puntobanco.rules", "signal"), ("-m", "click", "in exec"), ("script", "exactodds.cli", "signal")],
)
def test_ctrl_c_during_start_up_is_one_error_line_and_130(tmp_path, how, module, deliver):
    """``python -m exactodds`` (the hook as sitecustomize) and the console script, interrupted while importing."""
    hook = _INTERRUPT_AT.format(module=module, deliver=DELIVER[deliver])
    (tmp_path / "sitecustomize.py").write_text(hook, encoding="utf-8")
    args = ["-m", "exactodds"] if how == "-m" else ["-c", _console_script()]
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = subprocess.run([sys.executable, *args, "solve", "--model", "A1"], cwd=ROOT, env=env,
                            capture_output=True, timeout=TIMEOUT)  # fmt: skip
    assert result.returncode == 130, (result.returncode, result.stderr.decode())
    assert one_error(result.stderr) == "Error: interrupted" and result.stdout == b""


# ---------------------------------------------------------------------------------------------
# Output paths: one check, before the work, for every command that writes a file


def invoke(*args: str, input: str | None = None):  # noqa: A002 - click's name
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.fixture
def no_work(monkeypatch):
    """Every command's work replaced by a tripwire: a refusal must come before it."""
    import exactodds.cli.report
    import exactodds.lab.session
    import exactodds.plot.base
    import exactodds.review
    import exactodds.tables

    def tripwire(*args, **kwargs):
        raise AssertionError("the work started before the output was checked")

    monkeypatch.setattr(exactodds.cli.report, "make_report", tripwire)
    monkeypatch.setattr(exactodds.cli.report, "render_plot", tripwire)
    monkeypatch.setattr(exactodds.lab.session, "simulate", tripwire)
    monkeypatch.setattr(exactodds.tables, "generate_tables", tripwire)
    monkeypatch.setattr(exactodds.review, "review", tripwire)
    return tripwire


def _writers(target: Path) -> dict[str, list[str]]:
    return {
        "report": ["report", "--decks", "1", "--bet", "tie", "--output", str(target)],
        "plot": ["plot", "decks", "--bet", "tie", "--output", str(target)],
        "simulate": ["simulate", "--decks", "1", "--shoes", "2", "--workers", "1", "--quiet", "--output", str(target)],
        "review": ["review", str(ROOT / "examples" / "table-log.jsonl"), "--output", str(target)],
    }


WRITERS = ("report", "plot", "simulate", "review")
SUFFIX = {"report": ".md", "plot": ".svg", "simulate": ".json", "review": ".html"}


def _track_save(path: str) -> str:
    """The error of ``save PATH`` in a tracker session (None if it saved)."""
    result = invoke("track", "--decks", "1", "--script", "-", input=f"save {path}\n")
    steps = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 0 and len(steps) == 2, result.output
    return steps[1].get("error")


@pytest.mark.parametrize("writer", WRITERS)
def test_a_fifo_is_refused_not_replaced(tmp_path, no_work, writer):
    fifo = tmp_path / f"f{SUFFIX[writer]}"
    os.mkfifo(fifo)
    result = invoke(*_writers(fifo)[writer])
    assert result.exit_code == 2 and "is not a regular file" in one_error(result.stderr.encode())
    assert fifo.is_fifo()


def test_track_save_refuses_a_fifo_and_a_missing_folder(tmp_path):
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    assert "is not a regular file" in _track_save(str(fifo)) and fifo.is_fifo()
    assert (
        _track_save(f"{tmp_path}/no/such/x.json") == f"cannot write {tmp_path}/no/such/x.json: its folder"
        f" {tmp_path}/no/such does not exist"
    )
    assert _track_save(f"{tmp_path}/t.json/").endswith("a name ending in / is a folder; give a file name")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


@pytest.mark.parametrize("writer", WRITERS)
def test_a_missing_folder_is_refused_never_made(tmp_path, no_work, writer):
    target = tmp_path / "no" / "such" / f"x{SUFFIX[writer]}"
    result = invoke(*_writers(target)[writer])
    assert result.exit_code == 2
    message = f"Error: cannot write {target}: its folder {target.parent} does not exist"
    assert one_error(result.stderr.encode()) == message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("writer", WRITERS)
def test_a_name_ending_in_a_slash_is_refused(tmp_path, no_work, writer):
    """``--output t.md/`` wrote ``t.md`` (the slash was lost when the name became a path)."""
    target = f"{tmp_path}/t{SUFFIX[writer]}/"
    result = invoke(*_writers(Path("x"))[writer][:-1], target)
    assert result.exit_code == 2 and "a name ending in / is a folder" in one_error(result.stderr.encode())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("writer", WRITERS)
def test_a_name_that_is_not_utf8_is_one_error_line(tmp_path, no_work, writer):
    """``--output $'\\xff\\xfe.md'`` (a name as Python decodes it from bytes) was a UnicodeEncodeError traceback."""
    target = f"{tmp_path}/\udcff\udcfe{SUFFIX[writer]}"
    result = invoke(*_writers(Path("x"))[writer][:-1], target)
    assert result.exit_code == 2
    assert one_error(result.stderr.encode()).endswith(f"\\xff\\xfe{SUFFIX[writer]}: the name is not UTF-8 text;"
                                                      " give a name in UTF-8")  # fmt: skip


def test_a_report_records_an_input_file_whose_name_is_not_utf8(tmp_path):
    """The report's command line quotes the name as bash's $'\\xff…' instead of failing to encode it."""
    bets = tmp_path / "\udcffmine.toml"
    bets.write_bytes((ROOT / "examples" / "dragon-7.toml").read_bytes())
    target = tmp_path / "r.md"
    result = invoke("report", "--decks", "1", "--bets-file", str(bets), "--output", str(target))
    assert result.exit_code == 0, result.output
    assert "--bets-file $'" in target.read_text(encoding="utf-8") and "\\xffmine.toml'" in target.read_text()


def _killed_writer(target: Path) -> None:
    """A process killed (SIGKILL) inside write_atomic, its temporary file written and not yet renamed."""
    code = (
        "import os, signal, sys\n"
        "from exactodds import files\n"
        "files.os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)\n"
        "files.write_atomic(sys.argv[1], b'half a report')\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(target)], cwd=ROOT, timeout=TIMEOUT)
    assert result.returncode == -signal.SIGKILL


def _host_and_pid(temp: Path) -> tuple[str, int]:
    """The host and process id in the name of a temporary file: ``.NAME.HOST-PID.XXXXXXXX.tmp``."""
    host, _, pid = temp.name.removesuffix(".tmp").rsplit(".", 2)[1].rpartition("-")
    return host, int(pid)


def test_the_temporary_files_of_killed_writers_are_removed_and_no_live_writers(tmp_path):
    target = tmp_path / "k.md"
    _killed_writer(target)
    (stale,) = tmp_path.iterdir()
    assert stale.name.startswith(".k.md.") and stale.name.endswith(".tmp")
    host, pid = _host_and_pid(stale)
    live = tmp_path / f".k.md.{host}-{os.getpid()}.abcd1234.tmp"  # this process: alive
    other_host = tmp_path / f".k.md.elsewhere-{pid}.abcd1234.tmp"  # a writer on another host sharing the folder
    other_file = tmp_path / f".z.md.{host}-{pid}.abcd1234.tmp"  # a killed writer of another file
    for path in (live, other_host, other_file):
        path.write_text("in progress")
    result = invoke("report", "--decks", "1", "--bet", "tie", "--output", str(target))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["k.md", live.name, other_host.name, other_file.name])


def test_the_tables_writer_removes_only_stale_temporary_files(tmp_path):
    from exactodds.tables import INDEX_TITLE, write_tables

    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "README.md").write_text(f"{INDEX_TITLE}\n", encoding="utf-8")
    _killed_writer(folder / "a.md")
    (stale,) = (p for p in folder.iterdir() if p.name != "README.md")
    live = folder / f".b.md.{_host_and_pid(stale)[0]}-{os.getpid()}.abcd1234.tmp"
    live.write_text("in progress")
    write_tables(folder, {"README.md": f"{INDEX_TITLE}\n".encode()})
    assert sorted(p.name for p in folder.iterdir()) == sorted(["README.md", live.name])


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "--decks", "1", "--bets-file", "{loop}"],
        ["odds", "--decks", "1", "--rules-file", "{loop}"],
        ["batch", "--input", "{loop}"],
        ["track", "--decks", "1", "--script", "{loop}"],
        ["report", "--decks", "1", "--output", "{loop}"],
        ["report", "--decks", "1", "--output", "{loop}/r.md"],
        ["plot", "decks", "--output", "{loop}"],
        ["simulate", "--shoes", "2", "--output", "{loop}"],
        ["tables", "--output", "{loop}"],
        ["review", "-", "--output", "{loop}"],
    ],
    ids=lambda args: " ".join(args[:1] + [a for a in args if a.startswith("--") and a != "--decks"]),
)
def test_a_symlink_loop_is_one_error_line(tmp_path, no_work, args):
    """``--bets-file`` given a link loop was ``RuntimeError: Symlink loop`` (Path.resolve), exit code 1."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    result = invoke(*(a.format(loop=tmp_path / "a") for a in args), input="")
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Too many levels of symbolic links" in one_error(result.stderr.encode())


# ---------------------------------------------------------------------------------------------
# Limits before the work: arguments and the output's folder checked before libraries and work


@pytest.fixture
def no_libraries(monkeypatch):
    """The report's libraries (matplotlib, reportlab, openpyxl): importing them is the first of the work."""
    import exactodds.cli.report
    import exactodds.plot.lab_plots

    def tripwire(module):
        raise AssertionError(f"{module} was imported before the arguments were checked")

    monkeypatch.setattr(exactodds.cli.report, "require", tripwire)
    monkeypatch.setattr(exactodds.plot.lab_plots, "require", tripwire, raising=False)


def test_report_to_an_unwritable_place_is_refused_before_the_libraries_load(tmp_path, no_work, no_libraries):
    result = invoke("report", "--output", "/proc/x.pdf")
    assert result.exit_code == 2 and one_error(result.stderr.encode()).startswith("Error: cannot write /proc/x.pdf:")


def test_review_to_an_unwritable_place_or_an_unknown_format_is_refused_before_the_libraries_load(
        tmp_path, no_work, monkeypatch):
    import exactodds.report.review

    def tripwire(module):
        raise AssertionError(f"{module} was imported before the output was checked")

    monkeypatch.setattr(exactodds.report.review, "require", tripwire)
    result = invoke("review", "-", "--output", "/proc/x.pdf", input="")
    assert result.exit_code == 2 and one_error(result.stderr.encode()).startswith("Error: cannot write /proc/x.pdf:")
    result = invoke("review", "-", "--output", str(tmp_path / "v.xlsx"), input="")
    assert result.exit_code == 2 and one_error(result.stderr.encode()).endswith("use .pdf, .html or .md")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("param", "message"),
    [
        ("tags=zz", "malformed tags"),
        ("thresholds=a:b", "malformed scan"),
        ("cut-card=999999", "deeper than the shoe"),
        ("colour=red", "unknown plot option"),
    ],
)
def test_plot_options_are_checked_before_matplotlib_loads(tmp_path, no_libraries, param, message):
    result = invoke("plot", "threshold", "--param", param, "--output", str(tmp_path / "t.png"))
    assert result.exit_code == 2 and message in one_error(result.stderr.encode())
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_tables_folder_is_refused_before_the_tables_are_computed(no_work):
    """A read-only place (a new folder under /proc, where even root makes no file) took 54 s of tables first."""
    result = invoke("tables", "--output", "/proc/exactodds-tables")
    assert result.exit_code == 2
    assert one_error(result.stderr.encode()).startswith("Error: cannot write /proc/exactodds-tables:")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_tables_subfolder_is_refused_before_the_work(tmp_path, no_work):
    from exactodds.tables import INDEX_TITLE

    folder = tmp_path / "tables"
    (folder / "par").mkdir(parents=True)
    (folder / "README.md").write_text(f"{INDEX_TITLE}\n", encoding="utf-8")
    (folder / "par").chmod(0o500)
    try:
        result = invoke("tables", "--output", str(folder))
    finally:
        (folder / "par").chmod(0o700)
    assert result.exit_code == 2 and "Permission denied" in one_error(result.stderr.encode())


# ---------------------------------------------------------------------------------------------
# The checks themselves


def test_check_output_refuses_what_cannot_be_an_output_file(tmp_path):
    from exactodds.files import check_output

    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "file").write_text("x")
    cases = {
        "": "give a file name",
        "a\x00b": "cannot hold a NUL character",
        str(tmp_path): "it is a folder",
        str(tmp_path / "dangling"): "a symbolic link to nothing",
        str(tmp_path / "file" / "x.md"): "Not a directory",
        "/dev/null": "is not a regular file",
    }
    for name, message in cases.items():
        with pytest.raises(ExactOddsError, match=message):
            check_output(name)
    with pytest.raises(ExactOddsError, match="it is not a folder"):
        check_output(tmp_path / "file", folder=True)
    assert check_output(tmp_path / "file") == tmp_path / "file"  # a regular file is replaced
    assert check_output(tmp_path / "new", folder=True) == tmp_path / "new" and not (tmp_path / "new").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling", "file"]  # the probes left nothing


def test_write_atomic_makes_no_folder_unless_asked(tmp_path):
    from exactodds.files import write_atomic

    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "no" / "x", b"x")
    assert list(tmp_path.iterdir()) == []
