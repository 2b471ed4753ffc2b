"""The report as an XLSX workbook (openpyxl): a summary sheet, a sheet per bet, the mix, exposure, rules, checks, stamp.

Each exact value is written twice, side by side: as a number a spreadsheet can compute with
(the float nearest the exact rational, written with every digit it needs to read back as that
float) and as text ``n/d``, exact. Counts beyond 15 digits lose digits in a spreadsheet's
number, so the text column is the count of record. Every text is a string cell, never a
formula, whatever it starts with: user text is data (see :func:`_put`).
"""

from __future__ import annotations

import io
import re
from fractions import Fraction
from typing import Any

from ..cards import RANKS
from ..exact import fraction_text, grouped, short_text
from ..layout import one_line
from ..plot import require
from ..present import shoe_rules_header
from .checks import counting_text
from .document import Table, chart_blocks, check_blocks, exposure_blocks, rules_blocks
from .holdbounds import HoldBounds
from .holdlaw import HoldAfter
from .lab import FIELDS, SORT_HEADERS
from .model import Report
from .sheet import BAND_LEVEL, Z_SCORES, Band, BetSheet, root

PERCENT = "0.0000%"
LONG = "0.0000000000"
SHORT = "0.0000"
COUNT = "#,##0"
#: The most characters a cell holds (the spreadsheets' limit): a longer text is cut, with an ellipsis.
MAX_CELL = 32_767
_EXACT_INT = 2**53  # a larger integer is not a double: it is written as the nearest one


def _put(cell: Any, value: str | int | float) -> None:
    """Put a value in a cell: a text as a string cell, never a formula; a number as the double it is, exactly.

    openpyxl makes a text that starts with ``=`` a live formula, and writes a number with 16
    significant digits, which is not always the same double: both are set here instead, a
    text as type ``s`` (on one line, without control characters, at most :data:`MAX_CELL`
    characters), a number as the shortest decimal that reads back as the same double.
    """
    if isinstance(value, str):
        text = one_line(value)
        cell.value = text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"
        cell.data_type = "s"
    else:
        exact = isinstance(value, int) and abs(value) < _EXACT_INT
        cell.value = str(value) if exact else repr(float(value))
        cell.data_type = "n"


def _sheet_name(text: str, taken: set[str]) -> str:
    """A sheet name unused so far: at most 31 characters, none of ``[ ] : * ? / \\`` (nor a quote at either end)."""
    name = re.sub(r"[\[\]:*?/\\]", "-", one_line(text))[:31].strip("'") or "sheet"
    base, n = name, 2
    while name.lower() in taken:
        suffix = f"~{n}"
        name, n = base[: 31 - len(suffix)] + suffix, n + 1
    taken.add(name.lower())
    return name


class _Writer:
    """Rows into one worksheet, keeping track of the widest text of each column."""

    def __init__(self, sheet: Any) -> None:
        self.sheet = sheet
        self.row = 1
        self.widths: dict[int, int] = {}

    def put(self, values: list[Any], formats: list[str | None] | None = None, *, bold: bool = False) -> None:
        from openpyxl.styles import Font, PatternFill

        for column, value in enumerate(values, 1):
            if value is None:
                continue
            c = self.sheet.cell(row=self.row, column=column)
            _put(c, value)
            if formats and column <= len(formats) and formats[column - 1]:
                c.number_format = formats[column - 1]
            if bold:
                c.font = Font(bold=True)
                c.fill = PatternFill("solid", fgColor="EEEEEE")
            shown = len(str(value)) if not isinstance(value, float) else 14
            self.widths[column] = max(self.widths.get(column, 0), min(shown, 60))
        self.row += 1

    def skip(self) -> None:
        self.row += 1

    def finish(self, freeze: str | None = None) -> None:
        from openpyxl.utils import get_column_letter

        for column, width in self.widths.items():
            self.sheet.column_dimensions[get_column_letter(column)].width = width + 2
        if freeze:
            self.sheet.freeze_panes = freeze


def _exact(value: Fraction) -> list[Any]:
    return [float(value), fraction_text(value)]


