"""Text from a user's file is data in every export: never a formula, markup, a new row or a broken layout.

A bets file's descriptions and events and a rules file's description and override names
flow into every output. Here each of those fields holds formula prefixes (``= + - @``, tab,
CR), markup (``<script>``, ``<img onerror>``, Markdown headings, ``|``, backticks, links,
TeX's ``$…$``), newlines, control characters and 10,000-character words, and every export is
opened by its standard reader (openpyxl, pypdf, ``html.parser``, a Markdown table parser,
``csv``, ``json``, an XML parser for SVG): no formula cell, no injected heading or tag,
exactly one row per outcome, and the text itself back, as the reader folded it (see
docs/files.md, "Text fields"). The writers are also given the raw text through the library,
control characters included, which no file can hold: each must be safe on its own.

Each export is made once per format (module fixtures); the quick run deals from a 6-card shoe
(no effect-of-removal plots), the slow profile from a full deck with every plot.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from dataclasses import replace
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, is_slow, slow

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.eor import effect_of_removal
from exactodds.layout import control_character, fold_whitespace, markdown_heading, markdown_table, one_line
from exactodds.paytable import Outcome
from exactodds.present import csv_text, shoe_rules_header
from exactodds.present.eor import render_eor
from exactodds.present.odds import render
from exactodds.puntobanco.events import Bet, Event
from exactodds.puntobanco.facts import condition
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import PUNTO_BANCO, PayOverride, RuleSet
from exactodds.puntobanco.userdefs import load_bets, load_rules

#: How a text may start that a spreadsheet runs as a formula, or that Markdown reads as a block.
STARTS = ("=", "+", "-", "@", "\t", "\r", "# ", "> ", "- ", "1. ", "```", "    ", "|", "<script>", "===", "* ")
#: Markup of every kind that a reader of an export would act on.
MARKUP = (
    '=HYPERLINK("http://x","click")',
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "\n# injected heading\n",
    "| a | b |\n|---|---|\n| c | d |",
    "`code` ``x`` ```",
    "[link](javascript:alert(1)) ![i](x) <http://x>",
    "*em* _em_ ~~del~~ **b** __u__",
    r"$\frac{1}{2}$ and $\foo{x}$ \$",  # TeX, and an unknown command
    "&lt;b&gt; &amp; &#60;",
    "line\r\nbreak\rcr\u2028sep\u0085nel\x0bvt\x0cff",
    "trailing backslash \\",
    "<!-- comment --> </td></tr></table>",
    "ok'; \"quoted\" ",
)
#: Characters no file may hold (the readers refuse them): only the library can hand them to a writer.
CONTROLS = ("\x00", "\x07", "\x1b[31m", "\x7f", "\x9b", "\u202e", "\ufffe", "\U0010ffff", "\x1c")
LONG_WORD, LONG_TEXT = "x" * 10_000, "word " * 2_000


def hostile(k: int, *, controls: bool) -> str:
    """The k-th hostile text: a dangerous start, two kinds of markup, and (``controls``) a control character."""
    text = STARTS[k % len(STARTS)] + MARKUP[k % len(MARKUP)] + " " + MARKUP[(k + 5) % len(MARKUP)]
    return text + (CONTROLS[k % len(CONTROLS)] + "end" if controls else "")


#: The outcomes of the hostile bet: one per margin (0 on a tie), which settles every coup once.
MARGINS = range(10)


def texts(*, controls: bool, shift: int = 0) -> dict[str, str]:
    """Every text field of the hostile files (or of the library objects), by a name of the field.

    Each field starts differently (a formula, a block of Markdown); ``shift`` moves every field
    on to other starts and markup (the slow profile tries several).
    """
    out = {f"event {k}": hostile(k + shift, controls=controls) for k in MARGINS}
    out["event 3"] += LONG_WORD
    out["event 7"] = LONG_TEXT + out["event 7"]
    out["description a"] = hostile(16 + shift, controls=controls) + LONG_WORD
    out["description b"] = hostile(27 + shift, controls=controls)
    out["rules description"] = hostile(17 + shift, controls=controls) + LONG_TEXT
    out["name 1"] = hostile(19 + shift, controls=controls) + MARKUP[8]  # TeX for the plots' captions
    out["name 2"] = hostile(18 + shift, controls=controls) + LONG_WORD
    return out


def toml_string(text: str) -> str:
    r"""A TOML basic string holding ``text`` exactly (control characters as \u escapes)."""
    body = "".join(
        "\\\\" if c == "\\" else '\\"' if c == '"' else f"\\u{ord(c):04x}" if ord(c) < 0x20 or c == "\x7f" else c
        for c in text
    )
    return f'"{body}"'


def bets_toml(t: dict[str, str]) -> str:
    lines = [f"[bets.h-a]\ndescription = {toml_string(t['description a'])}"]
    for k in MARGINS:
        lines.append(f"[[bets.h-a.outcome]]\nid = \"m{k}\"\nwhen = {{ margin = {k} }}\npays = {k - 1}\n"
                     f"event = {toml_string(t[f'event {k}'])}")
    lines.append(f"[bets.h-b]\ndescription = {toml_string(t['description b'])}")
    lines.append('[[bets.h-b.outcome]]\nid = "hit"\nwhen = { winner = "tie" }\npays = 8\n'
                 f"event = {toml_string(t['event 1'])}")
    lines.append('[[bets.h-b.outcome]]\nid = "miss"\notherwise = true\npays = -1\nevent = "anything else"')
    return "\n".join(lines) + "\n"


def rules_toml(t: dict[str, str]) -> str:
    return (
        f'name = "hostile"\ndescription = {toml_string(t["rules description"])}\n'
        f'[[banker_override]]\nid = "on-6"\nname = {toml_string(t["name 1"])}\nwhen = {{ banker_total = 6 }}\n'
        "pays = 0.5\n"
        f'[[banker_override]]\nid = "on-7"\nname = {toml_string(t["name 2"])}\nwhen = {{ banker_total = 7 }}\n'
        "pays = 0.75\n"
    )


def raw_objects(t: dict[str, str]) -> tuple[RuleSet, tuple[Bet, ...]]:
    """The same bets and rules made through the library, so that the raw text reaches the writers."""
    a = Bet("h-a", t["description a"], tuple(
        Outcome(f"m{k}", Event(t[f"event {k}"], Event.where({"margin": k}).mask), Fraction(k - 1)) for k in MARGINS
    ))
    tie = Event.where({"winner": "tie"})
    b = Bet("h-b", t["description b"], (Outcome("hit", Event(t["event 1"], tie.mask), Fraction(8)),
                                        Outcome("miss", Event("anything else", (~tie).mask), Fraction(-1))))
    rules = replace(PUNTO_BANCO, name="hostile", description=t["rules description"], banker_win_overrides=(
        PayOverride("on-6", t["name 1"], condition({"banker_total": 6}), Fraction(1, 2)),
        PayOverride("on-7", t["name 2"], condition({"banker_total": 7}), Fraction(3, 4)),
    ))
    return rules, (a, b)


#: The bets, their outcomes, and the name of each text field an outcome's event holds.
BETS = {"h-a": [(f"m{k}", f"event {k}") for k in MARGINS], "h-b": [("hit", "event 1"), ("miss", None)]}
DESCRIPTIONS = {"h-a": "description a", "h-b": "description b"}
#: The heavy exports (PDF, HTML, plots) are made from the raw text in the quick run, from the files' too when slow.
SOURCES = ("raw", "file")
HEAVY_SOURCES = SOURCES if is_slow() else ("raw",)


@pytest.fixture(scope="module")
def shoe() -> Shoe:
    """The quick run's 6-card shoe draws no effect-of-removal plot; the slow profile deals a full deck."""
    return Shoe.standard(1) if is_slow() else Shoe.parse("A=1,2=1,3=1,4=1,5=1,6=1")


