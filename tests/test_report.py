"""The math report: every number of the XLSX against `odds --format json`, the PDF's text, the HTML's structure,
the volatility index and bands against a hand computation, and bad input."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow, slow

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.errors import ExactOddsError
from exactodds.games.punto_banco import GAME as PB
from exactodds.plot import require
from exactodds.present.formats import REPORT_FORMATS
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import PUNTO_BANCO
from exactodds.report import make_report, render_report
from exactodds.report.sheet import BAND_HANDS, Mix, MixSheet, parse_min_rtp

BETS = ["dragon-7", "panda-8", "banker", "tie"]
#: The bets of the PDF and HTML reports, which draw each bet's plots (a third of a second each): in the
#: quick run one bet below the minimum RTP in the PDF and one that meets it in the HTML (the bet its test
#: reads), in the slow profile all four in each.
DRAWN = BETS if is_slow() else ["tie"]
HTML_DRAWN = BETS if is_slow() else ["dragon-7"]
#: Figures of each bet that the PDF shows (its house edge; dragon-7's win count and SD).
FIGURES = {"dragon-7": ("112,633,011,329,024", "7.6113%", "6.0848817831"), "panda-8": ("10.1876%",),
           "banker": ("1.0579%",), "tie": ("14.3596%", "BELOW")}


def pb_report(shoe, rules, bets, **options):
    """The report of punto banco's ``bets`` under a rule set."""
    return make_report(PB, PB.settings_for(rules), shoe, bets, **options)


def approx(exact: str):
    """A spreadsheet's number for an exact ``n/d``: the nearest float, to 15 significant digits."""
    return pytest.approx(float(Fraction(exact)), rel=1e-15, abs=1e-300)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def odds_json() -> dict:
    args = ["odds", "--format", "json"] + [a for b in BETS for a in ("--bet", b)]
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def written(tmp_path_factory, once_per_run) -> dict[str, Path]:
    return once_per_run("report-written", lambda: _write(tmp_path_factory))  # seconds of work: one worker's


