"""The math report and the exact plots of every game with bets, read back by standard readers (openpyxl, pypdf, the
HTML and Markdown text) and compared with the exact figures of the game's own pricing (``game.price``), not with the
code that wrote them; the refusals by capability; and the cross-check that can fail."""

from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow, slow, slow_cases, sweep

from exactodds.analysis import Analysis
from exactodds.cards import RANKS, Shoe
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.exact import grouped, percent_text
from exactodds.game import Game
from exactodds.games import GAMES, find_game, with_capability
from exactodds.present.formats import REPORT_FORMATS
from exactodds.report import document, make_report, render_report
from exactodds.report.checks import sums_mismatches

FORMATS = REPORT_FORMATS
#: The games whose every format is written and read back, each on a shoe of its own (a small one: the figures are
#: the same code at any size, and a small shoe keeps the quick run quick), and the formats whose plots the quick run
#: and the slow profile draw (a second each; Lucky Draw deals for seconds on the 26 shoes of its plots).
WRITTEN = {"dragon-tiger": (6, (), FORMATS), "lucky-draw": (1, (), ("pdf",))}
#: Outcome tables and figure tables of the documents, by their headers.
OUTCOME_HEADERS = ("outcome", "event", "pays", "count", "probability", "1 in N", "return")
FIGURE_HEADERS = ("figure", "value", "exact")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def exact(game: Game, decks: int, bets=None) -> Analysis:
    """The game's own exact figures on ``decks`` standard decks, under its default settings."""
    return game.price(Shoe.standard(decks), bets, game.settings_of({}))


def drawn(game: Game) -> list[str]:
    """The bets whose plots the PDF and HTML reports draw: every one in the slow profile, else the first."""
    bets = list(game.default_bets(game.settings_of({})))
    return bets if is_slow() else bets[:1]


@pytest.fixture(scope="module")
def written(tmp_path_factory, once_per_run) -> dict[tuple[str, str], Path]:
    return once_per_run("report-games-written", lambda: _write(tmp_path_factory))


