"""exactodds: exact odds for baccarat (punto banco) from any finite shoe.

The public API is the names of ``__all__``; everything else lives in its own module
(``from exactodds.tables import generate_tables``, ``from exactodds.cards import RANKS``, …).

>>> from exactodds import Shoe, analyze
>>> analyze(Shoe.standard(8), bets=["tie"]).bet("tie").house_edge
Fraction(103841353768, 723147898655)
"""

from __future__ import annotations

# Not ``from typing import TYPE_CHECKING``: importing typing costs milliseconds of the start-up that
# ``__main__`` cannot yet guard (type checkers read any constant of this name as the typing one).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeAlias

from .version import __version__ as __version__  # noqa: E402 - after TYPE_CHECKING (which must not import typing)

# The names of the API are loaded on first use (PEP 562), so that ``import exactodds`` costs
# nothing: the ``exactodds`` command imports this package first, before its ``main`` can catch a
# Ctrl-C (see ``__main__``), and then pays only for what it uses. Each lazy name maps to the module
# that holds it.
_LAZY = {
    **dict.fromkeys(("Analysis", "BetFigures"), "analysis"),
    **dict.fromkeys(("Rank", "Shoe"), "cards"),
    **dict.fromkeys(("EffectOfRemoval", "effect_of_removal"), "eor"),
    "ExactOddsError": "errors",
    **dict.fromkeys(("decimal_text", "parse_commission", "parse_pays"), "exact"),
    "Outcome": "paytable",
    "Format": "present",
    "render_eor": "present.eor",
    "analysis_json": "present.odds_json",
    "render": "present.odds",
    **dict.fromkeys(("bet_catalog", "find_bet"), "puntobanco.bets"),
    **dict.fromkeys(("ClosedForm", "closed_forms"), "puntobanco.closed_forms"),
    "CoupState": "puntobanco.coup",
    "enumerate_coups": "puntobanco.engine",
    **dict.fromkeys(("Bet", "Event"), "puntobanco.events"),
    "analyze_infinite": "puntobanco.infinite",
    **dict.fromkeys(("analyze", "analyze_many"), "puntobanco.odds"),
    **dict.fromkeys(("PUNTO_BANCO", "RULE_SETS", "RuleSet", "find_rules"), "puntobanco.rules"),
    **dict.fromkeys(("load_bets", "load_rules", "parse_bets", "parse_rules"), "puntobanco.userdefs"),
    # The card-counting lab needs numpy at import.
    **dict.fromkeys(("SimulationPlan", "SimulationResult", "count_systems", "propose_counts", "simulate"), "lab"),
}

if TYPE_CHECKING:
    from .analysis import Analysis, BetFigures
    from .cards import Rank, Shoe
    from .eor import EffectOfRemoval, effect_of_removal
    from .errors import ExactOddsError
    from .exact import decimal_text, parse_commission, parse_pays
    from .lab import SimulationPlan, SimulationResult, count_systems, propose_counts, simulate
    from .paytable import Outcome
    from .present import Format as _Format
    from .present.eor import render_eor
    from .present.odds import render
    from .present.odds_json import analysis_json
    from .puntobanco.bets import bet_catalog, find_bet
    from .puntobanco.closed_forms import ClosedForm, closed_forms
    from .puntobanco.coup import CoupState
    from .puntobanco.engine import enumerate_coups
    from .puntobanco.events import Bet, Event
    from .puntobanco.infinite import analyze_infinite
    from .puntobanco.odds import analyze, analyze_many
    from .puntobanco.rules import RuleSet, find_rules
    from .puntobanco.userdefs import load_bets, load_rules, parse_bets, parse_rules

    Format: TypeAlias = _Format
    """The output formats of :func:`render` and :func:`render_eor`: those of ``exactodds.present.formats.FORMATS``."""

PUNTO_BANCO: RuleSet
"""Standard punto banco: Banker pays 0.95 to 1 (5% commission), Tie 8 to 1; the default rules everywhere."""

RULE_SETS: tuple[RuleSet, ...]
"""The named rule sets (``punto-banco``, ``ez``, ``super-6``); :func:`find_rules` finds one by name or alias."""

def __getattr__(name: str) -> Any:
    """Load a name of the API from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'exactodds' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "PUNTO_BANCO",
    "RULE_SETS",
    "Analysis",
    "Bet",
    "BetFigures",
    "ClosedForm",
    "CoupState",
    "EffectOfRemoval",
    "Event",
    "ExactOddsError",
    "Format",
    "Outcome",
    "Rank",
    "RuleSet",
    "Shoe",
    "SimulationPlan",
    "SimulationResult",
    "analysis_json",
    "analyze",
    "analyze_infinite",
    "analyze_many",
    "bet_catalog",
    "closed_forms",
    "count_systems",
    "decimal_text",
    "effect_of_removal",
    "enumerate_coups",
    "find_bet",
    "find_rules",
    "load_bets",
    "load_rules",
    "parse_bets",
    "parse_commission",
    "parse_pays",
    "parse_rules",
    "propose_counts",
    "render",
    "render_eor",
    "simulate",
]
