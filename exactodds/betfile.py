"""The bet notation: a TOML pay table read into plain data, for bets files and the built-in catalog alike.

A bets file is ``[bets.ID]`` tables, each with a description and ``[[bets.ID.outcome]]``
entries: an id, ``when = { fact = value, … }`` (a condition over the game's facts, see
:mod:`exactodds.notation`; punto banco's are :mod:`exactodds.puntobanco.facts`) or ``otherwise = true``,
optionally ``event`` (the outcome in words) and ``pays`` (to 1; -1 loses the stake, 0 pushes).
The built-in side bets are written in the same notation (``exactodds/data/*.toml``) and read by the same code.

Files are parsed with :mod:`tomllib` and only ever read as data (:mod:`exactodds.tomldata`).
Every mistake is an :class:`~exactodds.errors.ExactOddsError` naming the file, the bet and
the line: ``tomllib`` gives no line numbers for values, so the line is that of the bet's (or
outcome's) table header or key, found by searching the file's text.

>>> from exactodds.puntobanco.bets import VOCABULARY
>>> (spec,) = read_bet_specs('''
... [bets.big-tie]
... description = "A tie on 6 or more pays 10:1"
... [[bets.big-tie.outcome]]
... id = "win"
... when = { winner = "tie", winning_total = [6, 7, 8, 9] }
... pays = 10
... [[bets.big-tie.outcome]]
... id = "lose"
... otherwise = true
... pays = -1
... ''', "big-tie.toml", VOCABULARY)
>>> [(o.id, o.when, str(o.pays)) for o in spec.outcomes]
[('win', (('winner', ('tie',)), ('winning_total', (6, 7, 8, 9))), '10'), ('lose', None, '-1')]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

from .errors import ExactOddsError, shown
from .exact import short_text
from .notation import Condition
from .tomldata import TomlLines, load_toml, parse_pay, text_field

_BET_KEYS = {"description", "outcome"}
_OUTCOME_KEYS = {"id", "event", "when", "otherwise", "pays", "multiplier"}
_MULTIPLIER_KEYS = {"values", "probabilities", "applies"}
#: The most multiplier values one outcome may list.
MAX_MULTIPLIERS = 1000
#: What a bet, outcome or override id is written as, and the most characters it may have (a rule set's name too).
ID = re.compile(r"[a-z0-9][a-z0-9-]*")
MAX_ID = 64
#: The word of ``--bet`` (and of the library's bet lists) for every bet that can be priced: no bet may take it.
ALL_BETS = "all"

#: The most bets a bets file may define, the most outcomes a bet may have.
MAX_BETS = MAX_OUTCOMES = 1000


# Named tuples, not frozen dataclasses (Multiplier, OutcomeSpec, BetSpec, Vocabulary): each class is made at every
# start-up, a named tuple's at a fraction of the cost of a frozen dataclass's (see paytable.IntegerPays).
class Multiplier(NamedTuple):
    """A random multiplier on an outcome's pay: its values, their exact probabilities, and what it multiplies.

    Drawn when the outcome happens, independently of the cards dealt (Lightning-style games
    draw it from their own distribution). ``applies = "pays"`` multiplies the net pay (a
    1:1 win becomes M:1); ``"return"`` multiplies the whole return, stake included (a 1:1
    win returns 2·M, a net of 2M − 1); ``"net"`` (made by a game, not a bets file) is the law
    of the net pay itself: each value is the net paid (the lit-card games' law of a hand's pay).

    >>> m = Multiplier((Fraction(1), Fraction(5)), (Fraction(3, 4), Fraction(1, 4)), "pays")
    >>> m.mean(Fraction(1)), m.square(Fraction(1))
    (Fraction(2, 1), Fraction(7, 1))
    """

    values: tuple[Fraction, ...]
    probabilities: tuple[Fraction, ...]
    applies: str = "pays"

    def _moment(self, k: int) -> Fraction:
        return sum((p * v**k for v, p in zip(self.values, self.probabilities)), Fraction(0))

    def mean(self, net: Fraction) -> Fraction:
        """E[X] for the outcome's net pay ``net`` under this multiplier, exactly."""
        if self.applies == "net":
            return self._moment(1)
        if self.applies == "return":
            return (net + 1) * self._moment(1) - 1
        return net * self._moment(1)

    def square(self, net: Fraction) -> Fraction:
        """E[X²] for the outcome's net pay ``net`` under this multiplier, exactly."""
        if self.applies == "net":
            return self._moment(2)
        if self.applies == "return":
            return (net + 1) ** 2 * self._moment(2) - 2 * (net + 1) * self._moment(1) + 1
        return net**2 * self._moment(2)

    def paid(self, net: Fraction, value: Fraction) -> Fraction:
        """The net pay of an outcome paying ``net`` when the multiplier draws ``value``: M·net, (net + 1)·M − 1, or the
        value itself (a law of net pays)."""
        if self.applies == "net":
            return value
        return (net + 1) * value - 1 if self.applies == "return" else net * value

    def chance(self, net: Fraction, sign: int) -> Fraction:
        """P(the net pay has ``sign``: 1 a win, 0 a push, −1 a loss) for an outcome paying ``net``.

        A ×0 makes a win a push on the pay and a loss on the return: never a win.

        >>> m = Multiplier((Fraction(0), Fraction(1), Fraction(3)), (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)))
        >>> m.chance(Fraction(8), 1), m.chance(Fraction(8), 0), m.chance(Fraction(-1), 1)
        (Fraction(3, 4), Fraction(1, 4), Fraction(0, 1))
        >>> Multiplier(m.values, m.probabilities, "return").chance(Fraction(-1, 2), 1)  # a half loss, ×3: +1/2
        Fraction(1, 4)
        """
        drawn = zip(self.values, self.probabilities)
        return sum((p for v, p in drawn if _sign(self.paid(net, v)) == sign), Fraction(0))

    def text(self) -> str:
        """The distribution in words, e.g. ``×1 (3/4), ×5 (1/4) on the pay`` (a law of net pays: its size and top)."""
        if self.applies == "net":
            return f"by the lit cards: {len(self.values)} pays, up to {short_text(max(self.values))} to 1"
        shown = ", ".join(f"×{v} ({p})" for v, p in zip(self.values, self.probabilities))
        return f"{shown} on the {'return' if self.applies == 'return' else 'pay'}"


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def parse_multiplier(raw: object) -> Multiplier:
    """Read ``multiplier = { values = [...], probabilities = [...], applies = "pays" | "return" }``.

    >>> parse_multiplier({"values": [1, 2], "probabilities": ["1/2", "1/2"]}).mean(Fraction(1))
    Fraction(3, 2)
    >>> parse_multiplier({"values": [1, 2], "probabilities": ["1/2", "1/3"]})
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the multiplier's probabilities add up to 5/6, not 1
    """
    if not isinstance(raw, dict):
        raise ExactOddsError('multiplier must be a table: { values = [2, 3], probabilities = ["1/2", "1/2"] }')
    for key in raw:
        if key not in _MULTIPLIER_KEYS:
            raise ExactOddsError(f"unknown key {shown(key)!r} in multiplier: it has"
                                 f" {', '.join(sorted(_MULTIPLIER_KEYS))}")
    values, probabilities = raw.get("values"), raw.get("probabilities")
    if not isinstance(values, list) or not isinstance(probabilities, list) or not values:
        raise ExactOddsError("a multiplier needs values = [...] and probabilities = [...], lists of the same length")
    if len(values) != len(probabilities):
        raise ExactOddsError(
            f"the multiplier has {len(values)} values but {len(probabilities)} probabilities: give one each"
        )
    if len(values) > MAX_MULTIPLIERS:
        raise ExactOddsError(f"a multiplier may list at most {MAX_MULTIPLIERS} values")
    vs, ps = [], []
    for value, probability in zip(values, probabilities):
        try:
            v, p = parse_pay(value), parse_pay(probability)
        except ExactOddsError as err:
            raise ExactOddsError(f"bad multiplier value or probability: {str(err).replace('a pay', 'it')}") from None
        if v < 0:
            raise ExactOddsError(f"a multiplier value cannot be negative, not {v}")
        if p < 0:
            raise ExactOddsError(f"a multiplier probability cannot be negative, not {p}")
        vs.append(v)
        ps.append(p)
    total = sum(ps, Fraction(0))
    if total != 1:
        raise ExactOddsError(f"the multiplier's probabilities add up to {total}, not 1")
    applies = raw.get("applies", "pays")
    if applies not in ("pays", "return"):
        raise ExactOddsError(f'multiplier applies = "pays" (the net pay) or "return" (stake included), not'
                             f' {shown(applies)!r}')
    return Multiplier(tuple(vs), tuple(ps), applies)


