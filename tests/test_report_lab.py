"""The report's advantage-play section (``report --lab-shoes``) against ``simulate --format json``, in all four
formats read back by a reader; and the report's hold bands against the lab's simulated hold."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.games.punto_banco import GAME as PB
from exactodds.lab.chunk import simulate_chunk
from exactodds.lab.dealer import deal_chunk, shuffled_shoes
from exactodds.lab.plan import SimulationPlan
from exactodds.lab.pricing import pricing
from exactodds.present.formats import REPORT_FORMATS
from exactodds.puntobanco.rules import PUNTO_BANCO
from exactodds.report import document, make_report
from exactodds.report.lab import FIELDS, lab_bets
from exactodds.report.sheet import BAND_LEVEL, Band
from tests.profiles import is_slow

#: The run both commands make: two bets the lab prices, one it cannot (left out), two strategies.
LAB = ["--bet", "dragon-7", "--bet", "banker", "--strategy", "perfect", "--strategy", "always", "--seed", "11"]
SHOES = "40"
ROR = "1%"
#: (key of the JSON, label in the report) of every figure the section shows.
SHOWN = [*FIELDS, ("house_edge_no_count_percent", "house edge without a count (exact, %)"),
         ("house_edge_no_count", "house edge without a count (exact)")]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def simulated(once_per_run) -> dict:
    return once_per_run("report-lab-simulated", _simulate)


def _simulate() -> dict:
    result = invoke("simulate", *LAB, "--shoes", SHOES, "--ror", ROR, "--format", "json", "--quiet", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def written(tmp_path_factory, once_per_run) -> dict[str, Path]:
    return once_per_run("report-lab-written", lambda: _write(tmp_path_factory))  # seconds of work: one worker's


def _write(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("report-lab")
    paths = {}
    for ext in REPORT_FORMATS:
        path = folder / f"lab.{ext}"
        with pytest.MonkeyPatch.context() as patch:
            # The section read here has no plot: the reports are written without their plots (two seconds of
            # drawing), as for a plot that cannot be drawn; tests/test_report.py reads the plots of a report.
            patch.setattr(document, "_plot", lambda *_: None)
            result = invoke("report", *LAB, "--bet", "perfect-pair", "--lab-shoes", SHOES, "--ror", ROR,
                            "--output", str(path))  # fmt: skip
        assert result.exit_code == 0, result.stderr
        assert "lab: 40 shoes, seed 11" in result.stderr
        paths[ext] = path
    return paths


def expected_rows(simulated: dict, strategy: str) -> list[list[str]]:
    """The rows the report must show for one strategy: a label, then each bet's JSON string ("—" for none)."""
    cells = simulated["results"][strategy]
    assert list(cells) == ["dragon-7", "banker", "combined"]
    return [[label, *("—" if c["advantage_play"][key] is None else c["advantage_play"][key] for c in cells.values())]
            for key, label in SHOWN]


def test_the_runs_are_real(simulated):
    # The figures compared below mean something: always bets every coup at the exact edge; perfect bets sometimes.
    always = simulated["results"]["always"]["banker"]["advantage_play"]
    perfect = simulated["results"]["perfect"]["dragon-7"]["advantage_play"]
    assert always["bets_per_100_coups"] == "100.000000"
    assert always["house_edge_no_count"] == "114753351728/10847218479825"
    assert 0 < float(perfect["bets_per_100_coups"]) < 100 and float(perfect["average_edge"]) > 0
    assert perfect["n0_shoes"] is not None and always["bankroll_units"] is None
    assert simulated["ror"] == "1/100"


