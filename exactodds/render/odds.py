"""An exact analysis rendered as a table, Markdown, CSV or JSON (the ``odds`` report and its JSON contract)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis import Analysis, BetFigures, moment_sums, scaled_nets
from ..bets import Bet
from ..cards import Shoe
from ..errors import ExactOddsError
from ..exact import (
    decimal_text,
    fraction_text,
    grouped,
    percent_text,
    ratio_decimal_text,
    ratio_sqrt_decimal_text,
    ratio_text,
)
from ..rules import RuleSet
from ..layout import markdown_table, text_table
from . import DEFAULT_PRECISION, Format, shoe_json, shoe_rules_header


def header_line(analysis: Analysis) -> str:
    """The header of an analysis: :func:`~exactodds.render.shoe_rules_header` of its shoe and rules.

    >>> from exactodds.analysis import analyze
    >>> from exactodds.cards import Shoe
    >>> header_line(analyze(Shoe.standard(8), bets=["tie"]))
    '8 decks (416 cards) · punto-banco · banker 0.95:1 (5% commission) · tie 8:1 · EZ push: off'
    """
    return shoe_rules_header(analysis.shoe, analysis.rules)

class _Priced:
    """One bet on one shoe in integers: counts over n orderings, S1 and S2 (nets scaled by L), the winning count."""

    __slots__ = ("bet", "counts", "n", "first", "ln", "spread", "lln", "hits", "places")

    def __init__(self, bet: _BetPlan, counts: Sequence[int], n: int, places: int) -> None:
        first, second = moment_sums(bet.scaled, counts)
        self.bet, self.counts, self.n, self.first, self.places = bet, counts, n, first, places
        self.ln = bet.scale * n  # EV = S1 / (L·n)
        self.spread, self.lln = second * n - first * first, self.ln * self.ln  # variance = (S2·n − S1²) / (L·n)²
        self.hits = sum(counts[i] for i in bet.wins)


@dataclass(frozen=True)
class _BetPlan:
    """What one bet's JSON needs that no shoe changes: its texts, its net pays as integers, which outcomes win."""

    id: str
    description: str
    outcome_ids: tuple[str, ...]
    events: tuple[str, ...]
    net_texts: tuple[str, ...]
    nets: tuple[tuple[int, int], ...]  # (numerator, denominator) of each net pay
    scale: int  # L, the common denominator of the net pays
    scaled: tuple[int, ...]  # each net pay times L
    wins: tuple[int, ...]  # the outcomes with a positive net pay (the hit frequency)

    @classmethod
    def of(cls, bet: Bet) -> _BetPlan:
        scale, scaled = scaled_nets(bet)
        outcomes = bet.outcomes
        return cls(
            bet.id,
            bet.description,
            tuple(o.id for o in outcomes),
            tuple(o.event.name for o in outcomes),
            tuple(fraction_text(o.net) for o in outcomes),
            tuple((o.net.numerator, o.net.denominator) for o in outcomes),
            scale,
            scaled,
            tuple(i for i, o in enumerate(outcomes) if o.net > 0),
        )


