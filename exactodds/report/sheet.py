"""The math report's figures, exactly: per bet, the volatility index and hold bands; the bet mix; the stamp.

Every figure here is an exact rational except square roots, which are written as exactly
rounded decimals (:func:`exactodds.exact.sqrt_decimal_text`). The confidence band of the
hold is the normal approximation: after n independent hands the hold per unit staked has
mean = the exact house edge and SD = SD/√n exactly, and the band is mean ± z·SD/√n.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import isqrt
from typing import Any

from ..analysis import GLI_GAMES, Analysis, BetFigures, BetNote, OutcomeFigures, Rules
from ..cards import Shoe
from ..errors import ExactOddsError, shown
from ..exact import decimal_text, one_in_text, parse_percent, percent_text, short_text, sqrt_decimal_text
from ..paytable import Bet, Outcome
from ..present import shoe_json
from ..rebate import Rebate, RebateFigures, law_with_rebate
from .holdbounds import HoldBounds
from .holdbounds import law_after as law_after_any
from .holdlaw import HANDS as HANDS_AFTER
from .holdlaw import HoldAfter, law_after, two_pays

#: Two-sided normal quantiles z of the volatility index and the bands, as printed in the literature.
Z_SCORES: dict[int, Fraction] = {90: Fraction("1.645"), 95: Fraction("1.96"), 99: Fraction("2.576")}
#: The confidence level of the hold bands (Maryland investigates hold outside a 95% interval).
BAND_LEVEL = 95
#: The numbers of hands of the hold bands.
BAND_HANDS = (1_000, 10_000, 100_000, 1_000_000)
_ROOT_PLACES = 30  # digits of the square roots behind a band's bounds, before they are rounded for print


def root(value: Fraction) -> Fraction:
    """√value truncated to 30 decimals, an exact rational within 10^-30 below the root (used only for bounds).

    >>> root(Fraction(9, 4))
    Fraction(3, 2)
    """
    scale = 10**_ROOT_PLACES
    return Fraction(isqrt(value.numerator * scale * scale // value.denominator), scale)


@dataclass(frozen=True)
class Band:
    """The normal-approximation band of the hold after ``hands`` hands: edge ± z·SD/√hands.

    >>> b = Band(100, Fraction(1, 100), Fraction(1), Fraction(196, 100))
    >>> b.sd_text(4), b.half_width_text(4), b.low_text(4), b.high_text(4)
    ('0.1000', '0.1960', '-0.1860', '0.2060')
    """

    hands: int
    edge: Fraction
    variance: Fraction
    z: Fraction

    def sd_text(self, places: int = 6) -> str:
        """The SD of the hold after n hands, SD/√n, exactly rounded."""
        return sqrt_decimal_text(self.variance / self.hands, places)

    def half_width_text(self, places: int = 6) -> str:
        """z·SD/√n, exactly rounded."""
        return sqrt_decimal_text(self.z * self.z * self.variance / self.hands, places)

    @property
    def half_width(self) -> Fraction:
        """z·SD/√n to 30 decimals."""
        return root(self.z * self.z * self.variance / self.hands)

    @property
    def low(self) -> Fraction:
        """The band's lower bound of the hold (to 30 decimals)."""
        return self.edge - self.half_width

    @property
    def high(self) -> Fraction:
        """The band's upper bound of the hold (to 30 decimals)."""
        return self.edge + self.half_width

    def low_text(self, places: int = 6) -> str:
        """The lower bound as a decimal."""
        return decimal_text(self.low, places)

    def high_text(self, places: int = 6) -> str:
        """The upper bound as a decimal."""
        return decimal_text(self.high, places)


def bands(edge: Fraction, variance: Fraction, level: int = BAND_LEVEL) -> tuple[Band, ...]:
    """The hold bands after each of :data:`BAND_HANDS` hands.

    >>> [b.hands for b in bands(Fraction(0), Fraction(1))]
    [1000, 10000, 100000, 1000000]
    """
    return tuple(Band(n, edge, variance, Z_SCORES[level]) for n in BAND_HANDS)


def volatility_index_text(variance: Fraction, level: int, places: int = 4) -> str:
    """The volatility index z·SD at a confidence level (90, 95 or 99), exactly rounded: √(z²·variance).

    >>> volatility_index_text(Fraction(1), 95)
    '1.9600'
    """
    z = Z_SCORES[level]
    return sqrt_decimal_text(z * z * variance, places)


