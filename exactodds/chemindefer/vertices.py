"""The vertices of the Player's arrangement: where an equilibrium's Player strategy can lie.

The Player's strategy is a point p of the box [0,1]^k (k = 1, or 5 in model B3). Each Banker
cell whose preference can change inside the box gives a hyperplane Δ_c(p) = 0 (the Banker is
indifferent there). Both the minimum of the convex piecewise-linear function
f(p) = base(p) + Σ_c max(0, Δ_c(p)) (zero-sum) and the Player's strategy in a Nash
equilibrium (with a commission) can be taken at a *vertex* of the arrangement formed by these
hyperplanes and the faces p_i = 0, p_i = 1: a point where, for some set I of free
coordinates, |I| of the hyperplanes meet inside the face that fixes the others at 0 or 1.

A vertex is named by a :class:`Spec` (which coordinates are fixed, and to what; which cells'
hyperplanes meet there) and computed exactly by :func:`exact_vertex`. When there are too
many to compute all exactly, :func:`float_vertices` lists them in floating point with numpy,
only as a *search*: the caller picks candidates from the floats and recomputes them exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations, product
from math import comb
from typing import Any, NamedTuple

from .linear import solve_square

#: A Banker cell's Δ (or any affine function of p): ``vec[0] + Σ_i vec[1 + i]·p_i``.
AffineQ = tuple[Fraction, ...]


class Spec(NamedTuple):
    """A vertex: ``fixed[i]`` is 0 or 1 for a fixed coordinate, None for a free one; ``cells`` meet there.

    >>> Spec((None, 1), (3,)).free
    (0,)
    """

    fixed: tuple[int | None, ...]
    cells: tuple[int, ...]

    @property
    def free(self) -> tuple[int, ...]:
        """The free coordinates, solved for from the cells' equations."""
        return tuple(i for i, v in enumerate(self.fixed) if v is None)


def vertex_count(k: int, m: int) -> int:
    """How many specs there are for ``k`` coordinates and ``m`` hyperplanes: Σ_r C(k,r)·2^(k−r)·C(m,r).

    >>> vertex_count(1, 4), vertex_count(5, 23)
    (6, 215151)
    """
    return sum(comb(k, r) * 2 ** (k - r) * comb(m, r) for r in range(k + 1))


def specs(k: int, hyperplanes: Sequence[int]) -> Iterator[Spec]:
    """Every spec: each coordinate fixed at 0, at 1 or free, and as many hyperplanes as free coordinates.

    >>> len(list(specs(1, [7, 9])))
    4
    """
    for fixed in product((0, 1, None), repeat=k):
        r = sum(v is None for v in fixed)
        for cells in combinations(hyperplanes, r):
            yield Spec(fixed, cells)


def exact_vertex(spec: Spec, deltas: Sequence[AffineQ]) -> tuple[Fraction, ...] | None:
    """The exact point of ``spec``, or None if its equations are singular or the point leaves the box.

    >>> exact_vertex(Spec((None,), (0,)), [(Fraction(-1), Fraction(3))])
    (Fraction(1, 3),)
    """
    free = spec.free
    point: list[Fraction] = [Fraction(v) if v is not None else Fraction(0) for v in spec.fixed]
    matrix = [[deltas[c][1 + i] for i in free] for c in spec.cells]
    rhs = [-(deltas[c][0] + sum((deltas[c][1 + i] * point[i] for i in range(len(point))), Fraction(0)))
           for c in spec.cells]
    solution = solve_square(matrix, rhs)
    if solution is None:
        return None
    for i, x in zip(free, solution):
        if not 0 <= x <= 1:
            return None
        point[i] = x
    return tuple(point)


def float_vertices(k: int, hyperplanes: Sequence[int], deltas: Sequence[AffineQ]) -> tuple[list[Spec], Any, Any]:
    """All specs whose point lies in the box (within a tolerance), with their points in floats (a search only).

    Each hyperplane is scaled to a unit normal first, so that "singular" and "inside"
    have a meaning independent of the shoe's size. Returns the specs, an array of their
    points, and a boolean array saying which hyperplanes (by position) meet at each.
    """
    import numpy as np

    rows = np.array([[float(v) for v in deltas[c]] for c in hyperplanes]).reshape(len(hyperplanes), k + 1)
    norms = np.linalg.norm(rows[:, 1:], axis=1)
    rows = rows / np.where(norms > 0, norms, 1.0)[:, None]
    found: list[Spec] = []
    points: list[Any] = []
    masks: list[Any] = []
    m = len(hyperplanes)
    combos: dict[int, Any] = {}
    for fixed in product((0, 1, None), repeat=k):
        free = [i for i, v in enumerate(fixed) if v is None]
        pinned = [i for i, v in enumerate(fixed) if v is not None]
        values = np.array([float(fixed[i]) for i in pinned])  # type: ignore[arg-type]
        base = np.array([float(v) if v is not None else 0.0 for v in fixed])
        r = len(free)
        if r == 0:
            found.append(Spec(fixed, ()))
            points.append(base[None, :])
            masks.append(np.zeros((1, m), dtype=bool))
            continue
        if r > len(hyperplanes):
            continue
        if r not in combos:  # the same hyperplane choices for every face with r free coordinates
            combos[r] = np.array(list(combinations(range(len(hyperplanes)), r)))
        chosen = combos[r]
        for start in range(0, len(chosen), 8192):
            block = chosen[start : start + 8192]
            sub = rows[block]  # (n, r, k + 1)
            matrix = sub[:, :, [1 + i for i in free]]
            rhs = -(sub[:, :, 0] + (sub[:, :, [1 + i for i in pinned]] @ values if pinned else 0.0))
            good = np.abs(np.linalg.det(matrix)) > 1e-12
            if not good.any():
                continue
            x = np.linalg.solve(matrix[good], rhs[good][:, :, None])[:, :, 0]
            inside = np.all((x >= -1e-9) & (x <= 1 + 1e-9), axis=1)
            pts = np.repeat(base[None, :], int(inside.sum()), axis=0)
            pts[:, free] = np.clip(x[inside], 0.0, 1.0)
            kept = block[good][inside]
            for combo in kept:
                found.append(Spec(fixed, tuple(hyperplanes[j] for j in combo)))
            mask = np.zeros((len(kept), m), dtype=bool)
            mask[np.arange(len(kept))[:, None], kept] = True
            points.append(pts)
            masks.append(mask)
    return found, np.concatenate(points), np.concatenate(masks)