# The JSON contract (docs/json.md), level by level and in its order: each key with the function that
# writes its value. This is the one definition of the layout: the full report takes every key, and
# `batch --fields` a subset, so the two cannot drift apart. Every value is an exact rational written
# from integers (reduced by one gcd, rounded by exact.round_ratio), never through a Fraction.
_OUTCOME_FIELDS: dict[str, Callable[[_Priced, int], str]] = {
    "outcome": lambda b, i: b.bet.outcome_ids[i],
    "event": lambda b, i: b.bet.events[i],
    "net": lambda b, i: b.bet.net_texts[i],
    "count": lambda b, i: str(b.counts[i]),
    "probability": lambda b, i: ratio_text(b.counts[i], b.n),
    "probability_decimal": lambda b, i: ratio_decimal_text(b.counts[i], b.n, b.places),
    "return": lambda b, i: ratio_text(b.bet.nets[i][0] * b.counts[i], b.bet.nets[i][1] * b.n),
    "return_decimal": lambda b, i: ratio_decimal_text(b.bet.nets[i][0] * b.counts[i], b.bet.nets[i][1] * b.n, b.places),
}
_BET_FIELDS: dict[str, Callable[[_Priced], str] | None] = {
    "description": lambda b: b.bet.description,
    "outcomes": None,  # the outcome rows, one object of _OUTCOME_FIELDS each
    "ev": lambda b: ratio_text(b.first, b.ln),
    "house_edge": lambda b: ratio_text(-b.first, b.ln),
    "variance": lambda b: ratio_text(b.spread, b.lln),
    "hit_frequency": lambda b: ratio_text(b.hits, b.n),
    "ev_decimal": lambda b: ratio_decimal_text(b.first, b.ln, b.places),
    "house_edge_decimal": lambda b: ratio_decimal_text(-b.first, b.ln, b.places),
    "variance_decimal": lambda b: ratio_decimal_text(b.spread, b.lln, b.places),
    "sd_decimal": lambda b: ratio_sqrt_decimal_text(b.spread, b.lln, b.places),
    "hit_frequency_decimal": lambda b: ratio_decimal_text(b.hits, b.n, b.places),
}
#: The top-level keys of the contract (``bets`` holds the bet keys; ``given`` is the ``odds --given`` report's only).
TOP_FIELDS = ("rules", "shoe", "orderings", "bets", "policy")
#: Every key ``batch --fields`` may choose, in the contract's order: top level, then per bet, then per outcome.
FIELDS: tuple[str, ...] = (
    *(k for k in TOP_FIELDS if k != "bets"),
    *(k for k in _BET_FIELDS if k != "outcomes"),
    *_OUTCOME_FIELDS,
)


def parse_fields(text: str) -> frozenset[str]:
    """Read a comma-separated choice of keys of the JSON contract (:data:`FIELDS`).

    >>> sorted(parse_fields("ev, count"))
    ['count', 'ev']
    >>> parse_fields("edge")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown field 'edge': use keys of the JSON contract: rules, shoe, ...
    """
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    if not chosen:
        raise ExactOddsError(f"--fields needs at least one of: {', '.join(FIELDS)}")
    for name in chosen:
        if name not in FIELDS:
            raise ExactOddsError(f"unknown field {name!r}: use keys of the JSON contract: {', '.join(FIELDS)}")
    return frozenset(chosen)


