"""The random layer of a lit-card game: how many identities are lit, their multipliers, and what a hand's multiplier
is worth given its identity pattern.

n identities are lit (n fixed, or drawn from a law), uniformly among the D of the virtual deck,
and each gets an independent multiplier m from a law. A hand whose distinct identities appear
e_1, …, e_k times is paid M = ∏ m_i^{e_i} over its lit identities i. For a set T of t of the
k identities, the chance that exactly those are lit is

    q(t, k) = Σ_n P(n) · C(D − k, n − t) / C(D, n)

(the other n − t lit identities fall outside the hand), so

    E[M^j] = Σ_{T ⊆ {1..k}} q(|T|, k) · ∏_{i ∈ T} E[m^{j·e_i}],

a polynomial in the law's moments: a bet's exact return is a sum of these over the shoe's
counts of each pattern (:mod:`exactodds.puntobanco.lit`).

>>> law = LitLaw(((1, Fraction(1)),), ((Fraction(2), Fraction(1)),), deck=2)
>>> law.moment((1,), 1), law.law((1, 1))  # one card: lit half the time; two: exactly one of them is lit
(Fraction(3, 2), {Fraction(2, 1): Fraction(1, 1)})
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb, lcm
from typing import NamedTuple

from ...errors import ExactOddsError, shown
from ...exact import fraction_text, parse_percent

#: The identities of a standard deck: the virtual deck's size in every preset.
STANDARD_DECK = 52
#: The most values one law may list (a law is typed by hand: a few values).
MAX_VALUES = 64


class LitLaw(NamedTuple):
    """The law of the lit count n (value, probability), of each lit identity's multiplier, and the virtual deck's
    size D."""

    counts: tuple[tuple[int, Fraction], ...]
    multipliers: tuple[tuple[Fraction, Fraction], ...]
    deck: int = STANDARD_DECK

    def lit_chance(self, lit: int, held: int) -> Fraction:
        """q(t, k): the chance that ``lit`` given identities of ``held`` distinct ones are lit and the others not.

        >>> LitLaw(((5, Fraction(1)),), ((Fraction(2), Fraction(1)),)).lit_chance(1, 1)
        Fraction(5, 52)
        """
        d = self.deck
        if held > d:  # more distinct identities than the deck has: no such hand is lit or unlit
            return Fraction(0)
        return sum((p * Fraction(comb(d - held, n - lit), comb(d, n)) for n, p in self.counts if n >= lit),
                   Fraction(0))

    def power(self, e: int) -> Fraction:
        """E[m^e] for one lit identity's multiplier m."""
        return sum((p * m**e for m, p in self.multipliers), Fraction(0))

    def moment(self, pattern: tuple[int, ...], j: int) -> Fraction:
        """E[M^j] for a hand of identity pattern ``pattern`` (copies of each distinct identity).

        >>> law = LitLaw(((1, Fraction(1)),), ((Fraction(3), Fraction(1)),), deck=4)
        >>> law.moment((2,), 1)  # a card held twice, lit one time in four: 9 then, else 1
        Fraction(3, 1)
        """
        k = len(pattern)
        chances = [self.lit_chance(t, k) for t in range(k + 1)]
        powers = {e: self.power(j * e) for e in set(pattern)}
        total = Fraction(0)
        for t in range(k + 1):
            for chosen in combinations(pattern, t):
                term = chances[t]
                for e in chosen:
                    term *= powers[e]
                total += term
        return total

    def law(self, pattern: tuple[int, ...]) -> dict[Fraction, Fraction]:
        """The exact law of M for a hand of identity pattern ``pattern``: each value and its probability (kept for
        the last laws and patterns asked: the Player's and the Banker's bets read the same patterns).

        The identities are taken one by one, each unlit or lit with a multiplier m (M times m^e), keeping how many
        are lit: the chance that exactly those are lit, q(t, k), depends on that number alone.

        >>> LitLaw(((1, Fraction(1)),), ((Fraction(3), Fraction(1)),), deck=4).law((2,))
        {Fraction(1, 1): Fraction(3, 4), Fraction(9, 1): Fraction(1, 4)}
        """
        return dict(_law(self, pattern))

    @property
    def text(self) -> str:
        """The law in words, for the header line and the rules."""
        return f"{counts_text(self.counts)} lit of {self.deck}, multipliers {pairs_text(self.multipliers)}"