@pytest.fixture(scope="module", params=(0, 5, 10, 15) if is_slow() else (0,))
def shift(request) -> int:
    """Which start and markup each field gets (the slow profile tries them all)."""
    return int(request.param)


@pytest.fixture(scope="module")
def files(tmp_path_factory, shift) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    t = texts(controls=False, shift=shift)
    (folder / "bets.toml").write_text(bets_toml(t), encoding="utf-8")
    (folder / "rules.toml").write_text(rules_toml(t), encoding="utf-8")
    return {"bets": folder / "bets.toml", "rules": folder / "rules.toml"}


class Source:
    """The rules and bets of one source, and the text that each writer must show for each field."""

    def __init__(self, kind: str, files: dict[str, Path], shift: int = 0) -> None:
        self.kind = kind
        if kind == "raw":
            self.texts = texts(controls=True, shift=shift)
            self.rules, self.bets = raw_objects(self.texts)
            self.read = dict(self.texts)  # the library hands the writers the text as it is
        else:
            self.texts = texts(controls=False, shift=shift)
            self.rules, self.bets = load_rules(files["rules"]), load_bets(files["bets"])
            self.read = {name: fold_whitespace(text) for name, text in self.texts.items()}

    def shown(self, field: str | None) -> str:
        """A field's text as an export shows it: on one line, control characters replaced."""
        return "anything else" if field is None else one_line(self.read[field])

    def event(self, bet: str, outcome: str) -> str | None:
        return dict(BETS[bet])[outcome]


