"""Chemin de fer solved exactly: the zero-sum value (Foster's method) and the Nash equilibria with a commission.

The game theory, in brief. Fix the Player's drawing probabilities p at 5. The Banker's
payoff is a sum over his cells, each cell's share depending only on that cell's action, so his
best reply is cell by cell: draw where Δ_c(p) = E[payoff, cell c | draw] − E[payoff, cell c |
stand] is positive, stand where it is negative, anything where it is zero (the cell is
*tight*). Each Δ_c is affine in p. Hence

* **zero-sum** (no commission): the Banker's best-reply payoff is the convex piecewise-linear
  f(p) = base(p) + Σ_c max(0, Δ_c(p)), and the value of the game is min over the box of f
  (the Player's minimax). The minimum is attained at a vertex of the arrangement of the
  hyperplanes Δ_c = 0 and the box's faces (:mod:`.vertices`). The Banker's optimal strategy is
  pure in every cell with Δ_c(p*) ≠ 0; in the tight cells he mixes so that the Player has no
  profitable deviation: for a free p*_i the Player's payoff must be flat in p_i, at p*_i = 0 it
  must not rise with p_i, at 1 not fall (a small exact LP in the tight cells' probabilities).
  Every pair of optimal strategies is a saddle point, so the Banker's optimal set is exactly
  that LP's feasible set at any one optimal p*;
* **with a commission** the Banker's payoff is (1 − α)·[he wins] − [he loses] while the Player's
  is [he wins] − [he loses]: a bimatrix game. An equilibrium is a pair of mutual best replies:
  p where the Banker's cells are decided by the signs of his own Δ^α_c(p), and the tight cells'
  mixing making p a best reply for the Player. Candidates are again the arrangement's vertices
  (of the hyperplanes Δ^α_c = 0); each is tested exactly, and every equilibrium found is listed.

Floats appear only in :func:`~.vertices.float_vertices`, to search the 5-dimensional
arrangement of model B3; every reported number is recomputed and checked in rationals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from .linear import linear_program
from .model import BANKER_WIN, PLAYER_WIN, STOOD, Cells, punto_banco_draws
from .vertices import AffineQ, Spec, exact_vertex, float_vertices, specs, vertex_count

#: Up to this many vertices the arrangement is enumerated exactly; beyond, floats search it first.
EXACT_VERTICES = 3000
_ZERO, _ONE = Fraction(0), Fraction(1)  # shared: a Fraction is immutable
_TOL = 1e-9  # float search tolerance (probability units); never applied to a reported number


@dataclass(frozen=True)
class Setup:
    """The affine pieces of one game and commission: the Banker's Δ per cell and the Player's gain per cell.

    ``banker_base``/``player_base`` are each side's payoff when the Banker stands everywhere;
    drawing in cell c adds ``delta[c]`` to the Banker's payoff and ``gain[c]`` to the Player's
    (``gain = −delta`` without commission). ``hyperplanes`` are the cells whose Δ changes sign
    (or touches 0) inside the box; ``null`` those whose Δ is identically 0 (always tight), and
    ``idle`` those where moreover drawing never changes the Player's payoff: their choice is
    immaterial, so it does not count against uniqueness. ``scale`` is a common denominator of
    every coefficient above and the ``*_num`` fields their integer numerators over it (the same
    numbers, for exact arithmetic in integers).
    """

    game: Cells
    alpha: Fraction
    delta: tuple[AffineQ, ...]
    gain: tuple[AffineQ, ...]
    banker_base: AffineQ
    player_base: AffineQ
    hyperplanes: tuple[int, ...]
    null: tuple[int, ...]
    idle: tuple[int, ...]
    standard: tuple[bool, ...]
    scale: int
    delta_num: tuple[tuple[int, ...], ...]
    gain_num: tuple[tuple[int, ...], ...]
    banker_base_num: tuple[int, ...]
    player_base_num: tuple[int, ...]


def setup(game: Cells, alpha: Fraction) -> Setup:
    """Collect the affine pieces of ``game`` for the commission ``alpha`` (every count over the denominator).

    >>> from .model import build_game
    >>> s = setup(build_game("A1"), Fraction(0))
    >>> [s.game.cells[c] for c in s.hyperplanes]
    [('3', '9'), ('4', '1'), ('5', '4'), ('6', 'stood')]
    """
    k = game.dimension
    # With α = a/b, the Banker's payoff (1 − α)·wins − losses is ((b − a)·wins − b·losses)/b: over the
    # common denominator scale = b·(N)_6 every coefficient is an integer.
    a, b = alpha.numerator, alpha.denominator
    scale = b * game.denominator

    def banker(vecs: tuple[tuple[int, ...], ...]) -> list[int]:
        return [(b - a) * w - b * lose for w, lose in zip(vecs[BANKER_WIN], vecs[PLAYER_WIN])]

    def player(vecs: tuple[tuple[int, ...], ...]) -> list[int]:
        return [b * (lose - w) for w, lose in zip(vecs[BANKER_WIN], vecs[PLAYER_WIN])]

    nat = game.natural
    banker_base = [(b - a) * nat[BANKER_WIN] - b * nat[PLAYER_WIN]] + [0] * k
    player_base = [b * (nat[PLAYER_WIN] - nat[BANKER_WIN])] + [0] * k
    delta: list[tuple[int, ...]] = []
    gain: list[tuple[int, ...]] = []
    hyperplanes, null, idle = [], [], []
    for c in range(len(game.cells)):
        sb, db = banker(game.stand[c]), banker(game.draw[c])
        sp, dp = player(game.stand[c]), player(game.draw[c])
        banker_base = [x + y for x, y in zip(banker_base, sb)]
        player_base = [x + y for x, y in zip(player_base, sp)]
        d = tuple(y - x for x, y in zip(sb, db))
        delta.append(d)
        gain.append(tuple(y - x for x, y in zip(sp, dp)))
        low = d[0] + sum(min(0, v) for v in d[1:])
        high = d[0] + sum(max(0, v) for v in d[1:])
        if not any(d):
            null.append(c)
            if not any(gain[-1]):
                idle.append(c)  # drawing here changes nobody's payoff (every card leaves the result as it is)
        elif low <= 0 <= high:
            hyperplanes.append(c)
    standard = tuple(
        punto_banco_draws(t, STOOD if col == "stood" else int(col)) for t, (_, col) in zip(game.totals, game.cells)
    )

    def exact(vec: Sequence[int]) -> AffineQ:
        return tuple(Fraction(v, scale) for v in vec)

    return Setup(
        game=game, alpha=alpha, delta=tuple(exact(d) for d in delta), gain=tuple(exact(g) for g in gain),
        banker_base=exact(banker_base), player_base=exact(player_base), hyperplanes=tuple(hyperplanes),
        null=tuple(null), idle=tuple(idle), standard=standard, scale=scale, delta_num=tuple(delta),
        gain_num=tuple(gain), banker_base_num=tuple(banker_base), player_base_num=tuple(player_base),
    )  # fmt: skip


def common_point(p: Sequence[Fraction]) -> tuple[int, list[int]]:
    """``p`` over one common denominator: (P, [P·p_i]).

    >>> common_point((Fraction(1, 2), Fraction(1, 3)))
    (6, [3, 2])
    """
    den = 1
    for x in p:
        den = lcm(den, x.denominator)
    return den, [x.numerator * (den // x.denominator) for x in p]


def scaled_at(vec: Sequence[int], den: int, num: Sequence[int]) -> int:
    """``(vec[0] + Σ vec[1 + i]·p_i)·P`` for p = num/den: an affine function at a point, in integers.

    >>> scaled_at((1, 2, -3), 6, [3, 2])
    6
    """
    return vec[0] * den + sum(v * x for v, x in zip(vec[1:], num))


def best_reply_value(s: Setup, p: Sequence[Fraction]) -> Fraction:
    """f(p): the Banker's payoff when he replies best, cell by cell, to the Player's ``p``."""
    den, num = common_point(p)
    total = scaled_at(s.banker_base_num, den, num)
    for d in s.delta_num:
        value = scaled_at(d, den, num)
        if value > 0:
            total += value
    return Fraction(total, s.scale * den)


@dataclass(frozen=True)
class Mixing:
    """The Banker's strategy in every cell at an equilibrium p, and whether it is the only one there."""

    q: tuple[Fraction, ...]
    unique: bool


