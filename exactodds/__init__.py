"""exactodds: exact odds for baccarat (punto banco) from any finite shoe.

The public API is the names of ``__all__``; everything else lives in its own module
(``from exactodds.tables import generate_tables``, ``from exactodds.cards import RANKS``, …).

>>> from exactodds import Shoe, analyze
>>> analyze(Shoe.standard(8), bets=["tie"]).bet("tie").house_edge
Fraction(103841353768, 723147898655)
"""

from __future__ import annotations

import sys
from types import ModuleType

# Not ``from typing import TYPE_CHECKING``: importing typing costs milliseconds of the start-up that
# ``__main__`` cannot yet guard (type checkers read any constant of this name as the typing one).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeAlias

# The names of the API are loaded on first use (PEP 562), so that ``import exactodds`` costs
# nothing: the ``exactodds`` command imports this package first, before its ``main`` can catch a
# Ctrl-C (see ``__main__``), and then pays only for what it uses. Each lazy name maps to the module
# that holds it.
_LAZY = {
    **dict.fromkeys(("analyze", "analyze_many"), "analysis"),
    **dict.fromkeys(("Analysis", "BetFigures"), "figures"),
    **dict.fromkeys(("bet_catalog", "find_bet"), "bets"),
    **dict.fromkeys(("Rank", "Shoe"), "cards"),
    **dict.fromkeys(("ClosedForm", "closed_forms"), "closed_forms"),
    "CoupState": "coup",
    **dict.fromkeys(("Bet", "Event"), "events"),
    "Outcome": "paytable",
    "enumerate_coups": "engine",
    **dict.fromkeys(("EffectOfRemoval", "effect_of_removal"), "eor"),
    "ExactOddsError": "errors",
    "decimal_text": "exact",
    "analyze_infinite": "infinite",
    "Format": "render",
    "render_eor": "render.eor",
    "analysis_json": "render.odds_json",
    "render": "render.odds",
    **dict.fromkeys(("PUNTO_BANCO", "RULE_SETS", "RuleSet", "find_rules"), "rules"),
    **dict.fromkeys(("parse_commission", "parse_pays"), "exact"),
    **dict.fromkeys(("load_bets", "load_rules", "parse_bets", "parse_rules"), "userdefs"),
    # The card-counting lab needs numpy at import.
    **dict.fromkeys(("SimulationPlan", "SimulationResult", "count_systems", "propose_counts", "simulate"), "lab"),
}


class _Package(ModuleType):
    """The package module: a submodule named like a function of the API does not hide the function.

    Importing a submodule sets it as an attribute of its package; ``exactodds.render`` and
    ``exactodds.closed_forms`` are the functions :func:`render` and :func:`closed_forms`
    (as they were when this file imported everything at once), whichever modules are
    imported later. The submodules stay importable by their full names.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LAZY and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

from .version import __version__ as __version__  # noqa: E402 - after the class swap, as every import of a submodule

if TYPE_CHECKING:
    from .analysis import analyze, analyze_many
    from .bets import bet_catalog, find_bet
    from .cards import Rank, Shoe
    from .closed_forms import ClosedForm, closed_forms
    from .coup import CoupState
    from .engine import enumerate_coups
    from .eor import EffectOfRemoval, effect_of_removal
    from .errors import ExactOddsError
    from .events import Bet, Event
    from .exact import decimal_text, parse_commission, parse_pays
    from .figures import Analysis, BetFigures
    from .infinite import analyze_infinite
    from .lab import SimulationPlan, SimulationResult, count_systems, propose_counts, simulate
    from .paytable import Outcome
    from .render import Format as _Format
    from .render.eor import render_eor
    from .render.odds import render
    from .render.odds_json import analysis_json
    from .rules import RuleSet, find_rules
    from .userdefs import load_bets, load_rules, parse_bets, parse_rules

    Format: TypeAlias = _Format
    """The output formats of :func:`render` and :func:`render_eor`: ``table``, ``markdown``, ``csv`` or ``json``."""

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
