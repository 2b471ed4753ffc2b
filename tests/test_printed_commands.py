"""Every command the program prints beside a figure reproduces that figure: the report's "Alone:" plot commands and
the ``tags`` table's "Try:" line are run here, with the game, shoe, rules and bets files the first command was given.
"""

from __future__ import annotations

import base64
import html
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import slow, sweep

from exactodds.cli import cli

ROOT = Path(__file__).resolve().parent.parent
BETS_FILE = str(ROOT / "examples" / "dragon-panda.toml")


def run(args: list[str]) -> str:
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, (args, out.output)
    return out.stdout


@pytest.mark.parametrize("setup", sweep([
    ["--bets-file", BETS_FILE, "--bet", "dragon-panda", "--decks", "6", "--rules", "ez"],
    ["--decks", "2", "--remove", "7,7,8,K", "--bet", "dragon-7", "--commission", "4%"],
]))
@slow
def test_each_plot_command_the_report_prints_draws_the_plot_beside_it(setup, tmp_path, monkeypatch) -> None:
    pytest.importorskip("matplotlib")
    report = tmp_path / "report.html"
    run(["report", *setup, "--output", str(report)])
    text = report.read_text(encoding="utf-8")
    figures = re.findall(r'<img src="data:image/svg\+xml;base64,([^"]+)"[^>]*><figcaption>.*?Alone: <code>(.*?)</code>',
                         text, flags=re.S)
    assert len(figures) >= 2  # the decks plot and an eor plot
    monkeypatch.chdir(tmp_path)
    for data, command in figures:
        words = shlex.split(html.unescape(command))
        assert words[0] == "exactodds" and "--bet" in words
        words[words.index("--output") + 1] = "again.svg"  # the report embeds SVG; the command's extension chooses
        run(words[1:])
        assert (tmp_path / "again.svg").read_bytes() == base64.b64decode(data), command


def test_the_try_line_of_tags_simulates_the_same_game_and_shoe() -> None:
    setup = ["--bets-file", BETS_FILE, "--decks", "6", "--rules", "ez", "--commission", "4%"]
    table = run(["tags", *setup, "--bet", "dragon-panda", "--level", "2"])
    (line,) = [line for line in table.splitlines() if line.startswith("Try: ")]
    words = shlex.split(line.removeprefix("Try: "))
    assert words[:2] == ["exactodds", "simulate"]
    simulated = run([*words[1:], "--shoes", "20", "--seed", "1", "--workers", "1", "--quiet"])
    # The same shoe and rules: the simulation's header begins with the table's.
    assert simulated.splitlines()[0].startswith(table.splitlines()[0]), (table, simulated)
    assert "dragon-panda" in simulated


@slow
def test_the_exposure_s_perfect_play_command_gives_its_figures(tmp_path) -> None:
    """The perfect-play table of the report's exposure, read back from the workbook, is what the simulate command
    printed beside it gives, figure for figure (an estimate, dealt the same way by its seed)."""
    import openpyxl

    from exactodds.report.lab import PERFECT_FIELDS

    setup = ["--decks", "6", "--rules", "ez", "--bet", "dragon-7", "--bet", "banker", "--bet", "player-pair"]
    book = tmp_path / "report.xlsx"
    run(["report", *setup, "--output", str(book)])
    rows = list(openpyxl.load_workbook(book)["Exposure"].iter_rows(values_only=True))
    (text,) = [r[0] for r in rows if isinstance(r[0], str) and r[0].startswith("Perfect play:")]
    words = shlex.split(re.search(r"`(exactodds simulate [^`]*)`", text).group(1))
    assert "--decks" in words and "ez" in words  # the report's options ride along
    results = __import__("json").loads(run(words[1:]))["results"]["perfect"]
    header = next(i for i, r in enumerate(rows) if r[:2] == ("bet", PERFECT_FIELDS[0][1]))
    table = {r[0]: r[1:1 + len(PERFECT_FIELDS)] for r in rows[header + 1:header + 4]}
    assert set(table) == {"dragon-7", "banker", "player-pair"}
    for bet, cells in table.items():
        assert list(cells) == [results[bet]["advantage_play"][key] for key, _ in PERFECT_FIELDS], bet
