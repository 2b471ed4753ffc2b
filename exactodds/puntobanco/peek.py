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
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

from ..cards import Shoe
from .rules import Tableau, deal_index, deal_table

#: The positions a pattern may show, in deal order.
POSITIONS = ("P1", "B1", "P2", "B2")
#: Every reveal pattern: each nonempty set of the four positions, in deal order.
PATTERNS = tuple(c for n in range(1, 5) for c in combinations(POSITIONS, n))
#: The most a bettor may raise to, in units.
TOP_RAISE = 3
#: The plain return per unit of each bet by outcome (player win, banker win, tie).
RETURNS = {"player": (Fraction(2), Fraction(0), Fraction(1)), "banker": (Fraction(0), Fraction(39, 20), Fraction(1))}


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
                    fee: Fraction = Fraction(1, 5)) -> PatternFigures:
    """The exact figures of ``bet`` (player or banker) when ``pattern``'s cards are shown, raised at best (kept: the
    table of every set and the game under a law read the same figures)."""
    # In integers: the returns times their common denominator L, so n·E[R | shown] > n is L·Σ r·c > L·n.
    scale = 20
    returns = [int(r * scale) for r in RETURNS[bet]]
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
              places: int = 4) -> str:
    """Each reveal pattern's figures with the best raise, then the whole game under ``law``, as the terminal shows."""
    from ..exact import decimal_text, percent_text

    lines = [f"Peek: the first four cards, some shown, then keep, double or triple (fee {percent_text(fee, 0)} on the"
             " original stake only); figures per original unit, with the best raise", "",
             f"{'shown':<10}{'player RTP':>12}{'raised':>9}{'banker RTP':>12}{'raised':>9}"]
    chosen = {p for p, _ in law}
    for pattern in PATTERNS:
        player, banker = (pattern_figures(shoe, tableau, pattern, bet, fee) for bet in ("player", "banker"))
        mark = " *" if pattern in chosen else ""
        lines.append(f"{''.join(pattern):<10}{percent_text(player.rtp, places):>12}"
                     f"{percent_text(player.raised_share, 1):>9}{percent_text(banker.rtp, places):>12}"
                     f"{percent_text(banker.raised_share, 1):>9}{mark}")
    lines.append("")
    law_text = ", ".join(f"{''.join(p)} {decimal_text(c, 4)}" for p, c in law)
    lines.append(f"the game under the law ({law_text}; * above):")
    for bet in ("player", "banker"):
        ret, cost, raised = mixed([(c, pattern_figures(shoe, tableau, p, bet, fee)) for p, c in law])
        lines.append(f"  {bet}: RTP {percent_text(ret / cost, places)} (return {decimal_text(ret, 6)} over"
                     f" {decimal_text(cost, 6)} paid per original unit), raised {percent_text(raised, 2)} of coups")
    return "\n".join(lines) + "\n"


def fit_reveal(shoe: Shoe, tableau: Tableau, family_text: str, advertised: dict[str, str], fee: Fraction,
               places: int = 10) -> str:
    """The reveal laws of a one-parameter family (``P1B1:1-p,P1P2B2:p``) that give the advertised RTPs of the Player
    and Banker bets (``{"player": "98.8%"}``), exactly, as the terminal shows them.

    Under a law the RTP is ret(p) / paid(p), both affine in p (each pattern's figures are fixed: its best raise
    does not depend on the law), so RTP in [low, high] is ret − low·paid ≥ 0 and high·paid − ret ≥ 0: polynomial
    conditions, solved as ``fit-rtp`` solves its bands (:func:`exactodds.fitting.solve`).
    """
    from ..errors import ExactOddsError, shown
    from ..exact import decimal_text
    from ..fitting import band, domain_of, pieces_text, read_affine, solve

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
    lines = [f"Peek: the reveal laws {family_text}, p from {decimal_text(domain[0], places)} to"
             f" {decimal_text(domain[1], places)}, that give each advertised RTP (every value that rounds to it)", ""]
    every = []
    for bet, text in advertised.items():
        if bet not in RETURNS:
            raise ExactOddsError(f"Peek's advertised RTPs are of the player and banker bets, not {shown(bet, 20)!r}")
        figures = [(c, pattern_figures(shoe, tableau, pattern, bet, fee)) for pattern, c in family]
        ret = [sum((a * f.expected_return for (a, _), f in figures), Fraction(0)),
               sum((b * f.expected_return for (_, b), f in figures), Fraction(0))]
        paid = [sum((a * f.expected_cost for (a, _), f in figures), Fraction(0)),
                sum((b * f.expected_cost for (_, b), f in figures), Fraction(0))]
        low, high = band(text)
        conditions = [([ret[0] - low * paid[0], ret[1] - low * paid[1]], Fraction(0), big),
                      ([high * paid[0] - ret[0], high * paid[1] - ret[1]], Fraction(0), big)]
        every += conditions
        pieces = solve(conditions, domain)
        lines.append(f"{bet:<7} {text:>8}: p {pieces_text(pieces, places) or 'none'}")
    pieces = solve(every, domain)
    found = pieces_text(pieces, places)
    none = "all at once: no law of this family gives every advertised RTP"
    lines += ["", f"all at once: p {found}" if found else none]
    return "\n".join(lines) + "\n"

