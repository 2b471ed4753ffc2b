"""The lab's plots: files produced, readable, byte-identical for a seed, and what they draw checked against the lab."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest

import exactodds as xo
from exactodds.errors import ExactOddsError
from exactodds.lab import SimulationPlan, simulate
from exactodds.lab.results import EV_BITS
from exactodds.plot import PLOTS, plot
from exactodds.plot.lab_plots import shoe_ev_sample

FAST = {"shoe-ev": {"shoes": 6, "seed": 3}, "threshold": {"shoes": 6, "seed": 3, "thresholds": "0:4:2"}}


@pytest.mark.parametrize("kind", ["shoe-ev", "threshold"])
@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_plot_files_are_produced_and_byte_deterministic(tmp_path, kind, fmt):
    first, second = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    assert PLOTS[kind](first, **FAST[kind]) == first
    plot(kind, second, **FAST[kind])
    assert first.read_bytes() == second.read_bytes()
    data = first.read_bytes()
    if fmt == "png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        from matplotlib.image import imread

        assert imread(first).shape[:2] == (720, 960)  # 8 × 6 inches at 120 dpi
    else:
        root = ET.fromstring(data)  # well-formed SVG
        assert root.tag.endswith("svg")
        assert b"<dc:date>" not in data  # no date: the same file on every run
    other = tmp_path / f"c.{fmt}"
    plot(kind, other, **{**FAST[kind], "seed": 4})
    assert other.read_bytes() != data  # a test that cannot fail is a defect: another seed draws other shoes


def test_plots_are_the_same_in_another_process(tmp_path):
    here = tmp_path / "here.svg"
    plot("threshold", here, **FAST["threshold"])
    there = tmp_path / "there.svg"
    code = f"from exactodds.plot import plot; plot('threshold', {str(there)!r}, shoes=6, seed=3, thresholds='0:4:2')"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=".")
    assert here.read_bytes() == there.read_bytes()


@pytest.mark.parametrize("name", ["x.pdf", "x", "x.png.txt"])
def test_a_plot_needs_a_png_or_svg_name(tmp_path, name):
    with pytest.raises(ExactOddsError, match="png or .svg"):
        plot("shoe-ev", tmp_path / name, shoes=2)
    assert not list(tmp_path.iterdir())  # nothing written


def test_an_unknown_plot_is_an_error(tmp_path):
    with pytest.raises(ExactOddsError, match="unknown plot"):
        plot("pie", tmp_path / "x.png")


def test_the_shoe_ev_sample_is_the_lab_s_exact_pricing():
    """The EVs drawn are those the lab bets on: their sum over the coups where EV > 0 is perfect play's EV total."""
    plan = SimulationPlan.from_options(xo.Shoe.standard(8), bets=["dragon-7"], shoes=30, seed=9, chunk_shoes=7)
    sample = shoe_ev_sample(plan)
    run = simulate(plan)
    bets, _, _, ev, _ = run.totals.cells[("perfect", "dragon-7")]
    assert int(np.count_nonzero(sample.positive)) == bets
    fixed = np.rint(sample.ev[sample.positive] * 2.0**EV_BITS).astype(np.int64)
    assert int(fixed.sum()) == ev
    assert len(sample.ev) == run.totals.coups
    assert sample.full_ev == xo.analyze(xo.Shoe.standard(8), bets=["dragon-7"]).bet("dragon-7").ev
    assert sample.share_positive == Fraction(bets, run.totals.coups)
    assert int(sample.seen.min()) == 0
    assert int(sample.seen.max()) <= plan.shoe.size - plan.cut_card + 6  # the coup after the cut card


def test_start_up_does_not_load_matplotlib():
    code = "import sys, exactodds.cli, exactodds.plot; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=".").stdout
    assert out.strip() == "False"