@dataclass(frozen=True)
class TopAward:
    """An outcome's largest net pay and the exact probability per hand of being paid it.

    Without a multiplier that is the outcome's pay and probability; with one, the pay of its
    most generous draw, hit with the outcome's probability times that draw's.

    >>> from exactodds.betfile import Multiplier
    >>> from exactodds.paytable import Outcome
    >>> from exactodds.puntobanco.events import TIE
    >>> lightning = Multiplier((Fraction(1), Fraction(3)), (Fraction(3, 4), Fraction(1, 4)))
    >>> award = top_award(OutcomeFigures(Outcome("win", TIE, Fraction(8), lightning), 1, 10))
    >>> award.pays, award.probability
    ('24 to 1', Fraction(1, 40))
    """

    outcome: Outcome
    net: Fraction
    probability: Fraction

    @property
    def pays(self) -> str:
        """The top pay as the report prints it: the outcome's pay, or ``X to 1`` when a multiplier makes it."""
        return self.outcome.pays if self.outcome.multiplier is None else f"{short_text(self.net)} to 1"


def top_award(figures: OutcomeFigures) -> TopAward:
    """The top award of one outcome on one shoe (see :class:`TopAward`)."""
    outcome = figures.outcome
    if outcome.multiplier is None:
        return TopAward(outcome, outcome.net, figures.probability)
    m = outcome.multiplier
    paid = [(m.paid(outcome.net, v), p) for v, p in zip(m.values, m.probabilities)]
    best = max(net for net, _ in paid)
    chance = sum((p for net, p in paid if net == best), Fraction(0))
    return TopAward(outcome, best, figures.probability * chance)


@dataclass(frozen=True)
class BetSheet:
    """One bet's page of the report: its exact figures and what the regulators ask of them."""

    figures: BetFigures
    min_rtp: Fraction | None = None
    #: The rebate (``--rebate``) the report shows each bet's EV with, or ``None``.
    rebate: Rebate | None = None
    #: Figures the game adds to the bet's (:class:`~exactodds.analysis.BetNote`), after its own.
    notes: tuple[BetNote, ...] = ()

    @property
    def bet(self) -> Bet:
        """The bet."""
        return self.figures.bet

    @property
    def rebated(self) -> RebateFigures | None:
        """The bet's effective stake and EV with the rebate, or ``None`` without a rebate."""
        return None if self.rebate is None else self.figures.with_rebate(self.rebate)

    @property
    def rtp(self) -> Fraction:
        """The return to player per unit staked: 1 + EV."""
        return 1 + self.figures.ev

    @property
    def below_min_rtp(self) -> bool:
        """Whether the return is below the jurisdiction's minimum (``--min-rtp``); false when none is given."""
        return self.min_rtp is not None and self.rtp < self.min_rtp

    @property
    def top_award(self) -> TopAward:
        """The largest net pay the bet can award (a multiplier's largest draw included), named by the first outcome
        that pays it. A pay table's outcomes are awards of their own, each with its chance; a multiplier's top draw
        is one award however the cards made it (a lit-card tie pays its top award on several patterns of cards),
        so its chance is that of being paid it by any outcome."""
        best = max((top_award(o) for o in self.figures.outcomes), key=lambda award: award.net)
        if best.outcome.multiplier is None:
            return best
        return TopAward(best.outcome, best.net, dict(self.figures.pay_law).get(best.net, best.probability))

    @property
    def top_award_meets_gli(self) -> bool:
        """Whether the top award is hit at least once in 100 million games (GLI-11): p ≥ 1/10^8."""
        return self.top_award.probability * GLI_GAMES >= 1

    def volatility_index_text(self, level: int, places: int = 4) -> str:
        """z·SD at ``level`` percent."""
        return volatility_index_text(self.figures.variance, level, places)

    @cached_property
    def hold_law(self) -> dict[Fraction, Fraction]:
        """What the player is paid in all per unit bet, hand by hand, with each pay's probability: the bet's law of
        pays, and with a rebate each pay plus its rebate (the casino's hold is minus this)."""
        return hold_law(self.figures, self.rebate)

    @property
    def hold_edge(self) -> Fraction:
        """The mean hold per unit bet: the house edge, with the rebate if any."""
        return -sum((pay * p for pay, p in self.hold_law.items()), Fraction(0))

    @property
    def hold_variance(self) -> Fraction:
        """The variance of the hold per hand, with the rebate if any (exact)."""
        law = self.hold_law
        mean = sum((pay * p for pay, p in law.items()), Fraction(0))
        return sum((pay * pay * p for pay, p in law.items()), Fraction(0)) - mean * mean

    @property
    def bands(self) -> tuple[Band, ...]:
        """The hold bands (95%) after 1,000 … 1,000,000 hands, with the rebate if any."""
        return bands(self.hold_edge, self.hold_variance)

    @cached_property
    def laws_after(self) -> tuple[HoldAfter | HoldBounds, ...]:
        """The law of the hold after 100 … 100,000 hands, with the rebate if any: for a bet of one win and one loss by
        :mod:`.holdlaw` (exact, then to a relative 10^-50), for a bet of more pays by :mod:`.holdbounds` (exact while
        its lattice is small, then bounded by the normal law and Berry–Esseen's ε)."""
        pays = two_pays(self.hold_law)
        if pays is None:
            return tuple(law_after_any(self.hold_law, n) for n in HANDS_AFTER)
        win, loss, p = pays
        return tuple(law_after(win, loss, p, n) for n in HANDS_AFTER)