def banker_mixing(s: Setup, p: Sequence[Fraction]) -> Mixing | None:
    """The Banker's equilibrium reply to ``p``: pure where Δ_c(p) ≠ 0, mixed so the Player cannot gain; else None.

    Among the solutions the one closest to the punto banco table is returned (an LP).
    """
    point = tuple(p)
    k = s.game.dimension
    den, num = common_point(point)
    values = [scaled_at(d, den, num) for d in s.delta_num]  # the signs of Δ_c(p), in integers
    tight = [c for c, v in enumerate(values) if v == 0]
    q = [_ONE if v > 0 else _ZERO for v in values]
    # The Player's gradient g_i = ∂(Player's payoff)/∂p_i, split into the fixed cells' part and the tight cells'
    # (the fixed cells' part summed in integers over the common denominator).
    drawn = [c for c, v in enumerate(values) if v > 0]
    fixed_part = [
        Fraction(s.player_base_num[1 + i] + sum(s.gain_num[c][1 + i] for c in drawn), s.scale) for i in range(k)
    ]
    equalities, inequalities = [], []
    for i in range(k):
        row = [s.gain[c][1 + i] for c in tight]
        if 0 < point[i] < 1:
            equalities.append((row, -fixed_part[i]))  # indifferent: g_i = 0
        elif point[i] == 0:
            inequalities.append((row, -fixed_part[i]))  # no gain in drawing more: g_i ≤ 0
        else:
            inequalities.append(([-v for v in row], fixed_part[i]))  # no gain in drawing less: g_i ≥ 0
    if not tight:
        feasible = all(v == 0 for _, v in equalities) and all(b >= 0 for _, b in inequalities)
        return Mixing(tuple(q), True) if feasible else None
    cost = [Fraction(-1 if s.standard[c] else 1) for c in tight]
    found = linear_program(cost, equalities, inequalities)
    if found is None:
        return None
    for c, v in zip(tight, found):
        q[c] = v
    unique = True
    for j in range(len(tight)):
        if tight[j] in s.idle:
            continue
        unit = [Fraction(int(t == j)) for t in range(len(tight))]
        low = linear_program(unit, equalities, inequalities)
        high = linear_program([-u for u in unit], equalities, inequalities)
        if low is None or high is None or low[j] != high[j]:
            unique = False
            break
    return Mixing(tuple(q), unique)


