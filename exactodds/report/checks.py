"""The report's cross-checks: the compiled evaluator against the reference walk, and the published figures."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..analysis import Analysis
from ..cards import Shoe
from ..errors import ExactOddsError
from ..puntobanco.events import Bet
from ..puntobanco.odds import analyze
from ..puntobanco.published import PublishedFigure, published_figures
from ..puntobanco.rules import RuleSet


@dataclass(frozen=True)
class EvaluatorCheck:
    """The compiled evaluator against the plain reference walk (:mod:`exactodds.puntobanco.engine`), on one shoe and
    rule set.

    ``outcomes`` counts the outcome counts compared; ``mismatches`` names each that differs.
    """

    outcomes: int
    mismatches: tuple[str, ...]
    compiled_seconds: float
    reference_seconds: float
    note: str

    @property
    def agree(self) -> bool:
        """Whether every exact count is the same."""
        return not self.mismatches


def evaluator_check(shoe: Shoe, rules: RuleSet, bets: tuple[Bet, ...]) -> tuple[EvaluatorCheck, Analysis]:
    """Price ``bets`` by both methods and compare every outcome count, timing each; also return the compiled analysis.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> from exactodds.puntobanco.bets import find_bet
    >>> check, _ = evaluator_check(Shoe.standard(1), PUNTO_BANCO, (find_bet("tie", PUNTO_BANCO),))
    >>> check.agree, check.outcomes
    (True, 2)
    """
    start = time.perf_counter()
    compiled = analyze(shoe, rules, bets, method="compiled")
    middle = time.perf_counter()
    reference = analyze(shoe, rules, bets, method="reference")
    end = time.perf_counter()
    mismatches = []
    outcomes = 0
    for a, b in zip(compiled.bets, reference.bets):
        for x, y in zip(a.outcomes, b.outcomes):
            outcomes += 1
            if x.count != y.count:
                mismatches.append(f"{a.bet.id} {x.outcome.id}: compiled {x.count}, reference {y.count}")
    notes = []
    if rules.player_five == "best":
        notes.append("the holder's best choice on 5 is priced by the reference walk by both methods")
    if any(b.needs_suits for b in bets):
        notes.append("bets on suited pairs are priced by the reference walk by both methods")
    check = EvaluatorCheck(outcomes, tuple(mismatches), middle - start, end - middle, "; ".join(notes))
    if mismatches:  # never a report on figures that its own check contradicts
        raise ExactOddsError(f"the compiled evaluator and the reference walk disagree: {mismatches[0]}")
    return check, compiled


@dataclass(frozen=True)
class PublishedCheck:
    """A published figure that applies to a bet of the report, the exact value, and whether they agree."""

    figure: PublishedFigure
    exact: str
    agrees: bool


def published_checks(analysis: Analysis, rules: RuleSet) -> tuple[PublishedCheck, ...]:
    """Every published figure (``data/published.toml``) about a bet of ``analysis`` on its very shoe and ``rules``
    (the analysis's)."""
    checks = []
    for figures in analysis.bets:
        for figure in published_figures():
            if figure.applies_to(analysis.shoe, rules, figures.bet):
                checks.append(PublishedCheck(figure, figure.exact_text(figures), figure.matches(figures)))
    return tuple(checks)
