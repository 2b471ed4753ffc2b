"""Peek Baccarat: some of the first four cards are shown, then the Player or Banker bettor keeps, doubles or triples.

The rules (docs/lit.md, with the source): a fee f (20%) is paid on the Player and Banker bets on
top of the stake; after each side has its two cards, the cards of a *reveal pattern* (a nonempty
set of the positions P1 B1 P2 B2) are shown, and the bettor may raise his stake to k = 2 or 3
units with no further fee. A unit then costs k + f and returns k·R, R the plain bet's return per
unit (Player: 2 on a win, 1 on a tie, else 0; Banker: 1.95 on a win). So given what is shown the
best raise is k = 3 when E[R | shown] > 1 and k = 1 otherwise (the gain k·(E[R | shown] − 1) is
linear in k); equal, the bettor keeps (it changes no figure).

What a shown card says about the coup is its value (a K and a 10 leave the same shoe of values),
so every count here is over the values of the first four cards: for each ordered four values, the
ordered six-card draws that start with them, by outcome (:func:`prefix_counts`, exact integers);
summed over the four values a pattern hides, they give each shown value's counts
(:func:`pattern_figures`). The pattern's exact figures are then sums of those; a law over the
patterns (not published: an input) mixes them.

>>> from exactodds.cards import Shoe
>>> from exactodds.puntobanco.rules import PUNTO_BANCO
>>> f = pattern_figures(Shoe.standard(1), PUNTO_BANCO.tableau, ("P1", "B1", "P2", "B2"), "player")
>>> f.raised_share > 0, f.ev > pattern_figures(Shoe.standard(1), PUNTO_BANCO.tableau, ("P1",), "player").ev
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import lcm
from typing import TYPE_CHECKING, NamedTuple

from ..cards import Shoe
from ..exact import short_text
from ..inputs import PRECISION, Input
from .rules import RuleSet, Tableau, deal_index, deal_table

if TYPE_CHECKING:
    from ..fitting import Piece

#: The positions a pattern may show, in deal order.
POSITIONS = ("P1", "B1", "P2", "B2")
#: Every reveal pattern: each nonempty set of the four positions, in deal order.
PATTERNS = tuple(c for n in range(1, 5) for c in combinations(POSITIONS, n))
#: The most a bettor may raise to, in units.
TOP_RAISE = 3
#: The inputs of ``peek`` (the command and ``POST /peek``).
REVEAL = Input("reveal", "text", 'The law of which cards are shown, e.g. "P1B1:1/2,P1P2B2:1/2" (positions written'
               ' together) or "cards=1:1/4,2:1/4,3:1/4,4:1/4" (a number of cards, each set of that many alike); not'
               " published, so none by default: each pattern's figures alone.", metavar="LAW")
PEEK_FEE = Input("peek-fee", "pay", "The Peek fee on the original Player or Banker stake (none on a raise).",
                 metavar="RATE", default="20%")
PEEK_RTP = Input("rtp", "text", "An advertised RTP of the player or banker bet as printed, e.g. player=98.8%"
                 " (repeatable): with p in the probabilities of --reveal (P1B1:1-p,P1P2B2:p), the laws of that family"
                 " that give every one.", metavar="BET=RTP", multiple=True, key_name="rtps")
PEEK_PRECISION = replace(PRECISION, low=1, high=12, default=4)
PEEK_INPUTS = (REVEAL, PEEK_FEE, PEEK_RTP)
#: The bets Peek prices.
BETS = ("player", "banker")
#: The commission on a Banker win when none is given (punto banco's 5%).
COMMISSION = Fraction(1, 20)


def returns_of(bet: str, commission: Fraction = COMMISSION) -> tuple[Fraction, Fraction, Fraction]:
    """The plain return per unit of a bet by outcome (player win, banker win, tie): the Player's 1:1, the Banker's
    less the commission, a tie the stake back.

    >>> returns_of("banker")
    (Fraction(0, 1), Fraction(39, 20), Fraction(1, 1))
    """
    return (Fraction(2), Fraction(0), Fraction(1)) if bet == "player" else (Fraction(0), 2 - commission, Fraction(1))


def peek_commission(rules: RuleSet) -> Fraction:
    """The Banker's commission under a rule set Peek can price: one whose Player and Banker pays depend on the winner
    alone (no EZ push, no pay by total), else an ``Error:`` line.

    >>> from exactodds.puntobanco.rules import find_rules
    >>> peek_commission(find_rules("punto-banco"))
    Fraction(1, 20)
    """
    if rules.banker_three_card_seven_pushes or rules.banker_win_overrides or rules.player_win_overrides:
        from ..errors import ExactOddsError

        raise ExactOddsError(f"Peek prices Player and Banker bets paid by the winner alone; rule set {rules.name} pays"
                             " some wins by their cards (an EZ push or a pay by total): choose another with --rules")
    return rules.commission


@lru_cache(maxsize=8)
def prefix_counts(shoe: Shoe, tableau: Tableau) -> dict[tuple[int, int, int, int], tuple[int, int, int]]:
    """For each ordered four values (P1 B1 P2 B2), the ordered six-card draws starting with them that end in a Player
    win, a Banker win and a tie (the fifth and sixth cards drawn whether or not the coup uses them)."""
    values = shoe.value_counts()
    table = deal_table(tableau)
    out: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
    for p1, b1, p2, b2 in product(range(10), repeat=4):
        left = list(values)
        weight = 1
        for v in (p1, b1, p2, b2):
            weight *= left[v]
            left[v] -= 1
        if weight <= 0:
            continue
        p_total, b_total = (p1 + p2) % 10, (b1 + b2) % 10
        wins = [0, 0, 0]
        for x in range(10):
            if left[x] <= 0:
                continue
            for y in range(10):
                ways = left[x] * (left[y] - (x == y))
                if ways <= 0:
                    continue
                pt, bt, _, _ = table[deal_index(p_total, b_total, x, y)]
                wins[0 if pt > bt else 1 if bt > pt else 2] += ways
        out[p1, b1, p2, b2] = (weight * wins[0], weight * wins[1], weight * wins[2])
    return out


class PatternFigures(NamedTuple):
    """One bet under one reveal pattern with the best raise: per original unit, the exact expected return and cost,
    the EV (return − cost), the share of coups raised, and the RTP (return / cost)."""

    pattern: tuple[str, ...]
    bet: str
    expected_return: Fraction
    expected_cost: Fraction
    raised_share: Fraction

    @property
    def ev(self) -> Fraction:
        """The expected gain per original unit staked (the fee included)."""
        return self.expected_return - self.expected_cost

    @property
    def rtp(self) -> Fraction:
        """The return to player: expected return over expected amount paid (stakes and fee)."""
        return self.expected_return / self.expected_cost


@lru_cache(maxsize=64)
def shown_counts(shoe: Shoe, tableau: Tableau, pattern: tuple[str, ...]) -> dict[tuple[int, ...], tuple[int, int, int]]:
    """For each values the pattern's cards show (in deal order), the ordered six-card draws by outcome (kept: a
    pattern's counts serve both bets and every fee)."""
    where = [POSITIONS.index(p) for p in pattern]
    out: dict[tuple[int, ...], list[int]] = {}
    for prefix, counts in prefix_counts(shoe, tableau).items():
        key = tuple(prefix[i] for i in where)
        into = out.setdefault(key, [0, 0, 0])
        for k in range(3):
            into[k] += counts[k]
    return {k: (a, b, c) for k, (a, b, c) in out.items()}


