"""User-defined bets and rules, read from TOML files (``--bets-file``, ``--rules-file``).

Files are parsed with :mod:`tomllib` and only ever read as data: a bet is named
outcomes, each a condition over coup facts (:mod:`exactodds.facts`) and a pay; a rules
file is the drawing tableau as two small charts, the commission, the Tie pay and the
Banker pay overrides. Every mistake is an :class:`~exactodds.errors.ExactOddsError`
naming the file, the bet (or table) and the line. ``tomllib`` gives no line numbers for
values, so the line is that of the bet's (or outcome's) table header or key, found by
searching the file's text: good enough to point at the mistake.

>>> bets = parse_bets('''
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
... ''', "big-tie.toml")
>>> [(o.id, str(o.net)) for o in bets[0].outcomes]
[('win', '10'), ('lose', '-1')]
"""

from __future__ import annotations

import math
import os
import re
import stat
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

from .bets import ALL_MASK, Bet, Event, Outcome, none_of, states_where
from .coup import ALL_STATES, CoupState
from .errors import ExactOddsError
from .exact import MAX_NUMBER, parse_fraction
from .facts import FACTS, Condition, condition, describe
from .rules import EZ_PUSH, PUNTO_BANCO, PayOverride, RuleSet, Tableau, find_rules, parse_commission

_BET_KEYS = {"description", "outcome"}
_OUTCOME_KEYS = {"id", "event", "when", "otherwise", "pays"}
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")

#: The largest bets or rules file read, in bytes: far beyond any real pay table.
MAX_FILE_BYTES = 1 << 20
#: How deep arrays and tables may nest in a file (a real file nests three or four deep).
MAX_DEPTH = 32
#: The most bets a bets file may define, the most outcomes a bet may have, the most pay overrides.
MAX_BETS = MAX_OUTCOMES = MAX_OVERRIDES = 1000


# A table header line, ``[a.b]`` or ``[[a.b]]``, and the parts of its dotted key (bare or quoted).
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*\]")
_PART = re.compile(r"""(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))""")


class _Where:
    """Turns a position in a TOML file (a table header, then a key below it) into a line number."""

    def __init__(self, text: str, name: str) -> None:
        self.lines = text.splitlines()
        self.name = name
        # Every table header's lines, by (dotted path, array or not), in one pass over the file.
        self._headers: dict[tuple[str, bool], list[int]] = {}
        for number, line in enumerate(self.lines, 1):
            found = _HEADER.match(line)
            if found:
                parts = [a or b or c for a, b, c in _PART.findall(found[2])]
                self._headers.setdefault((".".join(parts), found[1] == "[["), []).append(number)

    def header(self, path: str, occurrence: int = 0, array: bool = False) -> int | None:
        """The line of the ``occurrence``-th ``[path]`` (``[[path]]`` for an array) header."""
        found = self._headers.get((path, array), [])
        return found[occurrence] if occurrence < len(found) else None

    def key(self, key: str, after: int | None) -> int | None:
        """The first line at or after ``after`` that sets ``key`` (before the next table header)."""
        pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\")\s*=")
        start = after or 1
        for number in range(start, len(self.lines) + 1):
            line = self.lines[number - 1]
            if number > start and line.lstrip().startswith("["):
                break
            if pattern.match(line):
                return number
        return after

    def error(self, line: int | None, what: str, message: str) -> ExactOddsError:
        place = f"{self.name}:{line}" if line else self.name
        return ExactOddsError(f"{place}: {what}: {message}")


def _load(text: str, name: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text, parse_float=TomlFloat)
    except tomllib.TOMLDecodeError as err:
        raise ExactOddsError(f"{name}: not valid TOML: {err}") from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise ExactOddsError(f"{name}: not valid here: arrays or tables nest more than {MAX_DEPTH} deep") from None
    except ValueError:  # tomllib lets int() refuse an integer of more than 4300 digits
        raise ExactOddsError(f"{name}: not valid TOML: a number has too many digits") from None
    if _depth(data) > MAX_DEPTH:
        raise ExactOddsError(f"{name}: not valid here: arrays or tables nest more than {MAX_DEPTH} deep")
    return data


