"""What every reference table shares: the rule sets and deck counts, places, file helpers, the analysis cache."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..analysis import Analysis
from ..cards import Shoe
from ..games import GAMES
from ..games.punto_banco import GAME as PUNTO_BANCO_GAME
from ..puntobanco.odds import analyze
from ..puntobanco.rules import RuleSet

# Which tables punto banco has, and for which shoes, is its game's (exactodds.games.punto_banco).
#: The rule sets and deck counts of the par sheets.
PAR_RULES: tuple[RuleSet, ...] = tuple(PUNTO_BANCO_GAME.rules(PUNTO_BANCO_GAME.settings_for(r))
                                      for r in PUNTO_BANCO_GAME.tables.rule_sets)
#: The games with a par sheet of their own in ``par/`` (every bet at its usual pays): those without rule sets.
PAR_GAMES = tuple(game for game in GAMES if game.tables.par_decks and not game.has("rule-sets"))
#: The side-bet catalog is priced under these rules (its bets do not read the commission or the Tie pay).
SIDE_RULES = PAR_RULES[0]
SIDE_NAME = "side-bets"
PAR_DECKS = PUNTO_BANCO_GAME.tables.par_decks
#: The deck counts of the house-edge tables (plus the infinite shoe).
HOUSE_EDGE_DECKS = PUNTO_BANCO_GAME.tables.house_edge_decks
#: The deck counts of the effect-of-removal tables.
EOR_DECKS = PUNTO_BANCO_GAME.tables.eor_decks
#: The deck counts of the coup breakdowns by winner and total (cards per coup uses HOUSE_EDGE_DECKS).
COUP_DECKS = PAR_DECKS
#: Decimal places: in Markdown (for people) and in CSV/JSON (for programs).
MD_PLACES = 10
DATA_PLACES = 16
#: The first line of the generated index; a folder whose README.md starts otherwise is not overwritten.
INDEX_TITLE = "# exactodds reference tables"
REGENERATE = "exactodds tables"
#: File suffixes the generator writes (the only extra files :func:`write_tables` removes).
_OWNED_SUFFIXES = (".md", ".csv", ".json")

Progress = Callable[[str], None]


def _decks_name(decks: int) -> str:
    return f"{decks}-deck{'s' if decks != 1 else ''}"


def _decks_text(decks: int) -> str:
    return _decks_name(decks).replace("-", " ")


def _whole_decks(shoe: Shoe) -> int | None:
    """The number of standard decks the shoe is, or ``None`` when it is not whole decks."""
    first = shoe.counts[0]
    if first and first % 4 == 0 and all(n == first for n in shoe.counts):
        return first // 4
    return None


def _csv(rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows(rows)
    return out.getvalue()


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


class _Cache:
    """Analyses already made in this run, so each (shoe, rules) is priced once."""

    def __init__(self) -> None:
        self._analyses: dict[tuple[Shoe, RuleSet, bool], Analysis] = {}

    def analysis(self, shoe: Shoe, rules: RuleSet, *, side: bool = False) -> Analysis:
        """The core bets of ``rules`` on ``shoe`` or, with ``side``, the side-bet catalog."""
        key = (shoe, rules, side)
        if key not in self._analyses:
            self._analyses[key] = analyze(shoe, rules, side_bet_ids() if side else None)
        return self._analyses[key]


def side_bet_ids() -> list[str]:
    """The ids of the side-bet catalog beyond the core bets, in catalog order."""
    from ..puntobanco.bets import side_catalog

    return [bet.id for bet in side_catalog()]
