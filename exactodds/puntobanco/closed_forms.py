"""Closed forms in the number of decks: exact counts as polynomials in d, probabilities as rational functions.

With d standard decks every rank has 4d cards, and the count of ordered six-card draws
that end in a given way is a sum of products of six falling factors (4d − k) or
(52d − k): a polynomial in d of degree at most 6 with integer coefficients. It is found
here by exact interpolation through the engine's counts at seven deck counts, then
checked against the engine at other deck counts. Each probability is that polynomial
over (52d)(52d − 1)(52d − 2)(52d − 3)(52d − 4)(52d − 5); as d → ∞ it tends to the
leading coefficient over 52^6, the probability in an infinite shoe.

sympy is imported inside the functions that use it, so importing exactodds stays fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..cards import Shoe
from ..errors import ExactOddsError
from .odds import analyze
from .rules import PUNTO_BANCO, RuleSet

#: The deck counts the polynomials are interpolated through (seven points fix degree 6).
FIT_DECKS = (1, 2, 3, 4, 5, 6, 7)
#: The deck counts at which each polynomial is checked against the engine.
VERIFY_DECKS = (8, 9, 10, 11, 12, 13, 20, 100)
#: (id, what is counted, bet id, outcome id) of each closed form.
CLOSED_FORM_EVENTS = (
    ("banker-wins", "Banker wins", "banker", "win"),
    ("player-wins", "Player wins", "player", "win"),
    ("tie", "Tie", "tie", "win"),
    ("dragon-7", "Dragon 7 wins (the Banker wins with a three-card 7)", "dragon-7", "win"),
    ("panda-8", "Panda 8 wins (the Player wins with a three-card 8)", "panda-8", "win"),
)
DENOMINATOR_TEXT = "(52*d)*(52*d - 1)*(52*d - 2)*(52*d - 3)*(52*d - 4)*(52*d - 5)"


@dataclass(frozen=True)
class ClosedForm:
    """The count of ordered six-card draws of one event as an exact polynomial in the number of decks d.

    >>> form = ClosedForm("x", "example", (0, 0, 1), "d**2", "d**2 / (52*d - 1)", Fraction(1), (), ())
    >>> form.count(3), form.polynomial_text()
    (9, 'd**2')
    """

    id: str
    name: str
    #: Integer coefficients by ascending power of d: count(d) = Σ coefficients[k]·d^k.
    coefficients: tuple[int, ...]
    #: The polynomial factored over the integers (as sympy factors it), in Python syntax.
    factored: str
    #: The probability in lowest terms as a ratio of factored polynomials, in Python syntax.
    probability_text: str
    #: The probability's limit as d → ∞ (the infinite shoe).
    limit: Fraction
    fitted_at: tuple[int, ...]
    verified_at: tuple[int, ...]

    @property
    def degree(self) -> int:
        """The degree of the polynomial."""
        return max((k for k, c in enumerate(self.coefficients) if c), default=0)

    def count(self, decks: int) -> int:
        """The polynomial at ``decks``: the exact count of ordered six-card draws."""
        total = 0
        for c in reversed(self.coefficients):
            total = total * decks + c
        return total

    def probability(self, decks: int) -> Fraction:
        """The exact probability with ``decks`` decks."""
        return Fraction(self.count(decks), Shoe.standard(decks).orderings())

    def polynomial_text(self, var: str = "d") -> str:
        """The expanded polynomial in Python syntax, highest power first."""
        return polynomial_text(self.coefficients, var)


def polynomial_text(coefficients: Sequence[int], var: str = "d") -> str:
    """Write integer coefficients (ascending powers) as a polynomial in Python syntax.

    >>> polynomial_text([-5, 52]), polynomial_text([0, -1, 0, 3]), polynomial_text([])
    ('52*d - 5', '3*d**3 - d', '0')
    """
    terms = []
    for power in range(len(coefficients) - 1, -1, -1):
        c = coefficients[power]
        if not c:
            continue
        monomial = "" if power == 0 else var if power == 1 else f"{var}**{power}"
        magnitude = abs(c)
        if monomial:
            body = monomial if magnitude == 1 else f"{magnitude}*{monomial}"
        else:
            body = str(magnitude)
        sign = "-" if c < 0 else "+"
        terms.append((sign, body))
    if not terms:
        return "0"
    first_sign, first = terms[0]
    text = ("-" if first_sign == "-" else "") + first
    return text + "".join(f" {sign} {body}" for sign, body in terms[1:])


def _factored_text(constant: int, factors: Sequence[tuple[tuple[int, ...], int]], var: str = "d") -> str:
    """Write constant × Π factor^multiplicity, each factor as ascending integer coefficients."""
    parts = []
    for coeffs, mult in factors:
        text = polynomial_text(coeffs, var)
        if sum(1 for c in coeffs if c) > 1:
            text = f"({text})"
        parts.append(text if mult == 1 else f"{text}**{mult}")
    if constant == 1 and parts:
        return "*".join(parts)
    if constant == -1 and parts:
        return "-" + "*".join(parts)
    return "*".join([str(constant), *parts])


def _sympy() -> Any:
    """sympy, imported on first use only (it takes a while and the CLI rarely needs it)."""
    import sympy

    return sympy


def _integer_factors(expr: Any, var: Any) -> tuple[int, list[tuple[tuple[int, ...], int]]]:
    """Factor a polynomial over the integers into a sign-normalised constant and sorted factors."""
    sympy = _sympy()

    constant, factors = sympy.factor_list(expr, var)
    sign = 1
    out = []
    for factor, mult in factors:
        coeffs = [int(c) for c in reversed(sympy.Poly(factor, var).all_coeffs())]
        if coeffs[-1] < 0:
            coeffs = [-c for c in coeffs]
            sign *= (-1) ** mult
        out.append((tuple(coeffs), int(mult)))
    out.sort(key=lambda item: (len(item[0]), tuple(abs(c) for c in reversed(item[0])), item[0], item[1]))
    return sign * int(constant), out


def engine_counts(decks: int, rules: RuleSet = PUNTO_BANCO) -> dict[str, int]:
    """The engine's exact count for each closed-form event with ``decks`` decks.

    >>> engine_counts(1)["banker-wins"]
    6737232640
    """
    analysis = analyze(Shoe.standard(decks), rules, sorted({bet for _, _, bet, _ in CLOSED_FORM_EVENTS}))
    counts = {}
    for event_id, _, bet_id, outcome_id in CLOSED_FORM_EVENTS:
        (figures,) = (o for o in analysis.bet(bet_id).outcomes if o.outcome.id == outcome_id)
        counts[event_id] = figures.count
    return counts


def closed_forms(fit: Sequence[int] = FIT_DECKS, verify: Sequence[int] = VERIFY_DECKS) -> tuple[ClosedForm, ...]:
    """Interpolate each event's count through the engine at ``fit`` deck counts and check it at ``verify``.

    Raises :class:`ExactOddsError` if a polynomial misses the engine anywhere (it cannot
    unless the engine's counts stop being polynomial in d). Imports sympy.

    >>> banker = closed_forms()[0]
    >>> banker.count(8), banker.degree, str(banker.limit)
    (2292252566437888, 6, '2212744/4826809')
    """
    sympy = _sympy()
    if len(set(fit)) < 7:
        raise ExactOddsError("a closed form of degree up to 6 needs at least 7 distinct deck counts to fit")
    d = sympy.Symbol("d")
    fitted = {n: engine_counts(n) for n in fit}
    denominator = sympy.prod([52 * d - k for k in range(6)])
    forms = []
    for event_id, name, _, _ in CLOSED_FORM_EVENTS:
        poly = sympy.Poly(sympy.interpolate([(n, fitted[n][event_id]) for n in fit], d), d)
        raw = list(reversed(poly.all_coeffs()))
        if any(not c.is_integer for c in raw):
            raise ExactOddsError(f"the count of {name} is not an integer polynomial in d: {poly}")
        coefficients = tuple(int(c) for c in raw)
        constant, factors = _integer_factors(poly.as_expr(), d)
        numerator, denom = sympy.fraction(sympy.cancel(poly.as_expr() / denominator))
        n_const, n_factors = _integer_factors(numerator, d)
        d_const, d_factors = _integer_factors(denom, d)
        if d_const < 0:
            n_const, d_const = -n_const, -d_const
        probability_text = f"{_factored_text(n_const, n_factors)} / ({_factored_text(d_const, d_factors)})"
        limit = sympy.limit(poly.as_expr() / denominator, d, sympy.oo)
        limit_fraction = Fraction(int(limit.p), int(limit.q))
        forms.append(
            ClosedForm(
                event_id,
                name,
                coefficients,
                _factored_text(constant, factors),
                probability_text,
                limit_fraction,
                tuple(fit),
                tuple(verify),
            )
        )
    for n in verify:
        counts = engine_counts(n)
        for form in forms:
            if form.count(n) != counts[form.id]:
                raise ExactOddsError(
                    f"the closed form of {form.name} gives {form.count(n)} at d = {n}"
                    f" but the engine counts {counts[form.id]}"
                )
    return tuple(forms)
