"""The report as a sequence of blocks (headings, paragraphs, tables, images), one content for PDF, HTML and Markdown."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..analysis import GLI_GAMES
from ..cards import RANKS, Shoe
from ..errors import ExactOddsError
from ..exact import decimal_text, fraction_text, grouped, one_in_text, percent_text, short_text, sqrt_decimal_text
from ..games import DEFAULT
from ..paytable import Bet
from ..plot import PlotRequest, figure_bytes
from ..plot.base import as_written
from ..plot.odds_plots import decks_plot, eor_plot
from ..present import shoe_rules_header
from .checks import counting_text
from .lab import PERFECT_FIELDS, SORT_HEADERS, lab_rows, perfect_rows, perfect_text, sort_rows, sort_text, unsorted_text
from .lawtable import bounds_grid, law_text, value_grid
from .model import Report
from .sheet import BAND_LEVEL, Z_SCORES, Band, BetSheet, summary_headers, summary_rows

_P = 4  # decimals of a percentage in the tables
_LONG = 10  # decimals of a probability
_PER_DECKS_PLOT = 8  # bets drawn on one plot of house edge by decks


class Frame(Protocol):
    """What a writer sets around a document's blocks: the document's name, the version that wrote it, the stamp that
    heads every page, and the line at the foot of a PDF's pages (a :class:`~.model.Report` is one, and so is a review's
    :class:`~.review.ReviewFrame`)."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def stamp(self) -> str: ...

    @property
    def footer(self) -> str: ...

    @property
    def author(self) -> str: ...


@dataclass(frozen=True)
class Heading:
    """A heading of level 1–3."""

    level: int
    text: str


@dataclass(frozen=True)
class Para:
    """A paragraph of plain text."""

    text: str


@dataclass(frozen=True)
class Code:
    """Preformatted text (the command, the hashed JSON)."""

    text: str


@dataclass(frozen=True)
class Table:
    """A table: header cells, rows of text cells, and an alignment letter (l or r) per column."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str


@dataclass(frozen=True)
class Image:
    """A plot: its bytes (PNG or SVG, empty for Markdown, which names the command instead), caption and the command
    that draws it alone ("" for none: a review's plot, drawn from the log's figures)."""

    data: bytes
    fmt: str
    caption: str
    command: str


Block = Heading | Para | Code | Table | Image


def _bands_table(bands: tuple[Band, ...]) -> Table:
    return Table(
        ("hands n", "mean hold", "SD of hold (SD/√n)", f"{BAND_LEVEL}% band low", f"{BAND_LEVEL}% band high"),
        tuple(
            (grouped(b.hands), percent_text(b.edge, _P), percent_text_sqrt(b), percent_text(b.low, _P),
             percent_text(b.high, _P))
            for b in bands
        ),
        "rrrrr",
    )


def _law_blocks(s: BetSheet) -> list[Block]:
    """The law of the hold after n hands: the casino behind, and the hold's percentiles (:mod:`.lawtable`)."""
    laws = s.laws_after
    grids = [g for g in (value_grid(laws), bounds_grid(laws)) if g is not None]
    return [Heading(3, "Hold after n hands: its law"), Para(law_text(laws, len(s.hold_law))),
            *(Table(*grid) for grid in grids)]


def _example_blocks(report: Report, s: BetSheet) -> list[Block]:
    """A real coup for each outcome of the bet (the game's :meth:`~exactodds.game.Game.worked_examples`)."""
    found = report.examples
    rows = tuple((o.id, *found[s.bet.id, o.id]) for o in s.bet.outcomes if (s.bet.id, o.id) in found)
    if not rows:
        return []
    missing = [o.id for o in s.bet.outcomes if (s.bet.id, o.id) not in found]
    note = f" No coup settles {', '.join(missing)}: its count is 0." if missing else ""
    return [Heading(3, "Worked examples"),
            Para("A real coup for each outcome: each hand's cards in the order it was dealt them (the first two of"
                 " each dealt alternately, the Player's first, then the third cards), who drew and why by the"
                 f" tableau, and how the coup ended.{note}"),
            Table(("outcome", "cards", "the deal", "end"), rows, "llll")]


