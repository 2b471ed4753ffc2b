"""Which laws reproduce a lit-card game's advertised RTPs: the fit over a family of laws (``fit-rtp``).

Each advertised figure is a band (:func:`exactodds.fitting.band`); each bet's RTP is an exact
polynomial in the family's parameter p (:func:`exactodds.fitting.polynomial`); the laws that
reproduce every figure at once are the pieces of p where each polynomial lies in its band
(:func:`exactodds.fitting.solve`). What they pin down is said beside them (the mean multiplier,
the chance of the top one, a multiplier's SD), and so is what they leave free; none at all is a
finding too (the advertised figures contradict the model or each other), and each bet's own set is
shown so that one sees which. A second unknown q is taken on a grid, p exact on each line
(:func:`fit_grid`); each bet's top award comes with the most its chance can be under any law
(:func:`award`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, NamedTuple

from ...analysis import GLI_GAMES
from ...cards import Shoe
from ...errors import ExactOddsError, shown
from ...exact import decimal_text, fraction_text, parse_rate, sqrt_decimal_text
from ...fitting import (
    Family,
    Piece,
    Poly,
    at,
    band,
    bound_text,
    domain_of,
    evaluate,
    pieces_json,
    pieces_text,
    polynomial,
    read_advertised,
    read_family,
    solve,
)
from . import _SIZES, LitGame, LitRules, base_pay, commission_of, expected_return, won_counts
from .law import LitLaw

if TYPE_CHECKING:
    from ...puntobanco.lit import PatternCounts

#: The names an advertised RTP may be given under, and the bet of the game each is (the pairs' RTPs are alike).
BET_NAMES = {"player": "player", "banker": "banker", "tie": "tie", "pair": "player-pair",
             "player-pair": "player-pair", "banker-pair": "banker-pair"}


class Fitted(NamedTuple):
    """One advertised RTP: the bet, the figure as printed, its band, the RTP's polynomial in p, and its own pieces."""

    bet: str
    advertised: str
    band: tuple[Fraction, Fraction]
    poly: Poly
    alone: list[Piece]


def fit_answer(game: LitGame, shoe: Shoe, lit_count: str | None, multipliers: str | None, fee: str | None,
               rtps: Sequence[str], grid: int = 20, fmt: str = "table", places: int = 10,
               progress: Callable[[int, int], None] | None = None) -> str:
    """What ``fit-rtp`` prints (and ``POST /fit-rtp`` answers): the fit of one parameter p, or with a second, q, in
    the laws, the grid of q (:func:`fit_grid`); as text, or one line of JSON."""
    import json

    advertised = read_advertised(rtps)
    rate = None if fee is None else parse_rate(fee, "fee", "20% or 1/5")
    texts = f"{lit_count or ''},{multipliers or ''}"
    two = any(ch == "q" for item in texts.split(",") for ch in item.partition(":")[2])
    found: Fit | GridFit = (fit_grid(game, shoe, lit_count, multipliers, rate, advertised, grid, progress) if two
                            else fit_rtps(game, shoe, lit_count, multipliers, rate, advertised))
    return json.dumps(found.as_json()) + "\n" if fmt == "json" else found.text(places)


class Award(NamedTuple):
    """A bet's top award: its net pay per unit staked (every card it reads lit with the top multiplier), and the most
    its chance per round can be under any law of the multipliers with the lit counts the family allows."""

    bet: str
    pays: Fraction
    bound: Fraction


