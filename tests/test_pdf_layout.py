"""The PDF report's layout, read back with pypdf: no word of a table broken across lines, every heading on the page
of what follows it (its table's header), no page but the last three-quarters blank; each check is also shown to fail
on a PDF laid out badly on purpose.

The reports are written by the real command (``exactodds report --output X.pdf``); the words, headings and tables
the checks look for are the blocks that command laid out (caught on their way to :func:`exactodds.report.pdf.pdf`),
never a list typed here.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("reportlab")
pypdf = pytest.importorskip("pypdf")

from click.testing import CliRunner  # noqa: E402
from profiles import slow, slow_cases  # noqa: E402

from exactodds.cli import cli  # noqa: E402
from exactodds.report import pdf as writer  # noqa: E402
from exactodds.report.document import Block, Heading, Para, Table  # noqa: E402

# The reports laid out. The quick run: bets on suits with long names and many outcomes (a bet on suits has no plots,
# which take a second each), the Banker under EZ rules with a rebate and a minimum RTP (the push on a three-card 7,
# the rebate's column and figures, the RTP's column and flag), a game of the family; every report has three sections
# or more, so opens with its contents. The slow profile adds whole reports (every plot drawn: ten seconds and more
# each), each setting alone, the other games and a lit-card game (its long exact fractions set smaller).
QUICK = {
    "long names": ("--bet", "jackpot-baccarat", "--bet", "banker-fortune-4-pair", "--bet", "perfect-pair-v2"),
    "ez, rebate": ("--rules", "ez", "--rebate", "1%", "--min-rtp", "99%", "--bet", "banker"),
    "dragon tiger": ("--game", "dragon-tiger", "--bet", "dragon", "--bet", "suited-tie"),
}
SLOW = {
    "default": (),
    "ez": ("--rules", "ez"),
    "rebate": ("--rebate", "1%", "--min-rtp", "95%"),
    "dragon tiger, every bet": ("--game", "dragon-tiger"),
    "three card": ("--game", "three-card-baccarat"),
    "lucky draw": ("--game", "lucky-draw"),
    "prosperity tree": ("--game", "prosperity-tree"),
    "mix": ("--mix", "banker=0.45,player=0.40,tie=0.15", "--bet", "banker", "--bet", "player", "--bet", "tie"),
}
REPORTS = {**QUICK, **SLOW}
CASES = [*QUICK, *slow_cases(*SLOW)]


@dataclass(frozen=True)
class Laid:
    """A PDF the report command wrote, the blocks it laid out in it, and the ids it names."""

    data: bytes
    blocks: tuple[Block, ...]
    ids: frozenset[str]  # the ids of the report's bets and of their outcomes

    @cached_property
    def pages(self) -> list[Page]:
        """The PDF's pages, read back (:func:`read`)."""
        return read(self.data)


def write(args: Sequence[str], folder: Path) -> Laid:
    """Run ``exactodds report ARGS --output FOLDER/report.pdf``, and catch the blocks the command lays out and the
    report they are of (its bets' and outcomes' ids)."""
    laid: list[tuple[list[Block], frozenset[str]]] = []
    real = writer.pdf

    def spy(report: Any, blocks: list[Block]) -> bytes:
        ids = {i for s in report.sheets for i in (s.bet.id, *(o.id for o in s.bet.outcomes))}
        laid.append((list(blocks), frozenset(ids)))
        return real(report, blocks)

    path = folder / "report.pdf"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(writer, "pdf", spy)
        out = CliRunner().invoke(cli, ["report", *args, "--output", str(path)])
    assert out.exit_code == 0, out.output
    assert len(laid) == 1
    blocks, ids = laid[0]
    return Laid(path.read_bytes(), tuple(blocks), ids)


_LAID: dict[str, Laid] = {}


@pytest.fixture
def laid(request: pytest.FixtureRequest, once_per_run: Callable[..., Laid],
         tmp_path_factory: pytest.TempPathFactory) -> Laid:
    """The report named by the test's parameter, written once in the run (shared by its workers)."""
    name = request.param
    if name not in _LAID:
        folder = tmp_path_factory.mktemp("layout")
        _LAID[name] = once_per_run(f"pdf-layout-{name.replace(' ', '-')}", lambda: write(REPORTS[name], folder))
    return _LAID[name]


