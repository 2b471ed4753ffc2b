"""exactodds: exact odds for baccarat (punto banco) from any finite shoe."""

from __future__ import annotations

from .analysis import METHODS, Analysis, BetFigures, OutcomeFigures, analyze, analyze_many, price, resolve_bets
from .batch import BadLine, parse_shoe_line, price_lines
from .bets import Bet, Event, Outcome, bet_catalog, find_bet
from .cards import RANKS, Rank, Shoe, falling_factorial
from .closed_forms import ClosedForm, closed_forms
from .engine import CoupDistribution, CoupState, deal_coup, enumerate_coups
from .eor import DEFAULT_TAG_LEVELS, EOR_BY, CountTags, EffectOfRemoval, count_tags, effect_of_removal, render_eor
from .errors import ExactOddsError
from .exact import decimal_text, fraction_text, percent_text, sqrt_decimal_text
from .infinite import INFINITE_ORDERINGS, analyze_infinite, infinite_coups
from .report import FORMATS, analysis_json, render, render_json
from .rules import (
    EZ,
    PUNTO_BANCO,
    RULE_SETS,
    STANDARD_TABLEAU,
    RuleSet,
    Tableau,
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

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_TAG_LEVELS",
    "EOR_BY",
    "EZ",
    "FORMATS",
    "INFINITE_ORDERINGS",
    "METHODS",
    "PUNTO_BANCO",
    "RANKS",
    "RULE_SETS",
    "STANDARD_TABLEAU",
    "Analysis",
    "BadLine",
    "Bet",
    "BetFigures",
    "ClosedForm",
    "CountTags",
    "CoupDistribution",
    "CoupState",
    "EffectOfRemoval",
    "Event",
    "ExactOddsError",
    "Outcome",
    "OutcomeFigures",
    "Rank",
    "RuleSet",
    "Shoe",
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
    "parse_commission",
    "parse_pays",
    "parse_shoe_line",
    "percent_text",
    "price",
    "price_lines",
    "render",
    "render_eor",
    "render_json",
    "resolve_bets",
    "sqrt_decimal_text",
    "winner_by_total",
    "write_tables",
]