class OutcomeSpec(NamedTuple):
    """One ``[[bets.ID.outcome]]`` as written: id, condition (``None``: otherwise), pay, name, line, multiplier."""

    id: str
    when: Condition | None
    pays: Fraction
    event: str | None
    line: int | None
    multiplier: Multiplier | None = None


class BetSpec(NamedTuple):
    """One ``[bets.ID]`` table as written: the id, the description and the outcomes in order."""

    id: str
    description: str
    outcomes: tuple[OutcomeSpec, ...]


class Vocabulary(NamedTuple):
    """What a game's bets are written in: how a ``when`` table is read, and how a bet's outcomes are checked.

    ``condition`` checks a ``when`` table into a condition over the game's facts; ``partition`` is
    given a bet's id and its outcomes as read (a ``when`` of ``None``: otherwise) and names the
    first that overlaps an earlier one or the gap no outcome settles, as ``(outcome index or None
    for the bet, what, why)``, or returns ``None`` when they settle every deal of the game once.
    Punto banco's is :data:`exactodds.puntobanco.bets.VOCABULARY`; a game with a deal of its own makes its own.
    """

    condition: Callable[[Mapping[str, object]], Condition]
    partition: Callable[[str, Sequence[OutcomeSpec]], tuple[int | None, str, str] | None]
    #: The lowest pay an outcome may have: -1 (the stake lost), or less where a bet may be raised.
    lowest_pay: int = -1


