"""The whole report as one value: the figures of every bet, the mix, the cross-checks and the stamp."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import cast

from ..analysis import Analysis
from ..cards import Shoe
from ..errors import ExactOddsError
from ..paytable import Bet
from ..puntobanco.odds import resolve_bets
from ..puntobanco.rules import RuleSet
from ..rebate import Rebate
from ..version import __version__
from .checks import EvaluatorCheck, PublishedCheck, evaluator_check, published_checks
from .lab import LabOptions, LabSection, run_lab
from .sheet import BetSheet, Mix, MixSheet, bet_sheets, canonical_json, digest, provenance


@dataclass(frozen=True)
class Report:
    """Everything a math report shows, computed exactly once; the writers only lay it out."""

    analysis: Analysis
    sheets: tuple[BetSheet, ...]
    mix: MixSheet | None
    min_rtp: Fraction | None
    evaluator: EvaluatorCheck
    published: tuple[PublishedCheck, ...]
    command: str
    #: The lab's advantage-play figures (estimates), when asked for.
    lab: LabSection | None = None
    version: str = __version__

    @property
    def shoe(self) -> Shoe:
        """The shoe."""
        return self.analysis.shoe

    @property
    def rules(self) -> RuleSet:
        """The rules."""
        return cast(RuleSet, self.analysis.rules)  # (a report prices punto banco's bets: its rules are a rule set)

    @property
    def bets(self) -> tuple[Bet, ...]:
        """The bets, in report order."""
        return tuple(s.bet for s in self.sheets)

    @property
    def digest(self) -> str:
        """sha256 of the rules, shoe and pay tables, and the rebate if any (see :func:`~.sheet.digest`)."""
        return digest(self.shoe, self.rules, self.bets, self.analysis.rebate)

    @property
    def stamp(self) -> str:
        """The stamp on every page: version and the first 16 hex digits of the digest."""
        return f"exactodds {self.version} · sha256 {self.digest[:16]}"

    @property
    def provenance_json(self) -> str:
        """The canonical JSON that is hashed."""
        return canonical_json(provenance(self.shoe, self.rules, self.bets, self.analysis.rebate))


def make_report(
    shoe: Shoe,
    rules: RuleSet,
    bets: Sequence[str | Bet] | None,
    *,
    mix: Mix | None = None,
    min_rtp: Fraction | None = None,
    command: str = "",
    lab: LabOptions | None = None,
    rebate: Rebate | None = None,
) -> Report:
    """Price the bets (and those of the mix), run the cross-checks (and the lab), and hold it all in a :class:`Report`.

    With a ``rebate`` each bet's EV is also given with it, and the lab plays with it.

    >>> r = make_report(Shoe.standard(1), RuleSet("pb", "x"), ["banker"], command="exactodds report")
    >>> r.sheets[0].bet.id, r.evaluator.agree
    ('banker', True)
    """
    chosen = list(resolve_bets(rules, bets, suits=shoe.suited))
    if mix is not None:
        for bet_id, _ in mix.weights:
            bet = next((b for b in chosen if b.id == bet_id), None) or resolve_bets(rules, [bet_id])[0]
            if bet not in chosen:
                chosen.append(bet)
    if not chosen:
        raise ExactOddsError("no bet to report: give --bet ID")
    # The lab first: its options are checked (and its shoes dealt) before the longer cross-check.
    lab_section = None if lab is None else run_lab(shoe, rules, tuple(chosen), lab, rebate)
    evaluator, analysis = evaluator_check(shoe, rules, tuple(chosen))  # the compiled analysis, checked
    analysis = replace(analysis, rebate=rebate)
    mix_sheet = None
    if mix is not None:
        mix_sheet = MixSheet(mix, tuple(analysis.bet(bet_id) for bet_id, _ in mix.weights))
    return Report(
        analysis,
        bet_sheets(analysis, min_rtp),
        mix_sheet,
        min_rtp,
        evaluator,
        published_checks(analysis, rules),
        command,
        lab_section,
    )
