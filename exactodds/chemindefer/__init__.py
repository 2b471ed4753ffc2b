"""Exact solutions of chemin de fer, the two-person game punto banco came from.

The Player may draw or stand on 5, the Banker may choose in every cell of the tableau; the
solver finds the equilibria exactly, for the infinite deck (model A1) or any finite shoe
(models B2 and B3), with or without the house's commission on the Banker's wins.

>>> from exactodds.chemindefer import solve
>>> solve(model="A1").player["5"]
Fraction(9, 11)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import COLUMNS, GAME, MODELS, Game, build_game, punto_banco_draws

if TYPE_CHECKING:
    from .solution import (
        Equilibrium,
        GameSolution,
        PolicyValue,
        fixed_policy_value,
        parse_rate,
        solution_json,
        solve,
        verify,
    )

#: The solver's names, imported on first use (the CLI's start-up needs only the model's choices).
_SOLUTION = frozenset(
    ("Equilibrium", "GameSolution", "PolicyValue", "fixed_policy_value", "parse_rate", "solution_json", "solve",
     "verify")
)  # fmt: skip


def __getattr__(name: str) -> Any:
    """Import the solver's names on first use."""
    if name not in _SOLUTION:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import solution

    value = getattr(solution, name)
    globals()[name] = value
    return value


__all__ = [
    "COLUMNS",
    "GAME",
    "MODELS",
    "Equilibrium",
    "Game",
    "GameSolution",
    "PolicyValue",
    "build_game",
    "fixed_policy_value",
    "parse_rate",
    "punto_banco_draws",
    "solution_json",
    "solve",
    "verify",
]