@pytest.fixture(scope="module")
def sources(files, shift) -> dict[str, Source]:
    return {kind: Source(kind, files, shift) for kind in SOURCES}


@pytest.fixture(scope="module")
def analyses(sources, shoe):
    return {kind: analyze(shoe, s.rules, list(s.bets)) for kind, s in sources.items()}


@pytest.fixture(scope="module")
def reports(sources, shoe):
    from exactodds.report import make_report

    pytest.importorskip("openpyxl")
    from exactodds.games.punto_banco import GAME

    return {kind: make_report(GAME, GAME.settings_for(s.rules), shoe, list(s.bets),
                              command="exactodds report --output 'x\n# y'.md")
            for kind, s in sources.items()}


def test_the_files_reader_folds_whitespace_and_keeps_the_text(sources):
    read = sources["file"]
    assert read.bets[0].description == fold_whitespace(read.texts["description a"])
    assert read.rules.description == read.read["rules description"]
    assert [o.event.name for o in read.bets[0].outcomes] == [read.read[f"event {k}"] for k in MARGINS]
    assert [o.name for o in read.rules.banker_win_overrides] == [read.read["name 1"], read.read["name 2"]]
    for text in (read.bets[0].description, read.rules.description, *(o.event.name for o in read.bets[0].outcomes)):
        assert "\n" not in text and "\r" not in text and "\t" not in text and "  " not in text


# --- Markdown -------------------------------------------------------------------------------------------------

