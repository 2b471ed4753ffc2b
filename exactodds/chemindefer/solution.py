"""The public face of the game solver: :func:`solve`, :func:`fixed_policy_value` and the pinned JSON.

>>> solution = solve(model="A1")
>>> solution.player["5"], solution.mixed, solution.unique
(Fraction(9, 11), (('6', 'stood', Fraction(859, 2288)),), True)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..cards import Shoe
from ..errors import ExactOddsError, unknown_name
from ..exact import fraction_text, parse_fraction
from . import GAME
from .model import STOOD, Cells, build_game, check_model, punto_banco_draws
from .solver import (
    Setup,
    banker_mixing,
    best_reply_value,
    common_point,
    nash_candidates,
    scaled_at,
    setup,
    zero_sum_minimisers,
)

Cell = tuple[str, str]


@dataclass(frozen=True)
class Equilibrium:
    """One equilibrium: both strategies, both sides' expected payoffs per coup, and its cells of note.

    ``player`` maps each Player decision ("5", or a two-card five such as "1,4" in model B3) to
    his drawing probability; ``banker`` maps each reachable cell (hand, player_third) to the
    Banker's. ``mixed`` lists the cells where the Banker mixes; ``deviations`` the cells where
    he plays purely against the punto banco table. ``unique`` says whether the Banker's
    strategy is the only equilibrium reply at this ``player`` strategy.
    """

    player: dict[str, Fraction]
    banker: dict[Cell, Fraction]
    banker_ev: Fraction
    player_ev: Fraction
    mixed: tuple[tuple[str, str, Fraction], ...]
    deviations: tuple[tuple[str, str, str], ...]
    unique: bool


@dataclass(frozen=True)
class GameSolution:
    """The solution of one model, shoe and commission: every equilibrium found, the first being the reported one.

    ``value`` is the Banker's expected payoff per coup in the zero-sum game (None with a
    commission); ``unique`` says whether the equilibrium (both strategies) is unique.
    """

    game: str
    model: str
    shoe: Shoe | None
    commission: Fraction
    value: Fraction | None
    equilibria: tuple[Equilibrium, ...]
    unique: bool

    @property
    def first(self) -> Equilibrium:
        """The reported equilibrium."""
        return self.equilibria[0]

    @property
    def player(self) -> dict[str, Fraction]:
        """The Player's drawing probabilities at 5 in the reported equilibrium."""
        return self.first.player

    @property
    def banker(self) -> dict[Cell, Fraction]:
        """The Banker's drawing probability in every reachable cell in the reported equilibrium."""
        return self.first.banker

    @property
    def banker_ev(self) -> Fraction:
        """The Banker's expected payoff per coup (after commission) in the reported equilibrium."""
        return self.first.banker_ev

    @property
    def player_ev(self) -> Fraction:
        """The Player's expected payoff per coup in the reported equilibrium."""
        return self.first.player_ev

    @property
    def mixed(self) -> tuple[tuple[str, str, Fraction], ...]:
        """The Banker's mixed cells (hand, player_third, draw probability) in the reported equilibrium."""
        return self.first.mixed

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The cells (hand, player_third, action) where the Banker's pure choice differs from punto banco."""
        return self.first.deviations


@dataclass(frozen=True)
class PolicyValue:
    """Exact probabilities of the three results and each side's expected payoff under a fixed policy."""

    banker_wins: Fraction
    player_wins: Fraction
    ties: Fraction
    banker_ev: Fraction
    player_ev: Fraction


def parse_rate(commission: Fraction | int | str) -> Fraction:
    """Read a commission rate (``0.05``, ``"1/20"``) and check 0 ≤ rate < 1.

    >>> parse_rate("5/100"), parse_rate(0)
    (Fraction(1, 20), Fraction(0, 1))
    """
    if isinstance(commission, str):
        try:
            rate = parse_fraction(commission)
        except ValueError as err:
            raise ExactOddsError(f"the commission must be a rate such as 0.05 or 1/20: {err}") from None
    elif isinstance(commission, (Fraction, int)) and not isinstance(commission, bool):
        rate = Fraction(commission)
    else:
        raise ExactOddsError(f"the commission must be an exact rate such as Fraction(1, 20), not {commission!r}")
    if not 0 <= rate < 1:
        raise ExactOddsError(
            f"the commission must be at least 0 and below 1 (100% of the Banker's winnings), not {fraction_text(rate)}"
        )
    return rate


