"""The JSON contract of an analysis (docs/json.md): the whole object, or cut to ``batch --fields``.

:class:`JsonLayout` is the one definition of the layout: the full report (:func:`analysis_json`)
takes every key and ``batch`` a subset, and for a batch the keys and every value no shoe changes
are encoded once. The other formats of the ``odds`` report are in :mod:`.odds`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any, NamedTuple

from ..analysis import Analysis, Counting, Rules, scaled_sum
from ..cards import Shoe
from ..errors import ExactOddsError, unknown_name
from ..exact import fraction_text, negated_text, ratio_decimal_text, ratio_sqrt_decimal_text, ratio_text
from ..paytable import Bet
from ..rebate import Rebate, stake_weights
from . import DEFAULT_PRECISION, shoe_json


def _multiplier_json(outcome: Any) -> dict[str, Any] | None:
    """An outcome's multiplier (values, probabilities, applies, expected net), or ``None`` when it has none."""
    m = outcome.multiplier
    if m is None:
        return None
    return {
        "values": [fraction_text(v) for v in m.values],
        "probabilities": [fraction_text(p) for p in m.probabilities],
        "applies": m.applies,
        "expected_net": fraction_text(outcome.mean),
    }



class _Priced:
    """One bet on one shoe in integers: counts over n orderings, S1 and S2 (nets scaled by L), the winning count.

    Each figure is worked out when a key first asks for it (``--fields ev`` needs S1 alone).
    It keeps the texts that other keys repeat up to the sign: the house edge is −EV, and the
    return of an outcome paying 1, −1 or 0 is ±1 or 0 times its probability.
    """

    __slots__ = ("bet", "counts", "n", "places", "texts", "_first", "_variance", "_stake")

    def __init__(self, bet: _BetPlan, counts: Sequence[int], n: int, places: int) -> None:
        self.bet, self.counts, self.n, self.places = bet, counts, n, places
        self.texts: dict[object, str] = {}
        self._first: int | None = None
        self._variance: tuple[int, int] | None = None
        self._stake: int | None = None

    def first(self) -> int:
        """S1, the scaled nets times the counts: EV = S1 / (L·n)."""
        if self._first is None:
            self._first = scaled_sum(self.bet.scaled, self.counts)
        return self._first

    def variance(self) -> tuple[int, int]:
        """(S2·n − S1², (L·n)²), whose ratio is the variance."""
        if self._variance is None:
            first, ln = self.first(), self.bet.scale * self.n
            self._variance = scaled_sum(self.bet.squares, self.counts) * self.n - first * first, ln * ln
        return self._variance

    def hits(self) -> tuple[int, int]:
        """(H, hit_scale·n), whose ratio is the hit frequency: H is the count of the outcomes that win, weighted."""
        counts = self.counts
        return sum([counts[i] * w for i, w in self.bet.wins]), self.bet.hit_scale * self.n

    def stake(self) -> int:
        """E, the scaled effective stakes times the counts: effective stake = E / (W·n)."""
        if self._stake is None:
            self._stake = scaled_sum(self.bet.stakes, self.counts)
        return self._stake

    def effective_stake(self) -> str:
        """The effective stake per unit bet of the layout's rebate, exact."""
        return ratio_text(self.stake(), self.bet.stake_scale * self.n)

    def rebate_ev(self, rate: Fraction) -> str:
        """The EV with the rebate, exact: S1/(L·n) + (r/q)·E/(W·n) over one denominator, L·q·W·n."""
        r, q, scale, weights = rate.numerator, rate.denominator, self.bet.scale, self.bet.stake_scale
        return ratio_text(self.first() * q * weights + r * self.stake() * scale, scale * q * weights * self.n)

    def ev(self, decimal: bool) -> str:
        text = self.texts.get(decimal)
        if text is None:
            first, ln = self.first(), self.bet.scale * self.n
            text = ratio_decimal_text(first, ln, self.places) if decimal else ratio_text(first, ln)
            self.texts[decimal] = text
        return text

    def probability(self, i: int, decimal: bool) -> str:
        key = (i, decimal)
        text = self.texts.get(key)
        if text is None:
            c, n = self.counts[i], self.n
            text = self.texts[key] = ratio_decimal_text(c, n, self.places) if decimal else ratio_text(c, n)
        return text

    def contribution(self, i: int, decimal: bool) -> str:
        """An outcome's share of the EV, net pay times probability."""
        sign = self.bet.signs[i]
        if sign is None:
            (a, b), c = self.bet.nets[i], self.counts[i]
            return ratio_decimal_text(a * c, b * self.n, self.places) if decimal else ratio_text(a * c, b * self.n)
        if sign == 0:
            return ratio_decimal_text(0, 1, self.places) if decimal else "0"
        text = self.probability(i, decimal)
        return text if sign == 1 else negated_text(text)