def _depth(value: object) -> int:
    """How deep arrays and tables nest in parsed TOML (without recursion: the data may be deep)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes; anything else is one clear error.

    The file is opened without blocking and checked to be a regular file before a byte is
    read, so a pipe, a device (``/dev/zero``), a directory or a socket is refused at once
    instead of hanging or reading without end; at most ``limit + 1`` bytes are ever read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise ExactOddsError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else "a device or socket"
            raise ExactOddsError(f"cannot read {path}: it is {kind}, not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    except OSError as err:
        raise ExactOddsError(f"cannot read {path}: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ExactOddsError(f"cannot read {path}: larger than {limit:,} bytes, the most a bets or rules file may be")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ExactOddsError(f"cannot read {path}: not UTF-8 text (byte {err.start + 1})") from None


class TomlFloat:
    """A TOML float as the file writes it (``0.95``, ``1e400``, ``inf``): read as a decimal, never a binary float.

    tomllib hands every float's text to this class, so ``pays = 0.95000000000000000001``
    is that number, not the nearest double, and ``1e-400`` is not silently 0.

    >>> tomllib.loads("x = 0.1", parse_float=TomlFloat)["x"]
    0.1
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def finite(self) -> bool:
        """Whether the float is a number, not ``inf`` or ``nan``."""
        return self.text.lstrip("+-") not in ("inf", "nan")

    def decimal(self) -> str:
        """The number as a decimal without TOML's digit separators (``1_000.5`` is ``1000.5``)."""
        return self.text.replace("_", "")


def _ascii_number(text: str) -> str:
    """``text`` if it is written in ASCII without digit separators, else ``ValueError``.

    Python's number parsers also take other scripts' digits (``٨``) and underscores (``1_0``);
    a pay or commission in a file is written in ASCII digits only.
    """
    if not text.isascii() or "_" in text:
        raise ValueError(f"not a number in ASCII digits: {text!r}")
    return text


def parse_pay(value: object) -> Fraction:
    """A pay "to 1" as a bets file writes it: a number (``40``, ``0.54``), a string (``"27/50"``), "push" or "lose".

    >>> parse_pay(0.54), parse_pay("1/2"), parse_pay("lose")
    (Fraction(27, 50), Fraction(1, 2), Fraction(-1, 1))
    """
    if isinstance(value, bool):
        raise ExactOddsError(f"a pay must be a number, not {str(value).lower()}")
    if isinstance(value, int):
        pay = Fraction(value)
    elif isinstance(value, TomlFloat):
        if not value.finite():
            raise ExactOddsError(f"a pay must be a finite number, not {value.text}")
        try:
            pay = parse_fraction(value.decimal())
        except (ValueError, ZeroDivisionError):  # TOML checked the syntax: only the size can be wrong
            raise ExactOddsError(f"a pay must be a number of at most 100 digits, not {value.text}") from None
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ExactOddsError(f"a pay must be a finite number, not {value!r}")
        pay = Fraction(repr(value))  # the shortest decimal that is this float (0.54 is 27/50)
    elif isinstance(value, str):
        word = value.strip().lower()
        if word in ("push", "lose"):
            return Fraction(0 if word == "push" else -1)
        try:
            pay = parse_fraction(_ascii_number(value))
        except (ValueError, ZeroDivisionError):
            raise ExactOddsError(f'a pay must be a number (e.g. 40, 0.5, "1/2", "push"), not {value!r}') from None
    else:
        raise ExactOddsError(f"a pay must be a number, not {value!r}")
    if abs(pay.numerator) > MAX_NUMBER or pay.denominator > MAX_NUMBER:
        raise ExactOddsError("a pay must be a number of at most 100 digits")
    if pay < -1:
        raise ExactOddsError(f"a pay cannot lose more than the stake (-1), not {pay}")
    return pay


def _coup_text(state: CoupState) -> str:
    flags = [
        name
        for name, on in (
            ("player pair", state.player_pair and not state.player_pair_suited),
            ("banker pair", state.banker_pair and not state.banker_pair_suited),
            ("player suited pair", state.player_pair_suited),
            ("banker suited pair", state.banker_pair_suited),
        )
        if on
    ]
    return (
        f"Player {state.player_total} with {state.player_cards} cards, Banker {state.banker_total} with"
        f" {state.banker_cards} cards{', ' + ', '.join(flags) if flags else ''}"
    )


def parse_bets(text: str, name: str = "<bets file>") -> tuple[Bet, ...]:
    """Read bets from the text of a bets file (see the README, "Bets files"); ``name`` is used in errors."""
    data = _load(text, name)
    where = _Where(text, name)
    unknown = set(data) - {"bets"}
    if unknown:
        key = sorted(unknown)[0]
        raise where.error(where.key(key, 1), f"key {key!r}", "a bets file holds only [bets.ID] tables")
    table = data.get("bets")
    if not isinstance(table, dict) or not table:
        raise where.error(None, "no bets", "define at least one bet as a [bets.ID] table")
    if len(table) > MAX_BETS:
        raise where.error(None, f"{len(table):,} bets", f"a bets file may define at most {MAX_BETS:,} bets")
    return tuple(_parse_bet(bet_id, spec, where) for bet_id, spec in table.items())