def read_bet_specs(
    text: str, name: str, vocabulary: Vocabulary, reserved: Collection[str] = frozenset()
) -> tuple[BetSpec, ...]:
    """The bets of a bets file's text as written, its conditions over a game's facts (``vocabulary``), checked to
    settle every deal once; ``name`` is for errors. ``reserved``: the ids of the game's own bets, which a user's
    file may not take (``--bet ID`` names the game's; ``all`` is reserved always).

    >>> from exactodds.puntobanco.bets import VOCABULARY
    >>> read_bet_specs('[bets.tie]', "mine.toml", VOCABULARY, {"tie"})
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: mine.toml:1: bet 'tie': the id 'tie' is a bet of the game's own (--bet tie ...
    """
    data = load_toml(text, name)
    where = TomlLines(text, name)
    unknown = set(data) - {"bets"}
    if unknown:
        key = sorted(unknown)[0]
        raise where.error(where.key(key, 1), f"key {shown(key)!r}", "a bets file holds only [bets.ID] tables")
    table = data.get("bets")
    if not isinstance(table, dict) or not table:
        raise where.error(None, "no bets", "define at least one bet as a [bets.ID] table")
    if len(table) > MAX_BETS:
        raise where.error(None, f"{len(table):,} bets", f"a bets file may define at most {MAX_BETS:,} bets")
    return tuple(_read_bet(bet_id, spec, where, vocabulary, reserved) for bet_id, spec in table.items())