# ---------------------------------------------------------------------------------------------------------------------
# Reading the PDF back: each line of text where it is drawn


@dataclass(frozen=True)
class Line:
    """One line of text as a page draws it: its height (of its baseline, in points from the page's foot), its font (the
    subset's prefix left off) and size."""

    y: float
    text: str
    font: str
    size: float


@dataclass(frozen=True)
class Page:
    """A page's lines of text inside the story's frame (not the stamp, the page number or the footer), in the order
    drawn (top to bottom), and the frame's top and height (points)."""

    lines: tuple[Line, ...]
    top: float
    height: float


def read(data: bytes) -> list[Page]:
    """The pages of a PDF of :func:`exactodds.report.pdf.pdf`, read by pypdf."""
    _, _, top, bottom = writer.MARGINS
    pages = []
    for page in pypdf.PdfReader(io.BytesIO(data)).pages:
        drawn: list[Line] = []

        def visit(text: str, cm: list[float], tm: list[float], font: dict[str, Any] | None, size: float,
                  drawn: list[Line] = drawn) -> None:
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]  # where the text matrix puts it on the page
            name = str((font or {}).get("/BaseFont", "")).rpartition("+")[2]
            for i, line in enumerate(text.split("\n")):  # (pypdf hands reportlab's text over a line at a time)
                if line.strip():
                    drawn.append(Line(y - i * size, line, name, size))

        page.extract_text(visitor_text=visit)
        frame_top = float(page.mediabox.top) - top
        pages.append(Page(tuple(line for line in drawn if bottom <= line.y <= frame_top), frame_top,
                          frame_top - bottom))
    return pages


@dataclass(frozen=True)
class Look:
    """How the PDF draws each kind of text: a table's cells and headers (their fonts, and the sizes a table may be
    set in), and the headings by level (font and size)."""

    cell_fonts: tuple[str, str]
    cell_sizes: tuple[float, ...]
    head_font: str
    headings: dict[int, tuple[str, float]]

    @classmethod
    def of_writer(cls) -> Look:
        """The fonts and sizes of :mod:`exactodds.report.pdf`'s styles."""
        styles = writer._Styles.of(writer._fonts())
        return cls((styles.cell.fontName, styles.head.fontName), writer._CELL_SIZES, styles.head.fontName,
                   {level: (style.fontName, style.fontSize) for level, style in styles.headings.items()})

    def is_cell(self, line: Line) -> bool:
        """Whether a line is of a table (a cell, a header; a plot's caption is in the same style)."""
        return line.font in self.cell_fonts and line.size in self.cell_sizes

    def level(self, line: Line) -> int | None:
        """The level of the heading a line is of, if it is one."""
        return next((level for level, (font, size) in self.headings.items()
                     if (line.font, line.size) == (font, size)), None)


# ---------------------------------------------------------------------------------------------------------------------
# The checks: each gives what it finds wrong, in words (none when the layout is right)