def _check(game: str, model: str, shoe: Shoe | None, commission: Fraction | int | str) -> tuple[Cells, Fraction]:
    if game != GAME:
        raise unknown_name("game", str(game), (GAME,))
    rate = parse_rate(commission)
    return build_game(check_model(model), shoe), rate


def solve(
    game: str = GAME, model: str = "B2", shoe: Shoe | None = None, commission: Fraction | int | str = 0
) -> GameSolution:
    """Solve chemin de fer exactly under an information model (A1: no shoe; B2/B3: ``shoe``, default 8 decks).

    Without commission: the value (min over the Player's p of the Banker's best-reply payoff)
    and an optimal pair; with one: every Nash equilibrium found at the arrangement's vertices.
    Every solution returned has been verified exactly (saddle point or Nash conditions).

    >>> s = solve(model="A1", commission=Fraction(1, 20))
    >>> s.value is None, s.player["5"], len(s.equilibria)
    (True, Fraction(179, 214), 1)
    """
    g, rate = _check(game, model, shoe, commission)
    s = setup(g, rate)
    found: list[tuple[tuple[Fraction, ...], tuple[Fraction, ...], bool]] = []
    value: Fraction | None = None
    if rate == 0:
        value, points = zero_sum_minimisers(s)
        mixing = banker_mixing(s, points[0])
        if mixing is None:  # impossible by the minimax theorem; a failure here is a bug, never a wrong answer
            raise ArithmeticError("no saddle point at the minimiser of the Banker's best-reply payoff")
        found.append((points[0], mixing.q, mixing.unique and len(points) == 1))
        unique = found[0][2]
    else:
        for point in nash_candidates(s):
            reply = banker_mixing(s, point)
            if reply is not None:
                found.append((point, reply.q, reply.unique))
        if not found:
            raise ArithmeticError("no equilibrium found at the vertices of the Player's arrangement")
        unique = len(found) == 1 and found[0][2]
    equilibria = tuple(_equilibrium(s, p, q, own) for p, q, own in found)
    if value is not None and equilibria[0].banker_ev != value:
        raise ArithmeticError("the saddle point's payoff differs from the game's value")
    return GameSolution(GAME, g.model, g.shoe, rate, value, equilibria, unique)


def verify(s: Setup, p: tuple[Fraction, ...], q: tuple[Fraction, ...]) -> tuple[Fraction, Fraction]:
    """Check exactly that (p, q) is an equilibrium; return (Banker EV, Player EV) or raise ArithmeticError.

    The Banker is checked cell by cell (his payoff is additive over cells, so no strategy of his
    does better if no single cell does); the Player against every one of his pure strategies,
    each priced from the outcome counts.
    """
    g = s.game
    den, num = common_point(p)
    for c, qc in enumerate(q):
        d = scaled_at(s.delta_num[c], den, num)  # the sign of Δ_c(p), in integers
        if (d > 0 and qc != 1) or (d < 0 and qc != 0):
            raise ArithmeticError(f"the Banker would gain by changing cell {g.cells[c]}")
    banker_ev, player_ev = _evs(g, s.alpha, p, q)
    for pure in itertools.product((Fraction(0), Fraction(1)), repeat=g.dimension):
        if _evs(g, s.alpha, pure, q)[1] > player_ev:
            raise ArithmeticError(f"the Player would gain by drawing at 5 with {pure}")
    return banker_ev, player_ev


def _evs(g: Cells, alpha: Fraction, p: tuple[Fraction, ...], q: tuple[Fraction, ...]) -> tuple[Fraction, Fraction]:
    bw, pw, _ = g.outcome(p, q)
    return (1 - alpha) * bw - pw, pw - bw