def _band_rows(w: _Writer, bands: tuple[Band, ...]) -> None:
    w.put(["hands n", "mean hold", "mean hold exact", "SD of hold (SD/√n)", f"{BAND_LEVEL}% band low",
           f"{BAND_LEVEL}% band high"], bold=True)
    for b in bands:
        sd = float(root(b.variance / b.hands))
        w.put([b.hands, float(b.edge), fraction_text(b.edge), sd, float(b.low), float(b.high)],
              [COUNT, PERCENT, None, PERCENT, PERCENT, PERCENT])


SUMMARY_HEADERS = [
    "bet", "description", "top pay", "house edge/hand", "house edge exact", "per resolved bet", "per resolved exact",
    "EV", "EV exact", "RTP", "RTP exact", "hit frequency", "hit frequency exact", "variance", "variance exact", "SD",
    *(f"VI {lv}%" for lv in Z_SCORES), "top award probability", "top award exact", "top award 1 in N",
    "GLI-11 once in 10^8",
]


#: The summary's columns with a rebate, after the house edge.
REBATE_HEADERS = ["house edge with rebate", "house edge with rebate exact", "effective stake", "effective stake exact"]


def xlsx(report: Report) -> bytes:
    """The workbook's bytes."""
    openpyxl = require("openpyxl")
    book = openpyxl.Workbook()
    taken: set[str] = set()
    summary = book.active
    summary.title = _sheet_name("Summary", taken)
    w = _Writer(summary)
    rebate = report.analysis.rebate is not None
    headers = SUMMARY_HEADERS + (["min RTP met"] if report.min_rtp is not None else [])
    if rebate:  # beside the house edge
        headers = [*headers[:5], *REBATE_HEADERS, *headers[5:]]
    w.put(headers, bold=True)
    for s in report.sheets:
        f = s.figures
        resolved = f.house_edge_per_resolved_bet
        top = s.top_award
        row: list[Any] = [
            s.bet.id, s.bet.description, top.pays, *_exact(f.house_edge),
            *(_exact(resolved) if resolved is not None else [None, "—"]), *_exact(f.ev), *_exact(s.rtp),
            *_exact(f.hit_frequency), *_exact(f.variance), float(root(f.variance)),
            *(float(z * root(f.variance)) for z in Z_SCORES.values()), *_exact(top.probability),
            float(1 / top.probability) if top.probability else None, "yes" if s.top_award_meets_gli else "no",
        ]
        if report.min_rtp is not None:
            row.append("BELOW" if s.below_min_rtp else "met")
        formats: list[str | None] = [None, None, None, PERCENT, None, PERCENT, None, LONG, None, PERCENT, None,
                                     PERCENT, None, LONG, None, SHORT, SHORT, SHORT, SHORT, LONG, None, "#,##0.00",
                                     None]
        rebated = s.rebated
        if rebated is not None:
            row[5:5] = [*_exact(rebated.house_edge), *_exact(rebated.effective_stake)]
            formats[5:5] = [PERCENT, None, LONG, None]
        w.put(row, formats)
    w.skip()
    w.put([shoe_rules_header(report.shoe, report.rules)])
    w.put([report.stamp])
    w.finish("B2")
    for s in report.sheets:
        _bet_sheet(book.create_sheet(_sheet_name(s.bet.id, taken)), s)
    if report.mix is not None:
        _mix_sheet(book.create_sheet(_sheet_name("Mix", taken)), report)
    if report.lab is not None:
        _lab_sheet(book.create_sheet(_sheet_name("Advantage play", taken)), report)
    if report.exposure is not None:
        _exposure_sheet(book.create_sheet(_sheet_name("Exposure", taken)), report)
    if report.analysis.chart is not None:
        _table_sheet(book.create_sheet(_sheet_name("Chart", taken)), chart_blocks(report))
    _table_sheet(book.create_sheet(_sheet_name("Rules", taken)), rules_blocks(report))
    _table_sheet(book.create_sheet(_sheet_name("Cross-checks", taken)), check_blocks(report))
    _about_sheet(book.create_sheet(_sheet_name("Reproducibility", taken)), report)
    book.properties.creator = report.author
    book.properties.title = report.title
    fixed = __import__("datetime").datetime(2000, 1, 1)  # no clock in the file: the same report, the same bytes
    book.properties.created = book.properties.modified = fixed
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _bet_sheet(sheet: Any, s: BetSheet) -> None:
    f = s.figures
    w = _Writer(sheet)
    w.put(["outcome", "event", "net pay", "net pay exact", "count", "count (number)", "probability",
           "probability exact", "1 in N", "return", "return exact"], bold=True)
    for o in f.outcomes:
        w.put([o.outcome.id, o.outcome.event.name, *_exact(o.outcome.net), str(o.count), o.count,
               *_exact(o.probability), float(1 / o.probability) if o.count else None, *_exact(o.contribution)],
              [None, None, SHORT, None, None, COUNT, LONG, None, "#,##0.00", LONG, None])
    w.skip()
    w.put(["figure", "value", "exact"], bold=True)
    resolved = f.house_edge_per_resolved_bet
    rows: list[tuple[str, Fraction | None, str | None]] = [
        ("EV per unit staked", f.ev, LONG), ("house edge per hand", f.house_edge, PERCENT),
        ("house edge per resolved bet", resolved, PERCENT), ("RTP", s.rtp, PERCENT),
        ("hit frequency", f.hit_frequency, PERCENT), ("variance", f.variance, LONG),
        ("top award probability", s.top_award.probability, LONG),
    ]
    rebated = s.rebated
    if rebated is not None:
        rows[3:3] = [(f"effective stake per unit bet ({rebated.rebate.basis} basis)", rebated.effective_stake, LONG),
                     (f"EV with the {rebated.rebate.text()}", rebated.ev_with_rebate, LONG),
                     ("house edge with the rebate", rebated.house_edge, PERCENT)]
    for label, value, fmt in rows:
        w.put([label, *(_exact(value) if value is not None else [None, "—"])], [None, fmt])
    w.put(["standard deviation", float(root(f.variance)), "√variance"], [None, LONG])
    for level, z in Z_SCORES.items():
        w.put([f"volatility index {level}%", float(z * root(f.variance)), f"{short_text(z)}·SD"], [None, SHORT])
    w.put(["GLI-11: top award once in 100 million", "yes" if s.top_award_meets_gli else "no"])
    if s.min_rtp is not None:
        w.put([f"minimum RTP {fraction_text(s.min_rtp)}", "BELOW" if s.below_min_rtp else "met"])
    w.skip()
    w.put([f"Hold after n hands: {BAND_LEVEL}% band by the normal approximation, exact mean and SD"])
    _band_rows(w, s.bands)
    _law_rows(w, s.laws_after)
    w.finish("A2")