def _parse_bet(bet_id: str, spec: object, where: _Where) -> Bet:
    line = where.header(f"bets.{bet_id}") or where.header(f"bets.{bet_id}.outcome", array=True)
    what = f"bet {bet_id!r}"
    if not _ID.fullmatch(bet_id):
        raise where.error(line, what, "a bet id is lower-case letters, digits and dashes")
    if not isinstance(spec, dict):
        raise where.error(line, what, "a bet must be a table with a description and [[bets.ID.outcome]] entries")
    for key in spec:
        if key not in _BET_KEYS:
            raise where.error(
                where.key(key, line), what, f"unknown key {key!r}: a bet has {', '.join(sorted(_BET_KEYS))}"
            )
    description = spec.get("description", bet_id)
    if not isinstance(description, str):
        raise where.error(where.key("description", line), what, "the description must be text")
    rows = spec.get("outcome")
    if not isinstance(rows, list) or len(rows) < 2 or not all(isinstance(r, dict) for r in rows):
        raise where.error(line, what, "a bet needs at least two [[bets.ID.outcome]] tables")
    if len(rows) > MAX_OUTCOMES:
        raise where.error(line, what, f"{len(rows):,} outcomes: a bet may have at most {MAX_OUTCOMES:,}")
    outcomes: list[tuple[str, Condition | None, Fraction, int | None, str | None]] = []
    seen: set[str] = set()
    for k, row in enumerate(rows):
        oline = where.header(f"bets.{bet_id}.outcome", k, array=True) or line
        oid = row.get("id")
        owhat = f"bet {bet_id!r}, outcome {oid if isinstance(oid, str) else k + 1!r}"
        for key in row:
            if key not in _OUTCOME_KEYS:
                raise where.error(
                    where.key(key, oline),
                    owhat,
                    f"unknown key {key!r}: an outcome has {', '.join(sorted(_OUTCOME_KEYS))}",
                )
        if not isinstance(oid, str) or not _ID.fullmatch(oid):
            raise where.error(
                where.key("id", oline), owhat, "each outcome needs an id: lower-case letters, digits, dashes"
            )
        if oid in seen:
            raise where.error(where.key("id", oline), owhat, f"two outcomes share the id {oid!r}")
        seen.add(oid)
        if "pays" not in row:
            raise where.error(oline, owhat, "each outcome needs pays = a number (to 1; -1 loses the stake, 0 pushes)")
        try:
            pay = parse_pay(row["pays"])
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
                when = condition(raw)
            except ExactOddsError as err:
                raise where.error(where.key("when", oline), owhat, str(err)) from None
        elif None in (o[1] for o in outcomes):
            raise where.error(where.key("otherwise", oline), owhat, "only one outcome can be otherwise = true")
        event = row.get("event")
        if event is not None and not isinstance(event, str):
            raise where.error(where.key("event", oline), owhat, "event (the outcome in words) must be text")
        outcomes.append((oid, when, pay, oline, event))
    _check_partition(bet_id, outcomes, where, line)
    return _make_bet(bet_id, description, outcomes)


def _check_partition(
    bet_id: str,
    outcomes: list[tuple[str, Condition | None, Fraction, int | None, str | None]],
    where: _Where,
    line: int | None,
) -> None:
    """Refuse outcomes that overlap or leave a coup unsettled, naming the first such coup and its line.

    Each condition becomes the bit set of the states where it holds (a few ANDs and ORs), so
    the check is one pass over the outcomes, however many there are.
    """
    seen = 0
    has_otherwise = False
    for oid, when, _, oline, _ in outcomes:
        if when is None:
            has_otherwise = True
            continue
        mask = states_where(when)
        both = seen & mask
        if both:
            i = (both & -both).bit_length() - 1
            earlier = next(o for o, w, _, _, _ in outcomes if w is not None and states_where(w) >> i & 1)
            raise where.error(
                oline,
                f"bet {bet_id!r}, outcome {oid!r}",
                f"outcomes {earlier!r} and {oid!r} overlap: both settle the coup {_coup_text(ALL_STATES[i])}",
            )
        seen |= mask
    missing = ALL_MASK & ~seen
    if missing and not has_otherwise:
        i = (missing & -missing).bit_length() - 1
        raise where.error(
            line,
            f"bet {bet_id!r}",
            f"no outcome settles the coup {_coup_text(ALL_STATES[i])}; add a case or an outcome with otherwise = true",
        )


