"""The hold after n hands of a bet of three or more pays (report/holdbounds.py, report/tailbounds.py): the exact law
against every sequence of hands and against the binomial, the bounds around the exact law, and the report's files."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import factorial, prod

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import slow

from exactodds.cards import Shoe
from exactodds.exact import grouped
from exactodds.puntobanco.odds import analyze
from exactodds.report import holdbounds, holdlaw, tailbounds
from exactodds.report.holdbounds import HoldBounds, Lattice, bounded_law_after, lattice_law_after
from exactodds.report.holdlaw import LEVELS, HoldAfter

#: A bet of four pays with a push and a fractional win: 3/2 and 5 paid, a push, a loss.
FOUR = {Fraction(5): Fraction(1, 20), Fraction(3, 2): Fraction(3, 10), Fraction(0): Fraction(1, 10),
        Fraction(-1): Fraction(11, 20)}


def brute(law: dict[Fraction, Fraction], n: int, levels=LEVELS) -> tuple[Fraction, list[Fraction]]:
    """The casino behind and the hold's percentiles after ``n`` hands, from every sequence of n pays."""
    outcomes: dict[Fraction, Fraction] = {}
    for hands in itertools.product(law.items(), repeat=n):
        total = sum((pay for pay, _ in hands), Fraction(0))
        outcomes[total] = outcomes.get(total, Fraction(0)) + prod((p for _, p in hands), start=Fraction(1))
    behind = sum((p for total, p in outcomes.items() if total > 0), Fraction(0))
    holds = sorted((-total / n, p) for total, p in outcomes.items())
    percentiles = []
    for level in levels:  # the smallest hold h with P(hold ≤ h) ≥ level
        running = Fraction(0)
        for hold, p in holds:
            running += p
            if running >= Fraction(level, 100):
                percentiles.append(hold)
                break
    return behind, percentiles


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6])
def test_the_lattice_law_is_that_of_every_sequence_of_hands(n) -> None:
    law = lattice_law_after(FOUR, n)
    behind, holds = brute(FOUR, n)
    assert law.exact and law.behind == behind and [h for _, h in law.percentiles] == holds


def test_both_ways_of_working_the_lattice_law_agree() -> None:
    """Hand by hand, and over the counts of each pay (the multinomial): the same integers."""
    lattice = Lattice.of(FOUR)
    for n in (1, 4, 9, 30):
        assert holdbounds._by_hands(lattice, n) == holdbounds._by_counts(lattice, n)
    assert sum(holdbounds._by_counts(lattice, 30)) == lattice.total ** 30


def test_the_lattice_law_of_a_two_pay_bet_is_the_binomial_one() -> None:
    """Two routes to the same exact law: the binomial sum of holdlaw.py and the lattice."""
    for win, loss, p in [(Fraction(40), Fraction(-1), Fraction(3, 133)),
                         (Fraction(8), Fraction(-99, 100), Fraction(2, 21))]:
        binomial = holdlaw.law_after(win, loss, p, holdlaw.EXACT_HANDS)
        lattice = lattice_law_after({win: p, loss: 1 - p}, holdlaw.EXACT_HANDS)
        assert (lattice.behind, lattice.percentiles) == (binomial.behind, binomial.percentiles)


def multinomial_behind(law: dict[Fraction, Fraction], n: int) -> Fraction:
    """P(the player's total > 0) after n hands of a three-pay bet, summed over the counts (a, b, c) of each pay."""
    (x, p), (y, q), (z, r) = sorted(law.items())
    return sum((Fraction(factorial(n), factorial(a) * factorial(b) * factorial(n - a - b))
                * p**a * q**b * r**(n - a - b) for a in range(n + 1)
                for b in range(n - a + 1) if a * x + b * y + (n - a - b) * z > 0), Fraction(0))


@pytest.fixture(scope="module")
def banker() -> dict[Fraction, Fraction]:
    """The Banker's law of pays on a full 8-deck shoe: 19/20, a push, a loss."""
    return dict(analyze(Shoe.standard(8), bets=["banker"]).bet("banker").pay_law)


def contains(bounds: HoldBounds, exact: HoldAfter) -> bool:
    """Whether every interval of the bounds holds the exact figure."""
    return (bounds.behind[0] <= exact.behind <= bounds.behind[1]
            and all(low <= hold <= high for (_, low, high), (_, hold) in zip(bounds.percentiles, exact.percentiles)))


@pytest.mark.parametrize("n", [40, 100])
def test_the_bounds_hold_the_exact_law_of_the_banker(banker, n) -> None:
    exact = lattice_law_after(banker, n)
    bounds = bounded_law_after(banker, n)
    assert contains(bounds, exact)
    # ... and they say something: every percentile within 14 points at 100 hands (the hold's range is 195 points).
    assert n < 100 or all(high - low < Fraction(14, 100) for _, low, high in bounds.percentiles)