def percent_text_sqrt(band: Band) -> str:
    """SD/√n of a band as a percentage, exactly rounded: √(variance/n · 100²).

    >>> from fractions import Fraction
    >>> percent_text_sqrt(Band(100, Fraction(0), Fraction(1), Fraction(2)))
    '10.0000%'
    """
    return sqrt_decimal_text(band.variance / band.hands * 10_000, _P) + "%"


def _plot(kind: str, report: Report, bets: tuple[Bet, ...], fmt: str) -> Image | None:
    # The bets themselves, not their ids: a bet of a bets file is plotted too (its id names no built-in bet).
    # The report's own game, shoe, settings and bets files (a bet of a bets file is named by its id there), so that
    # the command draws this very plot; without them (a report made by a library call) the game alone.
    setup = report.setup or ("" if report.game is DEFAULT else f"--game {report.game.name}")
    words = [f"exactodds plot {kind}", setup, *(f"--bet {shlex.quote(b.id)}" for b in bets), f"--output {kind}.png"]
    command = " ".join(word for word in words if word)
    if not fmt:
        return Image(b"", fmt, f"The {kind} plot.", command)
    request = PlotRequest(report.game, report.settings, report.shoe, bets)
    try:
        figure = (eor_plot if kind == "eor" else decks_plot)(request)
    except ExactOddsError:
        return None  # a plot that cannot be drawn for this shoe or rules (e.g. a suited bet) is left out
    caption = as_written(figure.texts[-1].get_text()) if figure.texts else ""
    return Image(figure_bytes(figure, fmt), fmt, caption, command)


def _z_list() -> str:
    return ", ".join(f"{short_text(z)} at {level}%" for level, z in Z_SCORES.items())


#: What the effective stake per unit bet is on each basis of a rebate, in words.
_BASES = {
    "standard": "the effective stake is 1 − P(push), and on a bet on the Banker a win counts its net pay (the"
                " commission taken off the winning stake)",
    "total-stake": "the effective stake is the whole stake, 1",
    "non-refund": "the effective stake is 1 − P(push), every stake not handed back",
    "losing-only": "the effective stake is P(lose), the stakes lost",
}


def build(report: Report, image_format: str = "png",
          progress: Callable[[int, int], None] | None = None) -> list[Block]:
    """The blocks of the report, in order, with the plots as ``image_format`` (png, svg, or "" for none);
    ``progress(done, total)`` is told each bet laid out (its plots drawn)."""
    shoe, rules = report.shoe, report.rules
    blocks: list[Block] = [
        Heading(1, report.title),
        *(Para(line) for line in report.cover.lines()),
        Para(shoe_rules_header(shoe, rules)),
        Para(f"{report.stamp}. Every figure is exact: an outcome's count is the number of draws in which it happens,"
             f" out of {grouped(report.analysis.orderings)} ({counting_text(report.analysis)}), and every"
             " probability, EV and variance is their exact quotient; decimals are rounded from the exact values only"
             " at print."),
    ]
    headers = summary_headers(report.analysis.rebate is not None, report.min_rtp)
    blocks += [
        Heading(2, "Summary"),
        Table(headers, summary_rows(report.sheets, report.min_rtp, _P), "l" + "r" * (len(headers) - 1)),
        Para("House edge per hand counts a push as a hand; per resolved bet leaves pushes out. RTP = 1 + EV."
             f" VI is the volatility index z·SD (z = {_z_list()})."
             f" GLI-11 asks that an advertised award be hit at least once in {grouped(GLI_GAMES)} games unless its"
             " odds are displayed."),
    ]
    rebate = report.analysis.rebate
    if rebate is not None:
        blocks.append(Para(f"With rebate: the house edge with the {rebate.text()}, −(EV + rate × effective stake);"
                           f" {_BASES[rebate.basis]} (exactodds.rebate)."))
    if any(s.below_min_rtp for s in report.sheets):
        below = ", ".join(s.bet.id for s in report.sheets if s.below_min_rtp)
        blocks.append(Para(f"FLAG: below the minimum return to player of {percent_text(report.min_rtp or 0, 2)}:"
                           f" {below}."))
    for done, s in enumerate(report.sheets):
        if progress is not None:
            progress(done, len(report.sheets))
        blocks += _bet_blocks(report, s, image_format)
    if progress is not None:
        progress(len(report.sheets), len(report.sheets))
    blocks += chart_blocks(report)
    # One plot per group of bets, so that each stays readable; the infinite shoe is known by rank, so a game that
    # draws it plots no bet on suits (a standard shoe of each size is known by suit).
    ranked = tuple(b for b in report.bets if not (b.needs_suits and report.game.has("infinite-shoe")))
    groups = [ranked[i : i + _PER_DECKS_PLOT] for i in range(0, len(ranked), _PER_DECKS_PLOT)]
    plots = [p for p in (_plot("decks", report, group, image_format) for group in groups) if p is not None]
    if plots:
        blocks += [Heading(2, "House edge by number of decks"), *plots]
    if report.mix is not None:
        blocks += _mix_blocks(report)
    if report.lab is not None:
        blocks += lab_blocks(report)
    blocks += exposure_blocks(report)
    blocks += rules_blocks(report) + rack_blocks(report) + methods_blocks(report) + _reproducibility_blocks(report)
    blocks += check_blocks(report)
    return blocks