@lru_cache(maxsize=256)
def pattern_figures(shoe: Shoe, tableau: Tableau, pattern: tuple[str, ...], bet: str,
                    fee: Fraction = Fraction(1, 5), commission: Fraction = COMMISSION) -> PatternFigures:
    """The exact figures of ``bet`` (player or banker) when ``pattern``'s cards are shown, raised at best (kept: the
    table of every set and the game under a law read the same figures)."""
    # In integers: the returns times their common denominator L, so n·E[R | shown] > n is L·Σ r·c > L·n.
    plain_returns = returns_of(bet, commission)
    scale = lcm(*(r.denominator for r in plain_returns))
    returns = [int(r * scale) for r in plain_returns]
    expected = staked = raised = total = 0
    orderings = shoe.orderings()
    for counts in shown_counts(shoe, tableau, pattern).values():
        n = sum(counts)
        plain = sum(r * c for r, c in zip(returns, counts))  # L · n · E[R | shown]
        k = TOP_RAISE if plain > scale * n else 1
        expected += k * plain
        staked += k * n
        raised += n if k > 1 else 0
        total += n
    assert total == orderings or orderings == 0
    returned, paid = Fraction(expected, scale), staked + fee * total
    return PatternFigures(pattern, bet, returned / orderings, paid / orderings, Fraction(raised, orderings))