def table_words(blocks: Sequence[Block]) -> Counter[str]:
    """Every word of every table's headers and cells (as the PDF shows the cell), counted, but for a word wider than
    the page (which no column can hold whole)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    room = page_width() - 2 * writer._PADDING
    styles = writer._Styles.of(writer._fonts())
    words: Counter[str] = Counter()
    for block in blocks:
        if isinstance(block, Table):
            for cell in (*block.headers, *(c for row in block.rows for c in row)):
                words.update(w for w in writer._visible(cell, writer.CELL_CHARS).split()
                             if stringWidth(w, styles.head.fontName, styles.cell.fontSize) <= room)
    return words


def broken_words(pages: Sequence[Page], blocks: Sequence[Block], look: Look) -> list[str]:
    """The words of the tables that the PDF breaks: a word shown whole fewer times than the tables hold it, and a line
    of a table that ends with the start of a word whose end begins the line below it."""
    words = table_words(blocks)
    whole = Counter(w for page in pages for line in page.lines if look.is_cell(line) for w in line.text.split())
    found = [f"{word!r} is whole {whole[word]} times of {n}" for word, n in sorted(words.items()) if whole[word] < n]
    for number, page in enumerate(pages, 1):
        cells = [line for line in page.lines if look.is_cell(line)]
        for above, below in zip(cells, cells[1:]):
            if below.y < above.y - 0.5:  # the line below in the same cell (the next cell of a row starts no lower)
                start, end = above.text.split()[-1], below.text.split()[0]
                if start + end in words:
                    found.append(f"page {number}: {start!r} | {end!r} ({start + end!r} broken)")
    return found


@dataclass(frozen=True)
class Shown:
    """A heading as the PDF shows it: its text (its lines joined), its page (from 0) and the index of its last line."""

    text: str
    page: int
    last: int


def shown_headings(pages: Sequence[Page], look: Look) -> list[Shown]:
    """The headings the pages show, in order (a heading over two lines is one)."""
    shown: list[Shown] = []
    for number, page in enumerate(pages):
        level: int | None = None
        for i, line in enumerate(page.lines):
            this = look.level(line)
            if this is not None and this == level and shown and shown[-1].last == i - 1:  # a heading's next line
                shown[-1] = Shown(f"{shown[-1].text} {line.text.strip()}", number, i)
            elif this is not None:
                shown.append(Shown(line.text.strip(), number, i))
            level = this
    return shown


def its_table(blocks: Sequence[Block], i: int) -> Table | None:
    """The table heading ``i`` introduces, as :func:`exactodds.report.pdf._story` keeps them: the table right after it,
    after its subheadings, or after its paragraphs (three at most); none when another heading follows a paragraph (the
    title, whose paragraphs the contents follow), or something else comes first."""
    heading = blocks[i]
    assert isinstance(heading, Heading)
    paragraphs = 0
    for block in blocks[i + 1:]:
        if isinstance(block, Heading) and (paragraphs or block.level <= heading.level):
            return None
        if isinstance(block, Para):
            paragraphs += 1
        elif not isinstance(block, Heading):
            return block if isinstance(block, Table) and paragraphs <= 3 else None
    return None


def stranded_headings(pages: Sequence[Page], blocks: Sequence[Block], look: Look) -> list[str]:
    """The headings not kept with what follows them: a heading that ends its page, or that is not on the page of its
    table's first header (its table: the first table after it, with only paragraphs and headings between)."""
    shown = iter(shown_headings(pages, look))
    found = []
    for i, block in enumerate(blocks):
        if not isinstance(block, Heading):
            continue
        text = " ".join(writer._visible(block.text, writer.PARA_CHARS).split())
        at = next((s for s in shown if s.text == text), None)  # (the contents' own heading is passed over)
        if at is None:
            found.append(f"heading {text!r} not found in its place")
            break
        lines = pages[at.page].lines
        if at.last == len(lines) - 1:
            found.append(f"heading {text!r} ends page {at.page + 1}")
            continue
        table = its_table(blocks, i)
        if table is not None:
            first = next(w for header in table.headers for w in writer._visible(header, writer.CELL_CHARS).split())
            if not any(line.font == look.head_font and look.is_cell(line) and line.text.split()[0] == first
                       for line in lines[at.last + 1:]):
                found.append(f"heading {text!r} on page {at.page + 1}, its table's header {first!r} on the next")
    return found


def blank_pages(pages: Sequence[Page]) -> list[str]:
    """The pages but the last whose text ends in the top quarter of the frame: three-quarters blank or more.

    (:mod:`exactodds.report.pdf` breaks no page by force, no cover or contents stands on a page of its own: every
    page but the last is held to this; :func:`test_the_story_breaks_no_page_by_force` keeps it so.)
    """
    found = []
    for number, page in enumerate(pages[:-1], 1):
        lowest = min((line.y for line in page.lines), default=page.top)
        if lowest > page.top - page.height / 4:
            found.append(f"page {number} is {(lowest - page.top + page.height) / page.height:.0%} blank")
    return found


# ---------------------------------------------------------------------------------------------------------------------
# The reports


@pytest.mark.parametrize("laid", CASES, indirect=True)
def test_no_word_of_a_table_is_broken(laid: Laid) -> None:
    """Every word of every table whole: the headers, the bets' and outcomes' ids (each printed in a table), the rest."""
    assert laid.ids <= set(table_words(laid.blocks))
    found = broken_words(laid.pages, laid.blocks, Look.of_writer())
    assert not found, "\n".join(found)