def test_xlsx_sheet_equals_simulate_json(written, simulated):
    openpyxl = pytest.importorskip("openpyxl")
    sheet = openpyxl.load_workbook(written["xlsx"])["Advantage play"]
    rows = list(sheet.iter_rows(values_only=True))
    header = rows[0]
    assert header[:2] == ("strategy", "bet") and header[2 : 2 + len(FIELDS)] == tuple(label for _, label in FIELDS)
    body = [r for r in rows[1:] if r[0] in ("perfect", "always")]
    assert [(r[0], r[1]) for r in body] == [(s, b) for s in ("perfect", "always")
                                            for b in ("dragon-7", "banker", "combined")]
    for row in body:
        play = simulated["results"][row[0]][row[1]]["advantage_play"]
        for (key, _), value in zip(FIELDS, row[2:]):
            assert value == (None if play[key] is None else float(play[key])), (row[:2], key)
        edge = play["house_edge_no_count"]
        exact_column = header.index("house edge without a count exact")
        assert row[exact_column] == ("—" if edge is None else edge)
        if edge is not None:
            assert row[exact_column - 1] == pytest.approx(float(Fraction(edge)), rel=1e-15)
    notes = " ".join(str(r[0]) for r in rows if r[0] and r[0] not in ("strategy", "perfect", "always"))
    for said in ("seed 11", "--ror 1/100", "1.00% risk of ruin", "Not simulated", "perfect-pair"):
        assert said in notes, said


def test_markdown_tables_equal_simulate_json(written, simulated):
    text = written["md"].read_text(encoding="utf-8")
    section = text[text.index("## Advantage play (simulation; estimates)") : text.index("## Rules")]
    for strategy in ("perfect", "always"):
        part = section[section.index(f"### Strategy: {strategy}") :]
        lines = [line for line in part.splitlines() if line.startswith("| ")]
        assert [c.strip() for c in lines[0].strip("|").split("|")] == ["figure", "dragon-7", "banker", "combined"]
        shown = [[c.strip() for c in line.strip("|").split("|")] for line in lines[1 : 1 + len(SHOWN)]]
        assert shown == expected_rows(simulated, strategy)
    assert "Not simulated (the lab deals coup states): perfect-pair." in section