def _read_bet(
    bet_id: str, spec: object, where: TomlLines, vocabulary: Vocabulary, reserved: Collection[str]
) -> BetSpec:
    line = where.header(f"bets.{bet_id}") or where.header(f"bets.{bet_id}.outcome", array=True)
    what = f"bet {shown(bet_id)!r}"
    if not ID.fullmatch(bet_id):
        raise where.error(line, what, "a bet id is lower-case letters, digits and dashes")
    if len(bet_id) > MAX_ID:
        raise where.error(line, what, f"a bet id has at most {MAX_ID} characters, not {len(bet_id):,}")
    if bet_id == ALL_BETS:
        raise where.error(line, what, f"the id {ALL_BETS!r} is reserved (--bet {ALL_BETS} means every bet): rename it")
    if bet_id in reserved:  # else the file's bet and the game's would be two bets of one id, priced as either
        raise where.error(line, what, f"the id {bet_id!r} is a bet of the game's own (--bet {bet_id} prices it): give"
                          " yours another id")
    if not isinstance(spec, dict):
        raise where.error(line, what, "a bet must be a table with a description and [[bets.ID.outcome]] entries")
    for key in spec:
        if key not in _BET_KEYS:
            raise where.error(
                where.key(key, line), what, f"unknown key {shown(key)!r}: a bet has {', '.join(sorted(_BET_KEYS))}"
            )
    description = spec.get("description", bet_id)
    if not isinstance(description, str):
        raise where.error(where.key("description", line), what, "the description must be text")
    try:
        description = text_field(description, "description")
    except ExactOddsError as err:
        raise where.error(where.key("description", line), what, str(err)) from None
    rows = spec.get("outcome")
    if not isinstance(rows, list) or len(rows) < 2 or not all(isinstance(r, dict) for r in rows):
        raise where.error(line, what, "a bet needs at least two [[bets.ID.outcome]] tables")
    if len(rows) > MAX_OUTCOMES:
        raise where.error(line, what, f"{len(rows):,} outcomes: a bet may have at most {MAX_OUTCOMES:,}")
    outcomes: list[OutcomeSpec] = []
    for k, row in enumerate(rows):
        outcomes.append(_read_outcome(bet_id, k, row, outcomes, where, line, vocabulary))
    problem = vocabulary.partition(bet_id, outcomes)
    if problem is not None:
        at, what, reason = problem
        raise where.error(line if at is None else outcomes[at].line, what, reason)
    return BetSpec(bet_id, description, tuple(outcomes))


def _read_outcome(
    bet_id: str, k: int, row: dict[str, Any], earlier: list[OutcomeSpec], where: TomlLines, line: int | None,
    vocabulary: Vocabulary,
) -> OutcomeSpec:
    oline = where.header(f"bets.{bet_id}.outcome", k, array=True) or line
    oid = row.get("id")
    owhat = f"bet {shown(bet_id)!r}, outcome {shown(oid) if isinstance(oid, str) else k + 1!r}"
    for key in row:
        if key not in _OUTCOME_KEYS:
            raise where.error(
                where.key(key, oline), owhat,
                f"unknown key {shown(key)!r}: an outcome has {', '.join(sorted(_OUTCOME_KEYS))}",
            )
    if not isinstance(oid, str) or not ID.fullmatch(oid):
        raise where.error(where.key("id", oline), owhat, "each outcome needs an id: lower-case letters, digits, dashes")
    if len(oid) > MAX_ID:
        raise where.error(where.key("id", oline), owhat, f"an outcome id has at most {MAX_ID} characters, not"
                          f" {len(oid):,}")
    if any(o.id == oid for o in earlier):
        raise where.error(where.key("id", oline), owhat, f"two outcomes share the id {shown(oid)!r}")
    if "pays" not in row:
        raise where.error(oline, owhat, "each outcome needs pays = a number (to 1; -1 loses the stake, 0 pushes)")
    try:
        pay = parse_pay(row["pays"], vocabulary.lowest_pay)
    except ExactOddsError as err:
        raise where.error(where.key("pays", oline), owhat, str(err)) from None
    otherwise = row.get("otherwise", False)
    if not isinstance(otherwise, bool):
        raise where.error(where.key("otherwise", oline), owhat, "otherwise must be true or false")
    if otherwise == ("when" in row):
        raise where.error(
            oline, owhat, "give each outcome either when = { … } or otherwise = true, not both or neither"
        )
    when: Condition | None = None
    if not otherwise:
        raw = row["when"]
        if not isinstance(raw, dict):
            raise where.error(
                where.key("when", oline), owhat, 'when must be a table of facts, e.g. { winner = "banker" }'
            )
        try:
            when = vocabulary.condition(raw)
        except ExactOddsError as err:
            raise where.error(where.key("when", oline), owhat, str(err)) from None
    elif any(o.when is None for o in earlier):
        raise where.error(where.key("otherwise", oline), owhat, "only one outcome can be otherwise = true")
    event = row.get("event")
    if event is not None and not isinstance(event, str):
        raise where.error(where.key("event", oline), owhat, "event (the outcome in words) must be text")
    if event is not None:
        try:
            event = text_field(event, "event")
        except ExactOddsError as err:
            raise where.error(where.key("event", oline), owhat, str(err)) from None
    multiplier = None
    if "multiplier" in row:
        try:
            multiplier = parse_multiplier(row["multiplier"])
            if any(multiplier.paid(pay, v) < -1 for v in multiplier.values):  # only ×M > 1 on a loss "on the pay"
                raise ExactOddsError("a multiplier cannot make the outcome lose more than the stake (-1): on a"
                                     ' losing pay use values of at most 1, or applies = "return"')
        except ExactOddsError as err:
            raise where.error(where.key("multiplier", oline), owhat, str(err)) from None
    return OutcomeSpec(oid, when, pay, event, oline, multiplier)