class JsonLayout:
    """The JSON contract of an analysis for one rule set, bet list and precision, optionally cut to some fields.

    Made once and used for every shoe of a batch. With ``fields`` (keys of :data:`FIELDS`) every
    other key is left out: a bet keeps its id, an outcome row its ``outcome`` id, and a level with
    nothing chosen in it is dropped; what is left is exactly the full object without those keys.

    >>> from exactodds.analysis import analyze
    >>> from exactodds.cards import Shoe
    >>> a = analyze(Shoe.standard(8), bets=["tie"])
    >>> JsonLayout(a.rules, [b.bet for b in a.bets], 4, frozenset({"ev_decimal", "count"})).line(
    ...     a.shoe, [o.count for o in a.bets[0].outcomes], a.orderings)
    '{"bets":{"tie":{"outcomes":[{"outcome":"win","count":"475627426473216"},{"outcome":"lose","count":"4522770849030144"}],"ev_decimal":"-0.1436"}}}'
    """

    def __init__(
        self, rules: RuleSet, bets: Sequence[Bet], places: int = DEFAULT_PRECISION, fields: frozenset[str] | None = None
    ) -> None:
        def chosen(key: str) -> bool:
            return fields is None or key in fields

        self.places = places
        self.plans = [_BetPlan.of(bet) for bet in bets]
        self.starts = [0]
        for bet in bets:
            self.starts.append(self.starts[-1] + len(bet.outcomes))
        rows = fields is None or not fields.isdisjoint(_OUTCOME_FIELDS)  # an outcome row keeps its id
        self.outcome_keys = [(k, f) for k, f in _OUTCOME_FIELDS.items() if rows and (chosen(k) or k == "outcome")]
        self.bet_keys = [(k, f) for k, f in _BET_FIELDS.items() if chosen(k) or (k == "outcomes" and rows)]
        self.rules = rules.as_dict() if chosen("rules") else None
        self.shoe = chosen("shoe")
        self.orderings = chosen("orderings")
        self.bets = bool(self.bet_keys)
        self.policy = {"player_5": rules.player_five} if rules.player_five and chosen("policy") else None

    def data(self, shoe: Shoe, counts: Sequence[int], orderings: int) -> dict[str, Any]:
        """The JSON object of one shoe: ``counts`` holds every bet's outcome counts side by side, out of ``orderings``."""
        data: dict[str, Any] = {}
        if self.rules is not None:
            data["rules"] = self.rules
        if self.shoe:
            data["shoe"] = shoe_json(shoe)
        if self.orderings:
            data["orderings"] = str(orderings)
        if self.bets:
            places, starts = self.places, self.starts
            data["bets"] = {
                plan.id: _bet_data(
                    _Priced(plan, counts[starts[k] : starts[k + 1]], orderings, places), self.bet_keys, self.outcome_keys
                )
                for k, plan in enumerate(self.plans)
            }
        if self.policy is not None:
            data["policy"] = self.policy
        return data

    def line(self, shoe: Shoe, counts: Sequence[int], orderings: int) -> str:
        """:meth:`data` as one line of compact JSON (the bytes of ``batch``)."""
        return _compact(self.data(shoe, counts, orderings))


_compact = json.JSONEncoder(separators=(",", ":")).encode
_BetKeys = list[tuple[str, "Callable[[_Priced], str] | None"]]
_OutcomeKeys = list[tuple[str, Callable[[_Priced, int], str]]]


def _bet_data(priced: _Priced, bet_keys: _BetKeys, outcome_keys: _OutcomeKeys) -> dict[str, Any]:
    """One bet's object: each chosen key in the contract's order, the outcome rows under ``outcomes``."""
    out: dict[str, Any] = {}
    for key, value in bet_keys:
        if value is None:
            out[key] = [{k: f(priced, i) for k, f in outcome_keys} for i in range(len(priced.counts))]
        else:
            out[key] = value(priced)
    return out


def bet_json(figures: BetFigures, places: int = DEFAULT_PRECISION) -> dict[str, Any]:
    """One bet's figures as JSON-ready values: exact rationals as ``n/d``, counts as integer strings."""
    priced = _Priced(_BetPlan.of(figures.bet), [o.count for o in figures.outcomes], figures.orderings, places)
    return _bet_data(priced, list(_BET_FIELDS.items()), list(_OUTCOME_FIELDS.items()))


def analysis_json(analysis: Analysis, places: int = DEFAULT_PRECISION) -> dict[str, Any]:
    """The whole analysis in the stable JSON contract (docs/json.md); ``policy`` when the Player's 5 is chosen."""
    data = JsonLayout(analysis.rules, [f.bet for f in analysis.bets], places).data(
        analysis.shoe, [o.count for f in analysis.bets for o in f.outcomes], analysis.orderings
    )
    if analysis.given is not None and analysis.given_probability is not None:
        data["given"] = {"event": analysis.given.event, "probability": fraction_text(analysis.given_probability)}
    return data


def render_json(analysis: Analysis, places: int = DEFAULT_PRECISION, *, indent: int | None = 2) -> str:
    """The JSON contract as text (one line when ``indent`` is None)."""
    separators = (",", ":") if indent is None else None
    return json.dumps(analysis_json(analysis, places), indent=indent, separators=separators)