_CELL = re.compile(r"\|((?:\\.|[^|\\])*)")  # a cell after a pipe: escaped characters, or anything but a pipe
_INLINE_UNESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])|&(?:amp|lt|gt|quot|#\d+|#x[0-9a-fA-F]+);")


def md_cells(line: str) -> list[str]:
    """The cells of a GFM table row: split at unescaped pipes (the last pipe closes the row)."""
    return [c.strip() for c in _CELL.findall(line.strip())][:-1]


def md_unescape(text: str) -> str:
    """What a Markdown viewer shows for a cell's inline text made only of text, escapes and entities."""
    return _INLINE_UNESCAPE.sub(lambda m: m[1] if m[1] is not None else html.unescape(m[0]), text)


def md_tables(text: str) -> list[list[list[str]]]:
    """Every GFM table of a document: its rows of cells, the header first (every row as wide as the header)."""
    lines, tables, i = text.split("\n"), [], 0
    while i + 1 < len(lines):
        if lines[i].startswith("|") and re.fullmatch(r"\|(:?-+:?\|)+", lines[i + 1]):
            rows = [md_cells(lines[i])]
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(md_cells(lines[i]))
                assert len(rows[-1]) == len(rows[0]), lines[i][:200]
                i += 1
            tables.append(rows)
        else:
            i += 1
    return tables


def assert_markdown_is_data(text: str, headings: int, fences: int = 0) -> None:
    """No heading but the ``headings`` expected, no tag, quote, list or rule, no code block but the ``fences`` ones
    (whose lines are code: their fence is longer than any run of backticks in them)."""
    lines, fence, prose = text.split("\n"), "", []
    for line in lines:
        assert control_character(line) is None and "\r" not in line
        if fence:
            fence = "" if line == fence else fence
        elif line.startswith("```"):
            fence, fences = line, fences - 1
        else:
            prose.append(line)
    assert fences == 0 and not fence
    assert sum(line.startswith("#") for line in prose) == headings
    assert not re.search(r"<[A-Za-z/!?]", "\n".join(prose[1:] if prose[0].startswith("<!-- ") else prose))
    for line in prose:
        assert not re.match(r" {0,3}(>|[-+*] |\d+[.)] |[-=*_]{3,}\s*$)", line), line[:200]
        assert not line.startswith("    "), line[:200]  # an indented code block


def outcome_rows(tables: list[list[list[str]]], first: str) -> list[list[list[str]]]:
    return [t[1:] for t in tables if t[0][0] == "outcome" and t[0][1] == "event" and t[1][0] == first]


@pytest.mark.parametrize("kind", SOURCES)
def test_odds_markdown_has_one_row_per_outcome_and_no_markup(sources, analyses, kind):
    source = sources[kind]
    text = render(analyses[kind], "markdown")
    assert_markdown_is_data(text, headings=1 + len(BETS))
    tables = md_tables(text)
    for outcomes in BETS.values():
        (rows,) = outcome_rows(tables, outcomes[0][0])
        assert [r[0] for r in rows] == [o for o, _ in outcomes]
        assert [md_unescape(r[1]) for r in rows] == [source.shown(f).strip() for _, f in outcomes]
    titles = [line for line in text.split("\n") if line.startswith("## ")]
    assert [md_unescape(t[3:]) for t in titles] == [
        f"{b}: {source.shown(DESCRIPTIONS[b])}".strip().replace("#", "#") for b in BETS
    ]


@pytest.mark.parametrize("kind", SOURCES)
def test_report_markdown_has_one_row_per_outcome_and_no_markup(sources, reports, kind):
    from exactodds.report import render_report
    from exactodds.report.document import Heading, build

    report, source = reports[kind], sources[kind]
    text = render_report(report, "md").decode()
    blocks = build(report, "")
    assert_markdown_is_data(text, headings=sum(isinstance(b, Heading) for b in blocks), fences=2)
    tables = md_tables(text)
    for outcomes in BETS.values():
        (rows,) = outcome_rows(tables, outcomes[0][0])
        assert [md_unescape(r[1]) for r in rows] == [source.shown(f).strip() for _, f in outcomes]
    (rules,) = [t for t in tables if t[0] == ["rule", "value"]]
    assert md_unescape(rules[-4][0]) == f"Banker wins with {source.shown('name 1')}"
    assert source.shown("rules description").strip() in md_unescape(text)


# --- HTML -----------------------------------------------------------------------------------------------------

#: The elements of the HTML report: anything else came from a user's text.
HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "main", "h1", "h2", "h3", "p", "pre", "code",
             "table", "thead", "tbody", "tr", "th", "td", "figure", "img", "figcaption"}