def _make_bet(
    bet_id: str, description: str, outcomes: list[tuple[str, Condition | None, Fraction, int | None, str | None]]
) -> Bet:
    named = [Event.where(when, event or describe(when)) for _, when, _, _, event in outcomes if when is not None]
    events = iter(named)
    made = []
    for oid, when, pay, _, event in outcomes:
        made.append(Outcome(oid, none_of(event or "otherwise", named) if when is None else next(events), pay))
    return Bet(bet_id, description, tuple(made))


def load_bets(path: str | Path) -> tuple[Bet, ...]:
    """Read the bets of a bets file (TOML).

    >>> [b.id for b in load_bets(EXAMPLES / "dragon-7.toml")]
    ['my-dragon-7']
    """
    return parse_bets(read_text(path), str(path))


# --- rules files ----------------------------------------------------------------------------------

_RULE_KEYS = {"name", "description", "base", "commission", "tie_pays", "ez_push", "player", "banker", "banker_override"}
_DRAW = {"D": True, "S": False}


def _chart_row(value: object, width: int) -> list[bool] | None:
    if not isinstance(value, str):
        return None
    letters = value.replace(" ", "").replace("|", "").upper()
    if len(letters) != width or any(ch not in _DRAW for ch in letters):
        return None
    return [_DRAW[ch] for ch in letters]


