"""exactodds: exact odds for baccarat (punto banco) from any finite shoe.

The public API is the names of ``__all__``; everything else lives in its own module
(``from exactodds.tables import generate_tables``, ``from exactodds.cards import RANKS``, …).

>>> from exactodds import Shoe, analyze
>>> analyze(Shoe.standard(8), bets=["tie"]).bet("tie").house_edge
Fraction(103841353768, 723147898655)
"""

from __future__ import annotations

from typing import Any, TypeAlias

from . import rules as _rules
from .analysis import Analysis, BetFigures, analyze, analyze_many
from .bets import Bet, Event, Outcome, bet_catalog, find_bet
from .cards import Rank, Shoe
from .closed_forms import ClosedForm, closed_forms
from .coup import CoupState
from .engine import enumerate_coups
from .eor import EffectOfRemoval, effect_of_removal
from .errors import ExactOddsError
from .exact import decimal_text
from .infinite import analyze_infinite
from .render import Format as _Format
from .render.eor import render_eor
from .render.odds import analysis_json, render
from .rules import RuleSet, find_rules, parse_commission, parse_pays
from .userdefs import load_bets, load_rules, parse_bets, parse_rules
from .version import __version__ as __version__

PUNTO_BANCO: RuleSet = _rules.PUNTO_BANCO
"""Standard punto banco: Banker pays 0.95 to 1 (5% commission), Tie 8 to 1; the default rules everywhere."""

RULE_SETS: tuple[RuleSet, ...] = _rules.RULE_SETS
"""The named rule sets (``punto-banco``, ``ez``, ``super-6``); :func:`find_rules` finds one by name or alias."""

Format: TypeAlias = _Format
"""The output formats of :func:`render` and :func:`render_eor`: ``table``, ``markdown``, ``csv`` or ``json``."""

# The card-counting lab needs numpy at import; it is loaded on first use so that the
# CLI's start-up (and every other command) does not pay for it.
_LAZY = {
    name: "lab"
    for name in ("SimulationPlan", "SimulationResult", "count_systems", "propose_counts", "simulate")
}


def __getattr__(name: str) -> Any:
    """Load the lazily imported names (those of :mod:`exactodds.lab`) on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'exactodds' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


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