def exposure_blocks(report: Report) -> list[Block]:
    """Advantage-play exposure: per bet the exact effect of removal, the best linear counts with the thresholds an
    operator would watch, and the edge of an edge sorter who sees the first card's class or the first four's."""
    found = report.exposure
    if found is None:
        return []
    blocks: list[Block] = [
        Heading(2, "Advantage-play exposure"),
        Para("How far a player who sees the cards can move each bet: the exact change in its EV when one card of each"
             " value is taken from this shoe (×10^7; the ten stands for every 0-valued card), and the best linear"
             " counts of levels 2 and 4 from those effects, each with its betting correlation and the true count at"
             " which the linear model puts the bet at EV 0: the threshold to watch, a player's bets rising past it."
             " The value of perfect play is " + ("estimated below" if found.perfect else "the lab's (--lab-shoes)")
             + "; that of seeing the first cards' class is "
             + ("the edge-sorting table's." if found.sorting else "exactodds edge-sort's.")),
    ]
    if found.effects:
        rows = tuple((bet, *("—" if e is None else str(round(e * 10**7)) for e in effects))
                     for bet, effects in found.effects)
        blocks.append(Table(("bet", *found.labels), rows, "l" + "r" * len(found.labels)))
    if found.counts:
        blocks.append(Table(("bet", "level", "tags (A,2,…,9,T/J/Q/K)", "betting corr.", "break-even TC"), tuple(
            (c.bet, str(c.level), c.tags_text(), c.correlation, "—" if c.break_even is None else
             decimal_text(c.break_even, 1)) for c in found.counts), "lrlrr"))
    if found.left_out:
        blocks.append(Para(f"Not counted (on suits, on the dealt cards, or paid by a multiplier):"
                           f" {', '.join(found.left_out)}."))
    if found.sorting:
        setup = report.setup or ("" if report.game is DEFAULT else f"--game {report.game.name}")
        blocks += [Para(sort_text(setup, report.analysis.rebate is not None)),
                   Table(SORT_HEADERS, sort_rows(found), "lrr")]
    left_out = unsorted_text(found)
    if left_out is not None:
        blocks.append(Para(left_out))
    if found.perfect is not None:
        setup = report.setup or ("" if report.game is DEFAULT else f"--game {report.game.name}")
        blocks += [Para(perfect_text(found.perfect, setup)),
                   Table(("bet", *(label for _, label in PERFECT_FIELDS)), perfect_rows(found.perfect), "lrrrr")]
    return blocks