def _equilibrium(s: Setup, p: tuple[Fraction, ...], q: tuple[Fraction, ...], unique: bool) -> Equilibrium:
    banker_ev, player_ev = verify(s, p, q)
    if s.alpha == 0 and banker_ev != best_reply_value(s, p):
        raise ArithmeticError("the Banker's payoff at the saddle point is not his best-reply payoff")
    g = s.game
    mixed = tuple((h, col, qc) for (h, col), qc in zip(g.cells, q) if 0 < qc < 1)
    deviations = tuple(
        (h, col, "draw" if qc == 1 else "stand")
        for (h, col), qc, std in zip(g.cells, q, s.standard)
        if qc in (0, 1) and (qc == 1) != std
    )
    return Equilibrium(dict(zip(g.players, p)), dict(zip(g.cells, q)), banker_ev, player_ev, mixed, deviations, unique)


def fixed_policy_value(
    model: str = "B2",
    shoe: Shoe | None = None,
    player: Fraction | int | Mapping[str, Fraction | int] = 1,
    banker: Mapping[Cell, Fraction | int] | None = None,
    commission: Fraction | int | str = 0,
) -> PolicyValue:
    """Price a fixed policy exactly: the Player draws at 5 with ``player``, the Banker as ``banker`` says.

    ``banker`` maps cells (hand, player_third) to drawing probabilities; unnamed cells follow
    the punto banco table. With ``player=1`` and no ``banker`` this is punto banco itself.

    >>> v = fixed_policy_value("A1")
    >>> v.banker_wins + v.player_wins + v.ties
    Fraction(1, 1)
    """
    g, rate = _check(GAME, model, shoe, commission)
    if isinstance(player, Mapping):
        unknown = set(player) - set(g.players)
        if unknown:
            names = ", ".join(g.players)
            raise ExactOddsError(f"unknown Player decision {sorted(unknown)[0]!r}: this model has {names}")
        p = tuple(Fraction(player.get(name, 1)) for name in g.players)
    else:
        p = (Fraction(player),) * g.dimension
    chosen = dict(banker or {})
    unknown_cells = set(chosen) - set(g.cells)
    if unknown_cells:
        raise ExactOddsError(f"cell {sorted(unknown_cells)[0]!r} is not a Banker cell this model and shoe can reach")
    q = tuple(
        Fraction(chosen[cell]) if cell in chosen else Fraction(_standard(t, cell[1]))
        for cell, t in zip(g.cells, g.totals)
    )
    if any(not 0 <= x <= 1 for x in (*p, *q)):
        raise ExactOddsError("every drawing probability must lie between 0 and 1")
    bw, pw, tie = g.outcome(p, q)
    return PolicyValue(bw, pw, tie, (1 - rate) * bw - pw, pw - bw)


def _standard(total: int, column: str) -> bool:
    return punto_banco_draws(total, STOOD if column == "stood" else int(column))


def solution_json(solution: GameSolution) -> dict[str, Any]:
    """The solution as the pinned JSON object (exact numbers as ``"n/d"`` strings).

    >>> doc = solution_json(solve(model="A1"))
    >>> doc["player"], doc["banker"]["mixed"], doc["shoe"], doc["value"]
    ({'draw_at_5': '9/11'}, [{'hand': '6', 'player_third': 'stood', 'draw': '859/2288'}], 'infinite', '679568/53094899')
    """
    shoe: Any = "infinite"
    if solution.shoe is not None:
        shoe = {"cards": solution.shoe.size, "counts": solution.shoe.as_dict()}
    doc: dict[str, Any] = {
        "game": solution.game,
        "model": solution.model,
        "shoe": shoe,
        "commission": fraction_text(solution.commission),
    }
    if solution.value is not None:
        doc["value"] = fraction_text(solution.value)
    doc.update(_equilibrium_json(solution.first, solution.model))
    doc["unique"] = solution.unique
    if solution.value is None:
        doc["equilibria"] = [_equilibrium_json(e, solution.model) | {"unique": e.unique} for e in solution.equilibria]
    return doc


def _equilibrium_json(e: Equilibrium, model: str) -> dict[str, Any]:
    draw: Any = (
        {name: fraction_text(v) for name, v in e.player.items()} if model == "B3" else fraction_text(e.player["5"])
    )
    return {
        "banker_ev": fraction_text(e.banker_ev),
        "player_ev": fraction_text(e.player_ev),
        "player": {"draw_at_5": draw},
        "banker": {
            "mixed": [{"hand": h, "player_third": col, "draw": fraction_text(q)} for h, col, q in e.mixed],
            "deviations": [{"hand": h, "player_third": col, "action": a} for h, col, a in e.deviations],
        },
    }
