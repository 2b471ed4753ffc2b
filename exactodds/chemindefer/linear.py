"""Exact linear algebra in rationals: small square systems and a small linear program.

Both are used on tiny problems (at most a few dozen rows): the vertices of the Player's
arrangement (k × k systems, k ≤ 5) and the Banker's mixing in his tight cells (a handful of
variables). Everything is in :class:`fractions.Fraction`, so every answer is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

Number = Fraction | int


def solve_square(matrix: Sequence[Sequence[Number]], rhs: Sequence[Number]) -> tuple[Fraction, ...] | None:
    """Solve ``matrix · x = rhs`` exactly by Gaussian elimination, or return None when the matrix is singular.

    >>> solve_square([[2, 1], [1, 3]], [3, 5])
    (Fraction(4, 5), Fraction(7, 5))
    >>> solve_square([[1, 2], [2, 4]], [1, 2]) is None
    True
    """
    n = len(rhs)
    rows = [[Fraction(v) for v in row] + [Fraction(b)] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / head[col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], head)]
    return tuple(rows[i][n] / rows[i][i] for i in range(n))


def linear_program(
    cost: Sequence[Number],
    equalities: Sequence[tuple[Sequence[Number], Number]] = (),
    inequalities: Sequence[tuple[Sequence[Number], Number]] = (),
) -> tuple[Fraction, ...] | None:
    """Minimise ``cost · x`` over 0 ≤ x ≤ 1 with ``row · x = b`` and ``row · x ≤ b``; None when infeasible.

    A two-phase simplex method on a dense tableau with Bland's rule (so it cannot cycle),
    in exact rationals. Meant for a few variables and constraints.

    >>> linear_program([-1, -1], inequalities=[([1, 2], 2)])
    (Fraction(1, 1), Fraction(1, 2))
    >>> linear_program([0], equalities=[([1], 2)]) is None
    True
    """
    n = len(cost)
    # Standard form: every constraint an equality with a non-negative right side; the bounds
    # x_j ≤ 1 and the inequalities get a slack column each.
    rows: list[list[Fraction]] = []
    rights: list[Fraction] = []
    slacks = len(inequalities) + n
    width = n + slacks
    for row, b in equalities:
        rows.append([Fraction(v) for v in row] + [Fraction(0)] * slacks)
        rights.append(Fraction(b))
    bounded = [(list(row), b) for row, b in inequalities] + [([int(i == j) for i in range(n)], 1) for j in range(n)]
    for s, (row, b) in enumerate(bounded):
        rows.append([Fraction(v) for v in row] + [Fraction(int(t == s)) for t in range(slacks)])
        rights.append(Fraction(b))
    for i, b in enumerate(rights):
        if b < 0:
            rows[i] = [-v for v in rows[i]]
            rights[i] = -b
    m = len(rows)
    # Phase 1: an artificial variable per row; minimise their sum to find a feasible basis.
    tableau = [rows[i] + [Fraction(int(t == i)) for t in range(m)] + [rights[i]] for i in range(m)]
    basis = [width + i for i in range(m)]
    phase1 = [Fraction(0)] * width + [Fraction(1)] * m
    if _simplex(tableau, basis, phase1) > 0:
        return None
    # Drive any artificial still basic (at level 0) out of the basis, or drop its redundant row.
    for i in range(m - 1, -1, -1):
        if basis[i] >= width:
            col = next((j for j in range(width) if tableau[i][j] != 0), None)
            if col is None:
                del tableau[i], basis[i]
            else:
                _pivot(tableau, basis, i, col)
    for row in tableau:
        del row[width:-1]
    phase2 = [Fraction(v) for v in cost] + [Fraction(0)] * slacks
    _simplex(tableau, basis, phase2)
    x = [Fraction(0)] * width
    for i, j in enumerate(basis):
        x[j] = tableau[i][-1]
    return tuple(x[:n])


def _pivot(tableau: list[list[Fraction]], basis: list[int], row: int, col: int) -> None:
    head = tableau[row]
    value = head[col]
    tableau[row] = head = [v / value for v in head]
    for r, other in enumerate(tableau):
        if r != row and other[col] != 0:
            factor = other[col]
            tableau[r] = [a - factor * b for a, b in zip(other, head)]
    basis[row] = col


def _simplex(tableau: list[list[Fraction]], basis: list[int], cost: list[Fraction]) -> Fraction:
    """Run the simplex method in place from a feasible basis; return the optimal cost (bounded problems only)."""
    while True:
        duals = [cost[j] for j in basis]
        entering = None
        for j in range(len(cost)):
            if j not in basis:
                reduced = cost[j] - sum(d * row[j] for d, row in zip(duals, tableau))
                if reduced < 0:
                    entering = j  # Bland's rule: the lowest index with a negative reduced cost
                    break
        if entering is None:
            return sum((d * row[-1] for d, row in zip(duals, tableau)), Fraction(0))
        leaving, best = None, None
        for i, row in enumerate(tableau):
            if row[entering] > 0:
                ratio = row[-1] / row[entering]
                if best is None or ratio < best or (ratio == best and basis[i] < basis[leaving or 0]):
                    leaving, best = i, ratio
        if leaving is None:  # cannot happen: every variable is bounded by 0 ≤ x ≤ 1
            raise ArithmeticError("unbounded linear program")
        _pivot(tableau, basis, leaving, entering)