class _Cells(HTMLParser):
    """The text of every table cell of an HTML page, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def test_html_tables_equal_simulate_json(written, simulated):
    text = written["html"].read_text(encoding="utf-8")
    section = text[text.index("Advantage play (simulation; estimates)") : text.index(">Rules<")]
    parser = _Cells()
    parser.feed(section)
    tables = [parser.rows[i + 1 : i + 1 + len(SHOWN)] for i, r in enumerate(parser.rows) if r and r[0] == "figure"]
    assert tables == [expected_rows(simulated, "perfect"), expected_rows(simulated, "always")]


def test_pdf_text_equals_simulate_json(written, simulated):
    pypdf = pytest.importorskip("pypdf")
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(written["pdf"]).pages)
    section = text[text.index("Advantage play (simulation; estimates)") :]
    lines = [line.strip() for line in section.splitlines() if line.strip()]
    for strategy in ("perfect", "always"):
        part = lines[lines.index(f"Strategy: {strategy}") :]
        for row in expected_rows(simulated, strategy):
            at = part.index(row[0])
            assert part[at : at + len(row)] == row, row[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "3"], "give --lab-shoes N"),
        (["--lab-shoes", "5", "--bet", "perfect-pair"], "cannot simulate any of the bets perfect-pair"),
        (["--lab-shoes", "5", "--strategy", "guess"], "guess"),
        (["--lab-shoes", "5", "--ror", "150%"], "risk of ruin"),
        (["--lab-shoes", "0"], "0"),
    ],
)
def test_bad_lab_options_are_one_error_line_and_no_file(tmp_path, args, message):
    result = invoke("report", "--decks", "1", *args, "--output", str(tmp_path / "r.md"))
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.stderr
    assert list(tmp_path.iterdir()) == []


def test_lab_bets_leave_out_what_the_lab_cannot_deal():
    report = make_report(PB, PB.settings_for(PUNTO_BANCO), Shoe.standard(8), ["banker", "perfect-pair", "dragon-7"])
    kept, out = lab_bets(PUNTO_BANCO, report.bets)
    assert [b.id for b in kept] == ["banker", "dragon-7"] and out == ("perfect-pair",)


# --- The report's 95% band against the lab's simulated hold -------------------------------------------------------

#: Hands per block: the report's first band, n = 1,000.
BLOCK = 1_000
#: Independent blocks compared: a quick run, and more under EXACTODDS_TESTS=slow.
BLOCKS = 3_000 if is_slow() else 300


def banker_holds(blocks: int, seed: int) -> tuple[np.ndarray, SimulationPlan]:
    """The house's hold on banker (per unit staked) in consecutive blocks of BLOCK hands of the lab's always strategy.

    The lab's shoes (8 decks, cut card 14) are dealt in chunk order, each coup settled by the
    lab's own pay per coup state; the hands are cut into blocks of exactly BLOCK in deal order.
    """
    plan = SimulationPlan.from_options(Shoe.standard(8), PUNTO_BANCO, bets=["banker"], strategies=["always"],
                                       shoes=blocks * BLOCK // 70 + 500, seed=seed)  # ≥ 70 coups a shoe
    work = plan.work()
    pay = pricing(work.tableau, work.pays)[0].pay[0]
    won = np.concatenate([pay[deal_chunk(work, shuffled_shoes(work, i)).state] for i in range(plan.chunk_count)])
    assert won.size >= blocks * BLOCK
    per_block = won[: blocks * BLOCK].reshape(blocks, BLOCK).sum(axis=1)
    return -per_block / (BLOCK * work.pays.scale), plan


def test_per_coup_pays_are_the_labs_always_strategy():
    # The hold below is the lab's own: the per-coup pays of one chunk sum to its always/banker total.
    plan = SimulationPlan.from_options(Shoe.standard(8), PUNTO_BANCO, bets=["banker"], strategies=["always"],
                                       shoes=60, seed=2)
    work = plan.work()
    pay = pricing(work.tableau, work.pays)[0].pay[0]
    dealt = deal_chunk(work, shuffled_shoes(work, 0))
    totals = simulate_chunk(work, 0)
    assert totals.coups == len(dealt.state) and totals.cells[("always", "banker")][:2] == [
        totals.coups, int(pay[dealt.state].sum())]


def test_report_band_contains_the_simulated_hold_at_the_stated_rate():
    """The report's 95% band for n = 1,000 hands of banker holds the lab's simulated hold in about 95% of blocks.

    The band assumes independent hands; the lab deals shoes to the cut card, so hands in one
    shoe are dependent (cards are not replaced). The dependence is weak for banker: its EV
    moves by hundredths of a percent through a shoe, so the covariances of a shoe's hands
    change the variance of a block's hold by far less than a percent, and the coverage by
    far less than the binomial tolerance used here (3 standard errors: ±3.8% quick, ±1.2%
    slow). Blocks span shoes and are consecutive, hence independent but for the one shoe
    two neighbours may share.
    """
    report = make_report(PB, PB.settings_for(PUNTO_BANCO), Shoe.standard(8), ["banker"])
    band = next(b for b in report.sheets[0].bands if b.hands == BLOCK)  # the band the report prints
    assert BAND_LEVEL == 95
    holds, _ = banker_holds(BLOCKS, seed=14)
    low, high = float(band.low), float(band.high)
    inside = np.count_nonzero((holds >= low) & (holds <= high)) / BLOCKS
    se = math.sqrt(0.95 * 0.05 / BLOCKS)
    assert abs(inside - 0.95) <= 3 * se, (inside, low, high)
    # The mean hold agrees with the exact house edge within its sampling error.
    assert abs(holds.mean() - float(band.edge)) <= 4 * float(band.half_width) / 1.96 / math.sqrt(BLOCKS)
    # The test has power: a band half as wide (z ≈ 0.98, a 67% band) would fail it.
    narrow = Band(BLOCK, band.edge, band.variance, band.z / 2)
    inside_narrow = np.count_nonzero((holds >= float(narrow.low)) & (holds <= float(narrow.high))) / BLOCKS
    assert abs(inside_narrow - 0.95) > 3 * se