class Page(HTMLParser):
    """The elements of a page, and its tables as rows of cell texts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


@pytest.mark.parametrize("kind", HEAVY_SOURCES)
def test_html_report_has_no_tag_of_the_user_and_one_row_per_outcome(sources, reports, kind):
    from exactodds.report import render_report

    source, data = sources[kind], render_report(reports[kind], "html").decode()
    page = Page()
    page.feed(data)
    page.close()
    assert {tag for tag, _ in page.tags} <= HTML_TAGS
    for tag, attrs in page.tags:
        assert not any(name.startswith("on") for name, _ in attrs), (tag, attrs)
        if tag == "img":
            src = dict(attrs)["src"] or ""
            assert src.startswith("data:image/svg+xml;base64,")
            svg = __import__("base64").b64decode(src.split(",", 1)[1])
            assert not any(e.tag.endswith("script") for e in ElementTree.fromstring(svg).iter())
    for outcomes in BETS.values():
        (rows,) = [t[1:] for t in page.tables if t[0][:2] == ["outcome", "event"] and t[1][0] == outcomes[0][0]]
        assert [r[0] for r in rows] == [o for o, _ in outcomes]
        assert [r[1] for r in rows] == [source.shown(f) for _, f in outcomes]
    assert f"<p>{html.escape(source.shown('rules description'))}</p>" in data
    assert control_character(data) is None


# --- XLSX -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", SOURCES)
def test_xlsx_holds_user_text_as_string_cells_and_one_row_per_outcome(sources, reports, kind):
    openpyxl = pytest.importorskip("openpyxl")
    from exactodds.report import render_report

    source = sources[kind]
    book = openpyxl.load_workbook(io.BytesIO(render_report(reports[kind], "xlsx")))
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    assert control_character(cell.value) is None and "\n" not in cell.value
    summary = {r[0]: r for r in book["Summary"].iter_rows(min_row=2, values_only=True) if r[0] in BETS}
    for bet, outcomes in BETS.items():
        assert summary[bet][1] == source.shown(DESCRIPTIONS[bet])
        rows = list(book[bet].iter_rows(min_row=2, max_row=len(outcomes) + 2, values_only=True))
        assert [r[:2] for r in rows[:-1]] == [(o, source.shown(f)) for o, f in outcomes]
        assert not any(rows[-1])  # the outcome rows end where the outcomes do
    assert book["Rules"]["A1"].value == source.shown("rules description")
    assert book["Summary"]["B2"].data_type == "s"


# --- PDF ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", HEAVY_SOURCES)
def test_pdf_report_opens_and_shows_the_text(sources, reports, kind, monkeypatch):
    pypdf = pytest.importorskip("pypdf")
    from exactodds.report import document, render_report

    if not is_slow():  # a second of drawing: a PDF's plots are pictures (the HTML test reads the same plots' SVG)
        monkeypatch.setattr(document, "_plot", lambda *_: None)  # as for a plot that cannot be drawn
    source = sources[kind]
    reader = pypdf.PdfReader(io.BytesIO(render_report(reports[kind], "pdf")))
    text = "".join(page.extract_text() for page in reader.pages)
    assert "Math report: h-a, h-b" in text
    plain = re.sub(r"\s+", "", text)
    for field in ("event 0", "event 2", "name 1"):
        assert re.sub(r"\s+", "", source.shown(field))[:40] in plain, field
    assert "xxxxxxxxxx…" in plain  # the 10,000-character word, cut


# --- odds and eor: table, csv, json ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", SOURCES)
def test_odds_table_keeps_one_line_per_row(sources, analyses, kind):
    source, analysis = sources[kind], analyses[kind]
    lines = render(analysis, "table").split("\n")
    assert lines[0] == shoe_rules_header(analysis.shoe, analysis.rules) and lines[1].startswith("orderings")
    assert len(lines) == 2 + sum(5 + len(outcomes) for outcomes in BETS.values()) + 1  # and the last newline
    start = 2
    for bet, outcomes in BETS.items():
        assert lines[start + 1] == f"{bet}: {source.shown(DESCRIPTIONS[bet])}"
        rows = lines[start + 4 : start + 4 + len(outcomes)]
        assert [r.split()[0] for r in rows] == [o for o, _ in outcomes]
        start += 5 + len(outcomes)
    assert all(control_character(line) is None for line in lines)


@pytest.mark.parametrize("kind", SOURCES)
def test_odds_csv_and_json_carry_the_text_as_data(sources, analyses, kind):
    source, analysis = sources[kind], analyses[kind]
    rows = list(csv.reader(io.StringIO(render(analysis, "csv"))))
    assert len(rows) == 1 + sum(len(o) for o in BETS.values()) and {len(r) for r in rows} == {len(rows[0])}
    assert [(r[0], r[1]) for r in rows[1:]] == [(b, o) for b, outcomes in BETS.items() for o, _ in outcomes]
    data = json.loads(render(analysis, "json"))
    for bet, outcomes in BETS.items():
        assert data["bets"][bet]["description"] == source.read[DESCRIPTIONS[bet]]  # verbatim: JSON is data
        events = [o["event"] for o in data["bets"][bet]["outcomes"]]
        assert events == [source.read[f] if f else "anything else" for _, f in outcomes]
    overrides = data["rules"]["banker_win_overrides"]
    assert [o["event"] for o in overrides] == [f"Banker wins with {source.read[n]}" for n in ("name 1", "name 2")]


#: The smallest shoe whose effect of removal can be worked out (a card removed, six are left).
SEVEN = Shoe.parse("A=1,2=1,3=1,4=1,5=1,6=1,7=1")


@pytest.fixture(scope="module")
def eors(sources):
    return {kind: effect_of_removal(SEVEN, s.rules, list(s.bets)) for kind, s in sources.items()}


@pytest.mark.parametrize("kind", SOURCES)
def test_eor_exports_keep_the_rules_names_as_data(sources, eors, kind):
    source, eor = sources[kind], eors[kind]
    header = one_line(f"7 cards · {eor.rules.header()}")
    table = render_eor(eor, "table").split("\n")
    assert table[0] == header and table[2].endswith(":")
    markdown = render_eor(eor, "markdown")
    assert_markdown_is_data(markdown, headings=3)
    assert md_unescape(markdown.split("\n")[0][2:]) == header.strip()
    assert len(md_tables(markdown)[0]) == 2 + len(eor.removals)
    rows = list(csv.reader(io.StringIO(render_eor(eor, "csv"))))
    assert len(rows) == 1 + len(BETS) * (1 + len(eor.removals))
    names = [o["event"] for o in json.loads(render_eor(eor, "json"))["rules"]["banker_win_overrides"]]
    assert names == [f"Banker wins with {source.read[n]}" for n in ("name 1", "name 2")]


# --- plots ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", HEAVY_SOURCES)
@pytest.mark.parametrize("plot", ["eor", "decks"] if is_slow() else ["eor"])
def test_plot_draws_a_rules_files_text_as_written(sources, kind, plot):
    """The captions hold the rules' names (``$\\frac{1}{2}$`` among them: drawn as written, not read as TeX)."""
    pytest.importorskip("matplotlib")
    from exactodds.plot import PlotRequest, render_plot
    from exactodds.plot.odds_plots import decks_plot, eor_plot

    source = sources[kind]
    from exactodds.games.punto_banco import GAME

    request = PlotRequest(GAME, GAME.settings_for(source.rules), SEVEN, (source.bets[1],))
    svg = render_plot(plot, request, "svg")  # matplotlib stopped on "$\\foo{x}$", read as TeX
    assert not any(e.tag.endswith("script") for e in ElementTree.fromstring(svg).iter())
    caption = (eor_plot if plot == "eor" else decks_plot)(request).texts[-1].get_text()
    assert "\\$\\frac{1}{2}\\$" in caption and "\n" not in caption