def _write(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("report")
    paths = {}
    for ext in REPORT_FORMATS:
        path = folder / f"par.{ext}"
        bets = {"pdf": DRAWN, "html": HTML_DRAWN}.get(ext, BETS)
        args = ["report", *[a for b in bets for a in ("--bet", b)], "--min-rtp", "90%", "--output", str(path)]
        result = invoke(*args)
        assert result.exit_code == 0, result.stderr
        published = {4: "13/13", 1: "6/6" if bets == ["dragon-7"] else "2/2"}[len(bets)]  # all agreeing
        assert result.stdout == "" and f"published {published} agree" in result.stderr, result.stderr
        paths[ext] = path
    return paths


def test_xlsx_every_number_matches_odds_json(written, odds_json):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.load_workbook(written["xlsx"])
    assert book.sheetnames[:5] == ["Summary", *BETS]
    compared = 0
    for bet_id in BETS:
        sheet = book[bet_id]
        assert sheet.freeze_panes == "A2"
        expected = odds_json["bets"][bet_id]
        rows = list(sheet.iter_rows(min_row=2, values_only=True))
        for outcome, row in zip(expected["outcomes"], rows):
            name, _event, net, net_exact, count, count_number, p, p_exact, one_in, ret, ret_exact = row
            assert (name, count, p_exact, ret_exact, net_exact) == (
                outcome["outcome"], outcome["count"], outcome["probability"], outcome["return"], outcome["net"]
            )
            assert count_number == int(outcome["count"])
            # A spreadsheet number is a double (the nearest to the exact value): the text is exact.
            assert p == approx(outcome["probability"]) and ret == approx(outcome["return"])
            assert net == approx(outcome["net"])
            assert one_in == pytest.approx(1 / float(Fraction(outcome["probability"])), rel=1e-15)
            compared += 1
        figures = {r[0]: r[1:3] for r in sheet.iter_rows(values_only=True) if r[0]}
        for label, key in (("EV per unit staked", "ev"), ("house edge per hand", "house_edge"),
                           ("variance", "variance"), ("hit frequency", "hit_frequency")):
            number, exact = figures[label]
            assert exact == expected[key] and number == approx(expected[key]), (bet_id, label)
        assert figures["standard deviation"][0] == pytest.approx(float(expected["sd_decimal"]), abs=1e-10)
        assert sheet.cell(row=2, column=7).number_format == "0.0000000000"
    assert compared == sum(len(odds_json["bets"][b]["outcomes"]) for b in BETS)
    summary = book["Summary"]
    assert summary.freeze_panes == "B2"
    header = [c.value for c in summary[1]]
    for row in summary.iter_rows(min_row=2, max_row=1 + len(BETS), values_only=True):
        values = dict(zip(header, row))
        expected = odds_json["bets"][values["bet"]]
        assert values["house edge exact"] == expected["house_edge"]
        assert values["EV exact"] == expected["ev"] and values["variance exact"] == expected["variance"]
        assert values["hit frequency exact"] == expected["hit_frequency"]
        assert values["house edge/hand"] == approx(expected["house_edge"])
        assert values["min RTP met"] == ("BELOW" if values["bet"] in ("panda-8", "tie") else "met")
    assert summary.cell(row=2, column=4).number_format == "0.0000%"
    assert summary.column_dimensions["B"].width > 20


def test_xlsx_numbers_are_the_doubles_nearest_the_exact_values(written):
    """Each number beside its exact ``n/d`` is float(n/d) itself: openpyxl's own writing kept 16 digits, which is
    not always the nearest double (40 of this workbook's numbers were off by an ulp)."""
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.load_workbook(written["xlsx"])
    exact = re.compile(r"-?\d+(/\d+)?")
    compared = 0
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for number, text in zip(row, row[1:]):
                if number.data_type == "n" and isinstance(text.value, str) and exact.fullmatch(text.value):
                    assert number.value == float(Fraction(text.value)), (sheet.title, number.coordinate)
                    compared += 1
    assert compared >= 90


def test_pdf_text_carries_the_figures_and_the_stamp(written):
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(written["pdf"])
    pages = [p.extract_text() for p in reader.pages]
    text = "\n".join(pages)
    assert len(pages) >= 4
    stamp = next(line for line in pages[0].splitlines() if "sha256" in line)
    assert all(stamp.split("·")[-1].strip() in p for p in pages)  # the stamp heads every page
    for figure in ("Cross-checks", "agree on every count", "normal approximation", "Wizard of Odds",
                   *(f for bet in DRAWN for f in FIGURES[bet])):
        assert figure in text, figure
    assert reader.metadata.title.startswith("Math report")


class _Checker(HTMLParser):
    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.sources: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.sources += [v for k, v in attrs if k in ("src", "href") and v]
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


def test_html_is_well_formed_and_self_contained(written):
    text = written["html"].read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    checker = _Checker()
    checker.feed(text)
    checker.close()
    assert checker.errors == [] and checker.stack == []
    assert checker.sources and all(s.startswith("data:image/svg+xml;base64,") for s in checker.sources)
    for figure in ("112,633,011,329,024", "7.6113%", "Cross-checks", "exactodds report --bet dragon-7"):
        assert figure in text


def test_markdown_has_the_same_content(written):
    text = written["md"].read_text(encoding="utf-8")
    for figure in ("| dragon-7 |", "112,633,011,329,024", "## Cross-checks", "## Reproducibility",
                   "exactodds plot eor --bet dragon-7", "--min-rtp 90%"):
        assert figure in text, figure


def test_volatility_index_and_bands_by_hand():
    report = pb_report(Shoe.standard(8), PUNTO_BANCO, ["dragon-7", "banker"])
    for sheet in report.sheets:
        variance = float(sheet.figures.variance)
        edge = float(sheet.figures.house_edge)
        for level, z in ((90, 1.645), (95, 1.96), (99, 2.576)):
            assert float(sheet.volatility_index_text(level, 8)) == pytest.approx(z * math.sqrt(variance), abs=1e-8)
        for band, n in zip(sheet.bands, BAND_HANDS):
            half = 1.96 * math.sqrt(variance / n)
            assert float(band.low) == pytest.approx(edge - half, abs=1e-12)
            assert float(band.high) == pytest.approx(edge + half, abs=1e-12)
            assert band.edge == sheet.figures.house_edge  # the band's mean is exact


def test_mix_is_one_bet_per_hand_by_the_law_of_total_variance():
    analysis = analyze(Shoe.standard(8), PUNTO_BANCO, ["banker", "player", "tie"])
    mix = Mix.parse("banker=0.45,player=40%,tie=3/20")
    sheet = MixSheet(mix, analysis.bets)
    w = [Fraction(45, 100), Fraction(40, 100), Fraction(15, 100)]
    ev = sum(wi * f.ev for wi, f in zip(w, analysis.bets))
    # Var = E[Var | bet] + Var(E[X | bet]): an identity independent of the formula in MixSheet.
    total = sum(wi * f.variance for wi, f in zip(w, analysis.bets)) + sum(
        wi * (f.ev - ev) ** 2 for wi, f in zip(w, analysis.bets)
    )
    assert sheet.house_edge == -ev and sheet.variance == total


def test_mix_in_the_report(tmp_path):
    path = tmp_path / "mix.md"
    result = invoke("report", "--bet", "dragon-7", "--mix", "banker=0.5,player=0.4,dragon-7=0.1", "--output", str(path))
    assert result.exit_code == 0, result.stderr
    text = path.read_text()
    assert "## Bet mix" in text and "one bet" in text and "| banker " in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--output", "{dir}/r.docx"], "from its extension"),
        (["--output", "/proc/exactodds-nowhere/r.pdf"], "cannot write"),
        (["--mix", "banker=0.5,player=0.4", "--output", "{dir}/r.md"], "sum to 0.9"),
        (["--mix", "banker=0.5,banker=0.5", "--output", "{dir}/r.md"], "twice"),
        (["--min-rtp", "150%", "--output", "{dir}/r.xlsx"], "at most 100%"),
        (["--bet", "nonsense", "--output", "{dir}/r.xlsx"], "nonsense"),
    ],
)
def test_bad_input_is_one_error_line_and_no_file(tmp_path, args, message):
    result = invoke("report", "--decks", "1", *[a.format(dir=tmp_path) for a in args])
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.stderr
    assert list(tmp_path.iterdir()) == []


