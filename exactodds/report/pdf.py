"""A document (the report, a review) as a PDF (reportlab: no browser needed), with the stamp in every page header and
the plots embedded.

Every text is data: :func:`_markup` is the one way a text becomes reportlab's Paragraph markup
(escaped, on one line, cut to a length a page can hold); a table's column is never narrower than
its longest word, so a word is not split across lines (but one of a table whose longest words,
side by side, are wider than the page).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from ..layout import one_line, plain_text
from ..plot import require
from .document import Block, Code, Frame, Heading, Image, Para, Table

_PADDING = 3  # points each side of a table cell's text
_MIN_COLUMN = 2 * _PADDING + 24  # the narrowest a column of text is made, in points (about six characters)
#: The most characters of a table cell, of a paragraph or heading, and of preformatted text (the hashed JSON) that
#: the PDF shows: a longer text is cut, with an ellipsis (a table's row cannot run over a page, a page holds about
#: 10,000 characters, and the HTML and Markdown reports hold the whole JSON).
CELL_CHARS, PARA_CHARS, CODE_CHARS = 300, 3000, 10_000
_MM = 72 / 25.4  # points in a millimetre (reportlab.lib.units.mm)
#: The A4 page's margins in points (left, right, top, bottom): the story's frame lies inside them, the stamp, the page
#: number and the footer outside.
MARGINS = (18 * _MM, 18 * _MM, 17 * _MM, 15 * _MM)


def _visible(text: str, limit: int, *, lines: bool = False) -> str:
    """The part of a text that the PDF shows: at most ``limit`` characters (cut with an ellipsis), on one line
    unless ``lines``.

    >>> _visible("a\\nb" + "c" * 10, 5)
    'a bc…'
    """
    text = plain_text(text) if lines else one_line(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _markup(text: str, limit: int = CELL_CHARS) -> str:
    """A text as Paragraph markup: :func:`_visible`, with ``& < > " '`` escaped (reportlab reads tags in it).

    >>> _markup("<b>bold?</b> & more")
    '&lt;b&gt;bold?&lt;/b&gt; &amp; more'
    """
    return escape(_visible(text, limit))


def _fonts() -> tuple[str, str, str]:
    """Register DejaVu Sans (shipped with matplotlib, the plots' font) so every sign (√ Σ ∞ −) has a glyph."""
    matplotlib = require("matplotlib")
    pdfmetrics = require("reportlab.pdfbase.pdfmetrics")
    ttfonts = require("reportlab.pdfbase.ttfonts")
    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    names = ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono")
    for name in names:
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(ttfonts.TTFont(name, str(folder / f"{name}.ttf")))
    return names


def pdf(frame: Frame, blocks: list[Block]) -> bytes:
    """The blocks as an A4 PDF document."""
    require("reportlab")
    from reportlab import rl_config
    from reportlab.lib.pagesizes import A4

    # Images kept as compressed binary, not ASCII85 text: a quarter smaller, and without the encoding that reportlab
    # does in Python (unless its optional C accelerator is installed) once a pass, three passes for the contents.
    rl_config.useA85 = 0
    left, right, top, bottom = MARGINS
    styles = _Styles.of(_fonts())
    sections = sum(1 for b in blocks if isinstance(b, Heading) and b.level == 2)
    contents = _contents(styles) if sections >= _CONTENTS_FROM else None
    story = _story(blocks, styles, A4[0] - left - right, contents)
    buffer = io.BytesIO()
    title = _visible(next((b.text for b in blocks if isinstance(b, Heading)), frame.name), CELL_CHARS)
    document = _outlined()(
        buffer, pagesize=A4, leftMargin=left, rightMargin=right, topMargin=top, bottomMargin=bottom,
        title=title, author=_visible(frame.author, CELL_CHARS), subject=frame.stamp,
        creator=f"exactodds {frame.version}",
        invariant=1,
    )
    page = _page_frame(frame, styles.regular)
    if contents is None:
        document.build(story, onFirstPage=page, onLaterPages=page)
    else:  # a second pass writes the contents' page numbers, known once the first has laid the pages out
        document.multiBuild(story, onFirstPage=page, onLaterPages=page)
    return buffer.getvalue()


#: A document of at least this many sections opens with its contents (each section and its page).
_CONTENTS_FROM = 3


def _contents(styles: _Styles) -> list[Any]:
    """The contents' heading and table (reportlab's, filled by :func:`_outlined`'s hook with each section's page)."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph
    from reportlab.platypus.tableofcontents import TableOfContents

    table = TableOfContents()
    table.levelStyles = [ParagraphStyle("contents0", fontName=styles.regular, fontSize=9, leading=11.5)]
    heading = ParagraphStyle("contents", parent=styles.headings[2])  # not a section itself: no entry of its own
    return [Paragraph("Contents", heading), table]


def _outlined() -> Any:
    """reportlab's page template with the PDF's bookmarks: every heading an entry of the outline a viewer shows beside
    the pages (the title, each section, each bet's figures), opened at the first level."""
    from reportlab.platypus import SimpleDocTemplate

    class Outlined(SimpleDocTemplate):
        def beforeDocument(self) -> None:  # noqa: N802 - reportlab's hook: each pass numbers its entries afresh
            self._entries, self._last_level = 0, -1

        def afterFlowable(self, flowable: Any) -> None:  # noqa: N802 - reportlab's hook
            name = getattr(getattr(flowable, "style", None), "name", "")
            if name not in _HEADING_LEVELS:
                return
            entries = getattr(self, "_entries", 0)
            self._entries = entries + 1
            last = getattr(self, "_last_level", -1)
            level = min(_HEADING_LEVELS[name], last + 1)  # an outline may not skip a level
            self._last_level = level
            key = f"h{entries}"
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(flowable.getPlainText(), key, level=level, closed=level > 0)
            if name == "h2":  # a section: a line of the contents, with its page (its text escaped: it is markup there)
                self.notify("TOCEntry", (0, _markup(flowable.getPlainText(), PARA_CHARS), self.page, key))

    return Outlined


#: The headings' paragraph styles, by the outline level each is at.
_HEADING_LEVELS = {"h1": 0, "h2": 1, "h3": 2}



@dataclass(frozen=True)
class _Styles:
    """The fonts and paragraph styles of the PDF: body text, table cells and headers, code, headings by level."""

    regular: str
    bold: str
    body: Any
    cell: Any
    cell_right: Any
    head: Any
    code: Any
    headings: dict[int, Any]

    def cells(self, size: float) -> tuple[Any, Any, Any]:
        """The styles of a table's cells (aligned left, right) and headers at ``size`` points (:data:`_CELL_SIZES`)."""
        from reportlab.lib.styles import ParagraphStyle

        if size == self.cell.fontSize:
            return self.cell, self.cell_right, self.head
        leading = size * self.cell.leading / self.cell.fontSize
        cell, right, head = (ParagraphStyle(f"{style.name}{size:g}", parent=style, fontSize=size, leading=leading)
                             for style in (self.cell, self.cell_right, self.head))
        return cell, right, head

    @classmethod
    def of(cls, fonts: tuple[str, str, str]) -> _Styles:
        """The styles in the fonts (regular, bold, monospaced) of :func:`_fonts`."""
        from reportlab.lib import colors
        from reportlab.lib.styles import ParagraphStyle

        regular, bold, mono = fonts
        cell = ParagraphStyle("cell", fontName=regular, fontSize=_CELL_SIZES[0], leading=8.5)
        return cls(
            regular,
            bold,
            body=ParagraphStyle("body", fontName=regular, fontSize=9, leading=11.5, spaceAfter=5),
            cell=cell,
            cell_right=ParagraphStyle("cellr", parent=cell, alignment=2),
            head=ParagraphStyle("head", parent=cell, fontName=bold),
            code=ParagraphStyle("code", fontName=mono, fontSize=6.5, leading=8, wordWrap="CJK",
                                backColor=colors.HexColor("#f4f4f4"), borderPadding=3, spaceAfter=6, spaceBefore=2),
            headings={
                1: ParagraphStyle("h1", fontName=bold, fontSize=15, leading=19, spaceAfter=8),
                2: ParagraphStyle("h2", fontName=bold, fontSize=12, leading=15, spaceBefore=10, spaceAfter=5),
                3: ParagraphStyle("h3", fontName=bold, fontSize=9.5, leading=12, spaceBefore=6, spaceAfter=3),
            },
        )


def _story(blocks: list[Block], styles: _Styles, width: float, contents: list[Any] | None = None) -> list[Any]:
    """The blocks as reportlab flowables, ``width`` points wide; a heading is kept on the page of what follows it, up to
    its first table (:func:`_keeper`)."""
    from reportlab.platypus import Paragraph

    keep = _keeper()
    story: list[Any] = []
    # A heading is kept on one page with what follows it: its paragraphs and the table, code or image after them
    # (a heading never ends a page, nor a paragraph that introduces a table stands apart from it).
    pending: list[Any] = []
    texts = 0
    for block in blocks:
        if isinstance(block, Heading):
            if texts:  # a heading over paragraphs alone, then this one: those kept together, this one anew
                story.append(keep(pending))
                pending, texts = [], 0
            if contents is not None and block.level == 2:  # the contents, before the first section
                if pending:
                    story.append(keep(pending))
                    pending, texts = [], 0
                story += contents
                contents = None
            pending.append(Paragraph(_markup(block.text, PARA_CHARS), styles.headings[block.level]))
            continue
        flowable = _flowable(block, styles, width)
        if pending and isinstance(block, Para) and texts < 3:
            pending.append(flowable)
            texts += 1
        elif pending:
            story.append(keep([*pending, flowable]))
            pending, texts = [], 0
        else:
            story.append(flowable)
    return story + ([keep(pending)] if pending else [])


#: A heading moves to the next page with what it introduces only when at most this share of the page's frame is left
#: (the page at least half full); with more room, it starts there, and the table after it runs over.
_MOVE_WITHIN = 0.5
_SLACK = 12.0  # points the first part of what a heading introduces must fit within, to spare


def _keeper() -> Any:
    """reportlab's KeepTogether (a heading and what it introduces, moved to the next page whole when they do not fit),
    but that on a page with more than :data:`_MOVE_WITHIN` of its frame left, they start here (the heading, its
    paragraphs, the first rows of the table after them) rather than leave the page that blank."""
    from reportlab.platypus import KeepTogether
    from reportlab.platypus.flowables import _listWrapOn  # type: ignore[attr-defined] # (not in the stubs)

    def starts(flowable: Any, width: float, room: float, canvas: Any) -> bool:
        """Whether a flowable's first part fits in ``room``: a table's first rows, a paragraph's first lines, a plot
        and its caption (kept together) whole."""
        if room <= 0:
            return False
        kept: Any = flowable  # (reportlab's own attributes are not in its stubs)
        if isinstance(flowable, KeepTogether):
            return bool(_listWrapOn(kept._content, width, canvas)[1] <= room)
        if flowable.wrapOn(canvas, width, room)[1] <= room:
            return True
        return bool(flowable.splitOn(canvas, width, room))

    class Keeper(KeepTogether):
        def split(self, aW: float, aH: float) -> list[Any]:  # noqa: N803 - reportlab's names
            if getattr(self, "_wrapInfo", None) != (aW, aH):
                self.wrap(aW, aH)
            this: Any = self  # (reportlab's own attributes are not in its stubs)
            frame, content = getattr(self, "_frame", None), list(this._content)
            if this._H > aH and frame is not None and aH > frame._height * _MOVE_WITHIN and len(content) > 1:
                lead = _listWrapOn(content[:-1], aW, self.canv)[1]
                if starts(content[-1], aW, aH - lead - content[-1].getSpaceBefore() - _SLACK, self.canv):
                    return content
            return list(super().split(aW, aH))

    return Keeper


def _flowable(block: Block, styles: _Styles, width: float) -> Any:
    """One block other than a heading (a paragraph, code, a table or an image) as a reportlab flowable."""
    from reportlab.lib import colors
    from reportlab.platypus import Image as PdfImage
    from reportlab.platypus import KeepTogether, Paragraph, Spacer
    from reportlab.platypus import Table as PdfTable

    if isinstance(block, Para):
        return Paragraph(_markup(block.text, PARA_CHARS), styles.body)
    if isinstance(block, Code):
        return Paragraph(escape(_visible(block.text, CODE_CHARS, lines=True)), styles.code)
    if isinstance(block, Table):
        measures = _measures(block, styles.regular, styles.bold, width)
        size = next((s for s in _CELL_SIZES if sum(_least(m, s) for m in measures) <= width), _CELL_SIZES[-1])
        cell, cell_right, head = styles.cells(size)
        rows = [[Paragraph(_markup(h), head) for h in block.headers]]
        for row in block.rows:
            rows.append([
                Paragraph(_markup(c), cell_right if a == "r" else cell)
                for c, a in zip(row, block.align.ljust(len(row), "l"))
            ])
        widths = _widths(block, measures, width, size)
        table = PdfTable(rows, repeatRows=1, colWidths=widths, hAlign="LEFT")
        table.setStyle([
            ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#aaaaaa")),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ("LEFTPADDING", (0, 0), (-1, -1), _PADDING),
            ("RIGHTPADDING", (0, 0), (-1, -1), _PADDING),
        ])
        return table
    assert isinstance(block, Image), block
    image = PdfImage(io.BytesIO(block.data))
    scale = width / image.imageWidth
    image.drawWidth, image.drawHeight = width, image.imageHeight * scale
    said = f"Alone: {block.command}" if block.command else block.caption
    return KeepTogether([image, Paragraph(_markup(said), styles.cell), Spacer(1, 4)])


def _page_frame(frame: Frame, font: str) -> Callable[[Any, Any], None]:
    """What every page draws around its story: the stamp and the page number on top, the frame's footer (the report's
    shoe and rules) below."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm

    footer = frame.footer

    def page(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(font, 7)
        canvas.setFillColor(colors.HexColor("#444444"))
        canvas.drawString(18 * mm, A4[1] - 11 * mm, _visible(f"{frame.name} · {frame.stamp}", 150))
        canvas.drawRightString(A4[0] - 18 * mm, A4[1] - 11 * mm, f"page {doc.page}")
        canvas.line(18 * mm, A4[1] - 12.5 * mm, A4[0] - 18 * mm, A4[1] - 12.5 * mm)
        canvas.drawString(18 * mm, 9 * mm, _visible(footer, 150))
        canvas.restoreState()

    return page


#: The font sizes of a table's cells: the first at which the longest word of each column fits beside the others' (no
#: word broken across lines), down to the last (then the longest words are split).
_CELL_SIZES = (7.0, 6.5, 6.0, 5.5, 5.0)


_PAD = 2 * _PADDING + 1.5  # a column's width over its text's: the padding, and a point and a half to spare


@dataclass(frozen=True)
class _Measure:
    """A column's text at a font size of one point: its widest cell and its longest word (the header's in bold, which
    wraps at its spaces), of those a page holds at the smallest size (a longer one is split whatever the size)."""

    widest: float
    longest: float


def _measures(table: Table, font: str, bold: str, width: float) -> list[_Measure]:
    """Each column's :class:`_Measure` in a table ``width`` points wide at most."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    most = (width - _PAD) / _CELL_SIZES[-1]  # the widest word a page holds, at one point
    measures = []
    for i, header in enumerate(table.headers):
        cells = [_visible(r[i], CELL_CHARS) for r in table.rows]
        heads = [stringWidth(w, bold, 1) for w in _visible(header, CELL_CHARS).split()]
        words = [stringWidth(w, font, 1) for c in cells for w in c.split()]
        measures.append(_Measure(max([*(stringWidth(c, font, 1) for c in cells), *heads, 0.0]),
                                 max([w for w in (*words, *heads) if w <= most], default=0.0)))
    return measures


def _natural(measure: _Measure, size: float) -> float:
    """A column's width at ``size`` points with no cell wrapped (a header wraps at its spaces)."""
    return max(measure.widest * size, 12.0) + _PAD


def _least(measure: _Measure, size: float) -> float:
    """The narrowest a column is made at ``size`` points: its longest word, and :data:`_MIN_COLUMN` unless its widest
    cell is narrower."""
    return max(measure.longest * size + _PAD, min(_natural(measure, size), _MIN_COLUMN))


def _widths(table: Table, measures: list[_Measure], width: float, size: float) -> list[float]:
    """Column widths: each column as wide as its longest cell (a header may wrap at its spaces); when the whole is
    too wide, the text columns (aligned left, which wrap) give up the room, then the numbers (at their spaces), each
    column kept as wide as its longest word, which is never broken (unless the longest words side by side are wider
    than the page)."""
    natural = [min(_natural(m, size), width) for m in measures]
    if sum(natural) <= width:
        return natural
    least = _fitted([_least(m, size) for m in measures], width)
    align = table.align.ljust(len(natural), "l")
    text = [i for i, a in enumerate(align) if a == "l"]
    room = width - sum(n for i, n in enumerate(natural) if i not in text)
    if text and sum(least[i] for i in text) <= room:
        return _share(natural, least, text, room)
    if sum(least) <= width:
        return _share(natural, least, list(range(len(natural))), width)
    return [n * width / sum(least) for n in least]  # too many columns for their longest words: those are cut


def _fitted(least: list[float], width: float) -> list[float]:
    """The columns' least widths, the widest cut down until they fit side by side in ``width``, none below
    :data:`_MIN_COLUMN`: a word wider than what the other columns leave (a long exact fraction) is split, so that
    theirs are not.

    >>> _fitted([1200.0, 40.0, 60.0], 480.0)
    [380.0, 40.0, 60.0]
    """
    fitted = list(least)
    for i in sorted(range(len(fitted)), key=lambda i: -fitted[i]):
        over = sum(fitted) - width
        if over <= 0:
            break
        fitted[i] = max(fitted[i] - over, min(fitted[i], _MIN_COLUMN))
    return fitted


def _share(natural: list[float], least: list[float], columns: list[int], room: float) -> list[float]:
    """The widths with ``columns`` filling ``room`` in proportion to their natural widths, but none narrower than its
    ``least`` (its longest word: a very long text would leave the others no room, they keep that much and it wraps).

    >>> _share([100.0, 1000.0, 50.0], [30.0, 30.0, 50.0], [0, 1], 400.0)
    [36.36..., 363.63..., 50.0]
    >>> _share([60.0, 2000.0], [50.0, 30.0], [0, 1], 400.0)
    [50.0, 350.0]
    """
    widths = list(natural)
    free = list(columns)
    while free:
        left = room - sum(widths[i] for i in columns if i not in free)
        scale = left / sum(natural[i] for i in free)
        narrow = [i for i in free if natural[i] * scale < least[i]]
        if not narrow:
            for i in free:
                widths[i] = natural[i] * scale
            break
        for i in narrow:
            widths[i] = least[i]
            free.remove(i)
    return widths