# --- the cases, one by one ----------------------------------------------------------------------------

TINY = "A=1,2=1,3=1,4=1,5=1,6=1"


def test_xlsx_a_formula_in_a_bets_or_rules_file_is_a_string_cell(tmp_path):
    """``description = "=HYPERLINK(…)"`` was Summary!B2 as a live formula, ``event = "=1+1"`` the bet's B2."""
    openpyxl = pytest.importorskip("openpyxl")
    bets, rules = tmp_path / "f.toml", tmp_path / "r.toml"
    bets.write_text('[bets.x]\ndescription = "=HYPERLINK(\\"http://x\\",\\"c\\")"\n[[bets.x.outcome]]\nid = "win"\n'
                    'event = "=1+1"\nwhen = { winner = "tie" }\npays = 8\n[[bets.x.outcome]]\nid = "lose"\n'
                    'event = "@SUM(A1)"\notherwise = true\npays = -1\n', encoding="utf-8")
    rules.write_text('description = "=2+2"\n[[banker_override]]\nid = "six"\nname = "-1+1"\n'
                     "when = { banker_total = 6 }\npays = 0.5\n", encoding="utf-8")
    out = tmp_path / "x.xlsx"
    result = CliRunner().invoke(cli, ["report", "--shoe", TINY, "--bets-file", str(bets), "--rules-file", str(rules),
                                      "--bet", "x", "--output", str(out)])
    assert result.exit_code == 0, result.stderr
    book = openpyxl.load_workbook(out)
    cells = {(s, c): book[s][c] for s, c in (("Summary", "B2"), ("x", "B2"), ("x", "B3"), ("Rules", "A1"))}
    assert {k: (c.data_type, c.value) for k, c in cells.items()} == {
        ("Summary", "B2"): ("s", '=HYPERLINK("http://x","c")'), ("x", "B2"): ("s", "=1+1"),
        ("x", "B3"): ("s", "@SUM(A1)"), ("Rules", "A1"): ("s", "=2+2"),
    }
    assert not [c for s in book.worksheets for r in s.iter_rows() for c in r if c.data_type == "f"]