def test_missing_library_names_the_extra():
    with pytest.raises(ExactOddsError, match=r"pip install 'exactodds\[report\]'"):
        require("exactodds_no_such_library")


def test_min_rtp_bounds():
    assert parse_min_rtp("90%") == Fraction(9, 10) and parse_min_rtp("1") == 1
    for bad in ("150%", "0", "-5%", "x"):
        with pytest.raises(ExactOddsError):
            parse_min_rtp(bad)


def test_report_digest_follows_the_rules_and_the_shoe():
    a = pb_report(Shoe.standard(1), PUNTO_BANCO, ["tie"])
    b = pb_report(Shoe.standard(1), PUNTO_BANCO.with_tie_pays(Fraction(9)), ["tie"])
    c = pb_report(Shoe.standard(2), PUNTO_BANCO, ["tie"])
    assert len({a.digest, b.digest, c.digest}) == 3
    assert a.digest == pb_report(Shoe.standard(1), PUNTO_BANCO, ["tie"]).digest
    assert render_report(a, "md") == render_report(a, "md").replace(b"", b"")  # no clock in the text


def test_top_award_and_gli():
    report = pb_report(Shoe.standard(8), PUNTO_BANCO, ["dragon-7"])
    sheet = report.sheets[0]
    assert sheet.top_award.outcome.id == "win" and sheet.top_award_meets_gli
    assert sheet.top_award.probability == Fraction(112633011329024, 4998398275503360)


@slow
def test_a_bet_of_a_bets_file_has_its_plots_in_the_report():
    """The plots are drawn from the bets themselves: a bets file's bet (an id no built-in bet has) gets its effect
    of removal and its house edge by decks, as a built-in bet does (they were once left out without a word)."""
    require("matplotlib")
    from dataclasses import replace

    from exactodds import Shoe, find_rules
    from exactodds.puntobanco.bets import find_bet
    from exactodds.report.document import Image, build

    rules = find_rules("punto-banco")
    mine = replace(find_bet("dragon-7", rules), id="my-dragon-7")
    images = [b for b in build(pb_report(Shoe.standard(1), rules, [mine]), "svg") if isinstance(b, Image)]
    assert [i.command.split(" --output")[0] for i in images] == [
        "exactodds plot eor --bet my-dragon-7", "exactodds plot decks --bet my-dragon-7"]
    assert all(i.data.startswith(b"<?xml") for i in images)