def _law_rows(w: _Writer, laws: tuple[HoldAfter | HoldBounds, ...]) -> None:
    """The law of the hold after n hands: the exact (or 10^-50) figures, then the bounded ones, low and high."""
    values = [law for law in laws if isinstance(law, HoldAfter)]
    if values:
        w.skip()
        w.put(["Hold after n hands: its law (the casino behind; the hold at each percentile)"])
        levels = [level for level, _ in values[0].percentiles]
        w.put(["hands n", "casino behind", "casino behind exact", *(f"{level}%" for level in levels), "method"],
              bold=True)
        for law in values:
            behind = law.behind
            w.put([law.hands, float(behind), fraction_text(behind) if isinstance(behind, Fraction) else str(behind),
                   *(float(h) for _, h in law.percentiles), law.method],
                  [COUNT, LONG, None, *([PERCENT] * len(levels))])
    bounds = [law for law in laws if isinstance(law, HoldBounds)]
    if bounds:
        w.skip()
        w.put(["Hold after n hands: bounds that hold the exact law (the normal law ± Berry–Esseen's ε; Chernoff's bound"
               " in the tails), their ends rounded outward"])
        w.put(["figure", *(f"n = {grouped(b.hands)} {end}" for b in bounds for end in ("from", "to"))], bold=True)
        formats = [None, *([LONG] * 2 * len(bounds))]
        w.put(["Berry–Esseen ε", *(float(b.epsilon) for b in bounds for _ in "ab")], formats)
        w.put(["casino behind", *(float(x) for b in bounds for x in b.behind)], formats)
        for i, (level, _, _) in enumerate(bounds[0].percentiles):
            w.put([f"{level}% hold", *(float(x) for b in bounds for x in b.percentiles[i][1:])],
                  [None, *([PERCENT] * 2 * len(bounds))])


