"""The lab's plots: files produced, readable, byte-identical for a seed, and what they draw checked against the lab."""

from __future__ import annotations

import itertools
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest
from profiles import is_slow, slow, sweep

import exactodds as xo
from exactodds.errors import ExactOddsError
from exactodds.games.punto_banco import GAME as PB
from exactodds.lab import SimulationPlan, simulate
from exactodds.lab.results import EV_BITS
from exactodds.plot import PLOTS, PlotRequest, render_plot
from exactodds.plot.lab_plots import shoe_ev_sample
from exactodds.present.formats import IMAGE_FORMATS

PARAMS = {"shoe-ev": {}, "threshold": {"thresholds": "0:4:2"}}
#: Punto banco's settings: its standard rule set.
STANDARD = PB.settings_for(xo.PUNTO_BANCO)


def request(kind, seed=3, **params):
    return PlotRequest(PB, STANDARD, xo.Shoe.standard(8), ("dragon-7",), seed=seed, shoes=6,
                       params={**PARAMS[kind], **params})  # fmt: skip


#: Each plot in each format of the registry under the slow profile; the quick run draws each plot once, in the formats
#: in turn (a format that is neither PNG nor SVG fails the SVG reader until it has a reader of its own).
KINDS_AND_FORMATS = [(kind, fmt) for kind in PARAMS for fmt in IMAGE_FORMATS] if is_slow() else list(
    zip(PARAMS, itertools.cycle(IMAGE_FORMATS)))


@pytest.mark.parametrize(("kind", "fmt"), sweep(KINDS_AND_FORMATS, unpack=True))
def test_plot_files_are_produced_and_byte_deterministic(tmp_path, kind, fmt):
    data = render_plot(kind, request(kind), fmt)
    assert render_plot(kind, request(kind), fmt) == data
    path = tmp_path / f"a.{fmt}"
    path.write_bytes(data)
    if fmt == "png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        from matplotlib.image import imread

        assert imread(path).shape[:2] == (900, 1200)  # 8 × 6 inches at 150 dpi
    else:
        root = ET.fromstring(data)  # well-formed SVG
        assert root.tag.endswith("svg")
        assert b"<dc:date>" not in data  # no date: the same file on every run
    # A test that cannot fail is a defect: another seed draws other shoes, so another picture.
    assert render_plot(kind, request(kind, seed=4), fmt) != data


@slow
def test_plots_are_the_same_in_another_process():
    here = render_plot("threshold", request("threshold"), "svg")
    code = (
        "import sys, exactodds as xo; from exactodds.plot import PlotRequest, render_plot;"
        " from exactodds.games.punto_banco import GAME as PB;"
        " r = PlotRequest(PB, PB.settings_for(xo.PUNTO_BANCO), xo.Shoe.standard(8), ('dragon-7',), seed=3, shoes=6,"
        " params={'thresholds': '0:4:2'}); sys.stdout.buffer.write(render_plot('threshold', r, 'svg'))"
    )
    there = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=".").stdout
    assert here == there


@pytest.mark.parametrize(
    "kind, params, message",
    [
        ("shoe-ev", {"tags": "1"}, "unknown plot option 'tags'"),
        ("threshold", {"thresholds": "0:4"}, "malformed scan"),
        ("threshold", {"tags": "1,2"}, "tags need 13 values"),
        ("shoe-ev", {"cut-card": "٣"}, "cut card"),
        ("shoe-ev", {"cut-card": "3"}, "at least 12"),
        ("shoe-ev", {"burn": "x"}, "burn"),
    ],
)
def test_bad_plot_options_are_errors(kind, params, message):
    with pytest.raises(ExactOddsError, match=message):
        render_plot(kind, PlotRequest(PB, STANDARD, xo.Shoe.standard(8), shoes=2, params=params), "png")


def test_the_lab_plots_are_registered_and_draw_one_bet():
    assert {"shoe-ev", "threshold"} <= set(PLOTS)
    with pytest.raises(ExactOddsError, match="one bet"):
        render_plot("shoe-ev", PlotRequest(PB, STANDARD, xo.Shoe.standard(8), ("tie", "banker"), shoes=2), "png")


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