def test_a_report_tells_its_progress_on_a_terminal_only(tmp_path, monkeypatch) -> None:
    """Each bet laid out (its plots drawn) is told on a terminal, and the line wiped before the summary line; in a pipe
    or a log, nothing but the summary line."""
    args = ["report", "--bet", "tie", "--bet", "banker", "--output", str(tmp_path / "r.md")]
    plain = CliRunner().invoke(cli, args)
    assert plain.exit_code == 0 and "laid out" not in plain.stderr and plain.stderr.count("\n") == 1
    monkeypatch.setattr("exactodds.cli.progress.on_terminal", lambda: True)
    shown = CliRunner().invoke(cli, args)
    assert shown.exit_code == 0, shown.output
    told = shown.stderr.split("\r")
    assert told[1:4] == ["report: 0 of 2 bets laid out", "report: 1 of 2 bets laid out",
                         "report: 2 bets laid out; writing the md file"]
    assert told[-1].startswith(str(tmp_path / "r.md"))  # after the wiped line: the summary line alone


def test_checking_the_tables_tells_its_progress_on_a_terminal_only(monkeypatch) -> None:
    """``tables --check`` (some seconds) says the table it is making on a terminal; a pipe gets only the verdict."""
    made = ["par sheet: punto-banco, 8 decks", "eor: ez, 6 decks"]

    def generate(progress, parallel):
        for message in made:
            progress(message)
        return {}

    monkeypatch.setattr("exactodds.tables.generate_tables", generate)
    monkeypatch.setattr("exactodds.tables.check_tables", lambda directory, files: type("S", (), {"ok": True})())
    plain = CliRunner().invoke(cli, ["tables", "--check"])
    assert plain.exit_code == 0 and plain.stderr == "", plain.output
    monkeypatch.setattr("exactodds.cli.progress.on_terminal", lambda: True)
    shown = CliRunner().invoke(cli, ["tables", "--check"])
    assert shown.exit_code == 0 and [f"tables: checking; {m}" for m in made] == shown.stderr.split("\r")[1:3]


@slow
def test_the_law_of_the_hold_after_n_hands_read_back_from_the_workbook_is_the_binomial_s(tmp_path) -> None:
    """Dragon 7 after n hands: the chance that the casino is behind and the hold's percentiles, read back by openpyxl,
    equal the test's own sums of C(n, w)·p^w·(1 − p)^(n − w): exact at 100 hands, to 45 digits at 1,000, and by
    logarithms of the gamma function (an independent route, in floats) to 9 digits at 10,000 and 100,000."""
    from decimal import Decimal, localcontext
    from math import comb, exp, lgamma, log

    from openpyxl import load_workbook

    full = json.loads(CliRunner().invoke(cli, ["odds", "--bet", "dragon-7", "--format", "json"]).stdout)
    (won,) = [o for o in full["bets"]["dragon-7"]["outcomes"] if Fraction(o["net"]) > 0]
    p, win = Fraction(won["probability"]), Fraction(won["net"])
    path = tmp_path / "r.xlsx"
    assert CliRunner().invoke(cli, ["report", "--bet", "dragon-7", "--output", str(path)]).exit_code == 0
    rows = list(load_workbook(path)["dragon-7"].iter_rows(values_only=True))
    start = next(i for i, row in enumerate(rows) if row[0] == "hands n" and row[1] == "casino behind")
    levels = [int(h.rstrip("%")) for h in rows[start][3:-1]]
    assert [row[0] for row in rows[start + 1:start + 5]] == [100, 1_000, 10_000, 100_000]
    for row in rows[start + 1:start + 5]:
        n = row[0]
        first = next(w for w in range(n + 1) if win * w - (n - w) > 0)  # the casino is behind from W = first
        if n <= 1_000:
            a, d = p.numerator, p.denominator
            terms = [comb(n, w) * a**w * (d - a) ** (n - w) for w in range(n + 1)]
            total = d**n
            behind = Fraction(sum(terms[first:]), total)
            if n == 100:
                assert row[2] == f"{behind.numerator}/{behind.denominator}"
            else:
                with localcontext() as context:
                    context.prec = 50
                    exact = Decimal(behind.numerator) / behind.denominator
                    assert abs(Decimal(row[2]) / exact - 1) < Decimal("1e-45")
        else:
            def term(w: int, n: int = n) -> float:
                return exp(lgamma(n + 1) - lgamma(w + 1) - lgamma(n - w + 1) + w * log(p) + (n - w) * log(1 - p))

            terms, total = [term(w) for w in range(n + 1)], 1
            assert abs(row[1] / sum(terms[first:]) - 1) < 1e-9
        tail, holds = 0, {}
        for w in range(n, -1, -1):  # the percentile: the hold of the largest W whose tail reaches the level
            tail += terms[w]
            for level in levels:
                if level not in holds and 100 * tail >= level * total:
                    holds[level] = -(win * w - (n - w)) / n
        assert row[3:3 + len(levels)] == tuple(float(holds[level]) for level in levels), n