def _summary(figures: BetFigures, places: int) -> str:
    pct = max(places - 2, 0)
    return (
        f"EV {decimal_text(figures.ev, places)} · house edge {percent_text(figures.house_edge, pct)} · "
        f"SD {figures.sd_text(min(places, 6))} · hit frequency {percent_text(figures.hit_frequency, pct)}"
    )


def _rows(figures: BetFigures, places: int) -> list[list[str]]:
    return [
        [
            o.outcome.id,
            o.outcome.event.name,
            o.outcome.pays,
            grouped(o.count),
            decimal_text(o.probability, places),
            decimal_text(o.contribution, places),
        ]
        for o in figures.outcomes
    ]


_HEADERS = ["outcome", "event", "pays", "count", "probability", "return"]
#: Every column of the report is two characters wider than its header (the layout it has always had).
_HEADER_MARGIN = 2


def render_text(analysis: Analysis, places: int = DEFAULT_PRECISION, *, markdown: bool = False) -> str:
    """The report for people: a header line, then per bet its outcomes, EV, house edge and SD."""
    table = markdown_table if markdown else text_table
    lines = [("# " if markdown else "") + header_line(analysis)]
    if analysis.given is not None and analysis.given_probability is not None:
        p = analysis.given_probability
        lines.append(
            f"given: {analysis.given.event} (probability {fraction_text(p)} = {decimal_text(p, places)});"
            " every figure below is conditional on it"
        )
    what = "ordered six-card draws in which it happens" if analysis.given is not None else "ordered six-card draws"
    if analysis.policy_scale > 1:
        what += f", × {analysis.policy_scale} for the mixed policy on 5"
    lines.append(f"orderings ({what}): {grouped(analysis.orderings)}")
    for figures in analysis.bets:
        lines.append("")
        title = f"{figures.bet.id}: {figures.bet.description}"
        lines.append(f"## {title}" if markdown else title)
        if markdown:
            lines.append("")
        lines.append(table(_HEADERS, _rows(figures, places), "lllrrr", header_margin=_HEADER_MARGIN))
        if markdown:
            lines.append("")
        lines.append(_summary(figures, places))
    return "\n".join(lines) + "\n"


CSV_COLUMNS = [
    "bet",
    "outcome",
    "net",
    "count",
    "probability",
    "probability_decimal",
    "return_decimal",
    "ev_decimal",
    "house_edge_decimal",
    "sd_decimal",
]


def render_csv(analysis: Analysis, places: int = DEFAULT_PRECISION) -> str:
    """One row per bet outcome; the bet's EV, house edge and SD repeated on each of its rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for figures in analysis.bets:
        summary = [decimal_text(figures.ev, places), decimal_text(figures.house_edge, places), figures.sd_text(places)]
        for o in figures.outcomes:
            writer.writerow(
                [
                    figures.bet.id,
                    o.outcome.id,
                    fraction_text(o.outcome.net),
                    o.count,
                    fraction_text(o.probability),
                    decimal_text(o.probability, places),
                    decimal_text(o.contribution, places),
                    *summary,
                ]
            )
    return out.getvalue()


def render(analysis: Analysis, fmt: Format = "table", places: int = DEFAULT_PRECISION) -> str:
    """An analysis in one of the formats: ``table``, ``markdown``, ``csv`` or ``json``.

    >>> from exactodds.analysis import analyze
    >>> from exactodds.cards import Shoe
    >>> print(render(analyze(Shoe.standard(8), bets=["tie"]), "csv", 4).splitlines()[1])
    tie,win,8,475627426473216,619306544887/6508331087895,0.0952,0.7612,-0.1436,0.1436,2.6409
    """
    if fmt == "json":
        return render_json(analysis, places) + "\n"
    if fmt == "csv":
        return render_csv(analysis, places)
    if fmt == "markdown":
        return render_text(analysis, places, markdown=True)
    return render_text(analysis, places)
