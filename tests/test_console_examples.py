"""Every console example of the README and the docs runs, and prints what its page shows.

A console example is a fenced block of ``README.md`` or ``docs/*.md`` with lines ``$ command``
where a command runs ``exactodds``. A command goes on while its line ends with ``\\``; the lines
after it, up to the next ``$`` line or the end of the block, are its output. Each block runs in a
fresh temporary folder holding a copy of ``examples/``, so a command reads the shipped files by
the path the page gives and writes its files there; the commands of a block run in order, in one
shell when they need one (a variable exported, a file written by one and read by the next).

How a command runs, whichever is correct and cheaper:

- in this process (click's test runner): ``exactodds ARGS`` alone, or in a pipe whose other
  commands (``printf``, ``head``, ``sed``, ``jq``, …) do not run ``exactodds`` and run in ``bash``
  with the text it reads or writes (the Python start-up, some 0.2 s of CPU, is what costs);
- in ``bash`` (``python -m exactodds`` of this tree is the ``exactodds`` on its ``PATH``, umask
  022, a UTF-8 locale): any other line (a redirection, a subshell, ``export``, ``ls``, …);
- on a terminal (``pexpect``, ``TERM=dumb``, its control sequences and carriage returns removed):
  ``exactodds track`` when the page shows its prompt; the words typed after each ``track>`` are
  sent when the prompt appears.

The output compared is what the command writes to stdout, then what it writes to stderr (what a
terminal shows when the error comes last, as it does on every page). Every line must match the
page's, trailing spaces aside, except that:

- a page line ``…`` alone (indented or not) stands for any number of lines, none included;
- both sides are normalised by :data:`VARYING`, the things that legitimately differ from run to
  run or release to release: durations (``0.23 s``, ``6.7 s``, ``1.013 ms``) and rates
  (``6,112 shoes/s``), and the key in a cache file's name (it covers the package version).

An example costing more than some 0.25 s of CPU, or some 0.2 s for a walk that an example of the quick
run takes already, runs only under the slow profile (``EXACTODDS_TESTS=slow``): :data:`SLOW` lists
them, with their measured cost. :data:`NOT_RUN`
lists the two that no test runs, with why.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")))

#: A page line that stands for any number of output lines.
SKIP = "…"

#: What legitimately varies between runs or releases: (pattern, what it becomes), on both sides.
VARYING = (
    (re.compile(r"\b\d[\d,]*(?:\.\d+)? (?:s|ms|min)\b"), "<time>"),
    (re.compile(r"\b\d[\d,]*(?:\.\d+)? shoes/s\b"), "<rate>"),
    (re.compile(r"\b(compiled|flat)-[0-9a-f]{20}\b"), r"\1-<key>"),
)

#: Examples costing more than some 0.25 s of CPU (measured), run only under the slow profile; each
#: is named by its page and a pattern found in its commands (re.search, multi-line).
SLOW = {
    "docs/lit.md: --game prosperity-tree --bet player": "1.3 s: the tableau's walk of coup shapes (once a process)"
    " and an 8-deck shoe's patterns",
    "docs/lit.md: --multipliers \"2:50%": "0.3 s: an 8-deck shoe's patterns, the laws of pays",
    "docs/lit.md: --rtp tie=92.8%$": "0.5 s: four RTPs as polynomials (and the shoe's patterns)",
    "docs/lit.md: --grid 5": "3.4 s: four RTPs as polynomials on each of 6 lines",
    "docs/lit.md: --rtp tie=93.4%": "0.4 s: two RTPs as polynomials (and the shoe's patterns)",
    "docs/lit.md: P1 in side-3 and B1 in court": "0.3 s: a conditional walk of the coups",
    "docs/lit.md: --bet tie --format json": "1.3 s: the tableau's walk of coup shapes (once a process)",
    "docs/lit.md: --laws-file examples/lightning-laws.toml": "0.3 s: an 8-deck shoe's patterns, the laws of pays",
    "docs/lit.md: --reveal \"P1B1:1/2,P1P2B2:1/2\"": "1.5 s: the first four values' outcomes, every pattern",
    "docs/lit.md: --rtp banker=98.8%": "0.8 s: the first four values' outcomes, two patterns",
    "docs/design.md: --output dragon-panda.pdf": "1.5 s: a PDF report",
    "docs/exactness.md: export EXACTODDS_CACHE": "1.8 s: a shell; builds a compiled and a flat table, twice",
    "docs/games.md: solve --model B3": "0.3-0.5 s: the finite-shoe game",
    "docs/games.md: odds --rules big-table --bet player": "0.2 s: the big table's walk (as games.md's big-table)",
    "docs/games.md: --precision 6 --bets-file examples/dragon-7.toml": "0.2 s: the big table's walk, again",
    "docs/rules.md: big-table --rules baccarat-gold": "0.2 s: the big table's walk, again",
    "docs/three-card-baccarat.md: --bet dealer-total-0": "0.3 s: 82,000 pairs of kinds of hands",
    "docs/getting-started.md: simulate --rules super-6": "5 s: 10,000 shoes",
    "docs/getting-started.md: ulimit -f 1": "0.8 s: a shell, two processes",
    "docs/json.md: > out.jsonl": "0.8 s: a shell, two processes",
    "docs/json.md: <&-": "1.2 s: a shell, three processes",
    "docs/lab.md: simulate --rules ez --shoes 20000 --seed 1$": "32 s: 60,000 shoes",
    "docs/lab.md: --strategy perfect --strategy always": "2.5 s: 2,000 shoes",
    "docs/lab.md: --format json --ror 1%": "2.5 s: 2,000 shoes",
    "docs/lab.md: --scan-threshold 0:10:1": "10 s: 20,000 shoes",
    "docs/lab.md: plot shoe-ev": "3 s: two plots, 5,200 shoes",
    "docs/report.md: --output report.pdf": "2.4 s: a PDF and an XLSX report",
    "docs/report.md: --output report.md": "2.9 s: a report with 2,000 shoes of the lab",
    "docs/report.md: plot eor --bet dragon-7": "1.3 s: three plots",
    "docs/tracker.md: ^exactodds track --decks 1$": "1.2 s: a process on a terminal",
    "docs/design.md: --write deluxe.toml > /dev/null": "0.8 s: a shell; a design searched and written back",
    "docs/games.md: big-table --decks 8 --precision 6 \\| head -24": "0.5 s: the big table's walk at 8 decks",
    "docs/report.md: --output dragon-tiger.md": "0.5 s: a shell; a report",
    "docs/rebates.md: --shoes 100 --seed 1 --rebate 1%": "0.35 s: 200 shoes of the lab",
    "docs/three-card-baccarat.md: --commission 3% --bet banker": "0.3 s: three card baccarat's deal priced",
    "docs/getting-started.md: --given \"P1 in 6789\" --bet player --bet banker": "0.25 s: a walk under a given event",
    "docs/review.md: --output verdict.pdf": "2 s: a PDF review with its plot (reportlab, matplotlib)",
    "docs/report.md: --output filing.pdf": "6 s: a seven-page PDF with its laws of the hold",
    "docs/review.md: table-log.jsonl --rebate 1%": "1 s: the example's review again, with a rebate",
}

#: Examples not run, with why (named as in :data:`SLOW`); each is checked by hand when its page changes.
NOT_RUN = {
    "docs/lab.md: --shoes 100000 ": (
        "its figures depend on the moment of the Ctrl-C (tests/test_simulation_signals.py checks the stop and its "
        "line, tests/test_simulation_resume.py the resume)"
    ),
    "docs/lab.md: --shoes 1000000 ": (
        "a million shoes, some 5 minutes of CPU (the 20,000-shoe examples run the same code)"
    ),
}


@dataclass(frozen=True)
class Step:
    """One command of an example: as typed (its continuation lines included) and the output the page shows."""

    line: int
    command: str
    expected: tuple[str, ...]


@dataclass(frozen=True)
class Example:
    """A fenced block of console commands on a page."""

    page: str
    steps: tuple[Step, ...]

    @property
    def name(self) -> str:
        """``page:line`` of the first command, as a test id and in the lists above."""
        return f"{self.page}:{self.steps[0].line}"


def console_examples(page: str) -> Iterator[Example]:
    """The console examples of ``page``, in order."""
    lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
    number = 0
    while number < len(lines):
        fence = re.match(r"\s*(```+|~~~+)", lines[number])
        number += 1
        if not fence:
            continue
        start = number
        while number < len(lines) and not lines[number].strip().startswith(fence.group(1)):
            number += 1
        steps = list(_steps(lines[start:number], start + 1))
        number += 1
        if any(_runs_exactodds(step.command) for step in steps):
            yield Example(page, tuple(steps))


def _steps(body: list[str], first: int) -> Iterator[Step]:
    """The commands of a block and their outputs (``first``: the page's line number of ``body[0]``)."""
    index = 0
    while index < len(body):
        if not body[index].startswith("$ "):
            index += 1
            continue
        line, command = first + index, [body[index][2:]]
        while command[-1].endswith("\\") and index + 1 < len(body):
            index += 1
            command.append(body[index])
        index += 1
        end = index
        while end < len(body) and not body[end].startswith("$ "):
            end += 1
        yield Step(line, "\n".join(command), tuple(body[index:end]))
        index = end


def _runs_exactodds(command: str) -> bool:
    """Whether ``command`` runs ``exactodds`` (alone, in a pipe, a subshell or a list)."""
    return re.search(r"(?:^|[\s(;|&])exactodds(?:$|[\s);|&])", command) is not None


def _words(segment: str) -> list[str]:
    """The words of one command as the shell splits them (a ``#`` comment dropped); none if it cannot be split."""
    try:
        return shlex.split(segment, comments=True)
    except ValueError:
        return []


def _pipeline(command: str) -> list[str]:
    """The commands of a shell pipeline (split at each ``|`` outside quotes; a ``#`` comment dropped)."""
    segments, current, quote, index = [], "", "", 0
    while index < len(command):
        char = command[index]
        if quote:
            current += char
            if char == "\\" and quote == '"':
                index += 1
                current += command[index : index + 1]
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote, current = char, current + char
        elif char == "\\":
            current += command[index : index + 2]
            index += 1
        elif char == "#" and (not current or current[-1].isspace()):
            break
        elif char == "|" and command[index + 1 : index + 2] != "|" and not current.endswith("|"):
            segments.append(current)
            current = ""
        else:
            current += char
        index += 1
    segments.append(current)
    return [s.replace("\\\n", " ").strip() for s in segments]


def _in_process(step: Step) -> bool:
    """Whether ``step`` is ``exactodds ARGS`` alone, maybe in a pipe of other programs: no shell needed for it."""
    segments = _pipeline(step.command)
    ours = [s for s in segments if _words(s)[:1] == ["exactodds"]]
    if len(ours) != 1 or any("exactodds" in s for s in segments if s is not ours[0]):
        return False
    lexer = shlex.shlex(ours[0], posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return not any(set(token) <= set("();<>&|") for token in lexer)


def _terminal(step: Step) -> bool:
    """Whether ``step`` is an interactive session: ``exactodds track`` alone with its prompts on the page."""
    return _words(step.command)[:2] == ["exactodds", "track"] and "|" not in step.command and any(
        line.startswith("track> ") for line in step.expected
    )


EXAMPLES = [example for page in PAGES for example in console_examples(page)]


# Running ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Workspace:
    """Where an example runs: its folder (a copy of ``examples/`` in it) and the environment of its programs."""

    folder: Path
    env: dict[str, str]


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """A fresh folder, the current one during the test; this tree's ``exactodds`` and ``python`` first on the PATH."""
    folder, bin_dir = tmp_path / "work", tmp_path / "bin"
    shutil.copytree(ROOT / "examples", folder / "examples")
    bin_dir.mkdir()
    (bin_dir / "exactodds").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m exactodds "$@"\n')
    (bin_dir / "exactodds").chmod(0o755)
    (bin_dir / "python").symlink_to(sys.executable)
    monkeypatch.chdir(folder)
    path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    return Workspace(folder, dict(os.environ, PATH=path, PYTHONPATH=str(ROOT), LC_ALL="C.UTF-8"))


def _bash(script: str, where: Workspace, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """Run ``script`` in ``bash`` in the example's folder and environment, ``stdin`` as its input."""
    return subprocess.run(["bash", "-c", script], cwd=where.folder, input=stdin, capture_output=True, env=where.env,
                          timeout=600)


def _run_in_process(step: Step, where: Workspace) -> str:
    """Run ``step`` with the CLI in this process, the programs around it in ``bash``; stdout then stderr."""
    from exactodds.cli import cli

    segments = _pipeline(step.command)
    at = next(i for i, s in enumerate(segments) if _words(s)[:1] == ["exactodds"])
    before, after = " | ".join(segments[:at]), " | ".join(segments[at + 1 :])
    errors = b""
    stdin: bytes | None = None
    if before:
        made = _bash(before, where)
        stdin, errors = made.stdout, made.stderr
    result = CliRunner().invoke(cli, _words(segments[at])[1:], input=stdin, prog_name="exactodds")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    out, errors = result.stdout_bytes, errors + result.stderr_bytes
    if after:
        made = _bash(after, where, out)
        out, errors = made.stdout, errors + made.stderr
    return (out + errors).decode("utf-8")


def _run_in_shell(steps: tuple[Step, ...], where: Workspace) -> list[str]:
    """Run the commands in order in one ``bash``; what each wrote to stdout, then stderr."""
    outputs = where.folder.parent / "outputs"
    outputs.mkdir()
    script = ["umask 022"]
    for number, step in enumerate(steps):
        script.append(f"{{ {step.command}\n}} >{outputs}/{number}.out 2>{outputs}/{number}.err </dev/null")
    done = _bash("\n".join(script), where)
    assert not done.stderr, done.stderr.decode("utf-8", "replace")
    return [(outputs / f"{n}.out").read_text("utf-8") + (outputs / f"{n}.err").read_text("utf-8")
            for n in range(len(steps))]


def _run_on_terminal(step: Step, where: Workspace) -> str:
    """Run an interactive ``track`` on a terminal, typing the page's words after each prompt."""
    pexpect = pytest.importorskip("pexpect")
    # No cursor-position replies from pexpect's pty, and no redrawing: a dumb terminal's plain output.
    env = dict(where.env, PROMPT_TOOLKIT_NO_CPR="1", TERM="dumb")
    words = _words(step.command)
    child = pexpect.spawn(sys.executable, ["-m", *words], cwd=str(where.folder), env=env, encoding="utf-8",
                          timeout=60, dimensions=(50, 200))
    shown = []
    try:
        for line in step.expected:
            if line.startswith("track> "):
                child.expect_exact("track> ")
                shown.append(child.before + child.after)
                child.sendline(line.removeprefix("track> "))
        child.expect(pexpect.EOF)
        shown.append(child.before)
    finally:
        child.close()
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", "".join(shown))


def run(example: Example, where: Workspace) -> list[str]:
    """What each command of ``example`` shows, run the cheapest correct way."""
    if all(_in_process(step) and not _terminal(step) for step in example.steps):
        return [_run_in_process(step, where) for step in example.steps]
    if len(example.steps) == 1 and _terminal(example.steps[0]):
        return [_run_on_terminal(example.steps[0], where)]
    return _run_in_shell(example.steps, where)


# Comparing ----------------------------------------------------------------------------------


def _normal(line: str) -> str:
    """``line`` without its trailing spaces, what varies (:data:`VARYING`) replaced."""
    line = line.rstrip()
    for pattern, replacement in VARYING:
        line = pattern.sub(replacement, line)
    return line


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` line for line, a line ``…`` of ``expected`` standing for any lines.

    >>> matches(["a", "…", "d"], ["a", "b", "c", "d"]), matches(["a", "…"], ["a"]), matches(["a"], ["b"])
    (True, True, False)
    """
    # reach[j]: the first i lines of expected can match the first j lines of actual.
    reach = [True] + [False] * len(actual)
    for line in expected:
        if line.strip() == SKIP:
            for j in range(1, len(reach)):
                reach[j] = reach[j] or reach[j - 1]
        else:
            reach = [False] + [reach[j] and line == actual[j] for j in range(len(actual))]
    return reach[-1]


def _check(example: Example, step: Step, output: str) -> str | None:
    """A report of how ``output`` differs from what the page shows for ``step``, or ``None``."""
    import difflib

    expected = [_normal(line) for line in step.expected]
    actual = [_normal(line) for line in output.splitlines()]
    while expected and not expected[-1]:  # a blank line before a closing fence is layout
        expected.pop()
    if matches(expected, actual):
        return None
    diff = difflib.unified_diff(list(step.expected), output.splitlines(), "page", "run", lineterm="")
    return f"{example.page}:{step.line}: $ {step.command}\n" + "\n".join(diff)


# The tests ----------------------------------------------------------------------------------


def named(key: str) -> list[Example]:
    """The examples a key of :data:`SLOW` or :data:`NOT_RUN` names: ``page: pattern`` found in its commands."""
    page, _, pattern = key.partition(": ")
    return [e for e in EXAMPLES if e.page == page and re.search(pattern, "\n".join(s.command for s in e.steps), re.M)]


def _marks(example: Example) -> list[pytest.MarkDecorator]:
    """A skip for an example not run, or costly outside the slow profile."""
    for key, why in NOT_RUN.items():
        if example in named(key):
            return [pytest.mark.skip(reason=why)]
    if not is_slow() and any(example in named(key) for key in SLOW):
        return [pytest.mark.skip(reason="costs more than 0.25 s of CPU: slow profile (EXACTODDS_TESTS=slow)")]
    return []


@pytest.mark.parametrize(
    "example", [pytest.param(e, id=e.name, marks=_marks(e)) for e in EXAMPLES]
)
def test_console_example(example: Example, workspace: Workspace) -> None:
    if any(re.search(r"\bjq\b", step.command) for step in example.steps) and shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    outputs = run(example, workspace)
    failures = [f for step, out in zip(example.steps, outputs) if (f := _check(example, step, out))]
    assert not failures, "\n\n".join(failures)


def test_every_console_line_is_an_example() -> None:
    # A `$ exactodds` line outside a fenced block, or in one the parser misses, would go unchecked.
    found = {(e.page, s.line) for e in EXAMPLES for s in e.steps}
    for page in PAGES:
        for number, line in enumerate((ROOT / page).read_text(encoding="utf-8").split("\n"), 1):
            if line.lstrip().startswith("$ ") and "exactodds" in line:
                assert (page, number) in found, f"{page}:{number} is not collected as a console example"


def test_each_slow_or_skipped_example_is_named_once() -> None:
    for key in [*SLOW, *NOT_RUN]:
        assert len(named(key)) == 1, f"{key!r} names {len(named(key))} console examples, not 1"


def _within(shown: object, shipped: object) -> bool:
    """Whether the TOML data ``shown`` is part of ``shipped``: its keys with the same values, lists item by item."""
    if isinstance(shown, dict):
        return isinstance(shipped, dict) and all(k in shipped and _within(v, shipped[k]) for k, v in shown.items())
    if isinstance(shown, list):
        return isinstance(shipped, list) and len(shown) == len(shipped) and all(map(_within, shown, shipped))
    return shown == shipped


def test_a_file_shown_on_a_page_is_the_file_shipped() -> None:
    # A TOML block whose paragraph names one file of examples/ shows that file (all of it, or some of its
    # tables): the page and the file the commands read cannot drift apart.
    import tomllib

    checked = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for block in re.finditer(r"```toml\n(.*?)```", text, re.S):
            before = text[: block.start()].rsplit("```", 1)[-1]
            names = set(re.findall(r"`examples/([\w-]+\.toml)`", before))
            if len(names) != 1:
                continue
            (name,) = names
            shipped = tomllib.loads((ROOT / "examples" / name).read_text(encoding="utf-8"))
            assert _within(tomllib.loads(block.group(1)), shipped), f"{page}: the TOML shown is not examples/{name}"
            checked.append(name)
    assert len(checked) >= 7, checked