@lru_cache(maxsize=1024)
def _law(law: LitLaw, pattern: tuple[int, ...]) -> dict[Fraction, Fraction]:
    """:meth:`LitLaw.law`, kept (callers copy it)."""
    k = len(pattern)
    # In integers: each multiplier's chance times L (their common denominator), so that a state with t lit
    # identities weighs L^t times its chance; a whole multiplier as an int (products of ints stay ints).
    scale = lcm(*(p.denominator for _, p in law.multipliers))
    drawn = [(int(m) if m.denominator == 1 else m, int(p * scale)) for m, p in law.multipliers]
    states: dict[tuple[int, Fraction | int], int] = {(0, 1): 1}
    for e in pattern:
        step: dict[tuple[int, Fraction | int], int] = {}
        for (t, value), weight in states.items():
            step[t, value] = step.get((t, value), 0) + weight
            for m, p in drawn:
                key = (t + 1, value * m**e)
                step[key] = step.get(key, 0) + weight * p
        states = step
    chances = [law.lit_chance(t, k) / scale**t for t in range(k + 1)]
    out: dict[Fraction, Fraction] = {}
    for (t, value), weight in states.items():
        if chances[t] and weight:
            v = Fraction(value)
            out[v] = out.get(v, Fraction(0)) + chances[t] * weight
    # A pattern of more identities than the deck holds never happens: its law is taken as M = 1.
    return {v: p for v, p in sorted(out.items()) if p} or {Fraction(1): Fraction(1)}


def counts_text(counts: tuple[tuple[int, Fraction], ...]) -> str:
    """A lit count's law as typed: ``5``, or ``1:1/5,2:1/5``."""
    if len(counts) == 1:
        return str(counts[0][0])
    return ",".join(f"{n}:{fraction_text(p)}" for n, p in counts)


def pairs_text(pairs: tuple[tuple[Fraction, Fraction], ...]) -> str:
    """A multiplier law as typed: ``2:2/5,3:2/5,5:3/20,8:1/20``."""
    return ",".join(f"{fraction_text(v)}:{fraction_text(p)}" for v, p in pairs)


def read_law(text: str, what: str) -> tuple[tuple[Fraction, Fraction], ...]:
    """A law typed as ``VALUE:PROBABILITY,…`` (exact: ``1/3``, ``40%``, ``0.4``), checked to add up to 1; a bare value
    is certain.

    >>> read_law("2:40%,3:0.4,5:3/20,8:5%", "multipliers")[-1]
    (Fraction(8, 1), Fraction(1, 20))
    >>> read_law("2:1/2,3:1/3", "multipliers")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the multipliers' probabilities add up to 5/6, not 1
    """
    items = [item.strip() for item in str(text).split(",")]
    if not text or not all(items):
        raise ExactOddsError(f"the {what} are VALUE:PROBABILITY pairs joined by commas, such as 2:40%,3:60%,"
                             f" not {shown(text, 40)!r}")
    if len(items) > MAX_VALUES:
        raise ExactOddsError(f"a law lists at most {MAX_VALUES} values; the {what} list {len(items)}")
    out: dict[Fraction, Fraction] = {}
    for item in items:
        value_text, _, chance_text = item.partition(":")
        value = _number(value_text, what)
        chance = _number(chance_text, what) if chance_text.strip() else Fraction(1)
        if ":" in item and not chance_text.strip():
            raise ExactOddsError(f"a value of the {what} lacks its probability: {shown(item, 40)!r}")
        if chance < 0 or chance > 1:
            raise ExactOddsError(f"a probability of the {what} is between 0 and 1, not {fraction_text(chance)}")
        if value in out:
            raise ExactOddsError(f"the {what} list the value {fraction_text(value)} twice")
        out[value] = chance
    total = sum(out.values(), Fraction(0))
    if total != 1:
        raise ExactOddsError(f"the {what}' probabilities add up to {fraction_text(total)}, not 1")
    return tuple(sorted((v, p) for v, p in out.items() if p))


def _number(text: str, what: str) -> Fraction:
    """A value or probability of a law, exactly (``1/3``, ``40%``, ``0.4``)."""
    try:
        return parse_percent(text)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed number {shown(text.strip())!r} in the {what}: write e.g. 2:40%,3:60%"
                             " (exact: 1/3, 40%, 0.4)") from None


def read_counts(text: str, deck: int = STANDARD_DECK) -> tuple[tuple[int, Fraction], ...]:
    """The lit count: a whole number from 0 to the deck's size, or its law (``1:20%,2:80%``).

    >>> read_counts("5")
    ((5, Fraction(1, 1)),)
    >>> read_counts("53")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the lit count is a whole number from 0 to 52 (the virtual deck), not 53
    """
    law = read_law(text, "lit counts")
    for n, _ in law:
        if n.denominator != 1 or not 0 <= n <= deck:
            raise ExactOddsError(f"the lit count is a whole number from 0 to {deck} (the virtual deck), not"
                                 f" {fraction_text(n)}")
    return tuple((int(n), p) for n, p in law)


def read_multipliers(text: str) -> tuple[tuple[Fraction, Fraction], ...]:
    """The multipliers' law: each value positive.

    >>> read_multipliers("0:1/2,2:1/2")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: a multiplier is positive, not 0
    """
    law = read_law(text, "multipliers")
    for m, _ in law:
        if m <= 0:
            raise ExactOddsError(f"a multiplier is positive, not {fraction_text(m)}")
    return law