def test_without_berry_esseens_epsilon_the_normal_law_misses_the_exact_one(banker, monkeypatch) -> None:
    """The bounds' test can fail: with the constant set to 0 (the bare normal law, no tail bound) some figure of the
    Banker after 100 hands falls outside."""
    monkeypatch.setattr(holdbounds, "BERRY_ESSEEN", Fraction(0))
    monkeypatch.setattr(holdbounds, "chernoff", lambda *args, **kwargs: Fraction(1))
    assert not contains(bounded_law_after(banker, 100), lattice_law_after(banker, 100))


@settings(max_examples=30, deadline=None)
@given(weights=st.lists(st.integers(1, 9), min_size=3, max_size=4),
       pays=st.lists(st.integers(-2, 12), min_size=3, max_size=4, unique=True),
       n=st.integers(20, 60))
def test_the_bounds_hold_the_exact_law_of_any_bet(weights, pays, n) -> None:
    size = min(len(weights), len(pays))
    total = sum(weights[:size])
    law = {Fraction(pay, 2): Fraction(w, total) for pay, w in zip(pays[:size], weights[:size])}
    assert contains(bounded_law_after(law, n), lattice_law_after(law, n))


def test_chernoffs_bound_is_above_the_exact_tail(banker) -> None:
    n = 60
    counts = holdbounds._by_hands(Lattice.of(banker), n)
    lattice = Lattice.of(banker)
    for t in (Fraction(0), Fraction(1, 10), Fraction(-3, 10)):
        above = sum((c for k, c in enumerate(counts) if lattice.pay(n, k) >= n * t), 0)
        below = sum((c for k, c in enumerate(counts) if lattice.pay(n, k) <= n * t), 0)
        assert Fraction(above, lattice.total**n) <= tailbounds.chernoff(banker, n, t, upper=True)
        assert Fraction(below, lattice.total**n) <= tailbounds.chernoff(banker, n, t, upper=False)


def test_the_normal_law_in_decimals_matches_published_values() -> None:
    """Φ and its quantile against the table values Φ(1.96) = 0.9750021048517795 and z(0.999) = 3.090232306167813."""
    import decimal

    with decimal.localcontext() as context:
        context.prec = tailbounds.DIGITS
        assert abs(tailbounds.phi(decimal.Decimal("1.96")) - decimal.Decimal("0.9750021048517795")) < 1e-15
        z, error = tailbounds.quantile(Fraction(999, 1000))
        assert abs(z - decimal.Decimal("3.090232306167813")) < 1e-14 and error < decimal.Decimal("1e-40")
        assert tailbounds.phi(decimal.Decimal(-8)) < decimal.Decimal("6.3e-16")  # 6.22e-16


@slow
def test_the_report_reads_back_the_banker_laws(tmp_path, banker) -> None:
    """The workbook's Banker sheet: the exact row after 100 hands equals a multinomial sum made here, and each
    bounded row is the bounds' own figures."""
    from click.testing import CliRunner

    from exactodds.cli import cli

    out = tmp_path / "r.xlsx"
    result = CliRunner().invoke(cli, ["report", "--bet", "banker", "--output", str(out)])
    assert result.exit_code == 0, result.output
    rows = [r for r in openpyxl.load_workbook(out)["banker"].iter_rows(values_only=True)]
    start = next(i for i, r in enumerate(rows) if r[0] == "hands n" and r[2] == "casino behind exact")
    exact_row = rows[start + 1]
    assert exact_row[0] == 100 and exact_row[-1] == "exact"
    assert Fraction(exact_row[2]) == multinomial_behind(banker, 100)
    top = next(i for i, r in enumerate(rows) if r[0] == "figure" and r[1] != "value")
    bounds = [bounded_law_after(banker, n) for n in holdlaw.HANDS[1:]]
    assert rows[top][1:7] == tuple(f"n = {grouped(b.hands)} {end}" for b in bounds for end in ("from", "to"))
    behind = next(r for r in rows[top:] if r[0] == "casino behind")
    assert list(behind[1:7]) == [float(x) for b in bounds for x in b.behind]
    one = next(r for r in rows[top:] if r[0] == "1% hold")
    assert list(one[1:7]) == [float(x) for b in bounds for x in b.percentiles[0][1:]]


def test_the_docs_quote_the_banker_figures(banker) -> None:
    """docs/report.md's worked figures for the Banker are the program's."""
    from pathlib import Path

    from exactodds.exact import decimal_text, percent_text
    from exactodds.report.lawtable import chance_text

    text = " ".join(Path(__file__).parent.parent.joinpath("docs", "report.md").read_text().split())
    assert f"probability {chance_text(lattice_law_after(banker, 100).behind)}, exactly rounded" in text
    thousand, top = bounded_law_after(banker, 1_000), bounded_law_after(banker, 100_000)
    _, low, high = thousand.percentiles[LEVELS.index(50)]
    assert (f"ε = {decimal_text(thousand.epsilon, 6)}, the casino behind with a probability between"
            f" {chance_text(thousand.behind[0])} and {chance_text(thousand.behind[1])}, the median hold between"
            f" {percent_text(low, 2)} and {percent_text(high, 2)}") in text
    _, low, high = top.percentiles[LEVELS.index(50)]
    assert f"the median is between {percent_text(low, 2)} and {percent_text(high, 2)}" in text
