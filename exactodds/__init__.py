"""exactodds: exact odds for baccarat (punto banco) from any finite shoe."""

from __future__ import annotations

from .analysis import METHODS, Analysis, BetFigures, OutcomeFigures, analyze, analyze_many, price, resolve_bets
from .batch import BadLine, parse_shoe_line, price_lines
from .bets import Bet, Event, Outcome, bet_catalog, find_bet
from .cards import RANKS, Rank, Shoe, falling_factorial
from .engine import CoupDistribution, CoupState, deal_coup, enumerate_coups
from .errors import ExactOddsError
from .exact import decimal_text, fraction_text, percent_text, sqrt_decimal_text
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

__version__ = "0.1.0"

__all__ = [
    "EZ",
    "FORMATS",
    "METHODS",
    "PUNTO_BANCO",
    "RANKS",
    "RULE_SETS",
    "STANDARD_TABLEAU",
    "Analysis",
    "BadLine",
    "Bet",
    "BetFigures",
    "CoupDistribution",
    "CoupState",
    "Event",
    "ExactOddsError",
    "Outcome",
    "OutcomeFigures",
    "Rank",
    "RuleSet",
    "Shoe",
    "Tableau",
    "analysis_json",
    "analyze",
    "analyze_many",
    "bet_catalog",
    "deal_coup",
    "decimal_text",
    "enumerate_coups",
    "falling_factorial",
    "find_bet",
    "find_rules",
    "fraction_text",
    "parse_commission",
    "parse_pays",
    "parse_shoe_line",
    "percent_text",
    "price",
    "price_lines",
    "render",
    "render_json",
    "resolve_bets",
    "sqrt_decimal_text",
]