@pytest.mark.parametrize("laid", CASES, indirect=True)
def test_every_heading_is_on_the_page_of_its_table(laid: Laid) -> None:
    """Every heading of the blocks read back in order, none ending its page, each on the page of its table."""
    look = Look.of_writer()
    styles = writer._Styles.of(writer._fonts())
    contents = writer._contents(styles)[0].getPlainText()  # the contents' heading, not a block's
    shown = [s.text for s in shown_headings(laid.pages, look)]
    assert [" ".join(b.text.split()) for b in laid.blocks if isinstance(b, Heading)] == [
        s for s in shown if s != contents]  # the reading back finds every heading, and only them
    found = stranded_headings(laid.pages, laid.blocks, look)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("laid", CASES, indirect=True)
def test_no_page_but_the_last_is_three_quarters_blank(laid: Laid) -> None:
    """Every page but the last has text below the top quarter of its frame."""
    found = blank_pages(laid.pages)
    assert not found, "\n".join(found)


def _flowables(story: Sequence[Any]) -> Iterator[Any]:
    """Every flowable of a story, and those each holds."""
    for flowable in story:
        yield flowable
        yield from _flowables(getattr(flowable, "_content", ()))


@pytest.mark.parametrize("laid", CASES[:1], indirect=True)
def test_the_story_breaks_no_page_by_force(laid: Laid) -> None:
    """No page ends short on purpose (a page break after a cover or the contents): so every page is held to fill."""
    from reportlab.platypus import PageBreak

    styles = writer._Styles.of(writer._fonts())
    story = writer._story(list(laid.blocks), styles, page_width(), writer._contents(styles))
    assert not any(isinstance(f, PageBreak) for f in _flowables(story))


# ---------------------------------------------------------------------------------------------------------------------
# Each check fails on a PDF laid out badly on purpose (by the same writer, one of its rules undone)


@dataclass(frozen=True)
class Framed:
    """What :func:`exactodds.report.pdf.pdf` sets around the blocks (a :class:`~exactodds.report.document.Frame`)."""

    name: str = "Layout test"
    version: str = "0"
    stamp: str = "stamp"
    footer: str = "footer"
    author: str = ""


def page_width() -> float:
    """The width of a page's text (its frame), in points."""
    from reportlab.lib.pagesizes import A4

    left, right, _, _ = writer.MARGINS
    return float(A4[0] - left - right)


def frame_height() -> float:
    """The height of the story's frame on a page, in points (reportlab's frame pads each side by 6)."""
    from reportlab.lib.pagesizes import A4

    _, _, top, bottom = writer.MARGINS
    return A4[1] - top - bottom - 12


def height(block: Block) -> float:
    """How tall a block is laid out on a page's width."""
    width = page_width()
    return float(writer._flowable(block, writer._Styles.of(writer._fonts()), width).wrap(width, 10**6)[1])


def rows_to(tall: float, cells: Callable[[int], tuple[str, ...]], headers: tuple[str, ...]) -> Table:
    """A table of rows ``cells(i)``, the fewest that make it at least ``tall`` points high (rows of one height)."""
    def table(n: int) -> Table:
        return Table(headers, tuple(cells(i) for i in range(n)), "l" * len(headers))

    head, row = height(table(0)), height(table(1)) - height(table(0))
    return table(max(0, math.ceil((tall - head) / row)))


def lay_out(blocks: list[Block]) -> list[Page]:
    """The blocks laid out by :func:`exactodds.report.pdf.pdf`, read back."""
    return read(writer.pdf(Framed(), blocks))


CROWDED = Table(
    ("bet", "figure", "agrees", "source"),
    tuple((bet, figure, "yes", "Wizard of Odds, \"Baccarat Odds for 1 to 12 Decks\" (house edges, 8 and 6 decks;"
           " SDs, 8 decks), and a source long enough to take the width of the page from the other columns")
          for bet in ("player-pair", "banker-fortune-4-pair") for figure in ("house_edge", "probability")),
    "llll")