def rack_blocks(report: Report) -> list[Block]:
    """The rack card: each bet's pays and house edge on one table, as a table's placard shows them."""
    rows = []
    for s in report.sheets:
        pays = "; ".join(f"{o.outcome.event.name}: {o.outcome.pays if o.outcome.net else 'push'}"
                         for o in s.figures.outcomes if o.outcome.net >= 0 or o.outcome.multiplier is not None)
        rows.append((s.bet.id, pays or "—", percent_text(s.figures.house_edge, 2)))
    return [Heading(2, "Rack card"),
            Para(f"{shoe_rules_header(report.shoe, report.rules)}. The pays of each bet (a win's pay on the stake;"
                 " a bet that loses otherwise loses its stake) and its house edge."),
            Table(("bet", "pays", "house edge"), tuple(rows), "llr")]


def methods_blocks(report: Report) -> list[Block]:
    """Methods and assumptions: what is counted and how, what is exact and what is not, the checks, the inputs."""
    analysis = report.analysis
    exact = ("Every count, probability, EV, variance, house edge, hit frequency and top award's chance in this report"
             " is exact: counts are whole numbers, the rest their exact quotients (fractions); a decimal is rounded"
             " from the exact value only when it is printed, and the exact fraction is given beside it in the"
             " workbook.")
    lab = "; the lab's advantage-play figures (estimates from simulated shoes, with their standard errors)"
    approximate = ("Approximate, and said so where shown: the hold bands after n hands (the normal approximation);"
                   " the law of the hold after more than 100 hands (a bet of two pays: 60-digit sums, each probability"
                   " within a relative 10^-50 of the exact one; of more pays: intervals that hold the exact figure,"
                   " from the normal law within Berry–Esseen's bound and Chernoff's in the tails)"
                   + (lab if report.lab else "") + ".")
    return [
        Heading(2, "Methods and assumptions"),
        Para(f"What is counted: every ordered draw of the cards a coup can use from this very shoe"
             f" ({counting_text(analysis)}), {grouped(analysis.orderings)} in all, each as likely as any other (the"
             " shoe well shuffled); a coup is dealt from the first of them by the game's rules, and each bet is"
             " settled by its pay table on the coup's cards."),
        Para(exact),
        Para(approximate),
        Para(f"Checks: the counts were checked for this report on this shoe and rules ({report.check.summary}), and"
             f" {sum(c.agrees for c in report.published)} of {len(report.published)} published figures that apply"
             " agree (see Cross-checks)."),
        Para(f"Inputs: exactodds {report.version}; the rules, shoe and pay tables hash to sha256 {report.digest}"
             " (see Reproducibility, which gives the command that made the report)."),
    ]