class Fit(NamedTuple):
    """The fit: the game's rules as given (the family's texts), the domain of p, each figure, the pieces of p where
    every figure holds, and what those pin down."""

    game: str
    lit_count: str
    multipliers: str
    domain: tuple[Fraction, Fraction]
    figures: list[Fitted]
    pieces: list[Piece]
    pinned: dict[str, tuple[Fraction, Fraction]]
    awards: list[Award]

    def text(self, places: int = 10) -> str:
        """The fit as the terminal shows it."""
        lines = [f"{self.game}: the laws with lit count {self.lit_count} and multipliers {self.multipliers},"
                 f" p from {_number(self.domain[0], places)} to {_number(self.domain[1], places)},"
                 " that give each advertised RTP (every value that rounds to it)", ""]
        width = max(len(f.bet) for f in self.figures)
        for f in self.figures:
            lines.append(f"{f.bet:<{width}}  {f.advertised:>8}  band {_percent(f.band[0])} to {_percent(f.band[1])}:"
                         f"  p {_pieces(f.alone, places)}")
        lines.append("")
        if not self.pieces:
            lines.append("all at once: no law of this family gives every advertised RTP (the figures contradict the"
                         " model or each other: compare each bet's p above)")
        else:
            lines.append(f"all at once: p {_pieces(self.pieces, places)}")
            for name, (low, high) in self.pinned.items():
                lines.append(f"  {name}: {_number(low, places, -1)} to {_number(high, places, 1)}")
        lines += ["", "top awards (every card read lit with the top multiplier), at most this often under any law of"
                  " the multipliers:"]
        for award in self.awards:
            often = "never" if not award.bound else f"1 in {bound_text(1 / award.bound, 0, 1)}"
            gli = "" if award.bound * GLI_GAMES >= 1 else ": rarer than once in 100 million games under every law," \
                " so GLI-11 §4.8.2 asks that its odds be displayed"
            lines.append(f"  {award.bet}: {decimal_text(award.pays, 2)} to 1 per unit staked, {often}{gli}")
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, object]:
        """The fit as JSON: each piece's ends as exact brackets (fractions) and decimals rounded outward."""
        return {
            "game": self.game, "lit_count": self.lit_count, "multipliers": self.multipliers,
            "domain": [fraction_text(x) for x in self.domain],
            "figures": [{"bet": f.bet, "advertised": f.advertised, "band": [fraction_text(x) for x in f.band],
                         "rtp_polynomial": [fraction_text(c) for c in f.poly], "p": pieces_json(f.alone)}
                        for f in self.figures],
            "p": pieces_json(self.pieces), "consistent": bool(self.pieces),
            "pinned": {k: [fraction_text(lo), fraction_text(hi)] for k, (lo, hi) in self.pinned.items()},
            "top_awards": {a.bet: {"pays": fraction_text(a.pays), "chance_at_most": fraction_text(a.bound),
                                   "displayed_odds_needed": a.bound * GLI_GAMES < 1} for a in self.awards},
        }


def fit_rtps(game: LitGame, shoe: Shoe, lit_count: str | None, multipliers: str | None, fee: Fraction | None,
             advertised: Mapping[str, str], q: Fraction | None = None) -> Fit:
    """The laws of the family (``lit_count`` and ``multipliers`` with p in their probabilities; ``None``: the
    preset's) that give every ``advertised`` RTP (bet name → the figure as printed, e.g. ``98.9%``) on ``shoe``;
    with ``q``, a second parameter of the family taken at that value (:func:`fit_grid`)."""
    if not advertised:
        raise ExactOddsError("give the advertised RTPs to fit: --rtp player=98.9% (repeatable)")
    counts_text, multipliers_text = lit_count or game.lit_count, multipliers or game.multipliers
    counts, law = read_family(counts_text, "lit counts", q), read_family(multipliers_text, "multipliers", q)
    for n, _ in counts:
        if n.denominator != 1 or not 0 <= n <= 52:
            raise ExactOddsError(f"the lit count is a whole number from 0 to 52 (the virtual deck), not {n}")
    for m, _ in law:
        if m <= 0:
            raise ExactOddsError(f"a multiplier is positive, not {m}")
    domain = domain_of(counts, law)
    from . import _counts

    statistics = _counts(shoe)
    base = game.rules(game.settings_of({}))
    rules = LitRules(game.name, base.fee if fee is None else fee, base.tie, base.pair, base.law)
    figures = []
    for name, text in advertised.items():
        bet_id = BET_NAMES.get(name)
        if bet_id is None:
            raise ExactOddsError(f"unknown bet {shown(name, 20)!r} for an advertised RTP: use {', '.join(BET_NAMES)}")

        def rtp(p: Fraction, bet_id: str = bet_id) -> Fraction:
            law_at = LitLaw(tuple((int(n), c) for n, c in at(counts, p)), at(law, p))
            return expected_return(statistics, rules._replace(law=law_at), bet_id)

        poly = polynomial(rtp, domain)
        low, high = band(text)
        figures.append(Fitted(name, text.strip(), (low, high), poly, solve([(poly, low, high)], domain)))
    pieces = solve([(f.poly, *f.band) for f in figures], domain)
    awards = [award(statistics, rules, bet_id, counts, law) for bet_id in ("player", "banker", "tie", "player-pair")]
    return Fit(game.name, counts_text, multipliers_text, domain, figures, pieces, _pinned(pieces, counts, law),
               awards)