def _write(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Every format of each game of :data:`WRITTEN`, by the command, with the plots it says."""
    folder = tmp_path_factory.mktemp("report-games")
    paths = {}
    for name, (decks, quick_plots, slow_plots) in WRITTEN.items():
        game = find_game(name)
        for fmt in FORMATS:
            path = folder / f"{name}.{fmt}"
            bets = drawn(game) if fmt in ("pdf", "html") else []
            args = ["report", "--game", name, "--decks", str(decks), *[a for b in bets for a in ("--bet", b)],
                    "--output", str(path)]
            plots = document._plot
            if fmt not in (slow_plots if is_slow() else quick_plots):
                document._plot = lambda *_: None  # (the module's function, restored below)
            try:
                result = invoke(*args)
            finally:
                document._plot = plots
            assert result.exit_code == 0, result.stderr
            assert "cross-checks: counts sum to the orderings" in result.stderr, result.stderr
            paths[(name, fmt)] = path
    return paths


def _bets_of(name: str, fmt: str) -> list[str]:
    game = find_game(name)
    return drawn(game) if fmt in ("pdf", "html") else list(game.default_bets(game.settings_of({})))


def _check_tables(tables: list[list[list[str]]], analysis: Analysis) -> int:
    """Each bet's outcome table (count, probability to ten decimals) and figure table (each exact ``n/d``) against
    the exact figures; how many values were compared."""
    outcomes = [t for t in tables if tuple(t[0]) == OUTCOME_HEADERS]
    figures = [t for t in tables if tuple(t[0]) == FIGURE_HEADERS]
    assert len(outcomes) == len(analysis.bets) and len(figures) >= len(analysis.bets)
    compared = 0
    for bet, table, figure in zip(analysis.bets, outcomes, figures):
        for o, row in zip(bet.outcomes, table[1:], strict=True):
            assert row[0] == o.outcome.id and int(row[3].replace(",", "")) == o.count
            assert abs(Fraction(row[4]) - o.probability) <= Fraction(1, 2 * 10**10)
            compared += 2
        values = {row[0]: row[2] for row in figure[1:]}
        for label, value in (("EV per unit staked", bet.ev), ("house edge per hand", bet.house_edge),
                             ("variance", bet.variance), ("hit frequency", bet.hit_frequency)):
            assert Fraction(values[label]) == value, (bet.bet.id, label)
            compared += 1
    return compared


def markdown_tables(text: str) -> list[list[list[str]]]:
    """The tables of a Markdown text, as rows of cells (the alignment rows left out, escapes undone)."""
    tables, rows = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip().replace("\\", "") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif rows:
            tables.append(rows)
            rows = []
    return tables


class _Tables(HTMLParser):
    """The tables of an HTML page, as rows of cells' text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell))
            self.cell = None


@pytest.mark.parametrize("name", WRITTEN)
def test_markdown_and_html_read_back_are_the_games_exact_figures(written, name):
    game, decks = find_game(name), WRITTEN[name][0]
    for fmt in ("md", "html"):
        text = written[(name, fmt)].read_text(encoding="utf-8")
        if fmt == "md":
            tables = markdown_tables(text)
        else:
            parser = _Tables()
            parser.feed(text)
            tables = parser.tables
        analysis = exact(game, decks, _bets_of(name, fmt))
        assert _check_tables(tables, analysis) >= 6 * len(analysis.bets)
        # The counting convention is the game's, and the check run is named: not six-card draws, not the reference.
        assert analysis.counting is not None and analysis.counting.convention in text.replace("&#x27;", "'")
        assert grouped(analysis.orderings) in text and "no second, independent count" in text


@pytest.mark.parametrize("name", WRITTEN)
def test_xlsx_read_back_is_the_games_exact_figures(written, name):
    openpyxl = pytest.importorskip("openpyxl")
    game, decks = find_game(name), WRITTEN[name][0]
    analysis = exact(game, decks)
    book = openpyxl.load_workbook(written[(name, "xlsx")])
    assert book.sheetnames[: 1 + len(analysis.bets)] == ["Summary", *(f.bet.id[:31] for f in analysis.bets)]
    for figures in analysis.bets:
        sheet = book[figures.bet.id[:31]]
        rows = list(sheet.iter_rows(min_row=2, values_only=True))
        for o, row in zip(figures.outcomes, rows):
            assert (row[0], int(row[4]), Fraction(row[7]), Fraction(row[3])) == (
                o.outcome.id, o.count, o.probability, o.outcome.net)
            assert row[6] == float(o.probability)  # the double nearest the exact value
        values = {r[0]: r[1:3] for r in sheet.iter_rows(values_only=True) if r[0]}
        for label, value in (("EV per unit staked", figures.ev), ("house edge per hand", figures.house_edge),
                             ("variance", figures.variance), ("hit frequency", figures.hit_frequency)):
            number, text = values[label]
            assert Fraction(text) == value and number == float(value), (figures.bet.id, label)
    summary = book["Summary"]
    header = [c.value for c in summary[1]]
    for row, figures in zip(summary.iter_rows(min_row=2, values_only=True), analysis.bets):
        cells = dict(zip(header, row))
        assert cells["bet"] == figures.bet.id and Fraction(cells["house edge exact"]) == figures.house_edge
    about = {r[0]: r[1] for r in book["Reproducibility"].iter_rows(values_only=True)}
    assert int(next(v for k, v in about.items() if str(k).startswith("counts are out of"))) == analysis.orderings
    assert [r[1] for r in book["Reproducibility"].iter_rows(values_only=True) if r[0] in {k.value for k in RANKS}] == [
        analysis.shoe.count(rank) for rank in RANKS]


def test_xlsx_chart_sheet_is_the_games_chart(written):
    """Lucky Draw's decisions: the workbook's Chart sheet holds its chart on the shoe, cell by cell."""
    openpyxl = pytest.importorskip("openpyxl")
    game = find_game("lucky-draw")
    chart = game.chart_of(Shoe.standard(WRITTEN["lucky-draw"][0]), game.settings_of({}))
    assert chart is not None
    sheet = openpyxl.load_workbook(written[("lucky-draw", "xlsx")])["Chart"]
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    header = next(i for i, r in enumerate(rows) if r[0] == chart.rows)
    assert rows[header][: 1 + len(chart.columns)] == [chart.rows, *chart.columns]
    body = [tuple(r[: 1 + len(chart.columns)]) for r in rows[header + 1 : header + 1 + len(chart.cells)]]
    assert body == [(label, *letters) for label, letters in chart.cells]


@pytest.mark.parametrize("name", WRITTEN)
def test_pdf_text_carries_the_games_exact_figures(written, name):
    pypdf = pytest.importorskip("pypdf")
    game, decks = find_game(name), WRITTEN[name][0]
    reader = pypdf.PdfReader(written[(name, "pdf")])
    pages = [p.extract_text() for p in reader.pages]
    text = "\n".join(pages)
    stamp = next(line for line in pages[0].splitlines() if "sha256" in line).split("·")[-1].strip()
    assert all(stamp in p for p in pages)
    analysis = exact(game, decks, _bets_of(name, "pdf"))
    for figures in analysis.bets:
        assert percent_text(figures.house_edge, 8) in text
        for o in figures.outcomes:
            assert grouped(o.count) in text, (figures.bet.id, o.outcome.id)
    assert "Cross-checks" in text and "no second, independent count" in text
    if analysis.chart is not None:
        assert analysis.chart.title.split(":")[0] in text and analysis.chart.cells[0][0] in text


def test_lucky_draws_markdown_report_has_its_chart(written):
    game = find_game("lucky-draw")
    chart = game.chart_of(Shoe.standard(WRITTEN["lucky-draw"][0]), game.settings_of({}))
    assert chart is not None
    tables = markdown_tables(written[("lucky-draw", "md")].read_text(encoding="utf-8"))
    table = next(t for t in tables if tuple(t[0]) == (chart.rows, *chart.columns))
    assert [tuple(r) for r in table[1:]] == [(label, *letters) for label, letters in chart.cells]


@pytest.mark.parametrize("game", sweep(with_capability("bets"), 2), ids=lambda g: g.name)
def test_every_game_with_bets_has_a_report(game):
    """Every game of the registry with bets: its report's figures are its pricing's, its check the one it can run."""
    settings = game.settings_of({})
    shoe = Shoe.standard(1)
    report = make_report(game, settings, shoe, None)
    analysis = game.price(shoe, None, settings)
    assert [s.figures.ev for s in report.sheets] == [f.ev for f in analysis.bets]
    assert report.check.kind == ("reference" if game.has("reference") else "sums") and report.check.agree
    text = render_report(report, "md").decode()
    assert f"out of {grouped(analysis.orderings)}" in text and report.check.summary
    assert markdown_tables(text)[0][0][0] == "bet"


@pytest.mark.parametrize("game", [g for g in GAMES if g.has("bets") and not g.has("simulate")], ids=lambda g: g.name)
def test_the_lab_is_refused_by_capability(tmp_path, game):
    for args in (["report", "--game", game.name, "--lab-shoes", "2", "--output", str(tmp_path / "r.md")],
                 ["plot", "shoe-ev", "--game", game.name, "--output", str(tmp_path / "p.png")],
                 ["plot", "threshold", "--game", game.name, "--output", str(tmp_path / "p.png")]):
        result = invoke(*args)
        assert result.exit_code == 2, result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and "'simulate'" in lines[0], result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", [g for g in GAMES if g.has("bets") and not any(s.name == "rebate"
                                                                                   for s in g.settings)],
                         ids=lambda g: g.name)
