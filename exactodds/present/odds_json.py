"""The JSON contract of an analysis (docs/json.md): the whole object, or cut to ``batch --fields``.

:class:`JsonLayout` is the one definition of the layout: the full report (:func:`analysis_json`)
takes every key and ``batch`` a subset, and for a batch the keys and every value no shoe changes
are encoded once. The other formats of the ``odds`` report are in :mod:`.odds`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import mul
from typing import Any

from ..analysis import Analysis, Counting, Rules
from ..cards import Shoe
from ..errors import ExactOddsError, unknown_name
from ..exact import (
    decimal_writer,
    fraction_text,
    negated_text,
    ratio_sqrt_decimal_text,
    ratio_text,
    sqrt_decimal_writer,
)
from ..memo import IdentityCache
from ..paytable import Bet
from ..rebate import Rebate
from . import DEFAULT_PRECISION, shoe_json
from .priced import FULL_BET_VALUES, FULL_OUTCOME_VALUES, BetPlan, Priced, full_texts

# The JSON contract (docs/json.md), level by level and in its order: each key with the function that
# writes its value. This is the one definition of the layout: the full report takes every key, and
# `batch --fields` a subset, so the two cannot drift apart. Every value is an exact rational written
# from integers (reduced by one gcd, rounded half away from zero by exact.decimal_writer), never through a Fraction;
# the whole contract's values are written in one pass by priced.full_texts, which a test holds to these functions.
_OUTCOME_FIELDS: dict[str, Callable[[Priced, int], str]] = {
    "outcome": lambda b, i: b.bet.outcome_ids[i],
    "event": lambda b, i: b.bet.events[i],
    "net": lambda b, i: b.bet.net_texts[i],
    "count": lambda b, i: str(b.counts[i]),
    "probability": lambda b, i: b.probability(i, False),
    "probability_decimal": lambda b, i: b.probability(i, True),
    "return": lambda b, i: b.contribution(i, False),
    "return_decimal": lambda b, i: b.contribution(i, True),
}
_BET_FIELDS: dict[str, Callable[[Priced], str] | None] = {
    "description": lambda b: b.bet.description,
    "outcomes": None,  # the outcome rows, one object of _OUTCOME_FIELDS each
    "ev": lambda b: b.ev(False),
    "house_edge": lambda b: negated_text(b.ev(False)),
    "variance": lambda b: ratio_text(*b.variance()),
    "hit_frequency": lambda b: ratio_text(*b.hits()),
    "ev_decimal": lambda b: b.ev(True),
    "house_edge_decimal": lambda b: negated_text(b.ev(True)),
    "variance_decimal": lambda b: b.decimal(*b.variance()),
    "sd_decimal": lambda b: ratio_sqrt_decimal_text(*b.variance(), b.places),
    "hit_frequency_decimal": lambda b: b.decimal(*b.hits()),
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
        self._shoe_values: Callable[[Shoe], list[str]] = _shoe_literals
        self.rebate = rebate if chosen("rebate") else None
        self.plans = [BetPlan.of(bet, self.rebate) for bet in bets]
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
        changing = (tuple(k for k, _ in outcome_keys if k not in _FIXED),
                    tuple(k for k, _ in bet_keys if k not in _FIXED))
        self._counts_only = changing == (("count",), ("outcomes",)) and self.rebate is None
        # Each bet's EV alone (``--fields ev``, a counter's question): one sum a bet, S1/(L·n), and no Priced made.
        self._ev_only = changing == ((), ("ev",)) and self.rebate is None
        # The whole contract's values are written in one pass (priced.full_texts), the bets sharing their texts.
        self._full = changing == (FULL_OUTCOME_VALUES, FULL_BET_VALUES)
        self._decimal, self._root = decimal_writer(places), sqrt_decimal_writer(places)
        self._shoe = chosen("shoe")
        self._orderings = chosen("orderings")
        self._bets = bool(bet_keys) or self.rebate is not None
        skeleton: dict[str, Any] = {}
        if counting is not None:  # a game whose deal is not a coup of six cards: its name first, then its settings
            skeleton["game"] = rules.name
        if chosen("rules"):
            skeleton["rules"] = rules.as_dict()
        if self._shoe:
            probe = Shoe.standard(1)
            skeleton["shoe"] = _holes(shoe_json(probe))
            if _shoe_literals(probe) != _literals(shoe_json(probe)):  # the shoe's JSON changed: write it as it says
                self._shoe_values = lambda shoe: _literals(shoe_json(shoe))
        if self._orderings:
            skeleton["orderings"] = _TEXT
            if counting is not None:  # what the counts are out of, in words
                skeleton["counting"] = {"cards": counting.cards, "convention": counting.convention}
        if self._bets:
            skeleton["bets"] = bets_skeleton = {}
            for plan in self.plans:
                # for the keys no shoe changes
                fixed = Priced(plan, [0] * len(plan.outcome_ids), 1, places, self._decimal)
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
            out += self._shoe_values(shoe)
        if self._orderings:
            out.append(str(orderings))
        if self._counts_only:
            out.extend(map(str, counts))  # every bet's outcome counts side by side, in the order written
        elif self._ev_only:
            starts = self.starts
            out += [ratio_text(sum(map(mul, plan.scaled, counts[a:b])), plan.scale * orderings)
                    for plan, a, b in zip(self.plans, starts, starts[1:])]
        elif self._full:
            out += full_texts(self.plans, counts, orderings, self.places, self._decimal, self._root,
                              None if self.rebate is None else self.rebate.rate)
        elif self._bets:
            places, starts, rows, per_bet = self.places, self.starts, self._outcome_values, self._bet_values
            for k, plan in enumerate(self.plans):
                priced = Priced(plan, counts[starts[k] : starts[k + 1]], orderings, places, self._decimal)
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


def _shoe_literals(shoe: Shoe) -> list[str]:
    """``_literals(shoe_json(shoe))`` written straight from the counts (a test holds the two the same).

    >>> _shoe_literals(Shoe.parse("A=2,K=5")) == _literals(shoe_json(Shoe.parse("A=2,K=5")))
    True
    """
    counts = shoe.counts
    return [str(sum(counts)), *map(str, counts), "false" if shoe.suits is None else "true"]


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
    layout = _layout_by_identity(analysis.rules, [f.bet for f in analysis.bets], places, analysis.rebate,
                                 analysis.counting, indent)
    return layout.line(analysis.shoe, [c for f in analysis.bets for c in f.counts], analysis.orderings)


#: The layouts of :func:`_layout_by_identity`, found by the identities of their rules, bets, rebate and counting (each
#: entry holds its objects, so that no other object can take their ids while it is kept).
_BY_IDENTITY: IdentityCache[JsonLayout] = IdentityCache(64)


def _layout_by_identity(rules: Any, bets: Sequence[Bet], places: int, rebate: Rebate | None,
                        counting: Counting | None, indent: int | None) -> JsonLayout:
    """:func:`layout_of` found by the very objects it was made for, without hashing them again.

    A server answers request after request with the same rules and bet objects: hashing the rules and
    every bet (their fields, down to each outcome's event) cost an answer some 5%. Nothing here leaves
    the process (a hash of a str differs from process to process). Rules of any game are frozen values,
    so hashable (the protocol cannot say so): equal ones made again share a layout by :func:`layout_of`.
    """
    def make() -> JsonLayout:
        return layout_of(rules, tuple(bets), places, rebate, counting, indent)

    return _BY_IDENTITY.get_all((rules, rebate, counting, *bets), make, (places, indent))