# A named tuple, not a dataclass: every command that prints JSON makes the class at start-up, and a named tuple's
# costs a fraction of a frozen dataclass's to make (its methods are not compiled from text).
class _BetPlan(NamedTuple):
    """What one bet's JSON needs that no shoe changes: its texts, its net pays as integers, which outcomes win."""

    id: str
    description: str
    outcome_ids: tuple[str, ...]
    events: tuple[str, ...]
    net_texts: tuple[str, ...]
    nets: tuple[tuple[int, int], ...]  # (numerator, denominator) of each expected net pay (the net pay itself
    # unless a multiplier is attached)
    scale: int  # L, the common denominator of the expected net pays (paytable.IntegerPays)
    scaled: tuple[int, ...]  # each expected net pay times L
    squares: tuple[int, ...]  # each expected squared net pay times L²
    wins: tuple[tuple[int, int], ...]  # (outcome, P(net > 0 | outcome) times hit_scale) where it wins something
    hit_scale: int  # the common denominator of those probabilities (1 without a multiplier)
    signs: tuple[int | None, ...]  # 1, -1 or 0 for an outcome whose net pay is that, else None
    multipliers: tuple[dict[str, Any] | None, ...]  # each outcome's multiplier as JSON, or None
    stakes: tuple[int, ...]  # with a rebate, each outcome's effective stake (rebate.stake_weights) times W, else ()
    stake_scale: int  # W, the common denominator of those effective stakes

    @classmethod
    def of(cls, bet: Bet, rebate: Rebate | None = None) -> _BetPlan:
        pays = bet.integer_pays
        outcomes = bet.outcomes
        weights = () if rebate is None else stake_weights(bet, rebate.basis)
        stake_scale = lcm(*(w.denominator for w in weights))
        return cls(
            bet.id,
            bet.description,
            tuple(o.id for o in outcomes),
            tuple(o.event.name for o in outcomes),
            tuple(fraction_text(o.net) for o in outcomes),
            tuple((o.mean.numerator, o.mean.denominator) for o in outcomes),
            pays.scale,
            pays.means,
            pays.squares,
            tuple((i, w) for i, w in enumerate(pays.wins) if w),
            pays.win_scale,
            tuple(int(o.net) if o.net in (1, -1, 0) and o.multiplier is None else None for o in outcomes),
            tuple(_multiplier_json(o) for o in outcomes),
            tuple(int(w * stake_scale) for w in weights),
            stake_scale,
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
    "probability": lambda b, i: b.probability(i, False),
    "probability_decimal": lambda b, i: b.probability(i, True),
    "return": lambda b, i: b.contribution(i, False),
    "return_decimal": lambda b, i: b.contribution(i, True),
}
_BET_FIELDS: dict[str, Callable[[_Priced], str] | None] = {
    "description": lambda b: b.bet.description,
    "outcomes": None,  # the outcome rows, one object of _OUTCOME_FIELDS each
    "ev": lambda b: b.ev(False),
    "house_edge": lambda b: negated_text(b.ev(False)),
    "variance": lambda b: ratio_text(*b.variance()),
    "hit_frequency": lambda b: ratio_text(*b.hits()),
    "ev_decimal": lambda b: b.ev(True),
    "house_edge_decimal": lambda b: negated_text(b.ev(True)),
    "variance_decimal": lambda b: ratio_decimal_text(*b.variance(), b.places),
    "sd_decimal": lambda b: ratio_sqrt_decimal_text(*b.variance(), b.places),
    "hit_frequency_decimal": lambda b: ratio_decimal_text(*b.hits(), b.places),
}
#: The keys of an outcome's row and of a bet, in the contract's order (the API's schema of an answer reads them).
OUTCOME_KEYS: tuple[str, ...] = tuple(_OUTCOME_FIELDS)
BET_KEYS: tuple[str, ...] = tuple(_BET_FIELDS)
#: The top-level keys of the contract (``bets`` holds the bet keys; ``given`` is the ``odds --given`` report's only).
TOP_FIELDS = ("rules", "shoe", "orderings", "bets", "policy")
#: Every key ``batch --fields`` may choose, in the contract's order: top level, then per bet, then per outcome.
FIELDS: tuple[str, ...] = (
    *(k for k in TOP_FIELDS if k != "bets"),
    *(k for k in _BET_FIELDS if k != "outcomes"),
    "rebate",  # with --rebate: a bet's rate, basis, effective stake and EV with the rebate (after its other keys)
    *_OUTCOME_FIELDS,
    "multiplier",  # an outcome's random multiplier, on the outcomes that have one (after return_decimal)
)


