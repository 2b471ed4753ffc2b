"""The report as a PDF (reportlab: no browser needed), with the stamp in every page header and the plots embedded."""

from __future__ import annotations

import io
from html import escape
from pathlib import Path
from typing import Any

from ..plot import require
from ..render import shoe_rules_header
from .document import Block, Code, Heading, Image, Para, Table
from .model import Report

_PADDING = 3  # points each side of a table cell's text


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


def pdf(report: Report, blocks: list[Block]) -> bytes:
    """The blocks as an A4 PDF document."""
    require("reportlab")
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Image as PdfImage
    from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer
    from reportlab.platypus import Table as PdfTable

    regular, bold, mono = _fonts()
    body = ParagraphStyle("body", fontName=regular, fontSize=9, leading=11.5, spaceAfter=5)
    cell = ParagraphStyle("cell", fontName=regular, fontSize=7, leading=8.5)
    cell_right = ParagraphStyle("cellr", parent=cell, alignment=2)
    head = ParagraphStyle("head", parent=cell, fontName=bold)
    code = ParagraphStyle("code", fontName=mono, fontSize=6.5, leading=8, wordWrap="CJK",
                          backColor=colors.HexColor("#f4f4f4"), borderPadding=3, spaceAfter=6, spaceBefore=2)
    headings = {
        1: ParagraphStyle("h1", fontName=bold, fontSize=15, leading=19, spaceAfter=8),
        2: ParagraphStyle("h2", fontName=bold, fontSize=12, leading=15, spaceBefore=10, spaceAfter=5),
        3: ParagraphStyle("h3", fontName=bold, fontSize=9.5, leading=12, spaceBefore=6, spaceAfter=3),
    }
    width = A4[0] - 36 * mm
    story: list[Any] = []
    pending: list[Any] = []  # a heading is kept with what follows it
    for block in blocks:
        flowable: Any
        if isinstance(block, Heading):
            pending.append(Paragraph(escape(block.text), headings[block.level]))
            continue
        if isinstance(block, Para):
            flowable = Paragraph(escape(block.text), body)
        elif isinstance(block, Code):
            flowable = Paragraph(escape(block.text), code)
        elif isinstance(block, Table):
            rows = [[Paragraph(escape(h), head) for h in block.headers]]
            for row in block.rows:
                rows.append([
                    Paragraph(escape(c), cell_right if a == "r" else cell)
                    for c, a in zip(row, block.align.ljust(len(row), "l"))
                ])
            flowable = PdfTable(rows, repeatRows=1, colWidths=_widths(block, width, regular, bold, 7), hAlign="LEFT")
            flowable.setStyle([
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#aaaaaa")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ("LEFTPADDING", (0, 0), (-1, -1), _PADDING),
                ("RIGHTPADDING", (0, 0), (-1, -1), _PADDING),
            ])
        elif isinstance(block, Image):
            image = PdfImage(io.BytesIO(block.data))
            scale = width / image.imageWidth
            image.drawWidth, image.drawHeight = width, image.imageHeight * scale
            flowable = KeepTogether([image, Paragraph(escape(f"Alone: {block.command}"), cell), Spacer(1, 4)])
        if pending:
            story.append(KeepTogether([*pending, flowable]))
            pending = []
        else:
            story.append(flowable)
    story += pending

    footer = shoe_rules_header(report.shoe, report.rules)

    def page(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(regular, 7)
        canvas.setFillColor(colors.HexColor("#444444"))
        canvas.drawString(18 * mm, A4[1] - 11 * mm, f"Math report · {report.stamp}")
        canvas.drawRightString(A4[0] - 18 * mm, A4[1] - 11 * mm, f"page {doc.page}")
        canvas.line(18 * mm, A4[1] - 12.5 * mm, A4[0] - 18 * mm, A4[1] - 12.5 * mm)
        canvas.drawString(18 * mm, 9 * mm, footer[:150])
        canvas.restoreState()

    buffer = io.BytesIO()
    title = next((b.text for b in blocks if isinstance(b, Heading)), "Math report")
    document = SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm, topMargin=17 * mm, bottomMargin=15 * mm,
        title=title, author=f"exactodds {report.version}", subject=report.stamp, creator=f"exactodds {report.version}",
        invariant=1,
    )
    document.build(story, onFirstPage=page, onLaterPages=page)
    return buffer.getvalue()


def _widths(table: Table, width: float, font: str, bold: str, size: float) -> list[float]:
    """Column widths: each column as wide as its longest cell (a header may wrap at its spaces); when the whole is
    too wide, the text columns (aligned left, which wrap) give up the room, and the numbers keep theirs."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    pad = 2 * _PADDING + 1.5
    natural = []
    for i, header in enumerate(table.headers):
        cells = [stringWidth(r[i], font, size) for r in table.rows]
        words = [stringWidth(w, bold, size) for w in header.split()]
        natural.append(max([*cells, *words, 12.0]) + pad)
    total = sum(natural)
    if total <= width:
        return natural
    align = table.align.ljust(len(natural), "l")
    text = [i for i, a in enumerate(align) if a == "l"]
    fixed = sum(n for i, n in enumerate(natural) if i not in text)
    room = width - fixed
    flexible = sum(natural[i] for i in text)
    if text and room > 40 * len(text):
        return [n * room / flexible if i in text else n for i, n in enumerate(natural)]
    return [n * width / total for n in natural]