@slow
def test_pdf_a_long_word_or_a_long_text_wraps(monkeypatch):
    """An event of 200 characters without a space, or ``"word "`` × 150, gave reportlab's negative availWidth."""
    pypdf = pytest.importorskip("pypdf")
    from exactodds.report import document, make_report, render_report

    if not is_slow():  # the text is what wraps: the quick run draws no plot
        monkeypatch.setattr(document, "_plot", lambda *_: None)

    tie = Event.where({"winner": "tie"})
    long = Bet("long", "long texts", (Outcome("win", Event("y" * 200, tie.mask), Fraction(8)),
                                      Outcome("lose", Event("word " * 150, (~tie).mask), Fraction(-1))))
    from exactodds.games.punto_banco import GAME

    report = make_report(GAME, GAME.settings_for(PUNTO_BANCO), Shoe.parse(TINY), [long], command="x")
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(render_report(report, "pdf"))).pages)
    assert "y" * 30 in text and text.count("word") >= 60  # wrapped in its column, on several lines


def test_terminal_listings_keep_one_line_per_bet(files, sources, analyses):
    """A newline in a description broke the ``bets`` listing, the odds table and the tracker's header."""
    from exactodds.present.tracker import header
    from exactodds.tracker import Tracker

    result = CliRunner().invoke(cli, ["bets", "--bets-file", str(files["bets"]), "--rules-file", str(files["rules"])])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.split("\n")
    mine = lines[lines.index("from --bets-file (--bet ID):") + 1 :]
    assert [line.split()[0] for line in mine if line] == list(BETS)
    assert lines[0] == one_line(sources["file"].rules.header())
    raw = sources["raw"]
    lines = render(analyses["raw"], "table").split("\n")
    assert lines[3] == f"h-a: {one_line(raw.texts['description a'])}"  # the library's text, not through a file
    tracker = Tracker(Shoe.standard(1), raw.rules, ["tie"])
    line = header(tracker.state, tracker.rules)
    assert "\n" not in line and control_character(line) is None


# --- each writer's escaping, on any text ----------------------------------------------------------------------

#: Any text, with the characters that matter to some format drawn often.
ANY_TEXT = st.text(st.one_of(st.characters(), st.sampled_from("=+-@\t\r\n|\\`*_[]()<>&#!~$ ")), max_size=40)


@examples(300, 30)
@given(ANY_TEXT, ANY_TEXT)
def test_every_writer_gives_any_text_back_as_data(text, other):
    from exactodds.report.text import _html

    shown = one_line(text)
    table = markdown_table(["a", "b"], [[text, other]])
    assert [[md_unescape(c) for c in row] for row in md_tables(table)[0]] == [["a", "b"],
                                                                              [shown.strip(), one_line(other).strip()]]
    heading = markdown_heading(2, text)
    assert "\n" not in heading and "<" not in heading and md_unescape(heading[3:]) == shown
    page = Page()
    page.feed(f"<table><tr><td>{_html(text)}</td></tr></table>")
    page.close()
    assert page.tables == [[[shown]]] and [tag for tag, _ in page.tags] == ["table", "tr", "td"]
    cell, out = csv_text(text), io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([cell, "1"])
    assert out.getvalue().count("\n") == 1 and list(csv.reader(io.StringIO(out.getvalue()))) == [[cell, "1"]]
    assert cell.lstrip()[:1] not in ("=", "+", "-", "@") and control_character(cell) is None