def parse_fields(text: str) -> frozenset[str]:
    """Read a comma-separated choice of keys of the JSON contract (:data:`FIELDS`).

    >>> sorted(parse_fields("ev, count"))
    ['count', 'ev']
    >>> parse_fields("edge")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown field 'edge': valid fields are rules, shoe, orderings, ...
    """
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    if not chosen:
        raise ExactOddsError("--fields needs at least one key of the JSON contract, e.g. ev,house_edge")
    for name in chosen:  # a near miss is told the closest keys; the list is cut to a line, as every name's is
        if name not in FIELDS:
            raise unknown_name("field", name, FIELDS, more="the JSON contract lists them all")
    return frozenset(chosen)


class _Hole:
    """A value of the layout that changes from shoe to shoe: a JSON string of digits, signs, ``/`` and ``.`` (no
    escaping needed), or a raw JSON literal (the shoe's numbers and flag)."""

    __slots__ = ("raw",)

    def __init__(self, raw: bool) -> None:
        self.raw = raw


_TEXT, _RAW = _Hole(False), _Hole(True)
#: The keys whose values are the same for every shoe: they are written once into the layout.
_FIXED = frozenset({"outcome", "event", "net", "description"})


class JsonLayout:
    """The JSON contract of an analysis for one rule set, bet list and precision, optionally cut to some fields.

    Made once and used for every shoe of a batch: the keys and every value that no shoe changes
    are encoded once, so a shoe costs only its exact values. With ``fields`` (keys of
    :data:`FIELDS`) every other key is left out: a bet keeps its id, an outcome row its
    ``outcome`` id, and a level with nothing chosen in it is dropped; what is left is exactly
    the full object without those keys. With a ``rebate`` each bet ends with its ``rebate`` object
    (:meth:`~exactodds.rebate.RebateFigures.as_json`); without one the layout is the same as ever.

    >>> from exactodds.puntobanco.odds import analyze
    >>> from exactodds.cards import Shoe
    >>> a = analyze(Shoe.standard(8), bets=["tie"])
    >>> lean = JsonLayout(a.rules, [b.bet for b in a.bets], 4, frozenset({"ev_decimal", "count"}))
    >>> line = lean.line(a.shoe, [o.count for o in a.bets[0].outcomes], a.orderings)
    >>> line[:71]
    '{"bets":{"tie":{"outcomes":[{"outcome":"win","count":"475627426473216"}'
    >>> line[71:]
    ',{"outcome":"lose","count":"4522770849030144"}],"ev_decimal":"-0.1436"}}}'
    """

    def __init__(
        self,
        rules: Rules,
        bets: Sequence[Bet],
        places: int = DEFAULT_PRECISION,
        fields: frozenset[str] | None = None,
        rebate: Rebate | None = None,
        counting: Counting | None = None,
        indent: int | None = None,
    ) -> None:
        def chosen(key: str) -> bool:
            return fields is None or key in fields

        self.places = places
        self.rebate = rebate if chosen("rebate") else None
        self.plans = [_BetPlan.of(bet, self.rebate) for bet in bets]
        self.starts = [0]
        for one in bets:
            self.starts.append(self.starts[-1] + len(one.outcomes))
        rows = fields is None or not fields.isdisjoint({*_OUTCOME_FIELDS, "multiplier"})  # a row keeps its id
        outcome_keys = [(k, f) for k, f in _OUTCOME_FIELDS.items() if rows and (chosen(k) or k == "outcome")]
        bet_keys = [(k, f) for k, f in _BET_FIELDS.items() if chosen(k) or (k == "outcomes" and rows)]
        # What each shoe fills in, in the order of the text: the same lists drive the skeleton below.
        self._outcome_values = [f for k, f in outcome_keys if k not in _FIXED]
        self._bet_values = [f for k, f in bet_keys if k not in _FIXED]
        # Only the outcome counts change from shoe to shoe (``--fields count``): they are the row itself.
        self._counts_only = [k for k, _ in outcome_keys if k not in _FIXED] == ["count"] and [
            k for k, _ in bet_keys if k not in _FIXED
        ] == ["outcomes"] and self.rebate is None
        self._shoe = chosen("shoe")
        self._orderings = chosen("orderings")
        self._bets = bool(bet_keys) or self.rebate is not None
        skeleton: dict[str, Any] = {}
        if counting is not None:  # a game whose deal is not a coup of six cards: its name first, then its settings
            skeleton["game"] = rules.name
        if chosen("rules"):
            skeleton["rules"] = rules.as_dict()
        if self._shoe:
            skeleton["shoe"] = _holes(shoe_json(Shoe.standard(1)))
        if self._orderings:
            skeleton["orderings"] = _TEXT
            if counting is not None:  # what the counts are out of, in words
                skeleton["counting"] = {"cards": counting.cards, "convention": counting.convention}
        if self._bets:
            skeleton["bets"] = bets_skeleton = {}
            for plan in self.plans:
                fixed = _Priced(plan, [0] * len(plan.outcome_ids), 1, places)  # for the keys no shoe changes
                bet: dict[str, Any] = {}
                bets_skeleton[plan.id] = bet
                for key, value in bet_keys:
                    if value is None:
                        rows_skeleton: list[dict[str, Any]] = [
                            {k: f(fixed, i) if k in _FIXED else _TEXT for k, f in outcome_keys}
                            for i in range(len(plan.outcome_ids))
                        ]
                        bet[key] = rows_skeleton
                        for row, multiplier in zip(rows_skeleton, plan.multipliers):
                            if multiplier is not None and chosen("multiplier"):
                                row["multiplier"] = multiplier  # fixed: no shoe changes it
                    else:
                        bet[key] = value(fixed) if key in _FIXED else _TEXT
                if self.rebate is not None:  # the rate and basis are the same for every shoe
                    bet["rebate"] = {**self.rebate.as_json(), "effective_stake": _TEXT, "ev": _TEXT}
        policy = rules.policy()
        if policy and chosen("policy"):
            skeleton["policy"] = policy
        self._skeleton = skeleton
        self._pieces, self._raws = _compile(skeleton, indent)
        # The text of a shoe is the pieces with its values between them: a list with a slot for each value.
        self._slots: list[str] = [piece for piece in self._pieces for piece in (piece, "")][:-1]

    def values(self, shoe: Shoe, counts: Sequence[int], orderings: int) -> list[str]:
        """The values of one shoe's object that change from shoe to shoe, as text, in the order they are written.

        ``counts`` holds every bet's outcome counts side by side, out of ``orderings``.
        """
        out: list[str] = []
        if self._shoe:
            out.extend(_literals(shoe_json(shoe)))
        if self._orderings:
            out.append(str(orderings))
        if self._counts_only:
            out.extend(map(str, counts))  # every bet's outcome counts side by side, in the order written
        elif self._bets:
            places, starts, rows, per_bet = self.places, self.starts, self._outcome_values, self._bet_values
            for k, plan in enumerate(self.plans):
                priced = _Priced(plan, counts[starts[k] : starts[k + 1]], orderings, places)
                for value in per_bet:
                    if value is None:
                        for i in range(len(priced.counts)):
                            for f in rows:
                                out.append(f(priced, i))
                    else:
                        out.append(value(priced))
                if self.rebate is not None:
                    out += (priced.effective_stake(), priced.rebate_ev(self.rebate.rate))
        return out

    def line(self, shoe: Shoe, counts: Sequence[int], orderings: int) -> str:
        """One shoe's object as one line of compact JSON (the bytes of ``batch``; laid out on many lines by a layout
        made with an ``indent``)."""
        text = self._slots.copy()
        text[1::2] = self.values(shoe, counts, orderings)
        return "".join(text)

    def data(self, shoe: Shoe, counts: Sequence[int], orderings: int) -> dict[str, Any]:
        """One shoe's object as Python values: the text of :meth:`line`, read back with ``json.loads``.

        >>> from exactodds.puntobanco.rules import PUNTO_BANCO
        >>> from exactodds.puntobanco.bets import find_bet
        >>> tie = JsonLayout(PUNTO_BANCO, [find_bet("tie", PUNTO_BANCO)], 2, frozenset({"ev"}))
        >>> tie.data(Shoe.standard(1), [1, 3], 4)
        {'bets': {'tie': {'ev': '5/4'}}}
        """
        result: dict[str, Any] = json.loads(self.line(shoe, counts, orderings))
        return result