class GridFit(NamedTuple):
    """The fit over a family of two parameters, p and q: for each q of a grid, the exact pieces of p (:class:`Fit`)."""

    game: str
    lines: list[tuple[Fraction, Fit]]
    steps: int

    def text(self, places: int = 10) -> str:
        """The grid as the terminal shows it: each q with its p, then the bounds over every law found."""
        first = self.lines[0][1] if self.lines else None
        head = (f"{self.game}: the laws with lit count {first.lit_count} and multipliers {first.multipliers}, q on a"
                f" grid of {self.steps + 1} values from 0 to 1, p exact on each, that give every advertised RTP") \
            if first else f"{self.game}: no q of the grid leaves a law of the family"
        lines = [head, ""]
        found = [(q, fit) for q, fit in self.lines if fit.pieces]
        for q, fit in self.lines:
            lines.append(f"q {decimal_text(q, 4)}: p {_pieces(fit.pieces, places)}")
        lines.append("")
        if not found:
            lines.append("all at once: no law of this family on this grid gives every advertised RTP")
            return "\n".join(lines) + "\n"
        qs = [q for q, _ in found]
        lines.append(f"all at once, on the grid: q {decimal_text(min(qs), 4)} to {decimal_text(max(qs), 4)}; between"
                     " its values the bounds below are not proved")
        for name, (low, high) in self.bounds().items():
            lines.append(f"  {name}: {_number(low, places, -1)} to {_number(high, places, 1)}")
        return "\n".join(lines) + "\n"

    def bounds(self) -> dict[str, tuple[Fraction, Fraction]]:
        """What the laws found on the grid pin down (the mean multiplier, the chance of the top one, a multiplier's
        SD, the mean lit count): each the range over every q of the grid with a law, exact at those q."""
        found = [fit for _, fit in self.lines if fit.pieces]
        if not found:
            return {}
        return {name: (min(fit.pinned[name][0] for fit in found), max(fit.pinned[name][1] for fit in found))
                for name in found[0].pinned}

    def as_json(self) -> dict[str, object]:
        """The grid as JSON: each q (exact) with its fit, then the q with a law and the bounds over them."""
        qs = [q for q, fit in self.lines if fit.pieces]
        return {"game": self.game, "steps": self.steps,
                "grid": [{"q": fraction_text(q), **fit.as_json()} for q, fit in self.lines],
                "consistent": bool(qs), "q": [fraction_text(min(qs)), fraction_text(max(qs))] if qs else None,
                "bounds": {k: [fraction_text(lo), fraction_text(hi)] for k, (lo, hi) in self.bounds().items()}}


def fit_grid(game: LitGame, shoe: Shoe, lit_count: str | None, multipliers: str | None, fee: Fraction | None,
             advertised: Mapping[str, str], steps: int = 20,
             progress: Callable[[int, int], None] | None = None) -> GridFit:
    """The fit over a family with a second parameter q (``2:1-p-q,3:p,8:q``): q on a grid of ``steps`` + 1 values from
    0 to 1, and for each the exact pieces of p (a q whose family has no p with every probability in [0, 1] left
    out): what the advertised figures pin down when the law has more than one unknown. ``progress(done, total)``
    is told after each q."""
    lines = []
    for k in range(steps + 1):
        if progress is not None:
            progress(k, steps + 1)
        q = Fraction(k, steps)
        try:
            lines.append((q, fit_rtps(game, shoe, lit_count, multipliers, fee, advertised, q)))
        except ExactOddsError as err:
            if "no value of p" not in str(err) and "has no parameter" not in str(err):
                raise
    return GridFit(game.name, lines, steps)