def test_a_rebate_is_refused_by_a_game_without_the_setting(tmp_path, game):
    result = invoke("report", "--game", game.name, "--rebate", "1%", "--output", str(tmp_path / "r.md"))
    assert result.exit_code == 2 and result.stderr.startswith(f"Error: {game.name} has no --rebate"), result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", [g for g in with_capability("bets") if not g.has("reference") or
                                  not g.has("infinite-shoe")], ids=lambda g: g.name)
def test_a_second_count_and_the_infinite_shoe_are_refused_by_capability(game):
    settings = game.settings_of({})
    bets = game.resolve(None, settings)
    if not game.has("reference"):
        with pytest.raises(ExactOddsError, match="'reference'"):
            game.reference(Shoe.standard(1), bets, settings)
    if not game.has("infinite-shoe"):
        with pytest.raises(ExactOddsError, match="'infinite-shoe'"):
            game.price_infinite(bets, settings)


def test_the_check_of_the_counts_fails_on_a_wrong_count(monkeypatch):
    """A count off by one, or a figure that its counts contradict, stops the report: the check can fail."""
    game = find_game("dragon-tiger")
    settings = game.settings_of({})
    right = type(game).price

    def off_by_one(self, shoe, bets, settings, *, given=None):
        from dataclasses import replace

        from exactodds.analysis import BetFigures

        analysis = right(self, shoe, bets, settings, given=given)
        first = analysis.bets[0]
        counts = [first.outcomes[0].count + 1, *(o.count for o in first.outcomes[1:])]
        return replace(analysis, bets=(BetFigures.of_counts(first.bet, counts, first.orderings), *analysis.bets[1:]))

    monkeypatch.setattr(type(game), "price", off_by_one)
    with pytest.raises(ExactOddsError, match="cross-check of the counts failed: .* not the .* orderings"):
        make_report(game, settings, Shoe.standard(1), None)
    monkeypatch.undo()
    analysis = game.price(Shoe.standard(1), None, settings)
    analysis.bets[1].__dict__["ev"] = analysis.bets[1].ev + Fraction(1, 10**9)  # a figure its counts contradict
    assert sums_mismatches(analysis) == [f"{analysis.bets[1].bet.id}: EV {analysis.bets[1].ev},"
                                         f" recounted {analysis.bets[1].ev - Fraction(1, 10**9)}"]