def _bet_blocks(report: Report, s: BetSheet, image_format: str) -> list[Block]:
    f = s.figures
    rows = tuple(
        (o.outcome.id, o.outcome.event.name, o.outcome.pays, grouped(o.count), decimal_text(o.probability, _LONG),
         one_in_text(o.probability), decimal_text(o.contribution, _LONG))
        for o in f.outcomes
    )
    per_resolved = f.house_edge_per_resolved_bet
    figures = [
        ("EV per unit staked", decimal_text(f.ev, _LONG), fraction_text(f.ev)),
        ("house edge per hand", percent_text(f.house_edge, _LONG - 2), fraction_text(f.house_edge)),
        ("house edge per resolved bet", "—" if per_resolved is None else percent_text(per_resolved, _LONG - 2),
         "—" if per_resolved is None else fraction_text(per_resolved)),
        ("return to player (RTP)", percent_text(s.rtp, _LONG - 2), fraction_text(s.rtp)),
        ("hit frequency", percent_text(f.hit_frequency, _LONG - 2), fraction_text(f.hit_frequency)),
        ("variance", decimal_text(f.variance, _LONG), fraction_text(f.variance)),
        ("standard deviation", f.sd_text(_LONG), "√variance"),
        *((f"volatility index {lv}%", s.volatility_index_text(lv, 6), f"{short_text(z)}·SD")
          for lv, z in Z_SCORES.items()),
        (f"top award ({s.top_award.outcome.id}, {s.top_award.pays})",
         f"1 in {one_in_text(s.top_award.probability)}",
         fraction_text(s.top_award.probability)),
        ("GLI-11: hit once in 100 million games", "yes" if s.top_award_meets_gli else "no: display its odds", ""),
        *((note.label, note.value, note.exact) for note in s.notes),
    ]
    rebated = s.rebated
    if rebated is not None:
        figures[3:3] = [
            (f"effective stake per unit bet ({rebated.rebate.basis} basis)",
             decimal_text(rebated.effective_stake, _LONG), fraction_text(rebated.effective_stake)),
            (f"EV with the {rebated.rebate.text()}", decimal_text(rebated.ev_with_rebate, _LONG),
             fraction_text(rebated.ev_with_rebate)),
            ("house edge with the rebate", percent_text(rebated.house_edge, _LONG - 2),
             fraction_text(rebated.house_edge)),
        ]
    if s.min_rtp is not None:
        figures.append((f"minimum RTP {percent_text(s.min_rtp, 2)}", "BELOW" if s.below_min_rtp else "met", ""))
    blocks: list[Block] = [
        Heading(2, f"{s.bet.id}: {s.bet.description}"),
        Heading(3, "Pay table and outcomes"),
        Table(("outcome", "event", "pays", "count", "probability", "1 in N", "return"), rows, "lllrrrr"),
        Heading(3, "Figures"),
        Table(("figure", "value", "exact"), tuple(figures), "lrl"),
        Heading(3, f"Hold after n hands ({BAND_LEVEL}% band, normal approximation)"),
        Para(f"The hold of n independent hands has the exact mean {percent_text(s.hold_edge, _LONG - 2)} and the exact"
             f" SD {sqrt_decimal_text(s.hold_variance, _LONG)}/√n per unit staked"
             + ("" if rebated is None else f", the {rebated.rebate.text()} paid hand by hand counted in both")
             + f"; the band is mean ± {short_text(Z_SCORES[BAND_LEVEL])}·SD/√n, the"
             " normal approximation (the central limit theorem), which is rough for a long shot at small n."),
        _bands_table(s.bands),
        *_law_blocks(s),
        *_example_blocks(report, s),
    ]
    if not s.bet.needs_suits and report.shoe.size > Shoe.MIN_CARDS:
        eor = _plot("eor", report, (s.bet,), image_format)
        if eor is not None:
            blocks.append(eor)
    return blocks


def _mix_blocks(report: Report) -> list[Block]:
    mix = report.mix
    assert mix is not None
    rebate = "" if mix.rebate is None else f" with the {mix.rebate.text()}"
    return [
        Heading(2, "Bet mix: the table's blended hold"),
        Para("Model: each hand one unit is staked on one bet, chosen with the mix's probabilities independently"
             " of the cards (not several bets on the same coup). Blended hold = Σ wᵢ·edgeᵢ; variance per hand ="
             f" Σ wᵢ·(Varᵢ + EVᵢ²) − EV², both exact{rebate and ', and both' + rebate + ' paid hand by hand'}."),
        Table(("bet", "share of hands", "house edge" + rebate),
              tuple((b, fraction_text(w), percent_text(edge, _P)) for (b, w), edge in
                    zip(mix.mix.weights, mix.edges)), "lrr"),
        Table(("figure", "value", "exact"), (
            ("blended hold", percent_text(mix.house_edge, _LONG - 2), fraction_text(mix.house_edge)),
            ("variance per hand", decimal_text(mix.variance, _LONG), fraction_text(mix.variance)),
        ), "lrl"),
        _bands_table(mix.bands),
    ]