def award(statistics: PatternCounts, rules: LitRules, bet_id: str, counts: Family, law: Family) -> Award:
    """The top award of a bet and the most its chance can be: every card it reads lit with the top multiplier needs
    its k distinct identities lit, q_n(k, k) = C(D − k, n − k) / C(D, n) with n lit, and each of them drawn the top
    multiplier (at most certain); so over every law of the multipliers, and every law of n on the counts the family
    allows, the chance is at most Σ over the patterns of the most cards count(pattern) · max_n q_n(k, k) / orderings.
    """
    top = max(v for v, _ in law)
    allowed = [int(n) for n, (a, b) in counts if a or b]
    deck = rules.law.deck
    won = won_counts(statistics, bet_id)
    most = max(_SIZES[bet_id])
    bound = Fraction(0)
    for pattern, n in won.items():
        if sum(pattern) == most:
            k = len(pattern)
            bound += n * max((Fraction(comb(deck - k, m - k), comb(deck, m)) for m in allowed if m >= k),
                             default=Fraction(0))
    return Award(bet_id, base_pay(rules, bet_id) * top**most - commission_of(bet_id), bound / statistics.orderings)


def _pinned(pieces: list[Piece], counts: Family, law: Family) -> dict[str, tuple[Fraction, Fraction]]:
    """What the pieces pin down: the range of the mean multiplier, the chance of the top one, a multiplier's variance,
    and the mean lit count, over every p of the pieces (each end bracketed outward)."""
    if not pieces:
        return {}
    ends = [x for p in pieces for x in (p.low[0], p.high[1])]
    top = max(v for v, _ in law)

    def span(f: Family, value: object) -> tuple[Fraction, Fraction]:
        values = [value(at(f, x)) for x in ends]  # type: ignore[operator]
        return min(values), max(values)

    def mean(d: tuple[tuple[Fraction, Fraction], ...]) -> Fraction:
        return sum((v * c for v, c in d), Fraction(0))

    def variance(d: tuple[tuple[Fraction, Fraction], ...]) -> Fraction:
        return sum((v * v * c for v, c in d), Fraction(0)) - mean(d) ** 2

    out = {"mean multiplier": span(law, mean), f"P(×{fraction_text(top)})": span(law, lambda d: dict(d)[top])}
    # The variance is quadratic in p: its extremes are at the ends or at its vertex.
    values = [variance(at(law, x)) for x in ends]
    (a, b), (c, d) = _moments(law)
    for piece in pieces:
        # E[m²] = a + b p and E[m] = c + d p: the variance a + b p − (c + d p)² peaks at p = (b − 2cd) / (2d²).
        if d:
            vertex = (b - 2 * c * d) / (2 * d * d)
            if piece.low[0] <= vertex <= piece.high[1]:
                values.append(variance(at(law, vertex)))
    out["SD of a multiplier"] = (_root(min(values), -1), _root(max(values), 1))
    if any(b for _, (_, b) in counts) or len(counts) > 1:
        out["mean lit count"] = span(counts, mean)
    return out


def _moments(law: Family) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """E[m²] and E[m] of a family, each as (a, b): a + b·p."""
    square = (sum((v * v * a for v, (a, _) in law), Fraction(0)), sum((v * v * b for v, (_, b) in law), Fraction(0)))
    first = (sum((v * a for v, (a, _) in law), Fraction(0)), sum((v * b for v, (_, b) in law), Fraction(0)))
    return square, first


def _root(x: Fraction, direction: int) -> Fraction:
    """√x rounded to 12 places, down (−1) or up (1): a bound of the SD, exact as a bound."""
    text = sqrt_decimal_text(max(x, Fraction(0)), 13)
    value = Fraction(text)
    step = Fraction(1, 10**12)
    return value - step if direction < 0 else value + step


def _number(x: Fraction, places: int, direction: int = 0) -> str:
    return bound_text(x, places, direction) if direction else decimal_text(x, places)


def _percent(x: Fraction) -> str:
    return decimal_text(100 * x, 3) + "%"


def _pieces(pieces: list[Piece], places: int) -> str:
    return pieces_text(pieces, places) or "none"


__all__ = ["BET_NAMES", "Fit", "Fitted", "evaluate", "fit_rtps"]