def test_the_reference_check_fails_on_a_count_the_second_count_contradicts(monkeypatch):
    game = next(g for g in GAMES if g.has("reference"))
    settings = game.settings_of({})
    right = type(game).reference

    def wrong(self, shoe, bets, settings):
        from dataclasses import replace

        from exactodds.analysis import BetFigures

        reference = right(self, shoe, bets, settings)
        first = reference.analysis.bets[0]
        counts = [first.outcomes[0].count - 1, *(o.count for o in first.outcomes[1:])]
        bets_ = (BetFigures.of_counts(first.bet, counts, first.orderings), *reference.analysis.bets[1:])
        return replace(reference, analysis=replace(reference.analysis, bets=bets_))

    monkeypatch.setattr(type(game), "reference", wrong)
    with pytest.raises(ExactOddsError, match="cross-check of the counts failed: .*compiled .*, reference"):
        make_report(game, settings, Shoe.standard(1), ["tie"])


# --- the exact plots of every game ----------------------------------------------------------------------------


#: The games whose eor and decks plots are checked: Dragon Tiger in the quick run (its deal is instant), every game
#: priced on shoes known by rank under the slow profile (the others deal for seconds on 26 shoes).
PLOTTED = [find_game("dragon-tiger"), *slow_cases(*(g for g in with_capability("by-rank") if g.name != "dragon-tiger"))]


@pytest.mark.parametrize("game", PLOTTED, ids=lambda g: g.name)
def test_eor_bars_are_the_games_exact_effects(game):
    pytest.importorskip("matplotlib")
    from exactodds.plot import PLOTS, PlotRequest

    settings, shoe = game.settings_of({}), Shoe.standard(1)
    bet = next(b for b in game.resolve(None, settings) if not b.needs_suits)
    figure = PLOTS["eor"](PlotRequest(game, settings, shoe, (bet,)))
    heights = [bar.get_height() for bar in figure.axes[0].patches]
    ev = game.price(shoe, [bet], settings).bets[0].ev
    assert heights == [float((game.price(shoe.remove([r]), [bet], settings).bets[0].ev - ev) * 10**7) for r in RANKS]
    assert [t.get_text() for t in figure.axes[0].get_xticklabels()] == [r.value for r in RANKS]


@pytest.mark.parametrize("game", PLOTTED, ids=lambda g: g.name)
def test_decks_lines_are_the_games_exact_house_edges(game):
    pytest.importorskip("matplotlib")
    from exactodds.plot import PLOTS, PlotRequest
    from exactodds.plot.base import DECKS

    settings = game.settings_of({})
    bets = game.plot_default("decks", settings)
    figure = PLOTS["decks"](PlotRequest(game, settings, Shoe.standard(8)))
    lines = [line for line in figure.axes[0].get_lines() if list(line.get_xdata()) == list(DECKS)]
    for line, bet in zip(lines, bets, strict=True):
        assert list(line.get_ydata()) == [float(exact(game, d, [bet]).bets[0].house_edge * 100) for d in DECKS]
    ticks = [t.get_text() for t in figure.axes[0].get_xticklabels()]
    assert ("∞" in ticks) == game.has("infinite-shoe")


@slow
def test_plot_takes_the_game_on_the_command_line(tmp_path):
    game = find_game("dragon-tiger")
    for kind in ("eor", "decks"):
        path = tmp_path / f"{kind}.svg"
        result = invoke("plot", kind, "--game", game.name, "--output", str(path))
        assert result.exit_code == 0 and result.stderr == "", result.stderr
        assert path.read_bytes().startswith(b"<?xml")
    from exactodds.plot import PLOTS, PlotRequest

    figure = PLOTS["eor"](PlotRequest(game, game.settings_of({}), Shoe.standard(8)))  # no bet: the game's first
    assert figure.axes[0].get_title().startswith(f"Effect of removal: {game.default_bets(game.settings_of({}))[0]} (")