def _holes(value: Any) -> Any:
    """A shoe's JSON object with each number and flag made a raw hole (a shoe's keys are the same for every shoe)."""
    if isinstance(value, dict):
        return {k: _holes(v) for k, v in value.items()}
    return _RAW


def _literals(value: Any) -> list[str]:
    """The numbers and flags of a shoe's JSON object as JSON literals, in order (the raw holes of :func:`_holes`)."""
    out: list[str] = []
    for v in value.values():
        if isinstance(v, dict):
            out.extend(_literals(v))
        else:
            out.append("true" if v is True else "false" if v is False else str(v))
    return out


def _compile(skeleton: Any, indent: int | None = None) -> tuple[list[str], list[bool]]:
    """The JSON text of ``skeleton`` cut at its holes: n holes give n + 1 pieces (and each hole's kind); compact, or
    laid out as ``json.dumps(..., indent=indent)`` lays it out.

    >>> _compile({"a": [1, _TEXT], "b": {}}, indent=2)[0]
    ['{\\n  "a": [\\n    1,\\n    "', '"\\n  ],\\n  "b": {}\\n}']
    """
    pieces = [""]
    raws: list[bool] = []
    colon = ":" if indent is None else ": "

    def newline(depth: int) -> str:
        return "" if indent is None else "\n" + " " * (indent * depth)

    def walk(value: Any, depth: int) -> None:
        if isinstance(value, _Hole):
            raws.append(value.raw)
            pieces[-1] += "" if value.raw else '"'
            pieces.append("" if value.raw else '"')
        elif isinstance(value, dict | list) and not value:
            pieces[-1] += "{}" if isinstance(value, dict) else "[]"
        elif isinstance(value, dict):
            pieces[-1] += "{"
            for n, (key, item) in enumerate(value.items()):
                pieces[-1] += ("," if n else "") + newline(depth + 1) + _encode(key) + colon
                walk(item, depth + 1)
            pieces[-1] += newline(depth) + "}"
        elif isinstance(value, list):
            pieces[-1] += "["
            for n, item in enumerate(value):
                pieces[-1] += ("," if n else "") + newline(depth + 1)
                walk(item, depth + 1)
            pieces[-1] += newline(depth) + "]"
        else:
            pieces[-1] += _encode(value)

    walk(skeleton, 0)
    return pieces, raws