def parse_rules(text: str, name: str = "<rules file>") -> RuleSet:
    """Read a rule set from the text of a rules file (see the README, "Rules files"); ``name`` is used in errors.

    >>> rules = load_rules(EXAMPLES / "banker-3-stands-on-9.toml")
    >>> rules.header().split(" · ")[-1]
    'Banker 3 stands on a Player third card 9'
    """
    data = _load(text, name)
    where = _Where(text, name)
    for key in data:
        if key not in _RULE_KEYS:
            raise where.error(
                where.key(key, 1), f"key {key!r}", f"unknown key: a rules file has {', '.join(sorted(_RULE_KEYS))}"
            )
    base = PUNTO_BANCO
    if "base" in data:
        if not isinstance(data["base"], str):
            raise where.error(where.key("base", 1), "base", 'base must be the name of a rule set, e.g. "punto-banco"')
        try:
            base = find_rules(data["base"])
        except ExactOddsError as err:
            raise where.error(where.key("base", 1), "base", str(err)) from None
    rule_name = data.get("name", Path(name).stem if name and not name.startswith("<") else "custom")
    if not isinstance(rule_name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", rule_name):
        raise where.error(where.key("name", 1), "name", "the name is letters, digits, dots and dashes")
    description = data.get("description", f"Rules from {name}.")
    if not isinstance(description, str):
        raise where.error(where.key("description", 1), "description", "the description must be text")

    commission = base.commission
    if "commission" in data:
        raw = data["commission"]
        try:
            if isinstance(raw, bool) or not isinstance(raw, int | TomlFloat | str):
                raise ExactOddsError(f'write the commission as 5%, 0.05 or "1/20", not {raw!r}')
            if isinstance(raw, str) and (not raw.isascii() or "_" in raw):  # ٥% or 1_0%: ASCII digits only
                raise ExactOddsError(f"malformed commission {raw!r}: write e.g. 5%, 2.5% or 0.05 in ASCII digits")
            commission = parse_commission(raw.decimal() if isinstance(raw, TomlFloat) else str(raw))
        except ExactOddsError as err:
            raise where.error(where.key("commission", 1), "commission", str(err)) from None
    tie_pays = base.tie_pays
    if "tie_pays" in data:
        try:
            tie_pays = parse_pay(data["tie_pays"])
            if tie_pays <= 0:
                raise ExactOddsError(f"the Tie must pay more than 0 to 1, not {tie_pays}")
        except ExactOddsError as err:
            raise where.error(where.key("tie_pays", 1), "tie_pays", str(err)) from None
    ez_push = data.get("ez_push", base.banker_three_card_seven_pushes)
    if not isinstance(ez_push, bool):
        raise where.error(where.key("ez_push", 1), "ez_push", "ez_push must be true or false")

    tableau = _parse_tableau(data, base.tableau, where)
    overrides = base.banker_win_overrides
    if "banker_override" in data:
        overrides = _parse_overrides(data["banker_override"], where, EZ_PUSH.id if ez_push else None)
    try:
        return RuleSet(
            name=rule_name,
            description=description,
            commission=commission,
            tie_pays=tie_pays,
            banker_three_card_seven_pushes=ez_push,
            tableau=tableau,
            banker_win_overrides=overrides,
        )
    except ExactOddsError as err:
        raise where.error(None, "rules", str(err)) from None


def _parse_tableau(data: dict[str, Any], base: Tableau, where: _Where) -> Tableau:
    player_draws = set(base.player_draws_on)
    stood = set(base.banker_draws_when_player_stood)
    against = [set(row) for row in base.banker_draws_against]
    if "player" in data:
        player = data["player"]
        line = where.header("player")
        if not isinstance(player, dict) or set(player) != {"draws"}:
            raise where.error(line, "[player]", 'the [player] table holds one key, draws = "D D D D D D S S"')
        row = _chart_row(player["draws"], 8)
        if row is None:
            raise where.error(
                where.key("draws", line),
                "[player] draws",
                "write 8 letters, D (draws) or S (stands), for the Player's two-card totals 0 to 7",
            )
        player_draws = {t for t, d in enumerate(row) if d}
    if "banker" in data:
        banker = data["banker"]
        line = where.header("banker")
        if not isinstance(banker, dict) or set(banker) != {"draws"} or not isinstance(banker["draws"], dict):
            raise where.error(line, "[banker]", "the Banker's chart is a [banker.draws] table with rows 0 to 7")
        chart = banker["draws"]
        cline = where.header("banker.draws") or line
        keys = set(chart)
        wanted = {str(b) for b in range(8)}
        if keys != wanted:
            missing = sorted(wanted - keys)
            extra = sorted(keys - wanted)
            problem = f"missing rows {', '.join(missing)}" if missing else f"unknown rows {', '.join(extra)}"
            raise where.error(cline, "[banker.draws]", f"{problem}: give one row per Banker two-card total 0 to 7")
        stood = set()
        for b in range(8):
            row = _chart_row(chart[str(b)], 11)
            if row is None:
                raise where.error(
                    where.key(str(b), cline),
                    f"[banker.draws] row {b}",
                    "write 11 letters, D (draws) or S (stands): against a Player third card of 0 to 9,"
                    " then when the Player stood",
                )
            against[b] = {v for v in range(10) if row[v]}
            if row[10]:
                stood.add(b)
    return Tableau(frozenset(player_draws), frozenset(stood), tuple(frozenset(r) for r in against))


def _parse_overrides(rows: object, where: _Where, ez_push: str | None) -> tuple[PayOverride, ...]:
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise where.error(
            where.header("banker_override", array=True), "banker_override", "write [[banker_override]] tables"
        )
    if len(rows) > MAX_OVERRIDES:
        raise where.error(
            where.header("banker_override", array=True),
            "banker_override",
            f"{len(rows):,} overrides: a rules file may have at most {MAX_OVERRIDES:,}",
        )
    out: list[PayOverride] = []
    for k, row in enumerate(rows):
        line = where.header("banker_override", k, array=True)
        what = f"banker_override {k + 1}"
        if set(row) - {"id", "name", "when", "pays"} or not {"id", "name", "when", "pays"} <= set(row):
            raise where.error(line, what, "an override has exactly id, name, when and pays")
        if not isinstance(row["id"], str) or not isinstance(row["name"], str) or not isinstance(row["when"], dict):
            raise where.error(line, what, "id and name are text, when is a table of facts")
        if not _ID.fullmatch(row["id"]):
            raise where.error(where.key("id", line), what, "an override id is lower-case letters, digits and dashes")
        if any(o.id == row["id"] for o in out) or row["id"] in ("win", "push", "lose", ez_push):
            reserved = "win, push, lose" + (f" or {ez_push} (the EZ push)" if ez_push else "")
            message = f"the id {row['id']!r} is taken: give each override its own id, not {reserved}"
            raise where.error(where.key("id", line), what, message)
        try:
            when = condition(row["when"])
            pay = parse_pay(row["pays"])
        except ExactOddsError as err:
            raise where.error(line, what, str(err)) from None
        out.append(PayOverride(row["id"], row["name"], when, pay))
    return tuple(out)


def load_rules(path: str | Path) -> RuleSet:
    """Read a rule set from a rules file (TOML)."""
    return parse_rules(read_text(path), str(path))


def facts_help() -> list[tuple[str, str, str]]:
    """(fact, its values, meaning) for every coup fact, for documentation and ``exactodds facts``."""
    out = []
    for fact in FACTS.values():
        if fact.kind == "bool":
            values = "true, false"
        elif fact.kind == "int":
            values = ", ".join(map(str, fact.values))
        else:
            values = ", ".join(f'"{v}"' for v in fact.values)
        out.append((fact.name, values, fact.meaning))
    return out


#: The example files shipped with the project (examples/ at the top of the checkout).
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