def test_the_word_check_finds_the_words_that_columns_too_narrow_break(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every column of text as narrow as the writer made them before (30 points, whatever the longest word): each
    word longer breaks, the check names it; with the writer's widths, nothing."""
    blocks: list[Block] = [Heading(1, "Cross-checks"), CROWDED]
    look = Look.of_writer()
    assert broken_words(lay_out(blocks), blocks, look) == []
    monkeypatch.setattr(writer, "_widths", lambda table, *_: [writer._MIN_COLUMN] * len(table.headers))
    found = broken_words(lay_out(blocks), blocks, look)
    for word in ("player-pair", "banker-fortune-4-pair", "house_edge", "probability", "agrees"):
        assert f"{word!r} is whole 0 times" in " ".join(found), word
    assert any("('house_edge' broken)" in f for f in found), found  # a line ends inside it, the next goes on


def test_the_page_check_finds_a_page_left_blank_by_a_table_kept_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A heading, its paragraph and a table nine tenths of a page high after a short opening: reportlab's KeepTogether
    alone moves them whole to the next page and leaves the first nearly blank, which the check names; the writer's
    keeper starts them on the first page."""
    from reportlab.platypus import KeepTogether

    # The heading, its paragraph and the table fit in a page's frame, but not under the opening.
    table = rows_to(frame_height() - 60, lambda i: (f"row {i}", "a cell"), ("row", "cell"))
    blocks: list[Block] = [Heading(1, "A short opening"), Para("One paragraph."), Heading(2, "A tall table"),
                           Para("Its paragraph."), table, Para("The end.")]
    assert blank_pages(lay_out(blocks)) == []
    monkeypatch.setattr(writer, "_keeper", lambda: KeepTogether)
    found = blank_pages(lay_out(blocks))
    assert len(found) == 1 and found[0].startswith("page 1 is 9"), found  # nine tenths blank, and more


@pytest.mark.parametrize("introduced", [False, True])
def test_the_heading_check_finds_a_heading_left_at_the_foot_of_a_page(monkeypatch: pytest.MonkeyPatch,
                                                                       introduced: bool) -> None:
    """A table that leaves some 70 points of the first page, then a heading (and a paragraph) over a table whose one
    row is taller than that: laid out with nothing kept together, the heading ends the first page (or its table is on
    the next), which the check names; the writer's keeper moves the heading to the table's page."""
    from reportlab.platypus import KeepTogether

    class Loose(KeepTogether):
        def split(self, aW: float, aH: float) -> list[Any]:  # noqa: N803 - reportlab's names
            this: Any = self  # (reportlab's own attributes are not in its stubs)
            return list(this._content)  # what it holds, laid out one by one: nothing kept together

    filler = rows_to(frame_height() - 100, lambda i: (f"row {i}",), ("filler",))
    note = " ".join(["a long note"] * 25)  # four columns of it: a row some ten lines high
    tall = Table(("outcome", "note", "more", "still more"), (("win", note, note, note),), "llll")
    assert height(tall) > 75  # taller than the room the filler leaves on the first page (some 60 to 75 points)
    blocks: list[Block] = [Heading(1, "Stranded"), filler, Heading(2, "The heading"),
                           *([Para("Its paragraph.")] if introduced else []), tall]
    look = Look.of_writer()
    assert stranded_headings(lay_out(blocks), blocks, look) == []
    monkeypatch.setattr(writer, "_keeper", lambda: Loose)
    said = ("heading 'The heading' on page 1, its table's header 'outcome' on the next" if introduced else
            "heading 'The heading' ends page 1")
    assert stranded_headings(lay_out(blocks), blocks, look) == [said]


@slow
def test_the_docs_count_the_pages_of_their_filing_example(tmp_path) -> None:
    """docs/report.md shows the first two pages of its filing example and says how many it has: the PDF its command
    writes, read back by pypdf, has that many."""
    import re
    import shlex

    text = (Path(__file__).resolve().parent.parent / "docs" / "report.md").read_text(encoding="utf-8")
    (command,) = re.findall(r"^\$ (exactodds report .*--output filing\.pdf)$", text, flags=re.M)
    words = shlex.split(command)
    words[-1] = str(tmp_path / "filing.pdf")
    assert CliRunner().invoke(cli, words[1:]).exit_code == 0
    pages = len(pypdf.PdfReader(str(tmp_path / "filing.pdf")).pages)
    assert f"Its first two pages ({pages} in all)" in text
