"""A review's verdict as a document (``review --output``: PDF, HTML or Markdown): what was read, every finding, the
bettors, a plot per flagged bettor (his stake against the exact EV at every coup he was at the table, by result), the
tables' hold against theory, the shoes whose hold fell furthest below it, and the method.

The blocks are the report's (:mod:`.document`) and so are the writers (:mod:`.pdf`, :mod:`.text`): every text of
the log (who, the shoe's, table's and bet's ids, a bad line's error) is data, escaped by them as the report's text is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..exact import fraction_text, grouped
from ..plot import figure_bytes, require
from ..present.formats import write_format
from ..review.render import (
    BETTOR_ALIGN,
    BETTOR_COLUMNS,
    BETTORS_NOTE,
    FLAG_RULE,
    REBATE_ALIGN,
    REBATE_COLUMNS,
    REBATE_TABLE_ALIGN,
    REBATE_TABLE_COLUMNS,
    SHOE_ALIGN,
    SHOE_COLUMNS,
    SHOWN_SHOES,
    TABLE_ALIGN,
    TABLE_COLUMNS,
    TABLES_NOTE,
    bettor_row,
    flag_text,
    rebate_note,
    rebate_row,
    rebate_table_row,
    shoe_row,
    shoes_note,
    table_row,
)
from ..review.tally import RESULTS
from ..review.verdict import ENOUGH, FLAG_MIN, FLAG_P, Verdict, worst_shoes
from ..version import __version__
from .document import Block, Heading, Image, Para, Table

#: The libraries each format needs (all in the ``report`` extra): imported before the log is read.
LIBRARIES = {"pdf": ("reportlab", "matplotlib"), "html": ("matplotlib",), "md": ()}


def require_libraries(fmt: str) -> None:
    """Import the libraries of a document's format, or raise the one error naming the extra."""
    for module in LIBRARIES[fmt]:
        require(module)


@dataclass(frozen=True)
class ReviewFrame:
    """What frames a review's document (:class:`~.document.Frame`): the log reviewed, as named (a file, or the standard
    input), and the sha256 of its bytes, which the stamp on every page gives."""

    source: str
    digest: str
    version: str = __version__
    name: str = "Review of a table's log"

    @property
    def author(self) -> str:
        """Its author, as a document's metadata says: the program."""
        return f"exactodds {self.version}"

    @property
    def stamp(self) -> str:
        """The stamp on every page: the version and the first 16 hex digits of the log's sha256."""
        return f"exactodds {self.version} · log sha256 {self.digest[:16]}"

    @property
    def footer(self) -> str:
        """The line at the foot of every page of the PDF: the log."""
        return f"log: {self.source}"


def render_review(verdict: Verdict, frame: ReviewFrame, fmt: str) -> bytes:
    """The verdict as the bytes of a document's format (the PDF's plots as PNG, the HTML's as SVG, none in Markdown)."""
    from .pdf import pdf
    from .text import html, markdown

    return write_format("review-document", fmt, {
        "pdf": lambda: pdf(frame, review_blocks(verdict, frame, "png")),
        "html": lambda: html(frame, review_blocks(verdict, frame, "svg")).encode(),
        "md": lambda: markdown(frame, review_blocks(verdict, frame, "")).encode(),
    })


def review_blocks(verdict: Verdict, frame: ReviewFrame, image_format: str = "png") -> list[Block]:
    """The blocks of the document, in order, with the plots as ``image_format`` (png, svg, or "" for none)."""
    data = verdict.as_json()
    log = data["log"]
    blocks: list[Block] = [
        Heading(1, f"Review of {frame.source}"),
        Para(f"Read: {grouped(log['shoes'])} shoes · {grouped(log['coups'])} coups · {grouped(log['wagers'])} wagers ·"
             f" {grouped(log['bad_lines'])} bad lines skipped. The log's sha256: {frame.digest}."),
        *_findings(data["findings"]),
    ]
    bettors = data["bettors"]
    if bettors:
        blocks += [Heading(2, "Bettors"), Para(f"Per bettor and bet: {BETTORS_NOTE}."),
                   Table(BETTOR_COLUMNS, tuple(tuple(bettor_row(b)) for b in bettors), BETTOR_ALIGN),
                   Para(f"{FLAG_RULE[:1].upper()}{FLAG_RULE[1:]}.")]
        if verdict.rebate is not None:
            note = rebate_note(verdict)
            blocks += [Para(f"{note[:1].upper()}{note[1:]}."),
                       Table(REBATE_COLUMNS, tuple(tuple(rebate_row(b)) for b in bettors), REBATE_ALIGN)]
    for b in bettors:
        if b["flagged"]:
            blocks += _flagged(verdict, b, image_format)
    if data["tables"]:
        blocks += [Heading(2, "Tables"), Para(f"{TABLES_NOTE[:1].upper()}{TABLES_NOTE[1:]}."),
                   Table(TABLE_COLUMNS, tuple(tuple(table_row(t)) for t in data["tables"]), TABLE_ALIGN)]
        if verdict.rebate is not None:
            blocks.append(Table(REBATE_TABLE_COLUMNS, tuple(tuple(rebate_table_row(t)) for t in data["tables"]),
                                REBATE_TABLE_ALIGN))
    worst = worst_shoes(verdict, SHOWN_SHOES)
    if worst:
        note = shoes_note(len(verdict.shoe_results)).replace("--format json", "the verdict's JSON")
        blocks += [Heading(2, "Shoes"), Para(f"{note[:1].upper()}{note[1:]}."),
                   Table(SHOE_COLUMNS, tuple(tuple(shoe_row(s)) for s in worst), SHOE_ALIGN)]
    return blocks + [Heading(2, "Method"), Para(_method(verdict))]