def hold_law(figures: BetFigures, rebate: Rebate | None) -> dict[Fraction, Fraction]:
    """A bet's law of pays per unit bet (:attr:`~exactodds.analysis.BetFigures.pay_law`), with the rebate added to each
    pay when there is one (:func:`~exactodds.rebate.law_with_rebate`).

    >>> from exactodds.puntobanco.odds import analyze
    >>> tie = analyze(Shoe.standard(8), bets=["tie"]).bet("tie")
    >>> rebate = Rebate(Fraction(1, 100))
    >>> law = hold_law(tie, rebate)
    >>> sorted(map(str, law)), -sum(k * v for k, v in law.items()) == tie.with_rebate(rebate).house_edge
    (['-99/100', '801/100'], True)
    """
    law = figures.pay_law
    return dict(law) if rebate is None else law_with_rebate(figures.bet, law, rebate)


@dataclass(frozen=True)
class Mix:
    """A table's bet mix: the share of hands on each bet, exact fractions summing to 1.

    The model: each hand one unit is staked on one bet, chosen with these probabilities,
    independently of the cards (not several bets at once on the same coup, which would need
    the bets' covariances). Then the blended hold is Σ wᵢ·edgeᵢ and the variance per hand is
    Σ wᵢ·E[Xᵢ²] − (Σ wᵢ·EVᵢ)², both exact.

    >>> Mix.parse("banker=0.5,player=1/2").weights
    (('banker', Fraction(1, 2)), ('player', Fraction(1, 2)))
    """

    weights: tuple[tuple[str, Fraction], ...]

    @classmethod
    def parse(cls, text: str) -> Mix:
        """Read ``bet=weight,...`` (weights as decimals, fractions or percents); they must sum to exactly 1."""
        weights: dict[str, Fraction] = {}
        for item in text.split(","):
            bet_id, equals, weight = item.partition("=")
            bet_id = bet_id.strip()
            if not equals or not bet_id:
                raise ExactOddsError(f"malformed --mix item {shown(item.strip())!r}: write BET=WEIGHT, e.g."
                                     " banker=0.45")
            if bet_id in weights:
                raise ExactOddsError(f"--mix names {shown(bet_id)!r} twice")
            try:
                value = parse_percent(weight)
            except (ValueError, ZeroDivisionError):
                raise ExactOddsError(
                    f"malformed --mix weight {shown(weight.strip())!r} for {shown(bet_id)}: write e.g. 0.45"
                ) from None
            if not 0 < value <= 1:
                raise ExactOddsError(
                    f"the --mix weight of {shown(bet_id)} must be above 0 and at most 1, not {shown(weight.strip())}"
                )
            weights[bet_id] = value
        total = sum(weights.values(), Fraction(0))
        if total != 1:
            raise ExactOddsError(
                f"the --mix weights sum to {decimal_text(total, 6).rstrip('0').rstrip('.')} ({total}), not exactly 1"
            )
        return cls(tuple(weights.items()))


