"""The report's cross-check of its counts: against a second, independent count where the game has one (capability
``reference``), else every count and figure checked against what it must add up to; the check that fails stops the
report."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ..analysis import Analysis, BetFigures
from ..cards import Shoe
from ..errors import ExactOddsError
from ..game import Game, Settings
from ..paytable import Bet

#: The counting convention of an analysis that has none of its own (punto banco's), in words.
SIX_CARDS = "ordered six-card draws N(N−1)…(N−5)"


def counting_text(analysis: Analysis) -> str:
    """What the counts of ``analysis`` count, in words: the game's counting convention, or ordered six-card draws.

    >>> from exactodds.puntobanco.odds import analyze
    >>> counting_text(analyze(Shoe.standard(1), bets=["tie"]))
    'ordered six-card draws N(N−1)…(N−5)'
    """
    return SIX_CARDS if analysis.counting is None else analysis.counting.convention


@dataclass(frozen=True)
class CountCheck:
    """The check run on a report's counts, and what it found.

    ``kind``: ``reference`` (the game's pricing against its second, independent count) or ``sums`` (each bet's
    counts against the orderings, each figure recomputed from the counts). ``outcomes`` counts the outcome counts
    checked; ``mismatches`` names each that fails.
    """

    kind: Literal["reference", "sums"]
    outcomes: int
    mismatches: tuple[str, ...]
    priced_seconds: float
    check_seconds: float
    #: The two counts in short (``compiled``, ``reference``); with ``sums``, the pricing and the recount.
    names: tuple[str, str]
    #: The check in words, for the report.
    described: str
    note: str = ""

    @property
    def agree(self) -> bool:
        """Whether every count passed."""
        return not self.mismatches

    @property
    def summary(self) -> str:
        """The check in one phrase, for the command's line on stderr.

        >>> CountCheck("reference", 4, (), 0.1, 0.23, ("compiled", "reference"), "").summary
        'compiled = reference on 4 counts (0.23 s)'
        """
        if self.kind == "reference":
            return f"{self.names[0]} = {self.names[1]} on {self.outcomes} counts ({self.check_seconds:.2f} s)"
        return f"counts sum to the orderings, figures recomputed, on {self.outcomes} counts"


def cross_check(game: Game, settings: Settings, shoe: Shoe, bets: Sequence[Bet]) -> tuple[CountCheck, Analysis]:
    """Price ``bets`` and check every outcome count, timing each step; also return the analysis checked.

    A game with a second count (capability ``reference``) is priced both ways and every count compared; any other
    game's counts are checked by :func:`sums_mismatches`. A failed check is an error: never a report on figures that
    its own check contradicts.

    >>> from exactodds.games import find_game
    >>> game = find_game("punto-banco")
    >>> settings = game.settings_of({})
    >>> check, _ = cross_check(game, settings, Shoe.standard(1), game.resolve(["tie"], settings))
    >>> check.agree, check.outcomes, check.kind
    (True, 2, 'reference')
    """
    start = time.perf_counter()
    analysis = game.price(shoe, bets, settings)
    middle = time.perf_counter()
    if game.has("reference"):
        reference = game.reference(shoe, bets, settings)
        mismatches = _compare(analysis, reference.analysis, reference.names)
        names, described, note = reference.names, reference.described, reference.note
        kind: Literal["reference", "sums"] = "reference"
    else:
        mismatches = sums_mismatches(analysis)
        names, kind, note = ("priced", "recounted"), "sums", ""
        cards = 6 if analysis.counting is None else analysis.counting.cards
        described = (
            f"the counts checked on their own ({game.name} has no second, independent count: the capability"
            f" 'reference'): each bet's outcome counts are whole numbers ≥ 0 that sum to the orderings,"
            f" {_falling(cards)} for the {cards} cards a deal takes, reckoned apart from the pricing, and every"
            " figure (EV, variance, hit frequency, push probability) recomputed from the counts in plain fractions"
            " equals the figure printed"
        )
    end = time.perf_counter()
    outcomes = sum(len(f.outcomes) for f in analysis.bets)
    check = CountCheck(kind, outcomes, tuple(mismatches), middle - start, end - middle, names, described, note)
    if mismatches:
        raise ExactOddsError(f"the report's cross-check of the counts failed: {mismatches[0]}")
    return check, analysis


def _falling(cards: int) -> str:
    """N(N−1)…(N−k+1) written out for k cards.

    >>> _falling(1), _falling(2), _falling(6)
    ('N', 'N(N−1)', 'N(N−1)…(N−5)')
    """
    return "N" if cards == 1 else "N(N−1)" if cards == 2 else f"N(N−1)…(N−{cards - 1})"


def _compare(priced: Analysis, reference: Analysis, names: tuple[str, str]) -> list[str]:
    """Each outcome count that differs between the two analyses, named."""
    mismatches = []
    for a, b in zip(priced.bets, reference.bets, strict=True):
        for x, y in zip(a.outcomes, b.outcomes, strict=True):
            if x.count != y.count:
                mismatches.append(f"{a.bet.id} {x.outcome.id}: {names[0]} {x.count}, {names[1]} {y.count}")
    return mismatches


def sums_mismatches(analysis: Analysis) -> list[str]:
    """What fails in the counts of ``analysis``: a count that is not a whole number ≥ 0, a bet whose counts do not sum
    to the orderings (N(N−1)…(N−k+1), reckoned here from the shoe's size), a figure that differs from its recount.

    >>> from exactodds.games import find_game
    >>> game = find_game("dragon-tiger")
    >>> analysis = game.price(Shoe.standard(1), ["tie"], game.settings_of({}))
    >>> sums_mismatches(analysis)
    []
    >>> from dataclasses import replace
    >>> tie = analysis.bets[0]
    >>> broken = replace(analysis, bets=(BetFigures.of_counts(tie.bet, [o.count + 1 for o in tie.outcomes], 2652),))
    >>> sums_mismatches(broken)
    ['tie: the counts sum to 2654, not the 2652 orderings']
    """
    cards = 6 if analysis.counting is None else analysis.counting.cards
    orderings = 1
    for k in range(cards):
        orderings *= analysis.shoe.size - k
    orderings = (orderings if analysis.given_count is None else analysis.given_count) * analysis.policy_scale
    out = []
    for figures in analysis.bets:
        counts = [o.count for o in figures.outcomes]
        if any(not isinstance(c, int) or c < 0 for c in counts):
            out.append(f"{figures.bet.id}: a count is not a whole number ≥ 0")
        elif sum(counts) != orderings or figures.orderings != orderings:
            out.append(f"{figures.bet.id}: the counts sum to {sum(counts)}, not the {orderings} orderings")
        else:
            out += [f"{figures.bet.id}: {name} {shown}, recounted {recount}"
                    for name, shown, recount in _recounts(figures, orderings) if shown != recount]
    return out


def _recounts(figures: BetFigures, orderings: int) -> list[tuple[str, Fraction, Fraction]]:
    """Each figure as shown and as recomputed from the counts, outcome by outcome, in plain fractions."""
    p = [Fraction(o.count, orderings) for o in figures.outcomes]
    outcomes = [o.outcome for o in figures.outcomes]
    ev = sum((pi * o.mean for pi, o in zip(p, outcomes)), Fraction(0))
    second = sum((pi * o.square for pi, o in zip(p, outcomes)), Fraction(0))
    return [
        ("EV", figures.ev, ev),
        ("variance", figures.variance, second - ev * ev),
        ("hit frequency", figures.hit_frequency, sum((pi * o.chance(1) for pi, o in zip(p, outcomes)), Fraction(0))),
        ("push probability", figures.push_probability,
         sum((pi * o.chance(0) for pi, o in zip(p, outcomes)), Fraction(0))),
    ]