def mixed(figures: Sequence[tuple[Fraction, PatternFigures]]) -> tuple[Fraction, Fraction, Fraction]:
    """The whole game under a law over the patterns (each pattern's chance and figures): the expected return, cost
    and share raised per original unit.

    >>> one = PatternFigures(("P1",), "player", Fraction(2), Fraction(3), Fraction(1, 2))
    >>> mixed([(Fraction(1, 2), one), (Fraction(1, 2), one._replace(expected_return=Fraction(1)))])[0]
    Fraction(3, 2)
    """
    return (sum((p * f.expected_return for p, f in figures), Fraction(0)),
            sum((p * f.expected_cost for p, f in figures), Fraction(0)),
            sum((p * f.raised_share for p, f in figures), Fraction(0)))


def read_reveal_law(text: str) -> tuple[tuple[tuple[str, ...], Fraction], ...]:
    """A law over reveal patterns: ``P1:1/4,P1B1:1/4,…`` (positions written together), or ``cards=1:1/4,2:…``: a
    number of cards shown, each set of that many alike.

    >>> read_reveal_law("cards=1:1/2,4:1/2")[0]
    (('P1',), Fraction(1, 8))
    >>> read_reveal_law("P1B2:1")
    ((('P1', 'B2'), Fraction(1, 1)),)
    """
    from ..errors import ExactOddsError, shown
    from ..exact import fraction_text, parse_percent

    raw = text.strip()
    by_number = raw.lower().startswith("cards=")
    items = [i.strip() for i in (raw[6:] if by_number else raw).split(",")]
    out: dict[tuple[str, ...], Fraction] = {}
    total = Fraction(0)
    for item in items:
        name, colon, chance_text = item.partition(":")
        try:
            chance = parse_percent(chance_text) if colon else Fraction(1)
        except (ValueError, ZeroDivisionError):
            raise ExactOddsError(f"malformed probability in the reveal law: {shown(item, 40)!r}") from None
        if not 0 <= chance <= 1:
            raise ExactOddsError(f"a probability of the reveal law is between 0 and 1, not {fraction_text(chance)}")
        total += chance
        if by_number:
            if name.strip() not in ("1", "2", "3", "4"):
                raise ExactOddsError(f"a number of cards shown is 1 to 4, not {shown(name.strip(), 20)!r}")
            group = [p for p in PATTERNS if len(p) == int(name)]
            for p in group:
                out[p] = out.get(p, Fraction(0)) + chance / len(group)
            continue
        upper = name.strip().upper()
        seen = tuple(upper[i : i + 2] for i in range(0, len(upper), 2))
        if not seen or any(s not in POSITIONS for s in seen) or len(set(seen)) != len(seen):
            raise ExactOddsError("a reveal pattern is positions of P1 B1 P2 B2 written together (P1B2), not"
                                 f" {shown(name, 40)!r}")
        key = tuple(p for p in POSITIONS if p in seen)
        if key in out:
            raise ExactOddsError(f"the reveal law names {''.join(key)} twice")
        out[key] = chance
    if total != 1:
        raise ExactOddsError(f"the reveal law's probabilities add up to {fraction_text(total)}, not 1")
    return tuple((p, c) for p, c in sorted(out.items(), key=lambda pc: PATTERNS.index(pc[0])) if c)


