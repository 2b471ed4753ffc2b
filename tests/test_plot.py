"""Plots: produced, byte-deterministic, valid PNG/SVG, with bad input as one Error line."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner
from profiles import is_slow, slow, sweep

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.games.punto_banco import GAME as PB
from exactodds.plot import PLOTS, PlotRequest, render_plot
from exactodds.present.formats import IMAGE_FORMATS
from exactodds.puntobanco.rules import BIG_TABLE, PUNTO_BANCO

pytest.importorskip("matplotlib")


#: The exact plots, each with its bets.
EXACT = {"eor": ["dragon-7"], "decks": ["banker", "dragon-7", "panda-8"]}
#: Each plot in each format of the registry under the slow profile; the quick run draws each plot once, in the formats
#: in turn (a format that is neither PNG nor SVG fails the SVG reader until it has a reader of its own).
PLOTTED = [(kind, bets, fmt) for kind, bets in EXACT.items() for fmt in IMAGE_FORMATS] if is_slow() else [
    (kind, bets, fmt) for (kind, bets), fmt in zip(EXACT.items(), itertools.cycle(IMAGE_FORMATS))]


@pytest.mark.parametrize(("kind", "bets", "fmt"), sweep(PLOTTED, unpack=True))
def test_plot_is_written_and_byte_deterministic(tmp_path, kind, bets, fmt):
    paths = [tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"]
    for path in paths:
        args = ["plot", kind, *[a for b in bets for a in ("--bet", b)], "--output", str(path)]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0 and result.stdout == "" and result.stderr == "", result.stderr
    data = paths[0].read_bytes()
    assert data == paths[1].read_bytes()
    if fmt == "png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    else:
        root = ET.fromstring(data)
        assert root.tag.endswith("svg") and b"<dc:date>" not in data


def test_plots_label_their_axes_and_cite_the_source():
    for kind, bets in (("eor", ("dragon-7",)), ("decks", ("banker",))):
        figure = PLOTS[kind](PlotRequest(PB, PB.settings_for(PUNTO_BANCO), Shoe.standard(8), bets))
        axes = figure.axes[0]
        assert axes.get_xlabel() and axes.get_ylabel() and axes.get_title()
        assert "Source: exactodds" in figure.texts[-1].get_text()


def test_eor_bars_are_the_exact_effects():
    from exactodds.eor import effect_of_removal

    figure = PLOTS["eor"](PlotRequest(PB, PB.settings_for(PUNTO_BANCO), Shoe.standard(8), ("panda-8",)))
    heights = [bar.get_height() for bar in figure.axes[0].patches]
    exact = effect_of_removal(Shoe.standard(8), PUNTO_BANCO, ["panda-8"], by="rank").bet("panda-8").scaled()
    assert heights == [float(e) for e in exact]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pie", "--output", "{dir}/x.png"], "unknown plot 'pie'"),
        (["eor", "--output", "{dir}/x.gif"], "from its extension"),
        (["eor", "--bet", "tie", "--bet", "banker", "--output", "{dir}/x.png"], "one --bet"),
        (["decks", "--rules", "big-table", "--output", "{dir}/x.svg"], "fixed tableau"),
    ],
)
def test_bad_plot_is_one_error_line_and_no_file(tmp_path, args, message):
    result = CliRunner().invoke(cli, ["plot", *[a.format(dir=tmp_path) for a in args]])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.stderr
    assert list(tmp_path.iterdir()) == []


def test_render_plot_refuses_an_unknown_format():
    with pytest.raises(ExactOddsError, match="image format"):
        settings = PB.settings_for(BIG_TABLE.with_player_five("draw"))
        render_plot("decks", PlotRequest(PB, settings, Shoe.standard(8)), "gif")


@slow
def test_lab_plots_from_the_command_line_follow_seed_shoes_and_params(tmp_path):
    """``plot threshold`` passes --seed, --shoes and --param to the lab: same seed, same bytes; another seed differs."""
    def draw(name, seed):
        out = tmp_path / name
        args = ["plot", "threshold", "--decks", "1", "--shoes", "3", "--seed", str(seed),
                "--param", "thresholds=0,2", "--param", "cut-card=14", "--output", str(out)]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        return out.read_bytes()

    first = draw("a.svg", 5)
    assert draw("b.svg", 5) == first
    assert draw("c.svg", 6) != first


@pytest.mark.parametrize("param", ["thresholds", "=3", "colour=red"])
def test_bad_plot_param_is_one_error_line(tmp_path, param):
    result = CliRunner().invoke(cli, ["plot", "shoe-ev", "--shoes", "1", "--param", param,
                                      "--output", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and result.output.startswith("Error:")
    assert not (tmp_path / "x.png").exists()