#: A key or a scalar value no shoe changes, as JSON (ASCII, as ``json.dumps`` writes it).
_encode = json.JSONEncoder(separators=(",", ":")).encode


def analysis_json(analysis: Analysis, places: int = DEFAULT_PRECISION) -> dict[str, Any]:
    """The whole analysis in the stable JSON contract (docs/json.md); ``policy`` when the Player's 5 is chosen, and
    each bet's ``rebate`` with the analysis's rebate."""
    layout = JsonLayout(analysis.rules, [f.bet for f in analysis.bets], places, rebate=analysis.rebate,
                        counting=analysis.counting)
    data = layout.data(
        analysis.shoe, [o.count for f in analysis.bets for o in f.outcomes], analysis.orderings
    )
    if analysis.given is not None and analysis.given_probability is not None:
        data["given"] = {"event": analysis.given.event, "probability": fraction_text(analysis.given_probability)}
    if analysis.chart is not None:  # a game's decisions, after its bets
        data["chart"] = analysis.chart.as_json()
    for note in analysis.notes:  # figures a game adds to a bet's, after the layout's keys
        data["bets"][note.bet][note.key] = note.data
    return data


@lru_cache(maxsize=64)
def layout_of(rules: Rules, bets: tuple[Bet, ...], places: int, rebate: Rebate | None, counting: Counting | None,
              indent: int | None) -> JsonLayout:
    """The layout of the whole analysis for these rules, bets and precision, made once and kept (a server prices
    the same bets request after request: the layout is most of the cost of an answer)."""
    return JsonLayout(rules, bets, places, rebate=rebate, counting=counting, indent=indent)


def render_json(analysis: Analysis, places: int = DEFAULT_PRECISION, *, indent: int | None = 2) -> str:
    """The JSON contract as text (one line when ``indent`` is None): ``json.dumps`` of :func:`analysis_json`.

    >>> from exactodds.puntobanco.odds import analyze
    >>> from exactodds.cards import Shoe
    >>> a = analyze(Shoe.standard(1), bets=["tie"])
    >>> render_json(a, 4) == json.dumps(analysis_json(a, 4), indent=2)
    True
    """
    if analysis.given is not None or analysis.chart is not None or analysis.notes:  # keys after the layout's
        separators = (",", ":") if indent is None else None
        return json.dumps(analysis_json(analysis, places), indent=indent, separators=separators)
    rules: Any = analysis.rules  # every game's rules are frozen values, so hashable (the protocol cannot say so)
    layout = layout_of(rules, tuple(f.bet for f in analysis.bets), places, analysis.rebate, analysis.counting, indent)
    return layout.line(analysis.shoe, [o.count for f in analysis.bets for o in f.outcomes], analysis.orderings)