def peek_text(shoe: Shoe, tableau: Tableau, law: Sequence[tuple[tuple[str, ...], Fraction]], fee: Fraction,
              places: int = 4, commission: Fraction = COMMISSION) -> str:
    """Each reveal pattern's figures with the best raise, then the whole game under ``law``, as the terminal shows."""
    from ..exact import decimal_text, percent_text

    banker = f"; Banker wins pay {short_text(1 - commission)}:1" if commission != COMMISSION else ""
    lines = [f"Peek: the first four cards, some shown, then keep, double or triple (fee {percent_text(fee, 0)} on the"
             f" original stake only{banker}); figures per original unit, with the best raise", "",
             f"{'shown':<10}{'player RTP':>12}{'raised':>9}{'banker RTP':>12}{'raised':>9}"]
    chosen = {p for p, _ in law}
    for pattern in PATTERNS:
        on_player, on_banker = (pattern_figures(shoe, tableau, pattern, bet, fee, commission) for bet in BETS)
        mark = " *" if pattern in chosen else ""
        lines.append(f"{''.join(pattern):<10}{percent_text(on_player.rtp, places):>12}"
                     f"{percent_text(on_player.raised_share, 1):>9}{percent_text(on_banker.rtp, places):>12}"
                     f"{percent_text(on_banker.raised_share, 1):>9}{mark}")
    if not law:
        return "\n".join(lines) + "\n"
    lines.append("")
    law_text = ", ".join(f"{''.join(p)} {decimal_text(c, 4)}" for p, c in law)
    lines.append(f"the game under the law ({law_text}; * above):")
    for bet in BETS:
        ret, cost, raised = mixed([(c, pattern_figures(shoe, tableau, p, bet, fee, commission)) for p, c in law])
        lines.append(f"  {bet}: RTP {percent_text(ret / cost, places)} (return {decimal_text(ret, 6)} over"
                     f" {decimal_text(cost, 6)} paid per original unit), raised {percent_text(raised, 2)} of coups")
    return "\n".join(lines) + "\n"


def peek_json(shoe: Shoe, tableau: Tableau, law: Sequence[tuple[tuple[str, ...], Fraction]], fee: Fraction,
              commission: Fraction = COMMISSION) -> dict[str, object]:
    """Each reveal pattern's exact figures with the best raise, and with a law the whole game, as JSON values."""
    from ..exact import fraction_text

    def figures_json(ret: Fraction, cost: Fraction, raised: Fraction) -> dict[str, str]:
        return {"return": fraction_text(ret), "paid": fraction_text(cost), "rtp": fraction_text(ret / cost),
                "raised": fraction_text(raised)}

    patterns: dict[str, object] = {}
    out: dict[str, object] = {"fee": fraction_text(fee), "commission": fraction_text(commission), "patterns": patterns}
    for pattern in PATTERNS:
        patterns["".join(pattern)] = {
            bet: figures_json(f.expected_return, f.expected_cost, f.raised_share)
            for bet in BETS for f in (pattern_figures(shoe, tableau, pattern, bet, fee, commission),)}
    if law:
        out["law"] = {"".join(p): fraction_text(c) for p, c in law}
        for bet in BETS:
            out[bet] = figures_json(*mixed([(c, pattern_figures(shoe, tableau, p, bet, fee, commission))
                                            for p, c in law]))
    return out


class RevealFit(NamedTuple):
    """The reveal laws of a one-parameter family that give the advertised RTPs: the family as typed, the domain of
    p, each bet's advertised figure with its pieces of p, and the pieces where every one holds."""

    family: str
    domain: tuple[Fraction, Fraction]
    bets: tuple[tuple[str, str, tuple[Piece, ...]], ...]
    pieces: tuple[Piece, ...]

    def text(self, places: int = 10) -> str:
        """The fit as the terminal shows it."""
        from ..exact import decimal_text
        from ..fitting import pieces_text

        lines = [f"Peek: the reveal laws {self.family}, p from {decimal_text(self.domain[0], places)} to"
                 f" {decimal_text(self.domain[1], places)}, that give each advertised RTP (every value that rounds to"
                 " it)", ""]
        for bet, text, pieces in self.bets:
            lines.append(f"{bet:<7} {text:>8}: p {pieces_text(pieces, places) or 'none'}")
        found = pieces_text(self.pieces, places)
        lines += ["", f"all at once: p {found}" if found else
                  "all at once: no law of this family gives every advertised RTP"]
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, object]:
        """The fit as JSON: each piece's ends exact (brackets) and as decimals rounded outward."""
        from ..exact import fraction_text
        from ..fitting import pieces_json

        return {"family": self.family, "domain": [fraction_text(x) for x in self.domain],
                "figures": [{"bet": bet, "advertised": text, "p": pieces_json(pieces)} for bet, text, pieces in
                            self.bets],
                "p": pieces_json(self.pieces), "consistent": bool(self.pieces)}