def lab_blocks(report: Report) -> list[Block]:
    """The advantage-play section: per strategy, a table of the lab's figures by bet (estimates)."""
    lab = report.lab
    assert lab is not None
    blocks: list[Block] = [Heading(2, "Advantage play (simulation; estimates)"), Para(lab.note)]
    if lab.left_out:
        blocks.append(Para(f"Not simulated (the lab deals coup states): {', '.join(lab.left_out)}."))
    for strategy in lab.strategies:
        bets = lab.columns(strategy)
        blocks += [Heading(3, f"Strategy: {strategy}"),
                   Table(("figure", *bets), lab_rows(lab, strategy), "l" + "r" * len(bets))]
    blocks.append(Para("Per coup dealt, bet or not. EV is the mean exact EV of the bets placed; SD that of the units"
                       " won; N0 = (SD/EV)²; DI = 1000·EV/SD per coup; bankroll = −ln(risk)·Var/(2·EV) per shoe"
                       " (see exactodds.lab.advantage). Estimates carry sampling error; the house edge is exact."))
    return blocks


def chart_blocks(report: Report) -> list[Block]:
    """The game's decisions on the shoe (its chart, e.g. Lucky Draw's), printed after the bets; none without."""
    chart = report.analysis.chart
    if chart is None:
        return []
    legend = "; ".join(f"{letter}: {meaning}" for letter, meaning in chart.legend)
    return [
        Heading(2, chart.title),
        Para(f"{legend}."),
        Table((chart.rows, *chart.columns), tuple((label, *letters) for label, letters in chart.cells),
              "l" * (len(chart.columns) + 1)),
    ]


def rules_blocks(report: Report) -> list[Block]:
    """The rules as the game tells them: a description, then a table of each rule and its value."""
    description, rows = report.game.rules_table(report.settings)
    terms = report.game.definitions(report.settings)
    return [Heading(2, "Rules"), Para(description),
            *((Table(("term", "definition"), terms, "ll"),) if terms else ()),
            Table(("rule", "value"), rows, "ll")]


def _reproducibility_blocks(report: Report) -> list[Block]:
    shoe = report.shoe
    counts = (tuple(grouped(shoe.count(r)) for r in RANKS),)
    return [
        Heading(2, "Reproducibility"),
        Para(f"exactodds {report.version}. The command that made this report:"),
        Code(report.command),
        Para(f"Shoe: {shoe.describe()}, {grouped(shoe.size)} cards ({'known by suit' if shoe.suited else 'by rank'});"
             f" counts of {counting_text(report.analysis)}: {grouped(report.analysis.orderings)} in all."),
        Table(tuple(r.value for r in RANKS), counts, "r" * len(RANKS)),
        Para(f"sha256 of the rules, shoe and pay tables below (canonical JSON: sorted keys, no spaces):"
             f" {report.digest}"),
        Code(report.provenance_json),
    ]


def check_blocks(report: Report) -> list[Block]:
    """The cross-checks: the check run on the counts (which one, and what it found), then the published figures."""
    e = report.check
    verdict = "agree on every count" if e.agree else f"DISAGREE: {'; '.join(e.mismatches)}"
    if e.kind == "reference":
        text = (f"{e.described[:1].upper()}{e.described[1:]}, run for this report on this very shoe and rules:"
                f" {e.outcomes} outcome counts compared, they {verdict}. Time: {e.names[0]} {e.priced_seconds:.3f} s,"
                f" {e.names[1]} {e.check_seconds:.3f} s." + (f" Note: {e.note}." if e.note else ""))
    else:
        passed = "each passes" if e.agree else f"FAILED: {'; '.join(e.mismatches)}"
        text = (f"{e.described[:1].upper()}{e.described[1:]}: {e.outcomes} outcome counts checked on this very shoe"
                f" and rules, {passed}.")
    blocks: list[Block] = [Heading(2, "Cross-checks"), Para(text)]
    if report.published:
        agree = sum(c.agrees for c in report.published)
        blocks += [
            Para(f"Published figures that apply to these bets on this shoe and rules: {agree} of"
                 f" {len(report.published)} agree at the printed precision (within half a unit of the last printed"
                 " digit; a count to every digit)."),
            Table(("bet", "figure", "printed", "exact", "agrees", "source"),
                  tuple((c.bet, c.figure, c.printed, c.exact, "yes" if c.agrees else "NO", c.source)
                        for c in report.published), "llrrll"),
        ]
    else:
        blocks.append(Para("No published figure in exactodds' collection applies to these bets on this shoe and"
                           " rules."))
    return blocks