def _findings(findings: list[dict[str, Any]]) -> list[Block]:
    """The findings: how many of each kind, then every one."""
    if not findings:
        return [Heading(2, "Findings"), Para("None: every coup dealt by the tableau from cards the shoe held, every"
                                             " wager paid as its coup's cards say.")]
    kinds: dict[str, int] = {}
    for f in findings:
        kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
    rows = tuple((f["kind"], grouped(f["line"]), f["shoe"], "" if f["coup"] is None else grouped(f["coup"]),
                  f["reason"]) for f in findings)
    return [Heading(2, "Findings"), Para(" · ".join(f"{n:,} {kind}" for kind, n in sorted(kinds.items())) + "."),
            Table(("kind", "line", "shoe", "coup", "reason"), rows, "rrrrl")]  # only the reason wraps in a PDF


def _flagged(verdict: Verdict, b: dict[str, Any], image_format: str) -> list[Block]:
    """A flagged bettor's section: his flag, and the plot of his stakes against the EV."""
    stakes, evs, results = verdict.coups_of((b["who"], b["bet"]))
    counts = {name: results.count(code) for code, name in enumerate(RESULTS)}
    shown = ", ".join(f"{name} {n:,}" for name, n in counts.items() if n)
    caption = (f"{b['who']} on {b['bet']}: his stake against the exact EV per unit at each of the"
               f" {grouped(len(results))} coups he was at the table ({shown}).")
    blocks: list[Block] = [Heading(2, f"Flagged: {b['who']} on {b['bet']}"), Para(f"{flag_text(b)}.")]
    if not image_format:
        return [*blocks, Image(b"", image_format, caption, "")]
    from ..plot.review_plots import stake_ev_plot

    figure = stake_ev_plot(
        f"{b['who']} on {b['bet']}: stake against the exact EV", stakes, evs, results,
        f"Each coup he was at the table, from his first wager on the bet to his last in each shoe; the result by the"
        f" coup's cards. Permutation test of Σ stake · EV: p = {b['p_value']}, correlation {b['correlation']}."
        f" Source: exactodds {__version__}.")
    return [*blocks, Image(figure_bytes(figure, image_format), image_format, caption, "")]


def _method(verdict: Verdict) -> str:
    """The method in a paragraph: the pricing, the test, the flag, exact figures and statistics."""
    return (
        "Each coup is checked against the cards its shoe could still hold and against the tableau; each wager is priced"
        " exactly on the cards left before its coup (every card burned or dealt before it removed) and settled by its"
        " coup's cards. Per bettor and bet, the expected net is Σ stake · EV and luck is the net less it, with its"
        " exact SD (√Σ stake² · variance) and z. Whether the stakes follow the EV is a permutation test of S ="
        " Σ stake · EV over every coup the bettor was at the table (from his first wager on the bet to his last, in"
        " each shoe; a stake of 0 where he did not bet, so that choosing when to bet counts as much as how much): the"
        f" stakes shuffled among those coups {grouped(verdict.permutations)} times (seed {verdict.seed}; the shuffles"
        f" stop once {ENOUGH} of them do as well as the log, Besag and Clifford's sequential p-value). A bet is flagged"
        f" at p ≤ {fraction_text(FLAG_P)} over at least {FLAG_MIN} wagers, with the stakes rising with the EV. Money"
        " figures (stakes, nets, expected nets, luck, edges, holds) are exact fractions, shown as decimals rounded"
        " from them (review --format json gives each as a fraction); the p-value, the correlation and the slope are"
        " statistics, computed in floats."
    )


__all__ = ["LIBRARIES", "ReviewFrame", "render_review", "require_libraries", "review_blocks"]