@dataclass(frozen=True)
class MixSheet:
    """The blended figures of a bet mix (see :class:`Mix` for the model)."""

    mix: Mix
    figures: tuple[BetFigures, ...]
    #: The rebate (``--rebate``): every hold figure of the mix counts it.
    rebate: Rebate | None = None

    @property
    def laws(self) -> tuple[dict[Fraction, Fraction], ...]:
        """Each bet's law of what the player is paid per unit bet (with the rebate, if any)."""
        return tuple(hold_law(f, self.rebate) for f in self.figures)

    @property
    def edges(self) -> tuple[Fraction, ...]:
        """Each bet's house edge, with the rebate if any."""
        return tuple(-sum((pay * p for pay, p in law.items()), Fraction(0)) for law in self.laws)

    @property
    def ev(self) -> Fraction:
        """Σ wᵢ·EVᵢ: the EV per unit staked of the table (with the rebate, if any)."""
        return -sum((w * edge for (_, w), edge in zip(self.mix.weights, self.edges)), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """The blended hold: −Σ wᵢ·EVᵢ (with the rebate, if any)."""
        return -self.ev

    @property
    def variance(self) -> Fraction:
        """Σ wᵢ·E[Xᵢ²] − EV²: one bet per hand, chosen by the mix (Xᵢ with the rebate, if any)."""
        second = sum((w * sum((pay * pay * p for pay, p in law.items()), Fraction(0))
                      for (_, w), law in zip(self.mix.weights, self.laws)), Fraction(0))
        return second - self.ev * self.ev

    @property
    def bands(self) -> tuple[Band, ...]:
        """The blended hold's bands (95%)."""
        return bands(self.house_edge, self.variance)


def parse_min_rtp(text: str) -> Fraction:
    """Read ``--min-rtp``: ``90%``, ``0.9`` or ``9/10``; a minimum return is above 0% and at most 100%.

    >>> parse_min_rtp("87.5%")
    Fraction(7, 8)
    """
    try:
        value = parse_percent(text)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed --min-rtp {shown(text)!r}: write e.g. 90% or 0.9") from None
    if not 0 < value <= 1:
        raise ExactOddsError(
            f"--min-rtp {shown(text.strip())} is out of range: a minimum return to player is above 0% and at most 100%"
        )
    return value


def provenance(shoe: Shoe, rules: Rules, bets: tuple[Bet, ...], rebate: Rebate | None = None) -> dict[str, Any]:
    """What the figures depend on, as JSON-ready values: the rules (as JSON, with the decisions they fix), the shoe,
    each bet's pay table, and the rebate if there is one.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> sorted(provenance(Shoe.standard(8), PUNTO_BANCO, ()))
    ['bets', 'rules', 'shoe']
    """
    data: dict[str, Any] = {**rules.as_dict(), **rules.policy()}
    return {
        "rules": data,
        "shoe": shoe_json(shoe),
        "bets": {b.id: [[o.id, o.event.name, str(o.net)] for o in b.outcomes] for b in bets},
        **({} if rebate is None else {"rebate": rebate.as_json()}),
    }


def canonical_json(data: Any) -> str:
    """The one canonical text of a JSON value that is hashed: sorted keys, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(shoe: Shoe, rules: Rules, bets: tuple[Bet, ...], rebate: Rebate | None = None) -> str:
    """The sha256 of :func:`canonical_json` of :func:`provenance`: the report's stamp of rules, shoe and pays.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> len(digest(Shoe.standard(8), PUNTO_BANCO, ()))
    64
    """
    return hashlib.sha256(canonical_json(provenance(shoe, rules, bets, rebate)).encode()).hexdigest()


def bet_sheets(analysis: Analysis, min_rtp: Fraction | None) -> tuple[BetSheet, ...]:
    """A :class:`BetSheet` for each bet of the analysis (with its rebate, if any)."""
    return tuple(BetSheet(f, min_rtp, analysis.rebate, analysis.notes_of(f.bet.id)) for f in analysis.bets)


#: The columns of the summary table, one row a bet (the report's first table, ``odds --summary``).
SUMMARY_HEADERS = ("bet", "top pay", "house edge/hand", "per resolved bet", "RTP", "hit frequency", "SD",
                   "VI 95%", "top award 1 in", "GLI-11 1 in 10⁸")


def summary_headers(rebated: bool, min_rtp: Fraction | None) -> tuple[str, ...]:
    """The headers of the summary table: a column for the house edge with a rebate, and one for a minimum RTP.

    >>> summary_headers(True, None)[:4]
    ('bet', 'top pay', 'house edge/hand', 'with rebate')
    """
    headers: tuple[str, ...] = SUMMARY_HEADERS
    if rebated:
        headers = (*headers[:3], "with rebate", *headers[3:])
    return headers + (("min RTP " + percent_text(min_rtp, 2),) if min_rtp is not None else ())


def summary_rows(sheets: Sequence[BetSheet], min_rtp: Fraction | None, places: int) -> tuple[tuple[str, ...], ...]:
    """One row per bet of the summary table (percentages to ``places`` decimals), under :func:`summary_headers`.

    >>> from exactodds.puntobanco.odds import analyze
    >>> summary_rows(bet_sheets(analyze(Shoe.standard(8), bets=["tie"]), None), None, 2)[0][:4]
    ('tie', '8 to 1', '14.36%', '14.36%')
    """
    rows = []
    for s in sheets:
        f = s.figures
        per_resolved = f.house_edge_per_resolved_bet
        rebated = s.rebated
        row: tuple[str, ...] = (
            s.bet.id, s.top_award.pays, percent_text(f.house_edge, places),
            *(() if rebated is None else (percent_text(rebated.house_edge, places),)),
            "—" if per_resolved is None else percent_text(per_resolved, places), percent_text(s.rtp, places),
            percent_text(f.hit_frequency, places), f.sd_text(4), s.volatility_index_text(95),
            one_in_text(s.top_award.probability), "yes" if s.top_award_meets_gli else "NO",
        )
        if min_rtp is not None:
            row += ("BELOW" if s.below_min_rtp else "ok",)
        rows.append(row)
    return tuple(rows)