@slow
def test_the_filing_pack_s_cover_bookmarks_rack_card_and_methods_read_back_from_the_pdf(tmp_path) -> None:
    """The title, operator, preparer and date under the title and in the metadata (pypdf), an outline entry for each
    heading, the rack card's pays and house edges equal to the exact figures of ``odds --format json``, and the
    methods naming the count and the digest."""
    pytest.importorskip("reportlab")
    from pypdf import PdfReader

    path = tmp_path / "filing.pdf"
    args = ["report", "--bet", "tie", "--bet", "banker", "--title", "Tie and Banker: par sheet", "--operator",
            "=HYPERLINK(\"x\") Casino", "--prepared-by", "A. Analyst", "--date", "2026-12-01", "--output", str(path)]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    reader = PdfReader(str(path))
    assert reader.metadata.title == "Tie and Banker: par sheet" and reader.metadata.author == "A. Analyst"
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    for line in ("Tie and Banker: par sheet", 'Operator: =HYPERLINK("x") Casino', "Prepared by: A. Analyst",
                 "Date: 2026-12-01", "Rack card", "Methods and assumptions"):
        assert line in text, line

    def titles(outline) -> list[str]:
        return [t for item in outline for t in (titles(item) if isinstance(item, list) else [item.title])]

    for page in reader.pages:  # a heading is kept on the page of its table
        words = " ".join(page.extract_text().split())
        if "Hold after n hands: its law The hold of n hands" in words:  # the tie's: a table follows
            assert "casino behind" in words
    first = " ".join(reader.pages[0].extract_text().split())
    assert "Contents" in first and all(name in first for name in ("Summary", "Rack card", "Cross-checks"))
    outline = titles(reader.outline)
    assert outline[0] == "Tie and Banker: par sheet"
    assert {"Summary", "Rack card", "Methods and assumptions", "Cross-checks"} <= set(outline)
    full = json.loads(CliRunner().invoke(cli, ["odds", "--bet", "tie", "--bet", "banker", "--format", "json"]).stdout)
    for bet, pays in (("tie", "tie: 8 to 1"), ("banker", "Banker wins: 0.95 to 1; tie: push")):
        edge = -sum(Fraction(o["net"]) * Fraction(o["probability"]) for o in full["bets"][bet]["outcomes"])
        assert f"{bet} {pays} {percent(edge, 2)}" in text, bet
    digest = re.search(r"sha256 ([0-9a-f]{64}) \(see Reproducibility", text)
    stamped = re.search(r"sha256 ([0-9a-f]{16})", out.stderr)  # the summary line's stamp, the pages' too
    assert digest and stamped and digest.group(1).startswith(stamped.group(1))