def packaged_text(file: str) -> str:
    """The text of a bets file shipped in the package (``exactodds/data``): the built-in bets of every game."""
    try:  # the package's own folder: read at once (importlib.resources alone costs the start-up some ms)
        return Path(__file__).with_name("data").joinpath(file).read_text(encoding="utf-8")
    except OSError:  # installed where its files are not files (a zip): ask the import system
        from importlib import resources

        return (resources.files(__package__ or "exactodds") / "data" / file).read_text(encoding="utf-8")


def bet_specs_text(specs: tuple[BetSpec, ...] | list[BetSpec], comment: str = "") -> str:
    """Bets in the bet notation, as a bets file (the reverse of :func:`read_bet_specs`), after a ``comment``.

    >>> from exactodds.puntobanco.bets import VOCABULARY
    >>> (spec,) = read_bet_specs('[bets.t]\\noutcome = [{id = "win", when = {winner = "tie"}, pays = "17/2"},'
    ...                          ' {id = "lose", otherwise = true, pays = -1}]', "t.toml", VOCABULARY)
    >>> print(bet_specs_text([spec], "a Tie at 8.5"))
    # a Tie at 8.5
    <BLANKLINE>
    [bets.t]
    description = "t"
    [[bets.t.outcome]]
    id = "win"
    when = { winner = "tie" }
    pays = "17/2"
    [[bets.t.outcome]]
    id = "lose"
    otherwise = true
    pays = -1
    <BLANKLINE>
    >>> [(o.id, o.when, o.pays) for o in read_bet_specs(bet_specs_text([spec]), "t.toml", VOCABULARY)[0].outcomes] == [
    ...     (o.id, o.when, o.pays) for o in spec.outcomes]
    True
    """
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    for spec in specs:
        lines += ["", f"[bets.{spec.id}]", f"description = {_toml_text(spec.description)}"]
        for o in spec.outcomes:
            lines += [f"[[bets.{spec.id}.outcome]]", f"id = {_toml_text(o.id)}"]
            if o.event is not None:
                lines.append(f"event = {_toml_text(o.event)}")
            if o.when is None:
                lines.append("otherwise = true")
            else:
                facts = ", ".join(f"{name} = {_toml_values(values)}" for name, values in o.when)
                lines.append(f"when = {{ {facts} }}")
            lines.append(f"pays = {_toml_number(o.pays)}")
            m = o.multiplier
            if m is not None:
                values = ", ".join(_toml_number(v) for v in m.values)
                chances = ", ".join(_toml_number(p) for p in m.probabilities)
                applies = f'applies = "{m.applies}"'
                lines.append(f"multiplier = {{ values = [{values}], probabilities = [{chances}], {applies} }}")
    return "\n".join(lines).lstrip("\n") + "\n"


def _toml_text(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped, everything else as it is."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_number(value: Fraction) -> str:
    """A pay or a probability: a whole number as it is, any other as the string ``"n/d"`` (read exactly)."""
    return str(value.numerator) if value.denominator == 1 else f'"{value.numerator}/{value.denominator}"'


def _toml_values(values: tuple[object, ...]) -> str:
    """A fact's values: one value alone, several as a list."""
    shown = [("true" if v else "false") if isinstance(v, bool) else str(v) if isinstance(v, int) else _toml_text(str(v))
             for v in values]
    return shown[0] if len(shown) == 1 else "[" + ", ".join(shown) + "]"