def _mix_sheet(sheet: Any, report: Report) -> None:
    mix = report.mix
    assert mix is not None
    w = _Writer(sheet)
    title = "house edge" + ("" if mix.rebate is None else " with the rebate")
    w.put(["bet", "share of hands", "share exact", title, f"{title} exact"], bold=True)
    for (bet_id, weight), edge in zip(mix.mix.weights, mix.edges):  # with the rebate, if any
        w.put([bet_id, *_exact(weight), *_exact(edge)], [None, PERCENT, None, PERCENT])
    w.skip()
    w.put(["Model: one bet per hand, chosen by the mix independently of the cards"
           + ("." if mix.rebate is None else f"; every figure with the {mix.rebate.text()}, paid hand by hand.")])
    w.put(["blended hold", *_exact(mix.house_edge)], [None, PERCENT])
    w.put(["variance per hand", *_exact(mix.variance)], [None, LONG])
    w.skip()
    _band_rows(w, mix.bands)
    w.finish("A2")


def _lab_sheet(sheet: Any, report: Report) -> None:
    """A row per strategy and bet: the lab's figures as numbers (from simulate's JSON strings), the edge exact."""
    lab = report.lab
    assert lab is not None
    w = _Writer(sheet)
    w.put(["strategy", "bet", *(label for _, label in FIELDS), "house edge without a count",
           "house edge without a count exact"], bold=True)
    for strategy, bet in lab.play:
        cells = lab.values(strategy, bet)
        numbers = [None if cells[key] is None else float(cells[key]) for key, _ in FIELDS]
        edge = lab.play[(strategy, bet)].house_edge
        w.put([strategy, bet, *numbers, *(_exact(edge) if edge is not None else [None, "—"])],
              [None, None, *(["0.000000"] * len(FIELDS)), PERCENT])
    w.skip()
    w.put([lab.note])
    if lab.left_out:
        w.put([f"Not simulated (the lab deals coup states): {', '.join(lab.left_out)}."])
    w.finish("C2")


def _exposure_sheet(sheet: Any, report: Report) -> None:
    """The advantage-play exposure as the document gives it, but for the edge-sorting edges: numbers, each with its
    exact fraction beside it."""
    found = report.exposure
    assert found is not None
    w = _Writer(sheet)
    first, four = SORT_HEADERS[1:]
    for block in exposure_blocks(report):
        if not (isinstance(block, Table) and block.headers == SORT_HEADERS):
            _table_rows(w, [block])
            continue
        w.put(["bet", first, f"{first} exact", four, f"{four} exact"], bold=True)
        for e in found.sorting:
            w.put([e.bet, *_exact(e.first), *_exact(e.four)], [None, PERCENT, None, PERCENT])
        w.skip()
    w.finish()


def _table_sheet(sheet: Any, blocks: list[Any]) -> None:
    w = _Writer(sheet)
    _table_rows(w, blocks)
    w.finish("A2")


def _table_rows(w: _Writer, blocks: list[Any]) -> None:
    for block in blocks:
        if isinstance(block, Table):
            w.put(list(block.headers), bold=True)
            for row in block.rows:
                w.put(list(row))
            w.skip()
        elif hasattr(block, "text") and not hasattr(block, "level"):
            w.put([block.text])


def _about_sheet(sheet: Any, report: Report) -> None:
    w = _Writer(sheet)
    w.put(["item", "value"], bold=True)
    for label, value in (("title", report.title), *report.cover.fields()):
        w.put([label.lower(), value])
    w.put(["exactodds version", report.version])
    w.put(["command", report.command])
    w.put(["shoe and rules", shoe_rules_header(report.shoe, report.rules)])
    w.put([f"counts are out of ({counting_text(report.analysis)})", str(report.analysis.orderings)])
    w.put(["sha256 of the rules, shoe and pay tables", report.digest])
    w.put(["hashed JSON (canonical: sorted keys, no spaces)", report.provenance_json])
    w.skip()
    w.put(["rank", "cards"], bold=True)
    for rank in RANKS:
        w.put([rank.value, report.shoe.count(rank)])
    w.finish("A2")
