"""User-defined bets and rules, read from TOML files (``--bets-file``, ``--rules-file``).

Files are read with bounds (a regular file, at most :data:`~exactodds.tomldata.MAX_FILE_BYTES`, UTF-8) and
only ever as data. A bets file is written in the bet notation of :mod:`exactodds.betfile`
(the one the built-in side bets are written in, read by the same parser); a rules file is
the drawing tableau as two small charts, the commission, the Tie pay and the Banker pay
overrides. Every mistake is an :class:`~exactodds.errors.ExactOddsError` naming the file,
the bet (or table) and the line.

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

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..betfile import ALL_BETS, ID, MAX_BETS, MAX_ID, MAX_OUTCOMES
from ..errors import ExactOddsError, by_case, shown, unknown_name
from ..exact import parse_commission
from ..notation import values_text
from ..paytable import Bet as AnyBet
from ..tomldata import MAX_DEPTH, TomlFloat, TomlLines, load_toml, parse_pay, read_text, text_field
from .bets import bet_catalog, bets_from_text
from .events import Bet
from .facts import CARD_FACTS, FACTS, CardFact, Fact, file_condition
from .rules import EZ_PUSH, PUNTO_BANCO, PayOverride, RuleSet, Tableau, find_rules

__all__ = [
    "MAX_BETS",
    "MAX_DEPTH",
    "MAX_OUTCOMES",
    "MAX_OVERRIDES",
    "TomlFloat",
    "choose_bets",
    "facts_help",
    "load_bets",
    "load_rules",
    "parse_bets",
    "parse_pay",
    "parse_rules",
]

#: The most pay overrides of each kind (Banker, Player, Tie) a rules file may have.
MAX_OVERRIDES = 1000


def parse_bets(text: str, name: str = "<bets file>") -> tuple[Bet, ...]:
    """Read bets from the text of a bets file (see the docs, "Bets files"); ``name`` is used in errors. The game's
    reader of a user's file (:meth:`exactodds.game.Game.read_bets`, that of ``--bets-file``) also refuses an id of
    the catalog, which ``--bet`` names; this one reads the notation alone (the catalog's own files too)."""
    return bets_from_text(text, name)


def load_bets(path: str | Path) -> tuple[Bet, ...]:
    """Read the bets of a bets file (TOML).

    >>> from importlib.resources import as_file, files
    >>> with as_file(files("exactodds") / "data" / "core-bets.toml") as path:
    ...     [b.id for b in load_bets(path)]
    ['player-pair', 'banker-pair', 'dragon-7', 'panda-8']
    """
    return parse_bets(read_text(path), str(path))


def choose_bets(bet_ids: Sequence[str], file_bets: Sequence[AnyBet]) -> tuple[str | AnyBet, ...]:
    """The bets of ``--bet``, an id defined in a ``--bets-file`` standing for that bet; then, unless ``--bet``
    named one of them, every bet of the files (as ``odds`` has always priced them).

    >>> from dataclasses import replace
    >>> from exactodds.puntobanco.bets import find_bet
    >>> mine = replace(find_bet("dragon-7", PUNTO_BANCO), id="my-dragon-7")
    >>> [b if isinstance(b, str) else b.id for b in choose_bets(["banker"], [mine])]
    ['banker', 'my-dragon-7']
    >>> choose_bets(["my-dragon-7"], [mine]) == (mine,)
    True
    """
    if not file_bets:  # nothing to stand in for an id (and the whole catalog is not read at start-up)
        return tuple(bet_ids)
    # An id of the catalog stays the catalog's: a file bet of the same id is then an error (two different bets
    # with one id), never a silent stand-in.
    catalog = bet_catalog(PUNTO_BANCO, full=True)
    defined = {bet.id: bet for bet in file_bets if bet.id not in catalog}
    bet_ids = [by_case(i, [*catalog, *defined]) for i in bet_ids]  # in any case where no two ids differ by case only
    chosen: tuple[str | AnyBet, ...] = tuple(defined.get(i, i) for i in bet_ids)
    for i in bet_ids:  # ids are matched exactly; a near miss is told the closest, the files' ids among them
        if i not in defined and i not in catalog and i != ALL_BETS:
            more = "exactodds bets lists the catalog"
            raise unknown_name("bet", i, [*catalog, *defined], aliases=[ALL_BETS], more=more)
    if not any(isinstance(b, AnyBet) for b in chosen):
        chosen += tuple(file_bets)
    return chosen


# --- rules files ----------------------------------------------------------------------------------

_RULE_KEYS = {"name", "description", "base", "commission", "tie_pays", "ez_push", "player", "banker", "banker_override",
              "player_override", "tie_override"}
_DRAW = {"D": True, "S": False}


def _chart_row(value: object, width: int) -> list[bool] | None:
    if not isinstance(value, str):
        return None
    letters = value.replace(" ", "").replace("|", "").upper()
    if len(letters) != width or any(ch not in _DRAW for ch in letters):
        return None
    return [_DRAW[ch] for ch in letters]


def parse_rules(text: str, name: str = "<rules file>") -> RuleSet:
    """Read a rule set from the text of a rules file (see the docs, "Rules files"); ``name`` is used in errors.

    >>> parse_rules('commission = "4%"\\ntie_pays = 9\\n', "house.toml").header()
    'house · banker 0.96:1 (4% commission) · tie 9:1 · EZ push: off'
    """
    data = load_toml(text, name)
    where = TomlLines(text, name)
    for key in data:
        if key not in _RULE_KEYS:
            raise where.error(
                where.key(key, 1), f"key {shown(key)!r}",
                f"unknown key: a rules file has {', '.join(sorted(_RULE_KEYS))}",
            )
    base = PUNTO_BANCO
    if "base" in data:
        if not isinstance(data["base"], str):
            raise where.error(where.key("base", 1), "base", 'base must be the name of a rule set, e.g. "punto-banco"')
        try:
            base = find_rules(data["base"])
        except ExactOddsError as err:
            raise where.error(where.key("base", 1), "base", str(err)) from None
    rule_name, description = _name_and_description(data, name, where)
    commission = base.commission
    if "commission" in data:
        raw = data["commission"]
        try:
            if isinstance(raw, bool) or not isinstance(raw, int | TomlFloat | str):
                raise ExactOddsError(f'write the commission as 5%, 0.05 or "1/20", not {shown(repr(raw))}')
            if isinstance(raw, str) and (not raw.isascii() or "_" in raw):  # ٥% or 1_0%: ASCII digits only
                raise ExactOddsError(f"malformed commission {shown(raw)!r}: write e.g. 5%, 2.5% or 0.05 in ASCII"
                                     " digits")
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
    # Player wins and ties paid otherwise, written as the Banker's (the base rule sets have none).
    sides = {
        side: _parse_overrides(data[f"{side}_override"], where, None, side) if f"{side}_override" in data else ()
        for side in ("player", "tie")
    }
    try:
        return RuleSet(
            name=rule_name,
            description=description,
            commission=commission,
            tie_pays=tie_pays,
            banker_three_card_seven_pushes=ez_push,
            tableau=tableau,
            banker_win_overrides=overrides,
            player_win_overrides=sides["player"],
            tie_overrides=sides["tie"],
        )
    except ExactOddsError as err:
        raise where.error(None, "rules", str(err)) from None


def _name_and_description(data: dict[str, Any], name: str, where: TomlLines) -> tuple[str, str]:
    """A rules file's name (by default its file's) and description, checked."""
    rule_name = data.get("name", Path(name).stem if name and not name.startswith("<") else "custom")
    if not isinstance(rule_name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", rule_name):
        raise where.error(where.key("name", 1), "name", "the name is letters, digits, dots and dashes")
    if len(rule_name) > MAX_ID:  # it heads every report and names the rules in each JSON answer
        raise where.error(where.key("name", 1), "name", f"the name has at most {MAX_ID} characters, not"
                          f" {len(rule_name):,} (a rules file without name = … is named after its file)")
    description = data.get("description", f"Rules from {name}.")
    if not isinstance(description, str):
        raise where.error(where.key("description", 1), "description", "the description must be text")
    try:
        return rule_name, text_field(description, "description")
    except ExactOddsError as err:
        raise where.error(where.key("description", 1), "description", str(err)) from None


def _parse_tableau(data: dict[str, Any], base: Tableau, where: TomlLines) -> Tableau:
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


def _parse_overrides(
    rows: object, where: TomlLines, ez_push: str | None, side: str = "banker"
) -> tuple[PayOverride, ...]:
    key = f"{side}_override"
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise where.error(where.header(key, array=True), key, f"write [[{key}]] tables")
    if len(rows) > MAX_OVERRIDES:
        raise where.error(
            where.header(key, array=True),
            key,
            f"{len(rows):,} overrides: a rules file may have at most {MAX_OVERRIDES:,}",
        )
    out: list[PayOverride] = []
    for k, row in enumerate(rows):
        line = where.header(key, k, array=True)
        what = f"{key} {k + 1}"
        if set(row) - {"id", "name", "when", "pays"} or not {"id", "name", "when", "pays"} <= set(row):
            raise where.error(line, what, "an override has exactly id, name, when and pays")
        if not isinstance(row["id"], str) or not isinstance(row["name"], str) or not isinstance(row["when"], dict):
            raise where.error(line, what, "id and name are text, when is a table of facts")
        if not ID.fullmatch(row["id"]) or len(row["id"]) > MAX_ID:
            raise where.error(where.key("id", line), what, f"an override id is lower-case letters, digits and dashes,"
                              f" at most {MAX_ID} of them")
        taken = ("win", "lose") if side == "tie" else ("win", "push", "lose")
        if any(o.id == row["id"] for o in out) or row["id"] in (*taken, ez_push):
            reserved = ", ".join(taken) + (f" or {ez_push} (the EZ push)" if ez_push else "")
            message = f"the id {shown(row['id'])!r} is taken: give each override its own id, not {reserved}"
            raise where.error(where.key("id", line), what, message)
        try:
            name = text_field(row["name"], "name")
        except ExactOddsError as err:
            raise where.error(where.key("name", line), what, str(err)) from None
        try:
            when = file_condition(row["when"])
            pay = parse_pay(row["pays"])
        except ExactOddsError as err:
            raise where.error(line, what, str(err)) from None
        out.append(PayOverride(row["id"], name, when, pay, side))
    return tuple(out)


def load_rules(path: str | Path) -> RuleSet:
    """Read a rule set from a rules file (TOML)."""
    return parse_rules(read_text(path), str(path))


def facts_help() -> list[tuple[str, str, str]]:
    """(fact, its values, meaning) for every coup fact, for documentation and ``exactodds facts``."""
    facts: list[Fact | CardFact] = [*FACTS.values(), *CARD_FACTS.values()]
    return [(fact.name, values_text(fact.values), fact.meaning) for fact in facts]

