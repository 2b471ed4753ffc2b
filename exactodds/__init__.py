"""exactodds: exact odds for baccarat (punto banco) from any finite shoe."""

from __future__ import annotations

from typing import Any

from .analysis import (
    METHODS,
    Analysis,
    BetFigures,
    OutcomeFigures,
    analyze,
    analyze_many,
    price,
    require_suits,
    resolve_bets,
)
from .batch import BadLine, parse_shoe_line, price_lines
from .bets import Bet, Event, Outcome, bet_catalog, find_bet, side_catalog
from .cards import RANKS, SUITS, Rank, Shoe, Suit, falling_factorial, parse_card
from .closed_forms import ClosedForm, closed_forms
from .coup import CoupState
from .engine import CoupDistribution, enumerate_coups
from .eor import DEFAULT_TAG_LEVELS, EOR_BY, CountTags, EffectOfRemoval, count_tags, effect_of_removal, render_eor
from .errors import ExactOddsError
from .exact import decimal_text, fraction_text, percent_text, sqrt_decimal_text
from .infinite import INFINITE_ORDERINGS, analyze_infinite, infinite_coups
from .report import FORMATS, SIMULATION_FORMATS, analysis_json, render, render_json
from .rules import (
    EZ,
    PUNTO_BANCO,
    RULE_SETS,
    STANDARD_TABLEAU,
    SUPER_6,
    PayOverride,
    RuleSet,
    Tableau,
    deal_coup,
    find_rules,
    parse_commission,
    parse_pays,
)
from .tables import (
    TablesStatus,
    cards_per_coup,
    check_tables,
    ensure_tables_dir,
    find_tables_dir,
    generate_tables,
    winner_by_total,
    write_tables,
)
from .userdefs import load_bets, load_rules, parse_bets, parse_rules
from .version import __version__ as __version__

# The card-counting lab needs numpy at import; it is loaded on first use so that the
# CLI's start-up (and every other command) does not pay for it.
_LAZY = {
    name: "lab"
    for name in (
        "CHUNK_SHOES",
        "STRATEGIES",
        "CountProposal",
        "CountSystem",
        "SimulationPlan",
        "SimulationResult",
        "count_systems",
        "load_result",
        "parse_tags",
        "propose_counts",
        "random_seed",
        "render_proposals",
        "save_result",
        "saved_seed",
        "simulate",
    )
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
    "CHUNK_SHOES",
    "DEFAULT_TAG_LEVELS",
    "EOR_BY",
    "EZ",
    "FORMATS",
    "INFINITE_ORDERINGS",
    "METHODS",
    "PUNTO_BANCO",
    "RANKS",
    "RULE_SETS",
    "SIMULATION_FORMATS",
    "STANDARD_TABLEAU",
    "STRATEGIES",
    "SUITS",
    "SUPER_6",
    "Analysis",
    "BadLine",
    "Bet",
    "BetFigures",
    "ClosedForm",
    "CountProposal",
    "CountSystem",
    "CountTags",
    "CoupDistribution",
    "CoupState",
    "EffectOfRemoval",
    "Event",
    "ExactOddsError",
    "Outcome",
    "OutcomeFigures",
    "PayOverride",
    "Rank",
    "RuleSet",
    "Shoe",
    "SimulationPlan",
    "SimulationResult",
    "Suit",
    "Tableau",
    "TablesStatus",
    "analysis_json",
    "analyze",
    "analyze_infinite",
    "analyze_many",
    "bet_catalog",
    "cards_per_coup",
    "check_tables",
    "closed_forms",
    "count_systems",
    "count_tags",
    "deal_coup",
    "decimal_text",
    "effect_of_removal",
    "ensure_tables_dir",
    "enumerate_coups",
    "falling_factorial",
    "find_bet",
    "find_rules",
    "find_tables_dir",
    "fraction_text",
    "generate_tables",
    "infinite_coups",
    "load_bets",
    "load_result",
    "load_rules",
    "parse_bets",
    "parse_card",
    "parse_commission",
    "parse_pays",
    "parse_rules",
    "parse_shoe_line",
    "parse_tags",
    "percent_text",
    "price",
    "price_lines",
    "propose_counts",
    "random_seed",
    "render",
    "render_eor",
    "render_json",
    "render_proposals",
    "require_suits",
    "resolve_bets",
    "save_result",
    "saved_seed",
    "side_catalog",
    "simulate",
    "sqrt_decimal_text",
    "winner_by_total",
    "write_tables",
]