def zero_sum_minimisers(s: Setup) -> tuple[Fraction, list[tuple[Fraction, ...]]]:
    """min f over the box and every arrangement vertex attaining it (exact; floats only prune the B3 search)."""
    k = s.game.dimension
    points: list[tuple[Fraction, ...]] = []
    if vertex_count(k, len(s.hyperplanes)) <= EXACT_VERTICES:
        points = _exact_points(specs(k, s.hyperplanes), s.delta)
    else:
        import numpy as np

        found, pts, _ = float_vertices(k, s.hyperplanes, s.delta)
        f = _float_affine(s.banker_base, pts) + sum(
            np.maximum(0.0, _float_affine(s.delta[c], pts)) for c in range(len(s.delta)) if c not in s.null
        )
        near = np.nonzero(f <= f.min() + _TOL)[0]
        points = _exact_points((found[j] for j in near), s.delta)
    values = {point: best_reply_value(s, point) for point in points}
    best = min(values.values())
    return best, sorted(point for point, v in values.items() if v == best)


def nash_candidates(s: Setup) -> list[tuple[Fraction, ...]]:
    """The arrangement vertices that may carry an equilibrium (all of them exactly when few; else a float pre-test)."""
    k = s.game.dimension
    if vertex_count(k, len(s.hyperplanes)) <= EXACT_VERTICES or s.null:
        return _exact_points(specs(k, s.hyperplanes), s.delta)
    import numpy as np

    found, pts, mask = float_vertices(k, s.hyperplanes, s.delta)
    hyper = list(s.hyperplanes)
    # Cells decided over the whole box have the same action at every vertex.
    decided = [c for c in range(len(s.delta)) if c not in hyper]
    fixed_draw = [c for c in decided if max(s.delta[c][0], s.delta[c][0] + sum(s.delta[c][1:])) > 0]
    const = np.array([float(s.player_base[1 + i] + sum(s.gain[c][1 + i] for c in fixed_draw)) for i in range(k)])
    gains = np.array([[float(s.gain[c][1 + i]) for i in range(k)] for c in hyper])  # (m, k)
    deltas = np.stack([_float_affine(s.delta[c], pts) for c in hyper], axis=1)  # (n, m)
    scale = max(float(abs(v)) for c in hyper for v in s.delta[c][1:])
    # Tight at the vertex: its own hyperplanes, and any other that passes (nearly) through it.
    tight = mask | (np.abs(deltas) <= _TOL * scale)
    draw = (deltas > 0) & ~tight
    rest = const + draw.astype(float) @ gains
    # A necessary condition: with the tight cells free in [0, 1], each g_i's range must allow p_i's condition.
    low = rest + tight.astype(float) @ np.minimum(gains, 0.0)
    high = rest + tight.astype(float) @ np.maximum(gains, 0.0)
    interior = (pts > _TOL) & (pts < 1 - _TOL)
    ok = np.where(interior, (low <= _TOL) & (high >= -_TOL),
                  np.where(pts <= _TOL, low <= _TOL, high >= -_TOL)).all(axis=1)
    return _exact_points((found[j] for j in np.nonzero(ok)[0]), s.delta)


def _exact_points(candidates: object, deltas: Sequence[AffineQ]) -> list[tuple[Fraction, ...]]:
    seen: dict[tuple[Fraction, ...], None] = {}
    for spec in candidates:  # type: ignore[attr-defined]
        assert isinstance(spec, Spec)
        point = exact_vertex(spec, deltas)
        if point is not None:
            seen.setdefault(point)
    return sorted(seen)


def _float_affine(vec: AffineQ, pts: Any) -> Any:
    import numpy as np

    array = np.asarray(pts)
    return float(vec[0]) + array @ np.array([float(v) for v in vec[1:]])