def fit_reveal(shoe: Shoe, tableau: Tableau, family_text: str, advertised: dict[str, str], fee: Fraction,
               commission: Fraction = COMMISSION) -> RevealFit:
    """The reveal laws of a one-parameter family (``P1B1:1-p,P1P2B2:p``) that give the advertised RTPs of the Player
    and Banker bets (``{"player": "98.8%"}``), exactly.

    Under a law the RTP is ret(p) / paid(p), both affine in p (each pattern's figures are fixed: its best raise
    does not depend on the law), so RTP in [low, high] is ret − low·paid ≥ 0 and high·paid − ret ≥ 0: polynomial
    conditions, solved as ``fit-rtp`` solves its bands (:func:`exactodds.fitting.solve`).
    """
    from ..errors import ExactOddsError, shown
    from ..fitting import band, domain_of, read_affine, solve

    items = [i.strip() for i in family_text.split(",")]
    family: list[tuple[tuple[str, ...], tuple[Fraction, Fraction]]] = []
    for item in items:
        name, colon, chance = item.partition(":")
        if name.strip().lower().startswith("cards="):
            raise ExactOddsError("a family of reveal laws names its sets of cards (P1B1:1-p,P1P2B2:p), not numbers of"
                                 " cards shown")
        (pattern, _), = read_reveal_law(f"{name}:1")
        family.append((pattern, read_affine(chance) if colon else (Fraction(1), Fraction(0))))
    if sum(a for _, (a, _) in family) != 1 or sum(b for _, (_, b) in family) != 0:
        raise ExactOddsError("the reveal law's probabilities add up to 1 for no p or for some p only: write them so"
                             " that they add up to 1 for every p (P1B1:1-p,P1P2B2:p)")
    domain = domain_of(tuple((Fraction(i), c) for i, (_, c) in enumerate(family)))
    big = Fraction(10**9)
    every = []
    bets = []
    for bet, text in advertised.items():
        if bet not in BETS:
            raise ExactOddsError(f"Peek's advertised RTPs are of the player and banker bets, not {shown(bet, 20)!r}")
        figures = [(c, pattern_figures(shoe, tableau, pattern, bet, fee, commission)) for pattern, c in family]
        ret = [sum((a * f.expected_return for (a, _), f in figures), Fraction(0)),
               sum((b * f.expected_return for (_, b), f in figures), Fraction(0))]
        paid = [sum((a * f.expected_cost for (a, _), f in figures), Fraction(0)),
                sum((b * f.expected_cost for (_, b), f in figures), Fraction(0))]
        low, high = band(text)
        conditions = [([ret[0] - low * paid[0], ret[1] - low * paid[1]], Fraction(0), big),
                      ([high * paid[0] - ret[0], high * paid[1] - ret[1]], Fraction(0), big)]
        every += conditions
        bets.append((bet, text, tuple(solve(conditions, domain))))
    return RevealFit(family_text, domain, tuple(bets), tuple(solve(every, domain)))


def peek_answer(shoe: Shoe, rules: RuleSet, reveal: str | None, fee: str, rtps: Sequence[str] = (),
                fmt: str = "table", places: int = 4) -> str:
    """What ``peek`` prints (and ``POST /peek`` answers): every reveal pattern's figures, the game under ``reveal``'s
    law, or with advertised RTPs the reveal laws of the family ``reveal`` that give them; as text or JSON."""
    import json

    from ..errors import ExactOddsError
    from ..exact import parse_rate
    from ..fitting import read_advertised

    rate = parse_rate(fee, "Peek fee", "20% or 1/5")
    commission = peek_commission(rules)
    if rtps:
        if reveal is None:
            raise ExactOddsError("--rtp fits a family of reveal laws: give it as --reveal with p, e.g."
                                 " P1B1:1-p,P1P2B2:p")
        found = fit_reveal(shoe, rules.tableau, reveal, read_advertised(rtps, "player=98.8%"), rate, commission)
        return json.dumps(found.as_json()) + "\n" if fmt == "json" else found.text(places)
    law = read_reveal_law(reveal) if reveal is not None else ()
    if fmt == "json":
        return json.dumps(peek_json(shoe, rules.tableau, law, rate, commission)) + "\n"
    return peek_text(shoe, rules.tableau, law, rate, places, commission)