def percent(x: Fraction, places: int) -> str:
    from decimal import ROUND_HALF_EVEN, Decimal

    value = Decimal(x.numerator) * 100 / Decimal(x.denominator)
    return f"{value.quantize(Decimal(1).scaleb(-places), ROUND_HALF_EVEN)}%"


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--title", "two\nlines", "--title is one line of printable text"),
    ("--operator", "A" * 201, "--operator is one line of printable text"),
    ("--prepared-by", "tab\there", "--prepared-by is one line of printable text"),
    ("--title", "   ", "--title is one line of printable text"),
    ("--date", "2026-13-01", "--date '2026-13-01' is a date written YYYY-MM-DD"),
    ("--date", "yesterday", "--date 'yesterday' is a date written YYYY-MM-DD"),
])
def test_a_cover_line_that_is_not_one_printable_line_is_refused_at_once(option, value, said, tmp_path) -> None:
    out = CliRunner().invoke(cli, ["report", "--bet", "tie", option, value, "--output", str(tmp_path / "r.md")])
    assert out.exit_code == 2 and out.stderr.startswith(f"Error: {said}") and out.stderr.count("\n") == 1, out.stderr
    assert not (tmp_path / "r.md").exists()


def test_the_exposure_section_s_effects_are_the_odds_of_the_shoe_less_one_card(tmp_path) -> None:
    """Each effect of removal in the report (×10^7, rounded) is EV(shoe less one card) − EV(shoe), both read from
    ``odds --format json``; a bet on suits is named as not counted."""
    path = tmp_path / "r.md"
    out = CliRunner().invoke(cli, ["report", "--decks", "2", "--bet", "dragon-7", "--bet", "perfect-pair", "--output",
                                   str(path)])
    assert out.exit_code == 0, out.output
    text = path.read_text(encoding="utf-8")
    section = text[text.index("## Advantage-play exposure"):text.index("## Rules")]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("|")]
    header = next(i for i, cells in enumerate(rows) if cells[:2] == ["bet", "A"])
    shown = dict(zip(rows[header][1:], (int(c) for c in rows[header + 2][1:])))
    assert rows[header + 2][0] == "dragon-7" and list(shown) == [*"A23456789", "T"]

    def ev(*remove: str) -> Fraction:
        args = ["odds", "--decks", "2", "--bet", "dragon-7", "--format", "json"]
        args += ["--remove", *remove] if remove else []
        return Fraction(json.loads(CliRunner().invoke(cli, args).stdout)["bets"]["dragon-7"]["ev"])

    full = ev()
    for label in ("A", "8", "T"):
        assert shown[label] == round((ev(label) - full) * 10**7), label
    assert "Not counted (on suits, on the dealt cards, or paid by a multiplier): perfect-pair." in section


@slow
def test_the_report_is_written_to_the_standard_output_with_dash(tmp_path) -> None:
    """``--output -``: Markdown by default, the same text as the file; a PDF or a workbook as bytes a reader opens;
    a --format that the file's extension contradicts is refused."""
    import io

    from openpyxl import load_workbook
    from pypdf import PdfReader

    args = ["report", "--bet", "tie", "--date", "2026-12-01"]
    assert CliRunner().invoke(cli, [*args, "--output", str(tmp_path / "r.md")]).exit_code == 0
    out = CliRunner().invoke(cli, [*args, "--output", "-"])
    def timeless(text: str) -> str:  # the cross-checks' times differ from run to run
        return re.sub(r"\d+\.\d+ s\b", "", text)

    written = (tmp_path / "r.md").read_text(encoding="utf-8").replace(str(tmp_path / "r.md"), "-")  # its command
    assert out.exit_code == 0 and timeless(out.stdout) == timeless(written)
    assert out.stderr.startswith("the standard output: md report of 1 bet")
    pdf = CliRunner().invoke(cli, [*args, "--output", "-", "--format", "pdf"]).stdout_bytes
    assert "Math report: tie" in PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    book = CliRunner().invoke(cli, [*args, "--output", "-", "--format", "xlsx"]).stdout_bytes
    assert "Summary" in load_workbook(io.BytesIO(book)).sheetnames
    refused = CliRunner().invoke(cli, [*args, "--output", str(tmp_path / "r.md"), "--format", "pdf"])
    assert refused.exit_code == 2 and "--format pdf and the extension" in refused.stderr
