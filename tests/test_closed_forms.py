"""Closed forms in the number of decks: exact polynomials that reproduce the engine, and their limits."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from profiles import slow_cases, sweep
from published_data import read_rows

import exactodds as xo
from exactodds.cards import falling_factorial
from exactodds.puntobanco.closed_forms import CLOSED_FORM_EVENTS, FIT_DECKS, polynomial_text
from exactodds.puntobanco.infinite import INFINITE_ORDERINGS, infinite_coups

EVENTS = {
    "banker-wins": lambda s: s.winner == "banker",
    "player-wins": lambda s: s.winner == "player",
    "tie": lambda s: s.winner == "tie",
    "dragon-7": lambda s: s.winner == "banker" and s.banker_cards == 3 and s.banker_total == 7,
    "panda-8": lambda s: s.winner == "player" and s.player_cards == 3 and s.player_total == 8,
}


@pytest.fixture(scope="module")
def forms() -> dict[str, xo.ClosedForm]:
    return {form.id: form for form in xo.closed_forms()}


def test_one_closed_form_per_event(forms):
    assert list(forms) == [event_id for event_id, *_ in CLOSED_FORM_EVENTS] == list(EVENTS)


@pytest.mark.parametrize("decks", sweep([1, 2, 3, 8, *slow_cases(13)], 2))  # 13 decks: a walk no other test shares
def test_closed_forms_reproduce_the_reference_engine(forms, standard_coups, decks):
    distribution = standard_coups(decks)
    for event_id, event in EVENTS.items():
        assert forms[event_id].count(decks) == distribution.count(event), (event_id, decks)
        assert forms[event_id].probability(decks) == distribution.probability(event)


def test_closed_forms_reproduce_the_published_counts_by_decks(forms):
    for row in read_rows("published_counts.txt"):
        decks, banker, player, ties, total = map(int, row.fields)
        assert forms["banker-wins"].count(decks) == banker, row.where
        assert forms["player-wins"].count(decks) == player, row.where
        assert forms["tie"].count(decks) == ties, row.where
        assert sum(forms[e].count(decks) for e in ("banker-wins", "player-wins", "tie")) == total


def test_main_outcomes_add_up_to_the_falling_factorial_as_polynomials(forms):
    total = [sum(c) for c in zip(*(forms[e].coefficients for e in ("banker-wins", "player-wins", "tie")))]
    for decks in range(0, 30):
        assert sum(c * decks**k for k, c in enumerate(total)) == falling_factorial(52 * decks, 6)


def test_polynomials_are_integer_of_degree_six_and_vanish_at_zero_decks(forms):
    for form in forms.values():
        assert form.degree == 6 and len(form.coefficients) == 7
        assert all(isinstance(c, int) for c in form.coefficients)
        assert form.count(0) == 0
        assert form.fitted_at == FIT_DECKS and set(form.verified_at).isdisjoint(FIT_DECKS)


def test_limit_is_the_leading_coefficient_and_the_infinite_shoe(forms):
    infinite = infinite_coups()
    for event_id, form in forms.items():
        assert form.limit == Fraction(form.coefficients[6], 52**6)
        exact = Fraction(sum(n for s, n in infinite.items() if EVENTS[event_id](s)), INFINITE_ORDERINGS)
        assert form.limit == exact, event_id
    assert str(forms["banker-wins"].limit) == "2212744/4826809"


def test_probabilities_approach_the_limit(forms):
    for form in forms.values():
        gaps = [abs(form.probability(d) - form.limit) for d in (10, 100, 1000)]
        assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < Fraction(1, 10**5)


def test_printed_forms_are_exact_python_expressions(forms):
    sympy = pytest.importorskip("sympy")
    d = sympy.Symbol("d")
    for form in forms.values():
        expanded = sympy.sympify(form.polynomial_text(), locals={"d": d})
        assert sympy.expand(sympy.sympify(form.factored, locals={"d": d}) - expanded) == 0
        probability = sympy.sympify(form.probability_text, locals={"d": d})
        denominator = sympy.prod([52 * d - k for k in range(6)])
        assert sympy.simplify(probability - expanded / denominator) == 0
        for decks in (1, 7, 8):
            assert sympy.Rational(form.count(decks)) == expanded.subs(d, decks)


def test_polynomial_text():
    assert polynomial_text([0, 0, 1]) == "d**2"
    assert polynomial_text([-195, 8517, -1]) == "-d**2 + 8517*d - 195"
    assert polynomial_text([5], "x") == "5"


def test_too_few_fit_points_is_an_error():
    with pytest.raises(xo.ExactOddsError, match="7 distinct"):
        xo.closed_forms(fit=(1, 2, 3, 4, 5, 6))


def test_a_different_fit_gives_the_same_polynomials(forms):
    other = {f.id: f for f in xo.closed_forms(fit=(2, 3, 5, 8, 9, 11, 13), verify=(1, 4))}
    assert {k: f.coefficients for k, f in other.items()} == {k: f.coefficients for k, f in forms.items()}


def test_the_committed_closed_forms_file_matches(forms):
    from pathlib import Path

    committed = json.loads((Path(__file__).resolve().parents[1] / "tables/closed-forms.json").read_text("utf-8"))
    for event_id, form in forms.items():
        assert committed["events"][event_id]["coefficients"] == [str(c) for c in form.coefficients]


def test_importing_exactodds_and_its_cli_does_not_import_sympy():
    code = "import sys, exactodds, exactodds.cli, exactodds.tables; print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
